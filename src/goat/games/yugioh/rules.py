"""Yu-Gi-Oh! rulesets: rules are data (``shared/rules/yugioh.md``).

:class:`YugiohRules` is a frozen dataclass of named switches. The preset
``official`` follows the 2004–2005 rulebook (seed 001, read with today's
rulings where the rulebook is silent); ``goat`` turns on every Goat Format
difference (seed 000, rules 1–17), each under its own name, so a table can mix
them. The engine branches on switches, never on a preset's name.

>>> make_rules("goat").first_player_draws, make_rules("official").first_player_draws
(True, False)
>>> make_rules("official", {"ignition_priority": True}).ignition_priority
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from goat.games.ruleset import check_choice
from goat.protocol import RulesError


@dataclass(frozen=True)
class YugiohRules:
    """Every named switch of a duel table. The numbers refer to the Goat rules.

    Attributes:
        name: preset it was made from (display only).
        starting_lp / starting_hand / hand_limit: 8000, 5, 6 (rulebook).
        min_main_deck / max_copies: 40 and 3 (rulebook; no maximum deck size, rule 2).
        side_deck_sizes: allowed side deck sizes, "0,15" (rule 2) — a string so that
            it stays a simple option value.
        banlist: "goat" (April 2005 Forbidden/Limited list) or "none".
        first_player_draws: rule 1 — the first player draws on turn 1 (6 cards).
        field_spell_shared: rule 3 — one face-up Field Spell for both players; a new
            one destroys the other on resolution, and a Set one does not (Yami, Sogen,
            Mystic Plasma Zone). Off: placing one destroys every other at once, Set too.
        ignition_priority: rule 4 — after a summon or a chain, the turn player may
            start an ignition effect before the opponent may respond.
        replay_rewinds: rule 5 — a battle replay goes back to the start of the
            Battle Step (the attacker may attack later); off: the attacker picks a
            new target or cancels at once (the attack counts as made).
        continuous_trap_preflip: rule 6 — a Continuous Trap's ignition-like effect
            needs the card face up beforehand (Skull Lair).
        reveal_for_checks: rule 7 — hands/decks checked by an effect are revealed
            (logged publicly).
        search_without_target: rule 8 — a deck search may activate with nothing to find.
        damage_step_strict: rule 9 — in the Damage Step only ATK/DEF modifiers (at
            damage calculation), negating monster effects and Counter Traps.
        damage_calc_one_chain: rule 9B — one chain only at damage calculation.
        match_no_draws: rule 10 — a match goes on until someone wins two duels.
        triggers_seen_mid_chain: rule 11 — optional "when" triggers do not miss
            their timing in the middle of a chain.
        equip_monster_target_stays: rule 12 — Thousand-Eyes Restrict leaving or
            turning face down before its equip resolves: the target stays on the
            field (off: the target is sent to the Graveyard).
        taken_monster_may_change_position: rule 13.
        zero_atk_both_destroyed: rule 14.
        lp_cost_leaves_positive: rule 15 — an LP cost must leave the payer above 0.
        draw_with_short_deck: rule 15 — draw effects activate with too few cards.
        voluntary_loops_illegal: rule 16 — an action that would start an endless
            loop is refused; off: it is allowed and the loop destroys its cause.
        one_union_per_monster: rule 17 — one Union per monster, and a Union takes a
            destruction by battle only (Y-Dragon Head, Z-Metal Tank).
        match_duels: duels in a match (best of 3).
        ask_responses: when a player is asked at a response window (not a Goat
            difference; the same in both presets). ``"when-set-cards"`` (default):
            whenever they could respond for all the opponent knows — they hold
            something public that can be activated, or a face-down Spell/Trap or
            a hand card that some card of the pool could be by the timing rules —
            so being asked tells the opponent nothing hidden. ``"always"``: at
            every window. ``"when-able"``: only with something to activate (the
            fastest for bots and fuzzing, but a pending "respond" then tells the
            opponent that a response exists).
        open_decklists: whether every view holds both players' deck lists (as at
            an open-decklist event). Off (default, a normal match): a seat's view
            holds only its own list; what it learns of the other deck comes from
            its history (glimpses, public zones). Not a Goat difference.
        decks: the built-in deck lists ``new_state`` deals when it is given none:
            one name for a mirror (``"goat_control"``), or two joined by ``/``
            (seat 0's, then seat 1's: ``"goat_control/chaos_warrior"``). An
            option so that a table server, which knows a game only through its
            options, can offer the choice; the record keeps the lists
            themselves. The choice is public (like the table's other options),
            the cards' order and whereabouts are not.
    """

    name: str = "goat"
    starting_lp: int = 8000
    starting_hand: int = 5
    hand_limit: int = 6
    min_main_deck: int = 40
    max_copies: int = 3
    side_deck_sizes: str = "0,15"
    banlist: str = "goat"
    first_player_draws: bool = True
    field_spell_shared: bool = True
    ignition_priority: bool = True
    replay_rewinds: bool = True
    continuous_trap_preflip: bool = True
    reveal_for_checks: bool = True
    search_without_target: bool = True
    damage_step_strict: bool = True
    damage_calc_one_chain: bool = True
    match_no_draws: bool = True
    triggers_seen_mid_chain: bool = True
    equip_monster_target_stays: bool = True
    taken_monster_may_change_position: bool = True
    zero_atk_both_destroyed: bool = True
    lp_cost_leaves_positive: bool = True
    draw_with_short_deck: bool = True
    voluntary_loops_illegal: bool = True
    one_union_per_monster: bool = True
    match_duels: int = 3
    ask_responses: str = "when-set-cards"
    open_decklists: bool = False
    decks: str = "goat_control"

    def options(self) -> dict[str, Any]:
        """All switches by name (``name`` excluded): what records compare."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}

    def side_sizes(self) -> tuple[int, ...]:
        return tuple(int(x) for x in self.side_deck_sizes.split(","))


#: Switches that differ between the presets: exactly the Goat Format differences.
GOAT_SWITCHES = ("first_player_draws", "field_spell_shared", "ignition_priority", "replay_rewinds",
                 "continuous_trap_preflip", "reveal_for_checks", "search_without_target",
                 "damage_step_strict", "damage_calc_one_chain", "match_no_draws",
                 "triggers_seen_mid_chain", "equip_monster_target_stays",
                 "taken_monster_may_change_position", "zero_atk_both_destroyed",
                 "lp_cost_leaves_positive", "draw_with_short_deck", "voluntary_loops_illegal",
                 "one_union_per_monster")

PRESETS: dict[str, YugiohRules] = {
    "goat": YugiohRules(name="goat"),
    "official": YugiohRules(name="official", **{k: False for k in GOAT_SWITCHES}),
}

CHOICES: dict[str, tuple[Any, ...]] = {"banlist": ("goat", "none"), "side_deck_sizes": ("0,15", "0", "15"),
                                       "ask_responses": ("when-set-cards", "always", "when-able"),
                                       "decks": ("goat_control", "chaos_warrior", "goat_control/chaos_warrior",
                                                 "chaos_warrior/goat_control")}


def make_rules(rules: str | YugiohRules = "goat", options: dict[str, Any] | None = None) -> YugiohRules:
    """A ruleset from a preset name and option overrides; raises :class:`RulesError`."""
    if isinstance(rules, YugiohRules):
        base = rules
    else:
        if rules not in PRESETS:
            raise RulesError(f"unknown Yu-Gi-Oh! ruleset {rules!r} (one of {', '.join(PRESETS)})", "unknownRules",
                              rules=rules, rulesets=list(PRESETS))
        base = PRESETS[rules]
    if not options:
        return base
    if not isinstance(options, dict):
        raise RulesError("options must be an object of name: value", "optionsNotObject")
    fields = {f.name: f for f in dataclasses.fields(YugiohRules)}
    for key, value in options.items():
        if key not in fields or key == "name":
            raise RulesError(f"unknown yugioh option {key!r}", "unknownOption", option=key)
        default = getattr(base, key)
        if isinstance(default, bool) and not isinstance(value, bool):
            raise RulesError(f"option {key} must be true or false, not {value!r}",
                             "optionBool", option=key, value=value)
        if isinstance(default, int) and not isinstance(default, bool) and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise RulesError(f"option {key} must be a positive whole number, not {value!r}", "optionAtLeast",
                              option=key, value=value, least=1)
        if isinstance(default, str) and not isinstance(value, str):
            raise RulesError(f"option {key} must be a string, not {value!r}", "optionText", option=key, value=value)
        if key in CHOICES:
            check_choice(key, value, CHOICES[key])
    return dataclasses.replace(base, **options)
