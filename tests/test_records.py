"""Records: reading, replaying, checking and writing (shared/spec/records.md).

The golden records under tests/data/records/good were worked out by hand from
shared/rules/kozel.md and spades.md (each file's "comment" gives the arithmetic); the bad ones
under tests/data/records/bad carry an "expect" field with the exit status and
the exact problem line. Further mutations are made here from the good ones.
"""

from __future__ import annotations

import copy
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from goat.games import get_game
from goat.games.kozel import new_state
from goat.protocol import GoatError, play_random_steps, play_randomly
from goat.records import (
    IllegalRecordError,
    MalformedRecordError,
    RecordFile,
    RecordProblem,
    ResultMismatchError,
    check_result,
    dumps_record,
    iter_records,
    parse_records,
    read_records,
    record_from_state,
    replay,
    write_records,
)

DATA = Path(__file__).parent / "data" / "records"
GOOD = sorted((DATA / "good").glob("*.json"))
BAD = sorted(p for p in (DATA / "bad").glob("*.json") if p.name != "malformed-not-json.json")


def load(name: str) -> dict[str, Any]:
    return json.loads((DATA / "good" / name).read_text())


def problem_of(record: Any, check: bool = True) -> RecordProblem:
    """The problem replaying (and checking) ``record`` raises."""
    with pytest.raises(RecordProblem) as info:
        outcome = replay(record)
        if check:
            check_result(record, outcome)
    return info.value


# ============================================================ golden records
@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_golden_record_replays_to_its_hand_worked_result(path: Path) -> None:
    record = json.loads(path.read_text())
    outcome = replay(record)
    check_result(record, outcome)  # raises on the first differing field
    assert outcome.result == {k: record["result"][k] for k in outcome.result}


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_golden_record_rewritten_from_its_replay_keeps_the_play(path: Path) -> None:
    record = json.loads(path.read_text())
    rewritten = record_from_state(replay(record).state)
    for key in ("game", "rules", "players", "first_dealer", "deals", "result"):
        assert rewritten[key] == record[key], key
    assert rewritten["options"] == record.get("options", {})


def test_golden_records_cover_every_ruleset() -> None:
    records = [json.loads(p.read_text()) for p in GOOD]
    assert {r["rules"] for r in records if r["game"] == "kozel"} == {"classic", "full-hand", "full-hand-24", "street"}
    assert {r["rules"] for r in records if r["game"] == "spades"} == {"standard", "joker-trumps"}


def test_golden_street_record_counts_tricks_through_a_molodka() -> None:
    outcome = replay(load("street-molodka.json"))
    first = outcome.deals[0].tricks[0]
    # the 6S lead and the 6C pass were taken back by the molodka; the trick ends with seat 0's beat
    assert first.plays[:3] == ["1 play 6S", "2 pass 6C", "3 molodka 6H+7H+8H+9H"]
    assert [t.winner for t in outcome.deals[0].tricks] == [0, 0, 1]


def test_golden_classic_report_shows_trick_winners_and_the_cut_short_trick() -> None:
    outcome = replay(load("classic-shamok-match.json"))
    deal2 = outcome.deals[1]
    assert [t.winner for t in deal2.tricks] == [2, None]
    assert deal2.tricks[1].plays == ["2 play 8H", "3 play 7C", "0 play QC"]
    assert [d.dealer for d in outcome.deals] == [0, 1, 2]


def test_forced_and_partner_exchanges_are_reported_apart_from_tricks() -> None:
    outcome = replay(load("full-hand-24-annulled-royal-goat.json"))
    assert outcome.deals[0].other_actions == ["0 give JC", "1 give 9H", "2 give QS", "3 give TH",
                                              "3 give 9H", "1 give 9D"]
    assert [t.winner for t in outcome.deals[0].tricks] == [0, 3, 0, 3, 2, 3]
    assert outcome.deals[1].tricks == []  # royal goat: no card played


