"""``goat analyze`` and :mod:`goat.analysis`: the per-move double-dummy report.

The checks do not trust the solver's numbers blindly: consecutive rows must be
consistent with each other (the value of a move is the best value of the next
decision, from whichever side takes it, as points are zero-sum over 120), and
the last card's value must be the engine's own deal result.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from goat.analysis import analyze_record
from goat.cli.main import app
from goat.fast.solver import CATCH
from goat.games.kozel import new_state
from goat.protocol import GoatError, play_randomly
from goat.records import record_from_state


def random_record(preset: str, seed: int) -> dict[str, Any]:
    state = new_state(preset, single_deal=True)
    play_randomly(state, random.Random(seed))
    return record_from_state(state)


def decisive(v: int) -> bool:
    return abs(v) >= CATCH


@pytest.mark.parametrize(("preset", "seed"), [("full-hand", 11), ("classic", 5), ("classic", 8)])
def test_rows_are_consistent_and_end_at_the_result(preset: str, seed: int) -> None:
    record = random_record(preset, seed)
    analysis = analyze_record(record, 1)
    assert analysis.result is not None
    moves = analysis.moves
    plays = [a for a in record["deals"][0]["actions"] if " play " in a]
    assert [str(m.action) for m in moves if m.action.verb == "play"] == plays
    for m in moves:
        assert m.action in m.values and m.value == m.values[m.action]
        assert m.best_value == max(m.values.values()) and m.cost >= 0
        assert (m.cost == 0) == (m.action in m.best)
    for a, b in itertools.pairwise(moves):
        if b.index != a.index + 1 or decisive(a.value):
            continue
        expected = a.value if a.side == b.side else 120 - a.value
        assert b.best_value == expected, (str(a.action), str(b.action))
    last = moves[-1]
    result = analysis.result
    if result["ended_by"] == "shamok-caught-queen":
        assert decisive(last.value)
    else:
        assert last.value == result["points"][last.side]


def test_partner_exchange_is_listed_as_not_analysed() -> None:
    record = random_record("full-hand", 3)
    analysis = analyze_record(record, 1)
    assert len(analysis.skipped) == 4 and all(" give " in s for s in analysis.skipped)


def test_cli_prints_the_table(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(random_record("classic", 5)))
    result = CliRunner().invoke(app, ["analyze", str(path)])
    assert result.exit_code == 0, result.output
    assert "best value" in result.output and "cost" in result.output
    assert "shamok" in result.output          # the value scale is explained
    assert "result: " in result.output
    assert "with best play from the first lead analysed: team 0 " in result.output


@pytest.mark.parametrize(("options", "says", "never"), [
    ({}, ["takes 4 penalty points", "catching team better than any point result, for the other worse"],
     ["better than 60 points"]),
    ({"shamok_penalty": 1}, ["takes 1 penalty point ", "catching team better than 60 points, worse than 61",
                             "other better than 59 points, worse than 60"],
     ["4 penalty", "better than any point result"]),
    ({"shamok_catches_queen": False}, [], ["'catch' ="]),
])
def test_the_note_says_what_a_catch_is_worth_under_the_record_s_options(
        tmp_path: Path, options: dict[str, Any], says: list[str], never: list[str]) -> None:
    """The solver ranks a catch by the table's penalties: the note over the table
    must not tell a reader of a shamok_penalty=1 record that it beats every point result."""
    state = new_state("classic", options=options, single_deal=True)
    play_randomly(state, random.Random(5))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_from_state(state)))
    result = CliRunner().invoke(app, ["analyze", str(path)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for words in says:
        assert words in text
    for words in never:
        assert words not in text


@pytest.mark.parametrize(("preset", "seed"), [("full-hand", 11), ("classic", 8)])
def test_outcome_line_is_the_class_of_the_first_best_value(preset: str, seed: int) -> None:
    """The outcome at the first lead is what the first row's best value stands
    for (from team 0's view: the other team's best value leaves 120 minus it)."""
    from goat.fast.solver_outcome import outcome_of

    record = random_record(preset, seed)
    analysis = analyze_record(record, 1, outcome=True)
    assert analyze_record(record, 1).outcome is None    # opt-in: the server's review does not pay for it
    first = analysis.moves[0]
    value = first.best_value if first.side == 0 or decisive(first.best_value) else 120 - first.best_value
    if decisive(value) and first.side == 1:
        value = -value
    state = new_state(preset, single_deal=True)
    state.apply_chance(state.sample_chance(random.Random(0)))   # only its rules and tricks (none) are read
    assert analysis.outcome == str(outcome_of(state, 0, value))


def test_cli_json_is_the_analysis_with_its_summary(tmp_path: Path) -> None:
    record = random_record("full-hand", 3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["analyze", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    analysis = analyze_record(record, 1)
    assert out == analysis.to_json()
    assert [m["action"] for m in out["moves"]] == [str(m.action) for m in analysis.moves]
    assert len(out["skipped"]) == 4 and out["deals"] == len(record["deals"])
    for side in (0, 1):   # the summary counts what the moves say
        mine = [m for m in out["moves"] if m["side"] == side and m["cost"]]
        decisive = [m for m in mine if max(abs(m["value"]), abs(m["best_value"])) >= out["catch"]]
        assert out["summary"][side] == {"side": side, "mistakes": len(mine), "decisive": len(decisive),
                                        "points_lost": sum(m["cost"] for m in mine if m not in decisive),
                                        "results_changed": sum(m["result"] != m["best_result"] for m in mine)}
    assert all(set(m["result"]) == {"kind", "penalty"} for m in out["moves"])


def flat_class(value: int) -> str:
    """A value's result under the default penalty (flat 2), worked out apart
    from the solver's scoring: decisive ends by their sign, else the 60 line."""
    if decisive(value):
        return "catch" if value > 0 else "caught"
    return "win" if value > 60 else "eggs" if value == 60 else "loss"


