"""Club standings (:mod:`goat.standings`): who won, who lost, who was the goat.

Team Kozel, individual full-hand Kozel (the goat is the seat that reached the
target; an individual royal goat has a winner and two losers), Spades' winning
team, a Yu-Gi-Oh! winner and a drawn duel; names grouped with case and spaces
folded, shown as last spelled; bots left out or grouped per bot; the order
(wins, win rate, name) and the CSV."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import pytest

from goat.scoresheet import final_result
from goat.standings import FinishedGame, StandingsError, moment, places, seat_outcomes, standings, standings_csv

T0 = datetime(2025, 3, 1, 18, 0, tzinfo=timezone.utc)


@dataclass
class Seat:
    seat: int
    kind: str
    name: str = ""
    bot: str | None = None


def people(*names: str) -> list[Seat]:
    """Seats 0.. with these names; ``"bot:heuristic"`` is a bot's seat."""
    return [Seat(i, "bot", "", name[4:]) if name.startswith("bot:") else Seat(i, "human", name)
            for i, name in enumerate(names)]


def kozel(names: list[Seat], result: dict, minutes: int = 0) -> FinishedGame:
    """A Kozel game, its result as the engine's record holds it (made short by final_result)."""
    return FinishedGame("kozel", len(names), names, final_result("kozel", result), T0 + timedelta(minutes=minutes))


def by_name(rows: list) -> dict[str, tuple[int, int, int, int, int]]:
    return {r.name: (r.played, r.won, r.lost, r.drawn, r.goats) for r in rows}


def test_team_kozel_the_goat_side_loses_both_partners() -> None:
    game = kozel(people("Ann", "Bo", "Cy", "Di"), {"penalty_total": [4, 12], "match_over": True, "loser_team": 1})
    assert seat_outcomes("kozel", 4, game.result) == ["won", "lost", "won", "lost"]
    assert by_name(standings([game])) == {"Ann": (1, 1, 0, 0, 0), "Cy": (1, 1, 0, 0, 0),
                                          "Bo": (1, 0, 1, 0, 1), "Di": (1, 0, 1, 0, 1)}


def test_individual_kozel_the_seat_that_reached_12_is_the_goat_the_others_win() -> None:
    game = kozel(people("Ann", "Bo", "Cy"), {"penalty_total": [5, 13, 8], "match_over": True, "loser_team": 1})
    assert by_name(standings([game])) == {"Ann": (1, 1, 0, 0, 0), "Cy": (1, 1, 0, 0, 0), "Bo": (1, 0, 1, 0, 1)}
    two = kozel(people("Ann", "Bo"), {"penalty_total": [12, 3], "match_over": True, "loser_team": 0})
    assert seat_outcomes("kozel", 2, two.result) == ["lost", "won"]


def test_an_individual_royal_goat_has_one_winner_and_the_others_lose() -> None:
    result = {"penalty_total": [0, 0, 0], "match_over": True, "loser_team": None,
              "deals": [{"winner_team": 2, "ended_by": "royal-goat"}]}
    game = kozel(people("Ann", "Bo", "Cy"), result)
    assert game.result["goat"] is None and game.result["winner"] == 2
    assert by_name(standings([game])) == {"Cy": (1, 1, 0, 0, 0), "Ann": (1, 0, 1, 0, 1), "Bo": (1, 0, 1, 0, 1)}


def test_spades_the_winning_team_wins_and_no_winner_is_a_draw() -> None:
    won = FinishedGame("spades", 4, people("Ann", "Bo", "Cy", "Di"),
                       final_result("spades", {"score_total": [320, 510], "winner_team": 1}), T0)
    assert by_name(standings([won])) == {"Bo": (1, 1, 0, 0, 0), "Di": (1, 1, 0, 0, 0),
                                         "Ann": (1, 0, 1, 0, 0), "Cy": (1, 0, 1, 0, 0)}
    level = FinishedGame("spades", 4, people("Ann", "Bo", "Cy", "Di"),
                         final_result("spades", {"score_total": [500, 500], "winner_team": None}), T0)
    assert seat_outcomes("spades", 4, level.result) == ["drawn"] * 4


