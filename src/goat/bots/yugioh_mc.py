"""Yu-Gi-Oh! ``mc``: determinized Monte Carlo from one seat's view.

``greedy`` judges an action by what it is (a summon, an attack into a weaker
monster); it cannot see that an attack runs into a Set Mirror Force, or that
passing keeps a trap for a better moment. ``mc`` plays the candidates out:

1. **Candidates.** The legal actions ranked by greedy's score
   (:meth:`YugiohGreedyBot.ranked`); the ``top`` best, plus the best-ranked
   *quiet* action (``pass``, ``phase ...`` but the Battle Phase, ``done``) when
   it is not among them — greedy scores doing nothing 0, so without it ``mc``
   could never choose to hold back, which is what lookahead is for.
2. **Worlds.** ``worlds`` determinizations of the hidden cards
   (:class:`~goat.games.yugioh.worlds.YugiohWorldSampler`: the view read once,
   each world's view equal to this one). A world that cannot be drawn is
   skipped; with none, ``mc`` plays greedy's choice.
3. **Rollouts.** In each world every candidate is applied to its own copy and
   greedy plays both seats (chance drawn from a per-world seed shared by the
   candidates, so they meet the same luck) until ``horizon`` turns have ended
   — 2: the rest of this turn and the whole next one, so an attack is judged
   after the other seat's answer — or the duel ends.
4. **Score** (for the bot's seat, :func:`position_value`): a won/lost duel is
   ±``WIN``, above any position; otherwise the LP difference plus material —
   ``HAND`` per card in hand, ``ATK_SHARE`` of each monster's ATK and ``SET`` per
   Set Spell/Trap, each mine minus theirs. The candidate with the best mean wins;
   ties go to greedy's order.

Budget: ``worlds`` (default 6) and optionally ``time_limit`` seconds, checked
between worlds (at least one world is always played): with worlds alone the bot
is deterministic for a seed. Decisions outside a running duel (go first or
second, side-decking) and those with one legal action are greedy's.
"""

from __future__ import annotations

import random
from typing import Any

from goat.bots.base import BaseBot, BotError, View, check_time_limit, sampled_worlds
from goat.bots.yugioh import YugiohGreedyBot, _legal_texts, _parse

#: A duel won (lost) in a rollout: worth more than any position.
WIN = 100_000.0
#: Material, in LP: a card in hand, a Set Spell/Trap, the share of a monster's ATK.
HAND = 400.0
SET = 300.0
ATK_SHARE = 0.5
#: Verbs of the actions that do nothing ("phase battle" is not one: it opens attacks).
QUIET_VERBS = ("pass", "phase", "done")
#: A rollout longer than this many steps is cut (a safety net; turns end long before).
MAX_ROLLOUT_STEPS = 5000


def _whole(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise BotError(f"mc: {name} must be a whole number >= {minimum}, not {value!r}")
    return value


def _quiet(text: str) -> bool:
    """Does the action ``text`` ("<seat> <verb> [what]") do nothing?"""
    parts = text.split(" ", 2)
    return parts[1] in QUIET_VERBS and parts[2:] != ["battle"]


def position_value(state: Any, seat: int, duel_number: int) -> float:
    """How good ``state`` is for ``seat`` after a rollout begun in duel
    ``duel_number`` (the count of finished duels then): see the module docstring."""
    if len(state.results) > duel_number:
        winner = state.results[duel_number]["winner"]
        return 0.0 if winner is None else WIN if winner == seat else -WIN
    duel = state.duel
    value = 0.0
    for side, sign in ((seat, 1.0), (1 - seat, -1.0)):
        p = duel.players[side]
        atk = sum(duel.atk(c) if c.face_up else c.data.atk for c in p.field_monsters())
        sets = sum(1 for c in p.field_spells() if not c.face_up)
        value += sign * (p.lp + HAND * len(p.hand) + ATK_SHARE * atk + SET * sets)
    return value


class YugiohMCBot(BaseBot):
    """Determinized Monte Carlo over greedy rollouts; see the module docstring."""

    name = "mc"
    games = ("yugioh",)

    def __init__(self, seed: int | str | None = None, worlds: int = 6, top: int = 4, horizon: int = 2,
                 time_limit: float | None = None) -> None:
        self.worlds = _whole("worlds", worlds, 1)
        self.top = _whole("top", top, 1)
        self.horizon = _whole("horizon", horizon, 1)
        self.time_limit = check_time_limit("mc", time_limit)
        self.rng = random.Random(seed)
        self.greedy = YugiohGreedyBot(self.rng.randrange(2**32))
        settings = {"worlds": (worlds, 6), "top": (top, 4), "horizon": (horizon, 2), "time_limit": (time_limit, None)}
        self.name = "mc" + "".join(f":{k}={v}" for k, (v, default) in settings.items() if v != default)
        #: Worlds the last decision played out (0: it was greedy's).
        self.last_worlds = 0

    def choose(self, view: View) -> Any:
        legal = _legal_texts(view)
        self.last_worlds = 0
        if len(legal) == 1:
            return _parse(view, legal[0])
        ranked = self.greedy.ranked(view, legal, self.rng)
        if view.get("turn") is None or (view.get("decision") or {}).get("kind") in ("first", "side"):
            return _parse(view, ranked[0])
        candidates = self.candidates(ranked)
        return _parse(view, self.search(view, candidates))

    def candidates(self, ranked: list[str]) -> list[str]:
        """The ``top`` best of greedy's ranking, and its best quiet action."""
        out = ranked[:self.top]
        if not any(_quiet(t) for t in out):
            out += [t for t in ranked if _quiet(t)][:1]
        return out

    def search(self, view: View, candidates: list[str]) -> str:
        """The candidate with the best mean :func:`position_value` over the worlds."""
        if len(candidates) == 1:
            return candidates[0]
        from goat.games import world_sampler
        from goat.games.worlds import WorldSamplingError

        try:
            sampler = world_sampler(dict(view))
        except WorldSamplingError:
            return candidates[0]
        seat = view["seat"]
        totals = [0.0] * len(candidates)
        for world in sampled_worlds(sampler, self.rng, self.worlds, self.time_limit):
            seed = self.rng.randrange(2**32)
            last = len(candidates) - 1
            for i, text in enumerate(candidates):
                state = world if i == last else world.clone()
                totals[i] += self.rollout(state, text, seat, seed)
            self.last_worlds += 1
        if not self.last_worlds:
            return candidates[0]
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def rollout(self, state: Any, text: str, seat: int, seed: int) -> float:
        """Apply ``text`` in the world ``state``, let greedy play both seats for
        ``horizon`` turns (or to the duel's end) and score the result."""
        rng = random.Random(seed)
        duel_number = len(state.results)
        last_turn = state.duel.turn + self.horizon - 1
        state.apply_action(text)
        for _ in range(MAX_ROLLOUT_STEPS):
            if state.is_terminal() or len(state.results) > duel_number or state.duel.turn > last_turn:
                break
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_texts()
            if len(legal) > 1:
                legal = self.greedy.ranked(state.view(state.current_player()), legal, rng)
            state.apply_action(legal[0])
        return position_value(state, seat, duel_number)
