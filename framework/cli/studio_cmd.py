"""`plyspec studio [SPEC|FOLDER]`: the studio, a local web app to play the games, step
through alpha-beta trees, edit specs with live diagnostics and step through plans
(framework.studio; docs/studio.md)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from framework.cli import COMMANDS
from framework.errors import UsageError

EXAMPLES = [
    'plyspec studio                      # the shipped games and problems, at http://127.0.0.1:8765/',
    'plyspec studio my_games/ --open     # and the specs in my_games/, in the browser',
    'plyspec studio connect_four         # straight into a game',
]


def add_parser(sub):
    p = sub.add_parser("studio", help=COMMANDS["studio"],
                       description="Start the studio: a local web server (state in memory, nothing "
                                   "stored) whose page plays the games, draws minimax and alpha-beta "
                                   "trees node by node, edits specs with diagnostics as you type and "
                                   "steps through plans. Its JSON API is under /api/ (docs/studio.md).")
    p.add_argument("target", nargs="?", metavar="SPEC|FOLDER",
                   help="a folder whose spec files the library lists too, or a spec to open at once")
    p.add_argument("--port", type=_port, default=8765, help="port (default 8765; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1, this machine only; anything else lets "
                        "other machines in, and is warned about)")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.set_defaults(func=run)


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, not {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 0 to 65535, not {value}")
    return value


def run(args) -> int:
    try:
        import uvicorn
        from framework.studio.app import create_app
    except ImportError:
        raise UsageError("the studio needs Starlette and uvicorn", hint='pip install "plyspec[studio]"') from None
    folder, start = None, ""
    if args.target:
        path = Path(args.target)
        if path.is_dir():
            folder = path
        else:
            from framework.conformance.discover import resolve, shipped_spec_dirs, spec_kind
            spec = resolve(args.target)
            if not spec.is_file():
                raise UsageError(f"{args.target}: no such spec or folder", hint="give a folder, a spec "
                                 "file or a shipped spec's name (plyspec list)")
            if spec.parent.resolve() not in [d.resolve() for d in shipped_spec_dirs()]:
                folder = spec.parent
                name = "folder:" + spec.name
            else:
                name = spec.stem
            view = "plan" if spec_kind(spec) == "planning" or spec.suffix == ".pddl" else "play"
            start = f"#{view}/{name}"
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: serving on {args.host}: other machines can reach the studio and run "
              "searches on this one; it has no login", file=sys.stderr)
    import socket
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))           # an OSError (port in use) is exit 1
    sock.listen(2048)       # before the address is printed: a browser opening it at once waits, not refused
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown}:{port}/{start}"
    print(f"plyspec studio: {url}  (Ctrl-C stops it)", flush=True)
    if args.open:
        import webbrowser
        webbrowser.open(url)
    config = uvicorn.Config(create_app(folder, host=args.host, port=port), log_level="warning")
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    return 0

