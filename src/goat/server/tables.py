"""Tables: the authoritative game state of one table, its seats, and its bots.

A :class:`Table` owns one game state built by :func:`goat.games.get_game` and
changes it only through the protocol: ``check_action`` before anything is
stored, then ``apply_action``; ``sample_chance`` / ``apply_chance`` for the
shuffles, which only the server draws, from generators seeded by the table's
seed and the deal number (so the seed and the stored deals reproduce the game).

Every change — a deal (any chance event: a Yu-Gi-Oh! coin toss or shuffle
too) or an action — gets the next *version* number, is appended to storage
(and committed), and only then broadcast. Changes happen under the table's
lock, one at a time, so versions are gap-free and a client's ``version`` tells
exactly which state it acted on.

A change is made on a *copy* of the state, which becomes the table's state
only once stored; bots think on copies of their own. Copies come from a small
pool of spare states brought up to date by replaying the few events they miss
(:class:`Spares`), not from ``state.clone()`` at every change: a Yu-Gi-Oh!
match clones by replaying every decision since the coin toss, which would
make each change cost as much as the whole match so far.

The table knows a game only through its module (:func:`goat.games.get_game`):
``parse_action`` where its actions are not the card games' ``Action``
(Yu-Gi-Oh!'s ``"0 summon Sangan"``); ``chance_from_json`` to read a stored
chance outcome back; ``chance_to_json`` to store one (games without it store
the deal, as ``deal_log`` writes it).

A game module with ``seat_data_from_json(rules, options, obj)`` takes private
input from the players (Yu-Gi-Oh!: a player's own deck list). While the table
is in its lobby, a seated person may set or clear their seat's
(:meth:`Table.set_seat_data`); the module checks it (one-line errors, with
their ``problems`` by kind for the page: :func:`seat_data_refusal`), the
table stores it (``goat_seat_data``) and, at the start, deals with
``new_state(..., seat_data=[...])``: one entry a seat, ``None`` where nobody
brought any (bots, people who did not), so those seats get what the table's
options say. It is never broadcast: everyone learns only whether a seat has
its own (``own_deck`` in the seats), the owner may read it back, and once play
starts the game's view decides who sees what of it.

Seats are empty, human (a name and the hash of a secret token) or bot. A human
whose last connection drops keeps the seat for ``grace_seconds``; after that the
default bot plays for them until they come back with their token (in the lobby,
anyone seated may free the seat instead: :meth:`Table.clear_seat`).

:class:`Tables` is the registry: creates tables, finds them (loading finished
ones from storage on demand) and restores every unfinished table at start-up by
replaying its stored events. It also keeps house (:meth:`Tables.sweep`, every
little while): a table still in its lobby that nobody has had open for
``Settings.lobby_idle`` seconds (an hour) is closed — deleted, since nothing was
played at it — so abandoned lobbies neither crowd the lobby list nor count
toward ``max_tables`` for ever; a finished table nobody has open leaves memory
after ``finished_idle`` seconds (five minutes) and is loaded again from storage
when someone opens it, so a server that runs for months does not keep every
game it ever finished in memory.

A finished table may be played again (:meth:`Tables.rematch`): a new table in
its lobby with the same game, rules, options, settings (hints) and player
count, a new seed (new cards), the same bots in the same seats and every
human seat empty. A player of the old table who asks takes their own seat in
it under their own name, with their own deck (a game with seat data) if they
brought one — never anyone else's. There is one rematch per table: the first
request makes it and stores the link (``goat_rematches``, with the new table in
one transaction); every later request by any player of the old table gets that
same table, and a seat in it when their old seat is still free there. The old
table's ``public()`` says where it went (``rematch``), so everyone connected
learns it at once.

A table may allow **hints** (``hints``, chosen when it is made, off by
default, kept by a rematch, shown to everyone in ``public()``): a learner may
then ask what a strong bot would play in their place
(:mod:`goat.server.hints`). It is a table setting, not a rule of the game, so
it lives beside the options (``TableRow.settings``), not in them, and every
player sees that it is on — asking is fair only when everyone agreed to it.
:meth:`Table.hint_position` says whether a seat may ask now and hands out only
that seat's view, never the state.

A table may give each move a time (``move_seconds``, off by default, a table
setting like ``hints``; :mod:`goat.server.clock`): when a human seat does not
decide in time, the table's driver makes that decision for it with the default
bot from the seat's view, and every state message says whose clock runs and
how long it has left (``clock``).

A table may be **private** (``private``, a table setting too, kept by a
rematch): it is in no list — not the lobby's open tables, not the finished
games — so only people given its invite link find it. The link works as at any
table (seats, watching); privacy is not a password, it keeps strangers from
seeing the table in a list and taking a seat meant for a friend.

A table may moderate its **chat** (``chat``, a table setting too, kept by a
rematch): ``"on"`` (the default), ``"lobby"`` (closed while the game is
played: no table talk during a deal) or ``"off"``; :mod:`goat.server.chat`
decides when a message is refused.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import inspect
import json
import logging
import math
import random
import secrets
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from goat.bots import Bot, bot_factory, make_bot, next_bot_action, out_of_turn_claim, outside_bots, thinks, view_bots
from goat.bots import default_bot as game_default_bot
from goat.games import GAMES, get_game, is_glance
from goat.protocol import Action, ActionSyntaxError, GoatError, IllegalActionError, RulesError
from goat.records import record_from_state
from goat.server.botlevels import bot_levels
from goat.server.chat import DEFAULT_SETTING as DEFAULT_CHAT
from goat.server.chat import ChatRoom, ChatSettingError, check_setting
from goat.server.clock import CLOCK_ACTOR, Clock, ClockSettingError, check_move_seconds, clock_choice
from goat.server.messages import ActionMessage, ErrorCode, ProtocolError
from goat.server.settings import Settings
from goat.server.solverload import SolverLoad, bots_use_solver
from goat.server.storage import (
    AsyncStorage,
    EventRow,
    LogAhead,
    SeatRow,
    StorageError,
    StoredTable,
    TableRow,
    unstorable,
)
from goat.server.viewfilter import render
from goat.names import NameRefused, check_name, fold_name

log = logging.getLogger("goat.server")

#: Engine rules that mean "not now" rather than "not that".
TURN_RULES = ("turn", "no-deal")
SEED_LIMIT = 64


class TableGone(GoatError):
    """A table object the registry no longer holds (closed, or let go from memory):
    a connection that looked it up before must look it up again (:meth:`Table.attach`)."""


class ClientGone(GoatError):
    """A connection whose client had left by the time its ``hello`` was decided
    (:meth:`Table.attach`): it is not attached, and has nobody to be told why."""


class LobbyError(GoatError):
    """A lobby request that cannot be done (one line); ``status`` is the HTTP status.

    ``say`` names the sentence for a page to show in its own language (``lobbyErrors.<say>``
    in i18n.js) with ``args`` (a seat is its 0-based index, as in every message); the
    English ``message`` stays the answer for programs and the fallback. Given for what a
    person at the page can meet — a seat taken meanwhile, a closed table, a full server —
    not for a request the page never sends."""

    def __init__(self, message: str, status: int = 400, say: str | None = None, **args: object) -> None:
        super().__init__(message)
        self.status = status
        self.say = say
        self.say_args = args    # not ``args``: that is the exception's own (its message)

    def to_json(self) -> dict[str, object]:
        """The error's JSON body: ``{"error": message}``, plus ``say`` and ``args`` when set."""
        return {"error": str(self)} | ({"say": self.say, "args": self.say_args} if self.say else {})


def seat_data_refusal(exc: GoatError) -> LobbyError:
    """The refusal of seat data the game module refused with ``exc``: its one
    line, and — where the error names its ``problems`` (each a ``kind``, JSON
    ``args`` and English ``text``: Yu-Gi-Oh!'s deck problems) — the sentence for
    the page: one problem is ``say`` its kind; several are ``deckProblems`` with
    ``args.problems`` a list of ``{"error", "say", "args"}``, one a problem, so
    the page shows every reason the line gives."""
    problems = getattr(exc, "problems", ())
    if len(problems) == 1:
        return LobbyError(str(exc), say=problems[0].kind, **problems[0].args)
    if problems:
        return LobbyError(str(exc), say="deckProblems",
                          problems=[{"error": p.text, "say": p.kind, "args": p.args} for p in problems])
    return LobbyError(str(exc))


class Connection(Protocol):
    """What a table needs of a client connection."""

    seat: int | None

    def deliver(self, text: str) -> None:
        """Queue one message; never blocks."""
        ...

    def revoke(self) -> None:
        """The seat this connection spoke for is no longer its own: send nothing
        more for that seat, and close."""
        ...

    def gone(self) -> bool:
        """Whether its client is known to have left already (its close, or the end
        of its TCP connection, has arrived), though messages sent before it, its
        ``hello`` among them, may still be unread."""
        ...


def table_bots(game: str = "kozel") -> list[str]:
    """Bots that may sit at a table of ``game`` with people: every bot that plays
    that game (:func:`goat.bots.bots_for`) from its view (``perfect`` sees every
    card, so it may not). Not an outside bot (an entry point, docs/bots.md):
    the lobby offers the bots whose level it knows (:mod:`goat.server.botlevels`),
    and installing a package must not change what it offers."""
    names = view_bots(game)  # first: it imports the entry points that outside_bots() then knows
    outside = outside_bots()
    return [name for name in names if name not in outside]


