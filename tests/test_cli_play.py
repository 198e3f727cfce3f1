"""``goat play kozel``: a human against bots, driven through typer's CliRunner."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from goat.cards import Card
from goat.cli.main import app
from goat.cli.play import MoveSyntaxError, parse_move, parse_option_pairs
from goat.games.kozel import KozelDeal, KozelState, make_rules, new_state
from goat.protocol import Action, GoatError

MOVE_PROMPT = "Your move (number, cards, help, quit)> "
MOLODKA_PROMPT = "out of turn? [y/N] "


def play(args: list[str], text: str) -> Any:
    return CliRunner().invoke(app, ["play", "kozel", *args], input=text)


def load_record(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def replay(record: dict[str, Any]) -> KozelState:
    """Rebuild a recorded game with the engine alone (independent of the CLI)."""
    rules = make_rules(record["rules"], players=record["players"], options=record.get("options"))
    state = new_state(rules, first_dealer=record["first_dealer"])
    for deal in record["deals"]:
        state.apply_chance(KozelDeal.from_json(rules, deal))
        for text in deal["actions"]:
            state.apply_action(Action.parse(text))
    return state


def prompts(output: str) -> int:
    return output.count(MOVE_PROMPT) + output.count(MOLODKA_PROMPT)


# ------------------------------------------------------------ whole games
@pytest.mark.parametrize("args", [["--rules", "classic", "--seed", "7"],
                                  ["--rules", "street", "--seed", "3", "--seat", "2"],
                                  ["--rules", "full-hand", "--players", "3", "--seed", "1"]])
def test_answering_move_1_plays_a_whole_match(tmp_path: Path, args: list[str]) -> None:
    path = tmp_path / "game.json"
    result = play([*args, "--record", str(path)], "1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "The match is over" in result.output and "goat" in result.output
    record = load_record(path)
    state = replay(record)
    assert state.is_terminal()
    assert state.result() == record["result"]
    assert record["result"]["match_over"]
    seat = int(args[args.index("--seat") + 1]) if "--seat" in args else 0
    assert record["seats"][seat] == {"name": "You"}   # who sat where: goat standings reads it
    assert [entry for i, entry in enumerate(record["seats"]) if i != seat] == \
        [{"name": "heuristic bot", "bot": "heuristic"}] * (record["players"] - 1)
    # The screen announced every deal result the engine computed.
    assert result.output.count("is over (") == len(record["result"]["deals"])


def test_the_seed_makes_the_game_reproducible(tmp_path: Path) -> None:
    first = play(["--rules", "street", "--seed", "21"], "1\n" * 40 + "quit\n")
    second = play(["--rules", "street", "--seed", "21"], "1\n" * 40 + "quit\n")
    other = play(["--rules", "street", "--seed", "22"], "1\n" * 40 + "quit\n")
    assert first.exit_code == second.exit_code == 0
    assert first.output == second.output
    assert first.output != other.output


# ---------------------------------------------------------- refusals
def first_prompt_state(tmp_path: Path, args: list[str]) -> tuple[KozelState, dict[str, Any]]:
    path = tmp_path / "first.json"
    result = play([*args, "--record", str(path)], "quit\n")
    assert result.exit_code == 0, result.output
    record = load_record(path)
    return replay(record), record


def test_illegal_card_is_refused_with_the_engine_reason_and_reprompted(tmp_path: Path) -> None:
    # Find a seed where, at the human's first turn, a card in hand breaks the follow rule.
    for seed in range(80):
        args = ["--rules", "classic", "--seed", str(seed)]
        state, record = first_prompt_state(tmp_path, args)
        if not state.trick or state.current_player() != 0:
            continue
        illegal = [c for c in state.hands[0] if not state.is_legal(Action(0, "play", (c,)))]
        if illegal:
            break
    else:
        pytest.fail("no seed with an illegal follow at the first prompt")
    card = illegal[0]
    with pytest.raises(GoatError) as info:
        state.check_action(Action(0, "play", (card,)))
    reason = info.value.reason
    assert "must follow" in reason
    path = tmp_path / "after.json"
    typed = f"{card.rank}{card.suit.lower()}"  # lower-case suit is accepted too
    result = play([*args, "--record", str(path)], f"{typed}\nquit\n")
    assert result.exit_code == 0
    assert f"illegal: {reason}" in result.output
    assert result.output.count(MOVE_PROMPT) == 2  # asked again
    # The refused card changed nothing: same actions as when quitting at once.
    assert load_record(path)["deals"] == record["deals"]


def test_unparsable_input_is_explained_and_reprompted() -> None:
    result = play(["--seed", "4"], "xyz\n99\n\nquit\n")
    assert result.exit_code == 0
    assert "not a card: 'xyz'" in result.output
    assert "there is no move 99" in result.output
    assert result.output.count(MOVE_PROMPT) == 4
    assert "Traceback" not in result.output


def test_help_lists_the_moves_and_the_rules() -> None:
    result = play(["--rules", "street", "--seed", "4"], "help\nquit\n")
    assert result.exit_code == 0
    assert "Legal moves: 1)" in result.output
    assert "beats every led card" in result.output
    assert "Molodka" in result.output


@pytest.mark.parametrize(("args", "has", "lacks"), [
    (["--rules", "classic"], ["the card (9H", "give QD"], ["pass 6C", "molodka", "KH+AH"]),
    (["--rules", "street"], ["KH+AH", "pass 6C 7D", "molodka 6S"], ["give QD"]),
    (["--rules", "street", "--option", "molodka=false"], ["pass 6C 7D"], ["molodka 6S", "give QD"]),
    (["--rules", "full-hand", "--players", "3"], ["the card (9H"], ["give QD", "pass 6C", "molodka"]),
])
def test_help_names_only_the_moves_the_table_has(args: list[str], has: list[str], lacks: list[str]) -> None:
    """``help`` said "pass 6C 7D, molodka ..., give QD" at every table, a classic one too."""
    result = play([*args, "--seed", "4"], "help\nquit\n")
    flowed = " ".join(result.output.split())          # the console wraps the line at its width
    typed = flowed[flowed.index("Type "):flowed.index("quit.", flowed.index("Type "))]
    assert all(word in typed for word in has) and not any(word in typed for word in lacks), typed


@pytest.mark.parametrize("text", ["quit\n", "", "1\n1\nexit\n"])
def test_quit_and_end_of_input_exit_cleanly(text: str, tmp_path: Path) -> None:
    path = tmp_path / "stopped.json"
    result = play(["--seed", "9", "--record", str(path)], text)
    assert result.exit_code == 0
    assert "Bye" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    record = load_record(path)
    assert record["result"]["deals"][-1]["ended_by"] == "unfinished"
    replay(record)  # a legal record


@pytest.mark.parametrize("args,needle", [
    (["--rules", "poker"], "unknown Kozel ruleset 'poker'"),
    (["--option", "colour=red"], "unknown option 'colour'"),
    (["--option", "royal_goat=perhaps"], "royal_goat must be true or false"),
    (["--option", "novalue"], "key=value"),
    (["--rules", "street", "--players", "3"], "players=3"),
    (["--seat", "4"], "--seat must be 0..3"),
    (["--bots", "alien"], "unknown bot 'alien'"),
    (["--name", "   "], "--name: a name must show something, not only spaces or accents"),
    (["--name", "\u2800"], "--name: a name must show something"),     # a braille blank: as the server refuses it
    (["--name", "x" * 25], "--name: a name has at most 24 characters, not 25"),   # the server's limit and words
])
def test_bad_setup_exits_2_with_one_line(args: list[str], needle: str) -> None:
    result = play(args, "")
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr


# ------------------------------------------------------- hidden information
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([6789TJQKA])([CDHS♣♦♥♠])(?![A-Za-z0-9])")
SYMBOL = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def shown_cards(output: str) -> set[Card]:
    return {Card(rank, SYMBOL.get(suit, suit)) for rank, suit in CARD_TOKEN.findall(output)}


@pytest.mark.parametrize("rules,seat", [("classic", 0), ("street", 1), ("full-hand", 3)])
def test_the_screen_never_shows_cards_the_human_may_not_know(tmp_path: Path, rules: str, seat: int) -> None:
    for seed in range(10):
        path = tmp_path / "seen.json"
        result = play(["--rules", rules, "--seed", str(seed), "--seat", str(seat), "--record", str(path)],
                      "1\n" * 4 + "quit\n")
        record = load_record(path)
        if len(record["deals"]) == 1:
            break
    assert result.exit_code == 0
    # Replay the first deal and collect what the human may know: cards they held at
    # any time, cards played face up (plays, molodkas) and the shown trump card.
    rules_obj = make_rules(record["rules"], players=record["players"], options=record.get("options"))
    state = new_state(rules_obj, first_dealer=record["first_dealer"])
    deal = record["deals"][0]
    state.apply_chance(KozelDeal.from_json(rules_obj, deal))
    known = set(state.hands[seat])
    for text in deal["actions"]:
        action = Action.parse(text)
        state.apply_action(action)
        if action.verb in ("play", "molodka"):
            known.update(action.cards)
        known.update(state.hands[seat])
    if deal.get("trump_card"):
        known.add(Card.parse(deal["trump_card"]))
    hidden = set(rules_obj.deck_cards) - known
    assert hidden, "the test needs cards the human may not see"
    shown = shown_cards(result.output)
    assert shown, "the screen shows cards at all"
    assert set(state.hands[seat]) <= shown, "the human's own hand is on screen"
    assert not (shown & hidden), f"leaked: {sorted(map(str, shown & hidden))}"


# ------------------------------------------------------------- molodka
def molodka_session(human: int, state: KozelState, answers: list[str], bot: str = "heuristic") -> tuple[Any, list[str]]:
    """A terminal session on ``state`` (the human at ``human``, ``bot`` elsewhere:
    ``"silent"`` never claims out of turn) whose input is ``answers`` then "1"
    for ever; returns it and the prompts it read."""
    from io import StringIO

    from rich.console import Console

    from goat.bots import make_bot
    from goat.cli.play import KozelSession

    def make(seat: int) -> Any:
        inner = make_bot("heuristic", seed=seat)
        if bot == "silent":
            inner.out_of_turn = lambda view: None
        return inner

    bots = [None if seat == human else make(seat) for seat in range(4)]
    session = KozelSession(Console(file=StringIO(), width=200), state, human, bots, random.Random(0))
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return answers.pop(0) if answers else "1"

    session.read = read  # type: ignore[method-assign]
    return session, asked


def molodka_deal(options: dict[str, Any] | None = None) -> KozelState:
    """Seat 0 leads 6H; seats 1, 2 and 3 hold four of a suit (seat 0 too, its 6H back)."""
    from tests.kozel.conftest import deal_state

    state = deal_state("street", hands={"0": "6H 7H 8H 9H", "1": "6S 7S 8S 9S", "2": "6D 7D 8D 9D",
                                        "3": "6C 7C 8C 9C"}, trump_card="TC", dealer=3, options=options,
                       single_deal=True)
    state.apply_action(Action.parse("0 play 6H"))
    return state


def test_the_human_is_not_asked_out_of_turn_when_the_seat_to_act_ranks_first() -> None:
    """Seat 1 (a bot) is to act and ranks first (nearest the leader); the human at
    seat 2 would lose a same-moment molodka to it, so is not asked now."""
    session, asked = molodka_session(2, molodka_deal(), [], bot="silent")
    assert "2 molodka 6D+7D+8D+9D" in session.view()["legal_actions"]
    assert session.out_of_turn() is None
    assert asked == []


@pytest.mark.parametrize(("human", "offered"), [(0, True), (3, False)])
def test_after_a_restart_the_human_is_asked_when_ranking_before_the_seat_to_act(human: int, offered: bool) -> None:
    """``max_molodka_per_trick=2``: seat 1's molodka restarts the trick and seat 2
    is to act. Counted from the original leader, seat 0 ranks before seat 2 (it
    is asked), seat 3 after it (not yet)."""
    state = molodka_deal({"max_molodka_per_trick": 2})
    state.apply_action(Action.parse("1 molodka 6S+7S+8S+9S"))
    session, asked = molodka_session(human, state, ["n"], bot="silent")
    assert any(" molodka " in a for a in session.view()["legal_actions"])
    assert session.out_of_turn() is None   # declined (or never asked)
    assert ["out of turn?" in prompt for prompt in asked] == ([True] if offered else [])


def test_human_may_declare_molodka_out_of_turn() -> None:
    """The whole deal from that restart: the human at seat 0 answers "y" and the
    trick restarts with its molodka; play goes on to the end."""
    state = molodka_deal({"max_molodka_per_trick": 2})
    state.apply_action(Action.parse("1 molodka 6S+7S+8S+9S"))
    session, asked = molodka_session(0, state, ["y"])
    session.run()
    output = session.console.file.getvalue()
    assert "out of turn?" in asked[0]
    assert state.deal_log()[-1]["actions"][:3] == ["0 play 6H", "1 molodka 6S+7S+8S+9S", "0 molodka 6H+7H+8H+9H"]
    assert "You declare MOLODKA" in output and "The match is over" in output


# ------------------------------------------------------------ move syntax
VIEW = {"seat": 0, "legal_actions": ["0 play 9H", "0 play TH", "0 play QC"]}
STREET_VIEW = {"seat": 2, "legal_actions": ["2 play KH+AH", "2 pass 6C+7D", "2 molodka 6S+9S+KS+AS"]}
GIVE_VIEW = {"seat": 1, "legal_actions": ["1 give 9H", "1 give QC"]}


@pytest.mark.parametrize("view,text,expected", [
    (VIEW, "9H", "0 play 9H"),
    (VIEW, "10h", "0 play TH"),
    (VIEW, "Q♣", "0 play QC"),
    (VIEW, "2", "0 play TH"),
    (VIEW, "0 play 9H", "0 play 9H"),
    (VIEW, "7S", "0 play 7S"),  # parsed; legality is the engine's business
    (STREET_VIEW, "KH AH", "2 play KH+AH"),
    (STREET_VIEW, "KH+AH", "2 play KH+AH"),
    (STREET_VIEW, "pass 6C 7D", "2 pass 6C+7D"),
    (STREET_VIEW, "molodka 6S 9S KS AS", "2 molodka 6S+9S+KS+AS"),
    (STREET_VIEW, "3", "2 molodka 6S+9S+KS+AS"),
    (GIVE_VIEW, "qc", "1 give QC"),
])
def test_typed_moves(view: dict[str, Any], text: str, expected: str) -> None:
    assert str(parse_move(text, view)) == expected


@pytest.mark.parametrize("text,needle", [("0", "no move 0"), ("4", "no move 4"), ("1 play 9H", "seat 0"),
                                         ("pass", "nothing to pass now"), ("9X", "not a card"),
                                         ("", "name a move"), (" \t ", "name a move")])  # was an IndexError
def test_bad_typed_moves(text: str, needle: str) -> None:
    with pytest.raises(MoveSyntaxError, match=needle):
        parse_move(text, VIEW)


@pytest.mark.parametrize("view,text,message", [
    # A verb with no move of its kind once said "name the cards after 'molodka', e.g.
    # molodka 9H" in classic, which has no molodka (and a molodka is four cards).
    (VIEW, "molodka", "there is nothing to molodka now; type help for your moves"),
    (VIEW, "give", "there is nothing to give now; type help for your moves"),
    # With moves of that kind, the example is one of them, not a made-up 9H.
    ({"seat": 2, "legal_actions": ["2 play KH", "2 pass 6C+7D", "2 pass 6C+AH"]}, "pass",
     "name the cards after 'pass', e.g. pass 6C 7D"),
])
def test_a_bare_verb_is_answered_from_the_moves_there_are(view: dict[str, Any], text: str, message: str) -> None:
    with pytest.raises(MoveSyntaxError) as refused:
        parse_move(text, view)
    assert str(refused.value) == message


def test_option_values_take_the_option_type() -> None:
    assert parse_option_pairs(["deck=32", "royal_goat=no", "match_target=8", "trump-suit=H"]) == \
        {"deck": "32", "royal_goat": False, "match_target": 8, "trump_suit": "H"}
    with pytest.raises(GoatError, match="whole number"):
        parse_option_pairs(["match_target=many"])


def test_a_deal_that_ends_at_once_is_announced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Royal goat right after the deal: no move is made, the result still shows."""
    import io
    import random

    from rich.console import Console

    from goat.bots import RandomBot
    from goat.cli.play import KozelSession

    rules = make_rules("full-hand")
    deck = list(rules.deck_cards)
    aces = [c for c in deck if c.rank == "A"]
    rest = [c for c in deck if c.rank != "A"]
    hands = (tuple(rest[:8]), tuple(aces + rest[8:12]), tuple(rest[12:20]), tuple(rest[20:28]))
    state = new_state(rules, first_dealer=0)
    monkeypatch.setattr(state, "sample_chance", lambda rng: KozelDeal(hands, (), deck[0]))
    console = Console(record=True, width=100, file=io.StringIO())
    KozelSession(console, state, 0, [None, RandomBot(1), RandomBot(2), RandomBot(3)], random.Random(1)).run()
    text = console.export_text()
    assert "royal goat" in text
    assert "seats 0+2 (you) are the goat" in text