@pytest.mark.parametrize(("preset", "seed"), [("classic", 1), ("classic", 3), ("classic", 5),
                                              ("full-hand", 11), ("full-hand", 4)])
def test_a_mistake_changes_the_result_exactly_when_it_crosses_a_scoring_line(preset: str, seed: int) -> None:
    """Kozel's score reads only which side of 60 the points fall (and the
    decisive ends): a 30-point mistake in a deal lost either way changes nothing
    on the score sheet, a 2-point one from 61 to 59 changes the deal."""
    analysis = analyze_record(random_record(preset, seed), 1)
    for m in analysis.moves:
        assert m.result is not None and m.best_result is not None
        assert m.changed_result == (flat_class(m.value) != flat_class(m.best_value)), (str(m.action), m.value,
                                                                                        m.best_value)
        if not decisive(m.value):   # the penalties the result carries: 2 to the loser
            other = 1 - m.side
            loser = m.side if m.value < 60 else other if m.value > 60 else None
            assert m.result.penalty == tuple(2 if t == loser else 0 for t in (0, 1))
    for s in analysis.summary():
        assert s.results_changed == sum(m.changed_result for m in analysis.moves if m.side == s.side and m.cost)


def test_the_result_column_shows_only_where_a_mistake_changed_it(tmp_path: Path) -> None:
    def shown(seed: int) -> tuple[Any, str]:
        record = random_record("classic", seed)
        path = tmp_path / f"{seed}.json"
        path.write_text(json.dumps(record))
        result = CliRunner(env={"COLUMNS": "160"}).invoke(app, ["analyze", str(path)])
        assert result.exit_code == 0, result.output
        return analyze_record(record, 1), result.output

    analysis, output = shown(3)     # seat 2 threw away a won deal; seat 1's 9-point slip changed nothing
    assert [m.seat for m in analysis.moves if m.changed_result] == [2] and "│ result" in output.replace("┃", "│")
    assert "win 0/2 → loss 2/0" in output
    assert "team 0 (seats 0+2): 1 mistake, 85 points given away, it changed the deal's result" in output
    assert "team 1 (seats 1+3): 1 mistake, 9 points given away, it did not change the deal's result" in output
    analysis, output = shown(0)     # one point from eggs to a lost deal
    assert "eggs 0/0 → loss 0/2" in output
    analysis, output = shown(4)     # mistakes, none across a line: no result column
    assert [m for m in analysis.moves if m.cost] and not any(m.changed_result for m in analysis.moves)
    assert "result" not in output.splitlines()[3] and "none of them changed the deal's result" in output


