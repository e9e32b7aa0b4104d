"""Compiler: a checked game -> readable Python source -> a `Game` with a fast State class.

The state is a tuple subclass (hashing, equality and pickling by value, all in C):
one int per non-initial board value (a bitboard), one slot per state variable (lists as
tuples), the player to move, the pending chance action (games with chance only: `()` at a
decision node, else `(action index, parameters)`) and a cached terminal flag.  Every slot
is an int, a bool or a tuple of them, never `None`: a state's hash is then the same in
every process (CPython 3.11 hashes `None` by its address), so a transposition table fills
the same slots and node counts repeat exactly.  Board vocabulary is lowered to bit operations (line-of-k by
shift-and, cells-of-value masks, precomputed neighbour and ray tables), and action
generation iterates over the set bits of a precondition's cell mask instead of testing
every cell (or takes a whole tuple of actions from a table indexed by the mask).

State.actions() and State.result() carry the legal-action code and the effects inline,
written once per player when they read the mover (so `board[c] = mover` names one
bitboard).  result() knows which fields each move writes and, as its parent was not
terminal, tests only the terminal disjuncts that read one of them.  Rays along one-step
directions (slide, between, Othello's move generation) are walked by shifting bits by a
fixed distance, which the spare column of every row keeps from wrapping.

Every name the spec chose appears in the source only with a prefix (`v_` variables, `p_`
parameters, `q_` bound variables, `b_` bitboards), and no text of the spec is ever placed
in the source: symbols and names travel as data.

The package's modules follow what the compiler emits (each says what it owns):
expressions, quantifiers (quantifiers and domains), board (vocabulary: lines, rays,
tables), effects, legal (move generation), compound (moves of several steps), kernel (the
function-level fast path: plain tuples, raw actions), state_class (the module and the State
class), apply (a move's successor), functions (terminal, utility, initial, chance), outline
(large definitions written once as functions), compulsory (a quiet move's `not must_jump`
read off the jumps' count), bitopt (pure bit expressions written with
fewer operations before they are emitted), relations (where a cell lies beside one or two
others, and cells computed from them, as tables), shifts (moves between two cells counted by
shifting bitboards), pairs (tests of two such cells as masks), splits (a quantifier's
`X if T else Y` chosen once, outside its loop), int_ranges (ranges of
integer expressions; `cell(x, y)` of small integers as a table), range_masks (quantifiers over
small ranges reading one cell each as one mask test), local_lists (a list
written item by item in a run of effects as a Python list there) and common (the source
writer and AST
questions).  `Compiler` is their union; builtin calls are
lowered by their own modules in framework.builtins.
"""
from __future__ import annotations

from framework import runtime
from framework.checker import Checked
from framework.compiler.apply import ApplyMixin
from framework.compiler.board import BoardMixin
from framework.compiler.int_ranges import IntRangesMixin
from framework.compiler.chance import ChanceMixin
from framework.compiler.children import ChildrenMixin
from framework.compiler.common import _Source, MAX_BLOCK_DEPTH, MAX_EFFECT_NESTING
from framework.compiler.compound import CompoundMixin
from framework.compiler.compulsory import CompulsoryMixin
from framework.compiler.effects import EffectsMixin
from framework.compiler.expressions import ExpressionsMixin
from framework.compiler.functions import RuleFunctionsMixin
from framework.compiler.kernel import KernelMixin
from framework.compiler.legal import LegalMixin
from framework.compiler.loop_tables import LoopTablesMixin
from framework.compiler.masks import MasksMixin
from framework.compiler.onward import OnwardMixin
from framework.compiler.outline import OutlineMixin
from framework.compiler.param_loops import ParamLoopsMixin
from framework.compiler.pairs import PairsMixin
from framework.compiler.quantifiers import QuantifiersMixin
from framework.compiler.range_masks import GridMovesMixin, RangeMasksMixin
from framework.compiler.relations import RelationsMixin
from framework.compiler.shifts import ShiftsMixin
from framework.compiler.splits import ChoiceMasksMixin, SplitsMixin
from framework.compiler.state_class import StateClassMixin