def test_the_score_sheet_is_shown_per_deal_and_on_request_not_before_every_move() -> None:
    """Before each move one line gives the match so far; the whole sheet comes at
    the start of each deal after the first and when the player types ``sheet``."""
    result = play(["--rules", "classic", "--seed", "7"], "1\n" * 3000)
    assert result.exit_code == 0, result.output
    moves = result.output.count(MOVE_PROMPT)
    deals = result.output.count("is over (")
    assert moves > 3 * deals > 0
    assert result.output.count("Penalty points: ") == moves
    assert result.output.count("Score sheet (penalty points") == deals - 1  # each later deal's start
    asked = play(["--rules", "classic", "--seed", "7"], "sheet\nscore\nquit\n")
    assert asked.exit_code == 0
    assert asked.output.count("Score sheet (penalty points") == 2
    assert asked.output.count(MOVE_PROMPT) == 3


def test_the_deal_header_is_printed_once_when_the_deal_starts_with_my_turn() -> None:
    """The deal's announcement printed the header line (dealer, trump) and my
    turn's screen, with nothing played between, printed it again just below. In a
    whole match no two header lines come without a move or a prompt between them."""
    header = re.compile(r"Kozel · classic · deal \d+ · dealer")
    first = play(["--rules", "classic", "--seed", "3", "--seat", "1"], "quit\n").output   # I lead deal 1
    assert len(header.findall(first[:first.index(MOVE_PROMPT)])) == 1, first
    match = play(["--rules", "classic", "--seed", "7"], "1\n" * 3000).output
    assert match.count("The match is over") == 1
    for chunk in match.split(MOVE_PROMPT):
        between = header.split(chunk)[1:-1]          # what lies between two header lines
        assert all(" plays " in text for text in between), chunk


