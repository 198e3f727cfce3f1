"""``goat analyze`` on Spades records: every card valued in tricks by Bo
Haglund's DDS (:mod:`goat.fast.spades_dd`).

The rows are not trusted blindly: once spades are broken (DDS knows no rule
against leading them before), the value of a card is the best value of the next
decision, from whichever side takes it (13 tricks in all), and the last card's
value is the side's tricks in the engine's deal result. Where tricks are
not what a side plays for (the bidding, a live nil, an undecided Bemo) nothing
is valued, and a ruleset DDS cannot model is one line.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from goat.analysis import analyze_record
from goat.bots import make_bot, play_bots
from goat.cli.main import app
from goat.fast import spades_dd
from goat.games.spades import new_state
from goat.protocol import GoatError
from goat.records import record_from_state

pytestmark = pytest.mark.skipif(not spades_dd.dds_available(), reason="needs endplay (DDS)")


def heuristic_deal(seed: int, preset: str = "standard") -> dict[str, Any]:
    """One deal of ``preset`` played by the heuristic bots (random bids make a nil
    in most deals: nothing to value there)."""
    state = new_state(preset, single_deal=True)
    bots = [make_bot("heuristic", f"{seed}/{seat}", game="spades") for seat in range(4)]
    play_bots(state, bots, random.Random(seed))
    return record_from_state(state)


def has_nil(record: dict[str, Any]) -> bool:
    return any(a.split()[1] == "bid" and a.split()[2] in ("nil", "blind-nil", "double-nil", "0")
               for a in record["deals"][0]["actions"])


@pytest.mark.parametrize(("seed", "preset"), [(5, "standard"), (6, "standard"), (8, "standard"),
                                              (3, "partnership-fourteen")])
def test_spades_rows_are_consistent_and_end_at_the_tricks(seed: int, preset: str) -> None:
    record = heuristic_deal(seed, preset)
    assert not has_nil(record)
    analysis = analyze_record(record, 1)
    assert analysis.game == "spades" and analysis.result is not None
    actions = record["deals"][0]["actions"]
    plays = [a for a in actions if " play " in a]
    bids = [None] * 4
    for a in actions:
        if " bid " in a:
            bids[int(a.split()[0])] = a.split()[2]
    assert [str(m.action) for m in analysis.moves] == plays            # every card valued
    assert analysis.skipped == [a for a in actions if " bid " in a]    # the bidding is not
    for m in analysis.moves:
        assert m.value == m.values[m.action] and m.best_value == max(m.values.values())
        assert 0 <= m.value <= 13 and m.cost >= 0 and (m.cost == 0) == (m.action in m.best)
        contract = sum(int(b) for b in bids[m.side::2])                 # no nil in these deals
        assert m.result.kind == ("made" if m.value >= contract else "set")
        assert m.changed_result == ((m.value >= contract) != (m.best_value >= contract))
    broken = False   # DDS knows no "spades may not be led until broken": exact once they are
    for a, b in itertools.pairwise(analysis.moves):
        broken = broken or a.action.cards[0].suit == "S"
        if broken:
            assert b.best_value == (a.value if a.side == b.side else 13 - a.value), (str(a.action), str(b.action))
    last = analysis.moves[-1]
    tricks = analysis.result["tricks"]
    assert last.value == tricks[last.side] + tricks[last.side + 2]
    assert list(last.result.score) == analysis.result["score"]          # the engine's own score of the deal
    for s in analysis.summary():
        assert s.results_changed == sum(m.changed_result for m in analysis.moves if m.side == s.side and m.cost)


def test_cards_played_while_a_nil_is_alive_are_not_valued() -> None:
    """Under ``nil_tricks="bags"`` (``standard``) a nil's tricks are bags: the
    side's count is not what it plays for at any time of such a deal."""
    record = heuristic_deal(4)
    assert has_nil(record)
    analysis = analyze_record(record, 1)
    assert analysis.moves == [] and analysis.skipped == record["deals"][0]["actions"]
    state = new_state("standard", single_deal=True)
    state.apply_chance(state.sample_chance(random.Random(0)))
    with pytest.raises(GoatError, match="DDS values card play, not the bidding"):
        spades_dd.evaluate_moves(state)


def test_cli_analyzes_a_spades_deal_in_tricks(tmp_path: Path) -> None:
    record = heuristic_deal(5)
    path = tmp_path / "spades.json"
    path.write_text(json.dumps(record))
    result = CliRunner(env={"COLUMNS": "160"}).invoke(app, ["analyze", str(path)])
    assert result.exit_code == 0, result.output
    assert "tricks the acting seat's side ends the deal with" in result.output and "DDS" in result.output
    analysis = analyze_record(record, 1)
    for s in analysis.summary():
        tricks = f"{s.points_lost} trick{'s' if s.points_lost != 1 else ''} given away"
        assert f"team {s.side} (seats {s.side}+{s.side + 2}): " in result.output and tricks in result.output
    r = analysis.result
    assert (f"result: bids {'/'.join(r['bids'])}, tricks {'/'.join(map(str, r['tricks']))}, "
            f"score {'/'.join(map(str, r['score']))}") in result.output
    as_json = CliRunner().invoke(app, ["analyze", str(path), "--json"])
    out = json.loads(as_json.output)
    assert out == analysis.to_json() and out["game"] == "spades"
    assert all(set(m["result"]) == {"kind", "score"} and m["result"]["kind"] in ("made", "set")
               for m in out["moves"])


def test_a_ruleset_dds_cannot_model_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "jokers.json"
    path.write_text(json.dumps(heuristic_deal(1, "joker-trumps")))
    result = CliRunner().invoke(app, ["analyze", str(path)])
    assert result.exit_code == 2
    assert result.output.strip() == "error: the joker deck is not a bridge deck: DDS cannot solve it"


def test_without_dds_the_analysis_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spades_dd, "dds_available", lambda: False)
    with pytest.raises(GoatError, match=r"needs Bo Haglund's DDS \(the endplay package\): pip install 'goat\[dds\]'"):
        analyze_record(heuristic_deal(5), 1)
