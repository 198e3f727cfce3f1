"""Tournaments of Spades and Yu-Gi-Oh!: through the CLI and the API.

Every number of the results table is worked out again from the records the
tournament wrote (win rate from each record's winner, the per-deal difference
from its scores), the duplicate pairs are shown to share their chance outcomes
from the records alone, and the records replay with ``goat replay --check``.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.games import GAMES, get_game
from goat.games.yugioh import DeckList
from goat.records import check_result, read_records, replay
from goat.tournament import SCORING, TableConfig, parse_bot_list, schedule, scoring_for
from goat.tournament.runner import GameResult, run_all
from goat.tournament.stats import summarize

runner = CliRunner(env={"FORCE_COLOR": None, "COLUMNS": "150"})

SPADES = ["--game", "spades", "--bots", "heuristic,random"]
YUGIOH = ["--game", "yugioh", "--bots", "greedy,random", "--option", "starting_lp=2000"]


# ----------------------------------------------------------------- helpers
def tournament(tmp_path: Path, args: list[str], *extra: str) -> tuple[list[dict[str, Any]], str, Path]:
    out, plot = tmp_path / "games.jsonl", tmp_path / "games.png"
    result = runner.invoke(app, ["tournament", *args, "--matches", "2", "--seed", "5", "--workers", "1",
                                 "--out", str(out), "--plot", str(plot), *extra])
    assert result.exit_code == 0, result.output
    check = runner.invoke(app, ["replay", str(out), "--check"])
    assert check.exit_code == 0, check.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return read_records(out), result.stdout, plot


def table(stdout: str) -> dict[str, list[str]]:
    """Bot label -> its cells (games, deals, win rate, difference, Elo)."""
    rows = [line.split("│")[1:-1] for line in stdout.splitlines() if line.startswith("│")]
    return {cells[0].strip(): [c.strip() for c in cells[1:]] for cells in rows}


def interval_mean(cell: str) -> float:
    """``+0.123 ± 0.456`` or a win rate's ``62.5% (40.1–80.3)``."""
    return float(cell.split("±")[0].split("(")[0].strip().rstrip("%"))


def first_bot_view(game: str, record: dict[str, Any], rotation: int) -> tuple[float, float, int]:
    """(match score of the schedule's first bot, its total minus the other's, deals)
    from the record alone. In rotation 0 the first bot holds seat 0 (and its
    partner seat 2), in rotation 1 seat 1 (and 3)."""
    result, side = record["result"], rotation
    if game == "spades":
        winner, totals, deals = result["winner_team"], result["score_total"], len(result["deals"])
    else:
        winner, deals = result["winner"], len(result["duels"])
        totals = [sum(d["lp"][seat] for d in result["duels"]) for seat in (0, 1)]
    score = 0.5 if winner is None else 1.0 if winner == side else 0.0
    return score, totals[side] - totals[1 - side], deals


def yugioh_streams(record: dict[str, Any]) -> dict[tuple[int, str, int], list[Any]]:
    """The record's chance outcomes by (duel, kind, seat), found by replaying it."""
    game = get_game("yugioh")
    state = game.new_state(record["rules"], record["options"],
                           decks=[DeckList.from_json(d) for d in record["decks"]],
                           single_duel=record["single_duel"])
    chances, actions = iter(record["chance"]), iter(record["actions"])
    streams: dict[tuple[int, str, int], list[Any]] = {}
    while not state.is_terminal():
        if state.is_chance_node():
            request = state.pending()
            outcome = next(chances)
            streams.setdefault((len(state.results), request.kind, request.seat), []).append(outcome)
            state.apply_chance(outcome)
        else:
            state.apply_action(next(actions))
    return streams


