"""The HTTP lobby: create a table, take seats, add bots, start; every refusal
is a one-line ``{"error": ...}`` with a fitting status and changes nothing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from goat.games.kozel import make_rules
from goat.games.spades import OPTION_FALLBACKS as SPADES_FALLBACKS
from goat.games.spades import make_rules as make_spades
from goat.server.app import ERROR_CHARS
from goat.server.runner import ServerThread
from goat.server.settings import Settings
from goat.server.storage import AsyncStorage, Storage
from goat.server.tables import LobbyError, Tables

from .conftest import Client, Lobby, run


@pytest.fixture
def http(start_server: Callable[..., ServerThread]) -> httpx.Client:
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=20) as client:
        yield client


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert isinstance(message, str) and "\n" not in message
    return message


def seats(http: httpx.Client, table: str) -> list[dict[str, Any]]:
    return http.get(f"/api/tables/{table}").json()["seats"]


def test_a_body_that_is_not_json_or_nested_too_deeply_is_one_error_line(http: httpx.Client) -> None:
    """Every refusal has the lobby's shape: broken JSON said ``1: JSON decode error``
    (a character offset for a field name), and JSON nested too deeply for the parser,
    like an unknown path, came back as FastAPI's ``{"detail": ...}``."""
    json_type = {"content-type": "application/json"}
    assert error(http.post("/api/tables", content="{oops", headers=json_type), 422).startswith("body: not JSON")
    assert error(http.post("/api/tables", content="[" * 3000 + "]" * 3000, headers=json_type), 400)
    assert error(http.get("/api/no-such-thing"), 404)
    assert http.get("/api/tables").json()["tables"] == []


def test_a_request_body_over_a_mebibyte_is_refused_with_one_line(http: httpx.Client) -> None:
    """A 2 MB ``POST /api/tables`` used to be read whole and make a table (the name cut
    to 24 characters): nothing bounded what a client could make the server hold. Declared
    or streamed without a length, a body over 1 MiB is a 413 and makes nothing."""
    big = b'{"name": "' + b"x" * (2 * 1024 * 1024) + b'", "seat": 0}'
    assert "at most 1024 KiB" in error(http.post("/api/tables", content=big,
                                                 headers={"content-type": "application/json"}), 413)

    def chunks() -> Iterator[bytes]:       # no Content-Length: counted as it arrives
        yield b'{"name": "'
        for _ in range(40):
            yield b"x" * 64 * 1024
        yield b'"}'

    assert "at most 1024 KiB" in error(http.post("/api/tables", content=chunks(),
                                                 headers={"content-type": "application/json"}), 413)
    assert http.get("/api/tables").json()["tables"] == []
    assert http.post("/api/tables", json={"name": "x" * 24, "seat": 0}).status_code == 201   # under it: as before


def test_catalog_lists_rulesets_player_counts_and_table_bots(http: httpx.Client) -> None:
    games = http.get("/api/games").json()
    kozel = {r["name"]: r for r in games["games"][0]["rules"]}
    assert games["games"][0]["name"] == "kozel"
    assert kozel["full-hand"]["players"] == [2, 3, 4] and kozel["classic"]["players"] == [4]
    assert "heuristic" in games["bots"] and "random" in games["bots"]
    assert "perfect" not in games["bots"]  # it sees every card: not at a table of people


def test_catalog_offers_spades_with_its_options_and_choices(http: httpx.Client) -> None:
    games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
    spades = {r["name"]: r for r in games["spades"]["rules"]}
    assert spades["standard"]["players"] == [4] and spades["standard"]["default_players"] == 4
    standard = spades["standard"]["options"]["4"]
    assert standard["double_nil"] is False and standard["blind_nil"] is True and standard["target"] == 500
    assert standard["lose_at"] is None and "players" not in standard
    assert spades["joker-trumps"]["options"]["4"]["jokers"] is True
    assert spades["bemo"]["options"]["4"]["bemo_one_per_team"] is False     # the form offers it off
    assert games["spades"]["choices"]["spades_broken_by"] == ["any-spade", "trumping", "never"]
    # Each game lists the bots that play it: Spades' pimc is its own (on DDS), and
    # perfect (which sees every card) sits at no table with people.
    assert "pimc" in games["kozel"]["bots"] and "perfect" not in games["spades"]["bots"]
    assert {"random", "heuristic", "ismcts", "pimc"} <= set(games["spades"]["bots"])
    # A preset's values may depend on the player count: the catalog lists them per count.
    full = {r["name"]: r for r in games["kozel"]["rules"]}["full-hand"]["options"]
    assert (full["3"]["deck"], full["4"]["deck"]) == ("24", "32")
    assert games["kozel"]["choices"]["trump_suit"] == ["drawn", "C", "D", "H", "S"]


