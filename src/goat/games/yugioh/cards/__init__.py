"""The card pool: facts in :mod:`.data`, effects one module per family.

>>> card("sangan").level, [e.kind for e in effects_for("Sangan")]
(3, ['trigger'])
"""

from __future__ import annotations

from goat.games.yugioh.cards.base import Effect
from goat.games.yugioh.cards.data import (
    CARDS,
    DATABASE,
    CardData,
    UnknownCardError,
    card,
)

_EFFECTS: dict[str, tuple[Effect, ...]] = {}


def _load() -> None:
    from goat.games.yugioh.cards import mechanics, monsters, spells, traps, warriors

    for module in (monsters, spells, traps, mechanics, warriors):
        _EFFECTS.update(module.EFFECTS)


def effects_for(name: str) -> tuple[Effect, ...]:
    """The effects of the card called ``name`` (empty for plain monsters)."""
    if not _EFFECTS:
        _load()
    return _EFFECTS.get(name, ())


__all__ = ["CARDS", "DATABASE", "CardData", "Effect", "UnknownCardError", "card", "effects_for"]
