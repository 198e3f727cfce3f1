"""What a tournament needs to know about each game, in one table.

The runner, the statistics, the table and the plot are game-agnostic: match
win rates and Elo come from ``state.returns()`` for every game. What differs
is small and lives here, one :class:`GameScoring` per game:

* what one **deal** is (Kozel's and Spades' deal, Yu-Gi-Oh!'s duel) and the
  score each side takes from it, read from the game's own record ``result``
  (Kozel: penalty points, lower is better; Spades: the team's score change,
  higher is better; Yu-Gi-Oh!: the seat's Life Points at the end of the duel,
  higher is better), with the column's name and units;
* the **sides** of the table (Kozel's and Spades' partnerships, a duel's two
  seats);
* the **chance streams** that make the duplicate format work. A duplicate set
  replays the same chance outcomes with the bots in other seats: the *n*-th
  outcome of a stream is drawn from ``random.Random("<set seed>/<stream>/<n>")``.
  A card game has one stream, ``deal`` (the *n*-th shuffle and deal), so every
  game of a set sees the same deals as far as its matches go; a deal that
  replaces a void one (Kozel's annulled 60–60 deal, a Spades weak-hand
  redeal) draws from a stream of its own, so the games stay in step after it
  (:func:`_redealt_stream`). A duel has no
  deal: it asks for coin tosses, shuffles of one seat's deck (at the start and
  after every search) and random discards in an order that depends on play.
  Its streams are therefore keyed by duel, kind and seat
  (``duel/0/shuffle/1``): the opening shuffles of each seat's deck and the
  coin are the same in every game of a set, whoever sits there, and a later
  shuffle of the same deck draws from the same sequence.

A table keyed by game (rather than attributes of the game modules) keeps the
engines free of tournament knowledge; adding a game means adding one entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from goat.protocol import GoatError

Scores = tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class GameScoring:
    """How tournaments of one game are scored, seated and seeded.

    Attributes:
        game: the registry name (:func:`goat.games.get_game`).
        default_rules: the ruleset ``--rules`` defaults to.
        deal: what one deal is called (``"deal"``, ``"duel"``).
        points: what a deal's score is counted in, as an adjective for
            people (``"penalty-point"``, ``"point"``, ``"LP"``).
        short: the points' short name in the results table's column headers
            (``"pen. diff/deal"``).
        lower_is_better: penalty points (Kozel) are bad to have.
        deal_scores: the record ``result`` → per deal, per side, the score.
        totals: the record ``result`` → per side, the score at the end.
        sides: a state → the side (team, or the seat itself) of each seat.
        chance_stream: a state at a chance node → the name of the stream the
            due outcome is drawn from (see the module docstring).
        single_deals: what ``--deals-only`` plays (``None``: refused).
        deal_limit: stop a match with a one-line error once this many
            outcomes of its ``deal`` stream were drawn (``None``: never) —
            Spades' target may never be reached (two bots that are always set
            only sink), and an endless match would hang the tournament.
        endless_hint: what that error suggests instead.
        default_options: options a tournament's whole matches get when the
            ruleset leaves them off and ``--option`` does not set them
            (Spades: a time limit, see :data:`SPADES_TIME_LIMIT`).
    """

    game: str
    default_rules: str
    deal: str
    points: str
    short: str
    lower_is_better: bool
    deal_scores: Callable[[dict[str, Any]], Scores]
    totals: Callable[[dict[str, Any]], tuple[float, ...]]
    sides: Callable[[Any], tuple[int, ...]]
    chance_stream: Callable[[Any], str]
    single_deals: str | None = "single deals"
    deal_limit: int | None = None
    endless_hint: str = ""
    default_options: tuple[tuple[str, Any], ...] = ()

    @property
    def column(self) -> str:
        """The results table's header of the per-deal difference."""
        return f"{self.short} diff/{self.deal}"

    @property
    def gain_column(self) -> str:
        """The head-to-head table's header of the first bot's per-deal gain."""
        return f"{self.short} gain/{self.deal}"

    @property
    def difference(self) -> str:
        """E.g. ``"penalty-point difference per deal"`` (plot axes)."""
        return f"{self.points} difference per {self.deal}"


def _team_sides(state: Any) -> tuple[int, ...]:
    return tuple(state.rules.team_of(seat) for seat in range(state.num_players))


def _seat_sides(state: Any) -> tuple[int, ...]:
    return tuple(range(state.num_players))


