"""Tournament statistics: win rate and per-deal score difference with 95%
confidence intervals, and Elo — the same for every game.

Per game, each bot at the table gets two numbers:

* **score** — the mean, over every other bot ``Y`` at the table and every
  pair of a seat of the bot and a seat of ``Y``, of 1 / ½ / 0 as the bot's
  seat did better than / as well as / worse than ``Y``'s by
  ``state.returns()`` (the Kozel match loser, "the goat", gets −1; with
  ``--deals-only`` the deal's balance). With two sides this is simply
  the match (or deal) win rate, a draw counting ½; with a bot on two of three
  seats it is still ½ for identical bots (:func:`pairwise`).
* **difference per deal** — how much better the bot's seats ended than the
  other bots' seats in the game's own score (:mod:`goat.tournament.games`:
  Kozel's penalty points, of which fewer is better; Spades' points; a duel's
  final LP), divided by the number of deals (duels) played, annulled deals
  included. Positive is good.

Confidence intervals. Games of one duplicate set share their cards, so they are
not independent; the **duplicate set is the unit**: a bot's value for a set is
the mean over the set's games. The difference's interval is the Student-*t*
95% interval of the mean of those per-set values (``mean ± t(0.975, n−1) ·
s / √n``); the win rate's is Wilson's score interval on the effective sample
size of those values (:func:`proportion_ci`), which stays inside [0, 1] and
keeps a width when every set was won.

Elo is a **Bradley–Terry** maximum-likelihood fit (Hunter's MM iterations) of
all pairwise game results (a draw is half a win each), with one virtual drawn
game added to every pairing that met, so a clean sweep still gives a finite
rating; ratings are ``400·log10(strength)``, shifted so their mean is 1500. The
expected score of A against B is then ``1 / (1 + 10^((R_B − R_A)/400))``.

The Elo fit counts games as independent, so its own likelihood would give too
narrow an interval for duplicate play (and none at all for a clean sweep). An
Elo **gap's** interval is instead the head-to-head win rate's interval read on
the Elo scale, as cutechess-cli reports an Elo difference: the gap is
``400·log10(p / (1 − p))`` at the win rate ``p`` and at each bound
(:func:`elo_gap`), so it inherits the duplicate set as its unit and stays
finite on the side the results say nothing against (a sweep: ``(+196, ∞)``).
With two bots each rating is 1500 ± half the gap, and its interval is half the
gap's.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from goat.tournament.games import side_difference
from goat.tournament.runner import GameResult

#: Two-sided 95% Student-t quantiles t(0.975, df) for df = 1..30.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
         2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
_Z975 = 1.959964
#: The mean Elo rating of a table (:func:`bradley_terry`); two bots sit either side of it.
MEAN_RATING = 1500.0


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom.

    Exact table values up to 30, then the Cornish–Fisher expansion around the
    normal quantile (error < 0.001).

    >>> t975(4), round(t975(1000), 3)
    (2.776, 1.962)
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% interval: ``mean ± half_width`` (``inf`` from fewer
    than two samples), or the explicit ``bounds`` of an asymmetric interval (a
    win rate's, :func:`proportion_ci`), whose ``half_width`` is then the longer
    side."""

    mean: float
    half_width: float
    n: int
    bounds: tuple[float, float] | None = None

    @property
    def low(self) -> float:
        return self.bounds[0] if self.bounds is not None else self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.bounds[1] if self.bounds is not None else self.mean + self.half_width

    def excludes(self, value: float) -> bool:
        return value < self.low or value > self.high


def mean_ci(values: Sequence[float]) -> Interval:
    """Mean and Student-t 95% half-width of ``values`` (sample standard deviation).

    >>> i = mean_ci([1, 2, 3, 4]); round(i.mean, 3), round(i.half_width, 3)
    (2.5, 2.054)
    """
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.inf, 0)
    mean = sum(values) / n
    if n == 1:
        return Interval(mean, math.inf, 1)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Interval(mean, t975(n - 1) * math.sqrt(variance / n), n)


