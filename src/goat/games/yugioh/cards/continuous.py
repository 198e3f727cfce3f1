"""Continuous ATK/DEF modifiers, computed when asked (derived state).

Each entry maps a card name to a function ``(duel, source, target) ->
(atk, def)`` giving what the face-up ``source`` adds to ``target``'s ATK and
DEF now: Field Spells (Yami, Sogen, Mystic Plasma Zone) for every face-up
monster, Union monsters for the monster they are equipped to, Blade Knight for
itself. :meth:`Duel.atk` sums them, so they never go stale.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.duel import Duel
    from goat.games.yugioh.zones import CardInst

Modifier = Callable[["Duel", "CardInst", "CardInst"], tuple[int, int]]


def _field(table: dict[str, int], attribute: dict[str, tuple[int, int]] | None = None) -> Modifier:
    """A Field Spell: +/- by the target's Type (same for ATK and DEF), or by Attribute."""
    def modify(duel: "Duel", source: "CardInst", target: "CardInst") -> tuple[int, int]:
        if source.zone != "spell" or not source.face_up:
            return 0, 0
        if attribute is not None:
            return attribute.get(target.data.attribute, (0, 0))
        bonus = table.get(target.data.race, 0)
        return bonus, bonus
    return modify


def _union(bonus: int) -> Modifier:
    def modify(duel: "Duel", source: "CardInst", target: "CardInst") -> tuple[int, int]:
        if source.zone == "spell" and source.face_up and source.equipped_to is target:
            return bonus, bonus
        return 0, 0
    return modify


def _blade_knight(duel: "Duel", source: "CardInst", target: "CardInst") -> tuple[int, int]:
    if source is target and len(duel.players[source.controller].hand) <= 1:
        return 400, 0
    return 0, 0


MODIFIERS: dict[str, Modifier] = {
    "Yami": _field({"Fiend": 200, "Spellcaster": 200, "Fairy": -200}),
    "Sogen": _field({"Warrior": 200, "Beast-Warrior": 200}),
    "Mystic Plasma Zone": _field({}, {"DARK": (500, -400)}),
    "Y-Dragon Head": _union(400),
    "Z-Metal Tank": _union(600),
    "Blade Knight": _blade_knight,
}


def stat_bonus(duel: "Duel", target: "CardInst", spells: bool = True) -> tuple[int, int]:
    """What every face-up modifier on the field adds to ``target`` now
    (``spells=False``: leaving out Spell cards' modifiers, for a monster
    unaffected by Spell cards)."""
    atk = defense = 0
    for p in duel.players:
        for source in p.monsters + p.spells:
            if source is not None and source.face_up and source.name in MODIFIERS \
                    and (spells or source.data.kind != "spell"):
                da, dd = MODIFIERS[source.name](duel, source, target)
                atk, defense = atk + da, defense + dd
    return atk, defense


#: Continuous effects that make monsters unaffected by Spell cards depending on
#: derived stats (Goat rule 16's loops come from such effects, e.g. Pole
#: Position): card name -> function ``(duel, source, atk_by_monster) -> the
#: monsters unaffected by Spells``. No card of the pool has one yet; the engine
#: (:meth:`Duel.spell_immune`) iterates them to a fixpoint and reports a loop
#: when there is none. Tests register a test-only card here.
SPELL_IMMUNITY: dict[str, Callable[["Duel", "CardInst", dict["CardInst", int]], frozenset["CardInst"]]] = {}