def test_the_end_of_a_match_with_two_goats_names_both() -> None:
    """Three players, both losers of a deal reach 12 (option ``match_loser``): the
    terminal names the deal's winner and both goats, and its rule summary says so."""
    from goat.cli.render import match_result_text, rule_summary

    view = new_state("full-hand", players=3).view(1)
    view |= {"penalty_total": [0, 12, 12], "loser_team": None, "match_over": True,
             "deal_results": [{"ended_by": "cards-exhausted", "winner_team": 0, "penalty": [0, 2, 2]}]}
    assert match_result_text(view).plain == ("The match is over: seat 0 won; seat 1 (you) and seat 2 "
                                             "are both goats 🐐.")
    assert match_result_text(view | {"seat": 0}).plain.endswith("are both goats 🐐 — you win!")
    assert "(two at once: the one with more is the goat, both if level)" in rule_summary(view)
    view["options"] = view["options"] | {"match_loser": "all-at-target"}
    assert "(two at once: both are goats)" in rule_summary(view)


def test_the_rule_summary_says_whether_a_plain_lead_may_be_trumped() -> None:
    """Option ``trump_on_plain``: the terminal's ``help`` says a trump may be
    played on a plain lead by a player holding the suit only under ``"always"``."""
    from goat.cli.render import rule_summary

    words = "on a plain suit you may also play a trump"
    assert words not in rule_summary(new_state("full-hand").view(0))
    assert words in rule_summary(new_state("full-hand", options={"trump_on_plain": "always"}).view(0))


