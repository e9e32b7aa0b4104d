"""The `plyspec` command line.  Each sub-command lives in its own module under
`framework.cli` and exposes `add_parser(subparsers)` which registers itself and sets
`func(args) -> int`.  Exit codes: 0 ok, 1 spec or input error, 2 usage error."""
from __future__ import annotations

import argparse
import importlib
import signal
import sys

from framework.errors import SpecError, UsageError
from framework.terminal import protect_output

# sub-command -> its one-line summary, in the order `plyspec --help` lists them; the module
# `framework.cli.NAME_cmd` registers the command's own options (imported only when it runs)
COMMANDS = {
    "list": "the shipped games and planning problems, one line each",
    "check": "check specs for errors and show what they declare",
    "perft": "count the positions at each depth",
    "compile": "show the generated Python for a spec",
    "convert": "write a game spec as YAML or .game, a planning problem as YAML, .plan or PDDL",
    "solve": "search a game: value, best action, principal variation, statistics",
    "tree": "draw the search tree of minimax or alpha-beta (text, SVG or DOT)",
    "play": "play a game against the computer in the terminal",
    "match": "play games between agents and tally wins, draws and losses",
    "tournament": "round-robin of agents on one or more games, on all cores or a Ray cluster",
    "book": "build an opening book by random rollouts or self-play",
    "plan": "find and validate a plan for a STRIPS planning problem",
    "test": "run the conformance suite on specs (every shipped spec by default)",
    "fuzz": "fuzz the spec loaders: only positioned SpecErrors may escape",
    "lsp": "the language server for editors (diagnostics, hover, definitions, completion)",
    "studio": "a local web app: play, watch alpha-beta, edit specs, step through plans",
}


class _ExamplesFormatter(argparse.HelpFormatter):
    """Wraps the description as usual but prints an "examples:" epilog line by line."""

    def _fill_text(self, text, width, indent):
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; or (start-up) with `only` naming a command, a parser of that
    command alone (only its module imported); or with `only=""` the sub-commands as summaries
    without options, for `plyspec --help` and for a mistyped command."""
    parser = argparse.ArgumentParser(
        prog="plyspec",
        description="Declare games and planning problems; check, compile, search, solve and plan them.",
        epilog="Run `plyspec COMMAND --help` for the options of one command.")
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, summary in COMMANDS.items():
        if only is None or name == only:
            module = importlib.import_module(f"framework.cli.{name}_cmd")
            module.add_parser(sub)
            examples = getattr(module, "EXAMPLES", None)
            if examples and not sub.choices[name].epilog:
                sub.choices[name].epilog = "examples:\n" + "\n".join("  " + e for e in examples)
                sub.choices[name].formatter_class = _ExamplesFormatter
        elif not only:
            sub.add_parser(name, help=summary)
    return parser


class _Version(argparse.Action):
    """--version, reading the installed version only when asked (importlib.metadata costs
    more start-up than the rest of `plyspec --help`)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version
        try:
            own = version("plyspec")
        except PackageNotFoundError:
            own = "(not installed)"
        print(f"plyspec {own}")
        parser.exit()


def _command_named(argv) -> str:
    """The sub-command argv names (its first word), or "" when it names none."""
    first = argv[0] if argv else ""
    return first if first in COMMANDS else ""


def _unknown_command(argv) -> int | None:
    """`plyspec help [COMMAND]` (the help, exit 0) and a misspelt command (a did-you-mean,
    exit 2), before argparse's bare `invalid choice`; None when argv names a command."""
    first = argv[0] if argv else ""
    if not first or first.startswith("-") or first in COMMANDS:
        return None
    if first == "help":
        named = argv[1] if len(argv) > 1 and argv[1] in COMMANDS else ""
        build_parser(only=named).parse_args([named, "--help"] if named else ["--help"])
    from framework.errors import did_you_mean
    hint = did_you_mean(first, COMMANDS) or "`plyspec --help` lists the commands"
    print(f"plyspec: error: unknown command `{first}`\nhint: {hint}", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        unknown = _unknown_command(argv)
    except SystemExit as done:                      # `plyspec help` printed the help
        return done.code or 0
    if unknown is not None:
        return unknown
    parser = build_parser(only=_command_named(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    previous = _stop_on_sigterm()
    previous_int = _watch_ctrl_c()
    streams = protect_output()         # control characters shown as escapes, never obeyed
    try:
        code = args.func(args) or 0
        return 143 if code == 130 and Terminated.seen else code     # stopped by SIGTERM
    except UsageError as err:
        print(str(err), file=sys.stderr)
        return 2
    except SpecError as err:
        print(str(err), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("terminated" if Terminated.seen else "interrupted", file=sys.stderr)
        return 143 if Terminated.seen else 130
    except ValueError as err:       # a flag's value out of its range: a usage error
        print(f"error: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except MemoryError:
        print("error: out of memory; ask for less (--tt-mb, --max-nodes, --memory-mb, a smaller "
              "option value)", file=sys.stderr)
        return 1
    finally:
        sys.stdout, sys.stderr = streams
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        if previous_int is not None:
            signal.signal(signal.SIGINT, previous_int)
        if _WATCHDOG[0] is not None:     # the command stopped in time: no forced exit
            _WATCHDOG[0].cancel()
            _WATCHDOG[0] = None


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C: workers stopped, partial results kept; exit 143."""

    seen = False


def _stop_on_sigterm():
    """Turn SIGTERM into `Terminated` while a command runs (main thread only); returns the
    handler to restore, or None."""
    def stop(signum, frame):
        Terminated.seen = True
        raise Terminated()
    Terminated.seen = False
    try:
        return signal.signal(signal.SIGTERM, stop)
    except ValueError:                  # not the main thread (an embedding application)
        return None


_WATCHDOG = [None]      # the running watchdog timer, once Ctrl-C was pressed
GRACE_SECONDS = 0.9
"""After Ctrl-C a command has this long to print its best result and exit; then the
process ends anyway (exit status 130), even if the KeyboardInterrupt was lost (raised
inside a finaliser or a library that swallows it)."""


def _watch_ctrl_c():
    """Ctrl-C raises KeyboardInterrupt as usual, and starts a watchdog that ends the process
    GRACE_SECONDS later; returns the handler to restore, or None (not the main thread, or
    SIGINT ignored, as in a background job)."""
    import os
    import threading

    def give_up():
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
        os._exit(130)

    def interrupt(signum, frame):
        if _WATCHDOG[0] is None:
            _WATCHDOG[0] = threading.Timer(GRACE_SECONDS, give_up)
            _WATCHDOG[0].daemon = True
            _WATCHDOG[0].start()
        raise KeyboardInterrupt
    try:
        if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            return None
        return signal.signal(signal.SIGINT, interrupt)
    except ValueError:                  # not the main thread
        return None


if __name__ == "__main__":
    sys.exit(main())