# ============================================================== bad records
@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_record_is_refused_with_its_status_and_line(path: Path) -> None:
    record = json.loads(path.read_text())
    expect = record["expect"]
    problem = problem_of(record, check=expect["check"])
    assert problem.exit_status == expect["status"]
    if "line" in expect:
        assert str(problem) == expect["line"]
    else:
        assert expect["contains"] in str(problem)
    assert "\n" not in str(problem)


def test_wrong_stored_result_passes_without_check() -> None:
    record = json.loads((DATA / "bad" / "illegal-wrong-result.json").read_text())
    replay(record)  # legal play: only the stored result is wrong


def test_not_json_is_malformed() -> None:
    with pytest.raises(MalformedRecordError) as info:
        read_records(DATA / "bad" / "malformed-not-json.json")
    assert info.value.exit_status == 2
    assert "malformed-not-json.json: not valid JSON: Expecting ',' delimiter (line 3" in str(info.value)


def mutate(name: str, change) -> dict[str, Any]:
    record = copy.deepcopy(load(name))
    change(record)
    return record


MALFORMED = {
    "not an object": ([1, 2], "a record must be a JSON object, not a list"),
    "no deals": (mutate("classic-full-deal.json", lambda r: r.pop("deals")), 'the record has no "deals" field'),
    "no game": (mutate("classic-full-deal.json", lambda r: r.pop("game")), 'the record has no "game" field'),
    "unknown game": (mutate("classic-full-deal.json", lambda r: r.update(game="chess")), "unknown game 'chess'"),
    "unknown ruleset": (mutate("classic-full-deal.json", lambda r: r.update(rules="klassik")),
                        "unknown Kozel ruleset 'klassik'"),
    "bad option value": (mutate("classic-full-deal.json", lambda r: r.update(options={"eggs": "many"})),
                         "option eggs='many' is not allowed"),
    "options not an object": (mutate("classic-full-deal.json", lambda r: r.update(options=["eggs"])),
                              '"options" must be an object, not a list'),
    **{f"options {json.dumps(value)}": (mutate("classic-full-deal.json", lambda r, v=value: r.update(options=v)),
                                        f'"options" must be an object, not {kind}')
       for value, kind in (([], "a list"), (0, "a number"), (False, "true/false"), ("", "a string"))},
    "players for classic": (mutate("classic-full-deal.json", lambda r: r.update(players=3)),
                            "players=3 is not allowed for classic"),
    "players not a number": (mutate("classic-full-deal.json", lambda r: r.update(players="4")),
                             '"players" must be a whole number, not "4"'),
    "first dealer out of range": (mutate("classic-full-deal.json", lambda r: r.update(first_dealer=4)),
                                  "first_dealer must be a seat 0..3, not 4"),
    "first dealer true": (mutate("classic-full-deal.json", lambda r: r.update(first_dealer=True)),
                          '"first_dealer" must be a seat number, not true'),
    "deal not an object": (mutate("classic-full-deal.json", lambda r: r["deals"].append("deal 2")),
                           "deal 2: a deal must be a JSON object, not a string"),
    "no actions": (mutate("classic-full-deal.json", lambda r: r["deals"][0].pop("actions")),
                   'deal 1: the deal has no "actions" list'),
    "action not a string": (mutate("classic-full-deal.json", lambda r: r["deals"][0]["actions"].__setitem__(3, 7)),
                            "deal 1, action 3: an action must be a string, not 7"),
    "seat missing": (mutate("classic-full-deal.json", lambda r: r["deals"][0]["hands"].pop("3")),
                     'deal 1: "hands" must name seats 0, 1, 2, 3'),
    "card syntax in a hand": (mutate("classic-full-deal.json",
                                     lambda r: r["deals"][0]["hands"]["0"].__setitem__(0, "1D")),
                              "deal 1: seat 0's hand: not a card: '1D'"),
    "stock too short": (mutate("classic-full-deal.json", lambda r: r["deals"][0]["stock"].pop()),
                        "deal 1: the stock holds 15 cards; classic leaves 16 (missing QS)"),
    "trump card in classic": (mutate("classic-full-deal.json", lambda r: r["deals"][0].update(trump_card="7D")),
                              "deal 1: classic has the fixed trump suit C: no trump_card is shown"),
    "street trump card not in the stock": (mutate("street-molodka.json",
                                                  lambda r: r["deals"][0].update(trump_card="6D")),
                                           "deal 1: trump_card 6D must lie in the stock"),
    **{f"street trump card {end} of the stock": (
        mutate("street-molodka.json", lambda r, i=i: r["deals"][0].update(trump_card=r["deals"][0]["stock"][i])),
        f"deal 1: trump_card {load('street-molodka.json')['deals'][0]['stock'][i]} must lie in the middle "
        f"of the stock, not its {end} card")
       for end, i in (("first", 0), ("last", -1))},
    "full-hand without trump card": (mutate("full-hand-shamok.json", lambda r: r["deals"][0].pop("trump_card")),
                                     'deal 1: full-hand shows a trump card: the deal needs "trump_card"'),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_malformed_record_exits_2_with_one_line(name: str) -> None:
    record, expected = MALFORMED[name]
    problem = problem_of(record)
    assert isinstance(problem, MalformedRecordError)
    assert problem.exit_status == 2
    assert str(problem).startswith(expected)
    assert "\n" not in str(problem)


def test_a_malformed_later_deal_wins_over_an_earlier_illegal_action() -> None:
    def change(r: dict[str, Any]) -> None:
        r["deals"][0]["actions"][1] = "1 play 7C"  # illegal: seat 1 holds no 7C yet
        r["deals"][2]["hands"]["0"][0] = "6H"        # malformed: no 6H in classic
    problem = problem_of(mutate("classic-shamok-match.json", change))
    assert problem.exit_status == 2
    assert str(problem).startswith("deal 3: card 6H in seat 0's hand is not in the 32-card deck")


ILLEGAL = {
    "card not held": (mutate("classic-full-deal.json", lambda r: r["deals"][0]["actions"].__setitem__(1, "1 play 7C")),
                      'deal 1, action 1 "1 play 7C": seat 1 does not hold 7C'),
    "give outside a forced exchange": (
        mutate("classic-full-deal.json", lambda r: r["deals"][0]["actions"].__setitem__(0, "0 give 7D")),
        'deal 1, action 0 "0 give 7D": seat 0 may give a card only in a forced exchange'),
    "broken action text": (mutate("classic-full-deal.json",
                                  lambda r: r["deals"][0]["actions"].__setitem__(4, "1 plya TH")),
                           'deal 1, action 4 "1 plya TH": not an action (unknown verb \'plya\''),
    "card outside the deck in an action": (
        mutate("classic-full-deal.json", lambda r: r["deals"][0]["actions"].__setitem__(0, "0 play 6D")),
        'deal 1, action 0 "0 play 6D": seat 0 does not hold 6D'),
    "action after the shamok ended the deal": (
        mutate("classic-shamok-match.json", lambda r: r["deals"][0]["actions"].append("3 play KH")),
        'deal 1, action 3 "3 play KH": the deal is already over (shamok-caught-queen)'),
    "action after the match is over": (
        mutate("classic-shamok-match.json", lambda r: r["deals"][2]["actions"].append("1 play KH")),
        'deal 3, action 3 "1 play KH": the match is already over'),
    "unfinished deal followed by another": (
        mutate("classic-shamok-match.json", lambda r: r["deals"][0]["actions"].pop()),
        "deal 2: deal 1 is unfinished (seat 2 to act) but another deal follows"),
    "second molodka in a trick": (
        mutate("street-molodka.json",
               lambda r: r["deals"][0]["actions"].__setitem__(4, "1 molodka 6S+7S+8S+9S")),
        'deal 1, action 4 "1 molodka 6S+7S+8S+9S": seat 1 cannot declare molodka: this trick already had one'),
    "street set that does not beat": (
        mutate("street-molodka.json", lambda r: r["deals"][0]["actions"].__setitem__(12, "2 play AH")),
        'deal 1, action 12 "2 play AH": seat 2\'s AH do not beat AD card for card'),
    "street pass with too few cards": (
        mutate("street-molodka.json", lambda r: r["deals"][0]["actions"].__setitem__(7, "1 pass JS+QS")),
        'deal 1, action 7 "1 pass JS+QS": seat 1 must pass with exactly 4 cards, not 2'),
    "forced exchange skipped": (
        mutate("full-hand-24-annulled-royal-goat.json",
               lambda r: r["deals"][0]["actions"].__setitem__(4, "3 play JD")),
        'deal 1, action 4 "3 play JD": seat 3 may not lead a trump (the opening lead of a deal must be a plain '
        'card) and holds only trumps'),
    "forced exchange returns a trump": (
        mutate("full-hand-24-annulled-royal-goat.json",
               lambda r: r["deals"][0]["actions"].__setitem__(5, "1 give KH")),
        'deal 1, action 5 "1 give KH": seat 1 must give back a plain card, not the trump KH'),
    "must follow trumps": (
        mutate("full-hand-24-annulled-royal-goat.json",
               lambda r: r["deals"][0]["actions"].__setitem__(15, "0 play 9S")),
        'deal 1, action 15 "0 play 9S": seat 0 must follow trumps (holds QS)'),
    "partner exchange out of turn": (
        mutate("full-hand-shamok.json", lambda r: r["deals"][0]["actions"].__setitem__(0, "2 give 8C")),
        'deal 1, action 0 "2 give 8C": it is seat 1\'s turn, not seat 2\'s'),
    "deal after a royal goat": (
        mutate("full-hand-3p-royal-goat.json", lambda r: r["deals"].append(copy.deepcopy(r["deals"][0]))),
        "deal 2: the match is already over after deal 1"),
    "action text with a newline stays on one line": (
        mutate("classic-full-deal.json", lambda r: r["deals"][0]["actions"].__setitem__(0, "0\nplay\n7D\nextra")),
        'deal 1, action 0 "0\\nplay\\n7D\\nextra": not an action (expected "<seat> <verb> <cards>", several '
        'cards joined by "+" (e.g. "1 play KH+AH"), no spaces inside a part)'),
    "action text with a quote": (
        mutate("classic-full-deal.json", lambda r: r["deals"][0]["actions"].__setitem__(0, '0 play "7D"')),
        'deal 1, action 0 "0 play \\"7D\\"": not an action (not a card: \'"7D"\''),
}


@pytest.mark.parametrize("name", ILLEGAL)
def test_illegal_record_exits_1_naming_deal_action_and_reason(name: str) -> None:
    record, expected = ILLEGAL[name]
    problem = problem_of(record)
    assert isinstance(problem, IllegalRecordError)
    assert problem.exit_status == 1
    assert str(problem).startswith(expected)
    assert "\n" not in str(problem)
    assert problem.outcome is not None  # the play up to the problem, for the report


def test_illegal_action_leaves_the_replay_up_to_it_in_the_outcome() -> None:
    record, _ = ILLEGAL["must follow trumps"]
    outcome = problem_of(record).outcome
    assert [t.winner for t in outcome.deals[0].tricks] == [0, 3, None]
    assert outcome.deals[0].tricks[2].plays == ["3 play QD"]


# ============================================================ result check
def result_problem(change) -> str:
    record = mutate("classic-shamok-match.json", lambda r: change(r["result"]))
    problem = problem_of(record)
    assert isinstance(problem, ResultMismatchError) and problem.exit_status == 1
    return str(problem)


def test_result_mismatch_names_the_first_differing_field() -> None:
    def change(res: dict[str, Any]) -> None:
        res["deals"][1]["tricks"] = [0, 0]
        res["penalty_total"] = [8, 0]
    assert result_problem(change) == "record result differs at deals[1].tricks: stored [0, 0], replayed [1, 0]"


def test_result_mismatch_in_match_fields() -> None:
    assert result_problem(lambda res: res.update(loser_team=1)) == \
        "record result differs at loser_team: stored 1, replayed 0"
    assert result_problem(lambda res: res.update(match_over=1)) == \
        "record result differs at match_over: stored 1, replayed true"
    assert result_problem(lambda res: res["deals"][0].pop("ended_by")) == \
        'record result differs at deals[0].ended_by: stored (missing), replayed "shamok-caught-queen"'


def test_result_mismatch_in_the_number_of_deals() -> None:
    assert result_problem(lambda res: res["deals"].pop()) == \
        "record result differs at deals: stored 2 deals, replayed 3"


def test_result_extra_stored_fields_are_ignored_and_absent_result_checks_legality_only() -> None:
    record = mutate("classic-shamok-match.json", lambda r: r["result"].update(note="hand-made"))
    check_result(record, replay(record))
    record = mutate("classic-shamok-match.json", lambda r: r.pop("result"))
    check_result(record, replay(record))


def test_result_that_is_not_an_object_is_malformed_under_check() -> None:
    record = mutate("classic-shamok-match.json", lambda r: r.update(result="12-0"))
    problem = problem_of(record)
    assert problem.exit_status == 2 and str(problem) == '"result" must be an object, not a string'


# =============================================================== reading
def test_jsonl_skips_blank_lines_and_keeps_order() -> None:
    a, b = load("classic-full-deal.json"), load("street-molodka.json")
    text = dumps_record(a) + "\n\n  \n" + dumps_record(b) + "\n"
    assert parse_records(text, jsonl=True) == [a, b]


def test_jsonl_invalid_line_is_named() -> None:
    text = dumps_record(load("classic-full-deal.json")) + "\n\n{oops\n"
    with pytest.raises(MalformedRecordError) as info:
        parse_records(text, jsonl=True, name="games.jsonl")
    assert str(info.value).startswith("games.jsonl line 3: not valid JSON")


def test_empty_jsonl_is_malformed(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n")
    with pytest.raises(MalformedRecordError, match="empty, no record in it"):
        read_records(path)


def test_missing_file_is_malformed(tmp_path: Path) -> None:
    with pytest.raises(MalformedRecordError, match="cannot read"):
        read_records(tmp_path / "nope.json")


def test_json_file_holding_several_lines_of_records_is_read_as_lines(tmp_path: Path) -> None:
    a, b = load("classic-full-deal.json"), load("street-molodka.json")
    path = tmp_path / "two.json"
    path.write_text(dumps_record(a) + "\n" + dumps_record(b) + "\n")
    assert read_records(path) == [a, b]


def test_stdin_is_read_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    a = load("classic-full-deal.json")
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(a, indent=2)))
    assert read_records("-") == [a]


