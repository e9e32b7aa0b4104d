"""Expression and effect text: `expression_text` puts parentheses only where the grammar's
precedence needs them, `effects_text` braces an `if` branch only where an `else` could
otherwise attach to the wrong `if`; both read back to an equal AST (printer.py prints whole
specs with them).
"""
from __future__ import annotations

import math
import re
from decimal import Decimal

from framework import ast

# binding strength of each form of expression, loosest first (see expressions.lark)
EXPR, OR, AND, NOT, CMP, SET, SUM, TERM, FACTOR, POSTFIX, ATOM = range(11)
_BINARY_LEVEL = {"or": OR, "and": AND, "|": SET, "&": SET, "+": SUM, "-": SUM,
                 "*": TERM, "/": TERM, "//": TERM, "%": TERM}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "notin"}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# ---------------------------------------------------------------------------- expressions
def expression_text(expr) -> str:
    """The expression in the expression language, with minimal parentheses."""
    return _at(expr, EXPR)


def domain_text(domain) -> str:
    """A parameter, quantifier or loop domain: a range `lo..hi` or a set expression."""
    if isinstance(domain, ast.Range):
        return f"{_at(domain.lo, SUM)}..{_at(domain.hi, SUM)}"
    return _at(domain, SUM)


def number_text(value) -> str:
    """A number as the grammar writes it: digits with an optional fraction, no exponent."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        raise ValueError(f"{value} cannot be written in a spec")
    text = format(Decimal(repr(value)), "f")
    return text if "." in text else text + ".0"


def _at(expr, level: int) -> str:
    """`expr` as text that parses back at `level`: in parentheses if it binds looser."""
    text, own = _form(expr)
    return text if own >= level else f"({text})"


def _form(expr) -> tuple[str, int]:
    """The text of `expr` without outer parentheses, and how tightly it binds."""
    match expr:
        case ast.Num(value=value):
            text = number_text(value)
            return text, FACTOR if text.startswith("-") else ATOM
        case ast.Name(id=name):
            return name, ATOM
        case ast.Call(func=func, args=args):
            return f"{func}({_items(args)})", ATOM
        case ast.TupleExpr(items=items):
            return (f"({_at(items[0], EXPR)},)" if len(items) == 1 else f"({_items(items)})"), ATOM
        case ast.ListExpr(items=items):
            return f"[{_items(items)}]", ATOM
        case ast.Index(base=base, index=index):
            return f"{_at(base, POSTFIX)}[{_at(index, EXPR)}]", POSTFIX
        case ast.Unary(op="-", operand=operand):
            return f"-{_at(operand, FACTOR)}", FACTOR
        case ast.Unary(op="not", operand=operand):
            return f"not {_at(operand, NOT)}", NOT
        case ast.Binary(op=op, left=left, right=right) if op in _COMPARISONS:
            return f"{_at(left, SET)} {'not in' if op == 'notin' else op} {_at(right, SET)}", CMP
        case ast.Binary(op=op, left=left, right=right):
            level = _BINARY_LEVEL[op]
            return f"{_at(left, level)} {op} {_at(right, level + 1)}", level
        case ast.Cond(test=test, then=then, else_=else_):
            return f"{_at(then, OR)} if {_at(test, OR)} else {_at(else_, EXPR)}", EXPR
        case ast.Quant(kind=kind, var=var, domain=domain, body=body):
            return f"{kind} {var} in {domain_text(domain)}: {_at(body, EXPR)}", EXPR
    raise ValueError(f"cannot print {expr!r} as an expression")


def _items(exprs) -> str:
    return ", ".join(_at(e, EXPR) for e in exprs)


# ---------------------------------------------------------------------------- effects
def effects_text(effects, separator: str = "; ") -> str:
    """Effects in the effect language, `separator` between top-level effects."""
    return separator.join(effect_text(e) for e in effects)


def effect_text(effect) -> str:
    match effect:
        case ast.Assign(target=target, op=op, value=value):
            return f"{_at(target, POSTFIX)} {op} {_at(value, EXPR)}"
        case ast.IfEffect(test=test, then=then, else_=else_):
            # a `then` branch ending in an open `if` would capture this `else`: brace it
            bare_then = len(then) == 1 and isinstance(then[0], ast.Assign)
            text = f"if {_at(test, EXPR)} then {_branch(then, bare_then)}"
            return text + f" else {_branch(else_, len(else_) == 1)}" if else_ else text
        case ast.ForEffect(var=var, domain=domain, body=body):
            return f"for {var} in {domain_text(domain)} do {_branch(body, len(body) == 1)}"
        case ast.LetEffect(name=name, value=value):
            return f"let {name} = {_at(value, EXPR)}"
        case ast.ContinueEffect(step=step, args=args):
            return f"continue {step}({_items(args)})" if args else f"continue {step}"
        case ast.Call(func=func, args=args):                # runs an effect definition
            return f"{func}({_items(args)})"
    raise ValueError(f"cannot print {effect!r} as an effect")


def _branch(effects, bare: bool) -> str:
    return effect_text(effects[0]) if bare else "{" + effects_text(effects) + "}"
