"""The language server on planning files, driven by a real client (pytest-lsp): YAML
planning specs, `.plan` files and PDDL domains and problems open without diagnostics;
broken ones show what `plyspec check` prints (every error, with its place and hint);
hover, definition, references, completion and the outline work on predicates, objects,
types, actions, parameters and options, a PDDL problem's names leading into its domain."""
import re
from pathlib import Path

import pytest
from lsprotocol import types as t

from conftest import ROOT
from lsp_support import as_printed, at, check_output, client, diagnostics, open_doc, printed_errors  # noqa: F401

pytestmark = pytest.mark.asyncio(loop_scope="function")
PROBLEMS = ROOT / "planners" / "data" / "problems"
PDDL = ROOT / "planners" / "data" / "pddl"


def _where(text: str, pattern: str, nth: int = 0) -> tuple[int, int]:
    """(line, character), 0-based, of the nth match of the regex `pattern`'s group 1."""
    match = list(re.finditer(pattern, text, re.M))[nth]
    before = text[:match.start(1)]
    return before.count("\n"), match.start(1) - (before.rfind("\n") + 1)


async def test_shipped_planning_files_have_no_diagnostics(client):
    files = sorted(PROBLEMS.glob("*.yaml")) + sorted(PROBLEMS.glob("*.plan")) + sorted(PDDL.glob("*/*.pddl"))
    assert len(files) > 15
    for path in files:
        uri = open_doc(client, path)
        assert list(await diagnostics(client, uri)) == [], path


BROKEN = [
    ("two errors", "gripper.yaml", [("add: [Carry(b, g)]", "add: [Cary(b, g)]"),
                                    ("At(Ball{i}, RoomB)", "At(Bal{i}, RoomB)")]),
    ("arity in .plan", "monkey_bananas.plan", [("add At(y), BoxAt(y)", "add At(y, x), BoxAt(y)")]),
    ("unknown type", "hanoi.plan", [("Smaller(d - disk, x - place)", "Smaller(d - disc, x - place)")]),
    ("syntax in .plan", "hanoi.plan", [("init On(", "init On((")]),
    ("PDDL domain: undeclared predicate", "gripper/domain.pddl", [("(free ?gripper))\n", "(fre ?gripper))\n")]),
    ("PDDL problem: unknown object", "gripper/task01.pddl", [("(free left)", "(free lefty)")]),
    ("PDDL syntax", "gripper/domain.pddl", [("(:action move", "(:action move)")]),
]


@pytest.mark.parametrize("what, name, edits", BROKEN, ids=[b[0] for b in BROKEN])
async def test_diagnostics_are_what_plyspec_check_prints(client, tmp_path, capsys, what, name, edits):
    source = (PDDL if name.endswith(".pddl") else PROBLEMS) / name
    text = source.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    folder = tmp_path / "task"
    folder.mkdir()
    if name.endswith("task01.pddl"):                       # a problem is checked with its domain
        (folder / "domain.pddl").write_text((PDDL / "gripper/domain.pddl").read_text())
    uri = open_doc(client, folder / source.name, text)
    published = [as_printed(d) for d in await diagnostics(client, uri)]
    printed = printed_errors(check_output(folder, source.name, text, capsys))
    assert published == printed and len(printed) == len(edits)


async def test_quick_fix_renames_a_misspelt_predicate_but_not_a_generated_name(client, tmp_path):
    original = (PROBLEMS / "gripper.yaml").read_text()
    text = original.replace("add: [Carry(b, g)]", "add: [Cary(b, g)]").replace("At(Ball{i}, RoomB)", "At(Bal{i}, RoomB)")
    uri = open_doc(client, tmp_path / "gripper.yaml", text)
    found = await diagnostics(client, uri)
    assert len(found) == 2
    fixes = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=found[0].range,
        context=t.CodeActionContext(diagnostics=list(found))))
    [fix] = fixes                                  # `Bal{i}` -> `Ball1{i}` would be wrong: not offered
    [edit] = fix.edit.changes[uri]
    assert edit.new_text == "Carry" and edit.range == found[0].range
    line = text.split("\n")[edit.range.start.line]
    assert line[edit.range.start.character:edit.range.end.character] == "Cary"


