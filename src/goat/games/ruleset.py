"""How every game builds a ruleset from a preset and option overrides.

A ruleset is a frozen dataclass of named options (``KozelRules``,
``SpadesRules``); a preset is a set of its values. ``make_rules`` of each game
picks the preset's values; these helpers do the parts that are the same for
every game — the player count given twice, unknown options, values of the
wrong type — so that each mistake reads the same one line in every game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from goat.protocol import RulesError

R = TypeVar("R")


def option_names(rules_class: type) -> tuple[str, ...]:
    """The option names of a ruleset dataclass (every field but its ``name``)."""
    return tuple(f.name for f in dataclasses.fields(rules_class) if f.init and f.name != "name")


def take_players(players: int | None, options: dict[str, Any] | None) -> tuple[int | None, dict[str, Any]]:
    """The player count (argument or ``options["players"]``, which must agree)
    and a copy of the other options (anything but a mapping of option names
    is a one-line :class:`RulesError`, not ``dict()``'s ``ValueError``)."""
    if options is not None and not isinstance(options, Mapping):
        raise RulesError(f"options must be a dict of option names and values, not {options!r}", "optionsNotObject")
    options = dict(options or {})
    if "players" in options:
        opt_players = options.pop("players")
        if players is not None and players != opt_players:
            raise RulesError(f"players={players} and options.players={opt_players} disagree", "playersDisagree",
                              players=players, other=opt_players)
        players = opt_players
    return players, options


def check_choice(name: str, value: Any, allowed: tuple[str, ...]) -> None:
    """Raise a one-line :class:`RulesError` unless ``value`` is one of the texts
    ``allowed``. The choices are shown quoted, and a value that is not text says
    so: ``deck=36`` (a number) must not read "not allowed (one of 24, 32, 36)",
    which looks as if 36 were allowed."""
    if value in allowed:
        return
    choices = ", ".join(repr(choice) for choice in allowed)
    if not isinstance(value, str):
        raise RulesError(f"option {name} must be a string, one of {choices}, not {value!r}", "optionChoice",
                          option=name, value=value, choices=allowed)
    raise RulesError(f"option {name}={value!r} is not allowed (one of {choices})", "optionChoice",
                      option=name, value=value, choices=allowed)


def check_maxima(rules: Any, maxima: dict[str, tuple[int, str]]) -> None:
    """Raise a one-line :class:`RulesError` for the first whole-number option of
    ``rules`` above its bound in ``maxima`` (name: (largest, why)); an option left
    unset (``None``) has no bound to pass. Its line: "option target=5000 is too
    large (at most 1000: why)"."""
    for name, (most, why) in maxima.items():
        value = getattr(rules, name)
        if value is not None and value > most:
            raise RulesError(f"option {name}={value} is too large (at most {most}: {why})", "optionAtMost",
                              option=name, value=value, most=most)


#: What one option needs to matter: other option → the values it needs, all of
#: them (a mapping), or any one of several such mappings (a list of them: Spades'
#: ``blind_nil_behind`` matters under blind nil *or* double nil). A game's
#: ``OPTION_NEEDS`` maps each option that can stop mattering to its ``Need``.
Need = Mapping[str, tuple[Any, ...]] | Sequence[Mapping[str, tuple[Any, ...]]]


def need_ways(need: Need) -> Sequence[Mapping[str, tuple[Any, ...]]]:
    """The alternatives of ``need``, any one of which lets the option matter (a
    mapping of all-of needs is the one alternative)."""
    return [need] if isinstance(need, Mapping) else need


def needs_met(needs: Mapping[str, Need], option: str, values: Mapping[str, Any]) -> bool:
    """Whether some alternative of ``needs[option]`` holds in ``values``: every
    other option it names holds one of the values it allows there. An option
    without an entry can always matter."""
    return any(all(values.get(other) in allowed for other, allowed in way.items())
               for way in need_ways(needs.get(option, {})))


def forced_values(needs: Mapping[str, Need], unmet_values: Mapping[str, Any], own: Mapping[str, Any],
                  chosen: Mapping[str, Any]) -> dict[str, Any]:
    """The values the rules read from a form at ``own`` (a ruleset's values) with
    ``chosen`` (the player's) laid over: each option of ``needs`` that cannot
    matter under them counts as the one value the rules allow it there (its
    ``unmet_values`` entry: Kozel street's free trump lead, no permanent trumps),
    else as its ``own`` value, never as a value chosen before it stopped mattering
    (the create form hides its row and sends nothing, so the ruleset's value
    applies). The one rule of what a hidden row is worth; the create form's
    ``formValues`` (the server page's app.js) is its copy in the page.

    A forced value may stop others mattering (street's forced-off permanent trumps
    take the jacks' order with them) or let one matter again (whose chosen value
    then counts once more), so each round starts from the chosen values, hiding
    those that cannot matter under the last round's, until a round changes nothing:
    the needs form no cycle, so that takes at most one round per option, and the
    answer does not depend on the options' order."""
    laid = dict(own) | dict(chosen)
    values = laid
    for _ in range(len(needs) + 1):
        hidden = {option: unmet_values[option] if option in unmet_values else own.get(option)
                  for option in needs if option in laid and not needs_met(needs, option, values)}
        following = laid | hidden
        if following == values:
            break
        values = following
    return values


def own_values(rules_class: type, needs: Mapping[str, Need], preset_values: Mapping[str, Any],
               unmet_values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The values of the ruleset a preset makes with no option given: the
    dataclass's defaults with the preset's laid over, seen through
    :func:`forced_values` (an option that cannot matter there at its forced value).
    This is the ``own`` the create form starts from (the catalog lists these
    values), so the server must start from it too."""
    defaults = {f.name: f.default for f in dataclasses.fields(rules_class) if f.init and f.name != "name"}
    return forced_values(needs, unmet_values or {}, defaults | dict(preset_values), {})


def build_rules(rules_class: type[R], game: str, preset: str, values: dict[str, Any],
                options: dict[str, Any], needs: Mapping[str, Need] | None = None,
                unmet_values: Mapping[str, Any] | None = None) -> R:
    """``rules_class(name=preset, **values)`` with ``options`` laid over ``values``
    by the one rule of what an option that cannot matter is worth,
    :func:`forced_values` over the preset's :func:`own_values` (``needs``, the
    game's option dependencies, with ``unmet_values``, the values its rules force
    where an option stops mattering): an option the player did not set that cannot
    matter under the options given takes its forced value, else the ruleset's own
    (never the dataclass's default), so the table holds exactly the values the
    create form counts (and sends, a hidden row sending nothing). An option given
    keeps the value given even where it cannot matter, so that a contradiction
    (street tricks with ``permanent_trumps=true``) is still the rules' one-line
    error, not quietly replaced."""
    names = option_names(rules_class)
    for key in options:
        if key not in names:
            raise RulesError(f"unknown option {key!r} for {game} (known: {', '.join(names)})", "unknownOption",
                              option=key)
    needs, unmet_values = needs or {}, unmet_values or {}
    own = own_values(rules_class, needs, values, unmet_values)
    values = forced_values(needs, unmet_values, own, options) | options
    try:
        return rules_class(name=preset, **values)
    except TypeError as exc:  # a value of the wrong type reaching a comparison
        raise RulesError(f"bad option value: {exc}", "badOptionValue") from None
