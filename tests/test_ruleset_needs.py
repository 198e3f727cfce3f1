"""What an option that cannot matter is worth (``goat.games.ruleset.forced_values``,
the rule the create form's ``formValues`` copies and ``build_rules`` builds every
table by): its forced value where the rules force one, else the ruleset's own,
never a value the player chose before it stopped mattering nor the rules class's
built-in default. Today's games have no option that needs one without a forced
value whose own needs do not already hide it, so the chains here are made up;
every preset of both games is enumerated with every change of one or two options."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from goat.games.kozel import rules as kozel_rules_module
from goat.games.kozel.rules import make_rules as kozel_rules
from goat.games.ruleset import Need, build_rules, forced_values, need_ways, needs_met
from goat.games.spades import rules as spades_rules_module
from goat.protocol import RulesError

#: a -> b -> c: ``b`` matters while ``a`` is on, ``c`` while ``b`` is "x"; only
#: ``b`` has no forced value.
NEEDS = {"b": {"a": (True,)}, "c": {"b": ("x",)}}
OWN = {"a": True, "b": "y", "c": 1}


def test_an_option_that_stops_mattering_counts_as_the_rulesets_value_not_the_players() -> None:
    """The player set ``b`` to "x" (so ``c`` mattered), then turned ``a`` off:
    ``b`` hides and counts as the ruleset's "y", so ``c`` hides with it (before,
    the "x" chosen still counted and ``c`` stayed)."""
    values = forced_values(NEEDS, {}, OWN, {"b": "x", "a": False})
    assert values == {"a": False, "b": "y", "c": 1}
    assert not needs_met(NEEDS, "c", values)
    assert needs_met(NEEDS, "c", forced_values(NEEDS, {}, OWN, {"b": "x"}))      # ``a`` on: "x" counts


def test_a_forced_value_counts_and_an_option_shown_again_counts_its_chosen_value() -> None:
    """Where the rules force a value it counts instead of the ruleset's own (here
    "x", which lets ``c`` matter though ``b`` cannot); and the rounds start from
    the chosen values, so an option hidden by an earlier round's value and shown
    by a later one counts what was chosen for it, whatever the options' order."""
    assert forced_values(NEEDS, {"b": "x"}, OWN, {"a": False}) == {"a": False, "b": "x", "c": 1}
    needs = {"c": {"b": ("x",)}, "b": {"a": (True,)}, "a": {"d": (1,)}}   # the dependent first
    own = {"a": False, "b": "y", "c": 1, "d": 0}
    chosen = {"a": True, "b": "x", "c": 5}
    assert forced_values(needs, {}, own, chosen) == {"a": False, "b": "y", "c": 1, "d": 0}   # d=0 hides a, b, c
    assert forced_values(needs, {"a": True}, own, chosen) == {"a": True, "b": "x", "c": 5, "d": 0}


def test_kozel_applies_reads_the_same_rule() -> None:
    """``applies`` lays the values given over the ruleset's through the same rule:
    street tricks force permanent trumps off (and so the jacks' order away), while
    a jacks' order given beside them changes nothing."""
    classic = kozel_rules("classic")
    assert not classic.applies("jack_order", {"trick_style": "street", "permanent_trumps": True})
    assert classic.applies("jack_order", {"permanent_trumps": True})


# ---------------------------------------------------------------- the table built
# ``build_rules`` (what the server and every command build a table with) reads the
# same rule as ``forced_values`` (what the create form shows and sends): an option
# the player did not set that cannot matter is worth its forced value, else the
# ruleset's own, never the rules class's built-in default.


@dataclass(frozen=True)
class ChainRules:
    """A made-up rules class: ``b`` matters while ``a`` is on, ``c`` while ``b`` is
    "x"; its defaults are not the preset's."""

    name: str = "custom"
    a: bool = True
    b: str = "y"
    c: int = 1


CHAIN_PRESET = {"b": "x", "c": 5}     # the preset's own values, not the class's


def build_chain(options: dict[str, Any]) -> dict[str, Any]:
    rules = build_rules(ChainRules, "Chain", "chained", dict(CHAIN_PRESET), options, NEEDS)
    return {key: getattr(rules, key) for key in ("a", "b", "c")}


def test_a_hidden_option_in_the_table_is_the_rulesets_value_not_the_classs_default() -> None:
    """The player turns ``a`` off: ``b`` hides and is worth the preset's "x" (the
    form shows so), under which ``c`` still matters, at the preset's 5. Before,
    ``build_rules`` put the class's "y" in ``b``, so ``c`` hid too and took 1: the
    form showed ``c`` at 5 while the server built 1."""
    own = build_chain({})
    assert own == {"a": True, "b": "x", "c": 5}
    view = forced_values(NEEDS, {}, own, {"a": False})
    assert view == {"a": False, "b": "x", "c": 5} and needs_met(NEEDS, "c", view)
    assert build_chain(form_sends(NEEDS, {}, own, {"a": False})) == view


def form_sends(needs: Mapping[str, Need], unmet: Mapping[str, Any], own: Mapping[str, Any],
               chosen: Mapping[str, Any]) -> dict[str, Any]:
    """What the create form sends (app.js ``changedOptions``): of the values
    chosen, those whose rows show under ``forced_values`` and differ from the
    ruleset's own."""
    view = forced_values(needs, unmet, own, chosen)
    return {key: view[key] for key in chosen if needs_met(needs, key, view) and view[key] != own[key]}


