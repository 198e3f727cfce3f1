"""Shared helpers for the RL environment tests: every ruleset of every game
with an encoder (Kozel's rulesets, every Spades preset), and random walks
through :class:`~goat.envs.tokens.TokenGame` decisions."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from goat.envs.spec import GameSpec
from goat.envs.tokens import TokenGame
from goat.games.spades import PRESETS as SPADES_PRESETS


@dataclass(frozen=True)
class Case:
    """One game under one ruleset, as the environments take it."""

    game: str
    rules: str
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def spec(self, single_deal: bool = True, **extra_options: Any) -> GameSpec:
        return GameSpec(self.game, self.rules, self.players, {**self.options, **extra_options}, single_deal)

    def env_args(self) -> tuple[str, str, int | None, dict[str, Any]]:
        """Positional arguments of the AEC and Gymnasium environments."""
        return self.game, self.rules, self.players, dict(self.options)


#: label -> (rules, players): every Kozel ruleset the environments must cover.
RULESETS: dict[str, tuple[str, int | None]] = {
    "classic": ("classic", None),
    "full-hand": ("full-hand", 4),
    "full-hand-3p": ("full-hand", 3),
    "full-hand-2p": ("full-hand", 2),
    "full-hand-24": ("full-hand-24", None),
    "street": ("street", None),
}

#: label -> Spades case: every preset, plus double nil made likely (the exchange).
SPADES: dict[str, Case] = {f"spades-{p}": Case("spades", p) for p in SPADES_PRESETS}
SPADES["spades-double-nil"] = Case("spades", "standard", options={"double_nil": True, "blind_nil_behind": 0})

#: Street with the shown trump card face up in the stock (``trump_card_place="public"``:
#: the views give its place and drawer, the observation one more field).
KOZEL_OPTIONS: dict[str, Case] = {"street-public": Case("kozel", "street", options={"trump_card_place": "public"})}

#: Every case of every game, by label.
CASES: dict[str, Case] = ({label: Case("kozel", r, p) for label, (r, p) in RULESETS.items()}
                          | KOZEL_OPTIONS | SPADES)
#: The Kozel labels of :data:`CASES` (its rulesets and option cases).
KOZEL_LABELS: list[str] = [label for label, case in CASES.items() if case.game == "kozel"]


def spec_of(label: str, single_deal: bool = True) -> GameSpec:
    return CASES[label].spec(single_deal)


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