def test_the_rule_summary_names_the_shamok_only_where_the_deck_has_it() -> None:
    """The 24-card deck starts at nines: no seven of clubs, so ``help`` must not
    name the shamok among the permanent trumps nor its catch of the queen (it did,
    from the options alone); the 32-card deck has both."""
    from goat.cli.render import rule_summary

    short = rule_summary(new_state("classic", options={"deck": "24"}).view(0))
    assert "jacks, then queens" in short and "seven of clubs" not in short and "7♣" not in short
    whole = rule_summary(new_state("classic").view(0))
    assert "the seven of clubs (shamok)" in whole and "If 7♣ and Q♣ meet" in whole


@pytest.mark.parametrize("place", ["hidden", "public"])
def test_the_deal_header_says_where_the_shown_trump_card_lies_only_face_up(place: str) -> None:
    """Street's shown trump card: under ``trump_card_place="public"`` it lies face up
    in its place, and the header says where it lies in the stock as it is now, then
    who drew it; under ``"hidden"`` (the default) only which card it is. ``help``
    says which way the table plays it."""
    import random

    from goat.cli.render import header_text, rule_summary, seat_name

    names = ["you", "Ann", "Bob", "Cid"]
    state = new_state("street", options={"trump_card_place": place}, single_deal=True)
    state.apply_chance(state.sample_chance(random.Random(4)))
    rng = random.Random(4)
    said: list[str] = []
    while not state.is_terminal():
        header = header_text(state.view(0), names).plain
        card = state.trump_card
        drawer = next((seat for seat in range(4) if card in state.drawn[seat]), None)
        where = (f"card {state.stock.index(card) + 1} from the top of the stock" if drawer is None
                 else f"drawn by {seat_name(state.view(0), drawer, names)})")
        if place == "public":
            assert where in header, (where, header)
        else:
            assert "from the top" not in header and "drawn by" not in header
        said.append(header)
        state.apply_action(rng.choice(state.legal_actions()))
    if place == "public":   # seen before and after the draw
        assert any("from the top" in h for h in said) and any("drawn by" in h for h in said)
    summary = rule_summary(state.view(0))
    assert ("everyone sees where it lies and who draws it" in summary) == (place == "public")
    assert ("everyone knows the card, not where it lies" in summary) == (place == "hidden")