def assert_duplicate_pairs_share_chance(game: str, records: list[dict[str, Any]]) -> None:
    for a, b in zip(records[::2], records[1::2]):
        if game == "spades":  # the n-th deal: the same hands at the same seats, as far as both went
            shared = min(len(a["deals"]), len(b["deals"]))
            assert shared >= 1
            for deal_a, deal_b in zip(a["deals"][:shared], b["deals"][:shared]):
                assert deal_a["hands"] == deal_b["hands"]
            assert a["first_dealer"] == b["first_dealer"]
        else:  # the coin, and each seat's opening shuffle of its deck
            streams_a, streams_b = yugioh_streams(a), yugioh_streams(b)
            assert streams_a[(0, "coin", -1)][0] == streams_b[(0, "coin", -1)][0]
            for seat in (0, 1):
                opening = streams_a[(0, "shuffle", seat)][0]
                assert opening == streams_b[(0, "shuffle", seat)][0]
                assert len(opening) >= 30  # a whole deck, top first
            assert a["chance"] != b["chance"] or a["actions"] != b["actions"]  # the bots did swap
    # different duplicate sets are dealt differently
    if game == "spades":
        assert records[0]["deals"][0]["hands"] != records[2]["deals"][0]["hands"]
    else:
        assert yugioh_streams(records[0])[(0, "shuffle", 0)] != yugioh_streams(records[2])[(0, "shuffle", 0)]


# ----------------------------------------------------------------- the CLI
@pytest.mark.parametrize("game, args, first, second, column", [
    ("spades", SPADES, "heuristic", "random", "pts diff/deal"),
    ("yugioh", YUGIOH, "greedy", "random", "LP diff/duel"),
])
def test_a_tiny_tournament_through_the_cli_adds_up_from_its_records(
        tmp_path: Path, game: str, args: list[str], first: str, second: str, column: str) -> None:
    records, stdout, _ = tournament(tmp_path, args)
    assert len(records) == 4  # 2 duplicate sets x 2 seatings
    assert all(r["game"] == game for r in records)
    assert column in stdout and "match win rate" in stdout and "Elo" in stdout
    rows = table(stdout)
    assert list(rows) == [first, second]

    views = [first_bot_view(game, r, i % 2) for i, r in enumerate(records)]
    wins = sum(score == 1.0 for score, _, _ in views)
    losses = sum(score == 0.0 for score, _, _ in views)
    draws = sum(score == 0.5 for score, _, _ in views)
    assert wins + losses + draws == len(records)
    deals = sum(d for _, _, d in views)
    for label in (first, second):
        games, deal_cell = int(rows[label][0]), int(rows[label][1])
        assert games == len(records) and deal_cell == deals
    win_rate = (wins + draws / 2) / len(records)  # equal-sized sets: the mean of set means
    assert interval_mean(rows[first][2]) == pytest.approx(100 * win_rate, abs=0.05)
    assert interval_mean(rows[second][2]) == pytest.approx(100 * (1 - win_rate), abs=0.05)
    difference = sum(diff / d for _, diff, d in views) / len(records)
    assert interval_mean(rows[first][3]) == pytest.approx(difference, abs=5e-4)
    assert interval_mean(rows[second][3]) == pytest.approx(-difference, abs=5e-4)
    elo = [interval_mean(rows[label][4]) for label in (first, second)]
    assert sum(elo) == pytest.approx(3000, abs=1) and (elo[0] > elo[1]) == (win_rate > 0.5)
    # two bots: each rating's interval mirrors the other's about 1500 (half the Elo gap's)
    bounds = [rows[label][4].split("(")[1].rstrip(")").split("–") for label in (first, second)]
    assert bounds[0][0] == "-∞" or bounds[1][1] == "∞" or \
        float(bounds[0][0]) + float(bounds[1][1]) == pytest.approx(3000, abs=1)
    assert_duplicate_pairs_share_chance(game, records)


def test_a_yugioh_tournament_of_single_duels(tmp_path: Path) -> None:
    records, stdout, _ = tournament(tmp_path, YUGIOH, "--deals-only")
    assert "duel win rate" in stdout and "single duels" not in stdout  # the header is on stderr
    assert all(r["single_duel"] and len(r["result"]["duels"]) == 1 for r in records)
    assert_duplicate_pairs_share_chance("yugioh", records)