def test_a_solver_that_cannot_score_values_leaves_results_out() -> None:
    """The analysis knows no game rules: a solver without ``outcome_of`` gives
    the card points alone, as before."""
    from goat.fast import solver

    class PointsOnly:
        evaluate_moves = staticmethod(solver.evaluate_moves)
        unsupported = staticmethod(solver.unsupported)

    analysis = analyze_record(random_record("classic", 5), 1, solver=PointsOnly())
    assert analysis.moves and all(m.result is None and not m.changed_result for m in analysis.moves)
    out = analysis.to_json()
    assert all("result" not in m for m in out["moves"]) and all("results_changed" not in s for s in out["summary"])


@pytest.mark.parametrize("case", ["missing", "not-json", "bad-deal", "street"])
def test_cli_bad_input_is_one_line_exit_2(tmp_path: Path, case: str) -> None:
    path = tmp_path / "game.json"
    args = ["analyze", str(path)]
    if case == "not-json":
        path.write_text("{nope")
    elif case == "bad-deal":
        path.write_text(json.dumps(random_record("classic", 5)))
        args += ["--deal", "3"]
    elif case == "street":
        path.write_text(json.dumps(random_record("street", 5)))
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output


def test_deal_out_of_range_raises() -> None:
    with pytest.raises(GoatError, match="no deal 2"):
        analyze_record(random_record("classic", 5), 2)


@pytest.mark.parametrize("deal", [0, 2, -1])
def test_a_deal_out_of_range_is_told_before_the_solver_loads(monkeypatch: pytest.MonkeyPatch, deal: int) -> None:
    """Loading the solver compiles it on a fresh install (minutes on a busy
    machine): ``goat analyze game.json --deal 0`` made the player wait for it
    only to be told the deal does not exist."""
    import goat.analysis

    def no_solver(game: str) -> None:
        raise AssertionError("the solver was loaded for a deal that does not exist")

    monkeypatch.setattr(goat.analysis, "_default_solver", no_solver)
    with pytest.raises(GoatError, match=f"no deal {deal}"):
        analyze_record(random_record("classic", 5), deal)


def individual_record(players: int, seed: int) -> dict[str, Any]:
    state = new_state("full-hand", players=players, single_deal=True)
    play_randomly(state, random.Random(seed))
    return record_from_state(state)


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (3, 4), (2, 2)])
def test_individual_play_is_analysed_seat_by_seat(players: int, seed: int) -> None:
    """2- and 3-player full-hand: every card is analysed for the seat that plays
    it (the side is the seat). With 2 players the game is zero-sum (the next
    seat's best value is 120 minus this one's); with 3 the same seat acting
    twice in a row keeps its value; the last card's value is the engine's own
    result for that seat."""
    record = individual_record(players, seed)
    analysis = analyze_record(record, 1)
    assert analysis.result is not None and not analysis.skipped
    assert analysis.sides == players and not analysis.partnerships
    plays = [a for a in record["deals"][0]["actions"]]
    assert [str(m.action) for m in analysis.moves] == plays
    for m in analysis.moves:
        assert m.side == m.seat
        assert m.best_value == max(m.values.values()) and m.cost >= 0
    for a, b in itertools.pairwise(analysis.moves):
        if decisive(a.value):
            continue
        if a.side == b.side:
            assert b.best_value == a.value
        elif players == 2:
            assert b.best_value == 120 - a.value
    last = analysis.moves[-1]
    if analysis.result["ended_by"] == "shamok-caught-queen":
        assert decisive(last.value)
    else:
        assert last.value == analysis.result["points"][last.side]
    assert [s.side for s in analysis.summary()] == list(range(players))
    for s in analysis.summary():
        assert s.mistakes == sum(1 for m in analysis.moves if m.seat == s.side and m.cost)


def test_cli_analyzes_a_three_player_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(individual_record(3, 1)))
    result = CliRunner().invoke(app, ["analyze", str(path)])
    assert result.exit_code == 0, result.output
    assert all(f"seat {s}: " in result.output for s in range(3)) and "(seats " not in result.output
    assert "result: " in result.output