def test_the_spades_rule_summary_says_which_bid_reaches_wheels() -> None:
    """``help`` in a Spades game with wheels says which reading of "a bid of
    10+" the table plays (option ``wheels_by``)."""
    from goat.cli.render_spades import rule_summary
    from goat.games.spades import new_state as new_spades

    def said(**options: object) -> str:
        return rule_summary(new_spades("wheels", options=options).view(0))

    assert "Wheels: a team contract of 10+ scores ±200." in said()
    assert "Wheels: when one player bids 10+, the team's contract scores ±200." in said(wheels_by="player")
    assert "when one player bids" not in said(wheels_by="team")


def test_the_sheet_and_the_deal_line_say_which_penalty_eggs_doubled() -> None:
    """Under ``eggs=double-next`` the terminal's score sheet and the line at a
    deal's end say "penalty doubled (eggs)" at the deal the engine doubled (a 4
    in ``flat2`` the points alone do not explain) and the tie's note at the
    60–60 deal before it, and at no other deal."""
    import random

    from rich.console import Console

    from goat.cli.render import deal_result_text, score_table
    from goat.scoresheet import EGGS_NOTES

    rng = random.Random(3)
    state = new_state("classic", options={"eggs": "double-next", "match_target": 40})
    while not state.is_terminal() and not any(d.get("eggs") == "doubled" for d in state.deal_results):
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    view = state.view(0)
    marks = [d.get("eggs") for d in view["deal_results"]]
    assert marks[-1] == "doubled" and "tie" in marks, "no doubled deal in this match: pick another seed"
    console = Console(width=200, record=True)
    console.print(score_table(view))
    rows = [line for line in console.export_text().splitlines() if re.match(r"\s*\d+\s", line)]
    assert len(rows) == len(marks)
    for row, mark in zip(rows, marks):
        for kind, note in EGGS_NOTES.items():
            assert (note in row) == (mark == kind), row
    assert EGGS_NOTES["doubled"] in deal_result_text(view, len(marks)).plain