def test_yugioh_the_winner_and_a_drawn_match() -> None:
    won = FinishedGame("yugioh", 2, people("Yugi", "Kaiba"), final_result("yugioh", {"wins": [1, 2], "winner": 1}))
    drawn = FinishedGame("yugioh", 2, people("Yugi", "Kaiba"), final_result("yugioh", {"wins": [1, 1], "winner": None}))
    assert by_name(standings([won, drawn])) == {"Kaiba": (2, 1, 0, 1, 0), "Yugi": (2, 0, 1, 1, 0)}


def test_names_fold_case_and_spaces_and_show_the_latest_spelling() -> None:
    first = kozel(people("anna", "Bo", "Cy", "Di"), {"penalty_total": [12, 0], "match_over": True, "loser_team": 0})
    later = kozel(people("Bo", "  ANNA  ", "Di", "Cy"), {"penalty_total": [12, 0], "match_over": True,
                                                         "loser_team": 0}, minutes=30)
    latest = kozel(people("Cy", "Di", "Anna", "Bo"), {"penalty_total": [0, 12], "match_over": True,
                                                      "loser_team": 1}, minutes=60)
    rows = standings([latest, first, later])             # any order: the spelling follows finished_at
    anna = [r for r in rows if r.key == "person:anna"]
    assert len(anna) == 1 and anna[0].name == "Anna" and (anna[0].played, anna[0].won, anna[0].lost) == (3, 2, 1)
    spaced = kozel(people("Anna  K", "Bo", " anna k", "Di"), {"penalty_total": [0, 12], "match_over": True,
                                                               "loser_team": 1}, minutes=90)
    assert by_name(standings([spaced]))["Anna K"] == (1, 1, 0, 0, 0)   # two partnered seats, one name: one match


def test_a_name_typed_in_another_unicode_form_is_the_same_name() -> None:
    """"Алёна" typed with one "ё" and with "е" plus a combining diaeresis (as
    some phones send it) looked alike and were two people; "Алена" without
    the diaeresis stays another name (a spelling only its owner can choose)."""
    composed, decomposed = "Алёна", "Але\u0308на"
    assert composed != decomposed
    first = kozel(people(composed, "Bo", "Cy", "Di"), {"penalty_total": [0, 12], "match_over": True, "loser_team": 1})
    later = kozel(people("Bo", decomposed, "Di", "Cy"), {"penalty_total": [0, 12], "match_over": True,
                                                         "loser_team": 1}, minutes=30)
    plain = kozel(people("Алена", "Bo", "Cy", "Di"), {"penalty_total": [0, 12], "match_over": True,
                                                      "loser_team": 1}, minutes=60)
    rows = standings([first, later, plain])
    folded = [r for r in rows if r.name in (composed, decomposed)]
    assert len(folded) == 1 and (folded[0].played, folded[0].won, folded[0].lost) == (2, 1, 1)
    assert by_name(rows)["Алена"][:3] == (1, 1, 0)


def test_a_long_name_counts_as_the_server_keeps_it() -> None:
    """The server keeps a name's first 24 characters, and ``goat play --name``
    wrote up to 200 into its record: one person typing one long name in both
    places was two rows. A record's name is folded as the server stores it."""
    whole = "Konstantin  Alexandrovich Petrov-Vodkin"
    kept = " ".join(whole.split())[:24]               # what the table server held
    at_the_server = kozel(people(kept, "Bo", "Cy", "Di"), {"penalty_total": [0, 12], "match_over": True,
                                                           "loser_team": 1})
    in_a_terminal = kozel(people("Bo", whole, "Di", "Cy"), {"penalty_total": [0, 12], "match_over": True,
                                                            "loser_team": 1}, minutes=30)
    rows = [r for r in standings([at_the_server, in_a_terminal]) if r.name.startswith("Konstantin")]
    assert len(rows) == 1 and rows[0].name == kept and (rows[0].played, rows[0].won, rows[0].lost) == (2, 1, 1)
    cut_at_a_space = kozel(people("x" * 23 + " yz", "Bo", "Cy", "Di"), {"penalty_total": [0, 12],
                                                                       "match_over": True, "loser_team": 1})
    assert by_name(standings([cut_at_a_space]))["x" * 23][:2] == (1, 1)   # no space left at the end