def proportion_ci(values: Sequence[float]) -> Interval:
    """Mean and 95% interval of per-set win rates (``values`` in [0, 1]).

    The Student-*t* interval of :func:`mean_ci` leaves [0, 1] near its ends
    (sets scoring 1, 1, 1, ½: 87.5% ± 39.8, up to 127%) and has no width at
    all when every set scored the same (every set won: 100% ± 0 after four
    sets). This is Wilson's score interval on the **effective sample size**
    of Korn & Graubard (1998): ``n* = p̂(1−p̂) / (s²/n) · (z / t(n−1))²``, the
    number of independent win/loss games that would give the observed
    variance of the mean — so the duplicate format's smaller variance still
    narrows the interval, and far from 0 and 1 it is the *t* interval again.
    Without an observed variance (every set alike, or ``p̂`` at 0 or 1) the
    sets count as plain games, ``n* = n · (z / t(n−1))²``: four won sets give
    28%–100%. The interval stays in [0, 1] and always holds ``p̂``.

    >>> i = proportion_ci([1, 1, 1, 1]); round(i.low, 3), i.high
    (0.283, 1.0)
    """
    n = len(values)
    if n < 2:
        return mean_ci(values)
    p = sum(values) / n
    variance = sum((v - p) ** 2 for v in values) / (n - 1)
    effective = p * (1 - p) / (variance / n) if variance > 0 and 0 < p < 1 else float(n)
    effective *= (_Z975 / t975(n - 1)) ** 2
    z2 = _Z975**2 / effective
    centre = (p + z2 / 2) / (1 + z2)
    half = _Z975 / (1 + z2) * math.sqrt(p * (1 - p) / effective + z2 / (4 * effective))
    low, high = max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))
    return Interval(p, max(p - low, high - p), n, (low, high))


def elo_gap(score: Interval) -> Interval:
    """A win rate's interval read as an Elo gap: ``400·log10(p / (1 − p))`` at
    the rate and at each bound (the logistic curve is monotone, so the bounds
    map to bounds); ``±inf`` at 0 and 100%.

    >>> gap = elo_gap(Interval(0.75, 0.1, 50, (0.64, 0.84)))
    >>> round(gap.mean), round(gap.low), round(gap.high)
    (191, 100, 288)
    """

    def elo(p: float) -> float:
        if p <= 0:
            return -math.inf
        if p >= 1:
            return math.inf
        return 400 * math.log10(p / (1 - p))

    if math.isnan(score.mean):
        return Interval(math.nan, math.inf, score.n)
    if score.half_width == math.inf:
        return Interval(elo(score.mean), math.inf, score.n)
    mean, low, high = elo(score.mean), elo(score.low), elo(score.high)
    return Interval(mean, max(mean - low, high - mean), score.n, (low, high))


# ============================================================ per game
def pairwise(result: GameResult) -> list[tuple[str, str, float]]:
    """``(A, B, score of A)`` for every pair of different bots at the table.

    The score is the mean, over every pair of a seat of A and a seat of B, of
    1 / ½ / 0 as A's seat ended above / level with / below B's by
    ``returns()``. Comparing seats, not the mean of each bot's seats, keeps the
    score fair when the bots hold unequal numbers of seats: with ``A,B`` on
    three seats (``A B A``) A's two seats averaged against B's one won a match
    only when B was the goat, and a single deal whenever an A seat was its
    winner (the two others are penalised), so of two identical bots one
    scored about ⅔ — B in matches, A in single deals. Seat against seat,
    identical bots score ½ on average whatever the seating. In partnership
    play a team's seats have equal returns, so this is the team comparison.
    """
    labels = sorted(set(result.labels), key=result.labels.index)
    out = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            scores = [_compare(ra, rb) for ra, la in zip(result.returns, result.labels) if la == a
                      for rb, lb in zip(result.returns, result.labels) if lb == b]
            out.append((a, b, _mean(scores)))
    return out


def _compare(mine: float, theirs: float) -> float:
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