def default_bot(game: str, settings: Settings) -> str:
    """The bot that fills a seat of ``game`` when none is named (a dropped
    player's autoplay, the lobby's first choice): the server's default bot if it
    plays ``game``, else the game's first bot that is not ``random`` (Yu-Gi-Oh!'s
    ``greedy``), else its first (:func:`goat.bots.default_bot`)."""
    return game_default_bot(game, settings.default_bot)


def table_bot(name: str, seed: str, settings: Settings, game: str = "kozel", stand_in: bool = False) -> Bot:
    """The bot ``name`` for a seat of ``game``, its thinking capped at
    ``settings.bot_think`` seconds a decision when it has a ``time_limit``
    setting (people are waiting); ``stand_in``: it plays for a person who is
    away, which a bot with that setting hears (no gamble in their name:
    :class:`goat.bots.base.Bot`)."""
    factory = bot_factory(name, game)
    params = inspect.signature(factory).parameters if factory is not None else {}
    extra: dict[str, Any] = {}
    if settings.bot_think > 0 and thinks(name, game):
        extra["time_limit"] = settings.bot_think
    if stand_in and "stand_in" in params:
        extra["stand_in"] = True
    return make_bot(name, seed=seed, game=game, **extra)


def clock_bot(game: str, seed: str, settings: Settings) -> Bot:
    """The bot that decides for a human seat whose time per move ran out: the
    bot a dropped player gets (:func:`default_bot`), fresh for each decision
    (it is handed one view, and nothing it remembers would be its own)."""
    return table_bot(default_bot(game, settings), seed, settings, game, stand_in=True)


def parse_action(game: Any, text: str) -> Any:
    """An action text parsed by ``game``'s own ``parse_action`` if it has one
    (Yu-Gi-Oh!), else as the card games' :class:`Action`; raises
    :class:`ActionSyntaxError`."""
    parse = getattr(game, "parse_action", None)
    return parse(text) if parse is not None else Action.parse(text)


def chance_payload(game: Any, state: Any, outcome: Any) -> str:
    """What is stored of a chance outcome just applied to ``state``: the game's
    ``chance_to_json`` if it has one, else the deal as the deal log writes it
    (without its actions, which are stored one by one)."""
    to_json = getattr(game, "chance_to_json", None)
    if to_json is not None:
        return json.dumps(to_json(state, outcome), ensure_ascii=False)
    deal = dict(state.deal_log()[-1])
    deal.pop("actions", None)
    return json.dumps(deal)


def chance_is_deal(game: Any) -> bool:
    """Whether every chance event of ``game`` starts a deal (the card games),
    so the table pauses before it to let people read the last one; a duel's
    shuffles and coin tosses come in the middle of play and do not pause (its
    module says so: ``CHANCE_STARTS_DEAL = False``)."""
    return getattr(game, "CHANCE_STARTS_DEAL", True)


def apply_event(game: Any, state: Any, ev: EventRow) -> Any:
    """Apply one stored event to ``state``; returns the action applied (``None``
    for a deal). Raises :class:`GoatError` for an event that does not apply."""
    if ev.kind == "deal":
        state.apply_chance(game.chance_from_json(state, json.loads(ev.payload)))
        return None
    if ev.kind == "action":
        action = parse_action(game, ev.payload)
        state.apply_action(action)
        return action
    raise GoatError(f"unknown event kind {ev.kind!r}")


class Spares:
    """Spare copies of a table's state for trial changes and thinking bots.

    ``take`` hands out a copy at the table's current version: a spare brought
    up to date by replaying the events it has not seen, or, when none is free,
    a ``clone`` of the current state (the first time, or while a bot holds the
    only spare). ``give`` takes back a copy nobody uses any more, with the
    version it is at. Events are kept in memory (``log``) only as far back as
    the oldest spare needs; a copy is never shared, so no two users touch one
    state.
    """

    KEEP = 3

    def __init__(self, game: Any) -> None:
        self.game = game
        self.log: list[EventRow] = []     # the events after version ``base``
        self.base = 0
        self.free: list[tuple[int, Any]] = []

    def record(self, ev: EventRow) -> None:
        self.log.append(ev)
        self._trim()

    def take(self, current: Any, version: int) -> Any:
        while self.free:
            at, state = self.free.pop()
            if at < self.base:   # its events are no longer kept
                continue
            try:
                for ev in self.log[at - self.base:version - self.base]:
                    apply_event(self.game, state, ev)
            except GoatError:   # a spare that does not catch up is dropped, never used
                log.exception("a spare state did not replay; cloning instead")
                continue
            self._trim()
            return state
        return current.clone()

    def give(self, state: Any, version: int) -> None:
        if version < self.base:   # too far behind to catch up: dropped
            return
        self.free.append((version, state))
        self.free.sort(key=lambda pair: pair[0])
        del self.free[:-self.KEEP]
        self._trim()

    def _trim(self) -> None:
        oldest = min((at for at, _ in self.free), default=self.base + len(self.log))
        if oldest > self.base:
            del self.log[:oldest - self.base]
            self.base = oldest


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a copy of the database does not hand out seats."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(name: object) -> str:
    """A player's display name as :func:`goat.names.check_name` keeps it (the rule
    ``goat play --name`` shares): printable, single-spaced, with something visible
    in it (a lone accent or a braille blank passed as a name, and seats showed a
    player nobody could see), at most :data:`~goat.names.NAME_LIMIT` characters —
    a longer one is refused in the words the terminal says, not cut: cut here and
    whole in a terminal game's record, one person was two in the standings."""
    if not isinstance(name, str):
        raise LobbyError("a name must be text")
    try:
        return check_name(name)
    except NameRefused as refused:
        if refused.blank:
            raise LobbyError("say a name to take a seat", say="sayName") from None
        raise LobbyError(str(refused)) from None


def seat_rng(seed: str, purpose: str) -> random.Random:
    """A generator for one purpose of one table (``"deal/3"``, ``"first-dealer"``):
    string seeds are hashed by :mod:`random`, so this is stable across runs."""
    return random.Random(f"{seed}/{purpose}")


@dataclass
class Seat:
    """One seat and who holds it (the live part is not stored)."""

    index: int
    kind: str = "empty"                 # empty | human | bot
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None
    connections: int = 0
    autoplay: bool = False              # a bot plays for a dropped human
    timer: asyncio.TimerHandle | None = None
    #: when (``time.monotonic``) its last connection went, or the seat was taken or restored
    offline_since: float = field(default_factory=time.monotonic)

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.name, self.bot, self.token_hash)

    def public(self) -> dict[str, Any]:
        return {"seat": self.index, "kind": self.kind, "name": self.name, "bot": self.bot,
                "connected": self.kind == "bot" or self.connections > 0, "autoplay": self.autoplay}


