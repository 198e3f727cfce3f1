"""Shared helpers for the RL environment tests: every Kozel ruleset, and
random walks through :class:`~goat.envs.tokens.TokenGame` decisions."""

from __future__ import annotations

import random
from collections.abc import Iterator

from goat.envs.spec import GameSpec
from goat.envs.tokens import TokenGame

#: label -> (rules, players): every Kozel ruleset the environments must cover.
RULESETS: dict[str, tuple[str, int | None]] = {
    "classic": ("classic", None),
    "full-hand": ("full-hand", 4),
    "full-hand-3p": ("full-hand", 3),
    "full-hand-2p": ("full-hand", 2),
    "full-hand-24": ("full-hand-24", None),
    "street": ("street", None),
}


def spec_of(label: str, single_deal: bool = True) -> GameSpec:
    rules, players = RULESETS[label]
    return GameSpec("kozel", rules, players, {}, single_deal)


def new_game(label: str, seed: int, single_deal: bool = True) -> tuple[TokenGame, random.Random]:
    spec = spec_of(label, single_deal)
    encoder, n = spec.encoder()
    rng = random.Random(seed)
    return TokenGame(spec.new_state(first_dealer=rng.randrange(n)), encoder), rng


def decisions(game: TokenGame, rng: random.Random, max_steps: int = 5000) -> Iterator[TokenGame]:
    """Yield ``game`` at every decision of a random walk (chance from ``rng``,
    uniformly random legal tokens) until the end."""
    for _ in range(max_steps):
        if game.state.is_terminal():
            return
        if game.state.is_chance_node():
            game.deal(rng)
            continue
        yield game
        legal = game.legal_tokens()
        game.apply_token(legal[rng.randrange(len(legal))])
    raise AssertionError("random walk did not end")