def game_scores(result: GameResult) -> dict[str, tuple[float, float]]:
    """Bot label → (score, difference per deal) in one game."""
    seat_total = [result.totals[t] for t in result.teams]
    pairs = pairwise(result)
    out: dict[str, tuple[float, float]] = {}
    for label in dict.fromkeys(result.labels):
        mine = [p for p, l in zip(seat_total, result.labels) if l == label]
        others = [p for p, l in zip(seat_total, result.labels) if l != label]
        scores = [s if a == label else 1 - s for a, b, s in pairs if label in (a, b)]
        diff = side_difference(mine, others, result.lower_is_better) / max(result.deals, 1)
        out[label] = (_mean(scores), diff)
    return out


def deal_differences(result: GameResult, label: str) -> list[float]:
    """Per deal of one game: how much better ``label``'s seats did than the
    others' (for the cumulative plot)."""
    out = []
    for scores in result.deal_scores:
        seat = [scores[t] for t in result.teams]
        mine = [p for p, l in zip(seat, result.labels) if l == label]
        others = [p for p, l in zip(seat, result.labels) if l != label]
        out.append(side_difference(mine, others, result.lower_is_better))
    return out


# ============================================================ head to head
@dataclass(frozen=True)
class HeadToHead:
    """One pair of bots that met (a round robin's pairing, or two of three bots at
    one table), from ``first``'s side."""

    first: str
    second: str
    deals: int
    score: Interval          # first's match (or deal) win rate, per duplicate set
    difference: Interval     # first's per-deal score gain over second, per duplicate set

    @property
    def elo_gap(self) -> Interval:
        """First's Elo gap over second, from the win rate's interval (:func:`elo_gap`)."""
        return elo_gap(self.score)


def head_to_head(results: Iterable[GameResult]) -> list[HeadToHead]:
    """Per pair of bots that met: how the first (in schedule order) did against the
    second, with intervals over duplicate sets — the figure that says whether one
    bot beats another when a tournament holds more than two. Every pair at a
    table counts, so three bots at a three-seat table (``--players 3``) get
    their three pairs too (the pairs of two-bot tables only once gave them none
    at all). A pair that meets at several tables (four bots, three seats) has a
    duplicate set per table and set."""
    results = list(results)
    # A pairing's bots in the order of its first seating (rotation 0): the first of a pair is the row's bot.
    order = {r.pairing: tuple(dict.fromkeys(r.labels)) for r in results if r.rotation == 0}
    per_set: dict[tuple[str, str], dict[tuple[int, int], list[tuple[float, float]]]] = \
        defaultdict(lambda: defaultdict(list))
    deals: dict[tuple[str, str], int] = defaultdict(int)
    for result in results:
        bots = order.get(result.pairing) or tuple(dict.fromkeys(result.labels))
        scores = {(a, b): s for a, b, s in pairwise(result)}
        for i, first in enumerate(bots):
            for second in bots[i + 1:]:
                score = scores[(first, second)] if (first, second) in scores else 1 - scores[(second, first)]
                per_set[(first, second)][(result.pairing, result.set_index)].append(
                    (score, _pair_difference(result, first, second)))
                deals[(first, second)] += result.deals
    rows = []
    for (first, second), sets in per_set.items():
        rows.append(HeadToHead(first, second, deals[(first, second)],
                               proportion_ci([_mean(s for s, _ in v) for v in sets.values()]),
                               mean_ci([_mean(d for _, d in v) for v in sets.values()])))
    return rows


def _pair_difference(result: GameResult, first: str, second: str) -> float:
    """How much better ``first``'s seats ended than ``second``'s, per deal."""
    seat_total = [result.totals[t] for t in result.teams]
    mine = [p for p, label in zip(seat_total, result.labels) if label == first]
    theirs = [p for p, label in zip(seat_total, result.labels) if label == second]
    return side_difference(mine, theirs, result.lower_is_better) / max(result.deals, 1)


# ============================================================ summary
@dataclass(frozen=True)
class BotSummary:
    """One row of the results table."""

    label: str
    games: int
    deals: int
    score: Interval          # match (or deal) win rate, per duplicate set
    difference: Interval     # score difference per deal, per duplicate set
    elo: float
    #: The rating's 95% bounds when exactly two bots played (half the Elo gap's
    #: interval either side of the mean, :func:`elo_gap`); None in a round robin,
    #: where the head-to-head gaps carry the intervals.
    elo_bounds: tuple[float, float] | None = None


