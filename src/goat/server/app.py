"""The FastAPI app: the HTTP lobby, one WebSocket per client, the browser table.

HTTP (JSON; lobby changes need ``Authorization: Bearer <seat token>``):

========================================  =========================================
``GET  /api/games``                       games, rulesets, player counts, bots
``GET  /api/games/{game}/cards``          the game's card catalog (public card texts)
``GET  /api/games/{game}/rules/{rules}``  a ruleset's options and engine facts (the Rules panel)
``GET  /api/tables``                      tables in their lobby or in play
``GET  /api/tables?status=finished``      the most recent finished games (``limit``, default 20)
``GET  /api/standings``                   club standings of the finished games (``game``, ``since``, ``until``, ``bots``)
``GET  /api/standings.csv``               the same as CSV
``POST /api/tables``                      create (and, with ``name``, take a seat)
``GET  /api/tables/{id}``                 seats and status
``POST /api/tables/{id}/seats/{seat}``    take a seat with a name → its secret token
``POST /api/tables/{id}/seats/{seat}/bot``  put a bot there (seated players only)
``DELETE /api/tables/{id}/seats/{seat}``  empty a bot's seat or leave one's own
``PUT  /api/tables/{id}/seats/{seat}/deck``  bring one's own deck (lobby; the seat's token)
``GET  /api/tables/{id}/seats/{seat}/deck``  read one's own deck back (the seat's token)
``DELETE /api/tables/{id}/seats/{seat}/deck``  back to the table's decks (lobby)
``POST /api/tables/{id}/start``           start once every seat is filled
``POST /api/tables/{id}/rematch``         play a finished table again (a player's token)
``POST /api/tables/{id}/hint``            what a bot would play in my seat (tables with hints)
``GET  /api/tables/{id}/record``          the record of a finished game
``GET  /api/tables/{id}/scoresheet.csv``  the score sheet of the completed deals (CSV)
``GET  /api/tables/{id}/review/{deal}``   a finished game's deal, double-dummy analysed
``POST /api/records/review/{deal}``       the same for a record sent as the body (``record``: of a .jsonl)
========================================  =========================================

``/ws/{id}`` is the live channel (``docs/server.md``). Everything it sends is
built by :func:`goat.server.viewfilter.render`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.utils import is_body_allowed_for_status_code
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from starlette.websockets import WebSocketDisconnect, WebSocketState

from goat.server import chat
from goat.server.connections import (CLOSE_TOO_MANY, HELLO_WAIT_SECONDS, PING_ANSWER_SECONDS, AddressCap, Place,
                                     heard_meanwhile)
from goat.server.hints import Hints
from goat.server.messages import (
    ActionMessage,
    ChatMessage,
    ErrorCode,
    Hello,
    Ping,
    ProtocolError,
    Sync,
    TokenBucket,
    parse_client_message,
)
from goat.server.review import RECORD_BYTES, RECORD_NAME, Reviews
from goat.server.rulebook import parse_options, rules_json
from goat.server.scoresheets import (
    file_name,
    finished_entry,
    finished_limit,
    standings_file,
    standings_json,
    standings_query,
    table_csv,
)
from goat.server.settings import Settings
from goat.server.solverload import SolverLoad, wants_solver
from goat.server.storage import AsyncStorage, Storage, StorageError
from goat.server.tables import (
    ClientGone,
    LobbyError,
    Table,
    TableGone,
    Tables,
    card_catalog_json,
    default_bot,
    game_catalog,
    table_bots,
)
from goat.server.viewfilter import render
from goat.server.wsping import PING_EXTENSION

log = logging.getLogger("goat.server")
STATIC = Path(__file__).with_name("static")

#: WebSocket close codes (4000-4999 are the application's).
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_WRONG_TOKEN = 4403
CLOSE_TOO_SLOW = 4408
CLOSE_TRY_LATER = 1013    # the database was out of reach: "try again later" (RFC 6455's registry)
HELLO_TIMEOUT = 30.0
#: The largest deck upload accepted (a 75-card list of long names is ~3 KB).
DECK_BYTES = 64 * 1024


#: The largest HTTP request body read at all. A lobby body is well under 1 KiB and a
#: deck has its own, smaller limit (``DECK_BYTES``, with its own sentence).
BODY_BYTES = 1024 * 1024

#: The routes that read their body themselves, bounded by a smaller limit of their own
#: (:func:`limited_body`: a deck, a record file), said in its own sentence for the page
#: ("a record file has at most 512 KiB"), not the general one of :class:`BodyLimit`.
OWN_LIMIT = re.compile(r"/api/(records/review/[^/]*|tables/[^/]*/seats/[^/]*/deck)\Z")


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is a 413 with one line.

    Without it FastAPI reads a JSON body whole before anything checks it, so one
    ``POST /api/tables`` of a gigabyte would hold a gigabyte of the server's memory.
    A declared ``Content-Length`` over the limit is refused before any is read; a
    body without one is counted as it arrives and refused once past the limit.
    The routes of :data:`OWN_LIMIT` are left to their own, smaller limit."""

    def __init__(self, app: Any, limit: int = BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or OWN_LIMIT.search(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        message = f"a request body has at most {self.limit // 1024} KiB"
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            await JSONResponse({"error": message}, status_code=413)(scope, receive, send)
            return
        seen = 0

        async def counted() -> Any:
            nonlocal seen
            event = await receive()
            if event["type"] == "http.request":
                seen += len(event.get("body", b""))
                if seen > self.limit:
                    # FastAPI passes its own HTTPException from reading a body on as it is
                    raise HTTPException(413, message)
            return event

        await self.app(scope, counted, send)


#: The most characters of an error line: a refusal quotes what the client sent (an
#: unknown game, ruleset, option or field), and a client may send 100 KB of it.
#: Room enough for every ordinary refusal (a misspelt option's lists all the game's options).
ERROR_CHARS = 1000


class ErrorJSON(JSONResponse):
    """An error's JSON body. The client's own text echoed in it (a deck's unknown
    card, a deck list's name) may hold a lone surrogate (JSON's ``"\\ud800"``),
    which has no UTF-8 form: such a body is written with ASCII escapes, as JSON
    allows, instead of failing as a bare 500 with a traceback. The line is cut to
    :data:`ERROR_CHARS`: a 100 KB game name made a 100 KB error before."""

    def render(self, content: Any) -> bytes:
        said = content.get("error") if isinstance(content, dict) else None
        if isinstance(said, str) and len(said) > ERROR_CHARS:
            content = {**content, "error": said[:ERROR_CHARS - 1] + "…"}
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, separators=(",", ":")).encode("ascii")


class _Body(BaseModel):
    """A lobby request's JSON body. A field it does not know is refused (422),
    not ignored: ``"privat": true`` would otherwise make a table every stranger
    sees, ``"option": {...}`` one with the preset's rules."""

    model_config = ConfigDict(extra="forbid")


class CreateTable(_Body):
    game: str = "kozel"
    rules: str | None = None         # the game's first preset (Kozel: classic, Spades: standard)
    options: dict[str, Any] = Field(default_factory=dict)
    players: StrictInt | None = None   # strict: "4", 4.0 or true is a broken client, not four players
    seed: StrictInt | StrictStr | None = None
    name: str | None = None          # take a seat at once with this name
    seat: StrictInt = 0
    hints: StrictBool = False        # a table setting, not a rule: players may ask for hints
    move_seconds: Any = None         # time per move (goat.server.clock): null or 1..3600, checked by Tables.create
    private: StrictBool = False      # listed nowhere: only the invite link leads to it
    chat: Literal["on", "lobby", "off"] = "on"   # who may talk when (goat.server.chat.CHAT_SETTINGS)


class TakeSeat(_Body):
    name: str


class SetBot(_Body):
    bot: str | None = None           # the table's game's default bot (Kozel's heuristic, Yu-Gi-Oh!'s greedy)


def table_url(request: Request, settings: Settings, table_id: str) -> str:
    """The address of a table's page, as the lobby answers it: under the
    ``--base-path`` the server serves at (a mounted app's ``base_url`` is the
    server's root, not the mount's)."""
    return f"{str(request.base_url).rstrip('/')}{settings.page_path}?table={table_id}"


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app for ``settings`` (default: from the environment). Opens the
    database at once, so a bad URL fails here with one line
    (:class:`~goat.server.storage.StorageError`); unfinished tables are
    restored when the app starts."""
    settings = settings or Settings.from_env()
    store = AsyncStorage(Storage(settings.url))
    tables: Tables | None = None
    solver = SolverLoad()   # the solver's kernels, compiled in a child process when first wanted
    reviews = Reviews(solver=solver)
    hints = Hints(solver=solver)
    connections = AddressCap(settings.connections_per_address)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        nonlocal tables
        tables = Tables(settings, store, solver)
        app.state.tables = tables
        restored = await tables.restore_all()
        if restored:
            log.info("restored %d unfinished table(s)", restored)
        for table in tables.tables.values():
            if table.status == "playing" and wants_solver(table):
                solver.start()
        housekeeping = asyncio.create_task(tables.sweep_forever())
        yield
        housekeeping.cancel()
        with suppress(asyncio.CancelledError):
            await housekeeping
        await hints.work.close()
        await reviews.close()
        await tables.close()    # the bots' drivers first: none then goes on to a solver of its own
        await solver.close()    # a compile in progress is killed, not waited for
        store.close()

    app = FastAPI(title="Goat table server", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.state.connections = connections
    app.add_middleware(BodyLimit)

    def registry() -> Tables:
        assert tables is not None, "the app has not started"
        return tables

    async def find(table_id: str) -> Table:
        table = await registry().get(table_id)
        if table is None:
            raise LobbyError(f"there is no table {table_id[:40]!r}", status=404, say="noTable")
        return table

    @app.exception_handler(LobbyError)
    async def _lobby_error(_request: Request, exc: LobbyError) -> JSONResponse:
        return ErrorJSON(exc.to_json(), status_code=exc.status)

    @app.exception_handler(StorageError)
    async def _database_error(_request: Request, exc: StorageError) -> JSONResponse:
        # A read the database refused (out of reach, restarting): the lobby's one-line 503,
        # as for a refused write (LobbyError 503), not an empty 500 and a traceback.
        return ErrorJSON({"error": str(exc)}, status_code=503)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "bad request"}
        where = ".".join(str(p) for p in first.get("loc", ())[1:]) or "request"
        says = "unknown field (misspelt?)" if first.get("type") == "extra_forbidden" else first.get("msg")
        if first.get("type") == "json_invalid":
            # Its location is the character offset ("1: JSON decode error"): say what it is.
            where, says = "body", f"not JSON: {first.get('ctx', {}).get('error', 'cannot be decoded')}"
        return ErrorJSON({"error": f"{where}: {says}"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """FastAPI's own refusals (a body it cannot parse, such as JSON nested too
        deeply; an unknown path; a wrong method) in the lobby's one shape, ``{"error": ...}``,
        not ``{"detail": ...}``."""
        if not is_body_allowed_for_status_code(exc.status_code):   # 204, 304: no body at all
            return Response(status_code=exc.status_code, headers=exc.headers)
        return ErrorJSON({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    # ------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ------------------------------------------------------------ lobby
    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(registry().tables)}

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        # Each game also names the bot its seats get unless one is chosen
        # (Yu-Gi-Oh! has no "heuristic": its "greedy"); bot_think: the most
        # seconds a searching bot thinks a move here (0: no limit), which the
        # lobby's line about the chosen bot states.
        games = [{**g, "default_bot": default_bot(g["name"], settings)} for g in game_catalog()]
        return {"games": games, "bots": table_bots(), "default_bot": settings.default_bot,
                "bot_think": settings.bot_think}

    @app.get("/api/games/{game}/cards")
    async def cards(game: str, request: Request) -> Response:
        # Public reference data, the same for everyone and fixed while the
        # server runs: cacheable by any cache, revalidated by its ETag.
        body, etag = card_catalog_json(game)
        headers = {"Cache-Control": "public, max-age=3600", "ETag": etag}
        if etag in (tag.strip() for tag in request.headers.get("if-none-match", "").split(",")):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/api/games/{game}/rules/{rules}")
    async def rules_of(game: str, rules: str, players: int | None = None, options: str | None = None) -> dict[str, Any]:
        # What the Rules panel states: the options as this table plays them and the
        # engine's own trump order and card points (goat.server.rulebook).
        return rules_json(game, rules, players, parse_options(options))

    @app.get("/api/tables")
    async def list_tables(status: str | None = None, limit: str | None = None) -> dict[str, Any]:
        # Without status: the open tables (memory). status=finished: the latest
        # finished games from the database, so they outlive a restart.
        count = finished_limit(status, limit)
        if count is None:
            return {"tables": registry().listing()}
        return {"tables": [finished_entry(row) for row in await store.finished(count)]}

    @app.get("/api/standings")
    async def standings(game: str | None = None, since: str | None = None, until: str | None = None,
                        bots: str | None = None) -> JSONResponse:
        # Who won and who was the goat, per person, over the stored finished
        # games (private ones left out, as from the finished list).
        query = standings_query(game, since, until, bots)
        rows = await store.finished_results(query.game, query.since, query.until)
        return JSONResponse(standings_json(rows, query), headers={"Cache-Control": "no-cache"})

    @app.get("/api/standings.csv")
    async def standings_csv(game: str | None = None, since: str | None = None, until: str | None = None,
                            bots: str | None = None) -> Response:
        query = standings_query(game, since, until, bots)
        body, name = standings_file(await store.finished_results(query.game, query.since, query.until), query)
        return Response(body, media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-cache"})

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        table = await registry().create(body.game, body.rules, body.options, body.players, body.seed,
                                        hints=body.hints, move_seconds=body.move_seconds, private=body.private,
                                        chat=body.chat)
        seated: dict[str, Any] = {}
        if body.name is not None:
            try:
                seated = {"token": await table.take_seat(body.seat, body.name), "seat": body.seat}
            except LobbyError:
                await registry().discard(table)
                raise
        # the table as it is now: the creator's seat taken
        return {"id": table.id, "url": table_url(request, settings, table.id), **table.public(), **seated}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        table = await find(table_id)
        return {"id": table.id, "url": table_url(request, settings, table.id), "version": table.version,
                **table.public()}

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def take_seat(table_id: str, seat: int, body: TakeSeat) -> dict[str, Any]:
        table = await find(table_id)
        return {"seat": seat, "token": await table.take_seat(seat, body.name)}

    @app.post("/api/tables/{table_id}/seats/{seat}/bot")
    async def set_bot(table_id: str, seat: int, body: SetBot, request: Request) -> dict[str, Any]:
        table = await find(table_id)
        await table.set_bot(seat, body.bot or default_bot(table.row.game, settings), bearer(request))
        return {"id": table.id, **table.public()}

    @app.delete("/api/tables/{table_id}/seats/{seat}")
    async def clear_seat(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        table = await find(table_id)
        await table.clear_seat(seat, bearer(request))
        return {"id": table.id, **table.public()}

    @app.put("/api/tables/{table_id}/seats/{seat}/deck")
    async def put_deck(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        # The body is the deck as the game reads it: text/plain (a .ydk file as
        # it is) or JSON (a string: the .ydk text; an object: name lists).
        table = await find(table_id)
        table.seat_data_of(seat, bearer(request))   # a game that takes decks, one's own seat: before the body
        deck = await seat_data_body(request)
        return {"seat": seat, "deck": await table.set_seat_data(seat, bearer(request), deck)}

    @app.get("/api/tables/{table_id}/seats/{seat}/deck")
    async def get_deck(table_id: str, seat: int, request: Request) -> JSONResponse:
        table = await find(table_id)
        deck = table.seat_data_of(seat, bearer(request))
        return JSONResponse({"seat": seat, "deck": deck}, headers={"Cache-Control": "no-store"})

    @app.delete("/api/tables/{table_id}/seats/{seat}/deck")
    async def clear_deck(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        table = await find(table_id)
        return {"seat": seat, "deck": await table.set_seat_data(seat, bearer(request), None)}

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, request: Request) -> dict[str, Any]:
        table = await find(table_id)
        await table.start(bearer(request))
        if wants_solver(table):   # its first hint or pimc move need not wait for the compiler
            solver.start()
        return {"id": table.id, **table.public()}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, request: Request) -> dict[str, Any]:
        # Idempotent: every player of the old table gets the same new table,
        # and their old seat in it (``seat``, ``token``) while it is free.
        table = await find(table_id)
        new, seat, token = await registry().rematch(table, bearer(request))
        return {"id": new.id, "url": table_url(request, settings, new.id), **new.public(),
                "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/hint")
    async def hint(table_id: str, request: Request) -> JSONResponse:
        # The seat to act asks; the answer is that seat's own business (it is
        # computed from its view), so no cache keeps it.
        table = await find(table_id)
        answer = await hints.hint(table, bearer(request))
        return JSONResponse(answer, headers={"Cache-Control": "no-store"})

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> JSONResponse:
        table = await find(table_id)
        stored = await store.record(table.id) if table.status == "finished" else None
        if stored is None:
            raise LobbyError("the game is not over: its record would show hidden cards", status=409)
        return JSONResponse(stored, headers={
            "Content-Disposition": f'attachment; filename="goat-{table.id}.json"'})

    @app.get("/api/tables/{table_id}/scoresheet.csv")
    async def scoresheet(table_id: str) -> Response:
        # Public: only completed deals, which everyone at the table was shown.
        table = await find(table_id)
        stored = await store.record(table.id) if table.status == "finished" else None
        return Response(await table_csv(table, stored), media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="{file_name(table)}"', "Cache-Control": "no-cache"})

    @app.get("/api/tables/{table_id}/review/{deal}")
    async def review(table_id: str, deal: int) -> dict[str, Any]:
        table = await find(table_id)
        stored = await store.record(table.id) if table.status == "finished" else None
        if stored is None:
            raise LobbyError("the game is not over: its review would show hidden cards", status=409)
        return await reviews.deal(table.id, stored, deal)

    @app.post("/api/records/review/{deal}")
    async def review_record(deal: int, request: Request, record: int = 1) -> dict[str, Any]:
        # "Open a record": a record file's text as the body (one record, or ``record``
        # of a .jsonl file, as goat analyze --record). Nothing of it is stored.
        return await reviews.opened(await record_body(request), deal, record)

    # -------------------------------------------------------- websocket
    @app.websocket("/ws/{table_id}")
    async def live(websocket: WebSocket, table_id: str) -> None:
        host = websocket.client.host if websocket.client else None
        place = connections.admit(host)
        first: list[str] = []   # the hello a connection over the cap waited with (and messages sent meanwhile)
        if place is None:
            admitted = await over_the_cap(websocket, host, table_id) if connections.may_wait(host, table_id) else None
            if admitted is None:
                await refuse_too_many(websocket, connections.refusal())
                return
            place, first = admitted
        try:
            if websocket.application_state != WebSocketState.CONNECTED:
                await websocket.accept()
            client = Client(websocket, settings)
            place.holder = client
            try:
                try:
                    table = await registry().get(table_id)
                except StorageError as exc:   # a finished table the database could not load now
                    client.error(ErrorCode.STORAGE, str(exc))
                    await client._flush_and_close(CLOSE_TRY_LATER)
                    return
                await client.serve(table, table_id, lambda: registry().get(table_id), first)
            finally:
                await client.finish()
        finally:   # however it ended: closed, failed, cancelled by a server stopping
            place.release()

    async def over_the_cap(websocket: WebSocket, host: str | None, table_id: str) -> tuple[Place, list[str]] | None:
        """A connection over its address's cap, waiting for its hello (at most
        :data:`HELLO_WAIT_SECONDS`, less if a newer one takes its waiting place
        first): a place and that hello (and the messages its client sent during the
        ping) when a place freed meanwhile, or the hello names a seat of this table
        whose older connections from this address did not answer a ping at once
        (they are cut, and their place is this one's); else ``None``, to be refused
        as any connection over the cap — also when its own client has left by the end
        of that ping (:func:`heard_meanwhile`, :func:`client_gone`: even with its
        close queued behind messages): the freed place is no dead client's. (Its seat
        would not be shown connected either way: :meth:`Table.attach` attaches no
        connection whose client has left, under the cap or over it.)"""
        answer_seconds = min(PING_ANSWER_SECONDS, settings.ping_seconds or PING_ANSWER_SECONDS)
        with connections.waiting_for_hello(host) as waiter, suppress(WebSocketDisconnect, RuntimeError, OSError):
            await websocket.accept()
            event = await waiter.first_event(websocket.receive, HELLO_WAIT_SECONDS)
            if event is None or event["type"] != "websocket.receive":
                return None
            said = [event_text(event)]
            place = connections.admit(host)
            token = hello_token(said[0], settings.max_message_bytes)
            if place is None and token is not None:
                freed, heard, left = await heard_meanwhile(
                    websocket.receive, connections.reclaim(host, table_id, token, answer_seconds),
                    settings.rate_burst)
                said += [event_text(message) for message in heard]
                if freed and not left and not client_gone(websocket):
                    place = connections.admit(host)   # at once: nobody can take the freed place meanwhile
            return (place, said) if place is not None else None
        return None

    return app


def ping_extension(websocket: WebSocket) -> dict[str, Any] | None:
    """The connection's ``goat.ping`` (:mod:`goat.server.wsping`); ``None`` under a
    server that has none (another ASGI server, uvicorn's own protocol, a test client)."""
    return (websocket.scope.get("extensions") or {}).get(PING_EXTENSION)


def client_gone(websocket: WebSocket) -> bool:
    """Whether the connection's client is known to have left: its close, or the end
    of its TCP connection, has arrived. ``receive`` would say so only after every
    message queued before it (a reconnect's ``sync`` sent with its hello and its
    close), so a reconnect admitted on what it read could take a place and show
    its seat connected for a moment. Asked before a place freed by a ping is taken
    (``over_the_cap``) and before any connection is attached (:meth:`Client.gone`,
    :meth:`Table.attach`). ``False`` without ``goat.ping`` (nothing is admitted for
    a ping there, :meth:`Client.answers_ping`; a gone client is then attached and
    detached as before)."""
    extension = ping_extension(websocket)
    return bool(extension and extension["gone"]())


def event_text(event: Any) -> str:
    """A ``websocket.receive`` event's message as text (a binary one decoded)."""
    raw = event.get("text")
    if raw is None:
        raw = (event.get("bytes") or b"").decode("utf-8", errors="replace")
    return raw


def hello_token(raw: str, max_bytes: int) -> str | None:
    """The seat token of ``raw`` if it is a hello with one, else ``None``."""
    try:
        message = parse_client_message(raw, max_bytes)
    except ProtocolError:
        return None
    return message.token if isinstance(message, Hello) else None


async def seat_data_body(request: Request) -> Any:
    """A deck upload's body: the JSON value for ``application/json`` (or
    ``application/...+json``), else the text (``text/plain``, no type: a
    ``.ydk`` file as it is); :class:`LobbyError` with one line for a form
    upload, a body too large, not UTF-8, not JSON, ``null`` or empty (each but
    ``null``, which only a program sends, with its ``say`` for the page). The body is read
    only up to the limit (a declared Content-Length over it is refused before
    any is read): an endless upload costs the server the limit, not its size."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind.startswith("multipart/") or kind == "application/x-www-form-urlencoded":
        raise LobbyError("send the deck itself as the body (a .ydk file's text, or JSON), not a form", status=415,
                         say="deckForm")
    too_large = LobbyError(f"a deck has at most {DECK_BYTES // 1024} KiB", status=413, say="deckTooLarge",
                           kib=DECK_BYTES // 1024)
    body = await limited_body(request, DECK_BYTES, too_large)
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LobbyError("a deck must be UTF-8 text", say="deckNotUtf8") from None
    if not text.strip():
        raise LobbyError("the deck is empty: send .ydk text or main, fusion and side name lists", say="deckEmpty")
    if kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json")):
        try:
            value = json.loads(text)
        except ValueError as exc:
            raise LobbyError(f"the deck is not valid JSON: {str(exc).splitlines()[0]}", say="deckNotJson") from None
        except RecursionError:   # "[[[[...": deeper than the decoder goes, well within the size limit
            raise LobbyError("the deck is not valid JSON: nested too deeply", say="deckNotJson") from None
        if value is None:   # set_seat_data(None) clears: a PUT must not do DELETE's job
            raise LobbyError("the deck is null: send a deck, or DELETE the seat's deck to go back to the table's")
        return value
    return text


async def limited_body(request: Request, limit: int, too_large: LobbyError) -> bytes:
    """The request's body, read only up to ``limit`` bytes (a declared Content-Length
    over it is refused before any is read): an endless upload costs the server the
    limit, not its size. ``too_large`` is raised past it."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:   # "²" is a digit to isdigit
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    return bytes(body)