async def test_hover_definition_references_in_a_yaml_planning_spec(client):
    path = PROBLEMS / "gripper.yaml"
    text = path.read_text()
    uri = open_doc(client, path)
    await diagnostics(client, uri)
    hover = await client.text_document_hover_async(t.HoverParams(**at(uri, *_where(text, r"add: \[(Carry)"))))
    assert "Carry(b - ball, g - gripper)" in hover.contents.value
    where = await client.text_document_definition_async(t.DefinitionParams(**at(uri, *_where(text, r"add: \[(Carry)"))))
    assert (where.range.start.line, where.range.start.character) == _where(text, r"- (Carry)\(b - ball")
    refs = await client.text_document_references_async(t.ReferenceParams(
        **at(uri, *_where(text, r"add: \[(Carry)")), context=t.ReferenceContext(include_declaration=True)))
    assert len(refs) == text.count("Carry(")                 # declared once, used in Pick and Drop
    # a parameter leads to its own action's signature, not to another action's of the same name
    drop_b = _where(text, r"pre: \[Carry\((b), g\)")
    where = await client.text_document_definition_async(t.DefinitionParams(**at(uri, *drop_b)))
    assert (where.range.start.line, where.range.start.character) == _where(text, r"Drop\((b) - ball")
    hover = await client.text_document_hover_async(t.HoverParams(**at(uri, *_where(text, r"- RobotAt\((RoomA)"))))
    assert "object `RoomA` of type `room`" in hover.contents.value
    where = await client.text_document_definition_async(t.DefinitionParams(**at(uri, *_where(text, r"RobotAt\(r - (room)"))))
    assert (where.range.start.line, where.range.start.character) == _where(text, r"^  (room):")
    hover = await client.text_document_hover_async(t.HoverParams(**at(uri, *_where(text, r"for i in 1\.\.(balls)"))))
    assert "option `balls` (default 4" in hover.contents.value
    hover = await client.text_document_hover_async(t.HoverParams(**at(uri, *_where(text, r"^  (Pick)\("))))
    assert "Pick(b - ball, r - room, g - gripper)" in hover.contents.value and "del: At(b, r), Free(g)" in hover.contents.value


async def test_completion_and_outline_in_a_plan_file(client):
    path = PROBLEMS / "hanoi.plan"
    text = path.read_text()
    uri = open_doc(client, path)
    await diagnostics(client, uri)
    line, _ = _where(text, r"^  (pre) On")
    got = await client.text_document_completion_async(t.CompletionParams(**at(uri, line, len(text.split("\n")[line]))))
    labels = {item.label for item in got.items}
    assert {"On", "Clear", "Smaller", "d", "from", "to", "P1", "D1", "disk", "disks"} <= labels
    got = await client.text_document_completion_async(t.CompletionParams(**at(uri, text.count("\n"), 0)))
    assert {"action", "init", "goal", "predicates"} <= {item.label for item in got.items}
    outline = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=uri)))
    sections = {s.name: {c.name for c in s.children or []} for s in outline}
    assert {"types", "objects", "predicates", "actions", "init", "goal"} <= set(sections)
    assert "Move" in sections["actions"] and "Smaller" in sections["predicates"]
    where = await client.text_document_definition_async(t.DefinitionParams(**at(uri, *_where(text, r"^     (Smaller)"))))
    assert (where.range.start.line, where.range.start.character) == _where(text, r"(Smaller)\(d - disk")


async def test_pddl_problem_names_lead_into_the_domain(client):
    domain, task = PDDL / "gripper/domain.pddl", PDDL / "gripper/task01.pddl"
    text = task.read_text()
    uri = open_doc(client, task)
    assert list(await diagnostics(client, uri)) == []
    where = await client.text_document_definition_async(t.DefinitionParams(**at(uri, *_where(text, r"\((at-robby) rooma"))))
    assert where.uri == domain.resolve().as_uri()
    assert (where.range.start.line, where.range.start.character) == _where(domain.read_text(), r"\((at-robby) \?r\)")
    hover = await client.text_document_hover_async(t.HoverParams(**at(uri, *_where(text, r"\(free (left)\)"))))
    assert "object `left`" in hover.contents.value
    refs = await client.text_document_references_async(t.ReferenceParams(
        **at(uri, *_where(text, r"\(free (left)\)")), context=t.ReferenceContext(include_declaration=False)))
    assert len(refs) == len(re.findall(r"\bleft\b", text)) - 1        # every use but the declaration
    # in the domain: an action parameter's references stay inside its action
    dtext = domain.read_text()
    duri = open_doc(client, domain)
    refs = await client.text_document_references_async(t.ReferenceParams(
        **at(duri, *_where(dtext, r":parameters \(\?obj (\?room)")), context=t.ReferenceContext(include_declaration=True)))
    pick = dtext[dtext.index("(:action pick"):dtext.index("(:action drop")]
    assert len(refs) == pick.count("?room")
    outline = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=duri)))
    assert {":predicates", ":action move", ":action pick", ":action drop"} <= {s.name for s in outline}


async def test_every_name_in_the_shipped_planning_files_has_its_declaration():
    """In-process: each predicate, object, type, option and parameter used in a shipped
    planning file resolves to a declaration (a PDDL task's through its domain), so hover
    and go to definition work on all of them; a name the spec does not declare does not."""
    from framework.lsp.analysis import PLANNING, PDDL as PDDL_KIND, analyse
    paths = sorted(PROBLEMS.glob("*.yaml")) + sorted(PROBLEMS.glob("*.plan")) + sorted(PDDL.glob("*/*.pddl"))
    checked = 0
    for path in paths:
        result = analyse(str(path), path.read_text())
        if result.kind not in (PLANNING, PDDL_KIND):
            continue                                            # a one-player game spec
        names = [o for o in result.occurrences if o.kind != "variable"]
        assert names and all(result.declaration(o) for o in names), path
        checked += 1
    assert checked >= 20
    broken = analyse("gripper.yaml", (PROBLEMS / "gripper.yaml").read_text().replace("Free(Left)", "Free(Lefty)"))
    assert [o.name for o in broken.occurrences if broken.declaration(o) is None] == ["Lefty"]
