"""How strong each table bot plays, per game and ruleset: the one place the
lobby's bot choice takes its levels from.

A person who came to play Kozel with friends does not know what ``pimc`` is,
so the lobby words each bot as a level and its name ("Strong — pimc"). Which
bot is strongest depends on the ruleset — ``pimc``'s double-dummy solver does
not reach ``street``, where it plays exactly like ``heuristic`` and ``ismcts``
is the strong one — so the level is data of (game, ruleset, bot), kept here
and sent with the game catalog (``GET /api/games``: each ruleset's
``bot_levels``), never guessed by the page. The page only words the level
keys (``i18n.js``: ``botLevel``, ``botAbout``).

Every level below rests on a measured duplicate tournament (the README's
"Strength" section, or the figures quoted next to an entry); a ruleset nobody
measured takes its levels from the ruleset it plays like, said where it does.
Bots of one level are listed in the game's order (``goat.bots``), not ranked.
"""

from __future__ import annotations

from typing import Any

from goat.bots import thinks

#: The levels, weakest first (the page words each one: ``botLevel.<level>``). Four are
#: all the measurements tell apart: no bot is measured between ``heuristic`` and the
#: search bots, and the search bots are measured apart from each other only in Spades,
#: where ``pimc`` beats ``ismcts`` ("expert" above "strong").
LEVELS: tuple[str, ...] = ("beginner", "club", "strong", "expert")

#: Kozel where the double-dummy solver plays (classic; full-hand for 2–4; full-hand-24).
#: Classic, README "Strength": ``heuristic`` +0.83 ± 0.17 penalty points a deal against
#: ``random``, ``pimc:worlds=16`` +0.62 ± 0.18 against ``heuristic`` (2026-12-04; the
#: figures below that play ``heuristic`` predate its change of that day). ``ismcts`` in
#: classic, measured for this table (2026-12-02, ``goat tournament --rules classic --bots
#: ismcts,pimc:worlds=16,heuristic --matches 40 --deals-only --seed 11 --workers 2``, 80
#: duplicate deals a pairing): against ``heuristic`` +0.58 ± 0.49, against
#: ``pimc:worlds=16`` +0.08 ± 0.37 (the interval holds 0) — as strong as ``pimc`` as far
#: as that can tell, so both are "strong". Run again after the heuristic's change
#: (2026-12-04): +0.43 ± 0.51 against ``heuristic``, +0.15 ± 0.38 against ``pimc`` (80
#: deals could not tell it from ``heuristic``); over 500 duplicate deals (README, ``--bots
#: ismcts,heuristic --matches 250 --seed 11``) +0.66 ± 0.17, 62.1% (58.5–65.6) of the deals
#: won, as much as ``pimc``'s +0.62 ± 0.18. Full-hand, README: ``pimc:worlds=16`` against
#: ``heuristic`` +0.12 ± 0.08 with 3 players, +0.72 ± 0.26 with 2; ``ismcts`` against
#: ``heuristic`` with 3 players +0.22 ± 0.18 (58.8% (51.8–65.4) of 106 deals won; ``goat
#: tournament --rules full-hand --players 3 --bots ismcts,heuristic --matches 20
#: --deals-only --seed 11 --workers 1``). Full-hand-24 (``--bots
#: ismcts,pimc:worlds=16,heuristic --matches 20``, same seed, 40 deals a pairing):
#: ``ismcts`` against ``heuristic`` +0.45 ± 0.39, ``pimc:worlds=16`` +0.90 ± 0.48,
#: ``ismcts`` against ``pimc`` +0.08 ± 0.37 (2026-12-04); README, 500 deals:
#: ``pimc:worlds=16`` against ``heuristic`` +0.46 ± 0.12 in full-hand-24 and +0.91 ± 0.16
#: in 4-player full-hand. ``ismcts`` in full-hand with 4 players (``--bots
#: ismcts,pimc:worlds=16,heuristic --matches 20 --deals-only --seed 11``, 40 deals a pairing):
#: +0.90 ± 0.68 against ``heuristic``, +0.10 ± 0.45 against ``pimc:worlds=16`` (2026-12-04); with 2
#: players (``--players 2 --bots ismcts,heuristic``, same sets and seed, 42 deals): +0.80 ±
#: 0.53 against ``heuristic``, 70% ± 11.8 of the deals won.
_SOLVER_KOZEL: dict[str, str] = {"random": "beginner", "heuristic": "club", "ismcts": "strong", "pimc": "strong"}