def _redealt_stream(void: Callable[[dict[str, Any]], bool]) -> Callable[[Any], str]:
    """A deal stream that keeps duplicate matches in step over void deals.

    ``void`` tells a result's deal that did not count and is dealt again by the
    same dealer: Kozel's annulled (60–60) deal under ``tie=annul``, as in
    ``full-hand``; a Spades deal voided by a weak hand's ``redeal``. The stream
    is ``deal`` for the first deal at each place of a match and
    ``deal/<p>/redeal`` for a deal that replaces a void one after ``p`` counted
    deals.

    A void deal is dealt again by the same dealer, while a counted one passes
    the deal on. With one ``deal`` stream, a game of the set that had a void
    deal drew its later deals one step ahead of a game that had not, with the
    dealer one seat behind: the same shuffles, other hands at each seat — the
    rest of the match was no longer duplicate. Keyed by counted deals, the
    *p*-th counted place is dealt the same cards by the same dealer in every
    game of the set. A single deal has no later place to keep in step, so its
    redeals stay on ``deal`` (as before this keying).
    """
    def stream(state: Any) -> str:
        if getattr(state, "single_deal", False):
            return "deal"
        deals = state.result()["deals"]
        if not deals or not void(deals[-1]):
            return "deal"
        counted = sum(not void(deal) for deal in deals)
        return f"deal/{counted}/redeal"
    return stream


#: Kozel: an annulled deal (:func:`_redealt_stream`).
_kozel_deal_stream = _redealt_stream(lambda deal: deal["ended_by"] == "annulled")
#: Spades: a deal voided by a weak hand's redeal (option ``weak_hand_redeal``).
_spades_deal_stream = _redealt_stream(lambda deal: "redeal" in deal["bids"])


def _per_deal(key: str) -> Callable[[dict[str, Any]], Scores]:
    def read(result: dict[str, Any]) -> Scores:
        return tuple(tuple(deal[key]) for deal in result["deals"])

    return read


def _total(key: str) -> Callable[[dict[str, Any]], tuple[float, ...]]:
    def read(result: dict[str, Any]) -> tuple[float, ...]:
        return tuple(result[key])

    return read


def _duel_lp(result: dict[str, Any]) -> Scores:
    return tuple(tuple(duel["lp"]) for duel in result["duels"])


def _duel_lp_total(result: dict[str, Any]) -> tuple[float, ...]:
    return tuple(sum(lp) for lp in zip(*_duel_lp(result))) if result["duels"] else (0, 0)


def _duel_stream(state: Any) -> str:
    """``duel/<duels finished>/<kind>/<seat>``: the coin before duel 1 and the
    shuffles of duel 1 are at 0, a coin after a drawn duel 1 at 1, and so on."""
    request = state.pending()
    return f"duel/{len(state.results)}/{request.kind}/{request.seat}"


#: Spades' tournament time limit (option ``max_deals``): after this many deals
#: the higher score wins. Matches between sensible bots end long before (about
#: 10–30 deals), but a team that keeps being set only sinks: random bids
#: nearly always are, so random against random never reaches 500 (and a bot
#: with a bidding flaw can do the same: at this branch's base the heuristic,
#: 200+ behind, bid blind nil from both seats deal after deal).
SPADES_TIME_LIMIT = 100

SCORING: dict[str, GameScoring] = {
    "kozel": GameScoring(
        game="kozel", default_rules="classic", deal="deal", points="penalty-point",
        short="pen.", lower_is_better=True,
        deal_scores=_per_deal("penalty"), totals=_total("penalty_total"),
        sides=_team_sides, chance_stream=_kozel_deal_stream),
    "spades": GameScoring(
        game="spades", default_rules="standard", deal="deal", points="point",
        short="pts", lower_is_better=False,
        deal_scores=_per_deal("score"), totals=_total("score_total"),
        sides=_team_sides, chance_stream=_spades_deal_stream, deal_limit=200,
        endless_hint="bots that keep being set never reach the target: end matches with "
                     "--option max_deals=N or --option lose_at=-200",
        default_options=(("max_deals", SPADES_TIME_LIMIT),)),
    "yugioh": GameScoring(
        game="yugioh", default_rules="goat", deal="duel", points="LP",
        short="LP", lower_is_better=False,
        deal_scores=_duel_lp, totals=_duel_lp_total,
        sides=_seat_sides, chance_stream=_duel_stream, single_deals="single duels"),
}


def tournament_options(scoring: GameScoring, preset: dict[str, Any], options: dict[str, Any],
                       deals_only: bool) -> dict[str, Any]:
    """``options`` (from ``--option``) plus the game's ``default_options`` that
    neither they nor the ruleset (``preset``: its option values) set; none for
    single deals, which end after one deal anyway."""
    if deals_only:
        return dict(options)
    extra = {k: v for k, v in scoring.default_options if k not in options and preset.get(k) is None}
    return extra | options


def scoring_for(game: str) -> GameScoring:
    """The entry of ``game``; a one-line :class:`GoatError` for a game without one."""
    try:
        return SCORING[game]
    except KeyError:
        raise GoatError(f"tournaments know no scoring for {game!r} (games: {', '.join(SCORING)})") from None


def side_difference(mine: Sequence[float], others: Sequence[float], lower_is_better: bool) -> float:
    """How much better ``mine`` did than ``others`` (means of per-seat values):
    positive is good whichever way the game counts."""
    gain = _mean(mine) - _mean(others)
    return -gain if lower_is_better else gain


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
