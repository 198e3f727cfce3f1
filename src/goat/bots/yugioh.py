"""Yu-Gi-Oh! bots: they see one seat's view (``state.view(seat)``) and answer
with one of its ``legal_actions`` — so they can never make an illegal choice.

* ``random`` — uniform among the legal actions.
* ``greedy`` — a one-look heuristic: it scores each legal action from the
  view (summon the strongest monster, attack what it beats, use removal and
  draw spells, answer attacks with its traps, pass when nothing is good) and
  picks the best, breaking ties with a seeded random number.
* ``mc`` — determinized Monte Carlo with greedy rollouts (:mod:`goat.bots.yugioh_mc`).
"""

from __future__ import annotations

import random
from typing import Any

from goat.bots.base import BaseBot, BotError, View
from goat.games import get_game

#: Card names the greedy bot is glad to activate whenever it may.
GOOD_ACTIVATIONS = {
    "Pot of Greed": 9, "Graceful Charity": 8, "Delinquent Duo": 7, "Mirror Force": 9, "Sakuretsu Armor": 8,
    "Torrential Tribute": 4, "Heavy Storm": 5, "Snatch Steal": 8, "Premature Burial": 6,
    "Call of the Haunted": 6, "Chaos Sorcerer": 7, "Black Luster Soldier - Envoy of the Beginning": 7,
    "Thousand-Eyes Restrict": 8, "Breaker the Magical Warrior": 5, "Nobleman of Crossout": 6,
    "Ring of Destruction": 3, "Book of Moon": 3, "Mystical Space Typhoon": 4, "Dust Tornado": 4,
    "Metamorphosis": 6, "Scapegoat": 2, "Tribe-Infecting Virus": 3, "Rush Recklessly": 1,
    "Polymerization": 6, "Black Luster Ritual": 6, "Reinforcement of the Army": 7, "Exiled Force": 4,
    "Yami": 3, "Sogen": 3, "Mystic Plasma Zone": 3, "Skull Lair": 3, "Y-Dragon Head": 3, "Z-Metal Tank": 3,
}
#: Counter Traps negate what was just activated or is being Summoned: glad to use
#: against the other seat, never against its own cards.
COUNTER_TRAPS = {"Magic Jammer": 5, "Seven Tools of the Bandit": 5, "Solemn Judgment": 3}


def _legal_texts(view: View) -> list[str]:
    """The decision's choices as written (a duel's actions are parsed by the game).
    Another game's view is refused in one line, as Kozel's bots refuse a duel's."""
    game = view.get("game")
    if game != "yugioh":
        raise BotError(f"the Yu-Gi-Oh! bots do not play {game!r}")
    legal = view.get("legal_actions") or []
    if not legal:
        raise BotError(f"seat {view.get('seat')} has no legal action")
    return list(legal)


def _parse(view: View, text: str) -> Any:
    return get_game(view.get("game", "yugioh")).parse_action(text)


class YugiohRandomBot(BaseBot):
    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Any:
        legal = _legal_texts(view)
        return _parse(view, legal[self.rng.randrange(len(legal))])


class YugiohGreedyBot(BaseBot):
    name = "greedy"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Any:
        return _parse(view, self.ranked(view, _legal_texts(view), self.rng)[0])

    def ranked(self, view: View, legal: list[str], rng: random.Random) -> list[str]:
        """``legal`` best first by :meth:`score`, ties broken by one ``rng`` draw
        per action (so the first is the bot's choice; ``mc`` ranks its candidates
        and plays its rollouts with this)."""
        scored = [(self.score(view, text), rng.random(), text) for text in legal]
        return [text for *_, text in sorted(scored, reverse=True)]

    # ------------------------------------------------------------- scoring
    @staticmethod
    def _monster_stats(view: View, label: str) -> tuple[int, int] | None:
        """(ATK, DEF or ATK if in attack) of a field monster named by its label."""
        if "@" not in label:
            return None
        where = label.split("@", 1)[1]
        seat, zone, slot = int(where[0]), where[1], int(where[2:]) - 1
        if zone != "M":
            return None
        card = view["players"][seat]["monsters"][slot]
        if card is None or "atk" not in card:
            return None
        return card["atk"], card["atk"] if card["position"] == "attack" else card["def"]

    def score(self, view: View, text: str) -> float:
        _seat, verb, *rest = text.split(" ", 2)
        args = rest[0] if rest else ""
        me = view["seat"]
        if verb == "attack":
            attacker, _, target = args.partition(" -> ")
            mine = self._monster_stats(view, attacker)
            if target == "direct":
                return 20
            theirs = self._monster_stats(view, target)
            if mine is None:
                return 1
            if theirs is None:  # face-down: worth a poke with a strong monster
                return 6 if mine[0] >= 1500 else 0
            return 12 + (mine[0] - theirs[1]) / 1000 if mine[0] > theirs[1] else -5
        if verb == "activate":
            name = args.split("@", 1)[0].split(" attack twice")[0]
            if name in COUNTER_TRAPS:
                return 10 + COUNTER_TRAPS[name] if self._answers_the_other_seat(view) else -1
            return 10 + GOOD_ACTIVATIONS.get(name, 2)
        if verb in ("summon", "special"):
            try:
                from goat.games.yugioh.cards import card

                return 8 + card(args).atk / 1000
            except Exception:  # noqa: BLE001 - an unknown label is just unattractive
                return 5
        if verb == "set":
            return 4
        if verb == "flip":
            return 6
        if verb == "position":
            return -1
        if verb == "choose":
            return self._choice_score(view, args, me)
        if verb == "phase":
            return 0.5 if args == "battle" else 0
        if verb == "pass":
            return 0
        if verb in ("done", "swap"):
            return 1 if verb == "done" else -1
        return 0

    @staticmethod
    def _answers_the_other_seat(view: View) -> bool:
        """Would a Counter Trap now answer the other seat: its chain link, or the
        Summon it is making (a Summon's window comes with no chain)?"""
        chain = view.get("chain") or []
        who = chain[-1]["seat"] if chain else view.get("turn_player")
        return who != view["seat"]

    def _choice_score(self, view: View, args: str, me: int) -> float:
        if args in ("first",):
            return 1
        if args == "attack":
            return 1
        if "@" in args:
            owner = int(args.split("@", 1)[1][0])
            stats = self._monster_stats(view, args)
            strength = (stats[0] if stats else 1000) / 1000
            # Effects mostly target the opponent's cards; costs and tributes take my weakest.
            prompt = (view.get("decision") or {}).get("prompt", "")
            hostile = any(w in prompt for w in ("destroy", "remove", "face-down", "control", "absorb"))
            if "keep" in prompt:  # Last Turn: the monster that stays to fight, my strongest
                return strength if owner == me else 0
            if hostile:
                return (5 + strength) if owner != me else -strength
            return -strength if owner == me else 0
        return 0


from goat.bots.yugioh_mc import YugiohMCBot  # noqa: E402 - it builds on the greedy bot above

BOTS = {"random": YugiohRandomBot, "greedy": YugiohGreedyBot, "mc": YugiohMCBot}
