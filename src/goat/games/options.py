"""Ruleset options written as text, ``key=value`` (every command's ``--option``,
``bench solver``'s): one parser, so the same text means the same option
everywhere, each value typed by the option's default in the game's ruleset.

Text only: a Python caller hands the rules a dict of typed values, which the
rules check themselves (``run_tournament(options={"deck": "32"})``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from goat.games.kozel.rules import KozelRules
from goat.protocol import GoatError

#: Kozel's options and their default values (their types drive the parsing).
KOZEL_DEFAULTS = {f.name: f.default for f in dataclasses.fields(KozelRules) if f.init}


def parse_option_pairs(pairs: Sequence[str], defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``["trump_suit=H", "royal_goat=false"]`` -> typed option values.

    Values take the type of the option's default in ``defaults`` (Kozel's by
    default): ``deck=32`` stays the string ``"32"``, ``royal_goat=no`` is
    ``False``, ``match_target=8`` is ``8``. An option that is off by default
    (``None``, e.g. Spades' ``lose_at``) takes a whole number, or ``null``/``off``.
    Dashes in keys read as underscores. An unknown key is passed through for the
    rules to reject with their one-line message.

    >>> parse_option_pairs(["lose_at=-200", "max_deals=off"], {"lose_at": None, "max_deals": None})
    {'lose_at': -200, 'max_deals': None}
    """
    defaults = KOZEL_DEFAULTS if defaults is None else defaults
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key, raw = key.strip().replace("-", "_"), raw.strip()
        if not sep or not key:
            raise GoatError(f"--option {pair!r}: write key=value, e.g. {example_pair(key, defaults)}")
        default = defaults.get(key)
        if key in defaults and default is None:
            low = raw.lower()
            if low in ("null", "none", "off", ""):
                options[key] = None
            else:
                try:
                    options[key] = int(raw)
                except ValueError:
                    raise GoatError(f"option {key} must be a whole number or off, not {raw!r}") from None
        elif isinstance(default, bool):
            low = raw.lower()
            if low in ("true", "yes", "on", "1"):
                options[key] = True
            elif low in ("false", "no", "off", "0"):
                options[key] = False
            else:
                raise GoatError(f"option {key} must be true or false, not {raw!r}")
        elif isinstance(default, int):
            try:
                options[key] = int(raw)
            except ValueError:
                raise GoatError(f"option {key} must be a whole number, not {raw!r}") from None
        else:
            options[key] = raw
    return options


def example_pair(key: str, defaults: Mapping[str, Any]) -> str:
    """A ``key=value`` of the game at hand for an error message: ``key`` itself
    when it is one of its options, else its first true/false option (a Spades
    player was shown Kozel's ``royal_goat=false``)."""
    if key not in defaults:
        key = next((k for k, v in defaults.items() if isinstance(v, bool)), next(iter(defaults), "option"))
    value = defaults.get(key)
    if isinstance(value, bool):
        return f"{key}={str(not value).lower()}"
    return f"{key}={'off' if value is None else value}"


def parse_options(module: Any, rules: str, players: int | None, pairs: Sequence[str]) -> dict[str, Any]:
    """:func:`parse_option_pairs` with the defaults of ``module``'s ruleset ``rules``."""
    defaults = module.new_state(rules=rules, players=players).rules.options()
    return parse_option_pairs(pairs, defaults)
