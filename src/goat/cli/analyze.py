"""``goat analyze RECORD [--deal N] [--record K]``: the cost of every card played.

For one deal of a recorded Kozel game (``classic`` or ``full-hand``), the
double-dummy solver values each card actually played next to the best card in
that position, from the acting seat's team's point of view, with everything
known (all hands and the stock order). A Spades deal is valued in tricks by Bo
Haglund's DDS (the ``dds`` extra). Bad input — an unreadable or illegal
record, a deal that does not exist, a ruleset the solver does not take — is one
line on standard error and exit status 2.
"""

from __future__ import annotations

import json
from itertools import islice
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from goat.charset import writes_unicode
from goat.cli.output import echo, print_table
from goat.protocol import GoatError
from goat.records import RecordFile, RecordProblem

if TYPE_CHECKING:
    from goat.analysis import DealAnalysis, SideSummary

# goat.analysis and the solver's value constants are imported when a deal is analysed:
# they load numba (and goat.fast.solver compiles its kernel on a fresh install), which
# `goat --help` and every other command must not wait for, nor be interrupted in.

def value_note(catch: str | None) -> str:
    """The note over a Kozel deal's table: what a value is, and ``catch`` — what a
    shamok catch is worth under the record's options (:attr:`DealAnalysis.catch`,
    ``None`` where the rules have none)."""
    return (
        "Value = card points the acting seat's team ends the deal with if both teams play "
        "perfectly from there on, knowing every card. "
        + (f"'catch' = {catch}. " if catch else "")
        + "'royal' = royal goat (all four aces): the match is won. With 2 or 3 players (each for "
        "themselves) 'team' reads 'player': the value is the acting player's points with every "
        "other player playing against them. 'result' (shown where a mistake changed it) = the "
        "deal's result for the acting team with the best card, then with the card played, and "
        "the penalty points each team (player) then gets, e.g. 'win 0/2 → loss 2/0'.")


SPADES_NOTE = (
    "Value = tricks the acting seat's side ends the deal with if all four play perfectly from "
    "there on, knowing every card (Bo Haglund's DDS). Not analysed: the bidding, and the cards "
    "played while a nil bid is alive or a Bemo undecided — there one seat's tricks, or which "
    "tricks, decide the score, not the side's count. DDS knows no rule against leading spades "
    "before they are broken: until then a value may count on such a lead later. 'result' (shown "
    "where a mistake changed it) = the acting side's contract made or set with the best card, then "
    "with the card played, and each team's score for the deal, e.g. 'made 64/-50 → set -60/71'.")


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_command)


