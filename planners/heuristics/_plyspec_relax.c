/* _plyspec_relax: the optional C accelerator of planners/heuristics/relaxation.py.

   It runs the relaxed exploration of `Relaxation.explore` (the heap form: facts settle by
   cost, of equal costs the last reached first, as Fast Downward's bucket queue pops them:
   the start fact, then the state's facts from the highest index down; an operator fires
   when its last precondition settles; a fact's supporter is the first operator that
   reaches it at its cost) over flat
   arrays built once per task, and on top of it h_max, h_add, the relaxed plan (the chosen
   relaxed operators, inserted into a Python set in the same order as the Python code) and
   h_FF's preferred operators; and landmark-cut (`Cut`, for planners/heuristics/lmcut.py).
   Integer costs only (>= 0): Relaxation uses the Python code for any other task.  With
   the same order of settling and of firing, every cost, supporter, value and set equals
   the pure-Python code's (tests/test_relaxed_accelerator.py).

   Nodes: node 0 is the start fact (Python's index -1), node f + 1 is fact f. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define UNREACHED INT64_MAX

typedef struct {
    int64_t *d;
    Py_ssize_t *f, len;
    Py_ssize_t *n, pushed;      /* with `n` (Graph's heap): push numbers, the last pushed
                                   of equal costs first; without (Cut's): the least node */
} Heap;

typedef struct {
    PyObject_HEAD
    Py_ssize_t facts, nodes, ops, owners, ngoals;
    int64_t *cost, *op_cost;
    Py_ssize_t *pre_at, *pre, *add_at, *add, *user_at, *user, *goal, *owner;
    char *is_goal;
    /* work space of one evaluation */
    int64_t *dist, *so_far;
    Py_ssize_t *supporter, *waiting, *stack;
    unsigned char *in_state, *chosen, *owned;
    Heap heap;
    Py_ssize_t heap_cap, stack_cap;
} Graph;

static void graph_free_arrays(Graph *g)
{
    void *arrays[] = {g->cost, g->op_cost, g->pre_at, g->pre, g->add_at, g->add, g->user_at,
                      g->user, g->goal, g->owner, g->is_goal, g->dist, g->so_far, g->heap.d,
                      g->supporter, g->waiting, g->heap.f, g->stack, g->in_state, g->chosen,
                      g->owned, g->heap.n};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        PyMem_Free(arrays[i]);
}

static void graph_dealloc(Graph *g)
{
    graph_free_arrays(g);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

/* the integers of sequence `seq` into a new array (each in [low, high]); NULL on error */
static int64_t *int_array(PyObject *seq, Py_ssize_t *length, int64_t low, int64_t high)
{
    PyObject *fast = PySequence_Fast(seq, "a list of integers");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int64_t *out = PyMem_Calloc(n + 1, sizeof(int64_t));
    for (Py_ssize_t i = 0; out && i < n; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if ((v == -1 && PyErr_Occurred()) || v < low || v > high) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "an integer out of range");
            PyMem_Free(out);
            out = NULL;
        } else
            out[i] = v;
    }
    Py_DECREF(fast);
    if (!out && !PyErr_Occurred())
        PyErr_NoMemory();
    *length = n;
    return out;
}

/* a list of index lists (facts, shifted to nodes) as CSR arrays; `empty` stands for [] */
static int csr(PyObject *lists, Py_ssize_t count, Py_ssize_t nodes, Py_ssize_t empty,
               Py_ssize_t **at, Py_ssize_t **items)
{
    Py_ssize_t total = 0, n;
    if (PySequence_Size(lists) != count) {
        PyErr_SetString(PyExc_ValueError, "one list per operator");
        return -1;
    }
    *at = PyMem_Calloc(count + 1, sizeof(Py_ssize_t));
    for (Py_ssize_t k = 0; *at && k < count; k++) {
        PyObject *one = PySequence_GetItem(lists, k);
        Py_ssize_t size = one ? PySequence_Size(one) : -1;
        Py_XDECREF(one);
        if (size < 0)
            return -1;
        total += size ? size : (empty >= 0);
        (*at)[k + 1] = total;
    }
    *items = PyMem_Calloc(total + 1, sizeof(Py_ssize_t));
    if (!*at || !*items) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *one = PySequence_GetItem(lists, k);
        int64_t *values = one ? int_array(one, &n, 0, nodes - 2) : NULL;
        Py_XDECREF(one);
        if (!values)
            return -1;
        for (Py_ssize_t i = 0; i < n; i++)
            (*items)[(*at)[k] + i] = (Py_ssize_t)values[i] + 1;
        if (!n && empty >= 0)
            (*items)[(*at)[k]] = empty;
        PyMem_Free(values);
    }
    return 0;
}

