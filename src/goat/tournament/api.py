"""A tournament in one call: what ``goat tournament`` does, from Python.

:func:`run_tournament` checks everything, schedules the duplicate games
(:mod:`goat.tournament.scheduling`), plays them (:mod:`goat.tournament.runner`)
and returns :class:`Results`: the rows the command's table is printed from
(:mod:`goat.tournament.stats`) and every game's record. The command calls the
same pieces (:func:`plan_tournament`, :func:`play_tournament`), so the two
cannot drift apart: the same arguments and seed give the same records and
numbers, and a mistake is the same one line (:class:`TournamentSetupError`).

The library sits below the command: nothing here knows ``goat.cli``. The
command hands :func:`play_tournament` its display (its first line and bar) as
a ``progress`` hook, and a Python caller's ``options`` dict goes to the rules
as it is, never through the command line's text.
"""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from goat.bots import BotError, bot_factory, load_bot_modules, register_bot, unregister_bot
from goat.bots import outside
from goat.files import check_stdout, check_writable
from goat.games import get_game
from goat.games.options import parse_options
from goat.progress import progress as progress_bar
from goat.protocol import GoatError, check_seed
from goat.records import write_records
from goat.tournament.games import GameScoring, scoring_for, tournament_options
from goat.tournament.runner import BACKENDS, GameResult, default_workers, ray_session, run_all
from goat.tournament.scheduling import GameSpec, TableConfig, schedule
from goat.tournament.specs import BotSpec, parse_bot_list
from goat.tournament.stats import BotSummary, HeadToHead, head_to_head, summarize

#: What ``bots`` may hold: a spec (``"pimc:worlds=100"``), a :class:`BotSpec`, or a
#: bot factory (a class or a function of a seed, named by its ``name``).
BotEntry = str | BotSpec | Callable[..., Any]


