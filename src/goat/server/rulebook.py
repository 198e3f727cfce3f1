"""The rules of a ruleset for the page's "Rules" panel: its options as a table
plays them and the facts the engine derives from them.

``GET /api/games/{game}/rules/{rules}?players=4&options={...}`` answers with
:func:`rules_json`. The panel's words are the page's (``static/rules.js``, in
each language), but every fact that the engine computes — the trump order of
each possible trump suit, the card points, the hand and stock sizes, the fixed
scores of special bids — comes from the game module's ``rules_facts(rules)``,
so what a player reads cannot drift from what the engine plays. The options
are the ruleset's resolved values (the preset's, with the table's overrides),
so the panel states the rule as this table plays it.
"""

from __future__ import annotations

import json
from typing import Any

from goat.games import get_game
from goat.protocol import GoatError
from goat.server.tables import LobbyError, new_table_state, option_values

#: The longest ``options`` query accepted (a table's options are a few hundred bytes).
OPTIONS_CHARS = 4096


def parse_options(text: str | None) -> dict[str, Any]:
    """The ``options`` query parameter (a JSON object) as a dict; ``{}`` when absent.
    Raises :class:`LobbyError` (400, one line) for anything else."""
    if text is None or text == "":
        return {}
    if len(text) > OPTIONS_CHARS:
        raise LobbyError(f"options: at most {OPTIONS_CHARS} characters")
    try:
        value = json.loads(text)
    except ValueError:
        raise LobbyError("options: not valid JSON (a JSON object of option values)") from None
    if not isinstance(value, dict):
        raise LobbyError("options: must be a JSON object of option values")
    return value


def rules_json(game: str, rules: str, players: int | None = None,
               options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The rules panel's data for ``game``'s preset ``rules`` with ``players`` and
    option overrides: ``{game, rules, players, options, facts}``. ``facts`` is
    ``{}`` for a game whose module has no ``rules_facts`` (Yu-Gi-Oh!: its rules
    are the options). Raises :class:`LobbyError`: 404 for an unknown game, 400
    (one line, the engine's reason) for an unknown ruleset or a bad option."""
    try:
        module = get_game(game)
    except GoatError:
        raise LobbyError(f"there is no game {game[:40]!r}", status=404) from None
    state = new_table_state(module, rules, dict(options or {}), players)
    facts = getattr(module, "rules_facts", None)
    return {"game": game, "rules": rules, "players": state.num_players, "options": option_values(state),
            "facts": facts(state.rules) if facts is not None else {}}