def analyze_command(
    record_file: str = typer.Argument(..., metavar="RECORD",
                                      help="A .json record, a .jsonl file of records, or - for stdin."),
    deal: str = typer.Option("1", "--deal", metavar="N|all",
                             help="Which deal of the record (1-based), or 'all': every deal, then the match's summary."),
    record_index: int = typer.Option(1, "--record", help="Which record of a .jsonl file (1-based)."),
    as_json: bool = typer.Option(False, "--json", help="Print the analysis as JSON (every move's values, "
                                                       "the best actions, the position it was taken in "
                                                       "(every hand, the trick so far), the per-team "
                                                       "summary); with "
                                                       "--deal all one line a deal."),
) -> None:
    """Double-dummy analysis of one deal: each card played next to the best card, and the cost.

    Kozel classic, full-hand (2, 3 or 4 players) and full-hand-24: a value is the card points the acting seat's team (with 2 or 3 players: the acting player) ends the deal with if everyone plays perfectly from there on, knowing every card and the stock order. Spades (the dds extra): tricks, by Bo Haglund's DDS. Street, a 36-card deck, Spades' joker deck or renege penalty and Yu-Gi-Oh! are refused in one line. --json's fields are described in docs/server.md (the deal review)."""
    from goat.analysis import analyze_record

    count = 0
    analyses = []
    try:
        with RecordFile(record_file) as source:  # a file of millions of records: only record K is kept
            count = source.count
            if not 1 <= record_index <= count:
                raise GoatError(f"the file has {count} record{'s' if count != 1 else ''}; "
                                f"there is no record {record_index}")
            record = next(islice(source, record_index - 1, None))
        numbers = deal_numbers(deal, record)
        compiles = isinstance(record, dict) and record.get("game") == "kozel"
        with Console(stderr=True).status("") as status:
            for number in numbers:
                status.update(f"Solving every position of deal {number}"
                              + (f" of {len(numbers)}" if len(numbers) > 1 else "")
                              + (" (the first run also compiles the solver: about a minute)" if compiles else ""))
                analyses.append(analyze_record(record, number, outcome=not as_json))
    except RecordProblem as problem:
        problem.in_record(record_index if count > 1 else None)
        echo(f"error: {problem}", err=True)
        raise typer.Exit(2) from None
    except GoatError as exc:
        echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        for analysis in analyses:
            echo(json.dumps(analysis.to_json(), ensure_ascii=not writes_unicode()))
        return
    out = Console(highlight=False, soft_wrap=True)
    for analysis in analyses:
        print_analysis(out, analysis)
    if len(analyses) > 1:
        print_match_summary(out, analyses)
    elif analyses[0].deals > 1:   # one deal of a match: say the others are there to ask for
        out.print(f"the record has {analyses[0].deals} deals: --deal N analyses another, "
                  "--deal all each of them and the match's summary")
    if count > 1:   # one record of a file (a tournament's --out): say the others are there too
        out.print(f"record {record_index} of {count} in the file: --record K analyses another")


def deal_numbers(deal: str, record: object) -> list[int]:
    """The deals ``--deal`` names: one number, or ``all`` (every deal of the
    record, in order); a number out of range is left to the analysis, which
    names the deals the record has."""
    if deal.strip().lower() == "all":
        deals = record.get("deals") if isinstance(record, dict) else None
        return list(range(1, len(deals) + 1)) if isinstance(deals, list) and deals else [1]
    try:
        return [int(deal)]
    except ValueError:
        raise GoatError(f"--deal must be a deal number or 'all', not {deal!r}") from None


def show_value(v: int) -> str:
    from goat.fast.solver_core import CATCH, ROYAL

    if v >= ROYAL:
        return "royal"
    if v <= -ROYAL:
        return "royal against"
    if v >= CATCH:
        return "catch"
    if v <= -CATCH:
        return "caught"
    return str(v)


def show_cost(best: int, played: int) -> str:
    from goat.fast.solver_core import CATCH

    if best == played:
        return ""
    if max(abs(best), abs(played)) >= CATCH:
        return f"{show_value(best)} → {show_value(played)}"
    return str(best - played)


#: A deal result's kind in a cell of the table (the solver's ``outcome_of`` kinds).
RESULT_WORDS = {"win": "win", "eggs": "eggs", "loss": "loss", "no-win": "no win", "catch-for": "catch",
                "catch-against": "caught", "royal-goat-for": "royal", "royal-goat-against": "royal against",
                "made": "made", "set": "set"}


def show_result(result: object) -> str:
    """A deal result as a cell: its kind and the penalty points each side gets
    ("loss 2/0"), or in Spades each team's score for the deal ("set -60/71");
    the kind alone where the value cannot tell the penalties, or where the match
    ends (a royal goat)."""
    kind, penalty = getattr(result, "kind"), getattr(result, "penalty")
    word = RESULT_WORDS.get(kind, kind)
    score = getattr(result, "score", None)
    if score is not None:
        return f"{word} {'/'.join(map(str, score))}"
    if penalty is None or kind.startswith("royal"):
        return word
    return f"{word} {'/'.join(map(str, penalty))}"


