"""``goat replay``, ``goat random-games spades`` and ``goat play spades``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from goat.cli.main import app
from goat.games.options import parse_option_pairs
from goat.cli.play import MoveSyntaxError, parse_move
from goat.games.spades import make_rules

DATA = Path(__file__).resolve().parent.parent / "data" / "records"
runner = CliRunner(env={"FORCE_COLOR": None})


def goat(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


# ================================================================ replay
def test_replay_report_shows_bids_tricks_scores_bags_and_game_state() -> None:
    result = goat("replay", str(DATA / "good" / "spades-standard-full-deal.json"))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "spades standard, 4 players, first dealer seat 3" in out
    assert "0 bid 5 · 1 bid 1 · 2 bid nil · 3 bid 9" in out
    assert "  bids 5/1/nil/9, tricks 4/1/0/8: score +50/-100, bags 0/0" in out
    assert "Game not over (score 50/-100, bags 0/0)" in out
    assert out.count("  trick ") == 13


def test_replay_report_of_a_won_game_a_redeal_and_an_unfinished_deal() -> None:
    out = goat("replay", str(DATA / "good" / "spades-bags-and-game-won.json")).stdout
    assert "bids 1/2/1/2, tricks 0/0/0/13: score -20/-51, bags 0/9" in out
    assert "Game over: team 1 (seats 1+3) wins (score -60/128, bags 0/8)" in out
    out = goat("replay", str(DATA / "good" / "spades-weak-hand-redeal.json")).stdout
    assert "redeal: seat 0 showed a weak hand; the same dealer deals again" in out
    out = goat("replay", str(DATA / "good" / "spades-joker-trumps-unfinished.json")).stdout
    assert "trick 1: 0 play 3C · 1 play LJ · 2 play 2H · 3 play AS  → seat 1" in out
    assert "unfinished: bids 1/1/nil/9, tricks 0/1/0/0" in out


def test_replay_json_prints_the_spades_result_object() -> None:
    path = DATA / "good" / "spades-double-nil-exchange.json"
    result = goat("replay", str(path), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads(path.read_text())["result"]
    assert set(json.loads(result.stdout)) == {"deals", "score_total", "bags_total", "match_over", "winner_team"}



def test_replay_and_its_csv_name_the_team_that_reneged(tmp_path: Path) -> None:
    """An imported record under ``renege_penalty`` read "tricks 0/0/0/13: score
    -70/-60" with nothing saying that seats 1+3 scored -60 for failing to follow suit."""
    from goat.records import record_from_state

    from .conftest import act, bid, deal_state

    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AH", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AC",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AD", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
    state = act(bid(deal_state(hands, options={"renege_penalty": True}), "3", "2", "4", "4"),
                "0 play 2C", "1 play 2D")                                   # seat 1 holds AC: a renege
    while state.phase == "play":
        state.apply_action(state.legal_actions()[0])
    path = tmp_path / "renege.json"
    path.write_text(json.dumps(record_from_state(state)))
    note = "seats 1+3 reneged: 0 for the deal and -10 a bid trick"
    report = goat("replay", str(path)).stdout
    assert "score -70/-60" in report and note in report and "seats 0+2 reneged" not in report
    assert note in goat("replay", "--csv", str(path)).stdout
    assert goat("replay", "--check", str(path)).exit_code == 0