#: Spades (every preset but joker-trumps): both search bots beat heuristic (README "Strength");
#: pimc (DDS, ismcts where a nil is alive) also beats ismcts, +18.0 ± 7.6 points a deal over
#: 100 duplicate sets (59.5% ± 5.2 of the deals), so it is the one "expert".
_SPADES: dict[str, str] = {"random": "beginner", "heuristic": "club", "ismcts": "strong", "pimc": "expert"}

#: (game, ruleset) -> {bot: level}; ruleset ``None``: every ruleset of the game not named.
LEVEL_TABLE: dict[tuple[str, str | None], dict[str, str]] = {
    ("kozel", "classic"): _SOLVER_KOZEL,
    ("kozel", "full-hand"): _SOLVER_KOZEL,
    # the solver covers full-hand-24 as it does classic (same partnerships, single cards)
    ("kozel", "full-hand-24"): _SOLVER_KOZEL,
    # street: the solver does not reach it, so pimc is heuristic; ismcts +0.54 ± 0.22
    # penalty points a deal against heuristic over 500 duplicate deals (README "Strength")
    ("kozel", "street"): {"random": "beginner", "heuristic": "club", "pimc": "club", "ismcts": "strong"},
    # Spades: heuristic beats random in 100% of matches; ismcts takes +12.0 ± 8.0 points a
    # deal from heuristic, pimc (DDS) +25.3 ± 8.9 (README "Strength"; measured in standard,
    # the variants share the bots)
    ("spades", None): _SPADES,
    # the joker deck is not a bridge deck: DDS cannot solve it, so pimc is its fallback
    ("spades", "joker-trumps"): {**_SPADES, "pimc": "club"},
    # Yu-Gi-Oh!: greedy wins 89% ± 4.4 of its matches against random; mc wins 95.8% (76.3–99.4)
    # of its matches against greedy (README "Strength": 12 duplicate sets, 24 matches, in
    # goat; the official ruleset shares the bots)
    ("yugioh", None): {"random": "beginner", "greedy": "club", "mc": "strong"},
}

#: (game, ruleset, bot) -> the bot it plays exactly like there (the page says so).
PLAYS_LIKE: dict[tuple[str, str, str], str] = {("kozel", "street", "pimc"): "heuristic",
                                               ("spades", "joker-trumps", "pimc"): "heuristic"}


class BotLevelError(LookupError):
    """A table bot without a level for a ruleset (a bot or ruleset added without one)."""


def bot_levels(game: str, rules: str, bots: list[str]) -> list[dict[str, Any]]:
    """The level of each of ``bots`` (a game's table bots) at a ``rules`` table of
    ``game``, weakest first (ties in ``bots``' order): ``{"bot", "level", "thinks"}``
    and, where it plays exactly like another bot, ``"plays_like"``. ``thinks``: it
    searches at each decision, for at most the server's ``bot_think`` seconds
    (a bot with a ``time_limit`` setting that does not fall back here); the others
    move at once. Raises :class:`BotLevelError` for a bot without a level, so a
    new bot or ruleset cannot reach the lobby unworded."""
    table = LEVEL_TABLE.get((game, rules)) or LEVEL_TABLE.get((game, None)) or {}
    out = []
    for name in bots:
        level = table.get(name)
        if level not in LEVELS:
            raise BotLevelError(f"no level for bot {name!r} at {game} {rules} (goat.server.botlevels)")
        entry: dict[str, Any] = {"bot": name, "level": level}
        like = PLAYS_LIKE.get((game, rules, name))
        entry["thinks"] = thinks(name, game) and like is None
        if like is not None:
            entry["plays_like"] = like
        out.append(entry)
    return sorted(out, key=lambda e: LEVELS.index(e["level"]))
