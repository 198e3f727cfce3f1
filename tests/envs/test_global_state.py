"""PettingZoo's ``state()``: the global state for centralised training.

At every step of random games of every Kozel ruleset and Spades preset it lies
in ``state_space``, changes, holds every seat's observation, and decodes to the
true hands, stock, face-down cards and piles of the engine — so it does hold
the hidden cards (and is for a centralised critic only)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test.state_test import test_parallel_env as pettingzoo_parallel_state_test
from pettingzoo.test.state_test import test_state_space as pettingzoo_state_space_test
from pettingzoo.utils import conversions

from goat.envs import GoatAECEnv, aec_env
from goat.envs.global_state import NoGlobalStateError
from goat.protocol import GoatError

from .conftest import CASES

LABELS = [label for label, case in CASES.items() if case.game in ("kozel", "spades")]


def make(label: str, **kwargs) -> GoatAECEnv:
    return GoatAECEnv(*CASES[label].env_args(), **kwargs)


def cards_of(env: GoatAECEnv, plane: np.ndarray) -> set[str]:
    return {str(env.encoder.deck[i]) for i in np.flatnonzero(plane)}


def check_against_the_engine(env: GoatAECEnv, vector: np.ndarray) -> None:
    """Decode ``vector`` and compare every hidden field with the engine's state."""
    state, fields = env.game.state, env.global_state.decode(vector)
    for seat, hand in enumerate(state.hands):
        assert cards_of(env, fields["hands"][seat]) == {str(c) for c in hand}
    if "stock_order" in fields:
        order = fields["stock_order"]
        decoded = [str(env.encoder.deck[i]) for i in np.flatnonzero(order)[np.argsort(order[order > 0])]]
        assert decoded == [str(c) for c in state.stock]
    if "piles" in fields:
        for side, pile in enumerate(state.piles):
            assert cards_of(env, fields["piles"][side]) == {str(c) for c in pile}
    if "table_hidden" in fields:
        for seat in range(env.num_agents):
            passed = {str(c) for p in state.trick if p.seat == seat and p.verb != "play" for c in p.cards}
            assert cards_of(env, fields["table_hidden"][seat]) == passed
    if "giving" in fields:
        for seat in range(env.num_agents):
            given = {str(g[-1]) for g in state.pending_gives if g[0] == seat}  # (giver, [receiver,] card)
            assert cards_of(env, fields["giving"][seat]) == given
    for seat, agent in enumerate(env.possible_agents):
        assert np.array_equal(fields["observations"][seat], env.observe(agent)["observation"])


@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize("label", LABELS)
def test_the_state_is_in_its_space_changes_and_decodes_to_the_engine_at_every_step(label: str, seed: int) -> None:
    env = make(label, single_deal=True)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    before, steps = env.state(), 0
    for agent in env.agent_iter(5000):
        obs, _, terminated, truncated, _ = env.last()
        state = env.state()
        assert state.dtype == np.float32 and env.state_space.contains(state)
        check_against_the_engine(env, state)
        if terminated or truncated:
            env.step(None)
            continue
        if steps:
            assert not np.array_equal(state, before), "a step left the global state unchanged"
        before, steps = state, steps + 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert steps > 10 and not env.agents


@pytest.mark.parametrize("label", ["classic", "street", "full-hand-3p", "spades-standard", "spades-double-nil"])
def test_the_first_state_holds_the_whole_deal(label: str) -> None:
    """Before anyone has played, hands, stock and exchanged cards hold every card of
    the deck: the hidden cards of every seat, which no observation has."""
    env = make(label)
    env.reset(seed=3)
    fields = env.global_state.decode(env.state())
    hidden = fields["hands"].sum(axis=0) + fields.get("stock_order", np.zeros(1)).astype(bool)
    assert np.array_equal(hidden, np.ones(len(env.encoder.deck)))
    for seat, agent in enumerate(env.possible_agents):
        row = env.global_state.observation_layout.views(fields["observations"][seat])
        assert np.all(row["hand"] <= fields["hands"][seat])  # a face-down Spades hand is not observed
        if env.encoder.game == "kozel":
            assert np.array_equal(row["hand"], fields["hands"][seat])
        others = fields["hands"][[s for s in range(env.num_agents) if s != seat]]
        assert not (row["hand"] * others).any()


def test_pettingzoos_state_space_test_passes_without_warnings() -> None:
    for label in ("street", "spades-standard"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            pettingzoo_state_space_test(make(label))


@pytest.mark.parametrize("label", ["street", "spades-standard"])
def test_the_parallel_api_has_the_global_state_too(label: str) -> None:
    """``turn_based_aec_to_parallel`` (the docs' way to the parallel API) passes
    ``state_space`` and ``state()`` through: a MAPPO critic reads it there."""
    env = conversions.turn_based_aec_to_parallel(make(label, single_deal=True))
    pettingzoo_parallel_state_test(env)
    observations, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    while env.agents:
        state = env.state()
        assert env.state_space.contains(state)
        check_against_the_engine(env.unwrapped, state)
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
                   for a, o in observations.items()}
        observations, *_ = env.step(actions)


def test_a_game_without_a_global_state_and_a_state_before_reset_are_one_line() -> None:
    duel = aec_env("yugioh", single_deal=True)
    assert not hasattr(duel, "state_space")
    duel.reset(seed=1)
    with pytest.raises(NotImplementedError, match="no global state") as err:
        duel.state()
    assert isinstance(err.value, NoGlobalStateError) and "\n" not in str(err.value)
    env = aec_env("kozel")
    with pytest.raises(GoatError, match="call reset") as err:
        env.state()
    assert "\n" not in str(err.value)


def test_observations_stay_each_seats_own_view() -> None:
    """The global state is built beside the observations, never into them."""
    env = make("street")
    env.reset(seed=5)
    agent = env.agent_selection
    size = env.observation_space(agent)["observation"].shape[0]
    assert env.observe(agent)["observation"].shape == (size,)
    assert env.state_space.shape[0] > env.num_agents * size


@pytest.mark.parametrize(("game", "rules", "options"), [
    ("kozel", "street", {"partner_exchange": 1}),      # face-down passes, gives in flight, a stock
    ("kozel", "classic", {}),
    ("spades", "standard", {"max_deals": 3, "double_nil": True, "blind_nil_behind": 0}),
])
def test_the_state_decodes_to_the_engine_through_whole_matches(game: str, rules: str, options: dict) -> None:
    """Deal after deal: the hidden fields are rewritten for each new deal."""
    env = aec_env(game, rules, options=options)
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    for _ in env.agent_iter(20_000):
        obs, _, terminated, truncated, _ = env.last()
        check_against_the_engine(env, env.state())
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.game.state.is_terminal() and len(env.game.state.deal_results) >= 2


@pytest.mark.parametrize("label", LABELS)
def test_a_field_that_cannot_apply_to_the_ruleset_is_left_out(label: str) -> None:
    """docs/envs.md: "Fields that do not apply to a ruleset are left out" — an
    exchange's ``giving`` only where cards are exchanged (Kozel's partner exchange,
    Spades' double nil), a stock's order only with a stock, face-down passes only
    in street (Spades kept an always-empty ``giving`` under every preset)."""
    env = make(label)
    rules, kozel = env.encoder.rules, env.encoder.game == "kozel"
    names = {f.name for f in env.global_state.layout.fields}
    assert ("giving" in names) == bool(rules.partner_exchange if kozel else rules.double_nil)
    assert ("stock_order" in names) == bool(kozel and rules.stock_size)
    assert ("table_hidden" in names) == bool(kozel and env.encoder.street)
