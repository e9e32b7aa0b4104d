"""`plyspec tree SPEC [--moves ...] [--depth N] [-o FILE.svg|.dot|.txt]`: draw the tree a
plain minimax or alpha-beta search explores, for teaching.

MAX nodes (the player to move at the start) are drawn as triangles pointing up, MIN nodes
pointing down, terminal states as boxes and depth cut-offs as ellipses.  Each node shows
its value and, for alpha-beta, the window [alpha, beta] it was entered with; the moves
alpha-beta cut off hang below their node as a dashed "pruned" mark.  Without `-o` the tree
is printed as indented text.  The SVG is drawn by plyspec itself (no Graphviz needed);
`.dot` files are for Graphviz (`dot -Tpng tree.dot -o tree.png`).  An SVG wider than 48
leaves shows the top levels and folds each deeper subtree into one box (its value and node
count); `--moves` opens any of them.
"""
from __future__ import annotations

import argparse
import html
import math
from pathlib import Path

from framework.cli import COMMANDS
from framework.cli.common import add_set_option, number_text, parse_sets, perft_depth, positive_int

LEVEL_HEIGHT, LEAF_WIDTH, MARGIN = 90, 64, 30


EXAMPLES = [
    'plyspec tree tictactoe --moves "place(0,0) place(1,1)" -o tree.svg',
    'plyspec tree nim --set "heaps=[1,2]" --algo minimax -o tree.txt',
]


def add_parser(sub):
    p = sub.add_parser("tree", help=COMMANDS["tree"],
                       description=__doc__.split("\n\n", 1)[1].replace("`", ""),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--algo", choices=("alphabeta", "minimax"), default="alphabeta",
                   help="plain alpha-beta (default) or minimax, children in the game's action order")
    p.add_argument("--depth", "-d", type=perft_depth, metavar="N",
                   help="plies to search (the spec's evaluation scores the cut-off); default: to the end")
    p.add_argument("--moves", default="", metavar="'A B ...'",
                   help="actions to play first, in the game's action text, separated by spaces, "
                        "e.g. --moves 'place(1,1) place(0,0)'")
    p.add_argument("--max-nodes", type=positive_int, default=2_000, metavar="N",
                   help="refuse trees bigger than N nodes (default 2,000)")
    p.add_argument("-o", "--output", metavar="FILE", help="write FILE.svg, FILE.dot or FILE.txt instead of printing")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    add_set_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from framework import load
    from framework.errors import SpecError
    from framework.files import check_output, write_atomic
    from framework.search.lecture_tree import TreeTooBig, trace
    suffix = Path(args.output).suffix.lower() if args.output else ".txt"
    if suffix not in DRAWERS:
        raise SpecError(f"cannot write {args.output!r}", hint="the output must end in .svg, .dot or .txt")
    if args.output:
        check_output(args.output, force=args.force)    # refused before the spec is even loaded
    game = load(args.spec, **parse_sets(args.set))
    state = game.initial_state()
    for text in args.moves.split():
        state = state.result(game.parse_action(state, text))
    try:
        root = trace(game, state, depth=args.depth, algorithm=args.algo, max_nodes=args.max_nodes)
    except TreeTooBig as err:
        raise SpecError(str(err), hint="e.g. --depth 2, or --moves to start later") from None
    drawing = DRAWERS[suffix](game, root, args.algo)
    if args.output:
        write_atomic(args.output, drawing, force=args.force)
        print(f"wrote {args.output}: {root.size():,} nodes, value {number_text(root.value)}")
    else:
        print(drawing, end="")
    return 0


def _value(v) -> str:
    if v is None:
        return "?"
    if isinstance(v, float) and math.isinf(v):
        return "∞" if v > 0 else "-∞"
    return number_text(v)


def _label(node, algo) -> str:
    role = {"terminal": "end", "horizon": "cut"}.get(node.kind, "MAX" if node.maximizing else "MIN")
    window = f" [{_value(node.alpha)}, {_value(node.beta)}]" if algo == "alphabeta" else ""
    return f"{role} {_value(node.value)}{window}"


