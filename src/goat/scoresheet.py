"""Score sheets: each deal (or duel) of a replayed record, as a club organiser
keeps it on paper, with the running totals.

This is the one place the per-deal summary is made. ``goat replay`` prints it
as text, ``goat replay --csv`` writes it as CSV (:func:`sheets_csv`), and the
table server serves the same CSV for a table (``GET /api/tables/{id}/scoresheet.csv``)
and the short final result of a finished game in its lobby (:func:`final_result`):
running totals, notes and side labels are computed here only, from the
engine's own ``result`` object and the replay's :class:`~goat.records.DealReport`
(dealer, trump, the actions of each deal), so no format can disagree with another.

A *side* is a team (seats 0+2 and 1+3, labelled ``"0+2"`` and ``"1+3"``) in
4-seat partnership play, else one seat (``"0"``, ``"1"``, ...).
"""

from __future__ import annotations

import csv
import io
import pickle
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from goat.games.spades.scoring import bag_penalties, bag_penalty_words
from goat.records import DealReport, ReplayOutcome, seat_label
from goat.standings import spreadsheet_text

#: What a Kozel deal's end says in the notes column (a deal played out says nothing).
ENDED_NOTES = {
    "shamok-caught-queen": "shamok caught the queen of clubs",
    "royal-goat": "royal goat",
    "annulled": "annulled",
    "unfinished": "unfinished",
}

#: The notes of the ``eggs="double-next"`` house rule: the tie that sets the next
#: decided deal's penalty doubled, and the deal whose penalty was doubled (a 4 in
#: ``flat2`` that the points alone do not explain).
EGGS_NOTES = {"tie": "eggs: the next penalty is doubled", "doubled": "penalty doubled (eggs)"}


class SheetError(ValueError):
    """Records that cannot share one CSV (one line)."""


@dataclass
class KozelRow:
    """One Kozel deal: per side its card points, tricks, the penalty points it
    gained and its penalty total after the deal."""

    number: int
    dealer: int | None
    trump_suit: str | None
    trump_card: str | None
    ended_by: str
    points: list[int]
    tricks: list[int]
    penalty: list[int]
    totals: list[int]
    winner_side: int | None
    molodkas: int
    #: Under ``eggs="double-next"``: ``"tie"`` (this deal doubles the next
    #: decided one) or ``"doubled"`` (this deal's penalty was doubled); else ``None``.
    eggs: str | None = None

    @property
    def eggs_notes(self) -> list[str]:
        return [EGGS_NOTES[self.eggs]] if self.eggs else []

    @property
    def notes(self) -> list[str]:
        notes = [ENDED_NOTES[self.ended_by]] if self.ended_by in ENDED_NOTES else []
        notes += self.eggs_notes
        if self.molodkas:
            notes.append("molodka" if self.molodkas == 1 else f"{self.molodkas} molodkas")
        return notes


#: What a Spades deal's notes say of a team that reneged — failed to follow suit under
#: ``renege_penalty`` — so that a score of -60 after 13 tricks reads as the penalty it is.
RENEGE_NOTE = "0 for the deal and -10 a bid trick"


@dataclass
class SpadesRow:
    """One Spades deal. ``kind``: ``"scored"``, ``"redeal"`` (a weak hand was
    shown; nothing scored) or ``"unfinished"`` (the record stops in it).
    ``bids`` and ``tricks`` are per seat, the rest per team."""

    number: int
    dealer: int | None
    kind: str
    bids: list[str | None]
    tricks: list[int]
    score: list[int]
    bags: list[int]
    totals: list[int]
    #: The bag penalties each team's ``score`` holds, named (``"-100 for 10 bags"``), or ``None``.
    bag_penalty: list[str | None] = field(default_factory=lambda: [None, None])
    #: The teams that failed to follow suit (``renege_penalty``): their score is the penalty.
    reneged: tuple[int, ...] = ()

    def team_bid(self, team: int) -> str:
        """The team's bids as written, ``"3+nil"`` (``-``: not bid yet; blank
        for a redeal, where nobody bid)."""
        if self.kind == "redeal":
            return ""
        return "+".join("-" if b is None else str(b) for b in self.bids[team::2])

    def team_tricks(self, team: int) -> int:
        return sum(self.tricks[team::2])

    @property
    def notes(self) -> list[str]:
        if self.kind == "redeal":
            seat = self.bids.index("redeal")
            return [f"redeal: seat {seat} showed a weak hand"]
        if self.kind == "unfinished":
            return ["unfinished"]
        return ([f"seats {team}+{team + 2} reneged: {RENEGE_NOTE}" for team in self.reneged]
                + [f"seats {team}+{team + 2}: {paid}" for team, paid in enumerate(self.bag_penalty)
                   if paid is not None])


