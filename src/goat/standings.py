"""Club standings: per person, the matches played, won, lost and drawn — and in
Kozel how often they were the goat (козёл: the side that lost the match).

A club night's organiser has the finished games (the server's
``Storage.finished_results``, or any list of records) and wants to announce who
did best. This module is the one place that turns a finished game's short
result (:func:`goat.scoresheet.final_result`, the same form the home page's
"Finished games" list shows) into a win, loss or draw per seat, and adds those
up per person. It is pure: no database, no clock, so the server's JSON and CSV
and the tests all read the same rows.

Who won:

* Kozel with partnerships (four seats, sides ``0+2`` and ``1+3``): every person
  on the side that is not the goat wins; both on the goat side lose.
* Kozel each for themselves (``full-hand`` with 2 or 3 players): the goat is the
  one seat that reached the match target; every other seat wins. An individual
  royal goat ends the match with a ``winner`` and no goat: that seat wins, the
  others lose (each of them counts as a goat: a lost match).
* Spades: the winning team's two seats win; a match without a winner is drawn.
* Yu-Gi-Oh!: the winner of the match; ``winner: null`` is a draw.

Names are free text (there are no accounts), so they are grouped with case and
surrounding or repeated spaces folded (``" anna  K "`` is ``"Anna K"``), and a
name longer than the table server keeps is cut as it would cut it
(:mod:`goat.names`: one person typing one long name at the server and in
``goat play --name`` is one row); a row shows the spelling of the most recent game. Bots are not people: their seats
are left out unless asked for, and then grouped per bot as ``"heuristic (bot)"``.
A name (or a bot) at two seats of one game counts once per outcome: two
partnered ``heuristic`` seats won one match, not two; ``heuristic`` against
``heuristic`` won one and lost one.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Literal, Protocol

from goat.names import fold_name, stored_name

Outcome = Literal["won", "lost", "drawn"]

#: The CSV's header, in order (``goats``: Kozel matches lost).
CSV_COLUMNS = ["place", "name", "bot", "played", "won", "lost", "drawn", "goats", "win rate"]


class StandingsError(ValueError):
    """A finished game this module cannot score (one line)."""


class SeatLike(Protocol):
    """What a seat must have: ``goat.server.storage.SeatRow`` has it."""

    seat: int
    kind: str
    name: str
    bot: str | None


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def moment(name: str, value: str, end_of_day: bool = False) -> datetime:
    """A ``since``/``until`` filter as an organiser writes it: ``YYYY-MM-DD``
    (a UTC day; with ``end_of_day``, as ``until``, through its end) or an ISO
    8601 moment (``2025-03-01T00:00:00+03:00``, ``...Z``; without an offset:
    UTC). The server's query and ``goat standings`` read it alike; a bad one is
    a one-line :class:`StandingsError` naming ``name``.

    >>> moment("until", "2025-03-01", end_of_day=True).isoformat()
    '2025-03-02T00:00:00+00:00'
    """
    text = value.strip().replace(" ", "+")   # a "+" sent unencoded in a query string arrives as a space
    try:
        if _DATE.fullmatch(text):
            day = date.fromisoformat(text)
            return datetime.combine(day + timedelta(days=1) if end_of_day else day, time(), timezone.utc)
        when = datetime.fromisoformat(text)
        when = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
        when.astimezone(timezone.utc)   # games are stored and compared in UTC: it must be a UTC moment too
        return when
    except ValueError:
        raise StandingsError(f"{name}: a date YYYY-MM-DD or an ISO 8601 time such as 2025-03-01T18:00:00+03:00, "
                             f"not {value[:40]!r}") from None
    except OverflowError:   # the day after 9999-12-31, or 0001-01-01 east of UTC: not a moment Python can hold
        raise StandingsError(f"{name}: {value[:40]!r} is out of range (years 1 to 9999, in UTC)") from None


@dataclass
class FinishedGame:
    """One finished game as the standings need it: its game, seat count, seats
    (``kind`` ``"human"`` or ``"bot"``) and its :func:`~goat.scoresheet.final_result`.
    ``finished_at`` decides which spelling of a name is the most recent."""

    game: str
    players: int
    seats: Sequence[SeatLike]
    result: dict[str, Any]
    finished_at: datetime | None = None


@dataclass
class Standing:
    """One person's (or one bot's) line of the table."""

    key: str
    name: str
    bot: str | None = None
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    goats: int = 0
    #: (finished_at, position) of the game whose spelling ``name`` is.
    _seen: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    @property
    def win_rate(self) -> float:
        """Matches won per match played (0 without any)."""
        return self.won / self.played if self.played else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "played": self.played, "won": self.won, "lost": self.lost,
                "drawn": self.drawn, "goats": self.goats, "win_rate": round(self.win_rate, 4)}


#: What a spreadsheet reads as the start of a formula (OWASP's "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """A free-text CSV cell (a player's name, a table id) as a spreadsheet shows it
    and never runs it: one beginning like a formula gets a leading apostrophe, which
    Excel and LibreOffice read as "text follows" — a name typed in the lobby as
    ``=HYPERLINK("http://…")`` was a live link in the organiser's sheet.

    >>> print(spreadsheet_text('=HYPERLINK("http://x")'), spreadsheet_text("-Anna-"), spreadsheet_text("Anna"))
    '=HYPERLINK("http://x") '-Anna- Anna
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def seat_outcomes(game: str, players: int, result: dict[str, Any]) -> list[Outcome]:
    """Each seat's outcome of a finished game from its short ``result``
    (:func:`goat.scoresheet.final_result`); :class:`StandingsError` for a game
    this module does not know."""
    if game == "kozel":
        sides = len(result.get("penalty") or []) or players
        partnerships = sides == 2 and players == 4
        side_of = [seat % 2 if partnerships else seat for seat in range(players)]
        goat, winner = result.get("goat"), result.get("winner")
        if goat is not None:
            return ["lost" if side == goat else "won" for side in side_of]
        if winner is not None:
            return ["won" if side == winner else "lost" for side in side_of]
        return ["drawn"] * players
    if game == "spades":
        winner = result.get("winner")
        return ["drawn" if winner is None else "won" if seat % 2 == winner else "lost" for seat in range(players)]
    if game == "yugioh":
        winner = result.get("winner")
        return ["drawn" if winner is None else "won" if seat == winner else "lost" for seat in range(players)]
    raise StandingsError(f"no standings for the game {game[:40]!r}")


def standings(games: Iterable[FinishedGame], bots: bool = False) -> list[Standing]:
    """The standings of ``games``: one row a person (or, with ``bots``, a bot),
    best first — most wins, then the higher win rate, then the name."""
    tally = StandingsTally(bots)
    for finished in games:
        tally.add(finished)
    return tally.rows()


class StandingsTally:
    """:func:`standings` kept one finished game at a time: what ``goat standings``
    adds up from a file of millions of records holds a row a person, not the games.

    ``games`` counts the games added, ``kinds`` names their games (``"kozel"``, ...)."""

    def __init__(self, bots: bool = False) -> None:
        self.bots = bots
        self.games = 0
        self.kinds: set[str] = set()
        self._rows: dict[str, Standing] = {}

    def add(self, finished: FinishedGame) -> None:
        """Count one more finished game (a later one: its spelling of a name wins
        over earlier ones' when neither or both say when they ended)."""
        outcomes = seat_outcomes(finished.game, finished.players, finished.result)
        seen = (finished.finished_at is not None, finished.finished_at or 0, self.games)
        self.games += 1
        self.kinds.add(finished.game)
        counted: set[tuple[str, Outcome]] = set()
        for seat in finished.seats:
            if not 0 <= seat.seat < len(outcomes):
                continue
            if seat.kind == "bot":
                if not self.bots or not seat.bot:
                    continue
                key, name, bot = f"bot:{seat.bot}", f"{seat.bot} (bot)", seat.bot
            elif seat.kind == "human" and stored_name(seat.name):
                key, name, bot = f"person:{fold_name(seat.name)}", stored_name(seat.name), None
            else:
                continue
            outcome = outcomes[seat.seat]
            if (key, outcome) in counted:   # two partnered seats of one bot (or one name): one match
                continue
            counted.add((key, outcome))
            row = self._rows.get(key)
            if row is None:
                row = self._rows[key] = Standing(key, name, bot, _seen=seen)
            elif seen > row._seen:
                row.name, row._seen = name, seen
            row.played += 1
            setattr(row, outcome, getattr(row, outcome) + 1)
            if outcome == "lost" and finished.game == "kozel":
                row.goats += 1

    def rows(self) -> list[Standing]:
        """The standings so far, best first."""
        return sorted(self._rows.values(), key=lambda r: (-r.won, -r.win_rate, r.name.casefold(), r.key))


def standings_csv(rows: Sequence[Standing]) -> str:
    """The standings as CSV: a header, one row a person, place by place (equal
    wins and win rate share a place). Lines end with CRLF (RFC 4180); the
    caller adds a BOM where a spreadsheet needs one. A name that begins like a
    formula is written as text (:func:`spreadsheet_text`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for place, row in zip(places(rows), rows):
        writer.writerow([place, spreadsheet_text(row.name), spreadsheet_text(row.bot or ""), row.played, row.won,
                         row.lost, row.drawn, row.goats, f"{row.win_rate:.3f}"])
    return out.getvalue()


def places(rows: Sequence[Standing]) -> list[int]:
    """Each row's place: 1, 2, 2, 4 — rows with equal wins and win rate share one."""
    answer: list[int] = []
    for index, row in enumerate(rows):
        tied = index and (row.won, row.win_rate) == (rows[index - 1].won, rows[index - 1].win_rate)
        answer.append(answer[-1] if tied else index + 1)
    return answer
