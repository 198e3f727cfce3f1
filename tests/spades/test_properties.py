"""Hypothesis properties of the Spades engine over random games of every preset
and the options that change what is hidden (face-up cards, the double nil's
exchange, redeals, reneges): cards are conserved, every deal has 13 tricks,
views never show a card their seat may not know, a record replays to the same
result, refusals change nothing, and a sampled world looks the same to its seat."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from goat.cards import Card
from goat.games.spades import PRESETS, SpadesState, new_state, sample_world
from goat.protocol import Action, IllegalActionError
from goat.records import check_result, record_from_state, replay

CARD_TOKEN = re.compile(r"^(?:[2-9TJQKA][CDHS]|[LB]J)$")
VARIANTS = sorted(set(PRESETS) - {"spades"})


@st.composite
def games(draw: Any) -> tuple[SpadesState, random.Random]:
    preset = draw(st.sampled_from(VARIANTS))
    options: dict[str, Any] = {"max_deals": 2, "blind_nil_behind": draw(st.sampled_from([0, 100]))}
    if preset != "mirror":
        options["double_nil"] = draw(st.booleans())
        options["weak_hand_redeal"] = draw(st.booleans())
    if draw(st.booleans()):
        options["face_up_cards"] = draw(st.sampled_from([0, 4, 13]))
    options["renege_penalty"] = draw(st.sampled_from([False, False, True]))
    seed = draw(st.integers(0, 2**32))
    state = new_state(preset, options=options, first_dealer=seed % 4)
    return state, random.Random(seed)


def steps(state: SpadesState, rng: random.Random, limit: int = 400):
    """Play randomly, yielding after every chance event and action. Under
    ``renege_penalty`` a card of the hand is sometimes played whatever was led, as
    an imported record may hold: a renege is accepted though never offered."""
    for _ in range(limit):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        elif state.rules.renege_penalty and state.trick and rng.random() < 0.2:
            seat = state.current_player()
            state.apply_action(Action(seat, "play", (rng.choice(state.hands[seat]),)))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


def is_renege(state: SpadesState, action: Action) -> bool:
    """A card that fails to follow suit though the hand could, played in turn
    under ``renege_penalty``: accepted, though not among the legal actions offered."""
    if not (state.rules.renege_penalty and state.phase == "play" and state.trick and action.verb == "play"
            and action.seat == state.current_player() and len(action.cards) == 1):
        return False
    card, hand, suit = action.cards[0], state.hands[action.seat], state.order.suit_of
    led = suit(state.trick[0].cards[0])
    return card in hand and suit(card) != led and any(suit(c) == led for c in hand)


def card_tokens(value: Any) -> set[str]:
    """Every card written anywhere in a JSON-able value (history texts included)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            if k != "options":
                found |= card_tokens(v)
    elif isinstance(value, list):
        for v in value:
            found |= card_tokens(v)
    elif isinstance(value, str):
        for token in re.split(r"[ +]", value):
            if CARD_TOKEN.match(token):
                found.add(token)
    return found


def face_down(state: SpadesState, seat: int) -> bool:
    """The rule, from the state's own fields: bidding, not bid, not looked, and
    a blind bid among the bids its context allows."""
    return (state.phase == "bid" and state.bids[seat] is None and seat not in state.looked
            and any(b.is_blind for b in state._bid_context(seat).legal()))


def is_looked_bid(state: SpadesState, action: Action) -> bool:
    """A bid that needs the cards (a number, nil, Bemo, redeal) from a face-down
    seat on its turn: accepted as "looked, then bid" (a record has no looks),
    though never offered."""
    if not (state.phase == "bid" and action.verb == "bid" and action.seat == state.current_player()
            and face_down(state, action.seat)):
        return False
    from goat.games.spades.bids import parse_bid

    bid = parse_bid(action.bid or "")
    return bid is not None and not bid.is_blind and state._bid_context(action.seat).refusal(bid) is None


def without_looks(view: dict[str, Any]) -> dict[str, Any]:
    """A view as a record without looks replays it: looks left out of the
    history, and while bidding, the face-down state they changed."""
    view = dict(view, history=[h for h in view["history"] if not h.endswith(" bid look")])
    if view["phase"] == "bid":
        for key in ("hand", "hand_face_down", "hands_face_down", "legal_actions"):
            view.pop(key)
    return view


def known_cards(state: SpadesState, seat: int | None) -> set[str]:
    """What ``seat`` may know, from the state itself: its hand, played cards,
    face-up cards, a shown hand, its own gives and those it received (once its
    pair's exchange is complete), and the lowest club the first leader must lead."""
    known = {str(c) for cards in state.face_up for c in cards}
    if state.must_lead is not None:   # low-club-lead: the seat to lead holds the lowest club, publicly
        known.add(str(state.must_lead))
    if seat is not None and not face_down(state, seat):
        known |= {str(c) for c in state.hands[seat]}
    if not state.logs:
        return known
    log = state.logs[-1]
    pending = {giver for giver, _, _ in state.pending_gives}
    for action in log["actions"]:
        cards = {str(c) for c in action.cards}
        if action.verb == "play":
            known |= cards
        elif action.verb == "give" and seat is not None:
            if action.seat == seat or (action.seat == (seat + 2) % 4 and action.seat not in pending):
                known |= cards
        elif action.verb == "bid" and action.bid == "redeal":
            known |= {str(c) for c in log["deal"].hands[action.seat]}
    return known


