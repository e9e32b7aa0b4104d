"""The formatter the language server offers (framework.lsp.formatting) never loses text:
on every shipped `.game` and `.plan` file, on those files with their layout scrambled and
comments added, and on generated specs written as `.game`, formatting keeps every
comment, reads back to the same AST, and formatting twice changes nothing."""
import random

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from conftest import ROOT, SPECS
from framework.errors import SpecError
from framework.lsp.formatting import FormatRefused, _meaning, comments, format_text, split_comment

SHIPPED = sorted(SPECS.glob("*.game")) + sorted((ROOT / "planners/data/problems").glob("*.plan"))


def assert_lossless(path: str, text: str, expected_meaning=None) -> str:
    new = format_text(path, text)
    strings = not path.endswith(".plan")          # (a `.plan` file has no strings)
    assert comments(new, strings) == comments(text, strings)
    assert _meaning(path, new) == (_meaning(path, text) if expected_meaning is None else expected_meaning)
    assert format_text(path, new) == new
    assert new.endswith("\n") and "\n\n\n" not in new and not any(line != line.rstrip() for line in new.split("\n"))
    return new


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_files_are_kept_as_written(path):
    """The shipped files are laid out as the formatter lays them out: nothing changes."""
    text = path.read_text()
    assert assert_lossless(str(path), text) == text


def scramble(text: str, rng: random.Random, strings: bool = True) -> str:
    """The text with its layout disturbed where the formats ignore it (runs of spaces and
    tabs between words, around commas and brackets, trailing space, runs of blank lines)
    and comments added at line ends and on lines of their own."""
    out = []
    for line in text.split("\n"):
        code, comment = split_comment(line, strings)
        pieces = code.split('"')
        for i in range(0, len(pieces), 2):          # outside strings only
            words = pieces[i]
            if i == 0:
                indent = words[:len(words) - len(words.lstrip())]
                words = words[len(indent):]
            words = "".join(ch + (rng.choice(["", " ", "  ", "\t"]) if ch in " ," else "") for ch in words)
            words = words.replace("(", rng.choice(["(", "( "])).replace(")", rng.choice([")", " )"]))
            pieces[i] = (indent if i == 0 else "") + words
        code = '"'.join(pieces)
        if comment:
            code = code.rstrip() + "  "
        elif code.strip() and rng.random() < 0.3:
            comment = f"# note {rng.randrange(1000)} (a, b)  ,x"
            code = code + " "
        if rng.random() < 0.2 and code.strip():
            indent = code[:len(code) - len(code.lstrip())]
            out.append(f"{indent}# above {rng.randrange(1000)}")
        out.append(code + comment + rng.choice(["", " ", "\t "]))
        if rng.random() < 0.15:
            out.extend([""] * rng.randrange(1, 4))
    return "\n".join(out)


@settings(max_examples=60, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck), phases=[Phase.generate])
@given(st.sampled_from(SHIPPED), st.integers(0, 2**32))
def test_scrambled_shipped_files_format_back_without_losing_a_comment(path, seed):
    text = path.read_text()
    messy = scramble(text, random.Random(seed), path.suffix == ".game")
    try:
        meaning = _meaning(str(path), messy)
    except SpecError:
        assume(False)               # a scramble the format itself does not accept
    if path.suffix == ".game":      # (in .plan a name is free text: its spaces count)
        assert meaning == _meaning(str(path), text)
    assert_lossless(str(path), messy, meaning)


@settings(max_examples=40, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck), phases=[Phase.generate])
@given(st.data())
def test_generated_specs_written_as_game_format_losslessly(data):
    from framework.conformance.generate import spec_texts
    from framework.frontend.printer import to_game
    from framework.frontend.yaml_spec import load_yaml_spec
    text = data.draw(spec_texts())
    try:
        game = to_game(load_yaml_spec(text, "generated.yaml"))
    except (SpecError, ValueError):
        assume(False)
    messy = scramble(game, random.Random(data.draw(st.integers(0, 2**32))))
    try:
        meaning = _meaning("generated.game", messy)
    except SpecError:
        assume(False)
    assert_lossless("generated.game", messy, meaning)


def test_what_cannot_be_formatted_is_refused_with_the_reason():
    text = (SPECS / "tictactoe.game").read_text()
    with pytest.raises(FormatRefused, match=r"does not parse \(\d+:\d+: .*\); fix it first"):
        format_text("t.game", text + "terminal\n")
    with pytest.raises(FormatRefused, match="formats .game and .plan files only"):
        format_text("t.yaml", (SPECS / "tictactoe.yaml").read_text())
    # a string with `#` and doubled spaces inside is not a comment and is kept as written
    odd = text.replace('display empty ".", X "X", O "O"', 'display empty "#  .", X "X" ,  O "O"   # shown')
    assert 'display empty "#  .", X "X", O "O"   # shown\n' in assert_lossless("t.game", odd)
