/* _plyspec_relax: the optional C accelerator of planners/heuristics/relaxation.py.

   It runs the relaxed exploration of `Relaxation.explore` (the heap form: facts settle by
   cost, then index, the start fact first; an operator fires when its last precondition
   settles; a fact's supporter is the first operator that reaches it at its cost) over flat
   arrays built once per task, and on top of it h_max, h_add, the relaxed plan (the chosen
   relaxed operators, inserted into a Python set in the same order as the Python code) and
   h_FF's preferred operators.  Integer costs only (>= 0): Relaxation uses the Python code
   for any other task.  With the same order of settling and of firing, every cost,
   supporter, value and set equals the pure-Python code's (tests/test_relaxed_accelerator.py).

   Nodes: node 0 is the start fact (Python's index -1), node f + 1 is fact f. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define UNREACHED INT64_MAX

typedef struct {
    PyObject_HEAD
    Py_ssize_t facts, nodes, ops, owners, ngoals;
    int64_t *cost, *op_cost;
    Py_ssize_t *pre_at, *pre, *add_at, *add, *user_at, *user, *goal, *owner;
    char *is_goal;
    /* work space of one evaluation */
    int64_t *dist, *so_far, *heap_d;
    Py_ssize_t *supporter, *waiting, *heap_f, *stack;
    unsigned char *in_state, *chosen, *owned;
    Py_ssize_t heap_len, heap_cap, stack_cap;
} Graph;

static void graph_free_arrays(Graph *g)
{
    void *arrays[] = {g->cost, g->op_cost, g->pre_at, g->pre, g->add_at, g->add, g->user_at,
                      g->user, g->goal, g->owner, g->is_goal, g->dist, g->so_far, g->heap_d,
                      g->supporter, g->waiting, g->heap_f, g->stack, g->in_state, g->chosen,
                      g->owned};
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
    g->heap_d = PyMem_Calloc(g->heap_cap, sizeof(int64_t));
    g->supporter = PyMem_Calloc(g->nodes, sizeof(Py_ssize_t));
    g->waiting = PyMem_Calloc(g->ops + 1, sizeof(Py_ssize_t));
    g->heap_f = PyMem_Calloc(g->heap_cap, sizeof(Py_ssize_t));
    g->stack = PyMem_Calloc(g->stack_cap, sizeof(Py_ssize_t));
    g->in_state = PyMem_Calloc(g->nodes, 1);
    g->chosen = PyMem_Calloc(g->ops + 1, 1);
    g->owned = PyMem_Calloc(g->owners + 1, 1);
    if (g->dist && g->so_far && g->heap_d && g->supporter && g->waiting && g->heap_f &&
        g->stack && g->in_state && g->chosen && g->owned)
        return (PyObject *)g;
nomemory:
    PyErr_NoMemory();
fail:
    PyMem_Free(values);
    Py_DECREF(g);
    return NULL;
}

/* the binary heap of (cost, node), least first; keys are never pushed twice */
static inline int heap_less(Graph *g, Py_ssize_t a, Py_ssize_t b)
{
    return g->heap_d[a] < g->heap_d[b] || (g->heap_d[a] == g->heap_d[b] && g->heap_f[a] < g->heap_f[b]);
}

static inline void heap_swap(Graph *g, Py_ssize_t a, Py_ssize_t b)
{
    int64_t d = g->heap_d[a];
    Py_ssize_t f = g->heap_f[a];
    g->heap_d[a] = g->heap_d[b], g->heap_f[a] = g->heap_f[b];
    g->heap_d[b] = d, g->heap_f[b] = f;
}

static inline void heap_push(Graph *g, int64_t d, Py_ssize_t f)
{
    Py_ssize_t i = g->heap_len++;
    g->heap_d[i] = d, g->heap_f[i] = f;
    while (i > 0 && heap_less(g, i, (i - 1) / 2)) {
        heap_swap(g, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static inline void heap_pop(Graph *g, int64_t *d, Py_ssize_t *f)
{
    *d = g->heap_d[0], *f = g->heap_f[0];
    g->heap_len--;
    g->heap_d[0] = g->heap_d[g->heap_len], g->heap_f[0] = g->heap_f[g->heap_len];
    for (Py_ssize_t i = 0;;) {
        Py_ssize_t least = i, left = 2 * i + 1, right = left + 1;
        if (left < g->heap_len && heap_less(g, left, least))
            least = left;
        if (right < g->heap_len && heap_less(g, right, least))
            least = right;
        if (least == i)
            break;
        heap_swap(g, i, least);
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
    g->heap_len = 0;
    g->dist[0] = 0, g->in_state[0] = 1;
    heap_push(g, 0, 0);
    for (Py_ssize_t i = 0; i < size; i++)
        for (int bit = 0; bit < 8 && bytes[i]; bit++)
            if (bytes[i] >> bit & 1) {
                Py_ssize_t f = 8 * i + bit + 1;
                if (f >= g->nodes) {
                    PyErr_SetString(PyExc_IndexError, "a fact beyond the task's");
                    return -1;
                }
                g->dist[f] = 0, g->in_state[f] = 1;
                heap_push(g, 0, f);
            }
    Py_ssize_t goals_left = g->ngoals;
    while (g->heap_len && (goals_left || !until_goals)) {
        int64_t d;
        Py_ssize_t f;
        heap_pop(g, &d, &f);
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
                    heap_push(g, reach, new);
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

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_plyspec_relax",
    "The relaxed exploration of planners.heuristics.relaxation in C (optional accelerator).",
    -1, NULL,
};

PyMODINIT_FUNC PyInit__plyspec_relax(void)
{
    if (PyType_Ready(&GraphType) < 0)
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
    return m;
}
