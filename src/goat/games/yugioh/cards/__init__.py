"""The card pool: facts in :mod:`.data`, effects one module per family.

>>> card("sangan").level, [e.kind for e in effects_for("Sangan")]
(3, ['trigger'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goat.games.yugioh.cards.base import Effect
from goat.games.yugioh.cards.data import (
    CARDS,
    DATABASE,
    CardData,
    UnknownCardError,
    card,
)

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.zones import CardInst

_EFFECTS: dict[str, tuple[Effect, ...]] = {}
#: The same effects split by kind, each in the card's own order: the engine's two
#: hot scans (triggers offered an event, effects a seat may activate) look at every
#: card in play many times a step, and most cards have no effect of the kind asked.
_TRIGGERS: dict[str, tuple[Effect, ...]] = {}
_ACTIVE: dict[str, tuple[Effect, ...]] = {}


def _load() -> None:
    from goat.games.yugioh.cards import counters, mechanics, monsters, spells, traps, warriors

    for module in (monsters, spells, traps, counters, mechanics, warriors):
        _EFFECTS.update(module.EFFECTS)
    for name, effects in _EFFECTS.items():
        triggers = tuple(e for e in effects if e.kind == "trigger")
        if triggers:  # only cards that have some: emit filters on membership
            _TRIGGERS[name] = triggers
        _ACTIVE[name] = tuple(e for e in effects if e.kind != "trigger")


def effects_for(name: str) -> tuple[Effect, ...]:
    """The effects of the card called ``name`` (empty for plain monsters)."""
    if not _EFFECTS:
        _load()
    return _EFFECTS.get(name, ())


def trigger_effects_for(name: str) -> tuple[Effect, ...]:
    """The trigger effects of ``name`` (those :meth:`Duel.emit` offers events to), in order."""
    if not _EFFECTS:
        _load()
    return _TRIGGERS.get(name, ())


def with_triggers(cards: list[CardInst]) -> list[tuple[CardInst, tuple[Effect, ...]]]:
    """The cards of ``cards`` that have trigger effects, in order, each with them."""
    if not _EFFECTS:
        _load()
    triggers = _TRIGGERS
    return [(c, triggers[c.data.name]) for c in cards if c.data.name in triggers]


def active_effects_for(name: str) -> tuple[Effect, ...]:
    """The effects of ``name`` a player activates (every kind but triggers), in order."""
    if not _EFFECTS:
        _load()
    return _ACTIVE.get(name, ())


__all__ = ["CARDS", "DATABASE", "CardData", "Effect", "UnknownCardError", "active_effects_for", "card", "effects_for",
           "trigger_effects_for", "with_triggers"]
