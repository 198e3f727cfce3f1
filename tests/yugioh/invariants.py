"""Invariants every reachable duel state keeps (used by the fuzz tests)."""

from __future__ import annotations

from goat.games.yugioh.state import YugiohState
from goat.games.yugioh.zones import FIELD_SLOT, MONSTER_ZONES, SPELL_ZONES


def check_invariants(state: YugiohState) -> None:
    duel = state.duel
    if duel is None:
        return
    owned = {0: 0, 1: 0}
    seen: set[int] = set()
    for seat, p in enumerate(duel.players):
        assert len(p.monsters) == MONSTER_ZONES and len(p.spells) == SPELL_ZONES + 1  # + the Field Spell zone
        for zone in ("deck", "hand", "gy", "banished", "fusion"):
            for card in p.pile(zone):
                assert card.zone == zone and card.owner == seat, (card.name, zone)
                assert not card.is_token
                assert card.uid not in seen
                seen.add(card.uid)
                owned[card.owner] += 1
        for zone in ("monster", "spell"):
            for index, card in enumerate(p.slots(zone)):
                if card is None:
                    continue
                assert card.zone == zone and card.index == index and card.controller == seat, card.name
                assert card.uid not in seen
                seen.add(card.uid)
                if not card.is_token:
                    owned[card.owner] += 1
                if zone == "spell":
                    assert (index == FIELD_SLOT) == (card.data.subtype == "field"), "Field Spells: the Field zone"
                if zone == "spell" and card.data.is_monster:
                    assert card.equipped_to is not None, "a monster in a Spell & Trap zone is an equip"
        assert p.lp >= 0
    for seat in (0, 1):
        deck = state.decks[seat]
        assert owned[seat] == len(deck.main) + len(deck.fusion), (seat, owned[seat])
    if not state.is_terminal() and not state.is_chance_node():
        assert state.legal_actions(), "a pending decision always has a choice"