class Table:
    """One table: seats, the authoritative state, its version and its bots."""

    def __init__(self, row: TableRow, seats: list[SeatRow], settings: Settings, store: AsyncStorage | None,
                 seat_data: dict[int, Any] | None = None, rematch: str | None = None,
                 solver: SolverLoad | None = None, players_before: dict[int, str] | None = None,
                 rematch_of: str | None = None) -> None:
        """``store`` may be ``None`` for a table that is only replayed (a check),
        never played; ``seat_data``: the stored private data by seat (JSON values);
        ``rematch``: the id of the table made to play this one again, if any;
        ``solver``: the server's solver load, which the move of a bot that may
        use the solver waits for (:mod:`goat.server.solverload`);
        ``players_before``: at a rematch, the people of the match it plays again
        (seat -> name), whose names are kept for them (:meth:`_name_not_kept`)
        until they come back (:attr:`came_back`); ``rematch_of``: at a rematch,
        the id of the table it plays again (:meth:`public` says it)."""
        self.id = row.id
        self.solver = solver
        self.row = row
        self.settings = settings
        self.store = store
        self.game = get_game(row.game)
        self.seat_data: dict[int, Any] = dict(seat_data or {})
        self.rematch = rematch
        self.rematch_of = rematch_of
        self.players_before: dict[int, str] = dict(players_before or {})
        #: The seats of :attr:`players_before` whose player came back ("Play again",
        #: "Join the rematch"): their names are kept no more. Stored as the seat's
        #: row saying their name, held by them or left empty (:meth:`_save_seat`):
        #: nobody else can sit there under it while it is kept.
        self.came_back: set[int] = {index for index, name in self.players_before.items()
                                    if index < len(seats) and seats[index].kind != "bot"
                                    and fold_name(seats[index].name) == fold_name(name)}
        self.seats = [Seat(s.seat, s.kind, s.name if s.kind != "empty" else "", s.bot, s.token_hash) for s in seats]
        self.state = self._new_state()
        self.status = row.status
        self.version = 0
        #: The version of the last event that decided something (not a glance,
        #: :func:`goat.games.is_glance`): an action sent at any version from it on
        #: was decided on what still holds, so it is not stale.
        self.decided = 0
        #: Per seat, the version of its last glance (it was shown its own cards):
        #: a hint computed before it read a view without them (:meth:`standing_since`).
        self.glanced: dict[int, int] = {}
        self.deals = 0
        self.applied: dict[str, int] = {}   # "seat:client id" -> the version it produced
        self.connections: set[Connection] = set()
        self.bots: list[Bot | None] = [None] * row.players
        self.spares = Spares(self.game)
        self.lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        # Time per move (goat.server.clock): the running deadline, whether it ran
        # out and the driver is to decide, and the last decision it made.
        self.clock: Clock | None = None
        self._clock_due = False
        self.timeout: dict[str, Any] | None = None
        # Talk at the table (goat.server.chat): in memory only, never part of the game.
        self.chat = ChatRoom(settings.chat_limit, settings.chat_window)
        # Since when nobody has had the table open (None: someone has), for the
        # registry's housekeeping (Tables.sweep); ``closed``: deleted as an abandoned lobby;
        # ``unloaded``: a finished table let go from memory (it stays stored).
        self.idle_since: float | None = time.monotonic()
        self.closed = False
        self.unloaded = False

    def _new_state(self) -> Any:
        """The game's new state for this table: its rules and options, the first
        dealer from the seed and, where people brought their own (a game with
        ``seat_data_from_json``), each human seat's private data (``None``
        for the others: the options decide)."""
        first_dealer = seat_rng(self.row.seed, "first-dealer").randrange(self.row.players)
        extra: dict[str, Any] = {}
        if self.takes_seat_data and self.seat_data:
            extra["seat_data"] = [self.seat_data.get(s.index) if s.kind == "human" else None for s in self.seats]
        return self.game.new_state(rules=self.row.rules, options=self.row.options, players=self.row.players,
                                   first_dealer=first_dealer, **extra)

    @property
    def takes_seat_data(self) -> bool:
        """Whether players may bring their own private data (a deck) to this game."""
        return hasattr(self.game, "seat_data_from_json")

    # ============================================================= info
    def public(self) -> dict[str, Any]:
        """What anyone may know of the table (no cards). At a game that takes
        players' own decks, each seat says only whether it has one (``own_deck``);
        ``rematch``: the id of the table that plays this one again (``None``
        until a player asks for one); ``rematch_of``: at a rematch, the id of
        the table it plays again, so that a page holding a seat's token there
        can take that player's kept seat (``POST /api/tables/{old}/rematch``)
        though it opened the rematch's own link — ``None`` at a private table,
        whose rematch link may have been passed on to someone the old table's
        link (its chat, its record) was not meant for; ``chosen_seed``: its
        deals come from a seed its creator chose (see :attr:`chosen_seed`).
        In the lobby a person's seat with no page open says in ``free_in`` the
        seconds until anyone seated may free it (0: now; :meth:`_free_in`), for
        the page's "Free the seat" to wait for."""
        seats = [s.public() for s in self.seats]
        if self.status == "lobby":
            for seat, info in zip(self.seats, seats):
                if seat.kind == "human" and not info["connected"]:
                    info["free_in"] = self._free_in(seat)
        if self.takes_seat_data:
            for seat in seats:
                seat["own_deck"] = seat["seat"] in self.seat_data
        return {"status": self.status, "game": self.row.game, "rules": self.row.rules,
                "options": self.row.options, "players": self.row.players, "seats": seats,
                "rematch": self.rematch, "rematch_of": None if self.private else self.rematch_of, "hints": self.hints, "move_seconds": self.move_seconds,
                "private": self.private, "chat": self.chat_setting, "chosen_seed": self.chosen_seed}

    @property
    def chosen_seed(self) -> bool:
        """Whether the table deals from a seed its creator chose (``seed`` at its
        creation: a club's duplicate deals, a lesson, a test) rather than one the
        server drew: whoever chose it can work out every card, so everyone is told.
        The seed itself is never sent."""
        return bool(self.row.settings.get("chosen_seed", False))

    @property
    def private(self) -> bool:
        """Whether the table is private: in no list (neither the open tables nor the
        finished games), found only by its invite link, which anyone who has it may
        use as at any table."""
        return bool(self.row.settings.get("private", False))

    @property
    def chat_setting(self) -> str:
        """Who may write in the chat when (``goat.server.chat``): ``"on"``,
        ``"lobby"`` (not while the game is played) or ``"off"``. Named so, not
        ``chat``: that is the table's :class:`ChatRoom`."""
        return str(self.row.settings.get("chat", DEFAULT_CHAT))

    @property
    def hints(self) -> bool:
        """Whether the players of this table may ask for a hint on their turn."""
        return bool(self.row.settings.get("hints", False))

    @property
    def move_seconds(self) -> int | None:
        """The time per move in seconds (``None``: no clock at this table)."""
        return self.row.settings.get("move_seconds")

    def hint_position(self, token: str | None) -> tuple[int, int, dict[str, Any]]:
        """What a hint for the holder of ``token`` is computed from: their seat,
        the table version and that seat's view (``state.view(seat)``: what the
        player sees, never the state), as a detached JSON copy. Read at once,
        with no await in between, so the view is the one of that version. Raises :class:`LobbyError` with
        one line: 403 without a seat's token (a spectator, a wrong token); 409
        at a table that does not allow hints, a game that is not in play, or
        when it is not this seat's turn."""
        if token is None:
            raise LobbyError("take a seat first: only a player may ask for a hint", status=403, say="hintSeat")
        seat = self.seat_of(token)
        assert seat is not None
        if not self.hints:
            raise LobbyError("this table does not allow hints (a setting chosen when it is made)", status=409,
                             say="hintsOff")
        if self.status != "playing" or self.state.is_terminal():
            raise LobbyError("the game is not in play: hints are for your turn", status=409, say="hintNotInPlay")
        if self.state.is_chance_node():
            raise LobbyError("it is not your turn: the cards are being dealt", status=409, say="hintDealing")
        view = self.state.view(seat)
        if self.state.current_player() != seat or not view.get("legal_actions"):
            raise LobbyError("it is not your turn: a hint is for the seat to act", status=409, say="hintNotYourTurn")
        # A detached copy: plain JSON, sharing nothing with a state that a spare
        # may later be replayed forward on while the hint bot still reads it.
        return seat, self.version, json.loads(json.dumps(view))

    def seat_of(self, token: str | None) -> int | None:
        """The seat holding ``token``; raises :class:`LobbyError` (403) for a wrong one."""
        if token is None:
            return None
        digest = hash_token(token)
        for seat in self.seats:
            if seat.kind == "human" and seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.index
        raise LobbyError(f"that token holds no seat at table {self.id}", status=403, say="wrongToken")

    def _seat(self, index: int) -> Seat:
        if not isinstance(index, int) or not 0 <= index < len(self.seats):
            raise LobbyError(f"there is no seat {index} (seats 0..{len(self.seats) - 1})", status=404, say="noSeat",
                             seat=index)
        return self.seats[index]

    # ============================================================ lobby
    def _in_lobby(self, started: str) -> None:
        """Refuse a lobby change at a table that has started (409, ``started``
        says how) or that was closed as an abandoned lobby meanwhile (410)."""
        if self.closed:
            raise LobbyError(f"table {self.id} was closed: nobody had it open for a long time; make a new one",
                             status=410, say="tableClosed")
        if self.status != "lobby":
            raise LobbyError(started, status=409, say="started")

    async def take_seat(self, index: int, name: object, returning: bool = False) -> str:
        """Seat a person; returns their secret token (shown once, stored hashed).
        ``returning``: a player of the match this rematch plays again, back in
        their own seat under their own name (:meth:`Tables.rematch`, which checked
        their token there), so the name kept for them is theirs to take; back,
        it is no longer kept, so they may leave and sit elsewhere under it."""
        name = clean_name(name)
        async with self.lock:
            seat = self._seat(index)
            self._in_lobby("the game has started: seats are taken")
            if seat.kind != "empty":
                raise LobbyError(f"seat {index} is taken", status=409, say="seatTaken", seat=index)
            self._name_free(name)
            if not returning:
                self._name_not_kept(name)
            token = secrets.token_urlsafe(24)
            changed = Seat(index, "human", name, None, hash_token(token))
            await self._save_seat(changed)
            if returning:
                self.came_back.add(index)
        self.broadcast()
        return token

    def _name_free(self, name: str) -> None:
        """Refuse a name a person at this table already has (case and spaces
        folded, as the standings group names): two "Anna"s at one table would be
        one person on the score sheet and in the standings — a win and a loss of
        one match if they sat on both sides."""
        for other in self.seats:
            if other.kind == "human" and fold_name(other.name) == fold_name(name):
                raise LobbyError(f"{other.name} already sits at seat {other.index}: "
                                 "each person at a table needs a name of their own (add an initial)",
                                 status=409, say="nameTaken", seat=other.index, name=other.name)

    def _name_not_kept(self, name: str) -> None:
        """Refuse, at a rematch, the name of a player of the old match whose own
        seat still waits for them (empty). "Join the rematch" seats them there
        under that name: taken meanwhile by a newcomer at another seat, it would
        refuse them (:meth:`_name_free`), and the newcomer would play on the
        score sheet as them. While someone else holds their seat, the name is
        not kept (they sit elsewhere like anyone else); once they came back it
        is kept no more (:attr:`came_back`, which a restart keeps)."""
        for index, held in self.players_before.items():
            if index not in self.came_back and self.seats[index].kind == "empty" \
                    and fold_name(held) == fold_name(name):
                raise LobbyError(f"the name {held} is kept for the player of the last match, whose seat {index} "
                                 "waits for them: if that is you, join with your token of the last match "
                                 "(\"Join the rematch\" on its page); otherwise choose another name",
                                 status=409, say="nameKept", seat=index, name=held)

    async def set_bot(self, index: int, bot: str, token: str | None) -> None:
        """Put a bot on an empty (or bot) seat; any seated player may."""
        bots = table_bots(self.row.game)
        if bot not in bots:
            raise LobbyError(f"no bot {bot!r} for {self.row.game} (one of {', '.join(bots)})")
        async with self.lock:
            self._authorize(token)
            seat = self._seat(index)
            self._in_lobby("the game has started")
            if seat.kind == "human":
                raise LobbyError(f"seat {index} is held by {seat.name}", status=409, say="seatHeld", seat=index,
                                 name=seat.name)
            await self._save_seat(Seat(index, "bot", f"{bot} bot", bot, None))
        self.broadcast()

    async def clear_seat(self, index: int, token: str | None) -> None:
        """Empty a bot's seat, or leave one's own seat, before the game starts; or
        free the seat of a person who left the lobby: offline for the grace period
        (``grace_seconds``, as a dropped player keeps a seat in play). Without it a
        lobby whose person closed their page could only start with them, a bot
        playing their seat and the standings counting the match as theirs."""
        async with self.lock:
            mine = self._authorize(token)
            seat = self._seat(index)
            self._in_lobby("the game has started: seats stay as they are")
            if seat.kind == "human" and index != mine:
                self._may_free(seat)
                await self._free(seat)
            else:
                await self._save_seat(Seat(index))
        self.broadcast()

    async def _free(self, seat: Seat) -> None:
        """Empty the seat of a person who left (:meth:`_may_free` said it may be).
        At a rematch, a seat freed from its own player of the last match waits for
        them again as before they came back, so their name is kept for them again
        (:meth:`_name_not_kept`): they did not leave it by choice, and "Join the
        rematch" takes them back to it under their name. Left free, a newcomer could
        sit elsewhere under it meanwhile; their return was then refused, and the
        newcomer played on the score sheet as them."""
        index = seat.index
        returner = index in self.came_back and fold_name(seat.name) == fold_name(self.players_before[index])
        if returner:
            self.came_back.discard(index)
        try:
            await self._save_seat(Seat(index))
        except LobbyError:
            if returner:   # nothing was stored: they are still back
                self.came_back.add(index)
            raise

    def _may_free(self, seat: Seat) -> None:
        """Raise :class:`LobbyError` unless another person's ``seat`` may be freed:
        its holder is offline and has been for the grace period."""
        if seat.connections:
            raise LobbyError(f"seat {seat.index} belongs to {seat.name}; only they can leave it", status=403,
                             say="seatBelongs", seat=seat.index, name=seat.name)
        wait = self._free_in(seat)
        if wait > 0:
            raise LobbyError(f"{seat.name} is offline, but keeps seat {seat.index} for {wait} s more in case they "
                             f"come back; then anyone at the table may free it", status=409,
                             say="seatAway", seat=seat.index, name=seat.name, seconds=wait)

    def _free_in(self, seat: Seat) -> int:
        """Whole seconds, rounded up, until an offline ``seat`` may be freed (0: it
        may be now): the one count :meth:`_may_free` decides by and the lobby's
        view (``free_in``) shows, from the server's clock, so a page counting
        down from it never offers the button sooner than the server allows."""
        return max(0, math.ceil(self.settings.grace_seconds - (time.monotonic() - seat.offline_since)))

    async def set_seat_data(self, index: int, token: str | None, obj: Any) -> Any:
        """Set (``obj``: what the player sent, e.g. a ``.ydk`` text) or clear
        (``obj`` ``None``) the private data of one's own seat while the table is
        in its lobby; returns what is stored now (the module's canonical JSON,
        or ``None``). Raises :class:`LobbyError` with one line — a game that
        takes none, not one's seat, not in the lobby, data the game refuses —
        and then nothing is stored."""
        async with self.lock:
            self._own_seat_with_data(index, token)
            self._in_lobby("the game has started: decks are fixed")
            data = None
            if obj is not None:
                try:
                    data = self.game.seat_data_from_json(self.row.rules, self.row.options, obj)
                except GoatError as exc:
                    raise seat_data_refusal(exc) from None
            await self._store(self.store.set_seat_data(
                self.id, index, None if data is None else json.dumps(data, ensure_ascii=False)))
            if data is None:
                self.seat_data.pop(index, None)
            else:
                self.seat_data[index] = data
        self.broadcast()
        return data

    def seat_data_of(self, index: int, token: str | None) -> Any:
        """One's own seat's private data (``None``: none, the options decide);
        only the seat's holder may read it (:class:`LobbyError` 403 otherwise)."""
        self._own_seat_with_data(index, token)
        return self.seat_data.get(index)

    def _own_seat_with_data(self, index: int, token: str | None) -> None:
        """Check that this game takes seat data and that ``token`` holds seat
        ``index``: the questions both reading and writing one's data ask first."""
        if not self.takes_seat_data:
            raise LobbyError(f"a {self.row.game} table deals from its rules: players bring no deck of their own")
        mine = self._authorize(token)
        self._seat(index)
        if index != mine:
            raise LobbyError(f"seat {index} is not yours (you sit at seat {mine})", status=403, say="notYourSeat",
                             seat=index)

    async def start(self, token: str | None) -> None:
        """Start play once every seat is filled; the driver deals at once. The
        state is made anew here, from the seats' own data as it is now."""
        async with self.lock:
            self._authorize(token)
            self._in_lobby("the game has already started")
            empty = [s.index for s in self.seats if s.kind == "empty"]
            if empty:
                raise LobbyError(f"fill every seat first (empty: {', '.join(map(str, empty))})", status=409,
                                 say="fillSeats")
            try:
                state = self._new_state()
            except GoatError as exc:
                raise LobbyError(f"cannot start: {exc}", status=409) from None
            await self._store(self.store.set_status(self.id, "playing"))
            self.state = state
            self.status = "playing"
            self._begin_play()
        self.broadcast()

    def _authorize(self, token: str | None) -> int:
        if token is None:
            raise LobbyError("take a seat first: only seated players manage the table", status=403, say="manageSeat")
        return self.seat_of(token)  # type: ignore[return-value]

    async def _save_seat(self, seat: Seat) -> None:
        old = self.seats[seat.index]
        # A seat's own deck is its holder's: it leaves with them, in the seat's own write
        # (two writes left a seat whose second write failed without its deck).
        leaves = old.token_hash != seat.token_hash and seat.index in self.seat_data
        row = seat.row()
        if seat.kind == "empty" and seat.index in self.came_back:
            # the sign, after a restart, that its player of the last match came back
            # (their name is no longer kept: they may sit elsewhere under it); never shown
            row = replace(row, name=self.players_before[seat.index])
        await self._store(self.store.save_seat(self.id, row, drop_data=leaves))
        if leaves:
            del self.seat_data[seat.index]
        self.seats[seat.index] = seat
        if old.token_hash is not None and old.token_hash != seat.token_hash:
            # Whoever held this seat gave it up: their connections must not see the
            # next holder's cards.
            for conn in [c for c in self.connections if c.seat == seat.index]:
                self.connections.discard(conn)
                conn.revoke()

    @staticmethod
    async def _store(call: Any) -> None:
        try:
            await call
        except StorageError as exc:
            raise LobbyError(str(exc), status=503) from None

    def _begin_play(self) -> None:
        for seat in self.seats:
            if seat.kind == "bot":
                self.bots[seat.index] = table_bot(seat.bot or default_bot(self.row.game, self.settings),
                                                  f"{self.row.seed}/bot/{seat.index}", self.settings, self.row.game)
            elif seat.kind == "human" and seat.connections == 0:
                self._dropped(seat)
        if self.status == "playing" and self._driver is None:
            self._driver = asyncio.get_running_loop().create_task(self._drive(), name=f"table {self.id}")
        self._set_clock()   # a decision pending at a restart gets a fresh full clock

    # ============================================================ play
    async def submit(self, seat: int | None, message: ActionMessage) -> None:
        """A client's action: checked, stored, applied, broadcast (with ``ack``);
        or refused with a :class:`ProtocolError` and nothing changed."""
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "spectators cannot act; take a seat to play")
        async with self.lock:
            key = f"{seat}:{message.id}"
            if key in self.applied:
                raise ProtocolError(ErrorCode.DUPLICATE, f"action id {message.id!r} was already applied "
                                    f"(it made version {self.applied[key]}); not applied again")
            if self.status == "lobby":
                raise ProtocolError(ErrorCode.NOT_STARTED, "the game has not started yet")
            if self.status == "finished":
                raise ProtocolError(ErrorCode.GAME_OVER, "the game is over")
            if not self.decided <= message.version <= self.version:
                raise ProtocolError(ErrorCode.STALE_VERSION, f"you acted on version {message.version}, "
                                    f"the table is at version {self.version}; look again and resend")
            try:
                action = parse_action(self.game, message.action)
            except ActionSyntaxError as exc:
                raise ProtocolError(ErrorCode.MALFORMED, str(exc)) from None
            if action.seat != seat:
                raise ProtocolError(ErrorCode.WRONG_SEAT, f"you sit at seat {seat}, not seat {action.seat}")
            try:
                self.state.check_action(action)
            except IllegalActionError as exc:
                code = ErrorCode.NOT_YOUR_TURN if exc.rule in TURN_RULES else ErrorCode.ILLEGAL_ACTION
                raise ProtocolError(code, exc.reason, rule=exc.rule) from None
            try:
                await self._commit_action(action, "human", message.id, ack_seat=seat)
            except LogAhead as exc:
                raise ProtocolError(ErrorCode.STALE_VERSION, f"not applied: {exc}") from None
            except StorageError as exc:
                raise ProtocolError(ErrorCode.STORAGE, f"not applied: {exc}") from None

    async def _commit_action(self, action: Action, actor: str, client_id: str | None,
                             ack_seat: int | None = None, trial: Any = None) -> None:
        """Store, then apply, then broadcast one checked action (lock held);
        ``trial``: a copy of the current state to apply it to (a bot's own)."""
        trial = trial if trial is not None else self.spares.take(self.state, self.version)
        trial.apply_action(action)
        await self._commit(trial, EventRow(self.version + 1, "action", str(action), actor, client_id), action)
        if client_id is not None and ack_seat is not None:
            self.applied[f"{ack_seat}:{client_id}"] = self.version
        self.broadcast(ack_seat, client_id)

    async def _commit_deal(self) -> None:
        """Shuffle and deal the next deal from the table's seeded generator (lock held)."""
        trial = self.spares.take(self.state, self.version)
        outcome = trial.sample_chance(seat_rng(self.row.seed, f"deal/{self.deals + 1}"))
        trial.apply_chance(outcome)
        payload = chance_payload(self.game, trial, outcome)
        await self._commit(trial, EventRow(self.version + 1, "deal", payload, "server"))
        self.deals += 1
        self.broadcast()

    async def _commit(self, trial: Any, event: EventRow, action: Action | None = None) -> None:
        """Append ``event`` (with the record, if ``trial`` ended the game), then make
        ``trial`` the table's state: nothing is applied that is not stored (a
        trial that was not stored is dropped: it is ahead of the table).
        ``action``: the player's action the event holds (``None``: a deal)."""
        record = self.record_of(trial) if trial.is_terminal() else None
        try:
            await self.store.append_event(self.id, event, record)
        except StorageError:
            if not await self._catch_up(event):
                raise
        self.spares.give(self.state, self.version)   # one event behind: a spare
        self.spares.record(event)
        glance = self._mark(event.seq, action)
        self._advance(trial, event.seq, glance)

    def _mark(self, seq: int, action: Action | None) -> bool:
        """Keep :attr:`decided` and :attr:`glanced` for event ``seq`` holding
        ``action`` (``None``: a deal); whether it was a glance."""
        if action is not None and is_glance(self.game, action):
            self.glanced[action.seat] = seq
            return True
        self.decided = seq
        return False

    def standing_since(self, seat: int | None) -> int:
        """The version since which ``seat``'s position stands: the last event that
        decided something, or that showed ``seat`` its own cards. Another seat's
        glance in between changes nothing ``seat`` chooses on, so a hint computed
        at any version from it on is still the hint for the position on the table
        (sent to the page as the state message's ``since``)."""
        return max(self.decided, self.glanced.get(seat, 0)) if seat is not None else self.decided

    def record_of(self, state: Any) -> dict[str, Any]:
        """The record of ``state`` as this table stores it: with ``"table"``, its
        id, so that a downloaded record (and its score sheet) says where it was played,
        and ``"seats"``, who sat where."""
        return record_from_state(state) | {"table": self.id, "seats": self.record_seats()}

    def record_seats(self) -> list[dict[str, Any] | None]:
        """The records' ``seats`` (:func:`goat.records.read_seats`): the names everyone
        at the table saw, and each bot's spec; never a token."""
        return [None if seat.kind == "empty" else
                {"name": seat.name} | ({"bot": seat.bot} if seat.kind == "bot" and seat.bot else {})
                for seat in self.seats]

    def _advance(self, state: Any, version: int, glance: bool = False) -> None:
        self.state = state
        self.version = version
        if state.is_terminal():
            self.status = "finished"
        self._set_clock(glance)
        self._wake.set()

    async def _catch_up(self, event: EventRow) -> bool:
        """After ``event``'s write failed (lock held), read the log beyond this
        table's version. ``event`` itself there: it was written after all, return
        ``True``. Other events there: apply them and raise :class:`LogAhead`.
        Nothing there, or the log out of reach: ``False``, the write's error stands.

        The log can be ahead when a COMMIT's answer was lost and the look for it
        on a new connection failed too (:mod:`goat.server.storage`): the move was
        told "not applied" though stored. Played again, the same move finds it; but
        a different one (another card, a bot choosing anew, the clock's) collided
        with it at every try, and the table stayed a version behind its log —
        frozen — until a restart replayed the log."""
        try:
            missed = await self.store.events_after(self.id, self.version)
        except StorageError:
            return False
        if not missed:
            return False
        if missed[0].move() == event.move():
            log.warning("table %s: a write's answer was lost, but the log holds it: carrying on", self.id)
            return True
        self.replay(missed)
        self._advance(self.state, self.version)
        log.warning("table %s: caught up with %d stored event(s) it had not applied (a lost commit answer)",
                    self.id, len(missed))
        self.broadcast()
        raise LogAhead(f"the table had moved on to version {self.version} (a move stored before this one); "
                       "look again and resend")

    def replay(self, events: Iterable[EventRow]) -> None:
        """Rebuild the state from stored events (restart); raises :class:`GoatError`
        if the log does not replay."""
        for ev in events:
            if ev.seq != self.version + 1:
                raise GoatError(f"table {self.id}: event {ev.seq} follows version {self.version}")
            try:
                action = apply_event(self.game, self.state, ev)
            except GoatError as exc:
                raise GoatError(f"table {self.id}, event {ev.seq}: {exc}") from None
            if action is None:
                self.deals += 1
            elif ev.client_id is not None:
                self.applied[f"{action.seat}:{ev.client_id}"] = ev.seq
            self._mark(ev.seq, action)
            self.spares.record(ev)
            self.version = ev.seq

    # ========================================================== driver
    async def _drive(self) -> None:
        """Deal when a deal is due and let bots move; sleeps until something changes."""
        settings = self.settings
        while self.status == "playing":
            self._wake.clear()
            try:
                if self.state.is_chance_node():
                    if self.deals and chance_is_deal(self.game):
                        await asyncio.sleep(settings.deal_pause)
                    async with self.lock:
                        if self.status == "playing" and self.state.is_chance_node():
                            await self._commit_deal()
                    continue
                if self._clock_due:
                    await self._clock_move()
                    continue
                version, started = self.version, time.monotonic()
                choice = await self._bot_choice()
                if choice is None:
                    await self._wake.wait()
                    continue
                action, copy = choice
                await asyncio.sleep(max(0.0, settings.bot_delay - (time.monotonic() - started)))
                async with self.lock:
                    if (self.version == version and self.status == "playing"
                            and self.bots[action.seat] is not None and self.state.is_legal(action)):
                        await self._commit_action(action, "bot", None, trial=copy)
                    else:
                        self.spares.give(copy, version)
            except LogAhead:
                continue    # caught up with its log: the bots choose again on the new state
            except StorageError as exc:
                log.error("table %s: %s; retrying in 1 s", self.id, exc)
                await asyncio.sleep(1.0)
            except Exception:  # a bug must not stop the table for good
                log.exception("table %s: the driver failed; retrying in 1 s", self.id)
                await asyncio.sleep(1.0)

    async def _bot_choice(self) -> tuple[Action, Any] | None:
        """A bot's action now (its turn, or an out-of-turn claim), chosen on a
        copy of the state in a worker thread, with that copy (unchanged: the
        trial to apply the action to); ``None`` if no bot acts."""
        if self.solver is not None and bots_use_solver(self):
            await self.solver.ready()   # the kernels first, not compiled here beside the child (before the state is read)
        if not self._a_bot_may_act():
            return None
        version = self.version
        state, bots = self.spares.take(self.state, version), list(self.bots)
        try:
            action = await asyncio.to_thread(_bot_action, state, bots)
        except Exception:  # a broken bot must not stall the table
            log.exception("table %s: bot failed; playing its first legal action", self.id)
            seat = state.current_player()
            legal = [a for a in state.legal_actions() if a.seat == seat]
            action = legal[0] if bots[seat] is not None and legal else None
        if action is None:
            self.spares.give(state, version)
            return None
        return action, state

    def _a_bot_may_act(self) -> bool:
        """Whether a bot could act now: the seat to act is a bot's, or a bot's
        seat has an out-of-turn action (street's molodka). Asked of the table's
        state itself, so that no copy is made while people are to act."""
        state = self.state
        if not any(self.bots) or state.is_terminal() or state.is_chance_node():
            return False
        current = state.current_player()
        if self.bots[current] is not None:
            return True
        return any(a.seat != current and self.bots[a.seat] is not None for a in state.legal_actions())

    # ============================================================ clock
    def _clock_seat(self) -> int | None:
        """The seat whose decision is timed now: at a table with a time per move,
        in play, the seat to act when a person holds it and no bot plays for
        them (bots' seats and a dropped player's autoplay have no clock)."""
        if self.move_seconds is None or self.status != "playing":
            return None
        state = self.state
        if state.is_terminal() or state.is_chance_node():
            return None
        seat = state.current_player()
        if self.seats[seat].kind != "human" or self.bots[seat] is not None:
            return None
        return seat

    def _set_clock(self, glance: bool = False) -> None:
        """Keep the clock in step with the table (called after every change that
        may move the decision: a new version, a seat taken over by its bot or
        given back): the same seat at the same version keeps its deadline, and so
        does the same seat after an event that decides nothing (``glance``: a
        Spades look, the seat's own or another's, out of turn); anything else
        stops it and, if a person is to decide now, starts a fresh one — one
        ``call_later`` per table at most. A clock kept that has already run out
        (its own move was such a glance: the clock's look at a face-down hand)
        is due again at once: the decision is still to be made."""
        seat = self._clock_seat()
        clock = self.clock
        if clock is not None and seat == clock.seat and (clock.version == self.version or glance):
            if clock.version != self.version:
                clock.version = self.version
                if clock.handle is None:
                    self._clock_due = True
            return
        self._stop_clock()
        if seat is None:
            return
        seconds = float(self.move_seconds or 0)
        loop = asyncio.get_running_loop()
        self.clock = Clock(seat, self.version, time.monotonic() + seconds)
        self.clock.handle = loop.call_later(seconds, self._clock_over, self.clock)

    def _stop_clock(self) -> None:
        if self.clock is not None:
            self.clock.cancel()
        self.clock = None
        self._clock_due = False

    def _clock_over(self, clock: Clock) -> None:
        """The deadline passed: the driver decides for the seat (it is woken; the
        decision itself is made there, one change at a time like every other)."""
        clock.handle = None
        if clock is self.clock:
            self._clock_due = True
            self._wake.set()

    async def _clock_move(self) -> None:
        """Make the timed-out seat's decision with :func:`clock_bot`, from a
        detached copy of that seat's view only, chosen in a worker thread. It
        is committed (actor ``"clock"``) only if the table is still at the
        version it was chosen for and the seat still the person's to decide:
        a move the player made meanwhile wins, and the clock's is dropped."""
        self._clock_due = False
        if self.solver is not None and bots_use_solver(self):
            await self.solver.ready()   # the kernels first, not compiled here beside the child
        clock, seat = self.clock, self._clock_seat()
        if clock is None or seat != clock.seat or clock.version != self.version:
            return
        version = self.version
        view = json.loads(json.dumps(self.state.view(seat)))
        bot = clock_bot(self.row.game, f"{self.row.seed}/clock/{version}", self.settings)
        try:
            action = await asyncio.to_thread(clock_choice, bot, view)
        except Exception:  # a broken bot must not stall the table: the seat's first legal action
            log.exception("table %s: the clock's bot failed; playing seat %d's first legal action", self.id, seat)
            legal = [parse_action(self.game, text) for text in view.get("legal_actions", [])]
            legal = [a for a in legal if a.seat == seat]
            if not legal:
                return
            action = legal[0]
        async with self.lock:
            if not (self.version == version and self._clock_seat() == seat and getattr(action, "seat", None) == seat
                    and self.state.is_legal(action)):
                return
            before = self.timeout
            self.timeout = {"seat": seat, "version": version + 1, "action": str(action)}
            try:
                await self._commit_action(action, CLOCK_ACTOR, None)
            except BaseException:
                self.timeout = before
                if self.clock is clock:
                    self._clock_due = True   # not stored: the driver tries again
                raise

    def clock_json(self) -> dict[str, int] | None:
        """The running clock for a state message (``{"seat", "ms"}``), or ``None``."""
        return self.clock.json() if self.clock is not None else None

    def timeout_text(self) -> dict[str, Any] | None:
        """The decision the clock made for a seat, while it is the table's last
        change (``{"seat", "version", "action"}``; the action text before the
        view filter scrubs it for each recipient), else ``None``."""
        timeout = self.timeout
        return timeout if timeout is not None and timeout["version"] == self.version else None

    # ===================================================== connections
    async def attach(self, conn: Connection, token: str | None) -> int | None:
        """A client said hello with ``token`` (``None``: to watch): it is given the
        seat that token holds (``conn.seat``), its ``welcome`` and its snapshot, and
        everyone sees the seat connected; returns the seat. Raises
        :class:`LobbyError` (403) for a token that holds no seat, and then the
        connection is not attached; :class:`TableGone` when the registry let this
        object go since the connection looked it up (the page is in no hurry to say
        hello: a finished table nobody had open may leave memory, an abandoned
        lobby be closed, meanwhile), and the connection must look the table up again.

        Under the table's lock, like every change of the state: a stand-in bot's move
        being stored when its player comes back is finished first, so the snapshot is
        never one the table is already leaving (it showed "your turn", and the card the
        bot had chosen was played a moment later, by the bot, for a player seated again).
        The token is read under the lock too: read before it, a hello that waited
        behind its holder leaving the seat would attach the connection to that seat
        anyway, and it would be shown the cards of whoever sat there next.

        A connection whose client has left already (:meth:`Connection.gone`: its close
        came with its hello, or while the hello waited for the lock) raises
        :class:`ClientGone` and is not attached: attached, its seat was shown
        connected for a moment and then left, its grace period started over and a
        stand-in bot was sent away for another one, so a burst of dead reconnects
        (a page reloaded twice quickly) kept a player who dropped out from being
        replaced. Asked under the lock, the latest moment before the seat changes."""
        async with self.lock:
            if self.closed or self.unloaded:
                raise TableGone(self.id)
            if conn.gone():
                raise ClientGone(f"the client of a hello at table {self.id} has left")
            conn.seat = self.seat_of(token)
            conn.deliver(render(self, conn.seat, "welcome"))
            self._attach(conn)
            return conn.seat

    def _attach(self, conn: Connection) -> None:
        self.connections.add(conn)
        self.idle_since = None
        if conn.seat is None:
            conn.deliver(render(self, None, "state"))
            return
        seat = self.seats[conn.seat]
        seat.connections += 1
        if seat.timer is not None:
            seat.timer.cancel()
            seat.timer = None
        if seat.autoplay:
            seat.autoplay = False
            self.bots[seat.index] = None
            self._set_clock()   # back in their seat: their decision is timed again
            self._wake.set()
        self._seat_seen(seat, conn)

    def detach(self, conn: Connection) -> None:
        """A client left; a human seat left empty starts its grace period."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        if not self.connections:
            self.idle_since = time.monotonic()
        if conn.seat is None:
            return
        seat = self.seats[conn.seat]
        seat.connections -= 1
        if seat.connections == 0:
            seat.offline_since = time.monotonic()
        if seat.connections == 0 and seat.kind == "human" and self.status == "playing":
            self._dropped(seat)
        self._seat_seen(seat)

    def _seat_seen(self, seat: Seat, new: Connection | None = None) -> None:
        """After a connection of ``seat`` came (``new``) or went: everyone is told
        when the seat's first connection came or its last went — what the others
        see of it (``connected``, ``autoplay``) changed; otherwise only ``new``
        gets its snapshot. Another tab of a seat already connected changes nothing
        anyone sees, and telling every connection would make a burst of N tabs
        (a reconnect storm) cost N² messages."""
        if seat.connections == (1 if new is not None else 0):
            self.broadcast()
        elif new is not None:
            new.deliver(render(self, new.seat, "state"))

    def _dropped(self, seat: Seat) -> None:
        loop = asyncio.get_running_loop()
        seat.timer = loop.call_later(self.settings.grace_seconds, self._grace_over, seat.index)

    def _grace_over(self, index: int) -> None:
        seat = self.seats[index]
        seat.timer = None
        if seat.connections or seat.kind != "human" or self.status != "playing":
            return
        seat.autoplay = True
        self.bots[index] = table_bot(default_bot(self.row.game, self.settings), f"{self.row.seed}/autoplay/{index}",
                                     self.settings, self.row.game, stand_in=True)
        self._set_clock()   # the bot plays this seat now: no clock
        self._wake.set()
        self.broadcast()

    def broadcast(self, ack_seat: int | None = None, ack_id: str | None = None) -> None:
        """Send every connection its own state message (built by the view filter).
        A change nobody sees (a lobby changed over HTTP alone) still counts as
        the table being in use: its idle time starts again."""
        if not self.connections:
            self.idle_since = time.monotonic()
        texts: dict[tuple[int | None, bool], str] = {}
        for conn in list(self.connections):
            acked = ack_id is not None and conn.seat is not None and conn.seat == ack_seat
            key = (conn.seat, acked)
            if key not in texts:
                texts[key] = render(self, conn.seat, "state", ack=ack_id if acked else None)
            conn.deliver(texts[key])

    async def close(self) -> None:
        """Stop the driver, the grace timers and the move clock (server shutdown)."""
        for seat in self.seats:
            if seat.timer is not None:
                seat.timer.cancel()
        self._stop_clock()
        if self._driver is not None:
            self._driver.cancel()
            try:
                await self._driver
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - shutting down
                pass
            self._driver = None


def _bot_action(state: Any, bots: list[Bot | None]) -> Action | None:
    """The bots' move on ``state`` (a copy): the current seat's, if a bot holds
    it, else an out-of-turn claim by a bot (street's molodka), else ``None``."""
    if state.is_terminal() or state.is_chance_node():
        return None
    if bots[state.current_player()] is not None:
        return next_bot_action(state, bots)
    return out_of_turn_claim(state, bots)


class Tables:
    """Every table of a server: create, find, restore."""

    def __init__(self, settings: Settings, store: AsyncStorage, solver: SolverLoad | None = None) -> None:
        self.settings = settings
        self.store = store
        #: The solver's kernels loading (:mod:`goat.server.solverload`), shared
        #: by every table: the move of a bot that may use the solver waits for it.
        self.solver = solver
        self.tables: dict[str, Table] = {}
        self._loading = asyncio.Lock()
        self._rematching = asyncio.Lock()
        self._making = 0    # tables being made (stored, not yet in ``tables``): see _a_place

    async def create(self, game: str = "kozel", rules: str | None = None, options: dict[str, Any] | None = None,
                     players: int | None = None, seed: str | int | None = None, hints: bool = False,
                     move_seconds: Any = None, private: bool = False, chat: Any = DEFAULT_CHAT) -> Table:
        """A new table in its lobby, stored; raises :class:`LobbyError` for a bad game or rule.
        Without ``rules`` the game's first preset is played (Kozel's classic, Spades' standard);
        ``hints``: whether its players may ask for hints (stored only when on);
        ``move_seconds``: the time per move (``None``: none; stored only when set;
        anything but a whole number of seconds in range is refused, 400);
        ``private``: listed nowhere, found only by its link (stored only when on);
        ``chat``: ``"on"``, ``"lobby"`` or ``"off"`` (``goat.server.chat``; stored
        only when not ``"on"``; anything else is refused, 400)."""
        options = dict(options or {})
        try:
            move_seconds = check_move_seconds(move_seconds)
            chat = check_setting(chat)
        except (ClockSettingError, ChatSettingError) as exc:
            raise LobbyError(str(exc)) from None
        seed_text = str(seed) if seed is not None else str(secrets.randbits(63))
        if len(seed_text) > SEED_LIMIT:
            raise LobbyError(f"a seed has at most {SEED_LIMIT} characters")
        if unstorable(seed_text):   # NUL was a 503 on PostgreSQL, a lone surrogate a 500 on SQLite
            raise LobbyError("a seed is printable text (no control characters)")
        try:
            module = get_game(game)
        except GoatError as exc:
            raise rules_refusal(exc) from None
        rules = next(iter(module.PRESETS)) if rules is None else rules
        players = new_table_state(module, rules, options, players).num_players
        settings: dict[str, Any] = {"hints": True} if hints else {}
        if move_seconds is not None:
            settings["move_seconds"] = move_seconds
        if private:
            settings["private"] = True
        if chat != DEFAULT_CHAT:
            settings["chat"] = chat
        if seed is not None:    # whoever chose it can work out every deal: said to all (chosen_seed)
            settings["chosen_seed"] = True
        with self._a_place():
            row = TableRow(await self._new_id(), game, rules, options, players, seed_text, "lobby", settings)
            seats = [SeatRow(i) for i in range(players)]
            try:
                await self.store.create_table(row, seats)
            except StorageError as exc:
                raise LobbyError(str(exc), status=503) from None
            table = Table(row, seats, self.settings, self.store, solver=self.solver)
            self.tables[row.id] = table
        return table

    async def discard(self, table: Table) -> None:
        """Forget a table just made whose creator could not take their seat (a
        blank name, no such seat): refused, it must not stay behind as an
        ownerless lobby in the list of open tables."""
        async with table.lock:
            table.closed = True
            self.tables.pop(table.id, None)
            try:
                await self.store.delete_lobby_table(table.id)
            except StorageError as exc:
                log.error("table %s: the refused table could not be deleted: %s", table.id, exc)

    @contextmanager
    def _a_place(self) -> Iterator[None]:
        """A place for one more table in its lobby or in play (``max_tables``),
        held while it is made — its id drawn and its row stored, both awaited —
        and until it is in :attr:`tables`, where it counts itself. Counted from the
        tables in memory alone, requests that arrive together would each see the
        same free place while the others' tables are still being stored, and all
        be granted it. Raises :class:`LobbyError` 503 when the server is full."""
        if sum(t.status != "finished" for t in self.tables.values()) + self._making >= self.settings.max_tables:
            raise LobbyError("the server is full: too many tables in play; try again later", status=503,
                             say="serverFull")
        self._making += 1
        try:
            yield
        finally:
            self._making -= 1

    async def _new_id(self) -> str:
        while True:
            table_id = secrets.token_hex(5)
            if table_id not in self.tables and not await self.store.exists(table_id):
                return table_id

    async def rematch(self, old: Table, token: str | None) -> tuple[Table, int | None, str | None]:
        """Play finished table ``old`` again, for the player holding ``token``:
        returns the rematch table, the caller's seat in it and their new token
        (``None``, ``None`` when that seat is no longer free there: someone took
        it, or the rematch has started). The first call makes the table (same
        game, rules, options, settings such as hints and the time per move, players and bots, a new random seed, the human
        seats empty) and stores the link; later calls by any player of ``old``
        get the same table. Raises :class:`LobbyError`: 403 without a seat's
        token (a spectator, a wrong token), 409 while ``old`` is not finished,
        503 when the server is full or the database refuses."""
        if token is None:
            raise LobbyError("take a seat first: only the players of a table can play it again", status=403,
                             say="rematchSeat")
        seat = old.seat_of(token)
        assert seat is not None
        if old.status != "finished":
            raise LobbyError("the game is not over: a rematch comes after the match", status=409,
                             say="rematchNotOver")
        async with self._rematching:
            table = await self.get(old.rematch) if old.rematch is not None else None
            made = table is None
            if made:
                table = await self._make_rematch(old)
        try:
            mine = old.seats[seat]
            there = table.seats[seat]
            if table.status != "lobby" or there.kind != "empty":
                return table, None, None
            try:
                new_token = await table.take_seat(seat, mine.name, returning=True)
            except LobbyError as exc:
                if exc.status == 409:   # taken, or started, since we looked
                    return table, None, None
                raise
            await self._copy_own_data(old, table, seat, new_token)
            return table, seat, new_token
        finally:
            if made:   # told once its maker sits there: the others' pages name who made it
                old.broadcast()

    async def _make_rematch(self, old: Table) -> Table:
        """The rematch table of ``old``, stored together with the link (the old
        table's players are told where it is by :meth:`rematch`, once its maker sits there).
        A write that failed reads the stored link before it is called failed: a
        COMMIT whose answer was lost, and whose look failed too, did store a
        rematch, and every later one collided with its link (503) until a restart."""
        settings = {key: value for key, value in old.row.settings.items() if key != "chosen_seed"}  # a new random seed
        seats = [SeatRow(s.index, "bot", s.name, s.bot, None) if s.kind == "bot" else SeatRow(s.index)
                 for s in old.seats]
        with self._a_place():
            row = TableRow(await self._new_id(), old.row.game, old.row.rules, dict(old.row.options), old.row.players,
                           str(secrets.randbits(63)), "lobby", settings)
            try:
                await self.store.create_rematch(old.id, row, seats)
            except StorageError as exc:
                failed = LobbyError(str(exc), status=503)
            else:
                failed = None
                table = Table(row, seats, self.settings, self.store, solver=self.solver,
                              players_before={s.index: s.name for s in old.seats if s.kind == "human"},
                              rematch_of=old.id)
                self.tables[row.id] = table
        if failed is not None:
            found = await self._stored_rematch(old)
            if found is None:
                raise failed
            table = found
        old.rematch = table.id
        return table

    async def _stored_rematch(self, old: Table) -> Table | None:
        """The rematch of ``old`` that storage holds though its write was reported
        failed, loaded; ``None`` when there is none (or the database cannot say)."""
        try:
            link = await self.store.rematch_of(old.id)
            found = await self.get(link) if link is not None else None
        except StorageError:
            return None
        if found is not None:
            log.warning("table %s: a rematch's write was reported failed, but its table %s is stored: using it",
                        old.id, found.id)
        return found

    @staticmethod
    async def _copy_own_data(old: Table, table: Table, seat: int, token: str) -> None:
        """Give the caller's own private data at ``old`` (a Yu-Gi-Oh! deck) to
        their seat at ``table``: only theirs, since only they asked. It is
        checked again as any upload is; one the game no longer accepts is left
        behind with a warning (the player can upload another in the lobby)."""
        data = old.seat_data.get(seat)
        if data is None or not table.takes_seat_data:
            return
        try:
            await table.set_seat_data(seat, token, data)
        except LobbyError as exc:
            log.warning("table %s: seat %d's deck was not taken to the rematch %s: %s", old.id, seat, table.id, exc)

    async def get(self, table_id: str) -> Table | None:
        """The table, from memory or (finished tables) from storage."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not _looks_like_id(table_id):
            return None
        async with self._loading:
            if table_id in self.tables:
                return self.tables[table_id]
            stored = await self.store.load(table_id)
            if stored is None:
                return None
            return await self._restore(stored)

    async def restore_all(self) -> int:
        """Bring back every unfinished table (server start); returns how many.
        Play resumes at each of them only once every table is back (the server
        opens then): see below."""
        restored_tables: list[Table] = []
        for stored in await self.store.load_active():
            if stored.table.id in self.tables:
                continue
            try:
                restored = await self._restore(stored, resume=False)
            except StorageError as exc:   # one table's write failed: the others still come back
                log.error("table %s is not restored now: %s; it is loaded again when someone opens it",
                          stored.table.id, exc)
                continue
            if restored is not None:
                restored_tables.append(restored)
        # Every seat's grace, and a pending decision's fresh clock, count from the
        # server's start, not from its table's turn in a restore that replays every
        # match: started as each table came back, the seats of one brought back
        # before a minute of replays could be freed (a lobby) or handed to their bot
        # (in play), and its clock run out, as soon as the server opened, before
        # their holders' pages could reconnect.
        started = time.monotonic()
        for table in restored_tables:
            for seat in table.seats:
                seat.offline_since = started
            if table.status == "playing":
                table._begin_play()
        return len(restored_tables)

    async def _restore(self, stored: StoredTable, resume: bool = True) -> Table | None:
        """Rebuild ``stored`` and register it; a table in play resumes (bots, grace
        timers, clock) unless ``resume`` is false: :meth:`restore_all` resumes
        every table at once when all are back."""
        try:
            data = {seat: json.loads(text) for seat, text in stored.seat_data.items()}
            if stored.table.status == "lobby" and data:
                data = await self._usable_seat_data(stored, data)
            table = await asyncio.to_thread(self._rebuilt, stored, data)
        except (GoatError, ValueError) as exc:
            log.error("table %s cannot be restored: %s", stored.table.id, exc)
            return None
        if table.status == "playing" and table.state.is_terminal():
            # Finished but not marked so (data from before the final event carried
            # the record): write the record now. Before the table is registered: if
            # the write fails (StorageError), nothing of it stays in memory, and the
            # next open or start tries again.
            await self.store.finish(table.id, table.record_of(table.state))
            table.status = "finished"
        self.tables[table.id] = table
        if table.status == "playing" and resume:
            table._begin_play()
        return table

    def _rebuilt(self, stored: StoredTable, data: dict[int, Any]) -> Table:
        """The table ``stored`` as its events leave it, made in a worker thread
        (:meth:`_restore`): replaying a long match through the engine takes a
        while — about a tenth of a second for a Yu-Gi-Oh! match of three duels —
        and a finished table is loaded again whenever someone opens it, so on
        the event loop every opened record, score sheet or finished game would
        stop every table of the server for as long. The table is nobody's yet
        (not in :attr:`tables`): nothing else touches it meanwhile."""
        table = Table(stored.table, stored.seats, self.settings, self.store, data, stored.rematch,
                      solver=self.solver, players_before=stored.players_before, rematch_of=stored.rematch_of)
        table.replay(stored.events)
        return table

    async def _usable_seat_data(self, stored: StoredTable, data: dict[int, Any]) -> dict[int, Any]:
        """The stored private data (decks) of a table still in the lobby that
        its game still accepts. One it refuses now — a card renamed or banned
        in a newer version — is dropped, from storage too, with a warning,
        so that the table comes back and that player can upload again,
        instead of the whole table failing to load. (A table already playing
        keeps what it was dealt from: its events replay only onto that.)"""
        game = get_game(stored.table.game)
        usable = {}
        for seat, obj in data.items():
            try:
                game.seat_data_from_json(stored.table.rules, stored.table.options, obj)
            except (GoatError, ValueError) as exc:
                log.warning("table %s: seat %d's stored deck is no longer accepted and is dropped: %s",
                            stored.table.id, seat, exc)
                await self.store.set_seat_data(stored.table.id, seat, None)
                continue
            usable[seat] = obj
        return usable

    # ====================================================== housekeeping
    async def sweep(self, now: float | None = None) -> tuple[int, int]:
        """Close every abandoned lobby and let every finished table nobody is
        looking at leave memory; returns how many of each. "Nobody is looking":
        no connection since ``idle_since`` for ``Settings.lobby_idle`` /
        ``finished_idle`` seconds (0: never). A table in play is never touched:
        its bots, or the bots of dropped players, play it to the end. ``now``:
        a ``time.monotonic()`` reading (tests pass their own)."""
        now = time.monotonic() if now is None else now
        closed = unloaded = 0
        for table in list(self.tables.values()):
            if table.connections or table.idle_since is None:
                continue
            idle = now - table.idle_since
            if table.status == "lobby" and 0 < self.settings.lobby_idle <= idle:
                closed += int(await self._close_lobby(table, table.idle_since))
            elif table.status == "finished" and 0 < self.settings.finished_idle <= idle:
                # before any await: a hello arriving meanwhile looks it up again, and finds
                # it loaded anew from storage, not this object
                table.unloaded = True
                if self.tables.get(table.id) is table:
                    del self.tables[table.id]
                await table.close()
                unloaded += 1
        return closed, unloaded

    async def _close_lobby(self, table: Table, idle_since: float) -> bool:
        """Delete an abandoned lobby (memory and storage) unless someone came
        back meanwhile or changed it since it was judged idle (``idle_since``, its
        idle time's start then: a seat taken over HTTP while this waited for the
        lock must not be handed a token to a deleted table); a finished table
        whose rematch it was may then be played again anew (its link is gone with it)."""
        async with table.lock:
            if table.connections or table.status != "lobby" or table.idle_since != idle_since:
                return False
            try:
                deleted = await self.store.delete_lobby_table(table.id)
            except StorageError as exc:
                log.error("table %s: the abandoned lobby could not be deleted: %s", table.id, exc)
                return False
            if not deleted:
                return False
            table.closed = True
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
        log.info("table %s: closed after %.0f s with nobody in its lobby", table.id, self.settings.lobby_idle)
        for old in self.tables.values():
            if old.rematch == table.id:
                old.rematch = None
                old.broadcast()
        return True

    async def sweep_forever(self) -> None:
        """Run :meth:`sweep` every little while (a quarter of the shorter idle
        time, at most every 30 s) until cancelled (server shutdown)."""
        idles = [s for s in (self.settings.lobby_idle, self.settings.finished_idle) if s > 0]
        if not idles:
            return
        every = min(30.0, max(0.05, min(idles) / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:  # noqa: BLE001 - housekeeping must never stop the server
                log.exception("table housekeeping failed; trying again later")

    def listing(self) -> list[dict[str, Any]]:
        """Tables people can join or watch, newest first (a private table is
        never listed: only its link leads to it)."""
        return [{"id": t.id, **t.public()} for t in reversed(list(self.tables.values()))
                if t.status != "finished" and not t.private]

    async def close(self) -> None:
        for table in self.tables.values():
            await table.close()


def _looks_like_id(text: str) -> bool:
    return 1 <= len(text) <= 32 and all(ch in "0123456789abcdef" for ch in text)


@functools.cache
def game_catalog() -> list[dict[str, Any]]:
    """The games, rulesets and player counts a table may be created with, found
    through the protocol alone (a player count is offered if ``new_state`` takes it).

    Each ruleset also lists its option values for each player count
    (``options["4"]``; a preset's values may depend on the count, as Kozel's
    full hand does; only the options that can matter at that count, where the
    rules say so with ``seats_allow(option)``), and each game the allowed values of its enumerated options
    (``choices``) and which options can matter only under some values of others
    (``needs``, the module's ``OPTION_NEEDS``: other option → its values, all of
    them, or a list of such, any one of them; the form shows such an option's row
    only while the values chosen meet them, and sends no hidden row) and what such
    an option is forced to where it cannot matter (``fallbacks``, the module's
    ``OPTION_FALLBACKS``: Kozel street's no permanent trumps, which the form counts
    as the hidden row's value, so the jacks' order hides with it): the page builds its option form from these instead of
    knowing any game's options itself; ``own_deck``: whether players may bring
    their own deck (the module has ``seat_data_from_json``); each ruleset's
    ``bot_levels``: how strong each table bot plays there, weakest first
    (:func:`goat.server.botlevels.bot_levels`), which the lobby's bot choice words.
    Options are the ruleset's public settings, never cards, so they may be shown to anyone."""
    catalog = []
    for name in GAMES:
        module = get_game(name)
        presets = []
        for preset in module.PRESETS:
            default = module.new_state(rules=preset).num_players
            counts: list[int] = []
            options: dict[str, dict[str, Any]] = {}
            for players in range(2, 9):
                try:
                    state = module.new_state(rules=preset, players=players)
                except GoatError:
                    continue
                counts.append(players)
                options[str(players)] = option_values(state)
            presets.append({"name": preset, "players": counts, "default_players": default, "options": options,
                            "bot_levels": bot_levels(name, preset, table_bots(name))})
        choices = {key: list(values) for key, values in getattr(module, "CHOICES", {}).items()}
        needs = json.loads(json.dumps(getattr(module, "OPTION_NEEDS", {})))   # the rules' shape, its tuples lists
        catalog.append({"name": name, "rules": presets, "choices": choices, "needs": needs,
                        "fallbacks": dict(getattr(module, "OPTION_FALLBACKS", {})), "bots": table_bots(name),
                        "own_deck": hasattr(module, "seat_data_from_json")})
    return catalog


@functools.lru_cache(maxsize=None)
def card_catalog_json(game: str) -> tuple[bytes, str]:
    """The JSON of ``game``'s card catalog (its module's ``card_catalog()``,
    public reference data: what is printed on each card of the pool) and an
    ETag for it; computed once a process, since the pool is fixed. Raises
    :class:`LobbyError` 404 for an unknown game or a game without one (the card
    games' cards say all there is on their faces)."""
    try:
        module = get_game(game)
    except GoatError:
        raise LobbyError(f"there is no game {game[:40]!r}", status=404) from None
    catalog = getattr(module, "card_catalog", None)
    if catalog is None:
        raise LobbyError(f"the game {game} has no card catalog", status=404)
    body = json.dumps({"game": game, "cards": catalog()}, ensure_ascii=False, sort_keys=True).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def new_table_state(module: Any, rules: str, options: dict[str, Any], players: int | None) -> Any:
    """A fresh state of ``module``'s preset ``rules`` with ``options`` and
    ``players``, as a table would play it. Raises :class:`LobbyError` (one line,
    the engine's reason) for an unknown ruleset or a bad option."""
    try:
        return module.new_state(rules=rules, options=options, players=players)
    except GoatError as exc:
        raise rules_refusal(exc) from None
    except (TypeError, ValueError) as exc:
        raise rules_refusal(RulesError(f"bad option value: {exc}", "badOptionValue")) from None


def rules_refusal(exc: GoatError) -> LobbyError:
    """The refusal of a table the engine refused with ``exc``: its one line, and
    where it is a :class:`~goat.protocol.RulesError` with a ``kind``, that kind as
    ``say`` and its ``args`` (the page words it as ``rulesErrors.<kind>``, as it
    words a deck's problems: :func:`seat_data_refusal`)."""
    kind = getattr(exc, "kind", None)
    return LobbyError(str(exc), say=kind, **getattr(exc, "say_args", {})) if kind else LobbyError(str(exc))


def option_values(state: Any) -> dict[str, Any]:
    """The JSON-able option values of a new state's ruleset, without the player
    count (the catalog lists that apart) and without those that cannot matter at
    it whatever the other options (where the rules say so with ``seats_allow(option)``:
    Kozel's exchanges with a partner in individual play, ``match_loser`` but with
    three players; an option that needs other values is kept, the form shows it
    while they hold); ``{}`` for a ruleset that cannot say."""
    rules = getattr(state, "rules", None)
    values = rules.options() if callable(getattr(rules, "options", None)) else {}
    seats_allow = getattr(rules, "seats_allow", lambda _option: True)
    return {key: value for key, value in values.items() if key != "players" and seats_allow(key)
            and (value is None or isinstance(value, (bool, int, float, str)))}
