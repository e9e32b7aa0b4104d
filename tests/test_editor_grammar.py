"""The editor files (editors/, docs/editor.md) stay valid: the `.game` and `.plan` TextMate
grammars compile and know every section keyword of their Lark grammars, and the VS Code
extension's manifest names files that exist."""
import json
import re

from conftest import ROOT

VSCODE = ROOT / "editors" / "vscode"
GAME_GRAMMAR = VSCODE / "syntaxes" / "plyspec-game.tmLanguage.json"
PLAN_GRAMMAR = VSCODE / "syntaxes" / "plyspec-plan.tmLanguage.json"


def test_textmate_grammar_knows_every_section_of_the_game_grammar():
    import json
    import re
    grammar = json.loads((GAME_GRAMMAR).read_text())
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
    grammar = json.loads((GAME_GRAMMAR).read_text())
    text = json.dumps(grammar["repository"])
    for name in list(builtins.names()) + list(DIRECTION_SETS):
        assert re.search(rf"[(|]{name}[|)]", text), name


def test_plan_grammar_knows_every_keyword_of_the_plan_format():
    grammar = json.loads(PLAN_GRAMMAR.read_text())
    rules = grammar["repository"]
    for rule in rules.values():
        re.compile(rule["match"])
    lark = (ROOT / "planners/formats/plan_format.lark").read_text()
    sections = re.findall(r"^_([A-Z]+)\.3: /(\w+)\\b/", lark, re.M)
    parts = re.search(r"^PART\.3: /\(([\w|]+)\)", lark, re.M).group(1).split("|")
    assert len(sections) >= 12 and parts == ["pre", "add", "del", "cost"]
    for _, word in sections:
        assert re.match(rules["section"]["match"], word) or re.match(rules["part"]["match"], "  " + word), word
    for word in parts:
        assert re.match(rules["part"]["match"], "  " + word), word


def test_vscode_extension_manifest_names_files_that_exist():
    manifest = json.loads((VSCODE / "package.json").read_text())
    contributes = manifest["contributes"]
    for language in contributes["languages"]:
        json.loads((VSCODE / language["configuration"]).read_text())
    scopes = {json.loads((VSCODE / g["path"]).read_text())["scopeName"]: g for g in contributes["grammars"]}
    assert {g["scopeName"] for g in contributes["grammars"]} == set(scopes)
    assert {(g["language"], g["scopeName"]) for g in contributes["grammars"]} == {
        ("plyspec-game", "source.plyspec-game"), ("plyspec-plan", "source.plyspec-plan")}
    assert {ext for lang in contributes["languages"] for ext in lang["extensions"]} == {".game", ".plan", ".pddl"}
    assert (VSCODE / manifest["main"]).exists() and "vscode-languageclient" in manifest["dependencies"]


def test_vscode_client_is_valid_javascript():
    import shutil
    import subprocess

    import pytest
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: extension.js is not checked")
    done = subprocess.run([node, "--check", str(VSCODE / "extension.js")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