class TournamentSetupError(GoatError, ValueError):
    """A mistake in what was asked — a game, ruleset, option, bot, number or
    destination — found before the first game. One line, the command's own
    (``goat tournament`` prints it after ``error:``, exit status 2)."""


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl+C (or the command's SIGTERM) stopped a run: the games that finished
    are kept (``finished``, in the order they finished), and ``seconds`` is how
    long the games ran (``None``: stopped while connecting to Ray, no game sent)."""

    def __init__(self, plan: TournamentPlan, finished: list[GameResult], seconds: float | None) -> None:
        super().__init__(f"interrupted after {len(finished)} of {len(plan.schedule)} games")
        self.plan, self.finished, self.seconds = plan, finished, seconds


@dataclass(frozen=True)
class TournamentPlan:
    """A checked tournament, ready to play: the bots, the table, every game of the
    schedule, and where they run."""

    bots: tuple[BotSpec, ...]
    config: TableConfig
    scoring: GameScoring
    schedule: tuple[GameSpec, ...]
    seed: int
    workers: int
    backend: str
    given: Mapping[str, Any] = field(default_factory=dict)  # the options the caller set (the rest: defaults)

    @property
    def unit(self) -> str:
        """What a win is of: ``match``, or the game's deal (``deal``, ``duel``) for single deals."""
        return self.scoring.deal if self.config.deals_only else "match"

    @property
    def labels(self) -> list[str]:
        return [b.label for b in self.bots]

    def header(self, where: str) -> str:
        """The command's first line: what is played, the seed, and ``where``."""
        kind = self.scoring.single_deals if self.config.deals_only else "whole matches"
        return (f"{self.config.game} {self.config.rules}, {len(self.bots)} bots, {len(self.schedule)} games "
                f"({kind}, duplicate), seed {self.seed}, {where}")

    def added_options(self) -> dict[str, Any]:
        """The game's tournament defaults in force that the caller did not set (Spades' ``max_deals``)."""
        return {k: v for k, v in self.config.options.items() if k not in self.given}


@dataclass(frozen=True)
class Results:
    """A finished tournament: ``summary`` holds the results table's rows (per bot:
    win rate, per-deal score difference, both with 95% intervals, and Elo),
    ``head_to_head`` each pair of bots that met, ``games`` every game's result in
    schedule order (its ``record`` as ``--out`` writes it)."""

    plan: TournamentPlan
    games: list[GameResult]
    summary: list[BotSummary]
    head_to_head: list[HeadToHead]
    seconds: float

    @classmethod
    def of(cls, plan: TournamentPlan, games: Sequence[GameResult], seconds: float) -> Results:
        games = sorted(games, key=lambda r: r.index)
        return cls(plan, games, summarize(games, plan.labels), head_to_head(games), seconds)

    @property
    def seed(self) -> int:
        return self.plan.seed

    @property
    def records(self) -> list[dict[str, Any]]:
        """Every game's record (its game's record format, with ``seats``), as ``--out`` writes them."""
        return [r.record for r in self.games]

    @property
    def deals(self) -> int:
        return sum(r.deals for r in self.games)

    def bot(self, label: str) -> BotSummary:
        """The row of ``label`` (``random#2`` for the second of two ``random``)."""
        for row in self.summary:
            if row.label == label:
                return row
        raise KeyError(f"no bot {label!r} played (bots: {', '.join(self.plan.labels)})")


def run_tournament(game: str = "kozel", rules: str | None = None, bots: str | Sequence[BotEntry] = "heuristic,random",
                   matches: int = 10, seed: int | None = None, workers: int | None = 1, backend: str = "local",
                   options: Mapping[str, Any] | Sequence[str] | None = None, players: int | None = None,
                   deals_only: bool = False, bot_modules: Sequence[str] = (), out: str | Path | None = None,
                   progress: bool | ProgressHook = False) -> Results:
    """Play a duplicate tournament, as ``goat tournament`` does, and return its :class:`Results`.

    The arguments are the command's options: ``rules=None`` is the game's default
    ruleset, ``seed=None`` a fresh one (``results.seed``), ``workers=None`` one
    process per CPU (the default 1 plays in this process: a pool of ``spawn``
    workers needs a script's run under ``if __name__ == "__main__":``);
    ``options`` is a dict of typed values, ``{"royal_goat": False, "deck": "32"}``,
    handed to the rules as it is (they check each value: ``{"deck": 32}`` is their
    one line, a number where one of the texts '24', '32', '36' is wanted), or
    the command's ``--option`` text, ``["royal_goat=false"]``; ``bots``
    is ``"heuristic,random"`` or a list of specs (``"pimc:worlds=50"``), bot
    classes or functions of a seed (named by their ``name``, registered for the
    run), or :class:`BotSpec`; ``bot_modules`` are ``--bot-module``'s;
    ``out`` writes every game's record there (``"-"``: standard output) once the
    run is over; ``progress=True`` shows the command's first line and bar on stderr
    (:func:`show_progress`), or give a :data:`ProgressHook` of your own, told of the
    run as it goes.

    A mistake raises :class:`TournamentSetupError` (a ``GoatError`` and a
    ``ValueError``) with the command's one line, before any game; a game that
    fails raises :class:`~goat.tournament.runner.TournamentError`; Ctrl+C raises
    :class:`TournamentInterrupted` holding the finished games.

    >>> results = run_tournament("kozel", "classic", ["heuristic", "random"], matches=1, seed=3,
    ...                          options={"match_target": 2})
    >>> [row.label for row in results.summary], len(results.records)
    (['heuristic', 'random'], 2)
    >>> heuristic = results.bot("heuristic")
    >>> 0 <= heuristic.score.mean <= 1, heuristic.elo > 1500
    (True, True)
    >>> run_tournament(bots="heuristic", matches=1)
    Traceback (most recent call last):
    ...
    goat.tournament.api.TournamentSetupError: --bots needs at least two bots (the same one twice is fine: random,random)
    """
    with _bots_as_text(bots, game) as names:
        plan = plan_tournament(game, rules, names, matches, seed, workers, backend, options, players, deals_only,
                               bot_modules, out)
        results = play_tournament(plan, progress=progress)
    if out is not None:
        save_records(results.games, out)
    return results


def plan_tournament(game: str, rules: str | None, bots: str, matches: int, seed: int | None = None,
                    workers: int | None = None, backend: str = "local",
                    options: Mapping[str, Any] | Sequence[str] | None = None, players: int | None = None,
                    deals_only: bool = False, bot_modules: Sequence[str] = (),
                    out: str | Path | None = None) -> TournamentPlan:
    """Check everything before the first game and schedule the games: the game
    and its ruleset, options and seats, every bot (does it play this game?), the
    numbers, the backend and the ``out`` destination. ``workers=None``: one per
    CPU; ``seed=None``: a fresh one; ``options``: a dict of typed values for the
    rules, or ``--option`` text (``["royal_goat=false"]``, parsed as the command
    parses it, :mod:`goat.games.options`). A mistake is a :class:`TournamentSetupError`."""
    try:
        if seed is not None:
            seed = check_seed(seed, name="--seed")  # numpy integers too, as a Python int
        load_bot_modules(bot_modules)
        _check_whole("--matches", matches)
        _check_whole("--workers", workers, allow_none=True)
        if matches < 1:
            raise GoatError(f"--matches must be at least 1, not {matches}")
        if workers is not None and workers < 1:
            raise GoatError(f"--workers must be at least 1, not {workers}")
        if backend not in BACKENDS:
            raise GoatError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
        if backend == "ray":
            from goat.tournament.runner import ray_available

            if not ray_available():
                raise GoatError("the ray backend needs Ray: pip install 'goat[ray]'")
        module = get_game(game)
        scoring = scoring_for(game)
        rules = scoring.default_rules if rules is None else rules
        if deals_only and scoring.single_deals is None:
            raise GoatError(f"--deals-only: a {game} game cannot be played as single {scoring.deal}s")
        given = _given_options(module, rules, players, options)
        preset = module.new_state(rules=rules, players=players).rules.options()
        in_force = tournament_options(scoring, preset, given, deals_only)
        probe = module.new_state(rules=rules, options=in_force, players=players)
        specs = parse_bot_list(bots)
        if len(specs) < 2:
            raise GoatError("--bots needs at least two bots (the same one twice is fine: random,random)")
        for spec in specs:
            spec.make(0, game)  # unknown bot, setting, or a bot of another game: fail now, not in a worker
        # a run can take hours: a destination that cannot be written fails now, not after it
        if out == "-":
            check_stdout()
        elif out is not None:
            check_writable(out, option="--out")  # written only at the end: Ctrl+C must not leave an earlier file emptied
    except TournamentSetupError:
        raise
    except GoatError as exc:
        raise TournamentSetupError(str(exc)) from None
    config = TableConfig(game, rules, in_force, players, deals_only)
    seed = secrets.randbelow(2**31) if seed is None else seed
    games = schedule(specs, config, probe.num_players, scoring.sides(probe), matches, seed)
    return TournamentPlan(tuple(specs), config, scoring, tuple(games), seed, workers or default_workers(), backend,
                          given)


#: A tournament's display, the ``progress`` of :func:`run_tournament` and
#: :func:`play_tournament`: called with the plan and where its games run (the
#: end of :meth:`TournamentPlan.header`) once the backend is connected, and
#: entered around the games; what it yields is called with each game as it
#: finishes. The command's is its first line and bar on stderr
#: (:func:`show_progress`, ``progress=True``); a script's may be as small as
#: ``contextmanager`` over a function that yields ``print``.
ProgressHook = Callable[[TournamentPlan, str], AbstractContextManager[Callable[[GameResult], None]]]


@contextmanager
def show_progress(plan: TournamentPlan, where: str) -> Iterator[Callable[[GameResult], None]]:
    """The command's display of a run (a :data:`ProgressHook`; ``progress=True``),
    on stderr: its first line (what is played, the seed, ``where``), the
    tournament defaults in force that ``--option`` did not set, then the bar
    (:func:`goat.progress.progress`), a step a finished game."""
    console = Console(stderr=True)
    # soft_wrap: whole lines whatever the width (a log file's console is 80 wide)
    console.print(plan.header(where), soft_wrap=True)
    added = plan.added_options()
    if added:
        console.print("tournament default: " + ", ".join(f"{k}={v}" for k, v in added.items())
                      + " (set it with --option)", soft_wrap=True)
    with progress_bar(console, "tournament", len(plan.schedule)) as advance:
        yield lambda result: advance()


def play_tournament(plan: TournamentPlan, progress: bool | ProgressHook = False,
                    on_result: Callable[[GameResult], None] | None = None) -> Results:
    """Play every game of ``plan``: connect to the backend, then tell ``progress``
    (a :data:`ProgressHook`; ``True``: :func:`show_progress`, the command's display) of the run and of each game, and ``on_result`` of
    each game, as it finishes. A Ray cluster that cannot be reached is a
    :class:`TournamentSetupError`, and so is a ``progress`` that is no hook (before
    the first game); Ctrl+C a :class:`TournamentInterrupted` holding the finished games."""
    if progress is True:
        progress = show_progress
    elif progress is False or progress is None:
        progress = None
    elif not callable(progress):   # numpy's True_ too: say True
        raise TournamentSetupError(f"progress: True (the command's bar on stderr) or a function of the plan and "
                                   f"where its games run that gives a context manager, not {progress!r}")
    finished: list[GameResult] = []
    started: float | None = None
    try:
        with ExitStack() as backend_scope:
            where = _connect(backend_scope, plan)
            with progress(plan, where) if progress is not None else nullcontext(_nothing) as shown:
                def one_more(result: GameResult) -> None:
                    finished.append(result)
                    shown(result)
                    if on_result is not None:
                        on_result(result)

                started = time.perf_counter()
                games = run_all(plan.schedule, plan.workers, plan.backend, on_result=one_more)
    except KeyboardInterrupt:
        raise TournamentInterrupted(plan, finished, None if started is None else time.perf_counter() - started) \
            from None
    return Results.of(plan, games, time.perf_counter() - started)


def save_records(games: Sequence[GameResult], out: str | Path) -> None:
    """The records of ``games`` as JSON lines to ``out`` (``-``: standard output);
    a file that cannot be written is a one-line :class:`GoatError`."""
    records = [result.record for result in games]
    if out == "-":
        write_records(records, sys.stdout)
        return
    try:
        write_records(records, out)
    except OSError as exc:
        raise GoatError(f"cannot write {out}: {exc.strerror or exc}") from None


def _connect(scope: ExitStack, plan: TournamentPlan) -> str:
    """Where the games will run, for the first line: the local pool's workers, or
    the CPUs of the Ray instance connected to now (on a cluster its CPUs decide,
    not ``workers``), which stays connected until ``scope`` closes."""
    if plan.backend != "ray":
        return f"{plan.workers} worker(s), backend {plan.backend}"
    try:
        session = scope.enter_context(ray_session(plan.workers))
    except GoatError as exc:
        raise TournamentSetupError(str(exc)) from None
    return f"backend ray: {session.cpus:g} CPU(s) of {session.where}"


def _nothing(result: GameResult) -> None:
    """The display's step when none is shown."""


def _check_whole(option: str, value: Any, allow_none: bool = False) -> None:
    """A number option from Python: a whole number (the command line's are by type)."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise GoatError(f"{option} must be a whole number, not {value!r}")


def _given_options(module: Any, rules: str, players: int | None,
                   options: Mapping[str, Any] | Sequence[str] | None) -> dict[str, Any]:
    """The options the caller set: a dict as it is (the rules check its values, each
    mistake their one line), or ``--option`` text parsed as the command does
    (:func:`goat.games.options.parse_options`). A dict is never written out as
    text and parsed back, which would give its values the text's types (``{"deck":
    32}`` passed as the text ``"32"``)."""
    if options is None:
        return {}
    if isinstance(options, Mapping):
        return dict(options)
    if isinstance(options, str) or not isinstance(options, Sequence) \
            or not all(isinstance(pair, str) for pair in options):
        raise GoatError(f"options: a dict such as {{'royal_goat': False}} or a list of key=value, not {options!r}")
    return parse_options(module, rules, players, options)


@contextmanager
def _bots_as_text(bots: str | Sequence[BotEntry], game: str) -> Iterator[str]:
    """``bots`` as ``--bots`` text, with the factories among them registered under
    their names while the block runs and taken away after (a run, or a mistake,
    leaves the registry as it found it). A name registered already to another
    factory is refused rather than replaced."""
    if isinstance(bots, str):
        yield bots
        return
    if not isinstance(bots, Sequence):
        raise TournamentSetupError(f"--bots: a list of bots such as ['heuristic', 'random'], not {bots!r}")
    added: list[str] = []
    try:
        yield ",".join(_bot_text(entry, game, added) for entry in bots)
    finally:
        for name in added:
            unregister_bot(name)


def _bot_text(entry: BotEntry, game: str, added: list[str]) -> str:
    """One entry of ``bots`` as a spec; a factory is registered under its name (noted in ``added``)."""
    if isinstance(entry, BotSpec):
        return entry.text
    if isinstance(entry, str):
        return entry
    if not callable(entry):
        if hasattr(entry, "choose"):
            raise TournamentSetupError(
                f"--bots: {entry!r} is a bot, not a bot's class: a tournament makes a bot, with a seed of "
                "its own, for every seat of every game; pass its class (or a function of a seed)")
        raise TournamentSetupError(f"--bots: each bot is a name such as 'random' or 'pimc:worlds=100', a "
                                   f"bot class or a function of a seed; not {entry!r}")
    name = getattr(entry, "name", None)
    key = (name if isinstance(name, str) else getattr(entry, "__name__", "")).strip().lower()
    try:
        if key and bot_factory(key, game) is entry:  # a bot of the project's, or one registered already
            return key
        earlier = outside.REGISTERED.get(key)
        if earlier is not None:
            raise TournamentSetupError(f"--bots: {outside.origin_of(entry)} is named {key!r}, a name given to "
                                       f"{earlier.origin}; pass the name {key!r}, or name yours otherwise")
        register_bot(key, entry)
    except BotError as exc:
        raise TournamentSetupError(str(exc)) from None
    added.append(key)
    return key