def test_catalog_sends_each_games_option_dependencies_for_the_live_form(http: httpx.Client) -> None:
    """The form shows an option's row only while the values chosen let it matter:
    the catalog sends every option a player count allows (classic's molodka,
    street's jack order, hidden until their needs hold) and the rules' one table
    of what each needs, all of an object or any object of a list (Spades' blind
    nil margin: blind nil or double nil); options no value can bring in at a
    count stay out."""
    games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
    kozel = {r["name"]: r["options"] for r in games["kozel"]["rules"]}
    needs = games["kozel"]["needs"]
    assert {"molodka", "max_molodka_per_trick", "max_lead"} <= set(kozel["classic"]["4"])
    assert "jack_order" in kozel["street"]["4"] and "must_follow_trump" in kozel["street"]["4"]
    assert needs["jack_order"] == {"permanent_trumps": [True]}
    assert needs["molodka"] == {"trick_style": ["street"]} and needs["must_follow_trump"] == {"trick_style": ["single"]}
    assert needs["max_molodka_per_trick"] == {"trick_style": ["street"], "molodka": [True]}
    assert "partner_exchange" not in kozel["full-hand"]["3"] and "match_loser" not in kozel["full-hand"]["4"]
    assert needs["trump_lead"] == {"trick_style": ["single"]}           # street takes only "free"
    spades_needs = games["spades"]["needs"]
    assert spades_needs["double_nil_points"] == {"double_nil": [True]}
    assert spades_needs["blind_nil_behind"] == [{"blind_nil": [True]}, {"double_nil": [True]}]
    assert games["yugioh"]["needs"] == {}

    def matters(need: dict[str, list[Any]] | list[dict[str, list[Any]]], options: dict[str, Any]) -> bool:
        return any(all(options[o] in v for o, v in way.items()) for way in (need if isinstance(need, list) else [need]))

    spades = {r["name"]: r["options"] for r in games["spades"]["rules"]}
    for make, game_needs, name, options in (
            (make_rules, needs, "classic", kozel["classic"]["4"]), (make_rules, needs, "street", kozel["street"]["4"]),
            (make_spades, spades_needs, "standard", spades["standard"]["4"]),
            (make_spades, spades_needs, "mirror", spades["mirror"]["4"])):
        rules = make(name)           # the table agrees with the rules' own answers at the preset
        assert all(rules.applies(key) == matters(game_needs.get(key, {}), options) for key in options)
    assert not matters(spades_needs["blind_nil_behind"], spades["mirror"]["4"])   # neither blind bid


def test_catalog_sends_the_values_the_rules_force_where_an_option_cannot_matter(http: httpx.Client) -> None:
    """Beside ``needs`` the catalog sends each game's fallbacks, the one value an
    option takes where it cannot matter (street tricks: a free trump lead, no
    permanent trumps). With them the form reads classic made street as the rules
    do: a hidden row's forced value counts as its value, so the permanent trumps'
    row hides and the jacks' order and the shamok's rows with it; it sends only
    the trick style, and the server makes that table."""
    games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
    kozel = games["kozel"]
    needs, forced = kozel["needs"], kozel["fallbacks"]
    assert forced["permanent_trumps"] is False and forced["trump_lead"] == "free"
    assert needs["permanent_trumps"] == {"trick_style": ["single"]}
    assert games["spades"]["fallbacks"] == SPADES_FALLBACKS and games["yugioh"]["fallbacks"] == {}

    def matters(key: str, values: dict[str, Any]) -> bool:
        return all(values[o] in v for o, v in needs.get(key, {}).items())

    classic = {r["name"]: r["options"] for r in kozel["rules"]}["classic"]["4"]
    values = classic | {"trick_style": "street"}
    while any(values[key] != value and not matters(key, values) for key, value in forced.items()):
        values |= {key: value for key, value in forced.items() if not matters(key, values)}
    hidden = {key for key in classic if not matters(key, values)}
    assert {"permanent_trumps", "jack_order", "shamok_catches_queen", "shamok_penalty", "trump_lead"} <= hidden
    rules = make_rules("classic")
    assert all(rules.applies(key, {"trick_style": "street"}) == (key not in hidden) for key in classic)
    created = http.post("/api/tables", json={"game": "kozel", "rules": "classic", "options": {"trick_style": "street"}})
    assert created.status_code == 201, created.text
    assert created.json()["options"] == {"trick_style": "street"}


