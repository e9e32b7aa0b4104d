"""The studio in a real browser: Playwright for Python driving headless Chromium (Debian's
`chromium` package, through `executable_path`) against `plyspec studio` started as a child
process.  Each test saves a screenshot to $STUDIO_ARTIFACTS (default: a folder under the
pytest tmp dir, printed) and fails on any console error of the page.

Marked `browser`; skipped, saying why, when Playwright or Chromium is missing."""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from contextlib import redirect_stdout

import pytest

from conftest import ROOT

CHROMIUM = os.environ.get("PLYSPEC_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (apt-get install chromium)")]
playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("uvicorn", reason="the studio needs uvicorn (pip install \".[studio]\")")

WAIT = 60_000          # ms: generous, for a loaded 2-core machine


@pytest.fixture(scope="module")
def studio():
    child = subprocess.Popen([sys.executable, "-m", "framework", "studio", "--port", "0"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = child.stdout.readline()
    match = re.search(r"(http://\S+/)", line)
    if not match:
        child.kill()
        pytest.fail(f"the studio did not start: {line!r} {child.stderr.read()}")
    yield match.group(1)
    child.terminate()
    child.wait(120)


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    folder = os.environ.get("STUDIO_ARTIFACTS") or str(tmp_path_factory.mktemp("studio-screenshots"))
    os.makedirs(folder, exist_ok=True)
    print(f"studio screenshots in {folder}")
    return folder


@pytest.fixture
def page(browser, studio, artifacts, request):
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.studio = studio
    page.shot = lambda label: page.screenshot(path=os.path.join(artifacts, f"{request.node.name}-{label}.png"),
                                              full_page=True)
    yield page
    page.screenshot(path=os.path.join(artifacts, f"{request.node.name}.png"), full_page=True)
    context.close()
    assert not errors, f"console errors: {errors}"


def _idle(page):
    """Wait until no computer move is running and the page shows no 'thinking'."""
    page.wait_for_function("!document.querySelector('#thinking')")


def _seat(page, i, agent):
    field = page.locator(f'input[data-seat="{i}"]')
    field.fill(agent)
    field.dispatch_event("change")


def test_the_library_lists_games_and_problems(page):
    page.goto(page.studio + "#library")
    page.wait_for_selector('tr[data-spec="tictactoe"]')
    for name in ("connect_four", "draughts", "hex", "pig", "kalah", "nim", "othello", "tictactoe3",
                 "monkey_bananas", "gripper"):
        assert page.locator(f'tr[data-spec="{name}"]').count() == 1
    page.shot("library")
    page.click('tr[data-spec="tictactoe"] a.button')
    page.wait_for_selector("svg.board")


def test_tictactoe_against_alphabeta_by_clicking_to_the_end(page):
    page.goto(page.studio + "#play/tictactoe")
    page.wait_for_selector("svg.board")
    _seat(page, 1, "alphabeta:depth=9")          # O plays perfectly: X cannot win
    clicks = 0
    while not page.locator("#result").count():
        _idle(page)
        if page.locator("#result").count():
            break
        page.locator("g.cell.legal").first.click()
        clicks += 1
        assert clicks <= 5
        page.wait_for_function(f"document.querySelectorAll('#moves li').length >= {2 * clicks - 1}")
    result = page.locator("#result").inner_text()
    assert result in ("Game over: draw", "Game over: O wins")
    xs = page.locator('g.cell[data-value="X"]').count()
    assert xs == clicks and page.locator('g.cell[data-value="O"]').count() in (xs - 1, xs)
    agent_moves = page.locator("#moves li.agent")
    assert agent_moves.count() >= 1 and "depth" in agent_moves.first.inner_text()
    assert page.locator("table.returns").count() == 1


def test_a_connect_four_move_falls_to_the_bottom(page):
    page.goto(page.studio + "#play/connect_four")
    page.wait_for_selector("svg.board")
    _seat(page, 1, "human")
    page.click('g.cell[data-x="3"][data-y="0"]')        # a click on the top cell of column 3
    page.wait_for_selector('g.cell[data-x="3"][data-y="5"][data-value="R"]')
    assert page.locator('g.cell[data-x="3"][data-y="0"]').get_attribute("data-value") == "empty"
    assert page.locator("#moves li").inner_text().endswith("drop(3)")


def test_a_pig_turn_with_chance(page):
    page.goto(page.studio + "#play/pig")
    page.wait_for_selector("table.variables")
    page.uncheck("#auto-chance")
    page.click('button.action:text-is("roll")')
    page.wait_for_selector("button.outcome")
    outcomes = page.locator("button.outcome").all_inner_texts()
    assert [o.split()[0] for o in outcomes] == [f"d={d}" for d in range(1, 7)]
    assert all("p=0.167" in o for o in outcomes)
    page.click('button.outcome:has-text("d=4")')
    page.wait_for_selector('#moves li:has-text("d=4")')
    assert "(p=0.167)" in page.locator("#moves li.chance").inner_text()
    assert page.locator('table.variables tr:has-text("total") td').inner_text() == "4"
    page.check("#auto-chance")
    page.click('button.action:text-is("hold")')         # the computer (expectimax) takes its turn
    page.wait_for_selector('#moves li.agent')
    _idle(page)
    assert "value" in page.locator("#moves li.agent").first.inner_text()


def test_stepping_an_alphabeta_tree_prunes_what_plyspec_tree_prunes(page):
    from framework.cli import main
    page.goto(page.studio + "#play/tictactoe")
    page.wait_for_selector("svg.board")
    _seat(page, 1, "human")
    page.click('g.cell[data-x="0"][data-y="0"]')
    page.wait_for_selector('g.cell[data-x="0"][data-y="0"][data-value="X"]')
    page.click('g.cell[data-x="1"][data-y="1"]')
    page.wait_for_selector('g.cell[data-x="1"][data-y="1"][data-value="O"]')
    page.click('a[href="#search"]')
    page.fill("#depth", "3")
    page.dispatch_event("#depth", "change")
    page.click("#build")
    page.wait_for_selector("#tree-svg")
    for _ in range(5):
        page.click("#forward")
    assert "window [" in page.locator("#event").inner_text()
    page.click("#last")
    page.wait_for_selector("svg.tree .node.pv")
    out = io.StringIO()
    with redirect_stdout(out):
        main(["tree", "tictactoe", "--moves", "place(0,0) place(1,1)", "--depth", "3"])
    pruned = sum(len(line.split("pruned: ")[1].split(", ")) for line in out.getvalue().splitlines() if "pruned: " in line)
    assert int(page.locator("#pruned-so-far").inner_text()) == int(page.locator("#pruned-total").inner_text()) == pruned > 0
    assert page.locator("svg.tree .cut-label").count() == out.getvalue().count("✂")


def test_the_editor_shows_an_error_as_you_type_and_plays_the_fixed_text(page):
    page.goto(page.studio + "#editor")
    page.wait_for_selector("#check-status.good")
    source = page.locator("#source")
    good = source.input_value()
    source.fill(good.replace("if: board[c] == empty", "if: bord[c] == empty"))
    page.wait_for_selector(".diagnostic.error")
    assert "unknown name `bord`" in page.locator(".diagnostic").inner_text()
    assert "did you mean `board`" in page.locator(".diagnostic .hint").inner_text()
    assert page.locator(".hl .err").inner_text().startswith("bord")
    source.fill(good)
    page.wait_for_selector("#check-status.good")
    page.click("#play-text")
    page.wait_for_selector("svg.board")
    assert page.locator('g.cell').count() == 16                         # the starter's 4x4 board
    page.locator("g.cell.legal").first.click()
    page.wait_for_selector('#moves li')


def test_plan_monkey_and_bananas_and_step_through_it(page):
    page.goto(page.studio + "#plan/monkey_bananas")
    page.click("#plan-button")
    page.wait_for_selector("#plan-summary")
    assert "plan of length 4" in page.locator("#plan-summary").inner_text()
    assert "validated" in page.locator("#plan-summary").inner_text()
    assert page.locator("#goal-met").inner_text().startswith("goal facts met: 0 of 1")
    for _ in range(4):
        page.click("#plan-next")
    assert "Step 4: TakeBananas(B)" in page.locator(".step-detail h3").inner_text()
    assert page.locator("#goal-met").inner_text().startswith("goal facts met: 1 of 1")
    assert page.locator(".fact.add").first.inner_text() == "HasBananas"


# Each game played by clicks, every seat human; a move is the cells clicked in order (a
# draughts multi-jump is three clicks, an Amazons move three: queen, target, arrow) or the
# text of an action button (games without a board)
GAMES = {
    "draughts": ["move(4,5,5,4)", "move(1,2,0,3)", "move(3,6,4,5)", "move(0,3,1,4)", "jump(0,5,2,3)",
                 "jump(3,2,1,4,3,6)"],
    "amazons": ["move(1,4,1,1,0,0)"],
    "othello": ["place(3,2)", "place(2,2)"],
    "hex": ["place(2,2)", "place(0,0)"],
    "tictactoe3": ["place(0,0)", "place(1,1)", "place(2,2)"],
    "kalah": ["sow(2)", "sow(0)"],
    "nim": ["take(0,1)", "take(1,2)"],
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_shipped_games_are_played_by_clicks(page, name):
    import framework
    from framework.studio.sessions import position
    game = framework.load(name)
    page.goto(page.studio + f"#play/{name}")
    page.wait_for_selector("#moves, .card p.sub")
    for i in range(game.num_players):
        _seat(page, i, "human")
    state = game.initial_state()
    for n, text in enumerate(GAMES[name], 1):
        action = game.parse_action(state, text)
        cells = game.view.action_cells(action)
        if cells and page.locator("svg.board").count():
            for x, y in cells:
                page.click(f'g.cell.legal[data-x="{x}"][data-y="{y}"]')
        else:
            page.click(f'button.action:text-is("{text}")')
        page.wait_for_function(f"document.querySelectorAll('#moves li').length == {n}")
        state = state.result(action)
    assert page.locator("#moves li").last.inner_text().endswith(GAMES[name][-1])
    board = game.view.board(position(state))
    if board:
        shown = [[page.locator(f'g.cell[data-x="{x}"][data-y="{y}"]').get_attribute("data-value")
                  for x in range(board["width"])] for y in range(board["height"])]
        assert shown == board["cells"]
    else:
        shown = dict(zip(page.locator("table.variables th").all_inner_texts(),
                         page.locator("table.variables td").all_inner_texts()))
        assert shown == dict(game.view.variable_texts(position(state)))