__all__ = ["Compiler", "_Source", "MAX_BLOCK_DEPTH", "MAX_EFFECT_NESTING"]



class Compiler(ExpressionsMixin, QuantifiersMixin, BoardMixin, EffectsMixin, LegalMixin, ParamLoopsMixin, CompoundMixin,
               StateClassMixin, ApplyMixin, RuleFunctionsMixin, KernelMixin, ChildrenMixin, ChanceMixin,
               OutlineMixin, MasksMixin, RelationsMixin, ShiftsMixin, PairsMixin, IntRangesMixin, SplitsMixin,
               ChoiceMasksMixin, RangeMasksMixin, GridMovesMixin, LoopTablesMixin, OnwardMixin, CompulsoryMixin):
    def __init__(self, checked: Checked):
        self.c = checked
        self.types = checked.types
        self.kinds = checked.kinds
        self.n = len(checked.players)
        self.has_chance = any(a.chance for a in checked.actions)
        c = checked
        self.boards = [i for i in range(len(c.values)) if i != c.default_value]
        self.fields = [f"b_{c.values[i]}" for i in self.boards] + [f"v_{v.name}" for v in c.variables] + ["mover"]
        self.sig = ", ".join(self.fields)
        self.tables = runtime.BoardTables(c.width, c.height, c.directions) if c.has_board else None
        self.tmp = 0
        self.param_ranges = {}
        self.local_ranges = {}              # a local's code -> the range proved for it (int_ranges.py)
        self.facts = []                     # (test, truth) of the conditionals around an interval
        self.and_facts = []                 # (operand, env) of an `and` before the code being written
        self.positions = []                 # spec positions named by run-time errors (POSITIONS)
        self.position_index = {}            # a position -> its index there (expressions.position)
        self.single = sum(not a.step for a in c.actions) == 1     # steps are not moves
        self.vars = {v.name: v for v in c.variables}
        self.mover_const = None       # the player to move, while writing code for one mover
        self.mover_code = "mover"     # how the code being written names the player to move
        self.raw = False              # writing the kernel: raw parameter values, plain tuples
        self.walrus_ok = True         # `:=` allowed in the expression being written (see domain)
        self.leaf_count = False       # writing k_leaves: the successors' numbers of moves
        self.hot_leaves = False       # writing k_leaves_hot: a repeating successor counts 0 (kernel.py)
        self.ray_calls = {}           # (dirs, inner, outer) -> the ray_ends call written (board.py)
        self.relations = {}           # (code, over a second cell) -> its table `_REL<k>` (relations.py relation)
        self.split_tests = {}         # code masks.exists_split wrote -> (its mask test, the rest)
        self.subst = {}               # id(argument node) -> its parameter, while writing an outlined body
        self.compulsory_pairs = None  # {A: (B, A's `not Q`)}: Q read off B's count (compulsory.py)
        self.mask_pairs_found = {}    # mover -> the same, proved on the masks written (mask_terms.py)
        self.outlined = {}            # (parameters, body) -> the function written for it (outline.py)
        self.outline_bodies = {}      # (id(node), mover) -> (parameters, body, arguments read) or None
        self.outlined_at = {}         # its name -> the definition's position
        self.outlined_source = []     # their (name, parameters, body), in the order written
        self.outlining = True         # calls may be outlined (until the module is written)
        self.node_sizes = {}
        self.range_mask_off = False   # quantifiers over ranges stay loops (range_masks.py)
        self.arg_guards = None        # while writing an outlined body: the argument ranges its tables need
        self.unchanged = {}           # a list field -> the local holding the parent's (apply.child_terminal)
        self.local_lists = set()      # list variables that are Python lists where the code is (local_lists.py)
        self.item_locals = {}         # ... of those, the ones held as one local per item: name -> locals
        self.player_value = None
        if c.values and all(p in c.values for p in c.players):
            self.player_value = tuple(c.values.index(p) for p in c.players)

    def fresh(self, base="t"):
        self.tmp += 1
        return f"_{base}{self.tmp}"