def summarize(results: Iterable[GameResult], labels: Sequence[str] | None = None) -> list[BotSummary]:
    """The results table: one row per bot, in ``labels`` order (default: first seen)."""
    results = list(results)
    per_set: dict[tuple[str, int, int], list[tuple[float, float]]] = defaultdict(list)
    games: dict[str, int] = defaultdict(int)
    deals: dict[str, int] = defaultdict(int)
    matches: list[tuple[str, str, float]] = []
    seen: dict[str, None] = {}
    for result in results:
        for label, value in game_scores(result).items():
            per_set[(label, result.pairing, result.set_index)].append(value)
            games[label] += 1
            deals[label] += result.deals
            seen[label] = None
        matches.extend(pairwise(result))
    order = list(labels) if labels is not None else list(seen)
    elo = bradley_terry(matches, order)
    rows = []
    for label in order:
        sets = [v for (lab, _, _), v in per_set.items() if lab == label]
        score = proportion_ci([_mean(s for s, _ in values) for values in sets])
        diff = mean_ci([_mean(d for _, d in values) for values in sets])
        bounds = None
        if len(seen) == 2 and score.half_width != math.inf:
            gap = elo_gap(score)
            bounds = (MEAN_RATING + gap.low / 2, MEAN_RATING + gap.high / 2)
        rows.append(BotSummary(label, games[label], deals[label], score, diff, elo.get(label, math.nan), bounds))
    return rows


def bradley_terry(matches: Iterable[tuple[str, str, float]], labels: Sequence[str] | None = None,
                  prior_draws: float = 1.0, mean_rating: float = MEAN_RATING,
                  iterations: int = 10_000, tolerance: float = 1e-12) -> dict[str, float]:
    """Elo ratings from pairwise results ``(A, B, score of A)`` (1, ½ or 0).

    Bradley–Terry: P(A beats B) = γ_A / (γ_A + γ_B), fitted by Hunter's MM
    update γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j), where W_i is i's total score and
    n_ij the games between i and j, after adding ``prior_draws`` virtual drawn
    games to every pairing that met. Rating = 400·log10 γ, shifted so the mean
    is ``mean_rating``; a bot with no score at all (only possible with
    ``prior_draws=0``) gets −inf.
    """
    wins: dict[str, float] = defaultdict(float)
    games: dict[tuple[str, str], float] = defaultdict(float)
    names: dict[str, None] = dict.fromkeys(labels or ())
    for a, b, score in matches:
        names.setdefault(a)
        names.setdefault(b)
        wins[a] += score
        wins[b] += 1 - score
        games[_key(a, b)] += 1
    for (a, b) in list(games):
        games[(a, b)] += prior_draws
        wins[a] += prior_draws / 2
        wins[b] += prior_draws / 2
    players = list(names)
    opponents: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for (a, b), n in games.items():
        opponents[a].append((b, n))
        opponents[b].append((a, n))
    gamma = {p: 1.0 for p in players}
    for _ in range(iterations):
        new = {}
        for p in players:
            denominator = sum(n / (gamma[p] + gamma[q]) for q, n in opponents[p])
            new[p] = wins[p] / denominator if denominator > 0 else gamma[p]
        positive = [math.log(v) for v in new.values() if v > 0]
        shift = math.exp(sum(positive) / len(positive)) if positive else 1.0
        new = {p: v / shift for p, v in new.items()}
        change = max((abs(new[p] - gamma[p]) for p in players), default=0.0)
        gamma = new
        if change < tolerance:
            break
    ratings = {p: 400 * math.log10(g) if g > 0 else -math.inf for p, g in gamma.items()}
    finite = [r for r in ratings.values() if math.isfinite(r)]
    offset = mean_rating - (sum(finite) / len(finite) if finite else 0.0)
    return {p: r + offset for p, r in ratings.items()}


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0