def test_a_searching_bot_thinks_at_most_the_think_seconds() -> None:
    # A person waits at the terminal: pimc, ismcts and mc get --think's cap unless their
    # spec sets a limit; bots that move at once, and --think 0, are left as typed.
    import random

    from goat.cli.play import _make_bots, thinking

    assert dict(thinking("pimc:worlds=50", "kozel", 2.0).settings) == {"worlds": 50, "time_limit": 2.0}
    assert dict(thinking("pimc:time_limit=5", "kozel", 2.0).settings) == {"time_limit": 5}
    assert dict(thinking("ismcts", "spades", 0.5).settings) == {"time_limit": 0.5}
    assert dict(thinking("mc", "yugioh", 1.0).settings) == {"time_limit": 1.0}
    assert thinking("heuristic", "kozel", 2.0).settings == ()
    assert thinking("pimc", "kozel", 0.0).settings == ()
    bots = _make_bots([None, "pimc", "ismcts:time_limit=3", "heuristic"], random.Random(0), "kozel", 1.5)
    assert [getattr(bot, "time_limit", None) for bot in bots] == [None, 1.5, 3, None]


@pytest.mark.parametrize("value", ["-1", "nan", "inf"])
def test_a_bad_think_is_one_line(value: str) -> None:
    result = play(["--think", value, "--seed", "1"], "quit\n")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"--think must be 0 (no limit) or a number of seconds, not {value}\n" in result.output  # -1, not -1.0


