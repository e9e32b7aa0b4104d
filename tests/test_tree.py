"""`plyspec tree`: the recorded minimax / alpha-beta trees agree with the searchers and
with Knuth & Moore's leaf counts, every cut-off is recorded, and the drawings are valid."""
import math
import random
import xml.dom.minidom

import pytest

import framework
from framework.cli import main
from framework.perft import tree_size
from framework.search import minimax
from framework.search.lecture_tree import TreeTooBig, trace
from tests.conftest import SPECS
from tests.explicit_tree import explicit_tree_game, negamax_value, uniform_tree

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]          # AIMA figure 5.2


def leaves(node):
    return 1 if not node.children else sum(leaves(c) for c in node.children)


def walk(node):
    yield node
    for child in node.children:
        yield from walk(child)


@pytest.mark.parametrize("branching,depth", [(2, 4), (3, 3), (3, 4)])
def test_alpha_beta_tree_has_the_knuth_moore_leaf_counts(branching, depth):
    minimal = branching ** math.ceil(depth / 2) + branching ** (depth // 2) - 1
    for order, expected in (("best", minimal), ("worst", branching ** depth)):
        tree = uniform_tree(branching, depth, order)
        root = trace(explicit_tree_game(tree), algorithm="alphabeta")
        assert root.value == negamax_value(tree) and leaves(root) == expected
        assert leaves(trace(explicit_tree_game(tree), algorithm="minimax")) == branching ** depth


def test_the_textbook_tree_prunes_the_textbook_leaves():
    root = trace(explicit_tree_game(TEXTBOOK))
    assert root.value == 3 and root.maximizing
    first, second, third = root.children
    assert [c.value for c in first.children] == [3, 12, 8] and not first.pruned
    assert [c.value for c in second.children] == [2] and second.pruned == [1, 2]
    assert (second.alpha, second.beta) == (3, math.inf) and second.value == 2
    assert [c.value for c in third.children] == [14, 5, 2] and not third.pruned


@pytest.mark.parametrize("seed", range(4))
def test_recorded_values_are_the_searched_values(seed):
    game = framework.load(SPECS / "tictactoe.yaml")
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(3):
        state = state.result(rng.choice(state.actions()))
    full = trace(game, state, algorithm="minimax", max_nodes=10**6)
    pruned = trace(game, state, algorithm="alphabeta", max_nodes=10**6)
    assert full.value == pruned.value == minimax.search(game, state).value
    assert (full.size(), leaves(full)) == tree_size(state)
    cuts = [node for node in walk(pruned) if node.pruned]
    for node in cuts:                     # a cut-off happens only outside the window
        assert node.value >= node.beta if node.maximizing else node.value <= node.alpha
    assert cuts and pruned.size() < full.size()


def test_depth_limited_trees_score_the_horizon_with_the_evaluation():
    game = framework.load(SPECS / "connect_four.yaml")
    root = trace(game, depth=2, algorithm="minimax")
    assert root.size() == 1 + 7 + 49
    assert {n.kind for n in walk(root) if not n.children} == {"horizon"}
    assert root.value == minimax.search(game, depth=2).value


def test_big_trees_are_refused_before_drawing():
    game = framework.load(SPECS / "tictactoe.yaml")
    with pytest.raises(TreeTooBig, match="more than 2,000 nodes"):
        trace(game)


@pytest.mark.parametrize("suffix", [".svg", ".dot", ".txt"])
def test_tree_files(tmp_path, capsys, suffix):
    out = tmp_path / f"tree{suffix}"
    moves = "place(0,0) place(1,1) place(2,2) place(0,2)"
    assert main(["tree", str(SPECS / "tictactoe.yaml"), "--moves", moves, "-o", str(out)]) == 0
    assert "nodes, value 1" in capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    if suffix == ".svg":
        doc = xml.dom.minidom.parseString(text)
        shapes = [e for tag in ("polygon", "rect", "ellipse") for e in doc.getElementsByTagName(tag)]
        root = trace(framework.load(SPECS / "tictactoe.yaml"), _play(moves))
        assert len(shapes) == root.size()
        svg = doc.documentElement              # scalable: a viewBox, shown at most 1600 px wide
        box = [float(v) for v in svg.getAttribute("viewBox").split()]
        assert box[:2] == [0, 0] and float(svg.getAttribute("width")) == min(box[2], 1600)
    elif suffix == ".dot":
        assert text.startswith("digraph") and text.count("->") >= 49 and "pruned:" in text
    else:
        assert text.startswith("MAX 1 [-∞, ∞]  (X to move)") and "✂ pruned:" in text


def _play(moves):
    game = framework.load(SPECS / "tictactoe.yaml")
    state = game.initial_state()
    for text in moves.split():
        state = state.result(game.parse_action(state, text))
    return state


@pytest.mark.parametrize("argv,message", [
    ([], "more than 2,000 nodes"),
    (["-o", "tree.png"], "must end in .svg, .dot or .txt"),
    (["--moves", "place(7,7)"], "not a legal action"),
])
def test_tree_errors(capsys, argv, message):
    assert main(["tree", str(SPECS / "tictactoe.yaml"), *argv]) == 1
    assert message in capsys.readouterr().err


def test_tree_refuses_games_it_cannot_draw(capsys):
    assert main(["tree", str(SPECS / "tictactoe3.yaml"), "-d", "1"]) == 2
    assert "needs 2 player(s)" in capsys.readouterr().err


def test_a_wide_svg_folds_deeper_subtrees_into_boxes_that_keep_their_values(tmp_path):
    from framework.cli.tree_cmd import FOLD_WIDTH, _width, draw_svg, fold_level
    from framework.search.lecture_tree import trace
    game = framework.load(SPECS / "tictactoe.yaml")
    root = trace(game, game.initial_state().result((0, 0)), max_nodes=100_000)
    level = fold_level(root)
    assert level is not None and _width(root, level) <= FOLD_WIDTH < _width(root, level + 1)
    out = tmp_path / "wide.svg"
    assert main(["tree", "tictactoe", "--moves", "place(0,0)", "--max-nodes", "100000", "-o", str(out)]) == 0
    doc = xml.dom.minidom.parse(str(out))
    folded = [r for r in doc.getElementsByTagName("rect") if r.getElementsByTagName("title")]
    assert len(folded) >= 1
    # the folded boxes hold every node below the fold: drawn + folded = the whole tree
    hidden = sum(int(r.getElementsByTagName("title")[0].firstChild.data.split(":")[1].split()[0].replace(",", ""))
                 for r in folded)
    drawn = len(doc.getElementsByTagName("polygon")) + len(doc.getElementsByTagName("ellipse")) + \
        len([r for r in doc.getElementsByTagName("rect") if not r.getElementsByTagName("title")])
    assert drawn + hidden == root.size()
    state = game.initial_state()
    for cell in ((0, 0), (1, 1), (2, 2), (0, 2), (2, 0)):
        state = state.result(cell)
    small = trace(game, state)                 # four moves left: fits, drawn whole
    assert fold_level(small) is None and "folded" not in draw_svg(game, small, "alphabeta")