def test_records_are_read_one_at_a_time(tmp_path: Path) -> None:
    """A researcher's file of millions of records was read whole into memory before
    its first record was given: now the first comes before the rest is read (here the
    rest is a bad line, met only when reached)."""
    a = load("classic-full-deal.json")
    path = tmp_path / "long.jsonl"
    path.write_text(dumps_record(a) + "\n{oops\n", encoding="utf-8")
    records = iter_records(path)
    assert next(records) == a
    with pytest.raises(MalformedRecordError, match=f"^{path} line 2: not valid JSON"):
        next(records)


def test_a_record_file_is_checked_whole_then_read_again_one_record_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What goat replay and goat standings go through: the bad line stops it before any
    record is used, and standard input (read once) gives its records as often as asked."""
    a, b = load("classic-full-deal.json"), load("street-molodka.json")
    path = tmp_path / "long.jsonl"
    path.write_text(dumps_record(a) + "\n{oops\n", encoding="utf-8")
    with pytest.raises(MalformedRecordError, match=f"^{path} line 2: not valid JSON"):
        RecordFile(path)
    stdin = io.TextIOWrapper(io.BytesIO(("\ufeff" + dumps_record(a) + "\r\n" + dumps_record(b)).encode()))
    monkeypatch.setattr("sys.stdin", stdin)
    with RecordFile("-") as records:
        assert records.count == 2 and list(records) == [a, b]
        assert list(records.numbered()) == [(1, a), (2, b)]
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(a, indent=2)))
    with RecordFile("-") as records:
        assert list(records.numbered()) == [(None, a)]


#: Pieces of text a file of records may hold, good and bad: the reading one line at a
#: time must find in them what reading the whole text finds.
PIECES = [dumps_record(load("classic-full-deal.json")), '{"game": "kozel"}', "", " ", "\x0c", "\u00a0", "\u2028",
          "{oops", "[1,", "2]", json.dumps({"game": "kozel", "deals": [1, 2]}, indent=2), "12", '"\\ud800"',
          "[" * 3000 + "]" * 3000, "9" * 5000, "}", "\ufeff"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(["\n", "\r\n", "\r", ""])), max_size=5),
       garbage=st.sampled_from([b"", b"\xff", b"\xef\xbb\xbf"]), suffix=st.sampled_from([".jsonl", ".json"]))
def test_reading_line_by_line_finds_what_reading_the_whole_text_finds(tmp_path: Path, pieces: list[tuple[str, str]],
                                                                      garbage: bytes, suffix: str) -> None:
    """The same records, or the same one-line problem, as the text read whole and
    parsed by :func:`parse_records` (as ``read_records`` did before it streamed):
    one document or JSON lines, the line a problem is on, bytes that are not UTF-8
    anywhere in the file (the problem, however early a bad line comes)."""
    data = "".join(text + end for text, end in pieces).encode("utf-8")
    data = garbage + data if garbage.startswith(b"\xef") else data + garbage
    path = tmp_path / f"records{suffix}"
    path.write_bytes(data)

    def outcome(read: Any) -> tuple[str, Any]:
        try:
            return "records", read()
        except MalformedRecordError as problem:
            return "problem", str(problem)

    def whole() -> list[Any]:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise MalformedRecordError(f"{path}: not UTF-8 text") from None
        return parse_records(text, jsonl=True if suffix == ".jsonl" else None, name=str(path))

    expected = outcome(whole)
    assert outcome(lambda: list(iter_records(path))) == expected
    assert outcome(lambda: list(RecordFile(path))) == expected


def test_problem_in_a_multi_record_file_names_the_record() -> None:
    record, expected = ILLEGAL["card not held"]
    problem = problem_of(record).in_record(2)
    assert str(problem) == "record 2: " + expected


# =========================================================== round trips
RULESETS = [("classic", None), ("full-hand", None), ("full-hand", 2), ("full-hand", 3),
            ("full-hand-24", None), ("street", None)]


def random_record(rules: str, players: int | None, seed: int, stop: int | None = None,
                  single_deal: bool = False) -> dict[str, Any]:
    """A random game (cut after ``stop`` actions when given) as a record."""
    rng = random.Random(seed)
    state = new_state(rules, players=players, first_dealer=rng.randrange(players or 4),
                      single_deal=single_deal)
    if stop is None:
        play_randomly(state, rng)
    else:
        play_random_steps(state, rng, stop)
    return record_from_state(state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 2**32 - 1),
       stop=st.one_of(st.none(), st.integers(0, 120)), single_deal=st.booleans())
def test_random_game_round_trips_through_a_record(ruleset: tuple[str, int | None], seed: int,
                                                  stop: int | None, single_deal: bool) -> None:
    rules, players = ruleset
    record = random_record(rules, players, seed, stop, single_deal)
    text = dumps_record(record)
    [read_back] = parse_records(text)
    outcome = replay(read_back)
    check_result(read_back, outcome)  # --check accepts it
    assert outcome.result == record["result"]
    assert dumps_record(record_from_state(outcome.state)) == text


def test_options_in_a_record_are_only_the_differences_from_the_preset() -> None:
    state = new_state("full-hand", players=3, options={"royal_goat": False, "eggs": "double-next"})
    play_randomly(state, random.Random(5))
    record = record_from_state(state)
    assert record["options"] == {"royal_goat": False, "eggs": "double-next"}
    assert record["players"] == 3
    outcome = replay(json.loads(dumps_record(record)))
    assert outcome.state.rules == state.rules
    check_result(record, outcome)


def test_write_records_writes_one_line_each(tmp_path: Path) -> None:
    records = [random_record("street", None, s) for s in range(3)]
    path = tmp_path / "out.jsonl"
    assert write_records(records, path) == 3
    lines = path.read_text().splitlines()
    assert len(lines) == 3
    assert read_records(path) == records


@pytest.mark.parametrize("odd", ["\u2028", "\u2029", "\x85"])
def test_a_name_holding_a_unicode_line_break_survives_a_jsonl_file(tmp_path: Path, odd: str) -> None:
    """``write_records`` writes text as it is (not ``\\u2028``), and JSON lets these
    stand raw inside a string; only ``\\n`` and ``\\r`` end a JSON line. Read with
    ``str.splitlines`` the record was cut in two: its own file "not valid JSON"."""
    records = [random_record("classic", None, s) for s in range(2)]
    records[0]["comment"] = f"club{odd}night"  # a reader ignores fields it does not know
    if odd != "\x85":  # a control character, refused in a name (test_record_seats)
        records[0]["seats"] = [{"name": f"An{odd}na"}, None, {"name": "Bot", "bot": "heuristic"}, None]
    path = tmp_path / "evening.jsonl"
    write_records(records, path)
    assert odd in path.read_text(encoding="utf-8")  # written raw, so the reader must take it so
    assert read_records(path) == records
    assert parse_records(path.read_text(encoding="utf-8"), jsonl=None) == records
    replay(read_records(path)[0])


def test_jsonl_lines_may_end_in_crlf_and_are_numbered_as_lines() -> None:
    a = load("classic-full-deal.json")
    assert parse_records(dumps_record(a) + "\r\n" + dumps_record(a) + "\r\n", jsonl=True) == [a, a]
    with pytest.raises(MalformedRecordError) as info:
        parse_records(dumps_record(a) + "\r\n\r\n{oops\r\n", jsonl=True, name="games.jsonl")
    assert str(info.value).startswith("games.jsonl line 3: not valid JSON")


HUGE = "x" * 100_000


@pytest.mark.parametrize("change, start, why", [
    (lambda r: r["deals"][0]["actions"].__setitem__(2, "1 play " + HUGE), 'deal 1, action 2 "1 play xxx',
     "xxx\": not an action (not a card: 'xxx"),
    (lambda r: r.update(rules=HUGE), "unknown Kozel ruleset 'xxx", "(one of classic, full-hand, full-hand-24, street)"),
    (lambda r: r.update(game=HUGE), "unknown game 'xxx", "(one of kozel, spades, yugioh)"),
    (lambda r: r["deals"][0]["hands"]["1"].__setitem__(0, HUGE), "deal 1: seat 1's hand: not a card: 'xxx", ""),
    (lambda r: r.update(players=HUGE), '"players" must be a whole number, not "xxx', 'xxx"'),
    (lambda r: r.update(rules="x " * 50_000), "unknown Kozel ruleset 'x x x", "full-hand-24, street)"),
])
def test_a_huge_value_gives_a_short_line_that_still_says_where_and_why(change, start: str, why: str) -> None:
    """The problem quotes the record's value, and a stray 100,000-character value
    made a 100,000-character "one line"; its middle is cut out now."""
    problem = problem_of(mutate("classic-full-deal.json", change))
    line = str(problem)
    assert len(line) <= 600 and "\n" not in line
    assert line.startswith(start) and "characters left out" in line and why in line


def test_json_lines_on_standard_input_name_their_bad_line_not_line_2() -> None:
    """Standard input (and a ``.json`` file holding lines) is tried as one document,
    then as lines; a bad fifth line was reported as the one document's error,
    "Extra data (line 2 column 1)", sending the reader to a good line."""
    good = dumps_record(load("classic-full-deal.json"))
    text = "\n".join([good] * 4 + [good[:300], good]) + "\n"
    with pytest.raises(MalformedRecordError) as info:
        parse_records(text, jsonl=None, name="<stdin>")
    assert str(info.value).startswith("<stdin> line 5: not valid JSON: ")
    # one document with something after it is still that document's error
    with pytest.raises(MalformedRecordError) as info:
        parse_records(json.dumps(load("classic-full-deal.json"), indent=2) + "\n{}\n", jsonl=None, name="r.json")
    assert str(info.value).startswith("r.json: not valid JSON: Extra data (line ")


def test_a_record_holding_a_lone_surrogate_is_not_written() -> None:
    """No UTF-8 file holds one: writing it was a UnicodeEncodeError traceback."""
    record = load("classic-full-deal.json") | {"seats": [{"name": "An\ud800na"}, None, None, None]}
    with pytest.raises(MalformedRecordError, match="0xd800 is half a character"):
        dumps_record(record)
    with pytest.raises(MalformedRecordError, match="line 1: not UTF-8 text: the escape \\\\ud800"):
        parse_records(json.dumps(record), jsonl=True, name="r.jsonl")


# ======================================================= every option, both games
def _option_value(game: Any, name: str, preset_value: Any) -> st.SearchStrategy[Any]:
    """Values an option of ``preset_value``'s kind may take (the rules refuse some
    combinations; those draws are discarded)."""
    if name in game.CHOICES:
        return st.sampled_from(game.CHOICES[name])
    if isinstance(preset_value, bool):
        return st.booleans()
    if isinstance(preset_value, int):
        return st.integers(max(0, preset_value - 2), preset_value + 3)
    return st.sampled_from([None, 1, 2, 60, -60])  # a limit that may be off (None)


@st.composite
def any_game(draw: st.DrawFn) -> tuple[Any, int, int | None]:
    """A new match of Kozel or Spades: any preset, player count and option overrides."""
    name = draw(st.sampled_from(["kozel", "spades"]))
    game = get_game(name)
    rules = draw(st.sampled_from(sorted(game.PRESETS)))
    players = draw(st.sampled_from([None, 2, 3, 4])) if name == "kozel" else None
    try:
        preset = game.make_rules(rules, players=players).options()
    except GoatError:
        assume(False)
    names = draw(st.lists(st.sampled_from(sorted(k for k in preset if k != "players")), max_size=5, unique=True))
    options = {k: draw(_option_value(game, k, preset[k])) for k in names}
    options |= {"max_deals": draw(st.integers(1, 2))} if name == "spades" else \
        {"match_target": draw(st.integers(1, 4))}  # matches short enough to play to the end
    try:
        state = game.new_state(rules, options=options, players=players, first_dealer=draw(st.integers(0, 1)))
    except GoatError:
        assume(False)
    return state, draw(st.integers(0, 2**32 - 1)), draw(st.one_of(st.none(), st.integers(0, 250)))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(any_game())
def test_any_game_with_any_options_round_trips_through_a_jsonl_line(drawn: tuple[Any, int, int | None]) -> None:
    """Write, read, replay: the same rules, every action and the result, exactly; the
    record's options are only the differences from its preset."""
    state, seed, stop = drawn
    rng = random.Random(seed)
    if stop is None:
        play_randomly(state, rng)
    else:
        play_random_steps(state, rng, stop)
    record = record_from_state(state)
    assert list(record)[:6] == ["game", "rules", "options", "players", "first_dealer", "deals"]
    [read_back] = parse_records(dumps_record(record) + "\n", jsonl=True)
    outcome = replay(read_back)
    check_result(read_back, outcome)
    assert outcome.state.rules == state.rules
    assert outcome.result == state.result() == record["result"]
    assert record_from_state(outcome.state) == record
    preset = get_game(state.game_name).make_rules(state.rules.name, players=state.num_players).options()
    assert all(preset[k] != v for k, v in record["options"].items()) and "players" not in record["options"]
