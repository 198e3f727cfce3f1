"""``goat replay FILE [--json] [--check]``: replay, score and check game records.

The report is per game: Kozel shows points and penalty points, Spades bids,
tricks, scores and bags; both list every trick and who took it.

Exit status: 0 when every record replays (and, with ``--check``, its stored
result matches); 1 at the first illegal action or result mismatch; 2 when the
input is not a well-formed record (see :mod:`goat.records` for the split).
Records are taken in file order and the first problem decides (a file that is
not JSON fails before any replay). The problem is one line on standard error,
exactly as :mod:`goat.records` words it, e.g.
``deal 1, action 5 "2 play 8S": seat 2 must follow hearts (holds 9H)``; without
``--check``/``--json`` the report of the play up to it is printed first.
"""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from goat.cards import SUIT_NAMES
from goat.records import (
    DealReport,
    RecordProblem,
    ReplayOutcome,
    check_result,
    read_records,
    replay,
)


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)


def replay_command(
    file: str = typer.Argument(..., metavar="FILE", help="A .json record, a .jsonl file of records, or - for stdin."),
    as_json: bool = typer.Option(False, "--json", help="Print each record's result object, one compact line each."),
    check: bool = typer.Option(False, "--check",
                               help="Exit 0 only if every record is legal and its stored result matches."),
) -> None:
    """Replay game records: per deal the trick winners, points, penalty points and match state."""
    out = Console(highlight=False, soft_wrap=True)
    try:
        records = read_records(file)
    except RecordProblem as problem:
        typer.echo(str(problem), err=True)
        raise typer.Exit(problem.exit_status) from None
    several = len(records) > 1
    unscored = 0
    for index, record in enumerate(records, start=1):
        try:
            outcome = replay(record)
            if check:
                check_result(record, outcome)
                unscored += record.get("result") is None
        except RecordProblem as problem:
            problem.in_record(index if several else None)
            if problem.outcome is not None and not (as_json or check):
                _print_report(out, problem.outcome, index if several else None)
            typer.echo(str(problem), err=True)
            raise typer.Exit(problem.exit_status) from None
        if as_json:
            typer.echo(json.dumps(outcome.result, separators=(",", ":")))
        elif not check:
            _print_report(out, outcome, index if several else None)
    if check and not as_json:
        note = f" ({unscored} without a stored result)" if unscored else ""
        typer.echo(f"ok: {len(records)} record{'s' if several else ''} legal, stored results match{note}")


# ================================================================= report
def _print_report(out: Console, outcome: ReplayOutcome, index: int | None) -> None:
    if hasattr(outcome.state, "summary_lines"):  # games with their own report (yugioh)
        for line in outcome.state.summary_lines(index):
            out.print(Text(line))
        return
    if outcome.record.get("game") == "spades":
        _print_spades_report(out, outcome, index)
    else:
        _print_kozel_report(out, outcome, index)


def _title(outcome: ReplayOutcome, index: int | None) -> Text:
    record, state = outcome.record, outcome.state
    title = f"{'Record ' + str(index) + ': ' if index else ''}{record['game']} {record['rules']}, " \
            f"{state.num_players} players, first dealer seat {record['first_dealer']}"
    if record.get("options"):
        title += ", options " + ", ".join(f"{k}={json.dumps(v)}" for k, v in record["options"].items())
    return Text(title, style="bold")


def _print_kozel_report(out: Console, outcome: ReplayOutcome, index: int | None) -> None:
    state = outcome.state
    result = outcome.result
    sides = len(result.get("penalty_total") or []) or state.num_players
    teams = sides != state.num_players
    out.print(_title(outcome, index))
    totals = [0] * sides
    deal_results = result.get("deals") or []
    for report, deal_result in zip(outcome.deals, deal_results):
        _print_deal(out, report, deal_result, teams)
        for side, p in enumerate(deal_result.get("penalty") or []):
            totals[side] += p
        out.print(Text(f"  penalty total {_join(totals)}", style="cyan"))
    for report in outcome.deals[len(deal_results):]:  # replay stopped before its result
        _print_deal(out, report, None, teams)
    if result.get("match_over"):
        loser = result.get("loser_team")
        if loser is not None:
            verdict = f"{_side(loser, teams)} is the goat"
        else:
            winner = deal_results[-1].get("winner_team") if deal_results else None
            verdict = f"{_side(winner, teams)} wins" if winner is not None else "no loser"
        out.print(Text(f"Match over: {verdict} (penalty {_join(result.get('penalty_total', []))})",
                       style="bold"))
    else:
        out.print(Text(f"Match not over (penalty {_join(result.get('penalty_total', []))})", style="bold"))


