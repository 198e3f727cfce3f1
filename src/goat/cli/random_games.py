"""``goat random-games GAME --rules R --n N --out FILE.jsonl``: random self-play records
(``kozel``, or ``yugioh``: Goat Control mirror matches, or duels with ``--single-deal``).

Each game is played with uniformly random legal actions and chance through
:func:`goat.protocol.play_randomly`, from its own generator seeded with
``"<seed>/<i>"`` (string seeds are hashed with SHA-512 by :mod:`random`, so the
same seed gives the same file on every machine and game ``i`` can be reproduced
alone). The first dealer is drawn from that generator too. Records are written
one per line, so ``goat replay FILE --check`` accepts the output.

A game module may name ``RANDOM_PLAY_OPTIONS``: options that random play needs
to end at all (uniformly random Spades bids are almost always set, so neither
team ever reaches 500: a deal limit ends those games). They apply unless the
user sets one of them or asks for ``--single-deal``; the summary says so and
the records carry them, so every record still replays exactly.
"""

from __future__ import annotations

import random
import secrets
import sys
import time
from collections import Counter
from contextlib import nullcontext
from typing import Any

import typer
from rich.console import Console

from goat.cli.errors import user_errors
from goat.cli.output import echo
from goat.progress import progress
from goat.files import check_stdout, check_writable, partial_path, whole_run_file, written_in_place
from goat.games import get_game
from goat.games.options import parse_options
from goat.protocol import GoatError, check_seed, play_randomly
from goat.records import record_from_state, write_records


def register(app: typer.Typer) -> None:
    app.command("random-games")(random_games_command)