def test_a_spades_table_with_options(http: httpx.Client) -> None:
    body = {"game": "spades", "rules": "standard", "options": {"double_nil": True, "blind_nil_behind": 0},
            "name": "Ann"}
    created = http.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table = created.json()
    assert (table["game"], table["rules"], table["players"]) == ("spades", "standard", 4)
    assert table["options"] == {"double_nil": True, "blind_nil_behind": 0}
    assert http.get("/api/tables").json()["tables"][0]["game"] == "spades"
    plain = http.post("/api/tables", json={"game": "spades"})           # no rules: the game's first preset
    assert plain.status_code == 201 and plain.json()["rules"] == "standard"
    tid = plain.json()["id"]
    token = http.post(f"/api/tables/{tid}/seats/0", json={"name": "Ann"}).json()["token"]
    assert "no bot 'greedy' for spades" in error(
        http.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "greedy"}, headers=auth(token)), 400)
    assert http.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "ismcts"}, headers=auth(token)).status_code == 200
    refused = http.post("/api/tables", json={"game": "spades", "options": {"mirror": True}})
    assert "option mirror forces every bid" in error(refused, 400)
    assert "option players=3 is not allowed" in error(
        http.post("/api/tables", json={"game": "spades", "rules": "standard", "players": 3}), 400)


def test_create_sit_fill_with_bots_and_start(http: httpx.Client) -> None:
    created = http.post("/api/tables", json={"rules": "full-hand", "players": 3, "name": "  Аня\n "})
    assert created.status_code == 201
    body = created.json()
    table, token = body["id"], body["token"]
    assert body["url"].endswith(f"/?table={table}") and body["players"] == 3 and body["seat"] == 0
    first = seats(http, table)[0]
    assert 0 < first.pop("free_in") <= 60            # no page open: freed by others after the grace (60 s)
    assert first | {"connected": False} == {
        "seat": 0, "kind": "human", "name": "Аня", "bot": None, "connected": False, "autoplay": False}
    assert token not in http.get(f"/api/tables/{table}").text  # tokens are never shown again

    friend = http.post(f"/api/tables/{table}/seats/1", json={"name": "Boris"}).json()["token"]
    assert friend != token
    assert error(http.post(f"/api/tables/{table}/start", headers=auth(token)), 409) == \
        "fill every seat first (empty: 2)"
    assert http.post(f"/api/tables/{table}/seats/2/bot", json={"bot": "random"}, headers=auth(friend)).status_code == 200
    assert [s["kind"] for s in seats(http, table)] == ["human", "human", "bot"]
    assert http.get("/api/tables").json()["tables"][0]["id"] == table
    started = http.post(f"/api/tables/{table}/start", headers=auth(token))
    assert started.status_code == 200 and started.json()["status"] == "playing"
    assert error(http.post(f"/api/tables/{table}/start", headers=auth(token)), 409) == "the game has already started"
    assert error(http.post(f"/api/tables/{table}/seats/2/bot", json={}, headers=auth(token)), 409) == \
        "the game has started"


