"""Views hide what a seat may not know; the match (three duels, side-decking,
loser chooses); records through ``goat replay``; deck lists."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from goat.bots import make_bot
from goat.bots.base import play_bots
from goat.games.yugioh import DeckError, builtin_deck, new_state, parse_ydk, record_from_state
from goat.games.yugioh.scenario import play, scenario
from goat.protocol import play_out, play_random_steps
from goat.records import IllegalRecordError, MalformedRecordError, replay


def test_view_hides_hand_set_cards_and_deck_order() -> None:
    s = scenario(p0={"hand": ["Sangan", "Mirror Force"], "monsters": ["Morphing Jar:set"], "spells": ["Ring of Destruction"],
                     "fusion": ["Thousand-Eyes Restrict"]},
                 p1={"hand": ["Pot of Greed"]})
    play(s, ["0 set Mirror Force"])
    mine, theirs, spectator = s.view(0), s.view(1), s.view(None)
    assert mine["players"][0]["hand"] == ["Sangan"]
    assert theirs["players"][0]["hand"] is None and theirs["players"][0]["hand_count"] == 1
    assert mine["players"][0]["monsters"][0]["name"] == "Morphing Jar"
    text = json.dumps(theirs) + json.dumps(spectator)
    assert mine["players"][0]["fusion"] == ["Thousand-Eyes Restrict"] and theirs["players"][0]["fusion_count"] == 1
    for secret in ("Sangan", "Morphing Jar", "Mirror Force", "Ring of Destruction", "Thousand-Eyes Restrict"):
        assert secret not in text, secret
    assert "Pot of Greed" not in json.dumps(mine)
    assert "deck" not in json.dumps(mine["players"][0]).replace("deck_count", "")
    assert theirs["legal_actions"] == [] and mine["legal_actions"]


def test_random_views_never_leak_the_opponents_hand() -> None:
    state = new_state("goat", single_duel=True, seed=11)
    rng = random.Random(11)
    steps = 0
    while not state.is_terminal() and steps < 400:
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        duel = state.duel
        if duel is not None and steps % 7 == 0:
            for seat in (0, 1):
                view = state.view(seat)
                other = duel.players[1 - seat]
                assert view["players"][1 - seat]["hand"] is None
                hidden_set = [c.name for c in other.monsters + other.spells if c is not None and not c.face_up]
                for slot in view["players"][1 - seat]["monsters"] + view["players"][1 - seat]["spells"]:
                    if slot is not None and not slot["face_up"]:
                        assert slot["name"] == "?"
                assert len(hidden_set) == sum(1 for slot in view["players"][1 - seat]["monsters"]
                                              + view["players"][1 - seat]["spells"] if slot and slot["name"] == "?")
                for action in view["legal_actions"]:
                    for c in other.monsters:
                        if c is not None and not c.face_up:
                            assert f"{c.name}@{1 - seat}M{c.index + 1}" not in action
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        steps += 1


def test_match_side_decking_and_loser_chooses() -> None:
    state = new_state("goat", seed=5)
    rng = random.Random(5)
    saw_side = saw_loser_choice = False
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        pending = state.pending()
        if pending.kind == "side":
            saw_side = True
            swaps = [a for a in state.legal_texts() if " swap " in a]
            state.apply_action(swaps[0] if len(state.decks[pending.seat].main) == 40 and rng.random() < 0.5
                               else f"{pending.seat} done")
            assert len(state.decks[pending.seat].main) == 40 and len(state.decks[pending.seat].side) == 15
            continue
        if pending.kind == "first" and state.results and state.results[-1]["winner"] is not None:
            saw_loser_choice = True  # (after a drawn duel a coin toss chooses: seed 5's third duel)
            assert pending.seat == 1 - state.results[-1]["winner"]
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    assert saw_side and saw_loser_choice
    decided = [r for r in state.results if r["winner"] is not None]  # a drawn duel does not count (rule 10)
    assert max(state.wins) == 2 and 2 <= len(decided) <= 3


def test_greedy_bot_beats_random_more_often_than_not() -> None:
    wins = 0
    for seed in range(10):  # about 85% over 40 duels; 6 of 10 is the bar
        state = new_state("goat", single_duel=True, seed=seed)
        greedy_seat = seed % 2
        bots = [None, None]
        bots[greedy_seat] = make_bot("greedy", seed, game="yugioh")
        bots[1 - greedy_seat] = make_bot("random", seed, game="yugioh")
        play_bots(state, bots, random.Random(seed))
        wins += state.match_winner == greedy_seat
    assert wins >= 6


def test_record_roundtrip_and_goat_replay_check(tmp_path: Path) -> None:
    state = new_state("goat", single_duel=True, seed=2)
    play_out(state, lambda s: s.legal_actions()[-1], random.Random(2))
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(record_from_state(state)))
    cmd = [sys.executable, "-m", "goat.cli.main", "replay", str(path)]
    ok = subprocess.run(cmd + ["--check"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    shown = subprocess.run(cmd + ["--json"], capture_output=True, text=True)
    assert json.loads(shown.stdout) == state.result()
    # An illegal decision: exit 1 naming the action.
    record = record_from_state(state)
    record["actions"][3] = "0 summon Blue-Eyes White Dragon"
    path.write_text(json.dumps(record))
    bad = subprocess.run(cmd + ["--check"], capture_output=True, text=True)
    assert bad.returncode == 1 and 'action 3 "0 summon Blue-Eyes White Dragon"' in bad.stderr
    # A tampered result: exit 1.
    record = record_from_state(state)
    record["result"]["wins"] = [9, 9]
    path.write_text(json.dumps(record))
    assert subprocess.run(cmd + ["--check"], capture_output=True, text=True).returncode == 1


@pytest.mark.parametrize("mutate, message", [
    (lambda r: r["decks"][0]["main"].append("Raigeki"), "Forbidden"),
    (lambda r: r["decks"][0]["main"].append("Pot of Greed"), "Limited"),
    (lambda r: r["decks"][1].update(main=["Sangan"]), "at least 40"),
    (lambda r: r.update(rules="speed"), "unknown Yu-Gi-Oh! ruleset"),
    (lambda r: r.update(options={"nope": 1}), "unknown yugioh option"),
    (lambda r: r.update(chance=[0, ["Sangan"]]), "shuffle"),
])
def test_malformed_records_exit_2(tmp_path: Path, mutate, message: str) -> None:
    state = new_state("goat", single_duel=True, seed=1)
    play_out(state, lambda s: s.legal_actions()[0], random.Random(1))
    record = record_from_state(state)
    mutate(record)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    run = subprocess.run([sys.executable, "-m", "goat.cli.main", "replay", str(path), "--check"],
                         capture_output=True, text=True)
    assert message in run.stderr and "Traceback" not in run.stderr
    assert run.returncode == (1 if message == "shuffle" else 2)
    assert len(run.stderr.strip().splitlines()) == 1


def _started_duel_record() -> dict:
    state = new_state("goat", single_duel=True, seed=1)
    play_random_steps(state, random.Random(1), 40)
    return record_from_state(state)


@pytest.mark.parametrize("field, value, message", [
    ("options", [], '"options" must be an object'),       # was read as no options
    ("options", 0, '"options" must be an object'),
    ("players", 2.0, '"players" must be 2 for yugioh'),    # was read as 2
    ("players", True, '"players" must be 2 for yugioh'),
    ("seed", "1", '"seed" must be a whole number, not "1"'),  # was dropped unread beside "chance"
    ("seed", True, '"seed" must be a whole number, not true'),
])
def test_a_field_of_the_wrong_type_is_malformed_not_read_as_another_value(field: str, value, message: str) -> None:
    record = _started_duel_record()
    record[field] = value
    with pytest.raises(MalformedRecordError) as info:
        replay(record)
    assert str(info.value) == message


def test_null_options_and_players_are_the_presets_as_for_the_card_games() -> None:
    record = _started_duel_record()
    record.update(options=None, players=None)
    assert replay(record).result == record["result"]


@pytest.mark.parametrize("toss", [1.0, True, "1"])
def test_a_coin_toss_is_the_whole_number_0_or_1(toss) -> None:
    """A toss of ``1.0`` passed ``in (0, 1)`` and became the seat "1.0" to choose:
    the next action was refused as "seat 1.0 is to decide" (and a rewritten record kept 1.0)."""
    record = _started_duel_record()
    assert record["chance"][0] in (0, 1)
    record["chance"][0] = toss
    with pytest.raises(IllegalRecordError) as info:
        replay(record)
    assert str(info.value) == f"chance 0: a coin toss is 0 or 1, not {json.dumps(toss)}"


def test_ydk_loading_by_name() -> None:
    deck = parse_ydk("#created by someone\n#main\nsangan\nPOT OF GREED\n#extra\nThousand-Eyes Restrict\n!side\n")
    assert deck.main == ("Sangan", "Pot of Greed") and deck.fusion == ("Thousand-Eyes Restrict",)
    with pytest.raises(DeckError, match="line 2: unknown card 'Sangen'"):
        parse_ydk("#main\nSangen\n")
    with pytest.raises(DeckError, match="passcodes"):
        parse_ydk("#main\n26202165\n")
    assert parse_ydk(builtin_deck().to_ydk()) == builtin_deck()


def test_cli_play_runs_and_quits(tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    run = subprocess.run([sys.executable, "-m", "goat.cli.main", "play", "yugioh", "--vs", "random", "--seed", "3",
                          "--record", str(record), "--seat", "1", "--name", "Dora"], input="1\n1\n1\nquit\n", capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Record written" in run.stdout
    assert json.loads(record.read_text())["seats"] == [{"name": "random bot", "bot": "random"}, {"name": "Dora"}]
    check = subprocess.run([sys.executable, "-m", "goat.cli.main", "replay", str(record), "--check"],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    bad = subprocess.run([sys.executable, "-m", "goat.cli.main", "play", "yugioh", "--deck", str(tmp_path / "no.ydk")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: cannot read deck")


def test_terminal_log_marks_whose_line_it_is() -> None:
    """The terminal log colours the viewer's own lines and the opponent's apart
    (the engine's text names seats only by number), and escapes card names."""
    from goat.cli.play_yugioh import log_line

    mine = {"text": "0 draws Sangan", "say": {"key": "drawsCard", "args": {"seat": 0, "card": "Sangan"}}}
    theirs = {"text": "1 draws a card", "say": {"key": "draws", "args": {"seat": 1}}}
    neutral = {"text": "turn 1 ends", "say": {"key": "turnEnds", "args": {"n": 1}}}
    assert log_line(mine, 0) == "  [green]0 draws Sangan[/]"
    assert log_line(theirs, 0) == "  [yellow]1 draws a card[/]"
    assert log_line(mine, 1).startswith("  [yellow]") and log_line(theirs, 1).startswith("  [green]")
    assert log_line(neutral, 0) == "  turn 1 ends"
    assert log_line({"text": "[bold] x"}, 0) == "  \\[bold] x"
