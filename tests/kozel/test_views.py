"""View secrecy: ``KozelState.view(seat)`` never shows a card the seat may not know.

The knowable set of each seat is computed here independently of the view, from
the deal and the actions as they happen (``shared/rules/kozel.md``, "Hidden
information"): the seat's own current and past hand cards, every face-up card
played (plays and molodkas), the shown trump card, cards it gave or received in
an exchange, and its own passed cards. A spectator (``seat=None``) knows only
the public cards: face-up plays and the shown trump card. The view is
serialised to JSON and searched for every card string in it.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goat.games.kozel import KozelDeal, KozelState, new_state
from goat.protocol import Action

from .conftest import deal_state, play

RULESETS = [("classic", 4), ("full-hand", 4), ("full-hand-24", 4), ("street", 4),
            ("full-hand", 2), ("full-hand", 3)]
CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])([6789TJQKA][CDHS])(?![0-9A-Za-z])")


def cards_in(view: dict) -> set[str]:
    """Every card string anywhere in the JSON text of ``view``."""
    return set(CARD_TOKEN.findall(json.dumps(view)))


class Knowledge:
    """What each seat (and a spectator) may know in the current deal."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.public: set[str] = set()
        self.seat: list[set[str]] = [set() for _ in range(players)]

    def new_deal(self, state: KozelState) -> None:
        self.public = {str(state.trump_card)} if state.trump_card is not None else set()
        self.seat = [set(self.public) for _ in range(self.players)]
        self.hands_seen(state)

    def hands_seen(self, state: KozelState) -> None:
        for s, hand in enumerate(state.hands):
            self.seat[s] |= {str(c) for c in hand}

    def action(self, seat: int, verb: str, cards: set[str]) -> None:
        if verb in ("play", "molodka"):  # face up
            self.public |= cards
            for known in self.seat:
                known |= cards
        elif verb == "give":  # giver and partner
            self.seat[seat] |= cards
            self.seat[(seat + 2) % 4] |= cards
        elif verb == "pass":  # the passer only
            self.seat[seat] |= cards


def check_views(state: KozelState, know: Knowledge) -> None:
    spectator = state.view(None)
    leaked = cards_in(spectator) - know.public
    assert not leaked, f"spectator sees {sorted(leaked)}"
    face_up = {str(c) for p in state.trick if p.verb == "play" for c in p.cards}
    assert face_up <= cards_in(spectator)
    for s in range(state.rules.players):
        shown = cards_in(state.view(s))
        leaked = shown - know.seat[s]
        assert not leaked, f"seat {s} sees {sorted(leaked)} in {state!r}"
        assert {str(c) for c in state.hands[s]} <= shown  # the own hand is there


def walk_checking_views(preset: str, players: int, seed: int, max_deals: int,
                        options: dict | None = None) -> int:
    """Play up to ``max_deals`` random deals checking every view; returns the checks made."""
    state = new_state(preset, players=players, first_dealer=seed % players, options=options)
    rng = random.Random(seed)
    know = Knowledge(players)
    checks = 0
    while not state.is_terminal() and len(state.deal_results) < max_deals:
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            know.new_deal(state)
        else:
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
            know.action(action.seat, action.verb, {str(c) for c in action.cards})
            state.apply_action(action)
            know.hands_seen(state)
        check_views(state, know)
        checks += 1
    return checks


