"""Shared helpers for the Spades rule tests.

Tests build deals from hands written in card notation, so every expected
outcome can be worked out by hand from ``shared/rules/spades.md``. The
``SUIT_HANDS`` deal (seat 0 all clubs, 1 diamonds, 2 hearts, 3 spades) is the
workhorse: with it seat 3 takes every trick, whatever anyone plays.

>>> s = deal_state(SUIT_HANDS, dealer=3)
>>> s.current_player()
0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from goat.cards import Card, parse_cards
from goat.games.spades import SpadesDeal, SpadesState, new_state
from goat.protocol import Action

Hands = Mapping[int, str] | list[str]

#: Seat 0 holds all clubs, 1 all diamonds, 2 all hearts, 3 all spades.
SUIT_HANDS = [" ".join(r + s for r in "23456789TJQKA") for s in "CDHS"]


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text) if text.strip() else ()


def make_deal(hands: Hands) -> SpadesDeal:
    by_seat = hands if isinstance(hands, list) else [hands[s] for s in range(4)]
    return SpadesDeal(tuple(cards(h) for h in by_seat))


def deal_state(hands: Hands, dealer: int = 3, rules: str = "standard", options: dict[str, Any] | None = None,
               single_deal: bool = False, **match: Any) -> SpadesState:
    """A state with ``hands`` dealt by ``dealer`` (match facts such as
    ``score_total`` may be set before the deal, as after earlier deals)."""
    state = new_state(rules, options=options, first_dealer=dealer, single_deal=single_deal)
    for key, value in match.items():
        setattr(state, key, value)
    state.apply_chance(make_deal(hands))
    return state


def act(state: SpadesState, *texts: str) -> SpadesState:
    for text in texts:
        state.apply_action(Action.parse(text))
    return state


def bid(state: SpadesState, *bids: str) -> SpadesState:
    """The next seats' bids in turn: ``bid(s, "3", "nil", "4", "2")``."""
    for b in bids:
        state.apply_action(Action(state.current_player(), "bid", (), b))
    return state


def play_first_legal(state: SpadesState, until_phase: Iterable[str] = ("deal", "over")) -> SpadesState:
    """Play the first legal action (lowest card) until the deal ends."""
    stop = set(until_phase)
    while state.phase not in stop:
        state.apply_action(state.legal_actions()[0])
    return state


def legal_texts(state: SpadesState) -> list[str]:
    return [str(a) for a in state.legal_actions()]