def test_the_summary_says_one_point_and_one_mistake_in_the_singular() -> None:
    """A side that gave one point away once read "1 points given away"."""
    from goat.analysis import SideSummary
    from goat.cli.analyze import summary_line

    assert summary_line(SideSummary(2, 1, 1, 0), partnerships=False) == "seat 2: 1 mistake, 1 point given away"
    assert summary_line(SideSummary(1, 2, 16, 1), partnerships=True) == \
        "team 1 (seats 1+3): 2 mistakes, 16 points given away (plus decisive ones)"
    assert summary_line(SideSummary(0, 0, 0, 0), partnerships=True) == "team 0 (seats 0+2): 0 mistakes, 0 points given away"
    assert summary_line(SideSummary(1, 3, 16, 0, 2), partnerships=True) == \
        "team 1 (seats 1+3): 3 mistakes, 16 points given away, 2 of them changed the deal's result"
    assert summary_line(SideSummary(1, 3, 16, 0, 1), partnerships=True).endswith(", 1 of them changed the deal's result")


def test_all_deals_then_the_match_summary(tmp_path: Path) -> None:
    """``--deal all``: every deal's analysis in order, then each team's mistakes
    over the match, summed as the deals' own summaries count them."""
    from goat.analysis import SideSummary
    from goat.cli.analyze import summary_line

    state = new_state("classic")
    play_randomly(state, random.Random(4))
    record = record_from_state(state)
    deals = len(record["deals"])
    assert deals > 1
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    result = CliRunner(env={"COLUMNS": "160"}).invoke(app, ["analyze", str(path), "--deal", "all"])
    assert result.exit_code == 0, result.output
    headings = [line for line in result.output.splitlines() if line.startswith("Deal ")]
    assert headings == [f"Deal {n} (classic): double-dummy analysis" for n in range(1, deals + 1)]
    analyses = [analyze_record(record, n) for n in range(1, deals + 1)]
    tail = result.output.split(f"All {deals} deals\n")[1].splitlines()
    for side in (0, 1):
        mine = [s for a in analyses for s in a.summary() if s.side == side]
        total = SideSummary(side, sum(s.mistakes for s in mine), sum(s.points_lost for s in mine),
                            sum(s.decisive for s in mine), sum(s.results_changed or 0 for s in mine))
        assert tail[side] == summary_line(total, partnerships=True)
    lines = CliRunner().invoke(app, ["analyze", str(path), "--deal", "all", "--json"]).output.splitlines()
    assert [json.loads(line) for line in lines] == [a.to_json() for a in analyses]


def test_a_deal_that_is_neither_a_number_nor_all_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(random_record("classic", 5)))
    result = CliRunner().invoke(app, ["analyze", str(path), "--deal", "last"])
    assert result.exit_code == 2 and result.output.strip() == "error: --deal must be a deal number or 'all', not 'last'"


def royal_goat_as_dealt() -> dict[str, Any]:
    """A 3-player full-hand match whose first deal ends as it is dealt: seat 2
    holds the four aces (a royal goat wins the match: no card is played)."""
    from goat.games.kozel import chance_from_json

    state = new_state("full-hand", players=3)
    state.apply_chance(chance_from_json(state, {
        "hands": {"0": ["9H", "JC", "TS", "9D", "KS", "QD", "9S", "TD"],
                  "1": ["9C", "TH", "KD", "KH", "QS", "JS", "QC", "TC"],
                  "2": ["QH", "JD", "AH", "AC", "JH", "AS", "KC", "AD"]},
        "stock": [], "trump_card": "JD"}))
    assert state.is_terminal()
    return record_from_state(state)


def test_a_deal_that_ended_as_dealt_has_its_result_and_no_empty_table(tmp_path: Path) -> None:
    """A royal goat as dealt ends the deal before any card: its result is the
    engine's (it read as "unfinished", the result counted after the deal was
    dealt), and the text says why nothing is valued instead of an empty table."""
    record = royal_goat_as_dealt()
    analysis = analyze_record(record, 1)
    assert analysis.moves == [] and analysis.result == record["result"]["deals"][0]
    assert analysis.to_json()["result"]["ended_by"] == "royal-goat"
    path = tmp_path / "royal.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["analyze", str(path)])
    assert result.exit_code == 0, result.output
    assert "unfinished" not in result.output and "best value" not in result.output   # no table
    assert "no card was played in this deal: it ended as it was dealt" in result.output
    assert "result: royal-goat" in result.output