def test_refusals_change_nothing(http: httpx.Client) -> None:
    table = http.post("/api/tables", json={"name": "Ann"}).json()
    tid, token = table["id"], table["token"]
    before = seats(http, tid)
    cases = [
        (http.post("/api/tables", json={"rules": "bridge"}), 400, "unknown Kozel ruleset 'bridge'"),
        (http.post("/api/tables", json={"options": {"eggs": "many"}}), 400, "option eggs='many' is not allowed"),
        (http.post("/api/tables", json={"rules": "street", "players": 3}), 400, "players=3 is not allowed"),
        (http.post("/api/tables", json={"game": "chess"}), 400, "unknown game 'chess'"),
        (http.post("/api/tables", json={"players": "four"}), 422, "players"),
        (http.post("/api/tables", json={"seed": "x" * 65}), 400, "a seed has at most 64 characters"),
        (http.get("/api/tables/0123456789"), 404, "there is no table '0123456789'"),
        (http.get("/api/tables/../etc"), 404, None),
        (http.post(f"/api/tables/{tid}/seats/0", json={"name": "Eve"}), 409, "seat 0 is taken"),
        (http.post(f"/api/tables/{tid}/seats/7", json={"name": "Eve"}), 404, "there is no seat 7"),
        (http.post(f"/api/tables/{tid}/seats/1", json={"name": " \t"}), 400, "say a name"),
        (http.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "heuristic"}), 403, "take a seat first"),
        (http.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "heuristic"}, headers=auth("forged")), 403,
         f"that token holds no seat at table {tid}"),
        (http.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "perfect"}, headers=auth(token)), 400,
         "no bot 'perfect' for kozel"),
        (http.post(f"/api/tables/{tid}/seats/0/bot", json={"bot": "random"}, headers=auth(token)), 409,
         "seat 0 is held by Ann"),
        (http.post(f"/api/tables/{tid}/start", headers=auth("forged")), 403, "that token holds no seat"),
        (http.get(f"/api/tables/{tid}/record"), 409, "the game is not over"),
    ]
    for response, status, needle in cases:
        if needle is None:
            assert response.status_code == status
        else:
            assert needle in error(response, status)
    assert seats(http, tid) == before


@pytest.mark.parametrize("body, field", [
    ({"name": "Ann", "privat": True}, "privat"),                  # would be a public table
    ({"name": "Ann", "option": {"match_target": 6}}, "option"),   # would play to 12
    ({"name": "Ann", "rule": "street"}, "rule"),                  # would be classic
    ({"name": "Ann", "move_second": 30}, "move_second"),          # would have no clock
])
def test_a_misspelt_field_makes_no_table(http: httpx.Client, body: dict[str, Any], field: str) -> None:
    """A field the lobby does not know is refused with one line naming it, not
    ignored: the organiser's table would silently lack what they asked for."""
    before = http.get("/api/tables").json()["tables"]
    assert error(http.post("/api/tables", json=body), 422) == f"{field}: unknown field (misspelt?)"
    assert http.get("/api/tables").json()["tables"] == before
    created = http.post("/api/tables", json={"name": "Ann"}).json()
    tid, token = created["id"], created["token"]
    assert error(http.post(f"/api/tables/{tid}/seats/1", json={"name": "Bo", "seat": 2}), 422) == \
        "seat: unknown field (misspelt?)"
    assert error(http.post(f"/api/tables/{tid}/seats/1/bot", json={"bots": "random"}, headers=auth(token)),
                 422) == "bots: unknown field (misspelt?)"    # would seat the default bot
    assert [s["kind"] for s in seats(http, tid)] == ["human", "empty", "empty", "empty"]


@pytest.mark.parametrize("body, field", [
    ({"name": "Ann", "players": "4"}, "players"),     # text: a broken client, not four players
    ({"name": "Ann", "players": 4.0}, "players"),
    ({"name": "Ann", "players": True}, "players"),    # true is not 1 player
    ({"name": "Ann", "seat": "1"}, "seat"),
    ({"name": "Ann", "seed": 1.5}, "seed"),           # not rounded to a seed of 1
    ({"name": "Ann", "seed": [1]}, "seed"),
])
def test_a_number_of_the_wrong_type_makes_no_table(http: httpx.Client, body: dict[str, Any], field: str) -> None:
    """The lobby's numbers are JSON numbers (the page sends them so): text, a
    float or a boolean is refused with one line naming the field, not coerced."""
    before = http.get("/api/tables").json()["tables"]
    assert error(http.post("/api/tables", json=body), 422).startswith(f"{field}")
    assert http.get("/api/tables").json()["tables"] == before
    assert http.post("/api/tables", json={**body, field: 2 if field != "players" else 4}).status_code == 201