async def record_body(request: Request) -> str:
    """A sent record's body: the file's text as it is (any type but a form); a
    :class:`LobbyError` with one line for a form upload (415), a body over
    :data:`~goat.server.review.RECORD_BYTES` (413, with its ``say`` for the page)
    or not UTF-8 (422, the records module's words for such a file)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind.startswith("multipart/") or kind == "application/x-www-form-urlencoded":
        raise LobbyError("send the record itself as the body (the .json or .jsonl file's text), not a form",
                         status=415)
    too_large = LobbyError(f"a record file has at most {RECORD_BYTES // 1024} KiB", status=413,
                           say="recordTooLarge", kib=RECORD_BYTES // 1024)
    body = await limited_body(request, RECORD_BYTES, too_large)
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LobbyError(f"{RECORD_NAME}: not UTF-8 text", status=422) from None


async def refuse_too_many(websocket: WebSocket, line: str) -> None:
    """Refuse a connection over its address's cap: accepted only to say why (a
    connection refused before its handshake is an HTTP 403 the browser does not
    show), as an ``error`` message and as the close reason, code 4429. One
    that waited for its hello (``over_the_cap``) was accepted already."""
    with suppress(WebSocketDisconnect, RuntimeError, OSError):
        if websocket.application_state != WebSocketState.CONNECTED:
            await websocket.accept()
        await websocket.send_text(render(None, None, "error", code=ErrorCode.TOO_MANY_CONNECTIONS, message=line))
        await websocket.close(CLOSE_TOO_MANY, reason=line)


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


class Client:
    """One WebSocket client: its seat (``None``: spectator), an outgoing queue
    drained by its own writer task (a slow reader never holds up the table), and
    its rate limit."""

    def __init__(self, websocket: WebSocket, settings: Settings) -> None:
        self.websocket = websocket
        self.settings = settings
        self.seat: int | None = None
        self.seat_token: str | None = None   # the token of ``seat`` (the cap's Holder: which connections to ping)
        self.table: Table | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.limit = TokenBucket(settings.rate_per_second, settings.rate_burst, time.monotonic)
        self.last_limit_notice = -1e9
        self.closing = False
        self.writer = asyncio.get_running_loop().create_task(self._write())

    # ---------------------------------------------------------- sending
    def deliver(self, text: str) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= self.settings.send_queue:
            self.closing = True
            log.warning("closing a client that does not read (%d messages queued)", self.queue.qsize())
            self.writer.cancel()
            asyncio.get_running_loop().create_task(self._close(CLOSE_TOO_SLOW))
            return
        self.queue.put_nowait(text)

    def revoke(self) -> None:
        self.seat = None          # from now on this connection is nobody's
        self.seat_token = None
        self.table = None         # and leaves no trace when it closes
        self.error(ErrorCode.WRONG_TOKEN, "you left this seat; reconnect to watch or to sit again")
        asyncio.get_running_loop().create_task(self._flush_and_close(CLOSE_WRONG_TOKEN))

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            try:
                await self.websocket.send_text(text)
            except (WebSocketDisconnect, RuntimeError, OSError):
                return

    def error(self, code: ErrorCode, message: str, echoed: str = "", msg_id: str | None = None) -> None:
        self.deliver(render(self.table, self.seat, "error", code=code, message=message, echoed=echoed, id=msg_id))

    async def _close(self, code: int) -> None:
        if self.websocket.client_state == WebSocketState.CONNECTED:
            try:
                await self.websocket.close(code)
            except (RuntimeError, OSError):
                pass

    async def _flush_and_close(self, code: int) -> None:
        self.queue.put_nowait(None)
        try:
            await asyncio.wait_for(asyncio.shield(self.writer), 5.0)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            pass
        await self._close(code)

    @property
    def table_id(self) -> str | None:
        """The id of the table it is connected to (the cap's Holder: a seat token is one table's)."""
        return self.table.id if self.table is not None else None

    def gone(self) -> bool:
        """Whether the client has left already (:func:`client_gone`); one that has is
        never attached (:meth:`Table.attach`)."""
        return client_gone(self.websocket)

    # -------------------------------------------------------- receiving
    async def answers_ping(self, timeout: float) -> bool:
        """Whether the client answers a WebSocket ping within ``timeout`` seconds;
        one that does not is cut (its ``receive`` ends). ``True`` under a server
        that cannot ping on the app's behalf (no ``goat.ping``, :mod:`goat.server.wsping`)."""
        extension = ping_extension(self.websocket)
        if not extension:
            return True
        return bool(await extension["ping"](timeout))

    async def serve(self, table: Table | None, table_id: str,
                    lookup: Callable[[], Awaitable[Table | None]] | None = None, first: Sequence[str] = ()) -> None:
        """Talk to this connection until it ends. ``lookup`` finds the table
        again (``table_id``'s, from the registry) if it left memory before hello;
        ``first``: messages read already, in order (the hello of a connection that
        waited over the cap, and those its client sent during the ping)."""
        if table is None:
            self.error(ErrorCode.UNKNOWN_TABLE, f"there is no table {json.dumps(table_id[:40])}", echoed=table_id)
            await self._flush_and_close(CLOSE_UNKNOWN_TABLE)
            return
        self.table = table
        greeted = False
        unread = list(first)
        while True:
            if unread:
                raw = unread.pop(0)
            else:
                try:
                    timeout = None if greeted else HELLO_TIMEOUT
                    event = await asyncio.wait_for(self.websocket.receive(), timeout)
                except (asyncio.TimeoutError, WebSocketDisconnect, RuntimeError):
                    return
                if event["type"] == "websocket.disconnect":
                    return
                raw = event_text(event)
            if not self.limit.allow():
                self._rate_limited()
                continue
            try:
                message = parse_client_message(raw, self.settings.max_message_bytes)
                if isinstance(message, Hello):
                    if greeted:
                        raise ProtocolError(ErrorCode.MALFORMED, "hello was already said on this connection")
                    attached = await self._hello(table, message, lookup)
                    if attached is None:
                        return
                    table, greeted = attached, True
                elif not greeted:
                    raise ProtocolError(ErrorCode.MALFORMED, 'say {"type": "hello"} first')
                elif isinstance(message, ActionMessage):
                    await self._act(table, message, raw)
                elif isinstance(message, Sync):
                    self.deliver(render(table, self.seat, "state"))
                elif isinstance(message, Ping):
                    self.deliver(render(table, self.seat, "pong"))
                elif isinstance(message, ChatMessage):
                    chat.say(table, self.seat, message.text)
            except ProtocolError as exc:
                self.error(exc.code, str(exc), echoed=raw[: self.settings.max_message_bytes])
            except StorageError as exc:   # a table to look up again (hello) the database could not load
                self.error(ErrorCode.STORAGE, str(exc))
            except Exception:  # a bug must not drop the player
                log.exception("table %s: error handling a client message", table.id)
                self.error(ErrorCode.INTERNAL, "the server failed on this message; the table is unchanged")

    async def _hello(self, table: Table, hello: Hello,
                     lookup: Callable[[], Awaitable[Table | None]] | None = None) -> Table | None:
        """Attach to ``table`` as ``hello`` asks; the table attached to, or ``None``
        when the connection was closed or its client had left already
        (:class:`ClientGone`). A table the registry let go since the connection was
        opened (:class:`TableGone`) is looked up again: attached to the old object
        the page would hear nothing more (a rematch, a chat)."""
        while True:
            try:
                await table.attach(self, hello.token)   # the seat, its welcome and its snapshot
                break
            except ClientGone:   # its close has arrived: nobody to answer, the seat left as it was
                return None
            except TableGone:
                found = await lookup() if lookup is not None else None
                if found is None or found is table:
                    self.error(ErrorCode.UNKNOWN_TABLE, f"there is no table {json.dumps(table.id)}",
                               echoed=table.id)
                    await self._flush_and_close(CLOSE_UNKNOWN_TABLE)
                    return None
                self.table = table = found
            except LobbyError as exc:
                self.error(ErrorCode.WRONG_TOKEN, str(exc))
                await self._flush_and_close(CLOSE_WRONG_TOKEN)
                return None
        self.seat_token = hello.token if self.seat is not None else None
        self.deliver(chat.history(table))   # the recent chat: a reconnecting page gets it all again
        return table

    async def _act(self, table: Table, message: ActionMessage, raw: str) -> None:
        try:
            await table.submit(self.seat, message)
        except ProtocolError as exc:
            self.error(exc.code, str(exc), echoed=raw, msg_id=message.id)

    def _rate_limited(self) -> None:
        now = time.monotonic()
        if now - self.last_limit_notice >= 1.0:  # one notice a second, not one per message
            self.last_limit_notice = now
            self.error(ErrorCode.RATE_LIMITED, f"too many messages: at most {self.settings.rate_per_second:g} "
                       "a second; this one was dropped")

    async def finish(self) -> None:
        if self.table is not None:
            self.table.detach(self)
        self.queue.put_nowait(None)
        try:
            await asyncio.wait_for(self.writer, 2.0)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            self.writer.cancel()
        await self._close(1000)
