"""Who may talk to the studio (an ASGI middleware in front of the whole application).

- DNS rebinding: a page on another site whose name is made to resolve to 127.0.0.1 would
  reach the studio with that site's name in the `Host` header; every request must name
  the server as it was started: 127.0.0.1, localhost or [::1], or the `--host` address,
  with its port.  Anything else is refused with 403.
- Cross-site requests: a page on another site can make the browser send a POST (a form,
  or `fetch` with a "simple" content type) without reading the answer.  A request that
  changes state (POST, PUT, PATCH, DELETE) whose `Origin` (or, without one, whose
  `Referer`) is not one of the server's own origins is refused with 403; a request with
  neither header (curl, scripts: no browser sends a cross-site POST without `Origin`)
  passes.  JSON bodies must also say `Content-Type: application/json` (app.body), which a
  cross-site page cannot send without a CORS preflight that the studio never grants.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from starlette.responses import JSONResponse

LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
CHANGES_STATE = {"POST", "PUT", "PATCH", "DELETE"}


def server_hosts(host: str, port: int) -> tuple:
    """The `Host` header values the server answers: the loopback names and `host` (the
    address it was started for; an IPv6 address in brackets), each with the port (and
    without it too on port 80, where browsers leave it out).  The first is the address
    `plyspec studio` prints."""
    bound = f"[{host}]" if ":" in host else host
    names = [bound, *(n for n in LOOPBACK if n != bound)]
    return tuple(f"{n}:{port}" for n in names) + (tuple(names) if port == 80 else ())


class Guard:
    def __init__(self, app, hosts: tuple):
        self.app, self.hosts = app, {h.lower() for h in hosts}
        self.origins = {f"http://{h}" for h in self.hosts}
        self.home = f"http://{hosts[0]}/"

    async def __call__(self, scope, receive, send):
        refusal = self.refusal(scope) if scope["type"] == "http" else None
        if refusal is None:
            await self.app(scope, receive, send)
            return
        message, hint = refusal
        await JSONResponse({"error": message, "hint": hint}, status_code=403)(scope, receive, send)

    def refusal(self, scope) -> tuple | None:
        """(message, hint) when the request is refused, else None."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if host.lower() not in self.hosts:
            return (f"the studio does not answer to the host name {host!r}",
                    f"open it at {self.home} (or start it with --host for that address)")
        if scope["method"] not in CHANGES_STATE:
            return None
        origin = headers.get("origin")
        if origin is None and "referer" in headers:
            parts = urlsplit(headers["referer"])
            origin = f"{parts.scheme}://{parts.netloc}"
        if origin is not None and origin.lower() not in self.origins:
            return (f"a {scope['method']} from {origin!r} is refused: only the studio's own page "
                    "may change its state", f"use the page at {self.home}")
        return None
