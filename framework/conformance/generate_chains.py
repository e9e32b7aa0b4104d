"""Random specs of chained definitions, for the compiler-against-interpreter campaign on
memoised definitions (framework/compiler/outline.py `_memoised`, the interpreter's
`Evaluator.remembered`): a flood fill written by hand as levels `r<k>(p, x)`, each testing
`r<k-1>` of the argument and of the arguments related to it under a drawn quantifier
(`exists`, `forall`, `count ... >= 2`), the argument a cell number (arithmetic the masks
cannot lower) or a cell; a base level that reads the state's counter and list and may fail
during play (an index off the list, a division by zero: the two games must fail alike, a
failed call remembered by neither); definitions without parameters called by several rules
(a precondition, the terminal test, the winner or utility).  `chain_texts()` is the
Hypothesis strategy; `check_one` (framework.conformance.generate) compares the games.
"""
from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def chain_texts(draw) -> str:
    """A YAML spec the checker accepts, with 1-3 levels of a hand-written flood fill."""
    pick = lambda options: draw(st.sampled_from(options))      # noqa: E731
    w, h, size = draw(st.integers(2, 4)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    cells = w * h
    by_number = draw(st.booleans())
    if by_number:                       # the argument a cell number; `at(i)` its cell
        x, y, domain, read = "i", "j", f"0..{cells - 1}", "board[at({v})]"
        near = pick([f"abs(i % {w} - j % {w}) + abs(i // {w} - j // {w}) == 1", "abs(i - j) == 1",
                     f"(i + j) % 3 == {draw(st.integers(0, 2))}", "i != j and n <= i + j"])
        first = pick([f"{x} % {w} == 0", f"{x} // {w} == 0", f"{x} < n", f"h[{x} % {size}] > 1"])
        risky = pick([f"h[{x} // {w}] > 0", f"12 // ({x} - n) > 1", f"h[{x}] < 9"])
        end = pick([f"{x} % {w} == {w - 1}", f"{x} >= {cells - w}", f"{x} == n"])
    else:                               # the argument a cell
        x, y, read = "c", "d", "board[{v}]"
        domain = pick(["neighbors(c, orthogonal)", "neighbors(c, queen)", "cell"])
        near = pick(["true", "col(c) != col(d)", "row(d) <= row(c)"])
        first = pick(["col(c) == 0", "row(c) == 0", f"h[col(c) % {size}] > 1", "row(c) < n"])
        risky = pick([f"h[col(c)] > 0", "12 // (col(c) + row(c) - n) > 1"])
        end = pick([f"col(c) == {w - 1}", f"row(c) == {h - 1}"])
    base = first if not draw(st.booleans()) else pick([f"({first} or {risky})", f"({first} and {risky})"])
    lines = ["game: Chains", "players: [A, B]", f"board: {{width: {w}, height: {h}, cells: [empty, A, B]}}",
             "state:", "  n: {type: '0..30', initial: 0}", f"  h: {{type: '0..9', size: {size}, initial: 1}}",
             "define:"]
    if by_number:
        lines.append(f"  at(i): cell(i % {w}, i // {w})")
    lines.append(f"  r0(p, {x}): '{read.format(v=x)} == p and {base}'")
    levels = draw(st.integers(1, 3))
    for k in range(1, levels + 1):
        below = f"r{k - 1}(p, {y})"
        kind = pick(["exists", "exists", "forall", "count"])
        inner = f"{near} and {below}" if kind != "forall" else f"not ({near}) or {below}"
        quant = f"{'exists' if kind == 'count' else kind} {y} in {domain}: {inner}"
        if kind == "count":
            quant = f"(count {y} in {domain}: {inner}) >= 2"
        join = pick(["or", "or", "and"])
        own = f"{read.format(v=x)} == p"
        lines.append(f"  r{k}(p, {x}): 'r{k - 1}(p, {x}) {join} ({own} and {quant})'")
    top = f"r{levels}(p, {x})"
    all_of = domain if by_number else "cell"
    lines.append(f"  joined(p): 'exists {x} in {all_of}: {end} and {top}'")
    lines.append(f"  reached: 'count {x} in {all_of}: {top.replace('p', pick(['A', 'B']))}'")
    lines.append(f"  ahead: '{pick(['reached > n', 'reached >= 2', 'joined(A) and not joined(B)'])}'")
    guard = pick(["", " and not ahead", f" and (reached < {cells} or n > 1)", " and not joined(next(mover))"])
    effect = pick(["", f"; h[n % {size}] = (h[n % {size}] + 1) % 10", "; if ahead then n += 1"])
    lines += ["actions:", "  place(c in cell):", f"    if: 'board[c] == empty{guard}'",
              f"    then: 'board[c] = mover; n = min(n + 1, 20){effect}'",
              f"terminal: '{pick(['joined(A) or joined(B) or full(board)', 'full(board) or (ahead and n > 2)'])}'"]
    lines.append(pick(["winner: 'A if joined(A) else B if joined(B) else none'",
                       "winner: 'A if ahead else B if joined(B) else none'",
                       "utility: 'reached - n if ahead else reached'"]))
    return "\n".join(lines) + "\n"
