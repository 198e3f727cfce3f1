"""The bots' levels in the game catalog (``goat.server.botlevels``): every bot
a table of a game may seat has a level at each of the game's rulesets, so the
lobby can word the choice ("Strong — pimc") for a person who does not know the
engine names; the strongest bots are those measured strongest at that ruleset
(``pimc`` and ``ismcts`` where the solver plays, only ``ismcts`` in street,
where ``pimc`` is the heuristic under another name)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from goat.server.botlevels import LEVELS, BotLevelError, bot_levels
from goat.server.runner import ServerThread


@pytest.fixture
def catalog(start_server: Callable[..., ServerThread]) -> dict[str, Any]:
    """``GET /api/games`` of a server whose searching bots think at most 1.5 s a move."""
    server = start_server(bot_think=1.5)
    return httpx.get(f"{server.url.rstrip('/')}/api/games", timeout=20).json()


def rules_of(catalog: dict[str, Any], game: str) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for g in catalog["games"] if g["name"] == game for r in g["rules"]}


def levels_at(catalog: dict[str, Any], game: str, rules: str) -> dict[str, dict[str, Any]]:
    return {e["bot"]: e for e in rules_of(catalog, game)[rules]["bot_levels"]}


def test_every_table_bot_has_a_level_at_every_ruleset(catalog: dict[str, Any]) -> None:
    assert {g["name"] for g in catalog["games"]} >= {"kozel", "spades", "yugioh"}
    for game in catalog["games"]:
        assert game["rules"], game["name"]
        for rules in game["rules"]:
            entries = rules["bot_levels"]
            where = f"{game['name']} {rules['name']}"
            assert sorted(e["bot"] for e in entries) == sorted(game["bots"]), where
            assert all(e["level"] in LEVELS for e in entries), where
            ranks = [LEVELS.index(e["level"]) for e in entries]
            assert ranks == sorted(ranks), where                      # weakest first
            assert all(e["plays_like"] in game["bots"] for e in entries if "plays_like" in e), where
            assert game["default_bot"] in {e["bot"] for e in entries}, where


def test_the_strongest_bot_is_the_one_measured_strongest_at_the_ruleset(catalog: dict[str, Any]) -> None:
    def strongest(game: str, rules: str) -> list[str]:
        levels = levels_at(catalog, game, rules)
        top = max(LEVELS.index(e["level"]) for e in levels.values())
        return [bot for bot, e in levels.items() if LEVELS.index(e["level"]) == top]

    for rules in ("classic", "full-hand", "full-hand-24"):
        # ismcts measured as strong as pimc:worlds=16 in classic (botlevels' notes)
        assert strongest("kozel", rules) == ["ismcts", "pimc"]
        assert levels_at(catalog, "kozel", rules)["heuristic"]["level"] == "club"
        assert levels_at(catalog, "kozel", rules)["random"]["level"] == "beginner"
    assert strongest("kozel", "street") == ["ismcts"]
    street = levels_at(catalog, "kozel", "street")
    # pimc's solver does not reach street: there it is heuristic, level and all
    assert street["pimc"]["level"] == street["heuristic"]["level"] and street["pimc"]["plays_like"] == "heuristic"
    assert not street["pimc"]["thinks"]
    assert "plays_like" not in levels_at(catalog, "kozel", "classic")["pimc"]
    # Spades: pimc (DDS) and ismcts both beat heuristic, and pimc beats ismcts; in
    # joker-trumps DDS cannot play
    assert strongest("spades", "standard") == ["pimc"] and strongest("spades", "bemo") == ["pimc"]
    assert levels_at(catalog, "spades", "standard")["ismcts"]["level"] == "strong"
    assert levels_at(catalog, "spades", "standard")["pimc"]["level"] == "expert"
    jokers = levels_at(catalog, "spades", "joker-trumps")
    assert strongest("spades", "joker-trumps") == ["ismcts"] and jokers["pimc"]["plays_like"] == "heuristic"
    assert levels_at(catalog, "spades", "standard")["pimc"]["thinks"] and not jokers["pimc"]["thinks"]
    assert strongest("yugioh", "goat") == ["mc"]


def test_the_catalog_says_which_bots_think_and_for_how_long(catalog: dict[str, Any]) -> None:
    classic = levels_at(catalog, "kozel", "classic")
    assert classic["pimc"]["thinks"] and classic["ismcts"]["thinks"]
    assert not classic["heuristic"]["thinks"] and not classic["random"]["thinks"]
    assert catalog["bot_think"] == 1.5                      # the server's cap, which the page states
    assert not levels_at(catalog, "yugioh", "goat")["greedy"]["thinks"]
    assert levels_at(catalog, "yugioh", "goat")["mc"]["thinks"]


def test_today_s_default_bot_stays() -> None:
    from goat.server.settings import Settings
    from goat.server.tables import default_bot

    assert default_bot("kozel", Settings()) == "heuristic"
    assert default_bot("yugioh", Settings()) == "greedy"


def test_a_bot_without_a_level_cannot_reach_the_lobby() -> None:
    with pytest.raises(BotLevelError) as caught:
        bot_levels("kozel", "classic", ["heuristic", "newbot"])
    assert str(caught.value) == "no level for bot 'newbot' at kozel classic (goat.server.botlevels)"
    with pytest.raises(BotLevelError, match="no level for bot 'heuristic' at chess standard"):
        bot_levels("chess", "standard", ["heuristic"])