def test_bots_are_left_out_unless_asked_for_then_grouped_per_bot() -> None:
    seats = people("Ann", "bot:heuristic", "bot:random", "bot:heuristic")
    game = kozel(seats, {"penalty_total": [12, 4], "match_over": True, "loser_team": 0})
    assert by_name(standings([game])) == {"Ann": (1, 0, 1, 0, 1)}
    rows = standings([game], bots=True)
    assert by_name(rows) == {"heuristic (bot)": (1, 1, 0, 0, 0), "random (bot)": (1, 0, 1, 0, 1),
                             "Ann": (1, 0, 1, 0, 1)}
    assert [r.bot for r in rows] == ["heuristic", None, "random"]
    mirror = kozel(people("bot:heuristic", "bot:heuristic", "bot:heuristic", "bot:heuristic"),
                   {"penalty_total": [12, 4], "match_over": True, "loser_team": 0})
    assert by_name(standings([mirror], bots=True)) == {"heuristic (bot)": (2, 1, 1, 0, 1)}   # one side each
    named_like_a_bot = kozel(people("heuristic (bot)", "bot:heuristic", "Cy", "Di"),
                             {"penalty_total": [12, 4], "match_over": True, "loser_team": 0})
    assert len([r for r in standings([named_like_a_bot], bots=True) if r.name == "heuristic (bot)"]) == 2


def test_order_is_wins_then_win_rate_then_name_and_ties_share_a_place() -> None:
    def match(a: str, b: str, c: str, d: str, loser: int) -> FinishedGame:
        return kozel(people(a, b, c, d), {"penalty_total": [12, 0] if loser == 0 else [0, 12],
                                          "match_over": True, "loser_team": loser})
    games = [match("Zoe", "Bo", "Yan", "Di", 1), match("Zoe", "Bo", "Yan", "Di", 1),
             match("Zoe", "Cy", "Al", "Di", 0), match("Eve", "Fay", "Gus", "Hal", 1)]
    rows = standings(games)
    # Zoe 2/3, Yan 2/2: Yan first (same wins, higher rate); Cy and Di 1 win (Cy 1/1 above Di 1/4);
    # Eve, Gus: 1/1 like Cy, sorted by name: Cy, Eve, Gus.
    assert [r.name for r in rows[:6]] == ["Yan", "Zoe", "Cy", "Eve", "Gus", "Di"]
    assert places(rows)[:6] == [1, 2, 3, 3, 3, 6]
    assert [r.name for r in rows[6:]] == ["Al", "Bo", "Fay", "Hal"]   # no wins: by name


def test_the_csv_has_a_header_and_a_row_a_person() -> None:
    game = kozel(people("Аня", "bot:heuristic", "Боря", "bot:random"),
                 {"penalty_total": [3, 12], "match_over": True, "loser_team": 1})
    rows = list(csv.DictReader(io.StringIO(standings_csv(standings([game], bots=True)))))
    assert [(r["place"], r["name"], r["won"], r["goats"]) for r in rows] == [
        ("1", "Аня", "1", "0"), ("1", "Боря", "1", "0"), ("3", "heuristic (bot)", "0", "1"),
        ("3", "random (bot)", "0", "1")]
    assert rows[0]["win rate"] == "1.000" and rows[2]["bot"] == "heuristic"


def test_an_unknown_game_is_one_line() -> None:
    with pytest.raises(StandingsError, match="no standings for the game 'chess'"):
        seat_outcomes("chess", 2, {})


@pytest.mark.parametrize("name, value, end_of_day", [
    ("until", "9999-12-31", True),                     # through its end: the day after 9999-12-31
    ("since", "9999-12-31T23:59:59-23:59", False),     # in UTC, a moment of the year 10000
    ("since", "0001-01-01T00:00:00+14:00", False),     # in UTC, a moment of the year 0
])
def test_a_moment_out_of_range_is_one_line_not_an_overflow(name: str, value: str, end_of_day: bool) -> None:
    """Before, these passed the check and overflowed later (``OverflowError``: a 500
    from the server's standings, a traceback from ``goat standings``)."""
    with pytest.raises(StandingsError, match=f"{name}: .* is out of range"):
        moment(name, value, end_of_day)
    assert moment(name, "9999-12-30" if end_of_day else "0001-01-01T14:00:00+14:00", end_of_day).year >= 1


def test_a_name_that_begins_like_a_formula_is_text_in_the_csv() -> None:
    game = kozel(people("=1+1", "bot:heuristic", "@cmd", "bot:random"),
                 {"penalty_total": [3, 12], "match_over": True, "loser_team": 1})
    rows = list(csv.DictReader(io.StringIO(standings_csv(standings([game], bots=True)))))
    assert {r["name"] for r in rows} >= {"'=1+1", "'@cmd"}