def test_the_chain_table_is_the_forms_for_every_choice() -> None:
    """Every choice of the made-up class's options (one, two or all three moved):
    the table built from what the form sends holds exactly the values it shows."""
    own = build_chain({})
    domains = {"a": (True, False), "b": ("x", "y", "z"), "c": (1, 5, 7)}
    for a, b, c in itertools.product(*domains.values()):
        chosen = {"a": a, "b": b, "c": c}
        assert build_chain(form_sends(NEEDS, {}, own, chosen)) == forced_values(NEEDS, {}, own, chosen), chosen


# ------------------------------------------- every preset, every option, every pair
def _games() -> list[Any]:
    return [kozel_rules_module, spades_rules_module]


def _rulesets(module: Any) -> list[tuple[str, int]]:
    """Every preset at every player count it takes (Kozel's full hand: 2, 3, 4)."""
    found = []
    for preset in module.PRESETS:
        for players in range(2, 9):
            try:
                module.make_rules(preset, players)
            except RulesError:
                continue
            found.append((preset, players))
    return found


def _domain(module: Any, value: Any, option: str) -> tuple[Any, ...]:
    """The values the enumeration tries for ``option``: its choices, both truth
    values, or a few whole numbers about the ruleset's (none, or a bound)."""
    if option in module.CHOICES:
        return tuple(module.CHOICES[option])
    if isinstance(value, bool):
        return (True, False)
    if value is None:
        return (None, -200, 10)
    return tuple(sorted({0, 1, value, value + 1}))


def option_changes(module: Any, rules: Any) -> list[dict[str, Any]]:
    """Every single option change the create form offers at this ruleset (the
    options the catalog lists: those its player count allows) and every pair of
    changes of two options."""
    own = rules.options()
    seats_allow = getattr(rules, "seats_allow", lambda _option: True)
    changes = [(key, value) for key in own if key != "players" and seats_allow(key)
               for value in _domain(module, own[key], key) if value != own[key]]
    return [dict([change]) for change in changes] + [
        dict(pair) for pair in itertools.combinations(changes, 2) if pair[0][0] != pair[1][0]]


@pytest.mark.parametrize("module", _games(), ids=lambda module: module.__name__.split(".")[2])
def test_every_table_holds_the_values_the_form_shows(module: Any) -> None:
    """For every preset (at every player count) and every change of one or two
    options: the table built from what the create form sends holds, option for
    option, ``forced_values``' view of the choice (what the form shows), or is
    refused for a row the player sees (never for a hidden row's value, which the
    player cannot change); and the choice given whole (as ``--option`` gives it)
    is refused, or builds the same table but where it names an option that cannot
    matter (kept as given, so a contradiction stays the rules' one-line error)."""
    needs, unmet = module.OPTION_NEEDS, getattr(module, "OPTION_FALLBACKS", {})
    checked = 0
    for preset, players in _rulesets(module):
        rules = module.make_rules(preset, players)
        own = rules.options()
        for chosen in option_changes(module, rules):
            view = forced_values(needs, unmet, own, chosen)
            sent = form_sends(needs, unmet, own, chosen)
            try:
                built = module.make_rules(preset, players, sent).options()
            except RulesError as exc:
                refused = exc.say_args.get("option")
                assert refused is None or needs_met(needs, refused, view), (preset, players, chosen, str(exc))
            else:
                assert built == view, (preset, players, chosen)
            try:
                given = module.make_rules(preset, players, chosen).options()
            except RulesError:
                pass
            else:
                kept = {key for key in chosen if not needs_met(needs, key, view)}
                assert {k: v for k, v in given.items() if k not in kept} == {
                    k: v for k, v in view.items() if k not in kept}, (preset, players, chosen)
            checked += 1
    assert checked > 1000    # the enumeration ran (Kozel 6 rulesets, Spades 12)


@pytest.mark.parametrize("module", _games(), ids=lambda module: module.__name__.split(".")[2])
def test_a_fallback_is_exactly_a_value_the_rules_force_where_an_option_cannot_matter(module: Any) -> None:
    """Where an option of ``OPTION_NEEDS`` cannot matter (at every ruleset, under
    every single change of the options the needs name) and the rules allow it
    only one value there, that value is its ``OPTION_FALLBACKS`` entry; and a
    fallback allows no other. Else a preset's own value of it, which a hidden
    row is worth, would be refused there (street's ``molodka=true`` under the
    one-card tricks a player makes of street), a row the player cannot see."""
    needs, unmet = module.OPTION_NEEDS, getattr(module, "OPTION_FALLBACKS", {})
    named = {other for need in needs.values() for way in need_ways(need) for other in way}
    forced: dict[str, set[Any]] = {}
    for preset, players in _rulesets(module):
        rules = module.make_rules(preset, players)
        own = rules.options()
        changes = [{}] + [change for change in option_changes(module, rules)
                          if len(change) == 1 and set(change) <= named]
        for change in changes:
            view = forced_values(needs, unmet, own, change)
            for option in needs:
                if needs_met(needs, option, view) or option in change or not (
                        option in module.CHOICES or isinstance(own[option], bool)):
                    continue
                allowed = set()
                for value in _domain(module, own[option], option):
                    try:
                        module.make_rules(preset, players, change | {option: value})
                    except RulesError:
                        continue
                    allowed.add(value)
                if len(allowed) == 1:
                    forced.setdefault(option, set()).update(allowed)
                if option in unmet:
                    assert allowed <= {unmet[option]}, (preset, players, change, option, allowed)
    assert {option: {value} for option, value in unmet.items()} == forced