@dataclass
class DuelRow:
    """One Yu-Gi-Oh! duel of a match."""

    number: int
    first: int | None
    winner: int | None
    reason: str
    turns: int | None
    lp: list[int]

    @property
    def notes(self) -> list[str]:
        return []


@dataclass
class ScoreSheet:
    """A record's score sheet: its rows (completed deals or duels, and an
    unfinished last deal where the record stops in one) and how it ended."""

    game: str
    rules: str
    table: str | None
    sides: list[str]
    rows: list[Any] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    #: Who sat at each seat (:func:`goat.records.seat_label`), when the record says.
    seats: list[str] | None = None

    def players(self, side: str) -> str:
        """The names at a side (``"0+2"``: seats 0 and 2), ``""`` when the record names nobody.

        >>> ScoreSheet("kozel", "classic", None, ["0+2", "1+3"], seats=["Anna", "Boris", "Vera", "Gleb"]).players("0+2")
        'Anna, Vera'
        """
        if self.seats is None:
            return ""
        return ", ".join(self.seats[int(seat)] for seat in side.split("+"))

    @property
    def final(self) -> dict[str, Any]:
        return final_result(self.game, self.result)


# ==================================================================== making
def side_labels(game: str, players: int, sides: int) -> list[str]:
    """``["0+2", "1+3"]`` for partnerships, ``["0", "1", ...]`` for seats."""
    if game == "yugioh" or sides == players:
        return [str(s) for s in range(sides)]
    return [f"{s}+{s + 2}" for s in range(sides)]


def score_sheet(outcome: ReplayOutcome) -> ScoreSheet:
    """The score sheet of a replayed record (what it holds so far)."""
    sheet = _sheet(outcome)
    seats = outcome.seats
    sheet.seats = None if seats is None else [seat_label(entry) for entry in seats]
    return sheet


def _sheet(outcome: ReplayOutcome) -> ScoreSheet:
    record, result = outcome.record, outcome.result
    game = str(record.get("game"))
    table = record.get("table") if isinstance(record.get("table"), str) else None
    if "duels" in result:
        duels = [DuelRow(n, d.get("first"), d.get("winner"), str(d.get("reason", "")), d.get("turns"),
                         list(d.get("lp") or []))
                 for n, d in enumerate(result["duels"], start=1)]
        return ScoreSheet(game, str(record.get("rules")), table, side_labels(game, 2, 2), duels, result)
    players = outcome.state.num_players
    if game == "spades":
        return ScoreSheet(game, str(record["rules"]), table, side_labels(game, players, 2),
                          _spades_rows(outcome), result)
    sides = len(result.get("penalty_total") or []) or players
    marks = [d.get("eggs") for d in getattr(outcome.state, "deal_results", [])]
    return ScoreSheet(game, str(record["rules"]), table, side_labels(game, players, sides),
                      _kozel_rows(outcome.deals, result.get("deals") or [], sides, marks), result)


