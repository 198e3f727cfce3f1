"""PIMC for Spades on Bo Haglund's double-dummy solver (DDS, through ``endplay``).

Spades card play is bridge card play — 52 cards, follow suit, spades trump —
and DDS is the standard double-dummy solver for it, so this bot does not solve
deals itself: it asks DDS (``endplay.dds.solve_board``).

:class:`SpadesPIMCBot` sees only its seat's view, like every bot. For each card
decision it samples ``worlds`` complete states consistent with the view
(:func:`goat.games.world_sampler`, Spades' :mod:`goat.games.spades.worlds`, as
``ismcts`` does), turns each into an ``endplay`` deal *at the current position*
(:func:`to_endplay`: the cards still held, the cards already on the table in
this trick and its leader, spades trump), and solves it for every card of the
seat (:func:`dd_tricks`: the tricks its side takes from this trick on after
each card). Only the seat's legal actions are scored. A card's *utility* in a
world is the deal's score for the seat's team minus the opponents' score
(:func:`deal_utility`), computed with the engine's own scoring
(:func:`goat.games.spades.scoring.score_deal`) from the tricks each side ends
with — tricks taken so far plus the double-dummy tricks from here: contracts
made or set, bags and the bag penalty (from the bags the teams carry into this
deal), the variants' bonuses (wheels, Boston). Outside a single deal, a deal that
ends the match adds ±:data:`MATCH_VALUE` for winning or losing it
(:func:`goat.games.spades.scoring.game_winner`). The best average wins; ties
go to the fallback bot's own choice when it is among them (equal cards, or a
contract no card changes), else to a seeded draw.

**Bids as evidence** (``infer``, default :data:`INFER_TRIES`): plain PIMC takes
every deal consistent with the cards seen as equally likely, but an opponent who
bid 6 holds more than a random hand. Each world is the first of up to ``infer``
draws whose hands fit the bids made (:func:`fits_bids`: the heuristic's trick
estimate of each bidder's dealt hand within 1.5 of a number bid, under 2 for a
nil), else the last draw. About one random world in four fits heuristic bids;
the real deal always does. Measured over the same 100 duplicate sets as plain
sampling (``infer=1``): +8.45 ± 5.0 points a deal against ``heuristic`` instead
of +4.85 ± 3.8 (the paired difference, +3.6 ± 5.2, is within the noise, but the
sign is the expected one, and it costs about a millisecond a world).

**Bidding** stays the fallback's. Double-dummy bids were tried (each world's
team tricks from the first lead by DDS, the number bid with the best mean team
score against the partner's bid or, not made yet, its heuristic bid in that
world): +9.9 ± 5.6 a deal against ``heuristic`` on the same sets, a paired +1.4
± 5.6 over heuristic bids at about twice the time a deal — not better as far as
100 sets tell, so not kept (``benchmarks/README.md``).

Approximations, on purpose:

* **Spades breaking.** DDS knows no "spades may not be led until broken" rule.
  Only the seat's legal actions are scored, but DDS's value after each of them
  assumes free leads later (by every seat), so a world's value can be slightly
  off while spades are unbroken.
* **Tricks, not score, are what DDS maximises.** Both sides play for tricks
  after the card being scored; the score is turned from those trick counts.
  Near the bag penalty the score falls with one more trick, which a side
  playing for tricks does not avoid later in the deal — only the card chosen
  now is scored by the score (a duck that keeps a bag out is seen when the
  lost trick cannot come back).

Where DDS cannot model the position another bot decides (:func:`unsupported`,
one reason each): ``nil_bot`` (``ismcts`` by default) where a nil is alive, the
fallback bot (``heuristic`` by default) everywhere else:

* ``bid`` — bidding (DDS plays cards), ``exchange`` — a double nil's exchange;
* ``jokers`` — the joker deck (15 trumps, no 2C and 2D: not a bridge deck);
* ``renege`` — ``renege_penalty`` (a non-following card is legal there; DDS
  follows suit);
* ``nil`` — a nil bid that is still alive (its bidder has taken no trick), or,
  under ``nil_tricks="bags"``, any nil bid of the deal: DDS gives a side's tricks,
  not one seat's, and there one seat's tricks score differently from its
  partner's. (A second solve does not help: no DDS question is "how few tricks
  can this seat be held to".) With ``nil_tricks="contract"`` a nil that has
  failed is settled, and the side's total is all the score needs. These
  positions go to ``nil_bot``: ``ismcts`` plays the engine's own score, nil
  included. Measured against ``nil_bot=heuristic`` (the fallback, as before)
  over 100 duplicate sets of single ``standard`` deals: +19.3 ± 8.4 points a
  deal over all 200 deals; +43.3 ± 17.9 a set in the 39 sets with a nil bid
  (the other 61 differ only by the two bots' seeds: +4.0 ± 4.8).
* ``bemo`` — a Bemo bid still undecided (its team has won every trick so far
  and the first six or nine are not all played): it depends on *which* tricks
  a side wins, not how many.

DDS runs single-threaded and one solve at a time in a process
(:mod:`goat.fast.spades_dd`, which holds the DDS plumbing this bot and the deal
analysis share: :func:`to_endplay`, :func:`dd_tricks`).

Measured (README "Strength", 100 duplicate sets of single ``standard`` deals):
+25.3 ± 8.9 points a deal against ``heuristic`` and +18.0 ± 7.6 against ``ismcts``
(before ``nil_bot``, when ``heuristic`` played the live nils: +8.45 ± 5.0 and
+3.5 ± 8.3).

Budget: ``worlds`` (default :data:`DEFAULT_WORLDS`) and optionally ``time_limit``
seconds; sampling stops when the time is up (the first world is always solved;
a DDS solve is not interrupted). With only ``worlds`` the bot is deterministic
for a seed. Without ``endplay`` the bot cannot be made (a one-line
:class:`~goat.bots.base.BotError` naming ``pip install 'goat[dds]'``) and the
Spades bot lists leave it out (:meth:`SpadesPIMCBot.available`).
"""