def draw_text(game, root, algo) -> str:
    lines = [f"{_label(root, algo)}  ({game.player_names[root.player]} to move)"]

    def walk(node, prefix):
        items = [(child, False) for child in node.children] + ([(node, True)] if node.pruned else [])
        for i, (child, is_cut) in enumerate(items):
            last = i == len(items) - 1
            branch, further = ("└─ ", "   ") if last else ("├─ ", "│  ")
            if is_cut:
                cut = ", ".join(game.action_text(a) for a in node.pruned)
                lines.append(f"{prefix}{branch}✂ pruned: {cut}")
            else:
                lines.append(f"{prefix}{branch}{game.action_text(child.action)} → {_label(child, algo)}")
                walk(child, prefix + further)

    walk(root, "")
    return "\n".join(lines) + "\n"


def draw_dot(game, root, algo) -> str:
    shapes = {"terminal": "box", "horizon": "ellipse"}
    out = ["digraph search_tree {", '  node [fontname="Helvetica", fontsize=10];',
           '  edge [fontname="Helvetica", fontsize=9];']
    counter = iter(range(10**9))

    def walk(node):
        me = f"n{next(counter)}"
        shape = shapes.get(node.kind, "triangle" if node.maximizing else "invtriangle")
        out.append(f"  {me} [shape={shape}, label={_dot_string(_label(node, algo))}];")
        for child in node.children:
            child_id = walk(child)
            out.append(f"  {me} -> {child_id} [label={_dot_string(game.action_text(child.action))}];")
        if node.pruned:
            cut = f"{me}_pruned"
            text = "pruned: " + ", ".join(game.action_text(a) for a in node.pruned)
            out.append(f"  {cut} [shape=plaintext, fontcolor=gray40, label={_dot_string(text)}];")
            out.append(f"  {me} -> {cut} [style=dashed, color=gray60];")
        return me

    walk(root)
    out.append("}")
    return "\n".join(out) + "\n"


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


MAX_SHOWN_WIDTH = 1600    # px: wider drawings keep their viewBox and are shown scaled down
FOLD_WIDTH = 48           # leaves side by side at most: deeper subtrees are folded into one box


def _width(node, levels) -> int:
    """Leaves side by side when the tree is drawn `levels` levels deep (deeper subtrees folded)."""
    if not node.children:
        return 1 + bool(node.pruned)
    if levels == 0:
        return 1
    return sum(_width(child, levels - 1) for child in node.children) + bool(node.pruned)


def fold_level(root, max_width=FOLD_WIDTH):
    """The deepest level to draw so that at most `max_width` leaves stand side by side
    (None: the whole tree fits); subtrees below it are drawn folded."""
    height = _height(root)
    if _width(root, height) <= max_width:
        return None
    level = 1
    while level < height and _width(root, level + 1) <= max_width:
        level += 1
    return level


def _height(node) -> int:
    return 1 + max((_height(child) for child in node.children), default=0)


