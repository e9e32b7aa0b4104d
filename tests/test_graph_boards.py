"""Graph boards (framework.graph): a board of named points, links and named lines, in both
syntaxes; the checker's errors at the name they are about; the compiled game against the
reference interpreter on a hand-written game (its whole tree) and on generated graph specs;
the display by point names; the editor's hovers."""
import pytest

from framework import load_text
from framework.checker import check
from framework.conformance.differential import find_difference
from framework.errors import SpecError
from framework.interpreter import InterpretedGame
from framework.perft import perft
from lsp_support import client  # noqa: F401  (the language server, for the hover test)

RING = """game: Ring
players: [X, O]
board:
  cells: [empty, X, O]
  points: [[a, b, c], [d, e, f]]
  links: [[a, b, c, f, e, d, a], [b, e]]
  lines: {top: [a, b, c], bottom: [d, e, f], middle: [b, e]}
actions:
  place(p in cells(board, empty)):
    if: "size(liberties(board, p, links)) >= 0 and (exists q in neighbors(p, links): board[q] != mover or q in top)"
    then: "board[p] = mover; if size(group(board, p, links)) >= 4 then board[region(p, links, cells(board, mover)) & bottom - middle] = empty"
terminal: in_line(board, b, X) or line(board, 2, O) or connected(board, top, bottom, links, X) and in_line(board, e, X) or full(board)
winner: "X if in_line(board, b, X) or connected(board, top, bottom, links, X) and in_line(board, e, X) else O if line(board, 2, O) else none"
max_moves: 10
"""

RING_GAME = """game "Ring"
players X, O
board points a b c / d e f of empty, X, O
links a - b - c - f - e - d - a, b - e
lines top = a b c, bottom = d e f,
  middle = b e
action place(p in cells(board, empty))
    if size(liberties(board, p, links)) >= 0 and (exists q in neighbors(p, links): board[q] != mover or q in top)
    then board[p] = mover
      if size(group(board, p, links)) >= 4 then board[region(p, links, cells(board, mover)) & bottom - middle] = empty
terminal in_line(board, b, X) or line(board, 2, O) or connected(board, top, bottom, links, X) and in_line(board, e, X) or full(board)
winner X if in_line(board, b, X) or connected(board, top, bottom, links, X) and in_line(board, e, X) else O if line(board, 2, O) else none
max_moves 10
"""


def _leaves(game, depth):
    return [perft(game.initial_state(), d) for d in range(1, depth + 1)]


def test_a_graph_board_reads_alike_in_both_syntaxes_and_converts_both_ways():
    from framework.frontend.printer import to_game, to_yaml
    yaml_game, game_game = load_text(RING), load_text(RING_GAME, fmt="game")
    assert yaml_game.spec.board == game_game.spec.board
    assert load_text(to_game(yaml_game.spec), fmt="game").spec.board == yaml_game.spec.board
    assert load_text(to_yaml(game_game.spec)).spec.board == yaml_game.spec.board
    assert _leaves(yaml_game, 4) == _leaves(game_game, 4)


def test_the_compiled_graph_game_plays_as_interpreted_over_its_whole_tree():
    game = load_text(RING)
    assert find_difference(game, InterpretedGame(check(game.spec, {})), bfs_states=5000, playouts=20) is None


def test_the_rules_mean_what_the_links_and_lines_say():
    """Played by hand: X on b and e holds the line middle (in_line at b); O's two stones on
    d and e, consecutive points of the line bottom, make line(board, 2, O); moves and the
    board are written with the points' names."""
    game = load_text(RING)
    s = game.initial_state()
    assert sorted(game.action_text(a) for a in s.actions()) == [f"place({p})" for p in "abcdef"]
    s = s.result(game.parse_action(s, "place(b)")).result(game.parse_action(s, "place(d)"))
    s = s.result(game.parse_action(s, "place(e)"))       # X holds b and e: the line middle
    assert s.terminal_test() and s.utility(0) == 1
    text = str(s)
    assert "b:X" in text and "d:O" in text and "e:X" in text and "a:." in text
    s = game.initial_state()
    for move in ("place(a)", "place(d)", "place(c)", "place(e)"):     # O: d and e, linked, on bottom
        s = s.result(game.parse_action(s, move))
    assert s.terminal_test() and s.utility(1) == 1


BAD = [  # (syntax, text, message, line, column)
    ("yaml", "  points: [a, b, a]", "duplicate point `a`", 5, 18),
    ("yaml", "  points: [a, b, c]\n  links: [[a, b], [b, q]]", "unknown point `q`", 6, 23),
    ("yaml", "  points: [a, b, c]\n  links: [[a, b]]\n  lines: {l: [a, c]}", "`a` and `c` are not linked", 7, 18),
    ("yaml", "  points: [a, b, c]\n  links: [[a, a]]", "point `a` is linked to itself", 6, 15),
    ("yaml", "  points: [a, links]", "a point cannot be called `links`", 5, 15),
    ("yaml", "  points: [a, X]", "duplicate name `X`", 5, 15),
    ("yaml", "  points: [a, b]\nstate:\n  links: {type: bool, initial: false}", "duplicate name `links`", 7, 3),
    ("game", "board points a b / c of empty, X, O\nlinks a - b - d", "unknown point `d`", 4, 15),
    ("game", "board points a b / c of empty, X, O\ndefine links = 1", "duplicate name `links`", 4, 8),
    ("game", "board points a b / c of empty, X, O\nlinks a - b\nlines t = a b, t = b a", "duplicate line `t`", 5, 16),
]


