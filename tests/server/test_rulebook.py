"""The Rules panel's data (``GET /api/games/{game}/rules/{rules}``): for every
ruleset of every game and every player count it offers, the options are the
catalog's and the facts are the engine's own — the trump order and plain-suit
order of a dealt deal, the card points, the hand and stock sizes, the deck —
so the panel cannot drift from what the engine plays. Every ruleset also has
its text in every language of the page (``static/rules-presets.js``)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from goat.games import GAMES, get_game
from goat.games.kozel import CARD_POINTS
from goat.games.spades.rules import BEMO, BOSTON_POINTS, WHEELS_POINTS
from goat.server.runner import ServerThread

from .conftest import one_line

PRESET_TEXTS = Path(__file__).resolve().parents[2] / "src/goat/server/static/rules-presets.js"


@pytest.fixture
def http(start_server: Callable[..., ServerThread]) -> Iterator[httpx.Client]:
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=20) as client:
        yield client


def dealt(game: str, rules: str, players: int, options: dict[str, Any], seed: int) -> Any:
    """A new state of the engine with its first deal applied."""
    state = get_game(game).new_state(rules=rules, players=players, options=options)
    state.apply_chance(state.sample_chance(random.Random(seed)))
    return state


def order_of(state: Any, suit: str) -> list[str]:
    """The engine's order of one effective suit of the ruleset's deck, lowest first."""
    cards = [c for c in state.rules.deck_cards if state.order.suit_of(c) == suit]
    return [str(c) for c in sorted(cards, key=state.order.strength.__getitem__)]


def check_kozel(facts: dict[str, Any], state: Any) -> None:
    rules = state.rules
    assert facts["deck"] == [str(c) for c in rules.deck_cards]
    assert facts["hand_size"] == rules.hand_size == len(state.view(0)["hand"])
    assert facts["stock_size"] == rules.stock_size == state.view(0)["stock_size"]
    assert facts["card_points"] == {c.rank: CARD_POINTS[c.rank] for c in rules.deck_cards}
    assert facts["total_points"] == sum(CARD_POINTS[c.rank] for c in rules.deck_cards) == 120
    suit = state.order.trump_suit
    shown = facts["trump_orders"][suit]
    assert shown["trumps"] == [str(c) for c in state.order.trumps] == order_of(state, "trump")
    assert shown["plain"] == {s: order_of(state, s) for s in "CDHS" if order_of(state, s)}
    if rules.trump_suit == "drawn":
        assert sorted(facts["trump_orders"]) == sorted({c.suit for c in rules.deck_cards})
    else:
        assert list(facts["trump_orders"]) == [rules.trump_suit]
    assert facts["shamok"] == ("7C" if rules.has_shamok else None)
    if facts["shamok"]:
        assert shown["trumps"][-1] == "7C" and facts["permanent_trumps"][-1] == "7C"


def check_spades(facts: dict[str, Any], state: Any) -> None:
    assert facts["deck"] == [str(c) for c in state.rules.deck_cards]
    assert facts["hand_size"] == 13 == len(state.view(0)["hand"])
    assert facts["trumps"] == [str(c) for c in state.order.trumps] == order_of(state, "trump")
    assert facts["plain"] == {s: order_of(state, s) for s in "CDH"}
    assert facts["wheels"]["points"] == WHEELS_POINTS and facts["boston"]["points"] == BOSTON_POINTS
    assert {k: (v["tricks"], v["points"]) for k, v in facts["bemo"].items()} == BEMO


def test_every_ruleset_and_player_count_states_the_engines_facts(http: httpx.Client) -> None:
    catalog = http.get("/api/games").json()["games"]
    assert [g["name"] for g in catalog] == list(GAMES)
    for game in catalog:
        for preset in game["rules"]:
            for players in preset["players"]:
                answer = http.get(f"/api/games/{game['name']}/rules/{preset['name']}",
                                  params={"players": players}).json()
                assert answer["players"] == players
                assert answer["options"] == preset["options"][str(players)]
                if game["name"] == "yugioh":
                    assert answer["facts"] == {}
                    continue
                for seed in range(4):       # several deals: a drawn trump suit differs
                    state = dealt(game["name"], preset["name"], players, {}, seed)
                    (check_kozel if game["name"] == "kozel" else check_spades)(answer["facts"], state)


@pytest.mark.parametrize(("game", "rules", "options", "seed"), [
    ("kozel", "full-hand", {"trump_suit": "H"}, 0),
    ("kozel", "street", {"penalty": "flat2", "deck": "32"}, 1),
    ("kozel", "classic", {"trump_suit": "S", "match_target": 6}, 2),
    ("spades", "standard", {"jokers": True, "target": 300}, 3),
])
def test_a_tables_options_change_the_facts_as_they_change_the_engine(
        http: httpx.Client, game: str, rules: str, options: dict[str, Any], seed: int) -> None:
    answer = http.get(f"/api/games/{game}/rules/{rules}", params={"options": json.dumps(options)}).json()
    assert {k: answer["options"][k] for k in options} == options
    state = dealt(game, rules, 4, options, seed)
    (check_kozel if game == "kozel" else check_spades)(answer["facts"], state)


def test_a_bad_request_is_refused_in_one_line(http: httpx.Client) -> None:
    one_line(http.get("/api/games/chess/rules/classic"), 404, "chess")
    one_line(http.get("/api/games/kozel/rules/nope"), 400, "nope")
    one_line(http.get("/api/games/kozel/rules/classic", params={"players": 3}), 400, "players")
    one_line(http.get("/api/games/kozel/rules/classic", params={"options": '{"eggs": "many"}'}), 400, "eggs")
    one_line(http.get("/api/games/kozel/rules/classic", params={"options": '{"colour": 1}'}), 400, "colour")
    one_line(http.get("/api/games/kozel/rules/classic", params={"options": "{oops"}), 400, "JSON")
    one_line(http.get("/api/games/kozel/rules/classic", params={"options": "[1]"}), 400, "object")
    one_line(http.get("/api/games/kozel/rules/classic", params={"players": "four"}), 422, "players")


def preset_texts() -> dict[str, Any]:
    """The page's per-ruleset texts: the JSON object after ``export default``."""
    text = PRESET_TEXTS.read_text(encoding="utf-8")
    return json.loads(text.split("\nexport default", 1)[1].strip().rstrip(";"))