# =========================================================== random games
def test_random_games_spades_writes_records_that_replay(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = goat("random-games", "spades", "--n", "4", "--out", str(out), "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "wrote 4 spades standard records" in result.stdout
    assert "random play needs max_deals=10 to end a game" in result.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(r["options"] == {"max_deals": 10} and r["result"]["match_over"] for r in records)
    assert goat("replay", str(out), "--check").exit_code == 0
    again = tmp_path / "again.jsonl"
    goat("random-games", "spades", "--n", "4", "--out", str(again), "--seed", "5")
    assert again.read_text() == out.read_text()                     # same seed, same games


def test_random_games_spades_variants_options_and_single_deals(tmp_path: Path) -> None:
    out = tmp_path / "bemo.jsonl"
    result = goat("random-games", "spades", "--rules", "bemo", "--n", "3", "--out", str(out), "--seed", "1",
                  "--option", "lose_at=-200", "--option", "double_nil=true", "--single-deal")
    assert result.exit_code == 0, result.output
    assert "needs" not in result.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(len(r["deals"]) == 1 and r["options"] == {"lose_at": -200, "double_nil": True} for r in records)
    assert goat("replay", str(out), "--check").exit_code == 0


@pytest.mark.parametrize("args, message", [
    (["--option", "jokerz=1"], "unknown option 'jokerz' for Spades"),
    (["--option", "lose_at=low"], "option lose_at must be a whole number or off"),
    (["--option", "lose_at=0"], "option lose_at=0 must be below 0, e.g. -200"),
    (["--option", "bemo_one_per_team=true"], "option bemo_one_per_team=true needs bemo=true"),
    (["--rules", "speed"], "unknown Spades ruleset 'speed'"),
])
def test_random_games_spades_bad_input_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = goat("random-games", "spades", "--n", "1", "--out", str(tmp_path / "x.jsonl"), *args)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"error: {result.stderr.splitlines()[0][7:]}"]
    assert message in result.stderr


# ================================================================== play
def test_typed_bids_while_bidding() -> None:
    view = {"seat": 1, "legal_actions": ["1 bid nil", "1 bid 1", "1 bid 2", "1 bid blind-nil"]}
    assert str(parse_move("2", view)) == "1 bid 2"                  # a bare number is the bid
    assert str(parse_move("Blind Nil", view)) == "1 bid blind-nil"
    assert str(parse_move("bid nil", view)) == "1 bid nil"
    with pytest.raises(MoveSyntaxError):
        parse_move("bid", view)
    with pytest.raises(MoveSyntaxError, match="nothing to bid"):
        parse_move("bid 4", {"seat": 1, "legal_actions": ["1 play 2C"]})


def test_option_values_off_by_default_take_numbers_or_off() -> None:
    defaults = make_rules("standard").options()
    assert parse_option_pairs(["lose_at=-200", "max_deals=off", "double_nil=yes"], defaults) == \
        {"lose_at": -200, "max_deals": None, "double_nil": True}


def test_play_spades_against_bots_and_write_a_replayable_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    moves = "14\nnil\n" + "1\n" * 13
    result = goat("play", "spades", "--seed", "3", "--bots", "random", "--record", str(record), "--name", " Anna  K ",
                  input=moves)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Spades (standard), you are seat 0; seed 3" in out
    assert "illegal: seat 0 bids '14', which is not a bid" in out
    assert "You bid nil" in out
    assert "Deal 1 is over" in out and "Bye: game stopped." in out
    # the whole score sheet only at the second deal's start (not before every move)
    assert out.count("Score sheet (500 wins)") == 1 and out.index("Score sheet") > out.index("Deal 1 is over")
    data = json.loads(record.read_text())
    assert data["game"] == "spades" and data["deals"][0]["actions"][:4].count("0 bid nil") == 1
    assert data["seats"] == [{"name": "Anna K"}] + [{"name": "random bot", "bot": "random"}] * 3
    assert goat("replay", str(record), "--check").exit_code == 0


def test_play_spades_offers_blind_nil_before_showing_the_hand() -> None:
    result = goat("play", "spades", "--seed", "3", "--bots", "random", "--option", "blind_nil_behind=0",
                  "--option", "double_nil=true", input="d\n")
    out = result.stdout
    assert "Bid blind? (l = look at my cards, b = blind nil, d = double nil)" in out
    assert out.index("Bid blind?") < out.index("You bid double nil")
    assert "Your hand: 13 cards, face down (you have not looked)" in out[:out.index("You bid double nil")]
    assert not re.search(r"Your hand: [^1]", out[:out.index("You bid double nil")])



def test_play_spades_blind_question_offers_only_the_blind_bids_that_are_open() -> None:
    """With ``blind_nil=false`` and ``double_nil=true`` the question offered
    "b = blind nil", and answering b re-asked "answer n or b or d" for ever; at
    ``blind_nil_behind=0`` it said "at least 0 points behind"."""
    result = goat("play", "spades", "--seed", "3", "--bots", "random", "--option", "blind_nil_behind=0",
                  "--option", "blind_nil=false", "--option", "double_nil=true", input="b\nd\nquit\n")
    out = result.stdout
    assert "Bid blind? (l = look at my cards, d = double nil)" in out and "b = blind nil" not in out
    assert "answer l or d (or quit)" in out and "You bid double nil" in out
    assert "You may bid before looking at your cards." in out and "at least 0 points" not in out

def test_play_spades_no_blind_bid_once_the_hand_is_shown() -> None:
    """Answering "look at your cards" and then typing blind nil was accepted: a
    blind bid made after seeing the hand (the moves list offered it too)."""
    result = goat("play", "spades", "--seed", "3", "--bots", "random", "--option", "blind_nil_behind=0",
                  "--option", "double_nil=true", input="l\nblind nil\ndouble nil\nquit\n")
    out = result.stdout
    assert "You look at your cards" in out
    shown = out[out.index("Your hand: ", out.index("You look at your cards")):]
    moves = shown[shown.index("Your moves:"):shown.index("Your move (")]
    assert "nil" in moves and "blind" not in moves and "double" not in moves
    assert shown.count("illegal: seat 0 has looked at their cards: a blind nil is bid before looking") == 1
    assert shown.count("illegal: seat 0 has looked at their cards: a double nil is bid before looking") == 1
    assert "You bid blind nil" not in out and "You bid double nil" not in out


def test_the_deal_header_is_printed_once_when_the_deal_starts_with_my_bid() -> None:
    """The deal's announcement printed the header line, and my turn's screen, with
    nothing played between, printed it again just below (also after the blind-bid
    question). Once per screen: a header line follows a move, a prompt or the deal's rule."""
    header = re.compile(r"Spades · standard · deal \d+ · dealer")
    first = goat("play", "spades", "--seed", "3", "--seat", "0", input="quit\n").stdout
    assert len(header.findall(first[:first.index("Your move (")])) == 1, first
    blind = goat("play", "spades", "--seed", "3", "--seat", "0", "--option", "blind_nil_behind=0",
                 input="l\nquit\n").stdout
    assert "Bid blind?" in blind and len(header.findall(blind[:blind.index("Your move (")])) == 1, blind
    later = goat("play", "spades", "--seed", "3", "--seat", "1", input="quit\n").stdout  # a bot bids first
    before = later[:later.index("Your move (")]
    assert len(header.findall(before)) == 2 and before.index("bids 4") < [m.start() for m in header.finditer(before)][1]


def test_play_spades_a_bid_left_only_blind_stays_open_after_looking() -> None:
    """With nil off and the partner's bid at the team's limit, blind nil is the one
    bid left: after "look at your cards" it must stay offered, or the game is stuck."""
    import io
    import random

    from goat.cli.play import SpadesSession

    from .conftest import SUIT_HANDS, bid, deal_state

    state = bid(deal_state(SUIT_HANDS, dealer=1, options={"nil": False, "max_team_bid": 4, "blind_nil_behind": 0}),
                "4", "2")                                          # seat 2 (my partner) bids 4, seat 3 bids 2
    assert state.view(0)["legal_actions"] == ["0 bid blind-nil", "0 bid look"]
    session = SpadesSession(Console(file=io.StringIO(), width=120), state, 0, [None, None, None, None],
                            random.Random(0))
    answers = iter(["l", "blind nil"])
    session.read = lambda prompt: next(answers)                       # type: ignore[method-assign]
    look = session.human_turn()
    assert str(look) == "0 bid look"
    session.apply(look)
    assert str(session.human_turn()) == "0 bid blind-nil"


def test_play_spades_bids_are_not_numbered_since_a_number_is_the_bid() -> None:
    """The bids were listed "1) nil 2) 1 3) 2 ..." while typing 2 bids 2, not
    move 2 (and the help said "or its number in the list")."""
    result = goat("play", "spades", "--seed", "3", "--bots", "random", input="help\n2\nquit\n")
    out = result.stdout
    assert "Your moves: nil · 1 · 2 · 3" in out and "1) nil" not in out
    assert "its number in the list" not in out and "a number is the bid itself" in out
    assert "You bid 2" in out


@pytest.mark.parametrize(("args", "has", "lacks"), [
    ([], ["nil", "a number is the bid itself"], ["little bemo", "redeal", "give QD", "double nil"]),
    (["--rules", "bemo"], ["little bemo"], ["redeal"]),
    (["--option", "double_nil=true"], ["double nil", "give QD"], ["little bemo"]),
    (["--rules", "mirror"], ["the number of spades you hold"], ["nil,", "little bemo"]),
])
def test_play_spades_help_names_only_the_bids_the_table_has(args: list[str], has: list[str],
                                                           lacks: list[str]) -> None:
    """``help`` offered "little bemo, redeal" and "give QD" at a standard table."""
    out = goat("play", "spades", *args, "--seed", "3", "--bots", "random", input="help\nquit\n").stdout
    flowed = " ".join(out.split())          # the console wraps the line at its width
    typed = flowed[flowed.index("Bidding: "):flowed.index("quit.", flowed.index("Bidding: "))]
    assert all(word in typed for word in has) and not any(word in typed for word in lacks), typed


@pytest.mark.parametrize(("rules", "options", "words"), [
    ("wheels", {}, "a team contract of 10+ scores ±200"),
    ("boston", {"boston_wins_game": True}, "all 13 tricks scores ±200 and making it wins the game"),
    ("bemo", {}, "little Bemo takes all of the first 6 tricks (±60)"),
    ("bemo", {"bemo_one_per_team": True}, "one Bemo a team: once a player bids one, the partner may not."),
    ("mirror", {}, "bids exactly the number of spades they hold"),
    ("partnership-fourteen", {}, "2–13 tricks; a team's contract is the sum of its bids, which must total 7"),
    ("no-early-spades", {}, "until a spade has trumped a trick of another suit"),
    ("low-club-lead", {}, "The holder of the lowest club leads it"),
    ("face-up-four", {}, "The first 4 cards dealt to each player are face up"),
    ("negative-reverse", {"lose_at": -200, "max_deals": 5}, "a team at or below -200 loses; a team at or below "
                                                            "-500 loses; after 5 deals the higher score wins"),
    ("standard", {"weak_hand_redeal": True}, "may be shown for a redeal (bid redeal)"),
    ("standard", {"bags": False}, "bags cost nothing"),
    ("standard", {"double_nil": True, "blind_nil": False, "exchange_cards": 2},
     "may bid double nil (±200; then each partner gives the other 2 cards)"),
    ("standard", {"blind_nil_behind": 0}, "Either team may bid blind nil (±100) before looking"),
])
def test_help_says_the_rule_of_each_variant_and_option(rules: str, options: dict, words: str) -> None:
    """``help`` summed up the standard game whatever the rules: wheels, Boston,
    Bemo, mirror, the team bid limits, the breaking rule, the first lead, face-up
    cards, the game's end, a redeal, bags off and the exchange size went unsaid
    (and double nil alone read "blind nil or double nil", 3 cards)."""
    from goat.cli.render_spades import rule_summary
    from goat.games.spades import new_state

    text = rule_summary(new_state(rules, options=options).view(0))
    assert words in text.replace("\n", " ")
    assert ("blind nil" in text) == new_state(rules, options=options).rules.blind_nil


def test_an_option_without_a_value_is_explained_with_a_spades_option() -> None:
    """``--option bags`` answered "write key=value, e.g. royal_goat=false": a Kozel option."""
    result = goat("play", "spades", "--option", "bags")
    assert result.exit_code == 2
    assert result.output.strip() == "error: --option 'bags': write key=value, e.g. bags=false"
    result = goat("random-games", "spades", "-n", "1", "--out", "-", "--option", "nonsense")
    assert "royal_goat" not in result.output and "write key=value, e.g. negative_target_loses=true" in result.output



def test_a_single_bag_reads_bag_on_the_terminal_lines() -> None:
    """One overtrick read "+121 (1 bags)" on the deal's line and "(1 bags)" in the header."""
    from goat.cli.render_spades import deal_result_text, header_text

    from .conftest import SUIT_HANDS, bid, deal_state, play_first_legal

    state = play_first_legal(bid(deal_state(SUIT_HANDS, dealer=3), "1", "1", "1", "11"))  # seat 3 takes all 13
    view = state.view(0)
    assert "seats 1+3 +121 (1 bag)." in deal_result_text(view, 1).plain
    assert "seats 0+2 (you) -20 (0 bags), seats 1+3 121 (1 bag)" in header_text(view, ["you", "a", "b", "c"]).plain

def test_a_bag_penalty_is_named_on_the_score_lines(tmp_path: Path) -> None:
    """A made contract of 2 with 11 overtricks read "-69 (11 bags)" on every sheet
    (terminal, CSV, view): the 100 the score holds for 10 bags went unsaid."""
    from goat.cli.play import write_record
    from goat.cli.render_spades import deal_result_text, score_table

    from .conftest import SUIT_HANDS, bid, deal_state, play_first_legal

    state = play_first_legal(bid(deal_state(SUIT_HANDS, dealer=3), "1", "1", "1", "1"))   # seat 3 takes all 13
    view = state.view(0)
    assert view["deal_results"][0]["score"] == [-20, 20 + 11 - 100] and view["deal_bag_penalties"] == [[0, 1]]
    assert "seats 1+3 -69 (11 bags; -100 for 10 bags)." in deal_result_text(view, 1).plain
    console = Console(width=160, record=True)
    console.print(score_table(view))
    sheet = console.export_text()
    assert "-69 (11 bags; -100 for 10 bags)" in sheet and "-20 (0 bags)" in sheet
    record = tmp_path / "bags.json"
    write_record(record, state)
    rows = goat("replay", "--csv", str(record)).stdout.splitlines()
    assert rows[1].endswith(",seats 1+3: -100 for 10 bags") and len(rows) == 2
    assert "  bids 1/1/1/1, tricks 0/0/0/13: score -20/-69, bags 0/11; seats 1+3: -100 for 10 bags\n" in \
        goat("replay", str(record)).stdout


def test_the_terminal_shows_the_weak_hand_of_a_redeal() -> None:
    """A weak hand asking for a redeal is shown to every player (the page lists
    its cards); the terminal said only "Seat 0 bids redeal (weak hand)"."""
    from goat.cli.render_spades import action_text, deal_result_text, rule_summary

    from .conftest import act, deal_state
    from .test_rules_standard import WEAK

    state = act(deal_state(WEAK, dealer=3, options={"weak_hand_redeal": True, "max_deals": 1}), "0 bid redeal")
    view = state.view(1)
    line = action_text(view, view["history"][-1], ["Ann", "you", "Bob", "Cid"]).plain
    assert line == ("Seat 0 (Ann) shows a weak hand (2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ T♣ A♣ 2♦ 3♦ 4♦) "
                    "and asks for a redeal")
    assert "after 1 deal the higher score wins" in rule_summary(view)
    assert deal_result_text(view, 1).plain.endswith(": seat 0 showed a weak hand; the same dealer deals again.")
    assert deal_result_text(state.view(0), 1).plain.endswith(": you showed a weak hand; the same dealer deals again.")


def test_the_terminal_says_which_of_my_cards_are_face_up() -> None:
    """Under face-up-four the "Face-up cards" line listed the others' public cards
    but not mine, which every other player sees too (the page marks them)."""
    from goat.cli.render_spades import table_view

    from .conftest import SUIT_HANDS, deal_state

    view = deal_state(SUIT_HANDS, dealer=3, rules="face-up-four").view(0)
    console = Console(width=200, record=True)
    console.print(table_view(view, ["you", "Bob", "Cid", "Dan"]))
    line = next(x for x in console.export_text().splitlines() if x.startswith("Face-up cards:"))
    assert line.split()[:7] == ["Face-up", "cards:", "you", "2♣", "3♣", "4♣", "5♣"]
    assert "seat 1 (Bob) 2♦ 3♦ 4♦ 5♦" in line and "seat 3 (Dan) 2♠ 3♠ 4♠ 5♠" in line


def test_the_double_nil_exchange_announces_the_cards_received_once() -> None:
    """My partner's three gives read "gives you a card", "gives you a card",
    "gives you a card: 4H" and then "You receive 2H 3H 4H": the last give looked
    like the only card received."""
    import io
    import random

    from goat.cli.play import SpadesSession
    from goat.protocol import Action

    from .conftest import SUIT_HANDS, act, bid, deal_state

    state = bid(deal_state(SUIT_HANDS, score_total=[0, 100], options={"double_nil": True}), "double-nil", "2", "4", "5")
    act(state, "0 give AC", "0 give KC", "0 give QC")
    console = Console(file=io.StringIO(), width=120, record=True)
    session = SpadesSession(console, state, 0, [None, None, None, None], random.Random(0))
    session.names = ["you", "Bob", "Cid", "Dan"]
    for card in ("2H", "3H", "4H"):
        session.apply(Action.parse(f"2 give {card}"))
    lines = console.export_text().splitlines()
    assert lines == ["Partner (seat 2, Cid) gives you a card"] * 3 + ["  You receive 2♥ 3♥ 4♥"]


def test_play_spades_bad_option_is_one_line() -> None:
    result = goat("play", "spades", "--option", "players=3")
    assert result.exit_code == 2 and result.stderr.strip() == \
        "error: option players=3 is not allowed (Spades is played by 4)"


def test_play_refuses_a_bot_that_does_not_play_spades() -> None:
    """The perfect bot's solver is Kozel's: at a Spades table it would be its
    heuristic fallback under another name, so it is refused, naming the bots that play."""
    result = goat("play", "spades", "--seed", "3", "--bots", "perfect")
    assert result.exit_code == 2 and result.stderr.strip() == \
        "error: bot 'perfect' does not play spades (bots for spades: random, ismcts, heuristic, pimc)"


def test_tournament_refuses_a_kozel_bot_and_analyze_values_spades_in_tricks() -> None:
    """Spades tournaments are played (tests/tournament/test_games.py); a bot
    that does not play Spades is refused before any game. A Spades deal is
    analysed by DDS (tests/spades/test_analysis.py)."""
    result = goat("tournament", "--game", "spades", "--rules", "standard", "--bots", "random,perfect", "--matches", "1")
    assert result.exit_code == 2 and result.stderr.strip() == \
        "error: bot 'perfect' does not play spades (bots for spades: random, ismcts, heuristic, pimc)"
    result = goat("analyze", str(DATA / "good" / "spades-standard-full-deal.json"))
    assert result.exit_code == 0 and "tricks the acting seat's side ends the deal with" in result.output
