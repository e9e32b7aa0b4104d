"""Random sowing loops for the generated specs (framework.conformance.generate): a `for`
effect that writes the list `h` item by item, as Kalah's sowing does, which the compiler
writes as a local Python list while the loop runs (framework/compiler/local_lists.py).
The index walks the list from a drawn start, wrapped or not (an index off the list fails
alike in both games), the items written may leave their range, the loop may read items
back, and now and then it reads the whole list (`sum(h)`, `max(h)`, `len(h)`), which keeps
the tuple form."""
from __future__ import annotations

from hypothesis import strategies as st


def sowing_loop(gen, scope) -> str:
    """`for VAR in 0..HI do { ... h[INDEX] op= VALUE ... }` over the generator `gen`'s names."""
    var = gen.pick(("t", "c", "x", "i"))            # the bound names, like generate.BOUND
    inner = {**scope, var: "int"}
    size = gen.size
    index = gen.pick([f"({var} + n) % {size}", f"(n - {var}) % {size}", f"{var}", f"n + {var}"])
    value = gen.pick(["1", f"h[{var} % {size}]", f"min(abs({gen.int_(inner, 0)}), 9)", "0"])
    body = [f"h[{index}] {gen.pick(['=', '+=', '-=']) if value != '0' else '='} {value}"]
    if gen.draw(st.booleans()):
        body.append(f"n = min(h[{var} % {size}] + {gen.pick(['0', '1', 'n'])}, 9)")
    if gen.rare():
        body.append(f"n = min({gen.pick(['sum(h)', 'max(h)', 'len(h)'])}, 9)")
    if gen.draw(st.booleans()):
        body.append(f"if {gen.bool_(inner, 0)} then h[{var} % {size}] = {gen.pick(['0', '1'])}")
    body = gen.draw(st.permutations(body))
    return f"for {var} in 0..{gen.pick(['k', 'n', '2', str(size - 1)])} do {{ {'; '.join(body)} }}"