def test_a_spades_tournament_of_single_deals(tmp_path: Path) -> None:
    records, stdout, _ = tournament(tmp_path, SPADES, "--deals-only")
    assert "deal win rate" in stdout
    for record in records:  # one scored deal each (a redeal of a weak hand comes first)
        assert len(record["deals"]) >= 1 and not record["result"]["match_over"]
    assert_duplicate_pairs_share_chance("spades", records)


# ----------------------------------------------------------------- the API
@pytest.mark.parametrize("game, rules, options, bots", [
    ("spades", "standard", {}, "heuristic,random"),
    ("yugioh", "goat", {"starting_lp": 2000}, "greedy,random"),
])
def test_a_tiny_tournament_through_the_api(game: str, rules: str, options: dict[str, Any], bots: str) -> None:
    scoring = scoring_for(game)
    specs = parse_bot_list(bots)
    probe = get_game(game).new_state(rules=rules, options=options)
    games = schedule(specs, TableConfig(game, rules, options), probe.num_players, scoring.sides(probe), 2, 9)
    assert [g.rotation for g in games] == [0, 1, 0, 1]
    results = run_all(games, workers=1)
    assert [r.index for r in results] == [0, 1, 2, 3]
    for result in results:
        record = result.record
        outcome = replay(record)
        check_result(record, outcome)  # raises on a mismatch
        assert result.returns == tuple(outcome.state.returns()) and sorted(result.returns) in ([-1, 1], [-1, -1, 1, 1])
        assert result.deal_scores == scoring.deal_scores(record["result"])
        assert result.totals == scoring.totals(record["result"])
        assert result.lower_is_better is False and result.deals >= 1
        assert tuple(result.totals) == tuple(sum(col) for col in zip(*result.deal_scores))
    rows = summarize(results, [s.label for s in specs])
    assert [r.games for r in rows] == [4, 4]
    assert rows[0].score.mean + rows[1].score.mean == pytest.approx(1.0)
    assert rows[0].difference.mean == pytest.approx(-rows[1].difference.mean)
    assert rows[0].score.n == 2  # intervals over the two duplicate sets
    assert_duplicate_pairs_share_chance(game, [r.record for r in results])
    # a pure function of its spec: the same game again gives the same record
    from goat.tournament.runner import play_game

    assert play_game(games[1]).record == results[1].record


def test_spades_deal_scores_are_the_team_score_changes() -> None:
    result = {"deals": [{"score": [35, 50]}, {"score": [121, -120]}], "score_total": [156, -70]}
    spades = scoring_for("spades")
    assert spades.deal_scores(result) == ((35, 50), (121, -120))
    assert spades.totals(result) == (156, -70)
    game = GameResult(0, 0, 0, 0, ("A", "B", "A", "B"), (0, 1, 0, 1), (156, -70), (1.0, -1.0, 1.0, -1.0),
                      ((35, 50), (121, -120)), {}, 0.0, lower_is_better=False)
    from goat.tournament.stats import deal_differences, game_scores

    assert game_scores(game) == {"A": (1.0, (156 + 70) / 2), "B": (0.0, -(156 + 70) / 2)}
    assert deal_differences(game, "A") == [-15, 241]


