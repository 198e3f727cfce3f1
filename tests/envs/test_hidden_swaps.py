"""Hidden cards never reach an observation, checked without the view.

``test_kozel_encoder`` and ``test_spades_encoder`` compare a seat's observation
with that of a world *sampled from its view*: a view that showed a hidden card
would keep that card in every sampled world, and the comparison would pass.
Here the other world is made from the deal itself: two cards the seat has never
held and nobody has played or given (in two other hands, or a hand and the
stock) change places in the dealt cards, the same tokens are replayed, and the
seat's observation (fast path and encoded view), mask and information state
string must not change. A Yu-Gi-Oh! duel is checked likewise by shuffling the
opponent's Deck and hand in a copy of the current position.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goat.envs import aec_env
from goat.envs.encoders.kozel_state import KozelStateEncoder
from goat.envs.tokens import TokenGame
from goat.games.kozel.state import KozelState
from goat.protocol import GoatError

from .conftest import CASES, spec_of

Place = tuple[str, int, int]  # ("hand", seat, index) or ("stock", -1, index)


def places(deal: Any) -> list[Place]:
    return ([("hand", s, i) for s, hand in enumerate(deal.hands) for i in range(len(hand))]
            + [("stock", -1, i) for i in range(len(getattr(deal, "stock", ())))])


def card_at(deal: Any, place: Place) -> Any:
    kind, seat, i = place
    return deal.hands[seat][i] if kind == "hand" else deal.stock[i]


def swapped(deal: Any, p: Place, q: Place) -> Any:
    """``deal`` with the cards at ``p`` and ``q`` exchanged."""
    hands = [list(h) for h in deal.hands]
    stock = list(getattr(deal, "stock", ()))
    for (kind, seat, i), card in ((p, card_at(deal, q)), (q, card_at(deal, p))):
        if kind == "hand":
            hands[seat][i] = card
        else:
            stock[i] = card
    changes: dict[str, Any] = {"hands": tuple(tuple(h) for h in hands)}
    if hasattr(deal, "stock"):
        changes["stock"] = tuple(stock)
    return dataclasses.replace(deal, **changes)


def hidden_places(game: TokenGame, deal: Any, seat: int) -> list[Place]:
    """Places of the deal whose cards ``seat`` cannot have seen by now: never in its
    hand, not the shown trump card or a face-up dealt card, in no action so far."""
    state = game.state
    seen = set(deal.hands[seat]) | set(state.hands[seat]) | set(getattr(state, "drawn", {seat: ()})[seat])
    for action in state.logs[-1]["actions"]:
        seen.update(action.cards)
    if getattr(deal, "trump_card", None) is not None and place_public(state):
        seen.add(deal.trump_card)   # it lies face up in the stock: its place is seen
    if hasattr(deal, "face_up"):
        for cards in deal.face_up(state.rules):
            seen.update(cards)
    return [p for p in places(deal) if not (p[0] == "hand" and p[1] == seat) and card_at(deal, p) not in seen]


def place_public(state: Any) -> bool:
    """Kozel's ``trump_card_place="public"``: the shown trump card lies face up in the
    stock. Otherwise only its identity is public: shown from the deck it is shuffled
    back and dealt (full-hand), shown from the stock it goes back face down (street), so
    who holds it, where it lies and who draws it are as unseen as for any other card,
    and it may change places with one."""
    return getattr(state.rules, "trump_card_place", None) == "public"


def seen_by(game: TokenGame, seat: int) -> tuple[bytes, bytes, bytes, str]:
    return (game.observation(seat).tobytes(), game.observation(seat, reference=True).tobytes(),
            game.mask(seat).tobytes(), game.information_state_string(seat))


def swap_differences(label: str, seed: int, every: int = 3) -> tuple[int, list[str]]:
    """Walk one random deal; at every ``every``-th decision, for each seat, swap two
    cards it cannot have seen and replay. Returns (comparisons, differences)."""
    spec = spec_of(label)
    encoder, n = spec.encoder()
    rng = random.Random(seed)
    game = TokenGame(spec.new_state(first_dealer=rng.randrange(n)), encoder)
    before = game.clone()
    deal = game.state.sample_chance(rng)
    game.apply_chance(deal)
    tokens: list[int] = []
    compared, differences = 0, []
    step = 0
    while game.is_decision():
        if step % every == 0:
            for seat in range(n):
                hidden = hidden_places(game, deal, seat)
                if len(hidden) < 2:
                    continue
                p, q = rng.sample(hidden, 2)
                other = before.clone()
                try:
                    other.apply_chance(swapped(deal, p, q))
                    for token in tokens:  # the other seats' moves may be illegal there: no comparison
                        other.apply_token(token)
                except GoatError:
                    continue
                if not other.is_decision():  # the swap dealt a royal goat: another, public, game
                    continue
                compared += 1
                if seen_by(other, seat) != seen_by(game, seat):
                    differences.append(f"{label} seed {seed} step {step}: seat {seat} sees "
                                       f"{card_at(deal, p)}<->{card_at(deal, q)} swapped")
        legal = game.legal_tokens()
        token = legal[rng.randrange(len(legal))]
        game.apply_token(token)
        tokens.append(token)
        step += 1
    return compared, differences


@settings(max_examples=40, deadline=None)
@given(label=st.sampled_from(list(CASES)), seed=st.integers(0, 2**32))
def test_swapping_cards_a_seat_has_not_seen_changes_nothing_it_observes(label: str, seed: int) -> None:
    _, differences = swap_differences(label, seed)  # a royal goat dealt: nothing to compare
    assert not differences


@pytest.mark.parametrize("label", ["classic", "street", "spades-double-nil"])
def test_swaps_are_compared_at_most_decisions(label: str) -> None:
    """The check is not vacuous: most swaps replay (other seats' moves stay legal)."""
    compared = sum(swap_differences(label, seed)[0] for seed in range(2))
    assert compared >= 20


def test_the_swap_check_catches_a_view_that_shows_the_stock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that told every seat the stock's top card: the sampled-world test
    cannot see it (every world keeps that card on top), this one does."""
    view = KozelState.view

    def leaky(self: KozelState, seat: int | None) -> dict[str, Any]:
        out = view(self, seat)
        out["stock_top"] = str(self.stock[0]) if self.stock else None
        return out

    monkeypatch.setattr(KozelState, "view", leaky)
    assert any(swap_differences("classic", seed)[1] for seed in range(3))


def test_the_swap_check_catches_a_fast_path_that_shows_another_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    original = KozelStateEncoder.encode_state

    def leaky(self: KozelStateEncoder, state: Any, seat: int, out: np.ndarray) -> None:
        original(self, state, seat, out)
        left = (seat + 1) % self.n
        for card in state.hands[left]:
            out[self.at["known"] + self.index[card]] = 1.0

    monkeypatch.setattr(KozelStateEncoder, "encode_state", leaky)
    assert any(swap_differences("street", seed)[1] for seed in range(3))


def test_a_duelist_observes_nothing_of_the_opponents_deck_order_or_hand() -> None:
    """Yu-Gi-Oh!: in a copy of the position, the opponent's Deck reordered, its hand
    reordered, or a hand card exchanged with a Deck card: the seat sees no change."""
    env = aec_env("yugioh", options={"starting_lp": 1000}, single_deal=True)
    env.reset(seed=2)
    rng, pick = np.random.default_rng(2), random.Random(2)
    compared = 0
    for step, agent in enumerate(env.agent_iter(400)):
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        game = env.game
        if step % 3 == 0 and game.state.duel is not None:
            for seat in (0, 1):
                copy = game.clone()
                opponent = copy.state.duel.players[1 - seat]
                deck, hand = opponent.deck, opponent.hand
                if len(deck) < 2 or not hand:
                    continue
                a, b = pick.sample(range(len(deck)), 2)
                deck[a], deck[b] = deck[b], deck[a]
                hand.reverse()
                h, d = pick.randrange(len(hand)), pick.randrange(len(deck))
                hand[h], deck[d] = deck[d], hand[h]
                assert seen_by(copy, seat) == seen_by(game, seat)
                compared += 1
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    assert compared > 20


@pytest.mark.parametrize("leaked", ["trump_card_place", "trump_card_drawn_by"])
def test_the_swap_check_catches_a_hidden_trump_card_place_or_drawer(monkeypatch: pytest.MonkeyPatch,
                                                                     leaked: str) -> None:
    """Street's default ``trump_card_place="hidden"``: a view that gave the shown card's
    place or drawer anyway (as ``"public"`` does) is caught: the shown card is swapped
    with other unseen stock cards too. It was always kept in place, so no leak of
    where it lies or who drew it could be seen."""
    view = KozelState.view

    def leaky(self: KozelState, seat: int | None) -> dict[str, Any]:
        out = view(self, seat)
        out[leaked] = getattr(self, leaked)
        return out

    monkeypatch.setattr(KozelState, "view", leaky)
    assert any(swap_differences("street", seed, every=1)[1] for seed in range(4))


@pytest.mark.parametrize("label", ["full-hand", "full-hand-3p", "full-hand-24"])
def test_the_swap_check_catches_a_view_that_tells_who_holds_the_shown_trump_card(
        monkeypatch: pytest.MonkeyPatch, label: str) -> None:
    """Full-hand shows a trump card from the deck and shuffles it back: everyone knows
    which card, nobody who was dealt it. A view telling that went unnoticed (the shown
    card was never swapped)."""
    view = KozelState.view

    def leaky(self: KozelState, seat: int | None) -> dict[str, Any]:
        out = view(self, seat)
        out["trump_card_holder"] = next((s for s, hand in enumerate(self.hands) if self.trump_card in hand), None)
        return out

    monkeypatch.setattr(KozelState, "view", leaky)
    assert any(swap_differences(label, seed, every=1)[1] for seed in range(4))


def test_a_swap_that_deals_a_royal_goat_is_not_compared() -> None:
    """Full-hand, 3 players, seed 3: at the first decision, seat 2 swaps seat 0's QD with
    seat 1's AD, giving seat 0 all four aces: that world ends at once (a royal goat, in
    every view). It is another game, not a leak, and the check once reported it."""
    _, differences = swap_differences("full-hand-3p", 3, every=2)
    assert not differences