def _spec(syntax, board, rule="full(board)"):
    if syntax == "yaml":
        return (f"game: t\nplayers: [X, O]\nboard:\n  cells: [empty, X, O]\n{board}\nactions:\n"
                f"  put(c in cells(board, empty)): board[c] = mover\nterminal: {rule}\nwinner: none\n")
    return (f"game t\nplayers X, O\n{board}\naction put(c in cells(board, empty)) then board[c] = mover\n"
            f"terminal {rule}\nwinner none\n")


@pytest.mark.parametrize("syntax, board, message, line, col", BAD, ids=[b[2] for b in BAD])
def test_a_bad_graph_board_is_refused_at_the_name_it_is_about(syntax, board, message, line, col):
    with pytest.raises(SpecError) as e:
        load_text(_spec(syntax, board), fmt=syntax)
    assert message in e.value.message and (e.value.line, e.value.col) == (line, col), str(e.value)
    assert e.value.hint


GRID_ONLY = [("col(a) == 0", "`col` needs a grid board"), ("size(row_cells(0)) == 0", "`row_cells` needs a grid"),
             ("board[(0, 0)] == X", "a graph board has no cells (x, y)"),
             ("size(neighbors(a, orthogonal)) == 0", "`orthogonal` is a direction set of grids"),
             ("size(slide(board, a, links, X)) == 0", "`slide` needs a grid board")]


@pytest.mark.parametrize("syntax", ["yaml", "game"])
@pytest.mark.parametrize("rule, message", GRID_ONLY, ids=[g[1] for g in GRID_ONLY])
def test_grid_words_on_a_graph_board_are_refused_with_a_hint(syntax, rule, message):
    board = "  points: [a, b]\n  links: [[a, b]]" if syntax == "yaml" else "board points a b of empty, X, O\nlinks a - b"
    with pytest.raises(SpecError) as e:
        load_text(_spec(syntax, board, rule), fmt=syntax)
    first = e.value.errors[0] if hasattr(e.value, "errors") else e.value
    assert message in first.message and first.hint and first.col > 1, str(e.value)


def test_graph_words_on_a_grid_are_refused():
    grid = "board: {width: 2, height: 1, cells: [empty, X, O], lines: {t: [a, b]}}"
    with pytest.raises(SpecError, match="`lines` needs a graph board"):
        load_text(grid.join(_spec("yaml", "@").split("board:\n  cells: [empty, X, O]\n@")))
    with pytest.raises(SpecError, match="`in_line` needs a graph board"):
        load_text(_spec("yaml", "  points: [a]", "in_line(board, a, X)").replace(
            "board:\n  cells: [empty, X, O]\n  points: [a]", "board: {width: 2, height: 1, cells: [empty, X, O]}"))
    with pytest.raises(SpecError, match="`links` needs a graph board"):
        load_text(_spec("game", "board 2 x 1 of empty, X, O\nlinks a - b"), fmt="game")


def _generated_campaign(examples):
    from hypothesis import strategies as st
    from framework.conformance.generate_graph import GraphGen
    from test_generated_specs import campaign
    campaign(examples, st.composite(lambda draw: GraphGen(draw).spec())())


def test_a_few_generated_graph_specs_compile_to_what_the_interpreter_plays():
    """(tests/test_generated_specs.py draws one spec in four on a graph board too.)"""
    _generated_campaign(6)


@pytest.mark.slow
def test_two_hundred_generated_graph_specs_compile_to_what_the_interpreter_plays():
    _generated_campaign(200)


@pytest.mark.asyncio(loop_scope="function")
async def test_the_editor_explains_points_lines_and_the_graph_keys(client, tmp_path):
    from lsprotocol import types as t
    from lsp_support import diagnostics, open_doc
    path = tmp_path / "ring.yaml"
    uri = open_doc(client, path, RING)
    assert list(await diagnostics(client, uri)) == []
    lines = RING.splitlines()

    async def hover(row, word, nth=0):
        col = lines[row].index(word) if not nth else [i for i in range(len(lines[row])) if lines[row].startswith(word, i)][nth]
        got = await client.text_document_hover_async(t.HoverParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=row, character=col + 1)))
        return got.contents.value
    terminal = next(i for i, x in enumerate(lines) if x.startswith("terminal:"))
    assert "point `b` of the graph board: linked to a, c, e; on the lines top, middle" in await hover(terminal, " b,")
    assert "line `top` of the graph board" in await hover(terminal, "top")
    assert "in_line(board, cell, value) -> bool" in await hover(terminal, "in_line")
    assert "direction set `links`" in await hover(terminal, "links")
    assert "graph board's links, as paths" in await hover(5, "links")
    assert "named points" in await hover(4, "points")
    assert "named lines" in await hover(6, "lines")
    row = next(i for i, x in enumerate(lines) if "if:" in x)
    got = await client.text_document_completion_async(t.CompletionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=row, character=len(lines[row]))))
    labels = {item.label for item in got.items}
    assert {"links", "in_line", "a", "top"} <= labels and "orthogonal" not in labels
