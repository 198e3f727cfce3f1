"""A seeded scan of the world sampler over every ruleset and the options that
change what a seat knows: at decisions of random matches, every world drawn
gives the seat exactly its view (legal actions included), holds every card of
the deck once, deals street's shown trump card into its stock range, and
replays legally — street's replay skips the engine's checks
(``apply_trusted``), so here every such move goes through ``apply_action``.
"""

from __future__ import annotations

import json
import random

import pytest

from goat.games.kozel import KozelState, KozelWorldSampler, new_state
from goat.games.kozel.phases import DEAL, OVER
from goat.protocol import IllegalActionError

SETTINGS = [
    ("classic", 4, {}),
    ("classic", 4, {"trump_lead": "not-after-own-lead"}),
    ("classic", 4, {"trump_lead": "opening-only", "must_follow_trump": False}),
    ("classic", 4, {"trump_lead": "free", "trump_on_plain": "always"}),
    ("classic", 4, {"forced_exchange": False, "shamok_catches_queen": False}),
    ("classic", 4, {"royal_goat": True, "opening_leader": "last-trick-winner", "jack_order": "spades-high"}),
    ("classic", 4, {"trump_suit": "drawn", "trump_card_from": "stock"}),
    ("classic", 4, {"trump_suit": "drawn", "partner_exchange": 1, "royal_goat": True, "deck": "36"}),
    ("full-hand", 4, {}),
    ("full-hand", 4, {"partner_exchange": 0, "trump_lead": "not-after-own-lead"}),
    ("full-hand", 4, {"trump_on_plain": "always", "must_follow_trump": False}),
    ("full-hand", 3, {}),
    ("full-hand", 3, {"trump_lead": "free", "trump_on_plain": "always", "deck": "36"}),
    ("full-hand", 2, {}),
    ("full-hand", 2, {"trump_card_from": "stock", "trump_lead": "not-after-own-lead"}),
    ("full-hand-24", 4, {}),
    ("street", 4, {}),
    ("street", 4, {"molodka": False, "max_lead": 2}),
    ("street", 4, {"partner_exchange": 1}),
    ("street", 4, {"max_molodka_per_trick": 2, "hand_size": 6}),
    ("street", 4, {"trump_card_from": "deck", "royal_goat": True}),
]


@pytest.fixture
def checked_replays(monkeypatch):
    """``apply_trusted`` that checks: an illegal move fails the test instead of
    being applied unchecked (the sampler would take a refusal for a retry)."""
    def trusted(self, action):
        try:
            KozelState.apply_action(self, action)
        except IllegalActionError as exc:
            raise AssertionError(f"a world replays an illegal move: {exc}") from None
    monkeypatch.setattr(KozelState, "apply_trusted", trusted)


def _all_cards(world: KozelState) -> list[str]:
    return sorted(str(c) for c in [*sum(world.hands, []), *world.stock, *sum(world.piles, []),
                                   *(c for p in world.trick for c in p.cards),
                                   *(c for _, c in world.pending_gives)])


@pytest.mark.slow
@pytest.mark.parametrize("preset,players,options", SETTINGS, ids=lambda x: str(x))
def test_worlds_of_random_matches_fit_their_views(preset, players, options, checked_replays):
    rng = random.Random(2026)
    checked = 0
    for match in range(4):
        state = new_state(preset, players=players, options=options, first_dealer=match % players)
        step = 0
        while not state.is_terminal() and checked < 250:
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            step += 1
            if step % 2 == 0:
                seat = rng.randrange(players)
                view = json.loads(json.dumps(state.view(seat)))
                world = KozelWorldSampler(view).sample(random.Random(step))
                assert json.loads(json.dumps(world.view(seat))) == view
                if world.phase not in (DEAL, OVER):
                    assert _all_cards(world) == sorted(map(str, world.rules.deck_cards))
                deal = world.logs[-1]["deal"]
                deal.validate(world.rules)
                if world.rules.trump_suit == "drawn" and world.rules.trump_card_from == "stock":
                    stock = list(deal.stock)
                    assert 1 <= stock.index(deal.trump_card) <= len(stock) - 2
                checked += 1
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
    assert checked >= 120
