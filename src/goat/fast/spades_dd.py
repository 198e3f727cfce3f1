"""Bo Haglund's double-dummy solver (DDS, through ``endplay``) on Spades positions.

Spades card play is bridge card play — 52 cards, follow suit, spades trump — so
Spades needs no solver of its own: DDS answers for every card of the seat to
play how many tricks its side takes from the current trick on, with every card
known and best play by all four seats (:func:`dd_tricks`). Two users:

* ``pimc`` for Spades (:mod:`goat.bots.spades_pimc`), on sampled worlds;
* the deal analysis (:mod:`goat.analysis`, ``goat analyze`` and the table
  server's deal review), on the recorded deal itself: this module is the
  solver it asks (:func:`evaluate_moves`, :func:`unsupported`, :func:`outcome_of`),
  as Kozel's is :mod:`goat.fast.solver`. A value there is the tricks the acting
  seat's side ends the deal with (tricks taken so far plus DDS's answer), and its
  result whether the side's contract is made or set, and the deal's score.

Where DDS cannot model the game: the joker deck (15 trumps, no 2C and 2D: not a
bridge deck) and ``renege_penalty`` (a card that does not follow is legal
there; DDS follows suit). DDS knows no "spades may not be led until broken"
rule: a value assumes free leads later (only the legal cards of the position
itself are valued). DDS runs single-threaded (``SetMaxThreads(1)``: tournaments
run one process per core) and one solve at a time in a process (a lock: the
table server runs bots and reviews in worker threads, and ``solve_board``
always uses DDS's thread slot 0).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from goat.cards import Card
from goat.protocol import Action, GoatError

#: The install hint of every "no DDS" error.
INSTALL_HINT = "pip install 'goat[dds]'"

#: One DDS solve at a time in this process (solve_board always uses DDS's thread slot 0).
_DDS_LOCK = threading.Lock()
_dds_ready = False


class DDSUnavailable(GoatError):
    """``endplay`` (DDS) is not installed here."""


def dds_available() -> bool:
    """Whether ``endplay`` (Bo Haglund's DDS) can be imported here."""
    try:
        import endplay.dds  # noqa: F401
        import endplay.types  # noqa: F401
    except ImportError:
        return False
    return True


def load(needed_by: str = "the Spades double-dummy analysis") -> None:
    """Import DDS and make it single-threaded, once; :class:`DDSUnavailable`
    (one line naming ``needed_by`` and the install command) without it."""
    global _dds_ready
    if not dds_available():
        raise DDSUnavailable(f"{needed_by} needs Bo Haglund's DDS (the endplay package): {INSTALL_HINT}")
    if _dds_ready:
        return
    import endplay._dds as dds

    with _DDS_LOCK:
        dds.SetMaxThreads(1)   # endplay asks for one thread a core; we solve one deal at a time
        _dds_ready = True


def _pbn_hand(cards: list[Card]) -> str:
    return ".".join("".join(r for r in "AKQJT98765432" if Card(r, suit) in cards) for suit in "SHDC")


def to_endplay(state: Any) -> Any:
    """The position of a Spades ``state`` in its play phase as an ``endplay``
    ``Deal``: the cards each seat holds now, the current trick's cards played in
    order from its leader, spades trump. Seats 0..3 are North, East, South, West
    (play goes left, 0 → 1 → 2 → 3, as in bridge; partners 0+2 are North-South)."""
    from endplay.types import Deal, Denom, Player

    on_table = {play.seat: play.cards[0] for play in state.trick}
    hands = [list(state.hands[seat]) + ([on_table[seat]] if seat in on_table else []) for seat in range(4)]
    deal = Deal("N:" + " ".join(_pbn_hand(h) for h in hands))
    deal.trump = Denom.spades
    deal.first = Player(state.trick_leader if state.trick else state.to_act)
    for play in state.trick:
        card = play.cards[0]
        deal.play(card.suit + card.rank)   # endplay writes the suit first: "HA"
    return deal


def dd_tricks(state: Any) -> dict[Card, int]:
    """DDS's answer for the seat to play in ``state``: for each card it may play
    (following suit), the tricks its side takes from the current trick on (this
    trick included) with best play by all four seats after it."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode

    load()
    deal = to_endplay(state)
    with _DDS_LOCK:
        solved = list(solve_board(deal, SolveMode.Default))
    return {Card(card.rank.name[1:], "SHDC"[int(card.suit)]): tricks for card, tricks in solved}


def _taker(state: Any, team: int) -> int:
    """The seat of ``team`` credited with its future tricks: one that did not bid
    a nil (the split between partners matters to the score only through nils,
    and positions where it does are not valued: :func:`position_reason`)."""
    seats = (team, team + 2)
    return next((s for s in seats if not state.bids[s].is_nil), seats[0])


def score_after(state: Any, team: int, side_tricks: int) -> Any:
    """The deal's :class:`~goat.games.spades.scoring.DealScore` when ``team``
    takes ``side_tricks`` of the tricks left (the current one included) and the
    other side the rest — the engine's scoring, with the bags the teams carry in."""
    from goat.games.spades.rules import HAND_SIZE
    from goat.games.spades.scoring import score_deal

    left = HAND_SIZE - state.tricks_played
    ours, theirs = _taker(state, team), _taker(state, 1 - team)
    tricks = list(state.tricks_by_seat)
    tricks[ours] += side_tricks
    tricks[theirs] += left - side_tricks
    winners = list(state.trick_winners) + [ours] * side_tricks + [theirs] * (left - side_tricks)
    return score_deal(state.rules, state.bids, tricks, winners, state.bags_total, state.reneged)


# ------------------------------------------------------------------ the analysis' solver
def unsupported(state: Any) -> str | None:
    """Why DDS cannot analyse a deal of ``state``'s ruleset (one line), or
    ``None``: the joker deck, ``renege_penalty``, or DDS not installed (a
    position of such a deal is refused by :func:`position_reason` too)."""
    rules = state.rules
    if getattr(rules, "jokers", False):
        return REASONS["jokers"]
    if getattr(rules, "renege_penalty", False):
        return REASONS["renege"]
    if not dds_available():
        return f"the Spades double-dummy analysis needs Bo Haglund's DDS (the endplay package): {INSTALL_HINT}"
    return None


#: What each reason of :func:`position_reason` means, in the words the analysis refuses with.
REASONS = {
    "bid": "DDS values card play, not the bidding",
    "exchange": "DDS values card play, not a double nil's exchange",
    "jokers": "the joker deck is not a bridge deck: DDS cannot solve it",
    "renege": "under renege_penalty a card that does not follow is legal: DDS always follows suit",
    "nil": "not valued while a nil bid is alive: one seat's tricks decide its score, not the side's count",
    "bemo": "not valued while a Bemo bid is undecided: which tricks a side wins counts, not how many",
}


def position_reason(view: dict[str, Any]) -> str | None:
    """Why DDS cannot value the position of a Spades ``view`` by the side's
    tricks — one word of :data:`REASONS` — or ``None`` when it can:

    * ``bid``, ``exchange`` — bidding, a double nil's exchange (DDS plays cards);
    * ``jokers``, ``renege`` — the joker deck, ``renege_penalty`` (see the module doc);
    * ``nil`` — a nil bid still alive (its bidder has taken no trick), or, under
      ``nil_tricks="bags"``, any nil of the deal: one seat's tricks score apart
      from its partner's, and DDS gives a side's. With ``nil_tricks="contract"``
      a nil that has failed is settled: the side's total is all the score needs;
    * ``bemo`` — a Bemo bid still undecided (its team has won every trick so far
      and the first six or nine are not all played): *which* tricks count.

    Views spell each bid one way (``nil``, never ``0``: :attr:`Bid.name`)."""
    from goat.games.spades.bids import NIL_KINDS
    from goat.games.spades.rules import BEMO   # kind -> (the first tricks it must take, its value)

    options = view.get("options", {})
    if view.get("phase") != "play":
        return "bid" if view.get("phase") == "bid" else "exchange"
    if options.get("jokers"):
        return "jokers"
    if options.get("renege_penalty"):
        return "renege"
    bids = view["bids"]
    tricks = view["tricks_by_seat"]
    for seat, bid in enumerate(bids):
        if bid in NIL_KINDS and (tricks[seat] == 0 or options.get("nil_tricks") == "bags"):
            return "nil"
    played = view["tricks_played"]
    for seat, bid in enumerate(bids):
        if bid in BEMO and played < BEMO[bid][0] and view["tricks_won"][seat % 2] == played:
            return "bemo"
    return None


def evaluate_moves(state: Any) -> dict[Action, int]:
    """For each card the seat to play in ``state`` may play: the tricks its side
    ends the deal with (taken so far plus DDS's answer) with best play by all
    four from there on. :class:`GoatError` for a position it does not value
    (bidding, a double nil's exchange, a live nil or Bemo: :func:`position_reason`)."""
    seat = state.current_player()
    reason = position_reason(state.view(seat))
    if reason:
        raise GoatError(REASONS[reason])
    team = seat % 2
    taken = state.tricks_by_seat[team] + state.tricks_by_seat[team + 2]
    tricks = dd_tricks(state)
    return {action: taken + tricks[action.cards[0]]
            for action in state.legal_actions() if action.seat == seat and action.verb == "play"}


@dataclass(frozen=True)
class ContractResult:
    """The deal's result a value (the side's tricks at the end) stands for:
    ``kind`` ``"made"`` or ``"set"`` (the side's contract), ``score`` each team's
    points for the deal (bags and their penalties, nils, the variants' bonuses:
    the engine's scoring); ``penalty`` is ``None`` (Kozel's results carry
    penalty points; Spades scores points, in ``score``)."""

    kind: str
    score: tuple[int, int]
    penalty: None = None


def outcome_of(state: Any, side: int, value: int) -> ContractResult:
    """The result of the deal when ``side`` ends it with ``value`` tricks (an
    :func:`evaluate_moves` value) and the other side with the rest: what the
    analysis compares, so that a card that turned a made contract into a set one
    is told from one that cost a bag."""
    taken = state.tricks_by_seat[side] + state.tricks_by_seat[side + 2]
    result = score_after(state, side, value - taken)
    return ContractResult("made" if result.made[side] else "set", (result.score[0], result.score[1]))