def draw_svg(game, root, algo) -> str:
    """A tidy layered drawing: leaves (and pruned marks) side by side, each parent centred
    over its children; a tree wider than FOLD_WIDTH leaves shows its top levels, each deeper
    subtree folded into one box with its node count and value."""
    placed, next_leaf = [], [0]
    fold = fold_level(root)

    def layout(node, level):
        if fold is not None and level == fold and node.children:
            entry = ("node", node, next_leaf[0], level, [], True)
            next_leaf[0] += 1
            placed.append(entry)
            return entry
        slots = [layout(child, level + 1) for child in node.children]
        if node.pruned:
            slots.append(("cut", node, next_leaf[0], level + 1))
            placed.append(slots[-1])
            next_leaf[0] += 1
        x = (slots[0][2] + slots[-1][2]) / 2 if slots else next_leaf[0]
        if not slots:
            next_leaf[0] += 1
        entry = ("node", node, x, level, slots, False)
        placed.append(entry)
        return entry

    layout(root, 0)
    depth = max(e[3] for e in placed)
    width = next_leaf[0] * LEAF_WIDTH + 2 * MARGIN
    height = (depth + 1) * LEVEL_HEIGHT + 2 * MARGIN

    def pos(x, level):
        return MARGIN + LEAF_WIDTH / 2 + x * LEAF_WIDTH, MARGIN + 20 + level * LEVEL_HEIGHT

    shown = min(1.0, MAX_SHOWN_WIDTH / width)     # a wide tree opens fitted to the window; zoom in
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
           f'width="{width * shown:.0f}" height="{height * shown:.0f}" '
           f'font-family="Helvetica, Arial, sans-serif" font-size="10" text-anchor="middle">',
           f'<title>{html.escape(game.name)}: {algo} tree</title>']
    for entry in placed:
        if entry[0] != "node":
            continue
        _, node, x, level, slots, folded = entry
        x0, y0 = pos(x, level)
        if folded:
            out.append(_svg_folded(node, x0, y0))
            continue
        for slot in slots:
            x1, y1 = pos(slot[2], slot[3])
            if slot[0] == "cut":
                out.append(f'<line x1="{x0:.1f}" y1="{y0 + 12:.1f}" x2="{x1:.1f}" y2="{y1 - 14:.1f}" '
                           'stroke="#999" stroke-dasharray="4 3"/>')
                cut = ", ".join(game.action_text(a) for a in node.pruned)
                out.append(f'<text x="{x1:.1f}" y="{y1:.1f}" fill="#777">✂ pruned</text>'
                           f'<text x="{x1:.1f}" y="{y1 + 12:.1f}" fill="#777" font-size="8">{html.escape(cut)}</text>')
                continue
            out.append(f'<line x1="{x0:.1f}" y1="{y0 + 12:.1f}" x2="{x1:.1f}" y2="{y1 - 14:.1f}" stroke="#555"/>')
            label = html.escape(game.action_text(slot[1].action))
            out.append(f'<text x="{(x0 + x1) / 2 + 4:.1f}" y="{(y0 + y1) / 2:.1f}" fill="#246" '
                       f'font-size="9" text-anchor="start">{label}</text>')
        out.append(_svg_node(node, x0, y0, algo))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_folded(node, x, y) -> str:
    """A subtree drawn as one box: its node count and its value (open it with --moves)."""
    return (f'<rect x="{x - 26:.1f}" y="{y - 12:.1f}" width="52" height="30" rx="6" fill="#f6f6f6" '
            f'stroke="#999" stroke-dasharray="3 2"><title>folded: {node.size():,} nodes; '
            f'draw it with --moves</title></rect>'
            f'<text x="{x:.1f}" y="{y + 1:.1f}" font-weight="bold">{html.escape(_value(node.value))}</text>'
            f'<text x="{x:.1f}" y="{y + 13:.1f}" fill="#777" font-size="8">+{node.size() - 1:,} nodes</text>')


def _svg_node(node, x, y, algo) -> str:
    if node.kind == "terminal":
        shape = f'<rect x="{x - 13:.1f}" y="{y - 11:.1f}" width="26" height="22" fill="#eee" stroke="#333"/>'
    elif node.kind == "horizon":
        shape = f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="14" ry="11" fill="#eef" stroke="#333"/>'
    else:
        tip, base = (y - 13, y + 11) if node.maximizing else (y + 13, y - 11)
        shape = (f'<polygon points="{x:.1f},{tip:.1f} {x - 14:.1f},{base:.1f} {x + 14:.1f},{base:.1f}" '
                 f'fill="{"#fde" if node.maximizing else "#def"}" stroke="#333"/>')
    text = f'<text x="{x:.1f}" y="{y + 4:.1f}" font-weight="bold">{html.escape(_value(node.value))}</text>'
    if algo == "alphabeta":
        window = f"[{_value(node.alpha)}, {_value(node.beta)}]"
        text += f'<text x="{x:.1f}" y="{y + 24:.1f}" fill="#555" font-size="8">{html.escape(window)}</text>'
    return shape + text


DRAWERS = {".txt": draw_text, ".dot": draw_dot, ".svg": draw_svg}
