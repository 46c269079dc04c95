"""The web application: the page and a JSON API over :class:`~.tables.Tables` (Starlette).

- ``GET /``: the page (script, style and table inlined; it loads nothing else);
- ``GET /api/setup``: the server's agents, the table drawing, the call's kinds, the pockets and
  cushions, the controls' limits;
- ``POST /api/games`` ``{"opponent", "person_breaks", "required", "round", "seed"}``: a frame
  against an agent of the list (:func:`.payloads.new_frame`);
- ``POST /api/watch`` ``{"agents": [A, B], "round", "seed"}``: a frame between two agents;
- ``GET /api/games/{id}?since=N``: the frame now, and its decisions from the N-th on
  (:func:`frame_now`);
- ``POST /api/games/{id}/preview`` a shot: ``{"call": words, "problem": null}``, or what in
  the position it does not fit as ``{"call": null, "problem": words}`` (a 200: nothing is
  wrong with the request);
- ``POST /api/games/{id}/shot`` a shot (:func:`.payloads.shot`): the person's shot played;
- ``POST /api/games/{id}/choice`` ``{"play_on": bool}``: the 10.4 choice;
- ``POST /api/games/{id}/extension`` ``{}``: claim the 12.5 extension;
- ``DELETE /api/games/{id}``: leave the frame (its record stays).

Every error is ``{"error": "what is wrong"}`` with a 4xx status: 400 a malformed body or field,
404 no such game, 409 not the person's turn or the frame over, 413 a body over
:data:`~.payloads.MAX_BODY`, 415 a POST that is not JSON, 422 a decision that does not fit the
table, 429 the server's limit of frames reached; and 503 when an agent of the list cannot be
built (its file gone), the server's fault, not the request's. A refused request changes
nothing.
"""

from __future__ import annotations

import html
import math
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from importlib import resources
from string import Template
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from kinghill.agents.human.controls import ROUTE_HELP
from kinghill.envs.planning import pocket_target
from kinghill.experiments.htmlreport.page import script_json
from kinghill.experiments.htmlreport.replays import (
    REPLAY_FPS,
    UNITS_PER_METRE,
    call_text,
    table_drawing,
)
from kinghill.experiments.serve import payloads
from kinghill.experiments.serve.payloads import PayloadError
from kinghill.experiments.serve.tables import Table, TableError, Tables
from kinghill.physics import BREAK_BALL, MAX_SPEED, MISCUE_LIMIT, Cushion, Pocket, TableSpec

CONTENT_SECURITY = (
    "default-src 'none'; connect-src 'self'; script-src 'unsafe-inline'; "
    "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
)
"""The page may run only its own inlined script and talk only to this server."""
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")

Handler = Callable[[Request], Awaitable[Response]]


def _units(xy: Sequence[float]) -> list[int]:
    return [round(float(v) * UNITS_PER_METRE) for v in xy]


def _balls(table: Table) -> list[list[int] | None]:
    state = table.game.state
    return [
        _units(state.positions[b]) if state.on_table[b] else None
        for b in range(len(state.on_table))
    ]


def frame_now(table: Table, since: int) -> dict[str, Any]:
    """The frame as the page shows it: the seats, the score, whose decision is due, the
    person's clock, and every decision from the ``since``-th on (as the report replays them)."""
    game, frame = table.game, table.game.frame
    clock = table.clock
    left = table.time_left()
    return {
        "game": table.key,
        "number": table.number,
        "seed": str(table.seating.seed),
        "agents": list(table.seating.names),
        "person": table.person,
        "count": len(table.replays),
        "decisions": table.replays[since:],
        "to_move": frame.to_move,
        "decision": frame.decision.value,
        "your_turn": not game.is_over and frame.to_move == table.person,
        "position": _balls(table),
        "required": list(frame.required),
        "credited": [list(c) for c in frame.credited],
        "fouls": list(frame.fouls),
        "extension_used": list(frame.extension_used),
        "result": None if frame.result is None else str(frame.result),
        "winner": frame.winner,
        "fault": table.fault,
        "clock": None
        if clock is None or left is None
        else {
            "limit": clock.allowance.limit,
            "extension": clock.allowance.extension,
            "left": left if math.isfinite(left) else None,
            "claimed": clock.claimed_at is not None,
            "open": clock.extension_available,
        },
    }