def summary_line(s: SideSummary, partnerships: bool, unit: str = "point") -> str:
    """One side's mistakes, the points (``unit``: Spades' tricks) they gave away
    and the results they changed, in words ("1 point", not "1 points")."""
    who = f"team {s.side} (seats {s.side}+{s.side + 2})" if partnerships else f"seat {s.side}"
    line = (f"{who}: {s.mistakes} mistake{'s' if s.mistakes != 1 else ''}, "
            f"{s.points_lost} {unit}{'s' if s.points_lost != 1 else ''} given away"
            + (" (plus decisive ones)" if s.decisive else ""))
    if s.results_changed is not None and s.mistakes:
        n = s.results_changed
        if s.mistakes == 1:
            line += ", it changed the deal's result" if n else ", it did not change the deal's result"
        else:
            line += f", {n} of them changed the deal's result" if n else ", none of them changed the deal's result"
    return line


def print_match_summary(out: Console, analyses: list[DealAnalysis]) -> None:
    """Each side's mistakes over the deals analysed, summed as each deal's
    summary counts them (``--deal all``)."""
    from goat.analysis import SideSummary

    first = analyses[0]
    unit = "trick" if first.game == "spades" else "point"
    out.print(Text(f"All {len(analyses)} deals", style="bold"))
    for side in range(first.sides):
        mine = [s for a in analyses for s in a.summary() if s.side == side]
        changed = [s.results_changed for s in mine]
        out.print(summary_line(SideSummary(side, sum(s.mistakes for s in mine), sum(s.points_lost for s in mine),
                                           sum(s.decisive for s in mine),
                                           None if None in changed else sum(c for c in changed if c is not None)),
                               first.partnerships, unit))


def print_analysis(out: Console, analysis: DealAnalysis) -> None:
    out.print(Text(f"Deal {analysis.deal} ({analysis.rules}): double-dummy analysis", style="bold"))
    spades = analysis.game == "spades"
    out.print(Text(SPADES_NOTE if spades else value_note(analysis.catch), style="dim"))
    for why, actions in analysis.skipped_by_reason().items():
        out.print(Text(f"Not analysed ({why}): " + " · ".join(actions), style="dim"))
    if analysis.moves:
        print_moves(out, analysis)
    else:   # no empty table: say why there is nothing to value
        out.print("no card of this deal is valued (see 'Not analysed' above)" if analysis.skipped
                  else "no card was played in this deal: it ended as it was dealt" if analysis.result is not None
                  else "no card has been played in this deal yet")
    if analysis.outcome is not None:
        out.print(f"with best play from the first lead analysed: {analysis.outcome}")
    for s in analysis.summary():
        out.print(summary_line(s, analysis.partnerships, "trick" if spades else "point"))
    if analysis.result is not None:
        r = analysis.result

        def joined(key: str) -> str:
            return "/".join(map(str, r.get(key, [])))

        if spades:
            out.print(f"result: bids {joined('bids')}, tricks {joined('tricks')}, score {joined('score')}")
        else:
            out.print(f"result: {r.get('ended_by')}, points {joined('points')}, penalty {joined('penalty')}")
    else:
        out.print("the deal is unfinished in the record")


def print_moves(out: Console, analysis: DealAnalysis) -> None:
    """The table of the moves valued: each one's value next to the best, the
    cost, and (where a mistake changed it) the deal's result."""
    table = Table(show_lines=False)
    changed = any(m.changed_result for m in analysis.moves)
    columns = [("trick", "right"), ("seat", "right"), ("played", "left"), ("value", "right"),
               ("best", "left"), ("best value", "right"), ("cost", "right")]
    for name, justify in columns + ([("result", "left")] if changed else []):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for m in analysis.moves:
        played = " ".join(f"{m.action.verb} {' '.join(map(str, m.action.cards))}".split())
        best = ", ".join(" ".join(map(str, a.cards)) for a in m.best)
        style = None if m.cost == 0 else ("bold red" if m.changed_result else "red")
        cells = [str(m.trick), str(m.seat), played, show_value(m.value), best,
                 show_value(m.best_value), show_cost(m.best_value, m.value)]
        if changed:
            cells.append(f"{show_result(m.best_result)} → {show_result(m.result)}" if m.changed_result else "")
        table.add_row(*cells, style=style)
    print_table(out, table)