@settings(max_examples=30, deadline=None)
@given(rules=st.sampled_from(RULESETS), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_views_show_only_knowable_cards(rules: tuple[str, int], seed: int) -> None:
    preset, players = rules
    assert walk_checking_views(preset, players, seed, max_deals=3) > 0


#: Tables with the options the last rules changes read: street's shown card face up
#: with up to four molodkas a trick, or two with annulled ties, and the shamok and
#: annulled deals under street's leader rule.
OPTION_TABLES = [("street", 4, {"trump_card_place": "public", "max_molodka_per_trick": 4}),
                 ("street", 4, {"max_molodka_per_trick": 2, "tie": "annul"}),
                 ("classic", 4, {"opening_leader": "last-trick-winner"}),
                 ("full-hand", 4, {"opening_leader": "last-trick-winner"})]


@settings(max_examples=20, deadline=None)
@given(table=st.sampled_from(OPTION_TABLES), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_views_show_only_knowable_cards_under_decision_options(table: tuple[str, int, dict], seed: int) -> None:
    preset, players, options = table
    assert walk_checking_views(preset, players, seed, max_deals=3, options=options) > 0


def test_every_ruleset_checked_on_fixed_seeds() -> None:
    for preset, players in RULESETS:
        for seed in range(2):
            assert walk_checking_views(preset, players, seed, max_deals=2) > 0


def test_passed_cards_hidden_from_others_shown_to_passer() -> None:
    state = deal_state("street", hands={1: "8D 6C 7S 8S", 2: "AH 7D 9C 6S",
                                        3: "TD JH 7C AS", 0: "9D 7H 6H 9S"}, trump_card="QD")
    play(state, "1 play 8D", "2 pass 7D")
    assert "7D" in cards_in(state.view(2))
    for seat in (None, 0, 1, 3):
        view = state.view(seat)
        assert "7D" not in cards_in(view)
        assert view["trick"][1] == {"seat": 2, "verb": "pass", "count": 1}
        assert view["history"][-1] == "2 pass ?"
    play(state, "3 play TD", "0 pass 9D")  # the trick is over: still hidden in last_trick
    assert "7D" not in cards_in(state.view(1)) and "9D" not in cards_in(state.view(None))
    assert "7D" in cards_in(state.view(2)) and "9D" in cards_in(state.view(0))


def test_partner_exchange_seen_by_giver_and_receiver_only() -> None:
    state = new_state("full-hand", first_dealer=0)
    state.apply_chance(state.sample_chance(random.Random(3)))
    giver = state.current_player()  # seat 1 gives first
    card = state.legal_actions()[0].cards[0]
    state.apply_action(state.legal_actions()[0])
    for seat in range(4):
        assert (str(card) in cards_in(state.view(seat))) == (seat == giver)
    while state.phase == "partner-exchange":
        state.apply_action(state.legal_actions()[0])
    receiver = (giver + 2) % 4
    shown = {seat for seat in range(4) if str(card) in cards_in(state.view(seat))}
    assert card in state.hands[receiver]
    assert shown == {giver, receiver}  # the giver through its own history line
    assert str(card) not in cards_in(state.view(None))


# ------------------------------------------- street: the shown card's place and drawer
def _replayed(deal: KozelDeal, dealer: int, actions: list[Action], options: dict) -> KozelState:
    state = new_state("street", first_dealer=dealer, single_deal=True, options=options)
    state.apply_chance(deal)
    for action in actions:
        state.apply_action(action)
    return state


def _views(state: KozelState) -> list[str]:
    return [state.information_state_string(seat) for seat in (None, 0, 1, 2, 3)]


def _swapped(deal: KozelDeal, i: int, j: int) -> KozelDeal:
    stock = list(deal.stock)
    stock[i], stock[j] = stock[j], stock[i]
    return KozelDeal(deal.hands, tuple(stock), deal.trump_card)


@pytest.mark.parametrize("place_option", ["hidden", "public"])
@pytest.mark.parametrize("seed", range(6))
def test_street_trump_card_place_and_drawer_only_where_it_lies_face_up(seed: int, place_option: str) -> None:
    """``trump_card_place="hidden"`` (the rules' words: only the card's identity is
    public): no view gives where it lies or who drew it, so two deals whose stocks
    differ only in where the shown card lies among the cards not drawn yet look the
    same to every seat. ``"public"`` (it lies face up in its place): every view (a
    spectator's too) gives that place and, once drawn, who drew it, so moving the
    card is seen. Nothing else about the stock either way: swapping two other hidden
    cards not drawn yet changes no view."""
    public = place_option == "public"
    options = {"trump_card_place": place_option}
    rng = random.Random(seed)
    dealer = seed % 4
    state = new_state("street", first_dealer=dealer, single_deal=True, options=options)
    deal = state.sample_chance(rng)
    state.apply_chance(deal)
    place = deal.stock.index(deal.trump_card)
    actions: list[Action] = []
    while not state.is_terminal():
        drawn_by = next((s for s in range(4) if deal.trump_card in state.drawn[s]), None)
        for seat in (None, 0, 1, 2, 3):
            view = state.view(seat)
            if public:
                assert view["trump_card_place"] == place and view["trump_card_drawn_by"] == drawn_by
            else:
                assert "trump_card_place" not in view and "trump_card_drawn_by" not in view
        still = len(state.stock)   # the stock's last ``still`` cards are not drawn yet
        undrawn = [i for i in range(len(deal.stock) - still, len(deal.stock)) if i != place]
        if len(undrawn) >= 2:
            i, j = rng.sample(undrawn, 2)
            assert _views(_replayed(_swapped(deal, i, j), dealer, actions, options)) == _views(state)
        middle = [i for i in undrawn if i != len(deal.stock) - 1]   # it is shown from the stock's middle
        if drawn_by is None and middle:
            moved = _replayed(_swapped(deal, place, rng.choice(middle)), dealer, actions, options)
            assert (_views(moved) != _views(state)) == public   # its place is known only face up
        action = rng.choice([a for a in state.legal_actions() if a.seat == state.current_player()])
        actions.append(action)
        state.apply_action(action)
        if drawn_by is not None and len(actions) > 20:
            break


def test_a_trump_card_shown_from_the_deck_has_no_place() -> None:
    state = new_state("full-hand", first_dealer=0)
    state.apply_chance(state.sample_chance(random.Random(1)))
    view = state.view(None)
    assert view["trump_card"] and "trump_card_place" not in view and "trump_card_drawn_by" not in view