def _kozel_rows(reports: list[DealReport], deals: list[dict[str, Any]], sides: int,
                eggs: list[str | None]) -> list[KozelRow]:
    """``eggs``: the engine's own mark of each finished deal (its
    ``deal_results``), the one place the ``eggs="double-next"`` rule is kept."""
    rows, totals = [], [0] * sides
    for index, (report, deal) in enumerate(zip(reports, deals)):
        penalty = list(deal.get("penalty") or [0] * sides)
        totals = [t + p for t, p in zip(totals, penalty)]
        molodkas = sum(1 for trick in report.tricks for play in trick.plays if play.split(" ")[1:2] == ["molodka"])
        rows.append(KozelRow(report.number, report.dealer, report.trump_suit, report.trump_card,
                             str(deal.get("ended_by", "?")), list(deal.get("points") or []),
                             list(deal.get("tricks") or []), penalty, totals, deal.get("winner_team"), molodkas,
                             eggs[index] if index < len(eggs) else None))
    return rows


def _spades_rows(outcome: ReplayOutcome) -> list[SpadesRow]:
    state, deals = outcome.state, outcome.result.get("deals") or []
    in_deal = not (state.is_chance_node() or state.is_terminal())
    rows, totals = [], [0, 0]
    rules = state.rules
    paid = bag_penalties(rules, [deal["bags"] if "redeal" not in deal["bids"] else [0, 0] for deal in deals])
    renege_log = getattr(state, "renege_log", [])
    for index, (report, deal, counts) in enumerate(zip(outcome.deals, deals, paid)):
        bids = list(deal["bids"])
        if in_deal and report.number == len(deals):
            kind = "unfinished"
        elif "redeal" in bids:
            kind = "redeal"
        else:
            kind = "scored"
            totals = [t + s for t, s in zip(totals, deal["score"])]
        score = list(deal["score"]) if kind == "scored" else [0, 0]
        bags = list(deal["bags"]) if kind == "scored" else [0, 0]
        penalty = [bag_penalty_words(n, rules.bag_penalty, rules.bag_limit) if n and kind == "scored" else None
                   for n in counts]
        reneged = renege_log[index] if kind == "scored" and index < len(renege_log) else ()
        rows.append(SpadesRow(report.number, report.dealer, kind, bids, list(deal["tricks"]), score, bags, totals,
                              penalty, reneged))
    return rows


def final_result(game: str, result: dict[str, Any]) -> dict[str, Any]:
    """How a game ended, in short: Kozel ``{"penalty": [...], "goat": side}``
    (``goat`` ``None`` when no single side lost — an individual royal goat, or
    two goats among three: then ``winner``), Spades ``{"score": [...], "winner": team}``, Yu-Gi-Oh!
    ``{"wins": [...], "winner": seat}`` (``None``: a draw)."""
    if game == "yugioh":
        return {"wins": list(result.get("wins") or []), "winner": result.get("winner")}
    if game == "spades":
        return {"score": list(result.get("score_total") or []), "winner": result.get("winner_team")}
    answer: dict[str, Any] = {"penalty": list(result.get("penalty_total") or []), "goat": result.get("loser_team")}
    deals = result.get("deals") or []
    if answer["goat"] is None and result.get("match_over") and deals and deals[-1].get("winner_team") is not None:
        answer["winner"] = deals[-1]["winner_team"]
    return answer


# ======================================================================= CSV
def _columns(game: str, sides: list[str], named: bool = False) -> list[str]:
    """The header of a game's sheet for the sides ``sides``; ``named``: with a
    ``players <side>`` column each (some record says who sat where)."""
    head = ["record", "table"] + ([f"players {s}" for s in sides] if named else [])
    if game == "yugioh":
        return head + ["duel", "first", "winner", "reason", "turns", *(f"LP {s}" for s in sides), "notes"]
    per_side = (["bid", "tricks", "points", "bags", "total"] if game == "spades"
                else ["points", "penalty", "total"])
    head += ["deal", "dealer"] + ([] if game == "spades" else ["trump", "trump card"])
    return head + [f"{name} {s}" for s in sides for name in per_side] + ["notes"]


