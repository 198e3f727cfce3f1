"""``goat analyze`` on hand-made deals whose last tricks are worked out by hand.

Each deal is a whole record (the analysis replays records from the deal), built so
that the first tricks are plain suit-following with one seat winning them; the
rows of the last two or three tricks are then checked against values worked out
by hand in the comments: the acting side's card points at the end of the deal
(its pile after the early tricks plus what it takes from the ending with best
play), ±CATCH for a shamok catch. The CLI's ``--json`` must say the same as
:func:`goat.analysis.analyze_record`.

Card points: J 2, Q 3, K 4, T 10, A 11, the rest 0.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from goat.analysis import analyze_record
from goat.cli.main import app
from goat.fast.solver import CATCH
from goat.games.kozel import chance_from_json, new_state
from goat.protocol import Action
from goat.records import record_from_state


def deal_record(preset: str, deal: dict[str, Any], tricks: list[str], players: int = 4,
                options: dict[str, Any] | None = None) -> dict[str, Any]:
    """One finished deal: ``deal`` as a record's deal object, then ``tricks``,
    each "seat card, seat card, ..." (a card played), or whole actions ("1 give 9C");
    ``options``: the table's rule options."""
    state = new_state(preset, players=players, single_deal=True, options=options)
    state.apply_chance(chance_from_json(state, deal))
    for trick in tricks:
        for text in trick.split(","):
            words = text.split()
            state.apply_action(Action.parse(" ".join(words) if len(words) == 3 else "{} play {}".format(*words)))
    assert state.is_terminal()
    return record_from_state(state)