def test_a_name_already_at_the_table_is_refused_as_the_standings_would_merge_it(http: httpx.Client) -> None:
    """Two people called "Anna" at one table would be one person on the score
    sheet and in the standings (a win and a loss of one match, sitting on both
    sides): a name someone at the table already has — case and spaces folded,
    as the standings fold them — is refused and changes nothing; a bot's name,
    another name, or the name of someone who left is free."""
    created = http.post("/api/tables", json={"name": "Anna"}).json()
    tid, token = created["id"], created["token"]
    http.post(f"/api/tables/{tid}/seats/3/bot", json={"bot": "heuristic"}, headers=auth(token))
    before = seats(http, tid)
    for seat, name in [(1, "anna"), (2, "  ANNA "), (1, "Anna\t")]:
        refused = http.post(f"/api/tables/{tid}/seats/{seat}", json={"name": name})
        assert "Anna already sits at seat 0" in error(refused, 409)
    assert seats(http, tid) == before
    assert http.post(f"/api/tables/{tid}/seats/1", json={"name": "Anna K"}).status_code == 200
    assert http.post(f"/api/tables/{tid}/seats/2", json={"name": "heuristic bot"}).status_code == 200
    assert http.delete(f"/api/tables/{tid}/seats/0", headers=auth(token)).status_code == 200
    assert http.post(f"/api/tables/{tid}/seats/0", json={"name": "anna"}).status_code == 200


def test_refusals_a_person_meets_name_their_sentence_for_the_page(http: httpx.Client) -> None:
    """A refusal the page can show in its own language carries ``say`` (a key of
    i18n.js's ``lobbyErrors``) and its ``args``; the English line stays."""
    created = http.post("/api/tables", json={"name": "Ann"}).json()
    tid, token = created["id"], created["token"]
    cases = [
        (http.post(f"/api/tables/{tid}/seats/0", json={"name": "Eve"}), 409, "seatTaken", {"seat": 0}),
        (http.post(f"/api/tables/{tid}/seats/0/bot", json={"bot": "random"}, headers=auth(token)), 409,
         "seatHeld", {"seat": 0, "name": "Ann"}),
        (http.post(f"/api/tables/{tid}/seats/7", json={"name": "Eve"}), 404, "noSeat", {"seat": 7}),
        (http.post(f"/api/tables/{tid}/seats/1", json={"name": " ann "}), 409, "nameTaken", {"seat": 0, "name": "Ann"}),
        (http.post(f"/api/tables/{tid}/seats/1", json={"name": " "}), 400, "sayName", {}),
        (http.post(f"/api/tables/{tid}/start", headers=auth(token)), 409, "fillSeats", {}),
        (http.get("/api/tables/0123456789"), 404, "noTable", {}),
    ]
    for response, status, say, args in cases:
        error(response, status)
        body = response.json()
        assert (body["say"], body["args"]) == (say, args)
    # a request the page never sends keeps the plain line (a ruleset the engine
    # refuses names its kind, for the options form: test_rulebook)
    plain = http.post("/api/tables", json={"seed": "7" * 65})
    assert "say" not in plain.json() and "seed" in error(plain, 400)


def test_every_refusal_sentence_is_in_both_languages() -> None:
    """Each ``say=`` of a LobbyError in the server, and each kind of deck problem
    the Yu-Gi-Oh! deck check names (passed on as ``say``), names a ``lobbyErrors``
    entry that i18n.js has in English and in Russian (the page falls back to the
    English line of the server otherwise: silently, so this test is what notices).
    A deck problem's sentences fill in only the arguments the problem has."""
    import re
    from pathlib import Path

    from goat.games.yugioh.deck import DECK_PROBLEMS
    from goat.games.yugioh.prompts import template_fields

    server = Path(__file__).resolve().parents[2] / "src" / "goat" / "server"
    said = set()
    for path in server.glob("*.py"):
        said |= set(re.findall(r'say="(\w+)"', path.read_text(encoding="utf-8")))
    assert {"seatTaken", "serverFull", "tableClosed", "deckProblems", "deckEmpty"} <= said
    strings = (server / "static" / "i18n.js").read_text(encoding="utf-8")
    blocks = re.findall(r"lobbyErrors: \{(.*?)\n    \},", strings, re.S)
    assert len(blocks) == 2
    for block in blocks:
        texts = dict(re.findall(r'^\s+(\w+): "(.*)",$', block, re.M))
        assert said | set(DECK_PROBLEMS) <= set(texts)
        for kind, template in DECK_PROBLEMS.items():   # a line a problem was read at comes before it (atLine)
            assert set(re.findall(r"\{(\w+)[}|]", texts[kind])) <= template_fields(template), kind