def _print_play(out: Console, report: DealReport) -> None:
    """The deal's header, its non-trick actions (bids, gives) and every trick."""
    head = f"Deal {report.number}"
    if report.dealer is not None:
        head += f": dealer seat {report.dealer}"
    if report.trump_card:
        head += f", trump card {report.trump_card}"
    if report.trump_suit:
        head += f", trumps {SUIT_NAMES.get(report.trump_suit, report.trump_suit)}"
    out.print(Text(head, style="bold"))
    if report.other_actions:
        out.print(Text("  " + " · ".join(report.other_actions)))
    for number, trick in enumerate(report.tricks, start=1):
        taker = f"→ seat {trick.winner}" if trick.winner is not None else "(not completed)"
        out.print(Text(f"  trick {number}: {' · '.join(trick.plays)}  {taker}"))


def _print_deal(out: Console, report: DealReport, deal_result: dict[str, Any] | None, teams: bool) -> None:
    _print_play(out, report)
    if deal_result is None:
        return
    ended = deal_result.get("ended_by", "?")
    line = (f"  {ended}: points {_join(deal_result.get('points', []))}, "
            f"tricks {_join(deal_result.get('tricks', []))}, "
            f"penalty {_join(deal_result.get('penalty', []))}")
    winner = deal_result.get("winner_team")
    if winner is not None:
        line += f"; {_side(winner, teams)} wins the deal"
    out.print(Text(line, style="green" if ended != "unfinished" else "yellow"))


def _print_spades_report(out: Console, outcome: ReplayOutcome, index: int | None) -> None:
    state, result = outcome.state, outcome.result
    out.print(_title(outcome, index))
    deal_results = result.get("deals") or []
    in_deal = not (state.is_chance_node() or state.is_terminal())
    scores, bags = [0, 0], [0, 0]
    for number, report in enumerate(outcome.deals, start=1):
        _print_play(out, report)
        if number > len(deal_results):
            continue  # the replay stopped before this deal had a result
        deal = deal_results[number - 1]
        bids = "/".join("-" if b is None else str(b) for b in deal["bids"])
        if in_deal and number == len(deal_results):
            out.print(Text(f"  unfinished: bids {bids}, tricks {_join(deal['tricks'])}", style="yellow"))
            continue
        if "redeal" in deal["bids"]:
            seat = deal["bids"].index("redeal")
            out.print(Text(f"  redeal: seat {seat} showed a weak hand; the same dealer deals again",
                           style="yellow"))
            continue
        scores = [s + d for s, d in zip(scores, deal["score"])]
        out.print(Text(f"  bids {bids}, tricks {_join(deal['tricks'])}: "
                       f"score {'/'.join(f'{d:+d}' for d in deal['score'])}, bags {_join(deal['bags'])}",
                       style="green"))
        out.print(Text(f"  score total {_join(scores)}", style="cyan"))
    bags = result.get("bags_total", bags)
    totals = f"score {_join(result.get('score_total', scores))}, bags {_join(bags)}"
    winner = result.get("winner_team")
    if result.get("match_over") and winner is not None:
        out.print(Text(f"Game over: {_side(winner, True)} wins ({totals})", style="bold"))
    else:
        out.print(Text(f"Game not over ({totals})", style="bold"))


def _side(index: int, teams: bool) -> str:
    return f"team {index} (seats {index}+{index + 2})" if teams else f"seat {index}"


def _join(values: list[Any]) -> str:
    return "/".join(str(v) for v in values)