def test_an_unfinished_deal_without_a_card_says_so(tmp_path: Path) -> None:
    state = new_state("classic")
    state.apply_chance(state.sample_chance(random.Random(2)))
    path = tmp_path / "started.json"
    path.write_text(json.dumps(record_from_state(state)))
    result = CliRunner().invoke(app, ["analyze", str(path)])
    assert result.exit_code == 0, result.output
    assert "best value" not in result.output and "no card has been played in this deal yet" in result.output
    assert result.output.rstrip().endswith("the deal is unfinished in the record")


def test_each_action_not_analysed_says_why(tmp_path: Path) -> None:
    """With the royal goat and a stock (classic with ``royal_goat=true``) the
    solver takes no position until the last draw: those cards are not analysed
    for that reason, not for the partner exchange the text used to name for
    every Kozel action it skipped."""
    state = new_state("classic", options={"royal_goat": True}, single_deal=True)
    play_randomly(state, random.Random(2))
    record = record_from_state(state)
    analysis = analyze_record(record, 1)
    plays = [m for m in record["deals"][0]["actions"] if " play " in m]
    assert analysis.skipped == plays[:16] and str(analysis.moves[0].action) == plays[16]   # trick 5 on
    royal = "the solver does not take the royal goat while a stock is left"
    assert analysis.skipped_reasons() == [royal] and analysis.to_json()["skipped_reasons"] == [royal]
    path = tmp_path / "royal.json"
    path.write_text(json.dumps(record))
    output = CliRunner().invoke(app, ["analyze", str(path)]).output
    assert f"Not analysed ({royal}): {plays[0]} · " in output and "partner exchange" not in output
    exchange = analyze_record(random_record("full-hand", 3), 1)
    assert exchange.skipped_by_reason() == {"the solver starts after the partner exchange, not in it":
                                            exchange.skipped}


def test_a_36_card_deck_is_one_line_exit_2(tmp_path: Path) -> None:
    """Classic with a 36-card deck: the solver's card tables hold 32 cards, and
    the analysis of such a deal never ended; now one line, as for street."""
    path = tmp_path / "game.json"
    state = new_state("classic", options={"deck": "36"}, single_deal=True)
    play_randomly(state, random.Random(4))
    path.write_text(json.dumps(record_from_state(state)))
    result = CliRunner().invoke(app, ["analyze", str(path)])
    assert result.exit_code == 2
    assert result.output == "error: the solver handles decks of up to 32 cards, not 36\n"


def test_the_review_docs_name_every_json_field() -> None:
    """docs/server.md's review row (what ``goat analyze --json`` prints) names
    every field the analysis writes: top level, a move, a side's summary, a move's position."""
    row = next(line for line in (Path(__file__).parents[1] / "docs" / "server.md").read_text().splitlines()
               if line.startswith("| `GET /api/tables/{id}/review/{deal}`"))
    out = analyze_record(random_record("classic", 5), 1).to_json()
    keys = (set(out) | set(out["moves"][0]) | set(out["summary"][0]) | set(out["moves"][0]["result"])
            | set(out["moves"][0]["position"]) | set(out["moves"][1]["position"]["trick"][0]))
    assert sorted(k for k in keys if f'"{k}"' not in row) == []


