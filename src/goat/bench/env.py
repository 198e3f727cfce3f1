"""RL environment speed: steps per second of our PettingZoo AEC environment
next to OpenSpiel's C++ ``spades`` through ``pyspiel``, in the same run.

Contenders take turns in short slices (a burst of load on a shared machine hits
all of them), each playing random legal actions:

* **aec** — :class:`goat.envs.GoatAECEnv` for the ruleset, whole matches: a
  step is ``env.last()`` (the observation vector and action mask of the agent
  to act) plus ``env.step(token)`` with a uniformly random token the mask
  allows. Deals are shuffled inside the environment; resets are timed too.
  The ``spades`` row is our Spades environment under the options where it
  and OpenSpiel's game coincide (``tests/spades/test_openspiel.py``), one deal
  an episode as OpenSpiel's: the like-for-like row.
* **spades** — ``pyspiel.load_game("spades")``: a step is ``legal_actions()``
  plus ``apply_action`` of a random one (bids and card plays; the 52 dealing
  chance actions are applied in between and timed, not counted).
* **spades+obs** — the same with ``observation_tensor()`` of the player to act
  at every step, as an RL loop on OpenSpiel would do.

Used by ``goat bench env`` and ``python -m goat.bench.env``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from rich import box
from rich.console import Console
from rich.table import Table

from goat.bench import format_rate, select_labels
from goat.bench.engine import CONFIGS, check_seconds
from goat.bench.sim import INSTALL_HINT, load_spades
from goat.protocol import GoatError

DEFAULT_RULES = "classic,street,spades"

#: Options under which our Spades and OpenSpiel's ``spades`` are the same game.
OPENSPIEL_SPADES_OPTIONS = {"nil_tricks": "contract", "spades_broken_by": "never", "max_team_bid": 13,
                            "blind_nil": False}


@dataclass(frozen=True)
class EnvConfig:
    """What one row measures: a game and ruleset as the AEC environment takes them."""

    game: str
    rules: str
    players: int | None = None
    options: tuple[tuple[str, object], ...] = ()
    single_deal: bool = False


#: Row label -> environment: Kozel's engine-bench rulesets, then Spades like OpenSpiel's.
ENV_CONFIGS: dict[str, EnvConfig] = {
    **{label: EnvConfig("kozel", preset, players) for label, (preset, players) in CONFIGS.items()},
    "spades": EnvConfig("spades", "standard", None, tuple(OPENSPIEL_SPADES_OPTIONS.items()), single_deal=True),
}
SLICE_SECONDS = 0.05


@dataclass
class StepTally:
    steps: int = 0
    episodes: int = 0
    seconds: float = 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


@dataclass
class EnvBenchResult:
    label: str
    aec: StepTally
    spades: StepTally | None = None
    spades_obs: StepTally | None = None

    def ratio(self, baseline: StepTally | None) -> float | None:
        """aec steps/s ÷ ``baseline`` steps/s."""
        if baseline is None or not baseline.steps_per_second:
            return None
        return self.aec.steps_per_second / baseline.steps_per_second


class AECRunner:
    """Random masked play of one ruleset's AEC environment, resumable across slices."""

    def __init__(self, label: str, seed: int) -> None:
        from goat.envs import GoatAECEnv

        c = ENV_CONFIGS[label]
        self.env = GoatAECEnv(c.game, c.rules, c.players, dict(c.options), single_deal=c.single_deal)
        self.env.reset(seed=seed)
        self.rng = np.random.default_rng(seed)

    def run(self, tally: StepTally, seconds: float) -> None:
        env, rng, clock = self.env, self.rng, time.perf_counter
        t0 = clock()
        while True:
            if not env.agents:
                env.reset()
                tally.episodes += 1
            else:
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    env.step(int(legal[rng.integers(legal.size)]))
                    tally.steps += 1
            t1 = clock()
            if t1 - t0 >= seconds:
                break
        tally.seconds += t1 - t0