static PyObject *graph_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"facts", "pre", "add", "cost", "goal", "owner", "op_cost", NULL};
    Py_ssize_t facts, n;
    PyObject *pre, *add, *cost, *goal, *owner, *op_cost;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nOOOOOO", names, &facts, &pre, &add, &cost,
                                     &goal, &owner, &op_cost))
        return NULL;
    Graph *g = (Graph *)type->tp_alloc(type, 0);
    if (!g)
        return NULL;
    g->facts = facts;
    g->nodes = facts + 1;
    int64_t *values = NULL;
    if (!(g->cost = int_array(cost, &g->ops, 0, (int64_t)1 << 40)) ||
        !(g->op_cost = int_array(op_cost, &g->owners, 0, (int64_t)1 << 40)) ||
        csr(pre, g->ops, g->nodes, 0, &g->pre_at, &g->pre) < 0 ||
        csr(add, g->ops, g->nodes, -1, &g->add_at, &g->add) < 0 ||
        !(values = int_array(goal, &g->ngoals, 0, facts - 1)))
        goto fail;
    g->goal = PyMem_Calloc(g->ngoals + 1, sizeof(Py_ssize_t));
    g->is_goal = PyMem_Calloc(g->nodes, 1);
    if (!g->goal || !g->is_goal)
        goto nomemory;
    for (Py_ssize_t i = 0; i < g->ngoals; i++) {
        g->goal[i] = (Py_ssize_t)values[i] + 1;
        g->is_goal[g->goal[i]] = 1;
    }
    PyMem_Free(values);
    if (!(values = int_array(owner, &n, -1, g->owners - 1)))
        goto fail;
    if (n != g->ops) {
        PyErr_SetString(PyExc_ValueError, "one owner per operator");
        goto fail;
    }
    g->owner = PyMem_Calloc(g->ops + 1, sizeof(Py_ssize_t));
    if (!g->owner)
        goto nomemory;
    for (Py_ssize_t k = 0; k < g->ops; k++)
        g->owner[k] = (Py_ssize_t)values[k];
    PyMem_Free(values);
    values = NULL;
    /* users: the operators of each node's preconditions, in operator order */
    Py_ssize_t entries = g->pre_at[g->ops], adds = g->add_at[g->ops];
    g->user_at = PyMem_Calloc(g->nodes + 1, sizeof(Py_ssize_t));
    g->user = PyMem_Calloc(entries + 1, sizeof(Py_ssize_t));
    if (!g->user_at || !g->user)
        goto nomemory;
    for (Py_ssize_t i = 0; i < entries; i++)
        g->user_at[g->pre[i] + 1]++;
    for (Py_ssize_t f = 0; f < g->nodes; f++)
        g->user_at[f + 1] += g->user_at[f];
    Py_ssize_t *fill = PyMem_Calloc(g->nodes + 1, sizeof(Py_ssize_t));
    if (!fill)
        goto nomemory;
    memcpy(fill, g->user_at, g->nodes * sizeof(Py_ssize_t));
    for (Py_ssize_t k = 0; k < g->ops; k++)
        for (Py_ssize_t i = g->pre_at[k]; i < g->pre_at[k + 1]; i++)
            g->user[fill[g->pre[i]]++] = k;
    PyMem_Free(fill);
    g->heap_cap = g->nodes + adds + 1;
    g->stack_cap = g->ngoals + entries + 1;
    g->dist = PyMem_Calloc(g->nodes, sizeof(int64_t));
    g->so_far = PyMem_Calloc(g->ops + 1, sizeof(int64_t));
    g->heap.d = PyMem_Calloc(g->heap_cap, sizeof(int64_t));
    g->supporter = PyMem_Calloc(g->nodes, sizeof(Py_ssize_t));
    g->waiting = PyMem_Calloc(g->ops + 1, sizeof(Py_ssize_t));
    g->heap.f = PyMem_Calloc(g->heap_cap, sizeof(Py_ssize_t));
    g->heap.n = PyMem_Calloc(g->heap_cap, sizeof(Py_ssize_t));
    g->stack = PyMem_Calloc(g->stack_cap, sizeof(Py_ssize_t));
    g->in_state = PyMem_Calloc(g->nodes, 1);
    g->chosen = PyMem_Calloc(g->ops + 1, 1);
    g->owned = PyMem_Calloc(g->owners + 1, 1);
    if (g->dist && g->so_far && g->heap.d && g->supporter && g->waiting && g->heap.f &&
        g->heap.n && g->stack && g->in_state && g->chosen && g->owned)
        return (PyObject *)g;
nomemory:
    PyErr_NoMemory();
fail:
    PyMem_Free(values);
    Py_DECREF(g);
    return NULL;
}

/* a binary heap of (cost, node), least first, of equal costs the last pushed (with push
   numbers) or the least node; keys are never pushed twice */
static inline int heap_less(Heap *h, Py_ssize_t a, Py_ssize_t b)
{
    if (h->d[a] != h->d[b])
        return h->d[a] < h->d[b];
    return h->n ? h->n[a] > h->n[b] : h->f[a] < h->f[b];
}

static inline void heap_swap(Heap *h, Py_ssize_t a, Py_ssize_t b)
{
    int64_t d = h->d[a];
    Py_ssize_t f = h->f[a];
    h->d[a] = h->d[b], h->f[a] = h->f[b];
    h->d[b] = d, h->f[b] = f;
    if (h->n) {
        Py_ssize_t n = h->n[a];
        h->n[a] = h->n[b], h->n[b] = n;
    }
}