def test_think_zero_replays_a_pimc_game_exactly(tmp_path: Path) -> None:
    # The help's promise: with no limit a seeded game against a searching bot is the same game.
    moves = "1\n" * 40 + "quit\n"
    records = []
    for n in (1, 2):
        out = tmp_path / f"{n}.json"
        result = play(["--rules", "classic", "--seed", "5", "--bots", "heuristic,pimc:worlds=4,heuristic",
                       "--think", "0", "--record", str(out)], moves)
        assert result.exit_code == 0, result.output
        records.append([a for deal in load_record(out)["deals"] for a in deal["actions"]])
    assert records[0] == records[1] and len(records[0]) > 10


@pytest.mark.parametrize("game,args,message", [
    ("kozel", ["--bots", "pimc:nope=1"], "error: bot 'pimc:nope=1': bot 'pimc' does not take the settings nope"),
    ("kozel", ["--bots", "pimc:worlds=-5"], "error: bot 'pimc:worlds=-5': pimc needs worlds >= 1, not -5"),
    ("spades", ["--bots", "ismcts:nope=1"], "error: bot 'ismcts:nope=1': bot 'ismcts' does not take the settings nope"),
    ("yugioh", ["--vs", "mc:nope=1"], "error: bot 'mc:nope=1': bot 'mc' does not take the settings nope"),
])
def test_a_refused_bot_spec_is_told_as_typed_without_the_think_cap(game: str, args: list[str], message: str) -> None:
    # --think adds time_limit to a searching bot; a mistake in the spec once named
    # "pimc:nope=1:time_limit=2.0" and said pimc "does not take the settings nope, time_limit".
    result = CliRunner().invoke(app, ["play", game, *args, "--seed", "1"], input="quit\n")
    assert result.exit_code == 2
    assert result.stderr.strip() == message


@pytest.mark.parametrize("game", ["kozel", "spades", "yugioh"])
def test_the_help_says_what_seed_and_option_take_without_them(game: str) -> None:
    # --seed showed no default ("Makes the whole game reproducible."): a person could not
    # tell that leaving it out plays a fresh game whose seed is printed.
    import typer.main

    command = typer.main.get_command(app)
    play_command = command.commands["play"].commands[game]  # type: ignore[attr-defined]
    helps = {p.name: getattr(p, "help", None) or "" for p in play_command.params}
    assert "default: a fresh seed, printed" in helps["seed"]
    assert "e.g." in helps["option"]


