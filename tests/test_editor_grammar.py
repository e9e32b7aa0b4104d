"""The `.game` TextMate grammar shipped for editors (editors/, docs/editor.md) stays valid and
knows every section keyword of the `.game` grammar."""
from conftest import ROOT


def test_textmate_grammar_knows_every_section_of_the_game_grammar():
    import json
    import re
    grammar = json.loads((ROOT / "editors" / "plyspec-game.tmLanguage.json").read_text())
    patterns = grammar["repository"]
    for rule in patterns.values():
        for key in ("match", "begin", "end"):
            if key in rule:
                re.compile(rule[key])
    sections = re.search(r"_section:(.*?)\n\n", (ROOT / "framework/frontend/game_format.lark").read_text(),
                         re.S).group(1)
    keywords = set(re.findall(r'^(\w+): "(\w+)"', (ROOT / "framework/frontend/game_format.lark").read_text(), re.M))
    section = re.compile(patterns["section"]["match"])
    checked = [word for rule, word in keywords if re.search(rf"\b{rule}\b", sections)]
    assert len(checked) >= 20
    for word in checked:
        assert section.match(word), word


def test_textmate_grammar_colours_every_builtin_and_direction_set():
    import json
    import re
    from framework import builtins
    from framework.checker import DIRECTION_SETS
    grammar = json.loads((ROOT / "editors" / "plyspec-game.tmLanguage.json").read_text())
    text = json.dumps(grammar["repository"])
    for name in list(builtins.names()) + list(DIRECTION_SETS):
        assert re.search(rf"[(|]{name}[|)]", text), name