def test_a_refused_creator_leaves_no_table_behind(http: httpx.Client) -> None:
    """A table whose creator cannot sit (a blank name, no such seat) is refused
    whole: no ownerless lobby stays in the list of open tables, nor under its id."""
    for body, status, needle in (({"name": " \t"}, 400, "say a name"),
                                 ({"name": "Ann", "seat": 9}, 404, "there is no seat 9")):
        assert needle in error(http.post("/api/tables", json=body), status)
    assert http.get("/api/tables").json()["tables"] == []
    # The answer to a creation shows the table as it is: the creator's seat taken.
    created = http.post("/api/tables", json={"name": "Ann", "seat": 1}).json()
    assert [s["kind"] for s in created["seats"]] == ["empty", "human", "empty", "empty"]
    assert created["seats"] == seats(http, created["id"])
    assert [t["id"] for t in http.get("/api/tables").json()["tables"]] == [created["id"]]


def test_leaving_and_removing_bots_before_the_start(http: httpx.Client) -> None:
    table = http.post("/api/tables", json={"name": "Ann"}).json()
    tid, ann = table["id"], table["token"]
    bob = http.post(f"/api/tables/{tid}/seats/1", json={"name": "Bob"}).json()["token"]
    http.post(f"/api/tables/{tid}/seats/2/bot", json={"bot": "heuristic"}, headers=auth(ann))
    assert "keeps seat 1 for" in error(http.delete(f"/api/tables/{tid}/seats/1", headers=auth(ann)), 409)
    assert http.delete(f"/api/tables/{tid}/seats/2", headers=auth(bob)).status_code == 200
    assert http.delete(f"/api/tables/{tid}/seats/1", headers=auth(bob)).status_code == 200
    assert [s["kind"] for s in seats(http, tid)] == ["human", "empty", "empty", "empty"]
    assert error(http.post(f"/api/tables/{tid}/start", headers=auth(bob)), 403)  # Bob's token is void now



def test_the_seat_of_a_person_who_left_the_lobby_may_be_freed_after_the_grace_period(
        start_server: Callable[..., ServerThread]) -> None:
    """Bob sat, then closed his page: once he has been offline for the grace
    period anyone at the table may free his seat (before, only Bob could, and the
    table could start only with him, a bot playing his seat and the standings
    counting the match as his). While his page is open, or within the grace
    period, the seat stays his, with the sentence saying which."""
    server = start_server(grace_seconds=1.0)

    async def walk() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(name="Ann")
        tid, ann = created["id"], created["token"]
        bob = await lobby.sit(tid, 1, "Bob")
        async with Client(server.ws_url, tid, bob):
            here = await lobby.http.delete(f"/api/tables/{tid}/seats/1", headers=auth(ann))
            assert (here.status_code, here.json()["say"]) == (403, "seatBelongs")
            assert "free_in" not in (await lobby.http.get(f"/api/tables/{tid}")).json()["seats"][1]
        while (await lobby.http.get(f"/api/tables/{tid}")).json()["seats"][1]["connected"]:
            await asyncio.sleep(0.02)   # the server has seen his page close
        # the lobby's view says when the seat may be freed, as the refusal does
        assert (await lobby.http.get(f"/api/tables/{tid}")).json()["seats"][1]["free_in"] == 1
        away = await lobby.http.delete(f"/api/tables/{tid}/seats/1", headers=auth(ann))
        assert away.status_code == 409 and away.json()["say"] == "seatAway", away.text
        assert away.json()["args"] == {"seat": 1, "name": "Bob", "seconds": 1}
        await asyncio.sleep(1.1)
        assert (await lobby.http.get(f"/api/tables/{tid}")).json()["seats"][1]["free_in"] == 0
        gone = await lobby.http.delete(f"/api/tables/{tid}/seats/1", headers=auth(ann))
        assert gone.status_code == 200, gone.text
        assert [s["kind"] for s in (await lobby.http.get(f"/api/tables/{tid}")).json()["seats"]] == \
            ["human", "empty", "empty", "empty"]
        # his token is void now, and his name free for whoever sits next
        assert (await lobby.http.post(f"/api/tables/{tid}/start", headers=auth(bob))).status_code == 403
        await lobby.sit(tid, 2, "Bob")
        await lobby.close()

    run(walk())