@pytest.mark.parametrize("game", ["kozel", "spades", "yugioh"])
def test_think_help_names_the_searching_bots_of_its_own_game(game: str) -> None:
    """``--think`` caps the bots that search; its help once listed Kozel's and
    Yu-Gi-Oh!'s together (``pimc, ismcts, mc``) under every game, so a duellist
    read of ``pimc`` and a Kozel player of ``mc``, bots their game does not have."""
    import inspect

    from goat.bots import bot_factory, bots_for, thinks
    from goat.cli.play import play_kozel, play_spades
    from goat.cli.play_yugioh import play_yugioh

    command = {"kozel": play_kozel, "spades": play_spades, "yugioh": play_yugioh}[game]
    help_text = inspect.signature(command).parameters["think"].default.help
    named = set(re.search(r"searching bot \(([^)]*)\)", help_text).group(1).split(", "))
    assert all(bot_factory(name, game) is not None and thinks(name, game) for name in named), named
    assert {name for name in bots_for(game) if thinks(name, game)} <= named


@pytest.mark.parametrize("typed", ["²", "① play 9H", "٣"])
def test_a_digit_int_does_not_read_is_a_re_prompt_not_a_traceback(typed: str) -> None:
    """"²" and "①" are digits to ``str.isdigit`` but not to ``int``: typed as a
    move, they ended the game in a ValueError traceback."""
    result = play(["--seed", "7"], f"{typed}\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert prompts(result.output) == 2          # asked again, game intact
    assert "Bye: game stopped." in result.output


@pytest.mark.parametrize("game, typed", [("kozel", "x" * 200_000), ("kozel", "pass " + "x" * 200_000),
                                         ("spades", "y" * 200_000)])
def test_a_huge_typed_line_is_told_in_one_short_line(game: str, typed: str) -> None:
    """A pasted megabyte was echoed whole in the refusal ("not a card: 'xxx…'"),
    a screenful of x's for one mistake; it keeps its two ends, as a record's
    problem line does (goat.records.shortened)."""
    result = CliRunner().invoke(app, ["play", game, "--seed", "7"], input=f"{typed}\nquit\n")
    assert result.exit_code == 0, result.output
    refusal = result.output[result.output.index(MOVE_PROMPT):].split("Bye")[0]
    assert len(refusal) < 2000
    assert "characters left out" in refusal


@pytest.mark.parametrize("rules", ["standard", "mirror"])
def test_spades_help_names_the_partnerships_for_every_seat(rules: str) -> None:
    """``help`` and ``--help`` said "you and seat + 2" are partners: seat 3's
    partner is seat 1, not a seat 5. Both name the pairs the score line shows."""
    from goat.cli.render_spades import rule_summary
    from goat.games.spades import new_state as new_spades

    summary = rule_summary(new_spades(rules).view(3))
    assert "partners sit opposite (seats 0+2 and 1+3)" in summary
    assert "seat + 2" not in summary
    shown = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["play", "spades", "--help"]).stdout
    assert "seat + 2" not in shown and "0+2 and 1+3" in shown


def test_an_out_of_turn_offer_answered_with_a_digit_int_does_not_read_lets_play_go_on() -> None:
    """Offered several molodkas out of turn, "²" (a digit to ``str.isdigit``, not
    to ``int``) ended the game in a ValueError; like any other answer but a
    listed number it declines."""
    from io import StringIO

    from rich.console import Console

    from goat.cli.play import KozelSession

    state = new_state("street")
    state.apply_chance(state.sample_chance(random.Random(1)))
    session = KozelSession(Console(file=StringIO()), state, 0, [None, None, None, None], None)  # type: ignore[arg-type]
    session.read = lambda prompt: "²"  # type: ignore[method-assign]
    offers = ["0 molodka 6S+9S+KS+AS", "0 molodka 6H+9H+KH+AH"]
    assert session.ask_out_of_turn(offers) is None
    session.read = lambda prompt: "2"  # type: ignore[method-assign]
    assert str(session.ask_out_of_turn(offers)) == offers[1]
