"""framework/compiler/bitopt.py writes pure bit expressions with fewer operations: checked on
drawn expressions (names, whole numbers, `& | ^ ~`, shifts by a constant; FULL a known
name) against their original on drawn values, negative ones included: the same value every
time, never more operations.  The compiled games that use it (outlined definitions, shifted
move masks) are checked against the interpreter by test_shared_masks.py, test_shift_moves.py
and test_splits.py."""
import ast as pyast

from hypothesis import strategies as st

from drawn import drawn
from framework.compiler import bitopt

NAMES = ("a", "b", "c", "FULL")
FULL = (1 << 80) - 1 ^ 0b1000000000 << 30          # a board's cells: not every bit below the top
OPS = {"&": pyast.BitAnd, "|": pyast.BitOr, "^": pyast.BitXor}


def expressions():
    leaves = st.one_of(st.sampled_from(NAMES).map(lambda n: pyast.Name(n, pyast.Load())),
                       st.sampled_from([0, 1, 5, 255, 1 << 40, FULL, (1 << 70) - 7]).map(pyast.Constant))

    def chain(t):                   # op, [operands]: the shape lowered masks have
        op, items = t
        tree = items[0]
        for x in items[1:]:
            tree = pyast.BinOp(tree, OPS[op](), x)
        return tree

    def extend(inner):
        shifted = st.tuples(st.booleans(), inner, st.sampled_from([8, 10])).map(
            lambda t: pyast.BinOp(t[1], pyast.LShift() if t[0] else pyast.RShift(), pyast.Constant(t[2])))
        return st.one_of(
            st.tuples(st.sampled_from(sorted(OPS)), st.lists(st.one_of(shifted, leaves, inner), min_size=2,
                                                             max_size=4)).map(chain),
            st.tuples(st.sampled_from(sorted(OPS)), inner, inner).map(
                lambda t: pyast.BinOp(t[1], OPS[t[0]](), t[2])),
            inner.map(lambda x: pyast.UnaryOp(pyast.Invert(), x)),
            st.tuples(st.booleans(), inner, st.sampled_from([0, 1, 8, 10, 16, 20])).map(
                lambda t: pyast.BinOp(t[1], pyast.LShift() if t[0] else pyast.RShift(), pyast.Constant(t[2]))))
    return st.recursive(leaves, extend, max_leaves=12)


values = st.integers(min_value=-(1 << 90), max_value=1 << 90)


@drawn(400, expressions(), st.lists(st.tuples(values, values, values), min_size=4, max_size=4))
def test_a_simplified_expression_has_the_same_value_and_no_more_operations(tree, draws):
    tree = pyast.fix_missing_locations(tree)
    better = bitopt.simplify(tree, {"FULL": FULL})
    assert bitopt.operations(better) <= bitopt.operations(tree)
    before = compile(pyast.Expression(tree), "<before>", "eval")
    after = compile(pyast.fix_missing_locations(pyast.Expression(better)), "<after>", "eval")
    for a, b, c in draws:
        env = {"a": a, "b": b, "c": c, "FULL": FULL}
        assert eval(after, env) == eval(before, env), pyast.unparse(better)


def test_a_term_of_a_lowered_jump_is_written_once_per_shift():
    code = ("(FULL & 2328838265524756414464) >> 20 & (own >> 20 & (king >> 20 & empty"
            " & (~(empty >> 10) & ~(own >> 10))))")
    names = iter(["_s1", "_s2"])
    bindings, masks = bitopt.tightened([code, "a + b"], (1 << 80) - 1, lambda: next(names))
    assert bindings == [] and masks == ["((own & king & 2328838265524756414464) >> 20 & empty & ~(empty | own) >> 10)",
                                        "(a + b)"]               # not a bit expression: kept
    bindings, masks = bitopt.tightened(["x & (a | b) << 8", "y & (a | b) << 8"], None, lambda: next(names))
    assert bindings == [("_s1", "(a | b) << 8")] and masks == ["(x & _s1)", "(y & _s1)"]


def test_parts_of_an_expression_that_is_not_pure_are_simplified_inside():
    tree = pyast.parse("f(a >> 3 & b >> 3) + 1", mode="eval").body
    assert pyast.unparse(bitopt.simplify(tree, {})) == "f((a & b) >> 3) + 1"


def test_what_several_expressions_repeat_is_bound_once_before_its_readers():
    trees = {i: pyast.parse(code, mode="eval").body for i, code in
             enumerate(["(a & 3) << 8 & ~(e | o)", "(a & 5) << 10 & ~(e | o) & (b | c) >> 2", "(b | c) >> 2 & e"])}
    numbers = iter(range(10))
    bindings, out = bitopt.shared(trees, lambda: f"_t{next(numbers)}")
    assert [(name, pyast.unparse(tree)) for name, tree in bindings] == [("_t0", "(b | c) >> 2"), ("_t1", "~(e | o)")]
    assert [pyast.unparse(out[i]) for i in range(3)] == ["(a & 3) << 8 & _t1", "(a & 5) << 10 & _t1 & _t0",
                                                         "_t0 & e"]
