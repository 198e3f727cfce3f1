"""``--option key=value`` for every command that sets up a table (play,
random-games, tournament): one parser, so the same text means the same option
everywhere."""

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


#: ``goat bench``'s seeds are below ``2**BENCH_SEED_BITS``: the compiled
#: simulator (``bench sim``) takes its seeds as numpy ``uint64``, and a larger
#: one wrapped round to a smaller one's deals in silence (``2**64 + 5`` measured
#: ``5``'s); every bench takes the same range.
BENCH_SEED_BITS = 64


def check_seed(seed: int | None, bits: int | None = None) -> None:
    """``--seed`` as every command takes it: a whole number >= 0 (``None``: draw
    one), and below ``2**bits`` for a command whose seeds have that many bits
    (``goat bench``: :data:`BENCH_SEED_BITS`).

    :class:`random.Random` seeds with an int's absolute value, so ``goat play
    --seed -7`` dealt ``--seed 7``'s game, while the commands that seed with
    text (``random-games``, ``tournament``) made it one of its own. Refused
    rather than given a meaning: Yu-Gi-Oh! records keep the seed and replay
    with ``random.Random(seed)``, and old records with a negative one must
    replay as they were played."""
    if seed is None:
        return
    if seed < 0:
        raise GoatError(f"--seed must be a whole number >= 0, not {seed}")
    if bits is not None and seed >= 2**bits:
        raise GoatError(f"--seed must be below 2**{bits} ({2**bits}), not {seed}")


#: ``--bot-module`` of ``goat tournament`` and ``goat play``: one help text, one loader.
BOT_MODULE_HELP = ("Import this bot module first: a module name (mypkg.bots) or a .py file that registers "
                   "bots with goat.bots.register_bot (docs/bots.md); repeatable (default: none, the built-in bots only).")


def load_bot_modules(modules: Sequence[str]) -> None:
    """Import each ``--bot-module`` (:func:`goat.bots.load_bot_module`): its bots
    can then be named in ``--bots``; a module that fails is one line (:class:`GoatError`)."""
    from goat.bots import load_bot_module

    for module in modules:
        load_bot_module(module)