def _cells(row: Any, sides: list[str]) -> dict[str, Any]:
    """One row's cells by column name; ``sides``: its sheet's side labels."""
    notes = "; ".join(row.notes)
    if isinstance(row, DuelRow):
        cells = {"duel": row.number, "first": row.first, "winner": row.winner, "reason": row.reason,
                 "turns": row.turns, "notes": notes}
        cells.update({f"LP {s}": lp for s, lp in zip(sides, row.lp)})
        return cells
    cells = {"deal": row.number, "dealer": row.dealer, "notes": notes}
    if isinstance(row, SpadesRow):
        for team, s in enumerate(sides):
            cells.update({f"bid {s}": row.team_bid(team), f"tricks {s}": row.team_tricks(team),
                          f"points {s}": row.score[team], f"bags {s}": row.bags[team],
                          f"total {s}": row.totals[team]})
        return cells
    cells.update({"trump": row.trump_suit, "trump card": row.trump_card})
    for side, s in enumerate(sides):
        cells.update({f"points {s}": row.points[side], f"penalty {s}": row.penalty[side],
                      f"total {s}": row.totals[side]})
    return cells


def sheets_csv(sheets: Iterable[tuple[int, ScoreSheet]]) -> str:
    """The CSV of numbered score sheets (``(record number, sheet)``), header
    first, one row a deal (a duel). Sheets of one game only; sides are the
    union of theirs in order of appearance (a 3-player sheet's ``"2"`` beside a
    4-player one's ``"0+2"``), blank where a sheet has no such side. Where a
    record says who sat where (its ``seats``), each side gets a ``players <side>``
    column after ``table`` (blank for a record that does not say). Lines end
    with CRLF (RFC 4180); the caller adds a BOM where a spreadsheet needs one.
    Names and the table id that begin like a formula are written as text
    (:func:`goat.standings.spreadsheet_text`): the table server's names are typed by anyone."""
    with SheetsCsv() as csv_text:
        for number, sheet in sheets:
            csv_text.add(number, sheet)
        return "".join(csv_text.pieces())


class SheetsCsv:
    """:func:`sheets_csv` made one sheet at a time, for ``goat replay --csv`` of a
    file of millions of records: the header (the sides, the ``players`` columns)
    is known only after the last sheet, so the sheets wait in a temporary file
    (in memory while small), not all in memory. Close it (or use ``with``)."""

    #: Bytes of sheets kept in memory before they go to disk.
    IN_MEMORY = 1 << 16
    #: Characters of CSV in one piece of :meth:`pieces`.
    PIECE = 1 << 14

    def __init__(self) -> None:
        self.games: set[str] = set()
        self.sides: list[str] = []
        self.named = False
        self._sheets = tempfile.SpooledTemporaryFile(max_size=self.IN_MEMORY)

    def add(self, number: int, sheet: ScoreSheet) -> None:
        """The sheet of record ``number``, after those added before."""
        self.games.add(sheet.game)
        self.sides += [s for s in sheet.sides if s not in self.sides]
        self.named = self.named or sheet.seats is not None
        pickle.dump((number, sheet), self._sheets)

    def pieces(self) -> Iterator[str]:
        """The CSV, the header first, in pieces; :class:`SheetError` (before the
        header) for sheets of more than one game."""
        games = sorted(self.games)
        if len(games) > 1:
            raise SheetError(f"one CSV holds one game's score sheets, these records are {' and '.join(games)}")
        columns = _columns(games[0] if games else "kozel", self.sides, named=self.named)
        out = io.StringIO()
        writer = csv.DictWriter(out, columns, restval="", lineterminator="\r\n")
        writer.writeheader()
        self._sheets.seek(0)
        while True:
            try:
                number, sheet = pickle.load(self._sheets)
            except EOFError:
                break
            players = ({f"players {s}": spreadsheet_text(sheet.players(s)) for s in sheet.sides}
                       if sheet.seats is not None else {})
            for row in sheet.rows:
                cells = _cells(row, sheet.sides)
                writer.writerow({"record": number, "table": spreadsheet_text(sheet.table or ""), **players,
                                 **{k: "" if v is None else v for k, v in cells.items()}})
            if out.tell() >= self.PIECE:
                yield out.getvalue()
                out.seek(0)
                out.truncate()
        yield out.getvalue()

    def close(self) -> None:
        self._sheets.close()

    def __enter__(self) -> "SheetsCsv":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