def test_every_ruleset_of_every_game_has_its_text_in_every_language() -> None:
    texts = preset_texts()
    for game in GAMES:
        for preset in get_game(game).PRESETS:
            for lang in ("ru", "en", "bg", "ar"):
                entry = texts.get(game, {}).get(preset, {}).get(lang, "")
                assert isinstance(entry, str) and len(entry) > 20, f"no {lang} text for {game} {preset!r}"
    assert set(texts) == set(GAMES)
    for game, presets in texts.items():     # no text left for a ruleset that is gone
        assert set(presets) <= set(get_game(game).PRESETS), game


def test_the_option_form_offers_only_options_that_can_matter_at_the_player_count(http: httpx.Client) -> None:
    """Kozel's partner exchanges need partners; ``match_loser`` (who is the goat when
    two reach the target in one deal) needs three players: the catalog the form is
    built from leaves each out where it cannot matter, and the rules panel agrees."""
    kozel = next(g for g in http.get("/api/games").json()["games"] if g["name"] == "kozel")
    full_hand = next(r for r in kozel["rules"] if r["name"] == "full-hand")["options"]
    assert {"partner_exchange", "forced_exchange"} <= set(full_hand["4"]) and "match_loser" not in full_hand["4"]
    assert full_hand["3"]["match_loser"] == "most-penalty"
    for players in ("2", "3"):
        assert not {"partner_exchange", "forced_exchange"} & set(full_hand[players])
    assert "match_loser" not in full_hand["2"]
    panel = http.get("/api/games/kozel/rules/full-hand", params={"players": 3}).json()
    assert panel["options"] == full_hand["3"]


def test_a_refused_combination_names_its_kind_for_the_page(http: httpx.Client) -> None:
    """The engine's refusal of options is said by kind (``say``, ``rulesErrors.<say>``
    on the page) with its JSON ``args`` beside the English line — on asking the
    rules and on making the table, which refuses it the same and makes none."""
    mirror = {"options": '{"blind_nil": true}'}
    answer = http.get("/api/games/spades/rules/mirror", params=mirror)
    one_line(answer, 400, "mirror", "blind_nil")
    assert (answer.json()["say"], answer.json()["args"]) == ("spadesMirrorClash",
                                                             {"option": "mirror", "options": ["blind_nil"]})
    made = http.post("/api/tables", json={"game": "kozel", "rules": "full-hand", "players": 3,
                                          "options": {"deck": "32"}})
    one_line(made, 400, "do not share out evenly")
    assert (made.json()["say"], made.json()["args"]) == ("kozelDeckShare", {"deck": "32", "players": 3})
    assert http.get("/api/tables").json()["tables"] == []
    unknown = http.get("/api/games/kozel/rules/classic", params={"options": '{"colour": [1]}'})
    assert (unknown.json()["say"], unknown.json()["args"]) == ("unknownOption", {"option": "colour"})
    bad = http.get("/api/games/kozel/rules/classic", params={"options": '{"eggs": {"a": 1}}'})
    assert (bad.json()["say"], bad.json()["args"]["value"]) == ("optionChoice", "{'a': 1}")