def rows_by_hand(record: dict[str, Any], expected: list[tuple[str, dict[str, int]]], tmp_path: Path) -> None:
    """The last ``len(expected)`` rows: each played action and the values of
    every legal action in that position; best, best value and cost follow from
    them. ``goat analyze --json`` prints the same rows."""
    analysis = analyze_record(record, 1)
    rows = analysis.moves[-len(expected):]
    for row, (played, values) in zip(rows, expected, strict=True):
        assert str(row.action) == played
        assert {str(a): v for a, v in row.values.items()} == values, played
        best = max(values.values())
        assert (row.value, row.best_value, row.cost) == (values[played], best, best - values[played])
        assert sorted(map(str, row.best)) == sorted(a for a, v in values.items() if v == best)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["analyze", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out == analysis.to_json()
    assert [(m["action"], m["value"], m["best_value"], m["cost"]) for m in out["moves"][-len(expected):]] == \
        [(str(m.action), m.value, m.best_value, m.cost) for m in rows]


def test_classic_two_tricks_a_tie_a_trump_lead_and_the_last_trick(tmp_path: Path) -> None:
    # Seat 0 deals and wins tricks 1-6 (so it draws first after each of tricks 1-4):
    # AD KD TD 9D 25, AS 7S KS 8S 15, 7C JS QC 9C 5 (7C and QC one team: no catch),
    # QS JH AC TC 26, QH KC JC JD 11, 8D 7D 8H 9H 0 (2 and 3 are out of diamonds):
    # team 0 holds 82, team 1 0. Left: 0 AH 8C, 1 TH QD, 2 KH 9S, 3 7H TS (38 points).
    # Trick 7, seat 0 leads:
    #   AH: all follow hearts (TH, KH, 7H): 25 for team 0; then 8C loses to QD (with
    #       9S, TS): 13 for team 1. Team 0: 82 + 25 = 107.
    #   8C: seat 1 must follow with its only trump QD, which wins. Seat 2 keeps KH for
    #       the last trick (9S now), seat 3 throws TS on its partner's trick: 13 for
    #       team 1; then TH, KH, 7H fall to AH: 25. 107 too: a tie.
    # Played: 8C; QD (forced: 13 for team 1); seat 2 KH (the last trick then gets 9S,
    # not KH, and TS on QD: 82 + 21 = 103) instead of 9S (107): cost 4; seat 3 7H
    # (team 1 keeps 3 + 4 = 7, and TS falls to AH) instead of TS (17): cost 10.
    # Trick 8 is forced: TH 9S TS AH: 31 for team 0, 113 against 7.
    deal = {"hands": {"0": ["AD", "AS", "7C", "QS"], "1": ["KD", "7S", "JS", "JH"],
                      "2": ["TD", "KS", "QC", "AC"], "3": ["9D", "8S", "9C", "TC"]},
            "stock": ["QH", "KC", "JC", "JD", "8D", "7D", "8H", "9H",
                      "AH", "TH", "KH", "7H", "8C", "QD", "9S", "TS"]}
    record = deal_record("classic", deal, [
        "0 AD, 1 KD, 2 TD, 3 9D", "0 AS, 1 7S, 2 KS, 3 8S", "0 7C, 1 JS, 2 QC, 3 9C",
        "0 QS, 1 JH, 2 AC, 3 TC", "0 QH, 1 KC, 2 JC, 3 JD", "0 8D, 1 7D, 2 8H, 3 9H",
        "0 8C, 1 QD, 2 KH, 3 7H", "1 TH, 2 9S, 3 TS, 0 AH"])
    assert record["result"]["deals"][0]["points"] == [113, 7]
    rows_by_hand(record, [
        ("0 play 8C", {"0 play 8C": 107, "0 play AH": 107}),
        ("1 play QD", {"1 play QD": 13}),
        ("2 play KH", {"2 play KH": 103, "2 play 9S": 107}),
        ("3 play 7H", {"3 play 7H": 7, "3 play TS": 17}),
        ("1 play TH", {"1 play TH": 7}),
        ("2 play 9S", {"2 play 9S": 113}),
        ("3 play TS", {"3 play TS": 7}),
        ("0 play AH", {"0 play AH": 113}),
    ], tmp_path)


def test_full_hand_four_players_hearts_trump_a_catch_avoided(tmp_path: Path) -> None:
    # Trump suit hearts (9H shown): trumps 7H..AH, the jacks, the queens, 7C; clubs
    # are plain without 7C JC QC. Exchange: 1 gives 9C to 3, 2 QH to 0, 3 JD to 1,
    # 0 8C to 2. Seat 0 wins tricks 1-6: TD KD 9D 8D 14, AC TC KC 9C 25,
    # QS QD JC AH 19, QH JS TH KH 19, JH 9H 7H 7S 2 (seat 3 has no trump),
    # AD 7D 8C 8S 11: team 0 holds 90. Left: 0 7C AS, 1 QC JD, 2 8H KS, 3 9S TS (30).
    # Trick 7, seat 0 leads:
    #   7C: seat 1 must follow trumps and plays JD (QC would be caught); 2 8H, 3 9S
    #       (TS is kept for its side): 2 for team 0; then AS KS TS fall to QC: 28.
    #   AS: seat 1 (no spades) ruffs with QC: KS and TS follow, 28 for team 1; JD
    #       then loses to 7C: 2. (JD on AS leaves QC to meet 7C: caught.) A tie: 92.
    # Played AS; seat 1 QC (28) not JD (-CATCH); seat 2 KS forced (92); seat 3 9S
    # (TS then falls to 7C: team 1 keeps 11 + 3 + 4 = 18) instead of TS (28): cost 10.
    # Trick 8 is forced: JD 8H TS 7C, 12 for team 0: 102 against 18.
    deal = {"hands": {"0": ["TD", "AC", "QS", "JH", "AD", "7C", "AS", "8C"],
                      "1": ["KD", "TC", "QD", "JS", "9H", "7D", "QC", "9C"],
                      "2": ["9D", "KC", "JC", "TH", "7H", "8H", "KS", "QH"],
                      "3": ["8D", "AH", "KH", "7S", "8S", "9S", "TS", "JD"]},
            "stock": [], "trump_card": "9H"}
    record = deal_record("full-hand", deal, [
        "1 give 9C, 2 give QH, 3 give JD, 0 give 8C",
        "0 TD, 1 KD, 2 9D, 3 8D", "0 AC, 1 TC, 2 KC, 3 9C", "0 QS, 1 QD, 2 JC, 3 AH",
        "0 QH, 1 JS, 2 TH, 3 KH", "0 JH, 1 9H, 2 7H, 3 7S", "0 AD, 1 7D, 2 8C, 3 8S",
        "0 AS, 1 QC, 2 KS, 3 9S", "1 JD, 2 8H, 3 TS, 0 7C"])
    assert record["result"]["deals"][0]["points"] == [102, 18]
    assert len(analyze_record(record, 1).skipped) == 4     # the exchange
    rows_by_hand(record, [
        ("0 play AS", {"0 play AS": 92, "0 play 7C": 92}),
        ("1 play QC", {"1 play QC": 28, "1 play JD": -CATCH}),
        ("2 play KS", {"2 play KS": 92}),
        ("3 play 9S", {"3 play 9S": 18, "3 play TS": 28}),
        ("1 play JD", {"1 play JD": 18}),
        ("2 play 8H", {"2 play 8H": 102}),
        ("3 play TS", {"3 play TS": 18}),
        ("0 play 7C", {"0 play 7C": 102}),
    ], tmp_path)


def test_full_hand_three_players_each_against_the_others(tmp_path: Path) -> None:
    # 24 cards (9 to A), spades trump (9S shown): 9S KS TS AS, the jacks, the queens.
    # Seat 0 wins tricks 1-6: AD KD TD 25, QC QS QH 9, QD JS JH 7, JC AS TS 23,
    # KS 9S 9C 4 (seat 2 has no trump), 9D KH TC 14 (1 and 2 have no diamond):
    # seat 0 holds 82. Left: 0 AH KC, 1 TH JD, 2 9H AC (38). Each value is the acting
    # seat's points with both others playing against it.
    # Trick 7, seat 0 leads:
    #   AH: TH and 9H must follow: 21; then KC, JD (ruffs), AC: 17 to seat 1. 82 + 21.
    #   KC: seat 1 (no club) plays TH, seat 2 must follow with AC and wins 25; then
    #       9H, AH, JD: JD ruffs. Seat 0 gets nothing: 82.
    # Played KC: cost 21. Seat 1, for itself: JD ruffs KC and AC (17), then TH is led
    # into AH: 17; TH lets AC win, then JD ruffs 9H and AH: 13. Played TH: cost 4.
    # Seat 2's AC is forced (25); trick 8 is forced: 9H AH JD, 13 for seat 1.
    deal = {"hands": {"0": ["AD", "QC", "QD", "JC", "KS", "9D", "AH", "KC"],
                      "1": ["KD", "QS", "JS", "AS", "9S", "KH", "TH", "JD"],
                      "2": ["TD", "QH", "JH", "TS", "9C", "TC", "9H", "AC"]},
            "stock": [], "trump_card": "9S"}
    record = deal_record("full-hand", deal, [
        "0 AD, 1 KD, 2 TD", "0 QC, 1 QS, 2 QH", "0 QD, 1 JS, 2 JH", "0 JC, 1 AS, 2 TS",
        "0 KS, 1 9S, 2 9C", "0 9D, 1 KH, 2 TC", "0 KC, 1 TH, 2 AC", "2 9H, 0 AH, 1 JD"], players=3)
    assert record["result"]["deals"][0]["points"] == [82, 13, 25]
    rows_by_hand(record, [
        ("0 play KC", {"0 play KC": 82, "0 play AH": 103}),
        ("1 play TH", {"1 play TH": 13, "1 play JD": 17}),
        ("2 play AC", {"2 play AC": 25}),
        ("2 play 9H", {"2 play 9H": 25}),
        ("0 play AH", {"0 play AH": 82}),
        ("1 play JD", {"1 play JD": 13}),
    ], tmp_path)


def test_full_hand_two_players_a_stock_then_three_tricks_with_the_shamok(tmp_path: Path) -> None:
    # Clubs trump (9C shown: the classic order). Seat 0 wins tricks 1-8 and draws first
    # from the stock after each: AD TD 21, AS TS 21, KH 9H 4, QS AC 14, QH TC 13,
    # KS 8S 4, QD KC 7, JC 9C 2, JS JH 4, KD 9D 4, 8H 7H 0; seat 1 ruffs 7S with 8C
    # (0) and leads 7D to 8D (0). Seat 0 holds 94, seat 1 0.
    # Left: 0 7C AH 9S, 1 QC JD TH (26 points). Seat 0 leads trick 14:
    #   7C: seat 1 follows with JD (QC would be caught): 2; AH then takes TH (21),
    #       9S loses to QC: seat 0 23 (after 7C, leading 9S instead gets TH thrown on
    #       it and AH ruffed by QC: 12).
    #   AH: TH must follow: 21; 7C then takes JD (2), or 9S is ruffed by QC and JD is
    #       led into 7C (2): 23. A tie with 7C.
    #   9S: seat 1 throws TH on it (10 for seat 0), and whatever seat 0 leads next,
    #       QC takes AH and JD falls to 7C: 12. (QC on 9S gives seat 0 23; JD on it
    #       leaves QC to meet 7C: caught.)
    # Played 9S: 94 + 12 = 106, not 117: cost 11. Seat 1's values are 26 minus seat 0's
    # share: QC 3, TH 14, JD -CATCH; played QC: cost 11. It then leads JD (7C takes it,
    # AH takes TH) or TH (AH takes it, 7C takes JD): 3 both. 117 against 3.
    deal = {"hands": {"0": ["AD", "AS", "KH", "QS", "QH", "KS", "QD", "JC"],
                      "1": ["TD", "TS", "9H", "AC", "TC", "8S", "KC", "9C"]},
            "stock": ["JS", "JH", "KD", "9D", "8H", "7H", "7S", "8C",
                      "8D", "7D", "7C", "QC", "AH", "JD", "9S", "TH"], "trump_card": "9C"}
    record = deal_record("full-hand", deal, [
        "0 AD, 1 TD", "0 AS, 1 TS", "0 KH, 1 9H", "0 QS, 1 AC", "0 QH, 1 TC", "0 KS, 1 8S",
        "0 QD, 1 KC", "0 JC, 1 9C", "0 JS, 1 JH", "0 KD, 1 9D", "0 8H, 1 7H", "0 7S, 1 8C",
        "1 7D, 0 8D", "0 9S, 1 QC", "1 TH, 0 AH", "0 7C, 1 JD"], players=2)
    assert record["result"]["deals"][0]["points"] == [117, 3]
    rows_by_hand(record, [
        ("0 play 9S", {"0 play 9S": 106, "0 play 7C": 117, "0 play AH": 117}),
        ("1 play QC", {"1 play QC": 3, "1 play JD": -CATCH, "1 play TH": 14}),
        ("1 play TH", {"1 play TH": 3, "1 play JD": 3}),
        ("0 play AH", {"0 play AH": 117}),
        ("0 play 7C", {"0 play 7C": 117}),
        ("1 play JD", {"1 play JD": 3}),
    ], tmp_path)


@pytest.mark.parametrize(("preset", "players", "seed"), [("classic", 4, 1), ("classic", 4, 6), ("full-hand", 4, 2),
                                                         ("full-hand-24", 4, 3), ("full-hand", 3, 5),
                                                         ("full-hand", 2, 8)])
def test_the_last_rows_of_random_deals_agree_with_brute_force(preset: str, players: int, seed: int) -> None:
    """The rows of the last three tricks of a random deal: each legal action's
    value, for the acting seat's side, is what a plain minimax over the engine
    gives from that position (no solver knowledge: the brute force of
    tests/fast/test_solver.py), so the analysis pins each value on the right
    action and the right side."""
    import random

    from goat.games import get_game
    from goat.protocol import play_randomly
    from tests.fast.test_solver import reference

    state = new_state(preset, players=players, single_deal=True)
    play_randomly(state, random.Random(seed))
    record = record_from_state(state)
    analysis = analyze_record(record, 1)
    assert analysis.result is not None
    rows = {m.index: m for m in analysis.moves}
    replayed = new_state(preset, players=players, single_deal=True)
    replayed.apply_chance(get_game("kozel").chance_from_json(replayed, record["deals"][0]))
    checked = 0
    for index, text in enumerate(record["deals"][0]["actions"]):
        if index in rows and not replayed.stock and max(map(len, replayed.hands)) <= 3:
            row = rows[index]
            checked += 1
            expected = {}
            for action in replayed.legal_actions():
                child = replayed.clone()
                child.apply_action(action)
                expected[str(action)] = reference(child, row.side, 0)
            assert {str(a): v for a, v in row.values.items()} == expected, text
        replayed.apply_action(Action.parse(text))
    assert checked >= 2 * players, checked   # the deal reached its last tricks
