"""`plyspec studio`: a local web app to play the games, watch alpha-beta search, edit specs
with live diagnostics and step through plans (see docs/studio.md).

    app.py       the Starlette application: the JSON API under /api/ and the static page
    requests.py  reading a request: a JSON body of bounded size, typed fields, spec text
    guard.py     who may talk to it: the Host header (DNS rebinding), Origin of state changes
    jobs.py      searches, trees, plans and tests run as budgeted, cancellable child processes
    sessions.py  a game being played: its states, move list and what the page draws
    library.py   the specs the studio may open: the shipped ones and the folder it was given
    plans.py     a plan found by `plyspec plan`, replayed step by step (adds, deletes, goals)
    static/      the page: plain HTML, CSS and JavaScript modules, no build step

The server keeps everything in memory; it binds 127.0.0.1 unless told otherwise.
"""
