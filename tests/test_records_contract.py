"""Clauses of the records contract (``shared/spec/records.md``) that no other test
checked, each test named after its clause; ``docs/records-coverage.md`` maps every
clause to its tests, these and the others (``tests/test_records.py``,
``tests/test_cli_replay.py``, ...).

The contract's own examples are checked literally: its two ``result`` objects are
the results of golden records (``good/contract-*-result-example.json``), and its
example problem line is what ``goat replay --check`` prints for
``bad/contract-example-line.json``.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.games import get_game
from goat.games.kozel.phases import ENDED_BY
from goat.protocol import Action, play_randomly
from goat.records import check_result, record_from_state, replay

DATA = Path(__file__).parent / "data" / "records"
GOOD = sorted((DATA / "good").glob("*.json"))
runner = CliRunner(env={"FORCE_COLOR": None})

#: The contract's Kozel ``result`` example, as it is written there.
KOZEL_RESULT_EXAMPLE = {
    "deals": [
        {"points": [67, 53], "tricks": [5, 3], "penalty": [0, 2],
         "ended_by": "cards-exhausted", "winner_team": 0}
    ],
    "penalty_total": [0, 2],
    "match_over": False,
    "loser_team": None,
}
#: The contract's Spades ``result`` example, as it is written there.
SPADES_RESULT_EXAMPLE = {
    "deals": [
        {"bids": ["3", "nil", "4", "2"], "tricks": [3, 1, 5, 4],
         "score": [71, -77], "bags": [1, 3]}
    ],
    "score_total": [71, -77],
    "bags_total": [1, 3],
    "match_over": False,
    "winner_team": None,
}
#: The contract's example problem line.
EXAMPLE_LINE = 'deal 1, action 5 "2 play 8S": seat 2 must follow hearts (holds 9H)'
#: The contract's ``ended_by`` values.
CONTRACT_ENDED_BY = ("cards-exhausted", "shamok-caught-queen", "royal-goat", "annulled", "unfinished")
#: The contract's action examples, one or more per verb.
VERB_EXAMPLES = ["0 play 9H", "1 play KH+AH", "2 pass 6C+7D", "3 molodka 6S+9S+KS+AS", "0 give QD",
                 "1 bid 4", "1 bid nil", "1 bid blind-nil", "1 bid double-nil"]


def load(name: str) -> dict[str, Any]:
    return json.loads((DATA / "good" / name).read_text(encoding="utf-8"))


def check(record: dict[str, Any]) -> dict[str, Any]:
    """Replay and check ``record`` as ``--check`` does; the replayed result."""
    outcome = replay(record)
    check_result(record, outcome)
    return outcome.result


def cli(*args: str, input: str | None = None):
    return runner.invoke(app, ["replay", *args], input=input)


# ============================================================= the examples
@pytest.mark.parametrize("name, example", [
    ("contract-kozel-result-example.json", KOZEL_RESULT_EXAMPLE),
    ("contract-spades-result-example.json", SPADES_RESULT_EXAMPLE),
])
def test_contract_result_example_is_what_a_replay_writes(name: str, example: dict[str, Any]) -> None:
    record = load(name)
    assert record["result"] == example
    assert check(record) == example
    result = cli(str(DATA / "good" / name), "--json")
    assert result.exit_code == 0 and json.loads(result.stdout) == example


def test_contract_example_problem_line_is_what_check_prints() -> None:
    result = cli(str(DATA / "bad" / "contract-example-line.json"), "--check")
    assert result.exit_code == 1
    assert result.stderr == EXAMPLE_LINE + "\n"


def test_contract_verb_examples_parse_and_write_back_as_written() -> None:
    for text in VERB_EXAMPLES:
        assert str(Action.parse(text)) == text


# ================================================================ fields
def test_players_may_be_omitted_for_the_presets_number() -> None:
    record = load("classic-full-deal.json")
    del record["players"]
    check(record)
    assert replay(record).state.num_players == 4


def test_options_may_be_omitted_for_the_preset_as_it_is() -> None:
    record = load("classic-full-deal.json")
    for absent in ({"options": None}, {}):
        changed = {k: v for k, v in record.items() if k != "options"} | absent
        assert check(changed) == record["result"]


def test_the_implementation_accepts_more_fields_than_the_contract() -> None:
    """"The implementation may accept more (e.g. comments), never less": a comment
    on the record, on a deal and in the stored result changes nothing."""
    record = load("street-molodka.json")
    record["comment"] = "seat 0's molodka"
    record["deals"][0]["comment"] = "hearts are trumps"
    record["result"]["comment"] = "worked out by hand"
    assert check(record) == {k: v for k, v in record["result"].items() if k != "comment"}


def test_result_is_ignored_on_input() -> None:
    """A stored result of any shape changes nothing without ``--check``."""
    record = load("classic-full-deal.json")
    expected = record["result"]
    for stored in ("12-0", [1, 2], {"deals": "none"}, None):
        record["result"] = stored
        assert replay(copy.deepcopy(record)).result == expected
        result = cli("-", "--json", input=json.dumps(record))
        assert result.exit_code == 0 and json.loads(result.stdout) == expected


def test_jsonl_file_holds_one_record_per_line(tmp_path: Path) -> None:
    """A ``.jsonl`` file is read line by line: one record spread over lines is refused there."""
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(load("classic-full-deal.json"), indent=2), encoding="utf-8")
    result = cli(str(path), "--check")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{path} line 1: not valid JSON")


@pytest.mark.parametrize("text, reason", [
    ("[" * 100_000 + "]" * 100_000, "not a record: JSON nested too deeply"),
    ('{"game": "kozel", "players": ' + "9" * 5000 + "}", "not a record: Exceeds the limit (4300 digits)"),
])
@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_json_python_cannot_load_is_refused_in_one_line_with_status_2(text: str, reason: str, suffix: str,
                                                                      tmp_path: Path) -> None:
    """Valid JSON too deep or with too long a number for Python's parser was a
    traceback with exit status 1; the contract wants one line and status 2."""
    path = tmp_path / f"odd{suffix}"
    path.write_text(text, encoding="utf-8")
    result = cli(str(path), "--check")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(str(path) + (" line 1" if suffix == ".jsonl" else "") + ": " + reason)


# ================================================================= deals
def test_stock_is_top_first_in_the_order_cards_are_drawn() -> None:
    """After classic's first trick the winner draws the stock's first card, then
    each seat clockwise the next one."""
    record = load("classic-full-deal.json")
    deal = record["deals"][0]
    deal["actions"] = deal["actions"][:4]
    outcome = replay(record)
    winner = outcome.deals[0].tricks[0].winner
    assert winner is not None
    state = outcome.state
    for k in range(4):
        seat = (winner + k) % 4
        assert str(state.hands[seat][-1]) == deal["stock"][k], seat


def test_trump_card_is_one_card_string() -> None:
    """A ``trump_card`` that is not a string is named as one card (it was "must be
    a list of card strings", the message of a hand)."""
    for value in (7, ["JS"]):
        record = load("full-hand-shamok.json")
        record["deals"][0]["trump_card"] = value
        result = cli("-", "--check", input=json.dumps(record))
        assert result.exit_code == 2
        assert result.stderr == 'deal 1: trump_card must be a card string such as "AH"\n'


def test_trump_card_only_where_the_ruleset_shows_one() -> None:
    """Spades never shows a card to fix trumps: a Spades deal naming one is refused
    as Kozel classic's is (Spades accepted and ignored it)."""
    for name, line in [("spades-standard-full-deal.json", "standard has the fixed trump suit S"),
                       ("classic-full-deal.json", "classic has the fixed trump suit C")]:
        record = load(name)
        record["deals"][0]["trump_card"] = "AS"
        result = cli("-", "--check", input=json.dumps(record))
        assert result.exit_code == 2, name
        assert result.stderr == f"deal 1: {line}: no trump_card is shown\n"


# ================================================================ result
def test_result_fields_are_the_contracts() -> None:
    """Every golden record's replayed result has exactly the contract's fields
    (``--check`` compares every replayed field, so one more would fail every
    record written by hand from the contract)."""
    for path in GOOD:
        record = json.loads(path.read_text(encoding="utf-8"))
        result = replay(record).result
        example = KOZEL_RESULT_EXAMPLE if record["game"] == "kozel" else SPADES_RESULT_EXAMPLE
        assert result.keys() == example.keys(), path.name
        for deal in result["deals"]:
            assert deal.keys() == example["deals"][0].keys(), path.name


def test_ended_by_is_one_of_the_contracts_values() -> None:
    assert ENDED_BY == CONTRACT_ENDED_BY
    seen = {deal["ended_by"] for path in GOOD for deal in json.loads(path.read_text()).get("result", {})
            .get("deals", []) if "ended_by" in deal}
    assert seen == set(CONTRACT_ENDED_BY)  # the golden records show every one


def test_result_teams_are_seats_0_2_and_1_3() -> None:
    outcome = replay(load("classic-full-deal.json"))
    winners = [trick.winner for trick in outcome.deals[0].tricks]
    assert outcome.result["deals"][0]["tricks"] == [sum(1 for w in winners if w is not None and w % 2 == team)
                                                    for team in (0, 1)]


def test_result_arrays_are_per_seat_in_individual_play() -> None:
    state = get_game("kozel").new_state("full-hand", players=3, first_dealer=0)
    play_randomly(state, random.Random(2))
    result = check(record_from_state(state))
    assert len(result["penalty_total"]) == 3
    assert all(len(deal[key]) == 3 for deal in result["deals"] for key in ("points", "tricks", "penalty"))


def test_spades_result_bids_are_as_written_in_the_actions() -> None:
    for path in GOOD:
        record = json.loads(path.read_text(encoding="utf-8"))
        if record["game"] != "spades":
            continue
        for deal, result in zip(record["deals"], record["result"]["deals"]):
            written = {int(a.split()[0]): a.split()[2] for a in deal["actions"] if a.split()[1] == "bid"}
            if "redeal" in written.values():
                continue  # a weak hand shown: not a bid (spades' weak_hand_redeal option)
            assert result["bids"] == [written[seat] for seat in range(4)], path.name
        assert replay(record).result["deals"] == record["result"]["deals"]