from __future__ import annotations

import inspect
import random
from collections import defaultdict
from typing import Any

from goat.bots.base import BaseBot, BotError, View, check_time_limit, legal_actions, sampled_worlds
from goat.fast.spades_dd import INSTALL_HINT, DDSUnavailable, dd_tricks, dds_available, load, position_reason, score_after, to_endplay  # noqa: F401 - INSTALL_HINT, to_endplay: this bot's names too
from goat.protocol import Action

#: Worlds a decision samples by default: tens of milliseconds a decision at the
#: median, a few tenths of a second at the first trick, where whole hands are
#: solved (``benchmarks/spades_pimc.py``).
DEFAULT_WORLDS = 20
#: The bot that plays where a nil is alive (DDS cannot: see ``nil`` below).
DEFAULT_NIL_BOT = "ismcts"
#: Points a deal that ends the match is worth beyond its score, won (+) or lost (−).
MATCH_VALUE = 1000
def _load_dds() -> None:
    """DDS loaded and single-threaded, once (a one-line BotError without it)."""
    try:
        load("pimc for Spades")
    except DDSUnavailable as exc:
        raise BotError(str(exc)) from None


# ------------------------------------------------------------------ positions
#: Why DDS cannot model the position of a view (a reason word of the module
#: docstring), or ``None`` when it can: the deal analysis asks the same.
unsupported = position_reason


def deal_utility(state: Any, seat: int, side_tricks: int) -> float:
    """The deal's score for ``seat``'s team minus the opponents' when its side
    takes ``side_tricks`` of the tricks left (the current one included) and the
    other side the rest — the engine's scoring (:func:`score_deal`, with the bags
    the teams carry in), plus ±:data:`MATCH_VALUE` when the deal ends the match."""
    from goat.games.spades.scoring import game_winner

    team = seat % 2
    result = score_after(state, team, side_tricks)
    value = float(result.score[team] - result.score[1 - team])
    if not state.single_deal:
        totals = [state.score_total[t] + result.score[t] for t in (0, 1)]
        winner = game_winner(state.rules, totals, state.deals_played + 1, result.boston_made_by)
        if winner is not None:
            value += MATCH_VALUE if winner == team else -MATCH_VALUE
    return value


# ------------------------------------------------------------------ inference
#: Draws a world may take to find hands that fit the bids (1: take the first).
INFER_TRIES = 8
#: A number bid fits a hand whose trick estimate is this close to it; a nil, one
#: whose estimate is below :data:`NIL_ESTIMATE`.
BID_SLACK = 1.5
NIL_ESTIMATE = 2.0


def fits_bids(world: Any, seat: int) -> bool:
    """Whether the other seats' dealt hands in ``world`` look like their bids, read
    as the heuristic bids (:func:`goat.bots.spades_heuristic.estimate_tricks`): a
    number within :data:`BID_SLACK` of the hand's estimate, a nil on a hand
    estimated under :data:`NIL_ESTIMATE` tricks. Blind bids (made unseen), Bemo
    bids and forced bids (``mirror``, where the sampler already deals the bid
    spades) tell nothing and always fit."""
    from goat.bots.spades_heuristic import estimate_tricks
    from goat.games.spades.cards import spades_order

    if world.rules.mirror or not world.logs:
        return True
    order = spades_order(world.rules.jokers)
    hands = world.logs[-1]["deal"].hands
    for other, bid in enumerate(world.bids):
        if other == seat or bid is None or bid.is_blind or bid.kind not in ("number", "nil"):
            continue
        estimate = estimate_tricks(hands[other], order)
        if bid.kind == "nil" and estimate >= NIL_ESTIMATE:
            return False
        if bid.kind == "number" and abs(estimate - bid.tricks) > BID_SLACK:
            return False
    return True


