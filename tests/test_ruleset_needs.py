"""What an option that cannot matter is worth (``goat.games.ruleset.forced_values``,
the rule the create form's ``formValues`` copies): its forced value where the
rules force one, else the ruleset's own, never a value the player chose before it
stopped mattering. Today's games have no option that needs one without a forced
value whose own needs do not already hide it, so the tables here are made up."""

from __future__ import annotations

from goat.games.kozel.rules import make_rules as kozel_rules
from goat.games.ruleset import forced_values, needs_met

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
