"""Every command's --help ends with examples, and every example parses with the command's
own options (a flag renamed without its example fails here)."""
from __future__ import annotations

import importlib
import shlex

import pytest

from framework.cli import COMMANDS, build_parser


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_examples_that_parse(name, capsys):
    parser = build_parser()
    help_text = parser._subparsers._group_actions[0].choices[name].format_help()
    assert "\nexamples:\n" in help_text, f"plyspec {name} --help has no examples"
    examples = [line.strip() for line in help_text.split("\nexamples:\n", 1)[1].splitlines()
                if line.strip().startswith("plyspec ")]
    assert examples
    for line in examples:
        argv = shlex.split(line.split("  #", 1)[0])[1:]
        if "..." in argv:                     # an elided example: the rest of a line shown above
            continue
        parser.parse_args(argv)               # SystemExit on an unknown or malformed option
    importlib.import_module(f"framework.cli.{name}_cmd")


def test_help_and_a_misspelt_command_get_answers_not_invalid_choice(capsys):
    from framework.cli import main
    assert main(["help"]) == 0 and "Run `plyspec COMMAND --help`" in capsys.readouterr().out
    assert main(["help", "solve"]) == 0 and "usage: plyspec solve" in capsys.readouterr().out
    assert main(["slove", "tictactoe"]) == 2
    err = capsys.readouterr().err
    assert "unknown command `slove`" in err and "did you mean `solve`?" in err and "invalid choice" not in err
    assert main(["zzzz"]) == 2 and "`plyspec --help` lists the commands" in capsys.readouterr().err
