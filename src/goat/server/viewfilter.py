"""The one gate every message to a client passes through.

A client is a seat (``0..n-1``) or a spectator (``None``). Whatever the server
says to it — the welcome, every state update, reconnect snapshots, errors — is
built here by :func:`render`, and game information comes from one source only:
the game's own ``view(seat)`` (a spectator gets ``view(None)``, public facts
only). The server never serialises the state itself.

Free text that can mention cards (the engine's refusal reasons) is scrubbed
against the same view: a card name the recipient cannot see in its view, and
did not write itself, is replaced by ``?``. Cards in the project's notation
("9H") are found by :data:`CARD_TOKEN`; a game whose cards have names (Yu-Gi-Oh!'s
"Mirror Force") lists them with its module's ``card_names()``, and those are
found too (:func:`names_pattern`). Engine reasons only ever speak of the acting
seat's own cards, so this is a second line of defence, not the first;
``tests/server/test_no_leak.py`` checks every message of many games.
"""

from __future__ import annotations

import functools
import json
import re
from typing import TYPE_CHECKING, Any

from goat.games import get_game

if TYPE_CHECKING:  # pragma: no cover
    from goat.server.tables import Table

#: A card in the project's notation as a word of its own ("9H", "TH", "10H", "QC",
#: and Spades' jokers "LJ" and "BJ").
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:(?:10|[2-9TJQKA])[CDHS]|[LB]J)(?![A-Za-z0-9])")


def cards_in(text: str) -> set[str]:
    """Every card named in ``text`` (``"10H"`` counts as ``"TH"``)."""
    return {_norm(m) for m in CARD_TOKEN.findall(text)}


def _norm(token: str) -> str:
    return "T" + token[2:] if token.startswith("10") else token


def redact(text: str, known: set[str]) -> str:
    """``text`` with every card not in ``known`` replaced by ``?``."""
    return CARD_TOKEN.sub(lambda m: m.group(0) if _norm(m.group(0)) in known else "?", text)


@functools.cache
def names_pattern(game: str) -> re.Pattern[str] | None:
    """A pattern matching every card name of ``game`` as words of their own
    (longest first, so "Black Luster Soldier - Envoy of the Beginning" is one
    name, not "Black Luster Soldier" and more), or ``None`` for a game whose
    cards are written as tokens (Kozel, Spades: :data:`CARD_TOKEN`)."""
    names = getattr(get_game(game), "card_names", None)
    if names is None:
        return None
    alternatives = "|".join(re.escape(name) for name in sorted(names(), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def names_in(text: str, pattern: re.Pattern[str] | None) -> set[str]:
    """Every card name of ``pattern`` in ``text``."""
    return set(pattern.findall(text)) if pattern is not None else set()


def redact_names(text: str, known: set[str], pattern: re.Pattern[str] | None) -> str:
    """``text`` with every card name of ``pattern`` not in ``known`` replaced by ``?``."""
    if pattern is None:
        return text
    return pattern.sub(lambda m: m.group(0) if m.group(0) in known else "?", text)


def view_for(table: "Table", seat: int | None) -> dict[str, Any] | None:
    """The game's view for the recipient, or ``None`` while the table is a lobby."""
    if table.status == "lobby":
        return None
    return table.state.view(seat)


def scrub(table: "Table | None", view: dict[str, Any] | None, text: str, echoed: str = "") -> str:
    """``text`` with every card (token or name) that neither ``view`` (the
    recipient's) nor ``echoed`` (what the recipient wrote itself) names
    replaced by ``?``: for free text that can mention cards (an engine's
    refusal, a move the clock made for a seat)."""
    seen = json.dumps(view, ensure_ascii=False) if view is not None else ""
    names = names_pattern(table.row.game) if table is not None else None
    text = redact(text, cards_in(seen) | cards_in(echoed))
    return redact_names(text, names_in(seen, names) | names_in(echoed, names), names)


def seen_action(view: dict[str, Any] | None, seat: int | None, acted: int, text: str) -> str:
    """The move ``text`` that seat ``acted`` just made (the clock's, the table's
    last change), as the recipient ``seat`` was shown it: the whole text to the
    seat that made it; to anyone else the newest entry of ``acted`` in the
    recipient's own ``history`` (Yu-Gi-Oh!'s ``"act "`` taken off), which the
    game wrote for that recipient — ``"2 pass ?+?"``, ``"1 set ?spell"``.

    Why not the text scrubbed: :func:`scrub` keeps every card the recipient's
    view names *anywhere*, and a card can be named there without this move being
    public — a Yu-Gi-Oh! player's own deck list names the very cards the other
    seat Sets face down in a mirror match, a Kozel trump card shown to all may be
    passed face down — so the scrubbed text said what was Set or passed. A view
    without such an entry gets ``"<seat> ?"`` (the page words it as hidden)."""
    if seat == acted:
        return text
    for entry in reversed((view or {}).get("history") or []):
        entry = entry.removeprefix("act ")
        if entry.startswith(f"{acted} "):
            return entry
    return f"{acted} ?"


def render(table: "Table | None", seat: int | None, kind: str, **fields: Any) -> str:
    """The JSON text of one message of ``kind`` for the recipient ``seat``.

    Kinds: ``welcome`` (role and seat), ``state`` (public table info and the
    recipient's view; ``since``: the version since which the recipient's
    position stands, :meth:`~goat.server.tables.Table.standing_since` — a hint
    computed at any version from it on is current; ``ack`` names the recipient's action that produced it;
    ``clock``: the seat whose time per move runs and its milliseconds left, or
    ``None``; ``timeout``: the move the clock just made for a seat as the
    recipient was shown it (:func:`seen_action`), scrubbed too of
    cards the recipient may not know, while it is the table's last change),
    ``error`` (``code``, ``message``; ``echoed`` is the text the client sent,
    whose cards it may hear back), ``pong``; ``chat`` (one chat message, ``chat``:
    its ``seat``, ``name``, ``text``, ``at``, ``n``) and ``chat-log`` (``messages``,
    the recent ones), the same for every recipient: people's own words,
    passed on as they wrote them (``goat.server.chat``).
    """
    message: dict[str, Any] = {"type": kind}
    if table is not None:
        message["table"] = table.id
        message["version"] = table.version
    if kind == "welcome":
        message["seat"] = seat
        message["role"] = "spectator" if seat is None else "player"
    elif kind == "state":
        message["seat"] = seat
        message.update(table.public() if table is not None else {})
        message["view"] = view_for(table, seat) if table is not None else None
        if table is not None:
            message["since"] = table.standing_since(seat)
            message["clock"] = table.clock_json()
            timeout = table.timeout_text()
            if timeout is not None:
                shown = seen_action(message["view"], seat, timeout["seat"], timeout["action"])
                message["timeout"] = {**timeout, "action": scrub(table, message["view"], shown)}
        if fields.get("ack") is not None:
            message["ack"] = fields["ack"]
    elif kind == "error":
        view = view_for(table, seat) if table is not None else None
        message["code"] = str(fields["code"])
        message["message"] = scrub(table, view, str(fields["message"]), fields.get("echoed") or "")
        if fields.get("id") is not None:
            message["id"] = fields["id"]
    elif kind == "chat":
        message.update({key: fields["chat"][key] for key in ("seat", "name", "text", "at", "n")})
    elif kind == "chat-log":
        message["messages"] = fields["messages"]
    elif kind != "pong":
        raise ValueError(f"unknown message kind {kind!r}")
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