class BidInference:
    """A world sampler that prefers worlds whose hands fit the bids made
    (:func:`fits_bids`): each world is the first of up to ``tries`` draws that
    fits, else the last draw (a player may bid in a way the estimate does not
    read, and a world is still better than none). Plain PIMC samples every deal
    consistent with the cards seen as equally likely; an opponent who bid 6
    holds more than a random hand, and the double-dummy values follow the cards."""

    def __init__(self, sampler: Any, seat: int, tries: int) -> None:
        self.sampler = sampler
        self.seat = seat
        self.tries = tries

    def sample(self, rng: random.Random) -> Any:
        world = self.sampler.sample(rng)
        for _ in range(self.tries - 1):
            if fits_bids(world, self.seat):
                break
            world = self.sampler.sample(rng)
        return world


# ------------------------------------------------------------------------ bot
def _other_bot(name: str, seed: int | str | None, stand_in: bool, time_limit: float | None) -> Any:
    """The Spades bot ``name`` that decides where DDS cannot, with this bot's
    ``stand_in`` and ``time_limit`` where it takes them (a table's think time holds
    for every decision of the seat)."""
    from goat.bots import bot_factory, make_bot

    factory = bot_factory(name, "spades")
    takes = set(inspect.signature(factory).parameters) if factory is not None else set()
    settings = {key: value for key, value in (("stand_in", stand_in), ("time_limit", time_limit))
                if key in takes and value is not None}
    return make_bot(name, seed, game="spades", **settings)


class SpadesPIMCBot(BaseBot):
    """Sample worlds, solve each with DDS, play the best average score (see the module docstring)."""

    name = "pimc"
    games = ("spades",)

    def __init__(self, seed: int | str | None = None, worlds: int = DEFAULT_WORLDS,
                 time_limit: float | None = None, fallback: str = "heuristic", stand_in: bool = False,
                 infer: int = INFER_TRIES, nil_bot: str = DEFAULT_NIL_BOT) -> None:
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
            raise BotError(f"pimc needs worlds >= 1, not {worlds!r}")
        if isinstance(infer, bool) or not isinstance(infer, int) or infer < 1:
            raise BotError(f"pimc: infer must be a whole number >= 1 (draws per world; 1: no inference), not {infer!r}")
        self.infer = infer
        self.time_limit = check_time_limit("pimc", time_limit)
        for setting, other in (("fallback", fallback), ("nil_bot", nil_bot)):
            if not isinstance(other, str) or other.strip().lower() == "pimc":
                raise BotError(f"pimc: {setting} must be another Spades bot, not {other!r}")
        _load_dds()
        # The fallback bids and exchanges for this bot, so a stand-in's caution is its to keep.
        self.fallback = _other_bot(fallback, seed, stand_in, self.time_limit)
        #: Plays where a nil is alive.
        self.nil_bot: Any = _other_bot(nil_bot, seed, stand_in, self.time_limit)
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.name = (f"pimc:worlds={worlds}" + (f":time_limit={time_limit}" if time_limit else "")
                     + (f":infer={infer}" if infer != INFER_TRIES else "")
                     + (f":nil_bot={nil_bot}" if nil_bot != DEFAULT_NIL_BOT else ""))

    @staticmethod
    def available() -> bool:
        """Whether this bot can be made here (DDS installed): the bot lists ask."""
        return dds_available()

    def prepare(self, view: View) -> None:
        _load_dds()

    def choose(self, view: View) -> Action:
        legal = legal_actions(view)
        if len(legal) == 1:
            return legal[0]
        reason = unsupported(view)
        if reason is not None:
            return (self.nil_bot if reason == "nil" else self.fallback).choose(view)
        values = self.action_values(view)
        if not values:   # no world drawn: the plain policy, not nothing
            return self.fallback.choose(view)
        best = max(values.values())
        tied = sorted((a for a in legal if str(a) in values and values[str(a)] >= best - 1e-9), key=str)
        if len(tied) == 1:
            return tied[0]
        preferred = self.fallback.choose(view)
        if preferred in tied:
            return preferred
        return tied[self.rng.randrange(len(tied))]

    def action_values(self, view: View) -> dict[str, float]:
        """Each legal action's mean utility over the worlds solved (``{}``: none was).
        Only for positions DDS models (:func:`unsupported` is ``None``)."""
        from goat.games import world_sampler

        seat = view["seat"]
        legal = {str(a): a.cards[0] for a in legal_actions(view)}
        totals: dict[str, float] = defaultdict(float)
        solved = 0
        sampler = BidInference(world_sampler(dict(view)), seat, self.infer)
        for world in sampled_worlds(sampler, self.rng, self.worlds, self.time_limit):
            tricks = dd_tricks(world)
            if any(card not in tricks for card in legal.values()):
                continue   # not a position DDS plays as the engine does (cannot happen under these rules)
            solved += 1
            for text, card in legal.items():
                totals[text] += deal_utility(world, seat, tricks[card])
        return {text: total / solved for text, total in totals.items()} if solved else {}