static inline void heap_push(Heap *h, int64_t d, Py_ssize_t f)
{
    Py_ssize_t i = h->len++;
    h->d[i] = d, h->f[i] = f;
    if (h->n)
        h->n[i] = h->pushed++;
    while (i > 0 && heap_less(h, i, (i - 1) / 2)) {
        heap_swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static inline void heap_pop(Heap *h, int64_t *d, Py_ssize_t *f)
{
    *d = h->d[0], *f = h->f[0];
    h->len--;
    h->d[0] = h->d[h->len], h->f[0] = h->f[h->len];
    if (h->n)
        h->n[0] = h->n[h->len];
    for (Py_ssize_t i = 0;;) {
        Py_ssize_t least = i, left = 2 * i + 1, right = left + 1;
        if (left < h->len && heap_less(h, left, least))
            least = left;
        if (right < h->len && heap_less(h, right, least))
            least = right;
        if (least == i)
            break;
        heap_swap(h, i, least);
        i = least;
    }
}

/* explore from the relaxed state `state` (little-endian fact bits); 1 if every goal was
   reached, 0 if not, -1 on error */
static int explore(Graph *g, PyObject *state, int use_max, int until_goals)
{
    const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(state);
    Py_ssize_t size = PyBytes_GET_SIZE(state);
    for (Py_ssize_t f = 0; f < g->nodes; f++)
        g->dist[f] = UNREACHED, g->supporter[f] = -1;
    memset(g->in_state, 0, g->nodes);
    memset(g->so_far, 0, g->ops * sizeof(int64_t));
    for (Py_ssize_t k = 0; k < g->ops; k++)
        g->waiting[k] = g->pre_at[k + 1] - g->pre_at[k];
    g->heap.len = g->heap.pushed = 0;
    g->dist[0] = 0, g->in_state[0] = 1;
    for (Py_ssize_t i = 0; i < size; i++)
        for (int bit = 0; bit < 8 && bytes[i]; bit++)
            if (bytes[i] >> bit & 1) {
                Py_ssize_t f = 8 * i + bit + 1;
                if (f >= g->nodes) {
                    PyErr_SetString(PyExc_IndexError, "a fact beyond the task's");
                    return -1;
                }
                g->dist[f] = 0, g->in_state[f] = 1;
                heap_push(&g->heap, 0, f);
            }
    heap_push(&g->heap, 0, 0);               /* the start fact settles first */
    Py_ssize_t goals_left = g->ngoals;
    while (g->heap.len && (goals_left || !until_goals)) {
        int64_t d;
        Py_ssize_t f;
        heap_pop(&g->heap, &d, &f);
        if (d > g->dist[f])
            continue;                        /* an outdated entry */
        goals_left -= g->is_goal[f];
        for (Py_ssize_t u = g->user_at[f]; u < g->user_at[f + 1]; u++) {
            Py_ssize_t k = g->user[u];
            g->so_far[k] += d;
            if (--g->waiting[k])
                continue;
            int64_t reach = (use_max ? d : g->so_far[k]) + g->cost[k];
            for (Py_ssize_t a = g->add_at[k]; a < g->add_at[k + 1]; a++) {
                Py_ssize_t new = g->add[a];
                if (reach < g->dist[new]) {
                    g->dist[new] = reach, g->supporter[new] = k;
                    heap_push(&g->heap, reach, new);
                }
            }
        }
    }
    return !goals_left;
}

static PyObject *cost_object(int64_t d)
{
    return d == UNREACHED ? PyFloat_FromDouble(Py_HUGE_VAL) : PyLong_FromLongLong(d);
}

/* explore(state, use_max, until_goals) -> (cost per fact, supporter per fact, reached) as
   Relaxation.explore returns them (the start fact last) */
static PyObject *graph_explore(Graph *g, PyObject *args)
{
    PyObject *state;
    int use_max, until_goals;
    if (!PyArg_ParseTuple(args, "Spp", &state, &use_max, &until_goals))
        return NULL;
    int reached = explore(g, state, use_max, until_goals);
    if (reached < 0)
        return NULL;
    PyObject *dist = PyList_New(g->nodes), *supporter = PyList_New(g->nodes);
    for (Py_ssize_t i = 0; dist && supporter && i < g->nodes; i++) {
        Py_ssize_t node = i < g->facts ? i + 1 : 0;
        PyObject *d = cost_object(g->dist[node]), *s = PyLong_FromSsize_t(g->supporter[node]);
        if (!d || !s) {
            Py_XDECREF(d), Py_XDECREF(s);
            Py_CLEAR(dist);
            break;
        }
        PyList_SET_ITEM(dist, i, d);
        PyList_SET_ITEM(supporter, i, s);
    }
    if (!dist || !supporter) {
        Py_XDECREF(dist), Py_XDECREF(supporter);
        return NULL;
    }
    return Py_BuildValue("NNO", dist, supporter, reached ? Py_True : Py_False);
}

/* value(state, use_max) -> h_max (the costliest goal, 0 without goals) or h_add (their
   sum); inf when a goal is unreached */
static PyObject *graph_value(Graph *g, PyObject *args)
{
    PyObject *state;
    int use_max;
    if (!PyArg_ParseTuple(args, "Sp", &state, &use_max))
        return NULL;
    int reached = explore(g, state, use_max, 1);
    if (reached <= 0)
        return reached < 0 ? NULL : PyFloat_FromDouble(Py_HUGE_VAL);
    int64_t value = 0;
    for (Py_ssize_t i = 0; i < g->ngoals; i++) {
        int64_t d = g->dist[g->goal[i]];
        value = use_max ? (d > value ? d : value) : value + d;
    }
    return PyLong_FromLongLong(value);
}

/* plan(state, preferred) -> (h_FF, the relaxed plan's relaxed operators) as
   Relaxation.relaxed_plan, or with `preferred` (h_FF, preferred operators) as
   Relaxation.h_ff_preferred */
static PyObject *graph_plan(Graph *g, PyObject *args)
{
    PyObject *state;
    int preferred;
    if (!PyArg_ParseTuple(args, "Sp", &state, &preferred))
        return NULL;
    int reached = explore(g, state, 0, 1);
    if (reached < 0)
        return NULL;
    PyObject *chosen = PySet_New(NULL);
    if (!chosen)
        return NULL;
    if (!reached)
        return Py_BuildValue("dN", Py_HUGE_VAL, chosen);
    memset(g->chosen, 0, g->ops);
    memset(g->owned, 0, g->owners);
    Py_ssize_t top = 0;
    int64_t value = 0;
    for (Py_ssize_t i = 0; i < g->ngoals; i++)
        g->stack[top++] = g->supporter[g->goal[i]];
    while (top) {
        Py_ssize_t k = g->stack[--top];
        if (k < 0 || g->chosen[k])
            continue;
        g->chosen[k] = 1;
        PyObject *item = PyLong_FromSsize_t(k);
        if (!item || PySet_Add(chosen, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(chosen);
            return NULL;
        }
        Py_DECREF(item);
        Py_ssize_t owner = g->owner[k];
        if (owner >= 0 && !g->owned[owner]) {
            g->owned[owner] = 1;
            value += g->op_cost[owner];
        }
        for (Py_ssize_t i = g->pre_at[k]; i < g->pre_at[k + 1]; i++)
            g->stack[top++] = g->supporter[g->pre[i]];
    }
    if (!preferred)
        return Py_BuildValue("LN", (long long)value, chosen);
    /* the plan's operators applicable in the state, in the order of the set `chosen` */
    PyObject *helpful = PySet_New(NULL), *iterator = PyObject_GetIter(chosen), *item;
    while (helpful && iterator && (item = PyIter_Next(iterator))) {
        Py_ssize_t k = PyLong_AsSsize_t(item), owner = g->owner[k], i = g->pre_at[k];
        Py_DECREF(item);
        while (i < g->pre_at[k + 1] && g->in_state[g->pre[i]])
            i++;
        if (owner >= 0 && i == g->pre_at[k + 1]) {
            PyObject *o = PyLong_FromSsize_t(owner);
            if (!o || PySet_Add(helpful, o) < 0)
                Py_CLEAR(helpful);
            Py_XDECREF(o);
        }
    }
    Py_XDECREF(iterator);
    Py_DECREF(chosen);
    if (!helpful || PyErr_Occurred()) {
        Py_XDECREF(helpful);
        return NULL;
    }
    return Py_BuildValue("LN", (long long)value, helpful);
}

static PyMethodDef graph_methods[] = {
    {"explore", (PyCFunction)graph_explore, METH_VARARGS, "explore(state, use_max, until_goals)"},
    {"value", (PyCFunction)graph_value, METH_VARARGS, "value(state, use_max): h_max or h_add"},
    {"plan", (PyCFunction)graph_plan, METH_VARARGS, "plan(state, preferred): h_FF and a set"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GraphType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_plyspec_relax.Graph",
    .tp_doc = "Graph(facts, pre, add, cost, goal, owner, op_cost): a relaxed task as flat arrays",
    .tp_basicsize = sizeof(Graph),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = graph_new,
    .tp_dealloc = (destructor)graph_dealloc,
    .tp_methods = graph_methods,
};


/* ---- landmark-cut (planners/heuristics/lmcut.py), from its definition as in
   tests/lmcut_reference.py: every round h_max, each reached operator hung from its
   precondition of highest h_max (ties by `order`: 0 the lowest fact index, 1 the
   highest, 2 the one settled last, as Fast Downward's LM-cut: below), the goal zone grown
   backwards through zero-cost operators (each hung, for the round, from its parent:
   cut_parent), the cut found
   forwards from the state, its cheapest cost charged to the cut's operators and their
   conditional-effect copies.  Facts keep LM-cut's numbering: START is fact `facts`, GOAL
   `facts + 1` (added by a zero-cost operator, the last, needing the goals).

   h_max is computed from scratch (a Dijkstra) in the first round only; after a cut it is
   updated incrementally, as Fast Downward's LM-cut does: the charged operators got
   cheaper, so h_max can only fall, and a Dijkstra from their effects lowers the facts
   that get cheaper, choosing again the supporter of each operator one of whose
   preconditions fell (the others keep theirs).  h_max is unique and a supporter is a
   function of its preconditions' values, so every round sees the same justification
   graph as a from-scratch computation: the same values.  Order 2 (Fast Downward's: facts
   of equal cost settle last in, first out; an operator hangs from the precondition whose
   settling released it) depends on the order of settling, not on the values alone, so
   it settles every round from scratch. */

typedef struct {
    PyObject_HEAD
    Py_ssize_t facts, size, ops;
    int64_t *cost0, *cost, *h;
    Py_ssize_t *pre_at, *pre, *add_at, *add, *user_at, *user, *ach_at, *ach, *copy_at, *copy;
    Py_ssize_t *owner, *waiting, *supporter, *hang_head, *hang_next, *hang_prev, *todo;
    Py_ssize_t *changed, *cut, *pushed;
    Py_ssize_t *moved;
    unsigned char *zone, *seen, *charged, *in_state, *picked;
    Heap heap;
    Py_ssize_t heap_cap;
} Cut;

static void cut_dealloc(Cut *c)
{
    void *arrays[] = {c->cost0, c->cost, c->h, c->heap.d, c->pre_at, c->pre, c->add_at, c->add,
                      c->user_at, c->user, c->ach_at, c->ach, c->copy_at, c->copy, c->owner,
                      c->waiting, c->supporter, c->hang_head, c->hang_next, c->todo, c->heap.f,
                      c->changed, c->in_state, c->hang_prev, c->cut, c->pushed,
                      c->zone, c->seen, c->charged, c->moved, c->picked};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        PyMem_Free(arrays[i]);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

/* the inverse of CSR (at, items) over `count` rows: for each of `size` columns the rows
   holding it, in row order */
static int inverse(Py_ssize_t count, Py_ssize_t size, const Py_ssize_t *at, const Py_ssize_t *items,
                   Py_ssize_t **inv_at, Py_ssize_t **inv)
{
    Py_ssize_t total = at[count];
    *inv_at = PyMem_Calloc(size + 2, sizeof(Py_ssize_t));
    *inv = PyMem_Calloc(total + 1, sizeof(Py_ssize_t));
    Py_ssize_t *fill = PyMem_Calloc(size + 1, sizeof(Py_ssize_t));
    if (!*inv_at || !*inv || !fill) {
        PyMem_Free(fill);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < total; i++)
        (*inv_at)[items[i] + 1]++;
    for (Py_ssize_t f = 0; f < size; f++)
        (*inv_at)[f + 1] += (*inv_at)[f];
    memcpy(fill, *inv_at, size * sizeof(Py_ssize_t));
    for (Py_ssize_t k = 0; k < count; k++)
        for (Py_ssize_t i = at[k]; i < at[k + 1]; i++)
            (*inv)[fill[items[i]]++] = k;
    PyMem_Free(fill);
    return 0;
}

static PyObject *cut_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"facts", "pre", "add", "cost", "goal", "owner", NULL};
    Py_ssize_t facts, n, m;
    PyObject *pre, *add, *cost, *goal, *owner;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nOOOOO", names, &facts, &pre, &add, &cost,
                                     &goal, &owner))
        return NULL;
    Cut *c = (Cut *)type->tp_alloc(type, 0);
    if (!c)
        return NULL;
    c->facts = facts, c->size = facts + 2;
    int64_t *costs = NULL, *goals = NULL, *owners = NULL;
    Py_ssize_t *pre_at = NULL, *pre_items = NULL, *add_at = NULL, *add_items = NULL;
    if (!(costs = int_array(cost, &n, 0, (int64_t)1 << 40)) ||
        csr(pre, n, facts + 1, 0, &pre_at, &pre_items) < 0 ||
        csr(add, n, facts + 1, -1, &add_at, &add_items) < 0 ||
        !(goals = int_array(goal, &m, 0, facts - 1)) ||
        !(owners = int_array(owner, &c->ops, -1, PY_SSIZE_T_MAX)))
        goto fail;
    if (c->ops != n) {
        PyErr_SetString(PyExc_ValueError, "one owner per operator");
        goto fail;
    }
    c->ops = n + 1;                      /* the goal operator last */
    Py_ssize_t pres = pre_at[n] + (m ? m : 1), adds = add_at[n] + 1;
    c->cost0 = PyMem_Calloc(c->ops, sizeof(int64_t));
    c->cost = PyMem_Calloc(c->ops, sizeof(int64_t));
    c->owner = PyMem_Calloc(c->ops, sizeof(Py_ssize_t));
    c->pre_at = PyMem_Calloc(c->ops + 1, sizeof(Py_ssize_t));
    c->pre = PyMem_Calloc(pres, sizeof(Py_ssize_t));
    c->add_at = PyMem_Calloc(c->ops + 1, sizeof(Py_ssize_t));
    c->add = PyMem_Calloc(adds, sizeof(Py_ssize_t));
    if (!c->cost0 || !c->cost || !c->owner || !c->pre_at || !c->pre || !c->add_at || !c->add)
        goto nomemory;
    /* csr() shifted facts by one with node 0 for START; LM-cut numbers START `facts` */
    for (Py_ssize_t k = 0; k < n; k++) {
        c->cost0[k] = costs[k], c->owner[k] = (Py_ssize_t)owners[k];
        c->pre_at[k + 1] = pre_at[k + 1], c->add_at[k + 1] = add_at[k + 1];
    }
    for (Py_ssize_t i = 0; i < pre_at[n]; i++)
        c->pre[i] = pre_items[i] ? pre_items[i] - 1 : facts;
    for (Py_ssize_t i = 0; i < add_at[n]; i++)
        c->add[i] = add_items[i] - 1;
    for (Py_ssize_t i = 0; i < m; i++)
        c->pre[pre_at[n] + i] = (Py_ssize_t)goals[i];
    if (!m)
        c->pre[pre_at[n]] = facts;
    c->pre_at[c->ops] = pres;
    c->add[add_at[n]] = facts + 1;
    c->add_at[c->ops] = adds;
    c->cost0[n] = 0, c->owner[n] = -1;
    /* copies: per owner, its relaxed operators */
    Py_ssize_t owner_count = 0;
    for (Py_ssize_t k = 0; k < c->ops; k++)
        owner_count = c->owner[k] + 1 > owner_count ? c->owner[k] + 1 : owner_count;
    Py_ssize_t *own_at = PyMem_Calloc(c->ops + 1, sizeof(Py_ssize_t)),
               *own = PyMem_Calloc(c->ops + 1, sizeof(Py_ssize_t));
    if (!own_at || !own) {
        PyMem_Free(own_at), PyMem_Free(own);
        goto nomemory;
    }
    Py_ssize_t rows = 0;             /* operators with an owner, as rows of one column each */
    for (Py_ssize_t k = 0; k < c->ops; k++)
        if (c->owner[k] >= 0)
            own[rows] = c->owner[k], own_at[rows + 1] = rows + 1, rows++;
    /* copy_at/copy: per owner the rows (operators in order: rows map back below) */
    int failed = inverse(rows, owner_count, own_at, own, &c->copy_at, &c->copy) < 0;
    if (!failed) {
        Py_ssize_t r = 0;
        for (Py_ssize_t k = 0; k < c->ops; k++)
            if (c->owner[k] >= 0)
                own[r++] = k;
        for (Py_ssize_t i = 0; i < rows; i++)
            c->copy[i] = own[c->copy[i]];
    }
    PyMem_Free(own_at), PyMem_Free(own);
    if (failed || inverse(c->ops, c->size, c->pre_at, c->pre, &c->user_at, &c->user) < 0 ||
        inverse(c->ops, c->size, c->add_at, c->add, &c->ach_at, &c->ach) < 0)
        goto fail;
    c->h = PyMem_Calloc(c->size, sizeof(int64_t));
    c->heap_cap = c->size + adds + 1;
    c->heap.d = PyMem_Calloc(c->heap_cap, sizeof(int64_t));
    c->heap.f = PyMem_Calloc(c->heap_cap, sizeof(Py_ssize_t));
    c->pushed = PyMem_Calloc(c->heap_cap, sizeof(Py_ssize_t));
    c->in_state = PyMem_Calloc(c->size, 1);
    c->waiting = PyMem_Calloc(c->ops, sizeof(Py_ssize_t));
    c->supporter = PyMem_Calloc(c->ops, sizeof(Py_ssize_t));
    c->hang_head = PyMem_Calloc(c->size, sizeof(Py_ssize_t));
    c->hang_next = PyMem_Calloc(c->ops, sizeof(Py_ssize_t));
    c->hang_prev = PyMem_Calloc(c->ops, sizeof(Py_ssize_t));
    c->cut = PyMem_Calloc(c->ops, sizeof(Py_ssize_t));
    c->todo = PyMem_Calloc(c->size + c->ops + 1, sizeof(Py_ssize_t));
    c->changed = PyMem_Calloc(c->ops + 1, sizeof(Py_ssize_t));
    c->zone = PyMem_Calloc(c->size, 1);
    c->moved = PyMem_Calloc(c->ops, sizeof(Py_ssize_t));
    c->picked = PyMem_Calloc(c->ops, 1);
    c->seen = PyMem_Calloc(c->size, 1);
    c->charged = PyMem_Calloc(owner_count + 1, 1);
    if (!c->h || !c->heap.d || !c->heap.f || !c->pushed || !c->waiting || !c->supporter || !c->hang_head ||
        !c->hang_next || !c->hang_prev || !c->cut || !c->todo || !c->changed || !c->in_state || !c->zone || !c->seen || !c->charged || !c->moved || !c->picked)
        goto nomemory;
    PyMem_Free(costs), PyMem_Free(goals), PyMem_Free(owners);
    PyMem_Free(pre_at), PyMem_Free(pre_items), PyMem_Free(add_at), PyMem_Free(add_items);
    return (PyObject *)c;
nomemory:
    PyErr_NoMemory();
fail:
    PyMem_Free(costs), PyMem_Free(goals), PyMem_Free(owners);
    PyMem_Free(pre_at), PyMem_Free(pre_items), PyMem_Free(add_at), PyMem_Free(add_items);
    Py_DECREF(c);
    return NULL;
}

/* the supporter of reached operator k: its precondition of highest h_max (ties: the
   lowest fact index, the highest with `descending`; order 2 chooses in cut_hmax) */
static inline Py_ssize_t cut_supporter(Cut *c, Py_ssize_t k, int descending)
{
    Py_ssize_t best = -1;
    for (Py_ssize_t i = c->pre_at[k]; i < c->pre_at[k + 1]; i++) {
        Py_ssize_t q = c->pre[i];
        if (best < 0 || c->h[q] > c->h[best] ||
            (c->h[q] == c->h[best] && (descending ? q > best : q < best)))
            best = q;
    }
    return best;
}

/* the parent in the goal zone of reached zero-cost operator k (Fast Downward 26's goal
   zone and border detection): among its preconditions as high as its supporter, the
   lowest index already in the zone, else the lowest none of whose achievers is free
   (the zone stops there), else its supporter */
static Py_ssize_t cut_parent(Cut *c, Py_ssize_t k)
{
    Py_ssize_t border = -1;
    int64_t level = c->h[c->supporter[k]];
    for (Py_ssize_t i = c->pre_at[k]; i < c->pre_at[k + 1]; i++) {
        Py_ssize_t q = c->pre[i];
        if (c->h[q] != level)
            continue;
        if (c->zone[q]) {
            Py_ssize_t best = q;       /* (the lowest such index) */
            for (Py_ssize_t j = i + 1; j < c->pre_at[k + 1]; j++)
                if (c->zone[c->pre[j]] && c->h[c->pre[j]] == level && c->pre[j] < best)
                    best = c->pre[j];
            return best;
        }
        if (border < 0 || q < border) {
            Py_ssize_t a = c->ach_at[q];
            while (a < c->ach_at[q + 1] && c->cost[c->ach[a]] != 0)
                a++;
            if (a == c->ach_at[q + 1])
                border = q;
        }
    }
    return border >= 0 ? border : c->supporter[k];
}

/* every reached operator hung from its supporter (doubly linked lists, one per fact) */
static void cut_hang(Cut *c)
{
    for (Py_ssize_t f = 0; f < c->size; f++)
        c->hang_head[f] = -1;
    for (Py_ssize_t k = c->ops - 1; k >= 0; k--)
        if (!c->waiting[k]) {
            Py_ssize_t best = c->supporter[k], next = c->hang_head[best];
            c->hang_next[k] = next, c->hang_prev[k] = -1, c->hang_head[best] = k;
            if (next >= 0)
                c->hang_prev[next] = k;
        }
}

/* reached operator k hung from `best` instead of its supporter */
static inline void cut_rehang(Cut *c, Py_ssize_t k, Py_ssize_t best)
{
    Py_ssize_t old = c->supporter[k], prev = c->hang_prev[k], next = c->hang_next[k];
    if (old == best)
        return;
    if (prev >= 0)
        c->hang_next[prev] = next;
    else
        c->hang_head[old] = next;
    if (next >= 0)
        c->hang_prev[next] = prev;
    next = c->hang_head[best];
    c->hang_next[k] = next, c->hang_prev[k] = -1, c->hang_head[best] = k;
    if (next >= 0)
        c->hang_prev[next] = k;
    c->supporter[k] = best;
}

/* fact f put in the queue at d: by index (orders 0 and 1), or, for order 2, last in
   first out among equal costs (the heap's second key is minus the push's number, the
   fact kept in `pushed`) */
static inline void cut_put(Cut *c, int64_t d, Py_ssize_t f, int order, Py_ssize_t *pushes)
{
    c->h[f] = d;
    if (order == 2)
        c->pushed[*pushes] = f, heap_push(&c->heap, d, -(*pushes)++);
    else
        heap_push(&c->heap, d, f);
}

/* h_max from the state facts (`seen` marks them) under the current costs, and each
   reached operator's supporter: with order 2 the fact whose settling released it (the
   state's facts put in by index, the operators released by index, their effects in
   order: Fast Downward's rule) */
static void cut_hmax(Cut *c, int order)
{
    for (Py_ssize_t f = 0; f < c->size; f++)
        c->h[f] = UNREACHED;
    for (Py_ssize_t k = 0; k < c->ops; k++)
        c->waiting[k] = c->pre_at[k + 1] - c->pre_at[k], c->supporter[k] = -1;
    c->heap.len = 0;
    Py_ssize_t pushes = 0;             /* (each push lowers a fact: at most heap_cap) */
    for (Py_ssize_t f = 0; f < c->size; f++)
        if (c->seen[f])
            cut_put(c, 0, f, order, &pushes);
    while (c->heap.len) {
        int64_t d;
        Py_ssize_t f;
        heap_pop(&c->heap, &d, &f);
        if (order == 2)
            f = c->pushed[-f];
        if (d > c->h[f])
            continue;
        for (Py_ssize_t u = c->user_at[f]; u < c->user_at[f + 1]; u++) {
            Py_ssize_t k = c->user[u];
            if (--c->waiting[k])
                continue;
            if (order == 2)
                c->supporter[k] = f;
            int64_t reach = d + c->cost[k];
            for (Py_ssize_t a = c->add_at[k]; a < c->add_at[k + 1]; a++) {
                Py_ssize_t new = c->add[a];
                if (reach < c->h[new])
                    cut_put(c, reach, new, order, &pushes);
            }
        }
    }
    if (order != 2)
        for (Py_ssize_t k = 0; k < c->ops; k++)
            if (!c->waiting[k])
                c->supporter[k] = cut_supporter(c, k, order);
}

/* heap_push with room made first (a fact may fall several times while h_max is
   lowered); -1 when memory is out */
static int cut_push(Cut *c, int64_t d, Py_ssize_t f)
{
    if (c->heap.len == c->heap_cap) {
        Py_ssize_t cap = 2 * c->heap_cap;
        int64_t *ds = PyMem_Realloc(c->heap.d, cap * sizeof(int64_t));
        if (ds)
            c->heap.d = ds;
        Py_ssize_t *fs = ds ? PyMem_Realloc(c->heap.f, cap * sizeof(Py_ssize_t)) : NULL;
        if (!fs)
            return -1;
        c->heap.f = fs, c->heap_cap = cap;
    }
    heap_push(&c->heap, d, f);
    return 0;
}

/* reached operator k hung from its supporter again, and the effects it makes cheaper
   lowered; -1 when memory is out */
static int cut_fire(Cut *c, Py_ssize_t k, int descending)
{
    Py_ssize_t best = cut_supporter(c, k, descending);
    cut_rehang(c, k, best);
    int64_t reach = c->h[best] + c->cost[k];
    for (Py_ssize_t a = c->add_at[k]; a < c->add_at[k + 1]; a++) {
        Py_ssize_t new = c->add[a];
        if (reach < c->h[new]) {
            c->h[new] = reach;
            if (cut_push(c, reach, new) < 0)
                return -1;
        }
    }
    return 0;
}

/* h_max after the `count` operators in `changed` got cheaper: lowered by a Dijkstra from
   their effects; an operator one of whose preconditions fell chooses its supporter again
   (a precondition may fall before the operator's own turn: every choice is made anew) */
static int cut_lower(Cut *c, Py_ssize_t count, int descending)
{
    c->heap.len = 0;
    for (Py_ssize_t i = 0; i < count; i++)
        if (!c->waiting[c->changed[i]] && cut_fire(c, c->changed[i], descending) < 0)
            return -1;
    while (c->heap.len) {
        int64_t d;
        Py_ssize_t f;
        heap_pop(&c->heap, &d, &f);
        if (d > c->h[f])
            continue;
        for (Py_ssize_t u = c->user_at[f]; u < c->user_at[f + 1]; u++)
            if (!c->waiting[c->user[u]] && cut_fire(c, c->user[u], descending) < 0)
                return -1;
    }
    return 0;
}

/* value(state, order) -> the LM-cut value of the relaxed state, inf if unreachable;
   ties between supporters by `order` (0 lowest fact index, 1 highest, 2 settled last) */
static PyObject *cut_value(Cut *c, PyObject *args)
{
    PyObject *state;
    int order;
    if (!PyArg_ParseTuple(args, "Si", &state, &order))
        return NULL;
    if (order < 0 || order > 2) {
        PyErr_SetString(PyExc_ValueError, "order: 0, 1 or 2");
        return NULL;
    }
    int descending = order == 1;
    const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(state);
    Py_ssize_t size = PyBytes_GET_SIZE(state), goal = c->facts + 1;
    memcpy(c->cost, c->cost0, c->ops * sizeof(int64_t));
    memset(c->in_state, 0, c->size);
    c->in_state[c->facts] = 1;
    for (Py_ssize_t i = 0; i < size; i++)
        for (int bit = 0; bit < 8 && bytes[i]; bit++)
            if (bytes[i] >> bit & 1) {
                if (8 * i + bit >= c->facts) {
                    PyErr_SetString(PyExc_IndexError, "a fact beyond the task's");
                    return NULL;
                }
                c->in_state[8 * i + bit] = 1;
            }
    int64_t total = 0;
    Py_ssize_t changed = -1;               /* none before the first round: from scratch */
    for (;;) {
        memcpy(c->seen, c->in_state, c->size);
        if (changed < 0) {
            cut_hmax(c, order);
            cut_hang(c);
        }
        else if (cut_lower(c, changed, descending) < 0)
            return PyErr_NoMemory();
        if (c->h[goal] == UNREACHED)
            return PyFloat_FromDouble(Py_HUGE_VAL);
        if (c->h[goal] == 0)
            return PyLong_FromLongLong(total);
        /* the goal zone; its zero-cost operators choose their parent among their tied
           preconditions (cut_parent), for this round */
        memset(c->zone, 0, c->size);
        Py_ssize_t top = 0, moved = 0;
        c->zone[goal] = 1, c->todo[top++] = goal;
        while (top) {
            Py_ssize_t f = c->todo[--top];
            for (Py_ssize_t a = c->ach_at[f]; a < c->ach_at[f + 1]; a++) {
                Py_ssize_t k = c->ach[a];
                if (c->cost[k] != 0 || c->supporter[k] < 0)
                    continue;
                if (!c->picked[k])     /* (chosen when first met) */
                    c->picked[k] = 1, c->moved[moved++] = k, cut_rehang(c, k, cut_parent(c, k));
                Py_ssize_t parent = c->supporter[k];
                if (!c->zone[parent])
                    c->zone[parent] = 1, c->todo[top++] = parent;
            }
        }
        /* the cut, forwards from the state (`seen` holds it) */
        for (Py_ssize_t f = 0; f < c->size; f++)
            if (c->seen[f])
                c->todo[top++] = f;
        int64_t charge = INT64_MAX;
        Py_ssize_t cuts = 0;
        while (top) {
            Py_ssize_t f = c->todo[--top];
            for (Py_ssize_t k = c->hang_head[f]; k >= 0; k = c->hang_next[k]) {
                Py_ssize_t a = c->add_at[k];
                while (a < c->add_at[k + 1] && !c->zone[c->add[a]])
                    a++;
                if (a < c->add_at[k + 1]) {
                    c->cut[cuts++] = k;
                    charge = c->cost[k] < charge ? c->cost[k] : charge;
                    continue;
                }
                for (a = c->add_at[k]; a < c->add_at[k + 1]; a++)
                    if (!c->seen[c->add[a]])
                        c->seen[c->add[a]] = 1, c->todo[top++] = c->add[a];
            }
        }
        for (Py_ssize_t i = 0; i < moved; i++) {   /* (back on their h_max supporters) */
            c->picked[c->moved[i]] = 0;
            if (order != 2)
                cut_rehang(c, c->moved[i], cut_supporter(c, c->moved[i], descending));
        }
        if (charge <= 0 || charge == INT64_MAX) {
            PyErr_SetString(PyExc_RuntimeError, "landmark-cut: an empty or free cut");
            return NULL;
        }
        total += charge;
        changed = 0;                   /* (an operator hangs once: the cut has no repeats) */
        for (Py_ssize_t i = 0; i < cuts; i++) {
            Py_ssize_t o = c->owner[c->cut[i]];
            if (o >= 0 && !c->charged[o]) {
                c->charged[o] = 1;
                for (Py_ssize_t j = c->copy_at[o]; j < c->copy_at[o + 1]; j++) {
                    c->cost[c->copy[j]] -= charge;
                    c->changed[changed++] = c->copy[j];
                }
            }
        }
        for (Py_ssize_t i = 0; i < cuts; i++)
            if (c->owner[c->cut[i]] >= 0)
                c->charged[c->owner[c->cut[i]]] = 0;
        if (order == 2)                /* (settled again from scratch: its ties are not
                                          a function of the values alone) */
            changed = -1;
    }
}

static PyMethodDef cut_methods[] = {
    {"value", (PyCFunction)cut_value, METH_VARARGS, "value(state, order): LM-cut"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CutType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_plyspec_relax.Cut",
    .tp_doc = "Cut(facts, pre, add, cost, goal, owner): landmark-cut over flat arrays",
    .tp_basicsize = sizeof(Cut),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = cut_new,
    .tp_dealloc = (destructor)cut_dealloc,
    .tp_methods = cut_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_plyspec_relax",
    "The relaxed exploration of planners.heuristics.relaxation in C (optional accelerator).",
    -1, NULL,
};

PyMODINIT_FUNC PyInit__plyspec_relax(void)
{
    if (PyType_Ready(&GraphType) < 0 || PyType_Ready(&CutType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&GraphType);
    if (PyModule_AddObject(m, "Graph", (PyObject *)&GraphType) < 0) {
        Py_DECREF(&GraphType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&CutType);
    if (PyModule_AddObject(m, "Cut", (PyObject *)&CutType) < 0) {
        Py_DECREF(&CutType);
        Py_DECREF(m);
        return NULL;
    }
    /* the rules this build follows (relaxation.py ignores a build of other rules) */
    if (PyModule_AddIntConstant(m, "RULES", 2) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    /* the tie-breaking orders Cut.value knows (an older build, without the constant,
       knew 2: lmcut.py does not use it) */
    if (PyModule_AddIntConstant(m, "CUT_ORDERS", 3) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    /* the goal zone's rule: 2 = zero-cost operators choose their parent (cut_parent);
       an older build, without the constant, kept their supporter */
    if (PyModule_AddIntConstant(m, "CUT_RULES", 2) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