def random_games_command(
    game: str = typer.Argument(..., metavar="GAME", help="The game: kozel, spades or yugioh."),
    rules: str | None = typer.Option(None, "--rules", "-r", help="Ruleset preset (default: the game's first): "
                                                           "kozel classic, full-hand, full-hand-24, street; "
                                                           "spades standard or a variant; yugioh goat, official."),
    n: int = typer.Option(..., "--n", "-n", help="How many games to play (at least 1)."),
    out: str = typer.Option(..., "--out", help="Output file (JSON lines), or - for stdout."),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed; game i uses random.Random(f'{seed}/{i}'). "
                                                        "Default: a fresh one, printed in the summary."),
    players: int | None = typer.Option(None, "--players", "-p", help="Number of seats (default: the preset's)."),
    option: list[str] = typer.Option([], "--option", "-o", metavar="KEY=VALUE", help="key=value overriding a ruleset option, "
                                                          "e.g. royal_goat=false; repeatable (default: the preset's options)."),
    single_deal: bool = typer.Option(False, "--single-deal", help="Play one deal (yugioh: one duel) per game "
                                                                   "instead of a match."),
) -> None:
    """Play N games with uniformly random legal moves and write them as records."""
    with user_errors():
        if seed is not None:
            check_seed(seed, name="--seed")
        if n < 1:  # one line, as every other count (typer's min= draws a box of usage)
            raise GoatError(f"--n must be at least 1, not {n}")
        module = get_game(game)
        rules = rules if rules is not None else next(iter(module.PRESETS))
        options = parse_options(module, rules, players, option)
        added = {} if single_deal else {k: v for k, v in getattr(module, "RANDOM_PLAY_OPTIONS", {}).items()
                                        if k not in options}
        options.update(added)
        module.new_state(rules=rules, options=options, players=players)  # fail fast, before the file
    if seed is None:
        seed = secrets.randbelow(2**31)
    console = Console(stderr=True)
    started = time.perf_counter()
    deals = 0
    losers: Counter[str] = Counter()
    with user_errors():
        if out == "-":
            check_stdout()
        else:
            check_writable(out, option="--out", instead="- writes to standard output")
    done = 0
    deal_games = single_deal and game != "yugioh"   # a single duel is a match of its own: it has a loser
    try:
        with nullcontext(sys.stdout) if out == "-" else whole_run_file(out) as target:
            with progress(console, f"{game} {rules}", n) as advance:
                for i in range(n):
                    record = play_one(module, rules, options, players, seed, i, single_deal)
                    write_records(record, target)
                    done += 1
                    deals += len(_deals(record))
                    losers[_deal_winner_label(record) if deal_games else _loser_label(record)] += 1
                    advance()
    except KeyboardInterrupt:
        _interrupted(done, n, out, seed)
    except BrokenPipeError:
        raise  # stdout closed (| head): click ends quietly, status 1
    except OSError as exc:  # a full disk, a folder gone: the hidden file is gone too
        echo(f"error: cannot write {out}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None
    seconds = time.perf_counter() - started
    # "seat 1 ×3": a bare "seat 1 3" read as one more seat number
    tally = ", ".join(f"{label} ×{count}" for label, count in sorted(losers.items()))
    kind = "deal winner" if deal_games else _outcome_kind(record["result"])  # n >= 1: the last record names it
    note = ""
    if added:
        note = " (random play needs " + ", ".join(f"{k}={v}" for k, v in added.items()) + " to end a game)"
    unit = ("duel" if game == "yugioh" else "deal") + ("" if deals == 1 else "s")
    where = "standard output" if out == "-" else out
    echo(f"wrote {n} {game} {rules} record{'s' if n != 1 else ''} ({deals} {unit}) to {where}, "
               f"seed {seed}, in {seconds:.1f}s; {kind}: {tally}{note}", err=out == "-")


def _interrupted(done: int, n: int, out: str, seed: int) -> None:
    """Ctrl+C: say how far the run got and where its records are, exit status 130.
    ``--out`` is written only by a whole run (:func:`goat.files.whole_run_file`):
    a cut file would read as a whole one, and an earlier file of that name is kept."""
    where = "nothing written"
    if out == "-":
        where = f"the {done} finished game(s) went to standard output" if done else where
    elif done and written_in_place(out):
        where = f"the {done} finished game(s) went to {out}"   # a pipe or a device: written as games finished
    elif done:
        where = f"wrote the {done} finished games' records to {partial_path(out)} (--out is written only by a whole run)"
    echo(f"interrupted after {done} of {n} games (seed {seed}): {where}", err=True)
    raise typer.Exit(130)


def play_one(module: Any, rules: str, options: dict[str, Any], players: int | None, seed: int,
             index: int, single_deal: bool) -> dict[str, Any]:
    """Game ``index`` of a run: reproducible from ``seed`` and ``index`` alone.

    The first dealer comes from the game's own ``draw_first_dealer`` when it has
    one (Spades: each player draws a card, highest deals), else uniformly."""
    rng = random.Random(f"{seed}/{index}")
    probe = module.new_state(rules=rules, options=options, players=players)
    draw = getattr(module, "draw_first_dealer", None)
    first_dealer = draw(rng, probe.num_players) if draw else rng.randrange(probe.num_players)
    state = module.new_state(rules=rules, options=options, players=players, first_dealer=first_dealer,
                             single_deal=single_deal)
    play_randomly(state, rng)
    return record_from_state(state)


def _outcome_kind(result: dict[str, Any]) -> str:
    """What a game's result names: its ``loser`` (Kozel's goat, a duel's loser) or
    its ``winner`` (Spades)."""
    return "winner" if "winner_team" in result and "loser_team" not in result else "loser"


def _deals(record: dict[str, Any]) -> list[Any]:
    """A record's deals (Yu-Gi-Oh!: its duels, ``docs/yugioh-records.md``)."""
    return record["deals"] if "deals" in record else record["result"]["duels"]


def _deal_winner_label(record: dict[str, Any]) -> str:
    """Who won a single deal (``--single-deal``), which never ends a match: Kozel's
    ``winner_team`` (a seat in individual play), Spades' higher deal score;
    ``none`` for a tie. The deal is the last one: annulled deals come before it."""
    result = record["result"]
    deal = result["deals"][-1]
    if "winner_team" in deal:
        winner = deal["winner_team"]
        teams = len(result["penalty_total"]) != record["players"]
    else:
        score0, score1 = deal["score"]
        winner, teams = (None if score0 == score1 else int(score1 > score0)), True
    return "none" if winner is None else f"{'team' if teams else 'seat'} {winner}"


def _loser_label(record: dict[str, Any]) -> str:
    """The side the result names (see :func:`_outcome_kind`)."""
    result = record["result"]
    if not result.get("match_over"):
        return "none (match not over)"
    if _outcome_kind(result) == "winner":
        winner = result["winner_team"]
        return "none" if winner is None else f"team {winner}"
    if "loser_team" not in result and "winner" in result:  # a duel: one winner of two seats
        return "none" if result["winner"] is None else f"seat {1 - result['winner']}"
    loser = result.get("loser_team")
    sides = len(result.get("penalty_total") or [])
    teams = sides != record["players"]
    if loser is None:   # 3 players: one winner (a royal goat, or two goats at once), two losers
        winner = (result.get("deals") or [{}])[-1].get("winner_team")
        losers = [str(side) for side in range(sides) if side != winner]
        return "none" if winner is None else f"{'teams' if teams else 'seats'} {'+'.join(losers)}"
    return f"{'team' if teams else 'seat'} {loser}"