def setup(tables: Tables, ratings: Mapping[str, str], spec: TableSpec) -> dict[str, Any]:
    """What the page needs before a frame: the agents (with their ratings where measured), the
    table, the call's kinds with their help, the pockets (with the point a click picks) and the
    cushions, and the controls' limits."""
    return {
        "agents": [{"name": name, "rating": ratings.get(name, "")} for name in tables.agents],
        "fps": REPLAY_FPS,
        "table": table_drawing(spec),
        "kinds": [{"kind": kind, "help": text} for kind, text in ROUTE_HELP.items()],
        "pockets": [{"name": p.name, "xy": _units(pocket_target(p, spec))} for p in Pocket],
        "cushions": [c.name for c in Cushion],
        "break_ball": BREAK_BALL,
        "max_speed": MAX_SPEED,
        "max_tip": MISCUE_LIMIT,
        "max_round": payloads.MAX_ROUND,
        "max_games": tables.max_games,
    }


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _guarded(handler: Handler) -> Handler:
    """``handler`` with every refusal as ``{"error": ...}`` and its status."""

    async def guarded(request: Request) -> Response:
        try:
            return await handler(request)
        except PayloadError as error:
            return _error(error.status, error.message)
        except TableError as error:
            return _error(error.status, error.message)

    return guarded


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read up to :data:`~.payloads.MAX_BODY` bytes and no further."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise PayloadError("send the body as JSON (Content-Type: application/json)", 415)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > payloads.MAX_BODY:
        raise PayloadError(f"the body is {declared} bytes; at most {payloads.MAX_BODY}", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > payloads.MAX_BODY:
            raise PayloadError(f"the body is over {payloads.MAX_BODY} bytes", 413)
    return payloads.read_json(body)


def _since(request: Request) -> int:
    text = request.query_params.get("since", "0")
    if not text.isdigit() or len(text) > 6:
        raise PayloadError(f"since must be a decision count 0-999999, got {text[:20]!r}")
    return int(text)


def create_app(
    tables: Tables,
    *,
    ratings: Mapping[str, str] | None = None,
    spec: TableSpec | None = None,
    allowed_hosts: Sequence[str] | None = LOCAL_HOSTS,
) -> Starlette:
    """The application over ``tables``; ``ratings`` shown beside the agents' names;
    ``allowed_hosts`` the Host headers answered (localhost by default, which keeps other web
    sites from reaching a local server through DNS rebinding; None answers any)."""
    shown = setup(tables, ratings or {}, spec or TableSpec())
    page = render_page(shown)

    async def index(request: Request) -> Response:
        return HTMLResponse(page, headers=_page_headers())

    async def setup_data(request: Request) -> Response:
        return JSONResponse(shown)

    @_guarded
    async def new_game(request: Request) -> Response:
        seating = payloads.new_frame(await _body(request), secrets.randbits(63))
        table = await run_in_threadpool(tables.open, seating)
        return JSONResponse(frame_now(table, 0), status_code=201)

    @_guarded
    async def watch(request: Request) -> Response:
        seating = payloads.watch_frame(await _body(request), secrets.randbits(63))
        table = await run_in_threadpool(tables.open, seating)
        return JSONResponse(frame_now(table, 0), status_code=201)

    def _table(request: Request) -> Table:
        return tables.get(str(request.path_params["key"]))

    @_guarded
    async def frame(request: Request) -> Response:
        since = _since(request)
        table = await run_in_threadpool(_table, request)
        with table.lock:
            return JSONResponse(frame_now(table, since))

    @_guarded
    async def preview(request: Request) -> Response:
        data = await _body(request)
        table = await run_in_threadpool(_table, request)
        with table.lock:
            table.check_turn()
            view = table.game.view()
        try:
            action = payloads.shot(data, view)
        except PayloadError as error:
            if error.status != 422:
                raise
            return JSONResponse({"call": None, "problem": error.message})
        return JSONResponse({"call": call_text(action.call), "problem": None})

    @_guarded
    async def shot(request: Request) -> Response:
        data = await _body(request)
        table = await run_in_threadpool(_table, request)
        with table.lock:
            table.check_turn()
            view = table.game.view()
        action = payloads.shot(data, view)
        await run_in_threadpool(table.act, action)
        with table.lock:
            return JSONResponse(frame_now(table, _since(request)))

    @_guarded
    async def choice(request: Request) -> Response:
        data = await _body(request)
        table = await run_in_threadpool(_table, request)
        with table.lock:
            table.check_turn()
        action = payloads.choice(data)
        await run_in_threadpool(table.act, action)
        with table.lock:
            return JSONResponse(frame_now(table, _since(request)))

    @_guarded
    async def extension(request: Request) -> Response:
        payloads.nothing(await _body(request), "extension")
        table = _table(request)
        granted = table.claim_extension()
        return JSONResponse({"granted": granted, "left": table.time_left()})

    @_guarded
    async def leave(request: Request) -> Response:
        tables.leave(str(request.path_params["key"]))
        return Response(status_code=204)

    routes = [
        Route("/", index),
        Route("/api/setup", setup_data),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/watch", watch, methods=["POST"]),
        Route("/api/games/{key}", frame, methods=["GET"]),
        Route("/api/games/{key}", leave, methods=["DELETE"]),
        Route("/api/games/{key}/preview", preview, methods=["POST"]),
        Route("/api/games/{key}/shot", shot, methods=["POST"]),
        Route("/api/games/{key}/choice", choice, methods=["POST"]),
        Route("/api/games/{key}/extension", extension, methods=["POST"]),
    ]
    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    return Starlette(routes=routes, middleware=middleware)


def _page_headers() -> dict[str, str]:
    return {
        "Content-Security-Policy": CONTENT_SECURITY,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
    }


def _static(package: str, name: str) -> str:
    return resources.files(package).joinpath("static", name).read_text(encoding="utf-8")


def render_page(shown: Mapping[str, Any]) -> str:
    """The page with its style, its scripts (the report's table drawing, then the seat's) and
    the setup inlined; everything from outside the code is JSON in a data element, put on
    screen through ``textContent`` only."""
    report = "kinghill.experiments.htmlreport"
    return Template(_static(__package__ or "", "serve.html")).substitute(
        title=html.escape("kinghill: play"),
        style=_static(report, "report.css") + _static(__package__ or "", "serve.css"),
        data=script_json(shown),
        drawing=_static(report, "table.js"),
        script=_static(__package__ or "", "serve.js"),
    )