@settings(max_examples=25, deadline=None)
@given(games())
def test_cards_are_conserved_and_every_deal_has_13_tricks(game) -> None:
    state, rng = game
    deck = Counter(state.rules.deck_cards)
    for s in steps(state, rng):
        if s.phase in ("bid", "exchange", "play"):
            played = [c for a in s.logs[-1]["actions"] if a.verb == "play" for c in a.cards]
            pending = [c for _, _, c in s.pending_gives]
            assert Counter(c for h in s.hands for c in h) + Counter(played) + Counter(pending) == deck
            assert sum(s.tricks_by_seat) == s.tricks_played == len(played) // 4
    finished = state.result()["deals"]
    if state.phase in ("bid", "exchange", "play"):   # stopped by the step limit mid-deal
        finished = finished[:-1]
    for deal in finished:
        assert sum(deal["tricks"]) == (0 if "redeal" in deal["bids"] else 13)


@settings(max_examples=25, deadline=None)
@given(games())
def test_views_never_show_a_card_their_seat_may_not_know(game) -> None:
    state, rng = game
    for s in steps(state, rng):
        for seat in (None, 0, 1, 2, 3):
            shown = card_tokens(s.view(seat))
            hidden = shown - known_cards(s, seat)
            assert not hidden, (seat, hidden, s.view(seat)["history"][-6:])


@settings(max_examples=20, deadline=None)
@given(games())
def test_a_record_replays_to_the_same_result_and_views(game) -> None:
    state, rng = game
    for _ in steps(state, rng):
        pass
    record = json.loads(json.dumps(record_from_state(state)))
    outcome = replay(record)
    check_result(record, outcome)
    assert outcome.result == state.result()
    assert [without_looks(outcome.state.view(s)) for s in range(4)] == \
        [without_looks(state.view(s)) for s in range(4)]


@settings(max_examples=25, deadline=None)
@given(games())
def test_no_view_of_a_face_down_seat_names_a_card_of_its_hand(game) -> None:
    """Blind nil is bid before looking: while a seat may still bid blind and has
    not looked, nothing sent to it (view, information state) names a card of its
    hand but its face-up ones."""
    state, rng = game
    seen_face_down = False
    for s in steps(state, rng):
        for seat in range(4):
            if not face_down(s, seat):
                continue
            seen_face_down = True
            secret = {str(c) for c in s.hands[seat]} - {str(c) for c in s.face_up[seat]}
            view = s.view(seat)
            assert view["hand"] == [] and view["hand_face_down"] and view["hands_face_down"][seat]
            assert not card_tokens(view) & secret
            assert not {t for t in re.split(r"[^0-9A-Z]+", s.information_state_string(seat))} & secret
    if state.rules.blind_nil_behind == 0 and state.rules.blind_nil and not state.rules.mirror and state.deals_played:
        assert seen_face_down


def random_action(state: SpadesState, rng: random.Random) -> Action:
    seat = rng.randrange(5)
    verb = rng.choice(["play", "give", "bid", "pass"])
    if verb == "bid":
        return Action(seat, "bid", (), rng.choice(["nil", "0", "blind-nil", "double-nil", "redeal", "14", "look",
                                                   "little-bemo", *map(str, range(1, 14))]))
    card = rng.choice([*state.rules.deck_cards, Card.parse("BJ"), Card.parse("2C")])
    return Action(seat, verb, (card,) if rng.random() < 0.9 else (card, card))


def snapshot(state: SpadesState) -> tuple[list[str], dict[str, Any]]:
    return [state.information_state_string(seat) for seat in (None, 0, 1, 2, 3)], state.result()


@settings(max_examples=20, deadline=None)
@given(games())
def test_refusals_change_nothing_and_legal_actions_are_what_is_accepted(game) -> None:
    state, rng = game
    for s in steps(state, rng):
        legal = {str(a) for a in s.legal_actions()}
        before = snapshot(s)
        for _ in range(6):
            action = random_action(s, rng)
            canonical = f"{action.seat} bid nil" if action.bid == "0" else str(action)
            if canonical in legal or is_renege(s, action) or is_looked_bid(s, action):
                assert s.is_legal(action)
                continue
            try:
                s.apply_action(action)
            except IllegalActionError as exc:
                assert "\n" not in str(exc) and exc.rule
            else:
                raise AssertionError(f"{action} was accepted but is not among {sorted(legal)}")
        assert snapshot(s) == before


@settings(max_examples=15, deadline=None)
@given(games(), st.integers(0, 3))
def test_a_sampled_world_looks_the_same_to_its_seat(game, seat) -> None:
    state, rng = game
    for n, s in enumerate(steps(state, rng)):
        if n % 5:
            continue
        view = json.loads(json.dumps(s.view(seat)))
        world = sample_world(view, random.Random(n))
        assert world.information_state_string(seat) == s.information_state_string(seat)
        assert world.view(seat)["legal_actions"] == view["legal_actions"]
        if not world.is_terminal() and not world.is_chance_node():   # a full, playable state
            world.apply_action(world.legal_actions()[0])
