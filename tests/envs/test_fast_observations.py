"""The fast observation path equals the reference, bit for bit.

Kozel and Spades observations are written straight from the state
(:mod:`goat.envs.encoders.kozel_state`, :mod:`goat.envs.encoders.spades_state`)
instead of encoding ``state.view(seat)``. The reference is kept
(``TokenGame.observation(seat, reference=True)``, ``GoatAECEnv(fast=False)``):
at every decision of many seeded random matches, every seat's fast observation
must equal the encoding of that seat's own view — so it can show no card the
view hides — and an AEC environment must hand out the same observations, masks,
rewards, terminations and infos either way. The last tests break the hiding
rule on purpose and check that the comparison notices.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from goat.envs import GoatAECEnv
from goat.envs.encoders import history
from goat.envs.encoders.kozel_state import KozelStateEncoder
from goat.envs.tokens import TokenGame
from .conftest import CASES, Case, decisions

#: Every ruleset of the environment tests, plus Kozel with the partner exchange,
#: eggs, annulled ties, the royal goat and the last trick's winner leading,
#: street with the partner exchange (its one ``give`` verb token), and a single-card
#: ruleset showing its trump card face up in the stock (``trump_card_place="public"``).
EXTRA = {
    "classic-exchange": Case("kozel", "classic", options={"partner_exchange": 1, "royal_goat": True,
                                                           "eggs": "double-next", "tie": "annul"}),
    "street-last-winner": Case("kozel", "street", options={"opening_leader": "last-trick-winner",
                                                            "eggs": "double-next"}),
    "street-exchange": Case("kozel", "street", options={"partner_exchange": 1}),
    "full-hand-3p-eggs": Case("kozel", "full-hand", 3, options={"eggs": "double-next", "royal_goat": True}),
    "classic-stock-trump-public": Case("kozel", "classic", options={"trump_suit": "drawn", "trump_card_from": "stock",
                                                                     "trump_card_place": "public"}),
}
ALL = CASES | EXTRA
SEEDS = range(3)
MAX_DECISIONS = 700  # Spades matches are long under random play: a few deals are enough


def first_difference(label: str, seed: int) -> str | None:
    """Walk a seeded random match; the first place where a seat's fast
    observation (or street's offered seats) differs from the reference."""
    spec = ALL[label].spec(single_deal=False)
    encoder, n = spec.encoder()
    rng = random.Random(seed)
    game = TokenGame(spec.new_state(first_dealer=rng.randrange(n)), encoder)
    assert game._fast is not None
    for step, g in enumerate(decisions(game, rng, max_steps=10**6)):
        for seat in range(n):
            fast, ref = g.observation(seat), g.observation(seat, reference=True)
            if fast.tobytes() != ref.tobytes():
                fields = sorted({f.name for f in g.layout.fields
                                 if any(g.layout.offset(f.name) <= i < g.layout.offset(f.name) + f.size
                                        for i in np.flatnonzero(fast != ref))})
                return f"{label} seed {seed} decision {step} seat {seat}: {', '.join(fields)} differ"
        offers = getattr(g._fast, "offer_seats", None)
        if offers is not None and offers(g.state) != encoder.offer_seats(g.state.view(None)):
            return f"{label} seed {seed} decision {step}: offered seats differ"
        if step >= MAX_DECISIONS:
            break
    final = [game.observation(s).tobytes() == game.observation(s, reference=True).tobytes() for s in range(n)]
    return None if all(final) else f"{label} seed {seed}: the last position differs"


@pytest.mark.parametrize("label", list(ALL))
def test_fast_observations_equal_the_encoded_view_at_every_step(label: str) -> None:
    for seed in SEEDS:
        assert first_difference(label, seed) is None


@pytest.mark.parametrize("label", ["classic", "street", "full-hand-3p", "spades-standard", "spades-double-nil"])
def test_the_aec_env_hands_out_the_same_everything_fast_or_not(label: str) -> None:
    game, rules, players, options = ALL[label].env_args()
    fast = GoatAECEnv(game, rules, players, options)
    slow = GoatAECEnv(game, rules, players, options, fast=False)
    rng = random.Random(5)
    for episode in range(2):
        fast.reset(seed=episode)
        slow.reset(seed=episode)
        for _ in range(600):
            if not fast.agents:
                break
            a, b = fast.last(), slow.last()
            assert fast.agent_selection == slow.agent_selection
            assert a[0]["observation"].tobytes() == b[0]["observation"].tobytes()
            assert a[0]["action_mask"].tobytes() == b[0]["action_mask"].tobytes()
            assert a[1:] == b[1:]  # reward, termination, truncation, info
            assert (fast.rewards, fast.terminations, fast.truncations, fast.infos) == \
                (slow.rewards, slow.terminations, slow.truncations, slow.infos)
            if a[2] or a[3]:
                action = None
            else:
                legal = np.flatnonzero(a[0]["action_mask"])
                action = int(legal[rng.randrange(legal.size)])
            fast.step(action)
            slow.step(action)


def test_the_comparison_catches_a_replay_that_shows_gives_too_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay that ignores the hiding rule (every give public at once) shows
    a double nil's received cards before the pair's exchange is complete."""
    original = history.SeatHistories.replay

    def leaky(self: history.SeatHistories, logs: list, seat: int, pending: frozenset[int]) -> object:
        if logs:
            logs = [dict(logs[-1], private=[None] * len(logs[-1]["private"]))]
        return original(self, logs, seat, frozenset())

    monkeypatch.setattr(history.SeatHistories, "replay", leaky)
    assert any(first_difference("spades-double-nil", seed) is not None for seed in SEEDS)


@pytest.mark.parametrize("label", ["classic", "street", "full-hand-3p"])
def test_the_comparison_catches_a_fast_path_that_shows_another_hand(label: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A fast path that marks one card of the left neighbour's hand as known."""
    original = KozelStateEncoder.encode_state

    def leaky(self: KozelStateEncoder, state: object, seat: int, out: np.ndarray) -> None:
        original(self, state, seat, out)
        left = (seat + 1) % self.n
        if state.hands[left]:
            out[self.at["known"] + self.index[state.hands[left][0]]] = 1.0

    monkeypatch.setattr(KozelStateEncoder, "encode_state", leaky)
    assert first_difference(label, 0) is not None