class Tab:
    """A page's connection as the table sees one (:class:`goat.server.tables.Connection`)."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.got: list[dict[str, Any]] = []

    def deliver(self, text: str) -> None:
        self.got.append(json.loads(text))

    def revoke(self) -> None:
        self.seat = None

    def gone(self) -> bool:
        return False   # its client is there


def test_only_a_person_seated_at_the_table_frees_a_seat_and_a_page_coming_back_as_it_goes_is_refused(
        tmp_path: Path) -> None:
    """Who may free the seat of a person who left: not a spectator, not someone
    seated at another table, not the freed token. Bob's page coming back and Ann
    freeing his seat at the same moment are decided under the table's lock: the
    first wins, and the other is refused whole (his page is told its key is void
    and sees nothing of the seat; or her request is a 403 while his page is open)."""
    settings = Settings(data_dir=tmp_path, grace_seconds=0.0)

    async def scenario() -> None:
        store = AsyncStorage(Storage(settings.url))
        tables = Tables(settings, store)
        try:
            table, other = await tables.create("kozel", "classic"), await tables.create("kozel", "classic")
            ann, bob = await table.take_seat(0, "Ann"), await table.take_seat(1, "Bob")
            eve = await other.take_seat(0, "Eve")
            for token, say in ((None, "manageSeat"), (eve, "wrongToken")):
                with pytest.raises(LobbyError) as refused:
                    await table.clear_seat(1, token)
                assert (refused.value.status, refused.value.say) == (403, say)

            back = Tab()
            hello = asyncio.create_task(table.attach(back, bob))      # his page first...
            freeing = asyncio.create_task(table.clear_seat(1, ann))   # ...then her request
            await hello
            with pytest.raises(LobbyError) as refused:
                await freeing
            assert (refused.value.status, refused.value.say) == (403, "seatBelongs")
            table.detach(back)                                         # he closes the page again

            late = Tab()
            freeing = asyncio.create_task(table.clear_seat(1, ann))   # her request first...
            hello = asyncio.create_task(table.attach(late, bob))      # ...then his page
            await freeing
            with pytest.raises(LobbyError) as refused:
                await hello
            assert refused.value.say == "wrongToken" and late not in table.connections and not late.got
            assert (table.seats[1].kind, table.seats[1].connections) == ("empty", 0)
            with pytest.raises(LobbyError) as refused:                 # his old token frees nothing
                await table.clear_seat(0, bob)
            assert (refused.value.status, refused.value.say) == (403, "wrongToken")
            assert table.seats[0].name == "Ann"
            await tables.close()
        finally:
            store.close()

    asyncio.run(scenario())


def test_the_page_and_its_assets_are_served(http: httpx.Client) -> None:
    page = http.get("/")
    assert page.status_code == 200 and '<html lang="ru">' in page.text and 'aria-live="polite"' in page.text
    for asset, needle in [("app.js", "new WebSocket"), ("style.css", "@media"), ("i18n.js", "Козёл"),
                          ("cards.js", "♠"), ("table.js", "export const S"), ("kozel.js", "export const kozel"),
                          ("spades.js", "export const spades"), ("yugioh.js", "export const yugioh"),
                          ("ygocards.js", "export function loadCatalog")]:
        response = http.get(f"/static/{asset}")
        assert response.status_code == 200 and needle in response.text


def test_a_full_server_refuses_new_tables(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(max_tables=2)
    with httpx.Client(base_url=server.url, timeout=20) as http:
        assert [http.post("/api/tables", json={}).status_code for _ in range(2)] == [201, 201]
        assert "the server is full" in error(http.post("/api/tables", json={}), 503)


def test_searching_bots_at_a_table_think_at_most_bot_think_seconds() -> None:
    """People wait for a table's bots: PIMC and ISMCTS get ``bot_think`` as their
    time limit (PIMC otherwise takes seconds at a full-hand deal's first cards);
    bots without a time setting are made as they are; 0 lifts the limit."""
    from goat.server.settings import Settings, SettingsError
    from goat.server.tables import table_bot

    capped = Settings(bot_think=1.5)
    assert table_bot("pimc", "s", capped).time_limit == 1.5
    assert table_bot("ismcts", "s", capped).time_limit == 1.5
    assert table_bot("heuristic", "s", capped).name == "heuristic"
    assert table_bot("pimc", "s", Settings(bot_think=0)).time_limit is None
    assert Settings().bot_think > 0
    with pytest.raises(SettingsError, match="bot-think"):
        Settings(bot_think=-1)


def test_a_seed_with_a_control_character_is_refused_on_every_database(http: httpx.Client) -> None:
    """A seed is stored as text: one with NUL, which PostgreSQL's text cannot hold, made
    a table on SQLite and a 503 ("database error") on PostgreSQL. Now every database
    refuses it the same way, a 400 with one line (``test_postgres.py`` asks PostgreSQL);
    a lone surrogate, which has no UTF-8 form, was a 500 on SQLite."""
    for seed in ("a\u0000b", "line\nbreak", "\ud800"):     # a lone surrogate: a 500 on SQLite
        body = json.dumps({"seed": seed})                        # ASCII: "\ud800" as JSON writes it
        answer = http.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
        assert "a seed is printable text" in error(answer, 400)
    assert http.post("/api/tables", json={"seed": "Аня's club night, 4 Dec"}).status_code == 201


HUGE = "x" * 100_000


@pytest.mark.parametrize("body, start", [
    ({"game": HUGE}, "unknown game 'xxx"),                                       # the engine's refusal (400)
    ({"rules": HUGE}, "unknown Kozel ruleset 'xxx"),
    ({"options": {HUGE: 1}}, "unknown option 'xxx"),
    ({"game": "yugioh", "options": {"decks": HUGE}}, "option decks"),
    ({HUGE: 1}, "xxx"),                                                          # the body's check (422)
])
def test_a_huge_string_is_not_echoed_back_whole(http: httpx.Client, body: dict[str, Any], start: str) -> None:
    """A refusal quotes what the client sent, so a 100 KB name made a 100 KB
    error line (a deck's unknown card was already cut to 60 characters): the
    line is cut, and it still says what was wrong."""
    response = http.post("/api/tables", json=body)
    assert response.status_code in (400, 422)
    message = error(response, response.status_code)
    assert message.startswith(start) and message.endswith("…") and len(message) <= ERROR_CHARS
    assert http.get("/api/tables").json()["tables"] == []


def test_a_long_refusal_of_an_ordinary_mistake_is_kept_whole(http: httpx.Client) -> None:
    """The cut is only for what a client stuffed in: a misspelt option's refusal
    lists every option of the game, and all of it reaches the page."""
    message = error(http.post("/api/tables", json={"game": "spades", "options": {"win_at": 100}}), 400)
    assert message.startswith("unknown option 'win_at'") and message.endswith(")") and "renege_penalty" in message


def test_a_name_over_24_characters_is_refused_in_the_terminal_s_words(http: httpx.Client) -> None:
    """The server cut a long name to 24 characters while ``goat play --name`` kept
    200, so the standings counted one person as two: both refuse it now, with one
    line (the one the terminal prints after ``--name:``), and the seat stays free."""
    created = http.post("/api/tables", json={}).json()
    listed = http.get("/api/tables").json()["tables"]
    long = " Konstantin  Alexandrovich Petrov "          # 34 typed, 31 kept: tidied first
    assert error(http.post(f"/api/tables/{created['id']}/seats/0", json={"name": long}), 400) == \
        "a name has at most 24 characters, not 31"
    assert error(http.post("/api/tables", json={"name": long, "seat": 0}), 400) == \
        "a name has at most 24 characters, not 31"
    assert [s["kind"] for s in seats(http, created["id"])] == ["empty"] * 4
    assert http.get("/api/tables").json()["tables"] == listed      # the refused create made no table
    answer = http.post(f"/api/tables/{created['id']}/seats/0", json={"name": "  Konstantin   Alexandrovich "})
    assert answer.status_code == 200 and seats(http, created["id"])[0]["name"] == "Konstantin Alexandrovich"


@pytest.mark.parametrize("name", ["\u0301", "\u2800", "\u3164", "\u115f\u1160", "\ufe0f", " \u0301 \u2800 "])
def test_a_name_that_shows_nothing_is_refused(http: httpx.Client, name: str) -> None:
    """A lone combining accent, a braille blank or a Hangul filler is not a
    control character, so it passed the name's cleaning, and the seat list and
    the standings showed a seat held by nobody visible."""
    created = http.post("/api/tables", json={}).json()
    assert error(http.post(f"/api/tables/{created['id']}/seats/0", json={"name": name}), 400) == \
        "say a name to take a seat"
    assert [s["kind"] for s in seats(http, created["id"])] == ["empty"] * 4
    assert http.post(f"/api/tables/{created['id']}/seats/0", json={"name": "A\u0301"}).status_code == 200