class SpadesRunner:
    """Random play of OpenSpiel's spades, resumable across slices."""

    def __init__(self, game: object, seed: int, observe: bool) -> None:
        self.game, self.observe = game, observe
        self.rng = random.Random(seed)
        self.state = game.new_initial_state()

    def run(self, tally: StepTally, seconds: float) -> None:
        rng, clock = self.rng, time.perf_counter
        t0 = clock()
        while True:
            state = self.state
            if state.is_terminal():
                self.state = self.game.new_initial_state()
                tally.episodes += 1
            elif state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                if self.observe:
                    state.observation_tensor()
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                tally.steps += 1
            t1 = clock()
            if t1 - t0 >= seconds:
                break
        tally.seconds += t1 - t0


def bench_rules(label: str, seconds: float, seed: int = 0, spades: object | None = None) -> EnvBenchResult:
    """Measure one ruleset for about ``seconds`` in total, contenders in alternating slices."""
    result = EnvBenchResult(label, StepTally())
    runners: list[tuple[StepTally, Callable[[StepTally, float], None]]] = [(result.aec, AECRunner(label, seed).run)]
    if spades is not None:
        result.spades, result.spades_obs = StepTally(), StepTally()
        runners.append((result.spades, SpadesRunner(spades, seed, observe=False).run))
        runners.append((result.spades_obs, SpadesRunner(spades, seed, observe=True).run))
    slice_seconds = min(SLICE_SECONDS, max(seconds / (4 * len(runners)), 1e-4))
    start = time.perf_counter()
    while result.aec.steps == 0 or time.perf_counter() - start < seconds:
        for tally, run in runners:
            run(tally, slice_seconds)
    return result


def select(rules: str) -> list[str]:
    """``"all"`` or comma-separated labels of :data:`ENV_CONFIGS` (one-line errors)."""
    return select_labels(rules, list(ENV_CONFIGS), "env bench")


def run(labels: Sequence[str], seconds: float, seed: int = 0,
        use_spades: bool = True) -> tuple[list[EnvBenchResult], str | None]:
    """Bench every label for ``seconds`` each; the note is the install hint when
    OpenSpiel could not be loaded."""
    check_seconds(seconds)
    spades = load_spades() if use_spades else None
    note = INSTALL_HINT if use_spades and spades is None else None
    return [bench_rules(label, seconds, seed, spades) for label in labels], note


def _ratio(x: float | None) -> str:
    """``1/17`` for a contender 17 times slower than the baseline, ``2.50×`` for faster."""
    if not x:
        return "–"
    return f"1/{1 / x:.0f}" if x < 1 else f"{x:.2f}×"


def table(results: Sequence[EnvBenchResult]) -> Table:
    out = Table(title="RL environment steps/s: our PettingZoo AEC env vs OpenSpiel's C++ spades "
                      "(pyspiel), random legal actions, same run",
                title_justify="left", box=box.SIMPLE_HEAVY,
                caption="aec step = last() (observation + mask) + step(token); spades step = legal_actions() "
                        "+ apply_action (+obs: observation_tensor() too); chance is timed, not counted",
                caption_justify="left")
    for name in ("ruleset", "aec\nsteps/s", "spades\nsteps/s", "aec ÷\nspades", "spades+obs\nsteps/s",
                 "aec ÷\nspades+obs"):
        out.add_column(name, justify="left" if name == "ruleset" else "right", no_wrap=True)
    for r in results:
        out.add_row(r.label, format_rate(r.aec.steps_per_second),
                    format_rate(r.spades.steps_per_second) if r.spades else "–", _ratio(r.ratio(r.spades)),
                    format_rate(r.spades_obs.steps_per_second) if r.spades_obs else "–",
                    _ratio(r.ratio(r.spades_obs)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m goat.bench.env [--seconds S] [--rules classic,street]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per ruleset (all contenders)")
    parser.add_argument("--rules", default=DEFAULT_RULES, help="all, or comma-separated: " + ", ".join(ENV_CONFIGS))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        results, note = run(select(args.rules), args.seconds, args.seed)
    except GoatError as exc:
        parser.exit(2, f"error: {exc}\n")
    console = Console()
    if note:
        console.print(note)
    console.print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