def test_every_game_has_a_scoring_entry() -> None:
    assert set(SCORING) == set(GAMES)
    for name, scoring in SCORING.items():
        state = get_game(name).new_state(rules=scoring.default_rules)
        assert len(scoring.sides(state)) == state.num_players
        assert scoring.chance_stream(state)  # every game starts at a chance node


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize("args, message", [
    (["--game", "spades", "--bots", "heuristic,perfect"],
     "error: bot 'perfect' does not play spades (bots for spades: random, ismcts, heuristic, pimc)"),
    (["--game", "yugioh", "--bots", "greedy,heuristic"],
     "error: bot 'heuristic': unknown bot 'heuristic' (known: random, greedy, mc)"),
    (["--game", "yugioh", "--bots", "greedy,random:depth=2"], "error: bot 'random:depth=2'"),
    (["--game", "spades", "--rules", "classic", "--bots", "random,heuristic"], "error: unknown Spades ruleset 'classic'"),
    (["--game", "yugioh", "--rules", "standard", "--bots", "greedy,random"], "error: unknown Yu-Gi-Oh! ruleset 'standard'"),
    (["--game", "yugioh", "--bots", "greedy,random", "--players", "3"], "error: a duel has exactly 2 players"),
    (["--game", "yugioh", "--bots", "greedy,random", "--option", "decks=nope"], "error: option decks='nope' is not allowed (one of"),
])
def test_mistakes_for_other_games_are_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", "--matches", "1", *args])
    assert result.exit_code == 2, result.output
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(message), result.stderr


def test_deals_only_is_refused_for_a_game_without_single_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """No built-in game lacks single deals (Yu-Gi-Oh!'s are single duels); the
    refusal is the table's, so a game added without them gets it for free."""
    monkeypatch.setitem(SCORING, "yugioh", dataclasses.replace(SCORING["yugioh"], single_deals=None))
    result = runner.invoke(app, ["tournament", *YUGIOH, "--matches", "1", "--deals-only"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --deals-only: a yugioh game cannot be played as single duels"


def test_spades_matches_get_a_time_limit_unless_told_otherwise(tmp_path: Path) -> None:
    """Random bids are nearly always set: random against random sinks forever
    and never reaches 500. Tournaments play Spades matches to a time limit of
    100 deals (the higher score wins), say so, and write it into the records."""
    out = tmp_path / "rr.jsonl"
    result = runner.invoke(app, ["tournament", "--game", "spades", "--bots", "random,random", "--matches", "1",
                                 "--seed", "1", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "tournament default: max_deals=100 (set it with --option)" in result.stderr
    records = read_records(out)
    assert all(r["options"] == {"max_deals": 100} and r["result"]["match_over"] for r in records)
    assert all(len(r["result"]["deals"]) >= 100 for r in records)  # nobody got near 500
    assert runner.invoke(app, ["replay", str(out), "--check"]).exit_code == 0
    given = runner.invoke(app, ["tournament", "--game", "spades", "--bots", "heuristic,random", "--matches", "1",
                                "--seed", "1", "--workers", "1", "--option", "lose_at=-300", "--out", "-"])
    assert given.exit_code == 0 and "tournament default: max_deals=100" in given.stderr
    assert json.loads(given.stdout.splitlines()[0])["options"] == {"lose_at": -300, "max_deals": 100}


def test_an_endless_spades_match_stops_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the time limit (max_deals=off) a match of sinking teams is
    stopped by the runner's limit (200 deals; 3 here), with advice."""
    monkeypatch.setitem(SCORING, "spades", dataclasses.replace(SCORING["spades"], deal_limit=3))
    result = runner.invoke(app, ["tournament", "--game", "spades", "--bots", "random,random", "--matches", "1",
                                 "--seed", "1", "--workers", "1", "--option", "max_deals=off"])
    assert "tournament default" not in result.stderr
    assert result.exit_code == 1, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == ["error: game 0 (random, random#2, random, random#2): no side won within 3 deals; bots "
                      "that keep being set never reach the target: end matches with --option max_deals=N "
                      "or --option lose_at=-200"]
    capped = runner.invoke(app, ["tournament", "--game", "spades", "--bots", "random,random", "--matches", "1",
                                 "--seed", "1", "--workers", "1", "--option", "max_deals=3", "--out", "-"])
    assert capped.exit_code == 0, capped.output
    lines = capped.stdout.splitlines()
    assert len(lines) == 2 and all(len(json.loads(line)["result"]["deals"]) >= 3 for line in lines)
    assert not math.isnan(float(table(capped.stderr)["random"][4]))