def test_help_names_what_is_analysed_and_where_the_json_is_described() -> None:
    """``goat analyze --help`` said only "each card played next to the best card":
    not which games and rulesets it takes, what a value is, nor where --json's
    fields are described."""
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["analyze", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for needle in ("classic", "full-hand (2, 3 or 4 players)", "full-hand-24", "card points",
                   "Spades", "Street", "Yu-Gi-Oh!", "docs/server.md"):
        assert needle in text, needle
    assert "Street" in text and "refused in one line" in text


def test_one_deal_of_a_match_names_the_other_deals(tmp_path: Path) -> None:
    """A match record analysed without --deal showed deal 1 alone, with no word
    that the record holds more deals or how to ask for them."""
    state = new_state("classic")
    play_randomly(state, random.Random(4))
    record = record_from_state(state)
    deals = len(record["deals"])
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    hint = f"the record has {deals} deals: --deal N analyses another, --deal all each of them"
    first = CliRunner().invoke(app, ["analyze", str(path)])
    assert first.exit_code == 0 and hint in first.output.splitlines()[-1], first.output
    assert hint not in CliRunner().invoke(app, ["analyze", str(path), "--deal", "all"]).output
    single = tmp_path / "one.json"
    single.write_text(json.dumps(random_record("classic", 5)))
    assert "--deal N" not in CliRunner().invoke(app, ["analyze", str(single)]).output


@pytest.mark.parametrize(("preset", "players", "seed"), [("classic", 4, 2), ("classic", 4, 9), ("full-hand", 4, 5),
                                                         ("full-hand-24", 4, 1), ("full-hand", 2, 4)])
def test_the_first_best_value_less_the_mistakes_is_the_deal_s_points(preset: str, players: int, seed: int) -> None:
    """Two sides, points zero-sum over 120: team 0's final points are its best
    value at the first card analysed, less what its own mistakes cost, plus
    what the other side's cost (so with every card best, the first value is
    the result). Checked on deals that no shamok catch decided."""
    state = new_state(preset, players=players, single_deal=True)
    play_randomly(state, random.Random(seed))
    analysis = analyze_record(record_from_state(state), 1)
    moves = analysis.moves
    assert analysis.result is not None and analysis.result["ended_by"] == "cards-exhausted"
    assert not any(decisive(m.value) or decisive(m.best_value) for m in moves)
    first = moves[0].best_value if moves[0].side == 0 else 120 - moves[0].best_value
    lost = {side: sum(m.cost for m in moves if m.side == side) for side in (0, 1)}
    assert first - lost[0] + lost[1] == analysis.result["points"][0]


def test_one_record_of_a_long_file_is_analysed_in_the_memory_of_one_record(
        tmp_path: Path, peak_memory: Callable[[Callable[[], object]], int]) -> None:
    """``--record K`` of a researcher's file of millions of records loaded every
    record to pick one. The same single-deal records 16 times over instead of 4:
    the extra memory must stay below the text of the 12 extra copies (a record
    held as Python objects takes several times its text)."""
    text = "".join(json.dumps(random_record("classic", seed)) + "\n" for seed in range(10))
    four_times, sixteen_times = tmp_path / "four.jsonl", tmp_path / "sixteen.jsonl"
    four_times.write_text(text * 4)
    sixteen_times.write_text(text * 16)

    def analyse(path: Path) -> None:
        result = CliRunner().invoke(app, ["analyze", str(path), "--record", "3", "--json"])
        assert result.exit_code == 0, result.output

    analyse(four_times)  # imports, the solver's compilation and caches, not counted
    small, large = peak_memory(lambda: analyse(four_times)), peak_memory(lambda: analyse(sixteen_times))
    assert large - small < len(text.encode()) * 12, (small, large)


def test_one_record_of_a_file_names_the_other_records(tmp_path: Path) -> None:
    """A .jsonl file of records (a tournament's --out) analysed without --record
    showed its first record alone, with no word that the file holds others or
    how to ask for them."""
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(random_record("classic", seed)) + "\n" for seed in (1, 2, 3)))
    first = CliRunner().invoke(app, ["analyze", str(path)])
    assert first.exit_code == 0, first.output
    assert "record 1 of 3 in the file: --record K analyses another" in first.output.splitlines()[-1]
    second = CliRunner().invoke(app, ["analyze", str(path), "--record", "2"])
    assert "record 2 of 3 in the file" in second.output.splitlines()[-1]
    as_json = CliRunner().invoke(app, ["analyze", str(path), "--json"])
    assert all(line.startswith("{") for line in as_json.output.splitlines())   # JSON stays one object a line
    single = tmp_path / "one.json"
    single.write_text(json.dumps(random_record("classic", 5)))
    assert "--record K" not in CliRunner().invoke(app, ["analyze", str(single)]).output
