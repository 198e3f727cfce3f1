"""What an effect implementation looks like (one class per effect).

An effect is a small object that answers four questions for the engine:

* ``can_activate(duel, card, seat)`` — may it be activated now (beyond the
  timing the engine checks: spell speed, zones, phases, the Damage Step)?
* ``activate(duel, link)`` — a generator: pay the costs and pick the targets
  (every choice is a :class:`~goat.games.yugioh.decisions.Decision`).
* ``resolve(duel, link)`` — a generator: do what the card says, re-checking
  its targets (a lost target does nothing).
* for trigger effects, ``triggers(duel, card, event)`` — the seat that
  activates it when ``event`` happens, else ``None``; ``can_trigger`` says
  whether it can be put on a chain at all (e.g. a target exists).

Costs are paid in ``activate`` and effects happen in ``resolve``, so a cost
is never undone and a destroyed card's effect still resolves.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from goat.games.yugioh.prompts import Say

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.duel import Duel
    from goat.games.yugioh.zones import CardInst

Gen = Generator[Any, Any, Any]


@dataclass
class Link:
    """One chain link: the effect, its card and controller, targets and notes."""

    effect: "Effect"
    card: "CardInst"
    seat: int
    speed: int
    card_stamp: int = 0
    targets: list[tuple["CardInst", int]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Trigger:
    """A trigger effect waiting to be put on a chain (SEGOC)."""

    effect: "Effect"
    card: "CardInst"
    seat: int
    event: tuple[Any, ...]
    mid_chain: bool = False


class Effect:
    """Base effect. Subclasses set ``kind``, ``key`` and override the hooks.

    kind: ``"card"`` (activating a Spell/Trap card), ``"ignition"`` (a monster's
    Main Phase effect, spell speed 1), ``"trigger"``, ``"quick"`` (an effect of a
    face-up card usable at spell speed 2, e.g. Skull Lair's). ``zone``: where the
    card must be, face up, for an ignition or quick effect.
    """

    kind = "card"
    zone = "monster"
    key = "main"
    label = ""            # shown after the card when a card has several effects
    once_per_turn = False
    once_key = ""         # effects sharing a once-per-turn (Black Luster Soldier's two modes)
    mandatory = True      # triggers only
    trigger_speed = 1

    def speed_of(self, card: "CardInst") -> int:
        if self.kind == "card":
            d = card.data
            if d.kind == "spell":
                return 2 if d.subtype == "quick-play" else 1
            return 3 if d.subtype == "counter" else 2
        return 1 if self.kind in ("ignition", "trigger") else 2

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return True

    def activate(self, duel: "Duel", link: Link) -> Gen:
        return
        yield  # pragma: no cover

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        return
        yield  # pragma: no cover

    def negated(self, duel: "Duel", link: Link) -> None:
        """Its activation was negated (a Counter Trap): undo what comes only with an
        activation that stands (Scapegoat's no-Summon lock); costs stay paid."""

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        return None

    def can_trigger(self, duel: "Duel", trig: Trigger) -> bool:
        return True


def flipped(card: "CardInst", event: tuple[Any, ...]) -> bool:
    """Is ``event`` the flip of ``card`` (face-down to face-up: its FLIP effect)?"""
    return event[0] == "flipped" and event[1] is card


class FlipTrigger(Effect):
    """A FLIP effect: triggers for its controller when the card is flipped."""

    kind = "trigger"

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        return card.controller if flipped(card, event) else None


class ReturnFromGraveyard(Effect):
    """Target a card of the activating player's Graveyard that :meth:`finds`
    lists; on resolution it returns to the hand if it is still there."""

    kind = "trigger"
    prompt = Say("returnWhichCard")

    def finds(self, duel: "Duel", seat: int) -> list["CardInst"]:  # pragma: no cover - each card says
        raise NotImplementedError

    def can_trigger(self, duel: "Duel", trig: Trigger) -> bool:
        return bool(self.finds(duel, trig.seat))

    def activate(self, duel: "Duel", link: Link) -> Gen:
        pick = yield from duel.choose_card(link.seat, "target", self.prompt, self.finds(duel, link.seat))
        duel.target(link, pick)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is not None and target.zone == "gy":
            duel.to_hand(target)
            duel.check_over()
        return
        yield  # pragma: no cover


class BattleDamageTrigger(Effect):
    """Triggers for its controller when this monster inflicts battle damage on the
    opponent (Airknight Parshath, Spirit Reaper)."""

    kind = "trigger"

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        if event[0] == "battle_damage" and event[1] is card and card.zone == "monster" and event[2] != card.controller:
            return card.controller
        return None


class DrawOne(Effect):
    """Resolves by drawing one card for the activating player."""

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        duel.draw(link.seat, 1)
        duel.check_over()
        return
        yield  # pragma: no cover


class FlipDownTarget(Effect):
    """Target a face-up monster and turn it face-down (Book of Moon, Tsukuyomi).

    A Token is always face up (it can never be turned face-down), so it is no
    target: a Sheep Token is never a face-down monster."""

    @staticmethod
    def targets(duel: "Duel") -> list["CardInst"]:
        return [c for c in duel.face_up_monsters() if not c.is_token]

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(self.targets(duel))

    def can_trigger(self, duel: "Duel", trig: Trigger) -> bool:
        return bool(self.targets(duel))

    def activate(self, duel: "Duel", link: Link) -> Gen:
        target = yield from duel.choose_card(link.seat, "target", Say("turnFaceDown"), self.targets(duel))
        duel.target(link, target)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is not None and target.zone == "monster" and target.face_up and not target.is_token:
            duel.flip_down(target)
        return
        yield  # pragma: no cover
