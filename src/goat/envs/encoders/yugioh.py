"""Yu-Gi-Oh! (Goat Format) observation encoder for the RL environments.

A duel's decisions are variable lists of choices (``docs/yugioh.md``,
``goat/games/yugioh/decisions.py``): summon this, attack that, respond or
pass, pick a target... so the action space is a **choice index**: token ``i``
is the ``i``-th of ``state.legal_actions()`` (the engine's order), up to
:data:`MAX_CHOICES` (``positional = True``; the mask allows ``0..len-1``). The
largest lists of the Goat Control mirror are the between-duels side-deck lists
("done" or a main/side swap: at most 1 + 33 distinct cards × 15 side cards =
496); a game whose list is longer is refused in one line rather than truncated
(play ``single_deal=True``, one duel without siding, or smaller side decks).

The observation is the seat's view only. Sides are relative (row 0: the
observer, row 1: the opponent); cards are one-hot or counted over the card
database (:data:`goat.games.yugioh.cards.CARDS`, in its order), with one extra
index for a face-down card the observer may not see. Every value in ``[0, 1]``.

>>> from goat.games.yugioh import new_state
>>> enc = make_encoder(new_state("goat").view(None))
>>> enc.num_tokens, enc.positional, enc.layout.size
(512, True, 2284)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np

from goat.envs.layout import Field, Layout
from goat.games.yugioh.cards import CARDS
from goat.games.yugioh.rules import YugiohRules, make_rules
from goat.protocol import Action

View = Mapping[str, Any]

DEFAULT_RULES = "goat"
PLAYERS = (2, 2)
#: The engine's keyword for "one episode only" (the environments' ``single_deal``).
SINGLE_EPISODE_ARGUMENT = "single_duel"
#: OpenSpiel (``goat.envs.openspiel``): no first dealer is drawn (who goes first is
#: the duel's own coin toss and choice), and ``max_game_length`` counts one duel, or
#: a best of three with drawn duels played again (a size hint).
FIRST_DEALER = False
SINGLE_DEAL_BOUND = 1
MATCH_DEALS_BOUND = 5

#: The action space: choice indices 0..MAX_CHOICES-1.
MAX_CHOICES = 512
ZONES = 5
SPELL_ZONES = 6   # S1..S5 and the Field Spell zone S6
PHASES = ("draw", "standby", "main1", "battle", "main2", "end")
#: Decision kinds the engine asks (``Decision.kind``); any other shows as ``other``.
KINDS = ("open", "battle", "respond", "trigger", "target", "cost", "select", "position", "order", "first",
         "side", "declare", "discard", "search", "set", "tribute", "replay", "other")
HIDDEN = len(CARDS)  # the index of a face-down card the observer does not see
MAX_STAT = 5000.0


class YugiohEncoder:
    """See the module docstring; built by :func:`make_encoder`."""

    game = "yugioh"
    multi_token = False
    out_of_turn = False
    positional = True
    zero_sum = True
    num_tokens = MAX_CHOICES
    #: A size hint (OpenSpiel's ``max_game_length``): random duels of 8000 LP took
    #: 430 to 990 decisions (20 seeds); nothing cuts a longer one short.
    max_tokens_per_deal = 2000

    def __init__(self, rules: YugiohRules) -> None:
        self.rules = rules
        self.index = {c.name: i for i, c in enumerate(CARDS)}
        self.cards = len(CARDS)
        self.need = rules.match_duels // 2 + 1
        self.layout = Layout(self._fields())

    def _fields(self) -> list[Field]:
        c, h = self.cards, self.cards + 1
        return [
            Field("lp", (2,), "each side's Life Points ÷ starting LP (capped at 1)"),
            Field("hand", (c,), "the observer's hand: copies of each card ÷ 3"),
            Field("fusion", (c,), "the observer's Fusion Deck: copies of each card ÷ 3"),
            Field("counts", (2, 3), "per side: hand size ÷ 10, Deck size ÷ 60, Fusion Deck size ÷ 15 (capped at 1)"),
            Field("monsters", (2, ZONES, h), "per side and Monster Zone: the card, one-hot (last index: face-down, unseen)"),
            Field("monster_state", (2, ZONES, 5), "per side and Monster Zone: [occupied, face up, attack position, "
                  "ATK ÷ 5000, DEF ÷ 5000] (ATK/DEF of face-up monsters, capped at 1)"),
            Field("spells", (2, SPELL_ZONES, h), "per side and Spell & Trap Zone (S6: the Field Spell zone): the card, one-hot (last index: face-down, unseen)"),
            Field("spell_state", (2, SPELL_ZONES, 2), "per side and Spell & Trap Zone: [occupied, face up]"),
            Field("graveyard", (2, c), "per side: copies of each card in the Graveyard ÷ 3 (capped at 1)"),
            Field("banished", (2, c), "per side: copies of each card banished ÷ 3 (capped at 1)"),
            Field("chain", (c,), "copies of each card on the chain ÷ 3 (capped at 1)"),
            Field("chain_links", (2,), "chain links of each side ÷ 5 (capped at 1)"),
            Field("turn", (2,), "[the observer is the turn player, turn number ÷ 100 (capped at 1)]"),
            Field("phase", (len(PHASES),), "phase one-hot: draw, standby, main1, battle, main2, end"),
            Field("decision", (len(KINDS),), "the pending decision's kind, one-hot (open, battle, respond, ... other)"),
            Field("deciding", (3,), "[the observer decides, the opponent decides, number of choices ÷ 512 "
                  "(the observer's own decision only)]"),
            Field("match", (3,), "[observer's duel wins ÷ wins needed, opponent's likewise, duel number ÷ match_duels]"),
        ]

    # ------------------------------------------------------------------ tokens
    def tokens(self, action: Action) -> tuple[int, ...]:
        raise NotImplementedError("Yu-Gi-Oh! tokens are choice indices (positional); use TokenGame.tokens_of")

    def token_name(self, token: int) -> str:
        if 0 <= token < MAX_CHOICES:
            return f"choice {token}"
        raise ValueError(f"no token {token}")

    def offer_seats(self, public_view: View) -> list[int]:
        return []

    def scores(self, result: View) -> list[float]:
        """Duel wins as a zero-sum balance: the deal reward is ±1 per duel won or lost."""
        wins = result["wins"]
        return [float(wins[0] - wins[1]), float(wins[1] - wins[0])]

    def utility_range(self, single_deal: bool) -> tuple[float, float]:
        return (-1.0, 1.0)

    def describe(self, public_view: View) -> str:
        v = public_view
        if "players" not in v:
            return f"yugioh {v['rules']}: duel {v['duel_number']}, wins {v['wins']}"
        lps = [p["lp"] for p in v["players"]]
        decision = v["decision"] or {}
        return (f"yugioh {v['rules']}: duel {v['duel_number']}, turn {v['turn']} (seat {v['turn_player']}), "
                f"phase {v['phase']}, LP {lps}, wins {v['wins']}, "
                f"seat {decision.get('seat', '-')} decides: {decision.get('prompt', '-')}")

    # ------------------------------------------------------------------ encode
    def _count(self, names: list[str] | None, out: np.ndarray) -> None:
        for name, k in Counter(names or ()).items():
            out[self.index[name]] = min(1.0, k / 3)

    def encode(self, view: View, out: np.ndarray) -> None:
        f = self.layout.views(out)
        me = view["seat"]
        decision = view["decision"]
        if decision is not None:
            kind = decision["kind"] if decision["kind"] in KINDS else "other"
            f["decision"][KINDS.index(kind)] = 1.0
            f["deciding"][0 if decision["seat"] == me else 1] = 1.0
            f["deciding"][2] = len(view["legal_actions"]) / MAX_CHOICES
        f["match"][0] = view["wins"][me] / self.need
        f["match"][1] = view["wins"][1 - me] / self.need
        f["match"][2] = min(1.0, view["duel_number"] / self.rules.match_duels)
        if "players" not in view:
            return
        mine = view["players"][me]
        self._count(mine["hand"], f["hand"])
        self._count(mine["fusion"], f["fusion"])
        for r, seat in enumerate((me, 1 - me)):
            p = view["players"][seat]
            f["lp"][r] = min(1.0, max(0, p["lp"]) / self.rules.starting_lp)
            f["counts"][r] = [min(1.0, p["hand_count"] / 10), min(1.0, p["deck_count"] / 60),
                              min(1.0, p["fusion_count"] / 15)]
            self._count(p["gy"], f["graveyard"][r])
            self._count(p["banished"], f["banished"][r])
            for z, card in enumerate(p["monsters"][:ZONES]):
                if card is not None:
                    f["monsters"][r, z, self.index.get(card["name"], HIDDEN)] = 1.0
                    f["monster_state"][r, z, :3] = [1.0, card["face_up"], card.get("position") == "attack"]
                    if card["face_up"]:
                        f["monster_state"][r, z, 3] = min(1.0, max(0, card.get("atk", 0)) / MAX_STAT)
                        f["monster_state"][r, z, 4] = min(1.0, max(0, card.get("def", 0)) / MAX_STAT)
            for z, card in enumerate(p["spells"][:SPELL_ZONES]):
                if card is not None:
                    f["spells"][r, z, self.index.get(card["name"], HIDDEN)] = 1.0
                    f["spell_state"][r, z] = [1.0, card["face_up"]]
        self._count([link["card"] for link in view["chain"]], f["chain"])
        for link in view["chain"]:
            f["chain_links"][0 if link["seat"] == me else 1] += 0.2
        np.minimum(f["chain_links"], 1.0, out=f["chain_links"])
        f["turn"][0] = view["turn_player"] == me
        f["turn"][1] = min(1.0, view["turn"] / 100)
        if view["phase"] in PHASES:
            f["phase"][PHASES.index(view["phase"])] = 1.0


def make_encoder(view: View) -> YugiohEncoder:
    """The encoder for the ruleset of ``view`` (the options are public)."""
    return YugiohEncoder(make_rules(view["rules"], dict(view["options"])))
