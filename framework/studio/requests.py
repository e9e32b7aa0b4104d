"""Reading the studio API's requests: a body is a JSON object of at most MAX_BODY bytes sent
as `Content-Type: application/json`; `field` checks one value's type, `spec_text` holds spec
text to the limits `plyspec check` applies, `text_format` names its syntax.  Every refusal is
a BadRequest, which the application answers with its status and message (4xx).
"""
from __future__ import annotations

import json

from starlette.requests import Request

from framework.files import MAX_SPEC_BYTES

MAX_BODY = 3 * MAX_SPEC_BYTES        # a PDDL domain and task pasted together, with room
FORMATS = {"yaml": ".yaml", "yml": ".yaml", "game": ".game", "plan": ".plan", "pddl": ".pddl"}


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400, hint: str | None = None):
        super().__init__(message)
        self.message, self.status, self.hint = message, status, hint


async def body(request: Request) -> dict:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadRequest(f"the request is {len(raw):,} bytes; at most {MAX_BODY:,} are read", 413)
    if not raw:
        return {}
    if request.headers.get("content-type", "").partition(";")[0].strip().lower() != "application/json":
        raise BadRequest("a request body must be sent as `Content-Type: application/json`", 415,
                         hint="send the JSON object with that header")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadRequest("the request body is not JSON", hint='send a JSON object, e.g. {"spec": "tictactoe"}') from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def field(data: dict, name: str, kind, default=None, required=False):
    value = data.get(name, default)
    if value is None and not required:
        return default
    if value is None or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = {str: "a string", int: "a whole number", dict: "an object", list: "a list", bool: "true or false"}
        raise BadRequest(f"`{name}` must be {names.get(kind, kind.__name__)}")
    return value


def spec_text(data: dict, name: str = "text") -> str:
    text = field(data, name, str, required=True)
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as err:
        raise BadRequest(f"`{name}` is not Unicode text: a lone surrogate at character {err.start + 1}") from None
    if size > MAX_SPEC_BYTES:
        raise BadRequest(f"`{name}` is larger than {MAX_SPEC_BYTES:,} bytes", 413)
    return text


def text_format(data: dict) -> str:
    fmt = field(data, "format", str, "yaml")
    if fmt not in FORMATS:
        raise BadRequest(f"unknown format {fmt!r}", hint="yaml, game, plan or pddl")
    return fmt
