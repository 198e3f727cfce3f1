"""Trap cards of the Goat Control pool.

"When ..." Traps (Mirror Force, Sakuretsu Armor, Torrential Tribute) look at
``duel.window_events``: what just happened in the window they are activated
in (an attack declaration, a summon), which stays visible to every link of the
chain built in that window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goat.games.yugioh.cards.base import Effect, Gen, Link
from goat.games.yugioh.cards.spells import DestroySpellTrap, Revive
from goat.games.yugioh.prompts import Say

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.duel import Duel
    from goat.games.yugioh.zones import CardInst


def _attack_by_opponent(duel: "Duel", seat: int) -> tuple[Any, ...] | None:
    for event in duel.window_events:
        if event[0] == "attack" and event[3] != seat:
            return event
    return None


class MirrorForce(Effect):
    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return _attack_by_opponent(duel, seat) is not None

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        doomed = [c for c in duel.monsters(1 - link.seat) if c.face_up and c.attack_pos]
        duel.destroy(doomed, "Mirror Force")
        return
        yield  # pragma: no cover


class SakuretsuArmor(Effect):
    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        event = _attack_by_opponent(duel, seat)
        return event is not None and event[1].zone == "monster"

    def activate(self, duel: "Duel", link: Link) -> Gen:
        attacker = _attack_by_opponent(duel, link.seat)[1]
        duel.target(link, attacker)
        return
        yield  # pragma: no cover

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is not None and target.zone == "monster":
            duel.destroy([target], "Sakuretsu Armor")
        return
        yield  # pragma: no cover


class TorrentialTribute(Effect):
    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return any(e[0] == "summoned" for e in duel.window_events) and bool(duel.monsters())

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        duel.destroy(duel.monsters(), "Torrential Tribute")
        return
        yield  # pragma: no cover


class RingOfDestruction(Effect):
    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(duel.face_up_monsters())

    def activate(self, duel: "Duel", link: Link) -> Gen:
        target = yield from duel.choose_card(link.seat, "target", Say("destroyWhichFaceUp"),
                                             duel.face_up_monsters())
        duel.target(link, target)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is None or target.zone != "monster" or not target.face_up:
            return
        atk = duel.atk(target)
        if duel.destroy([target], "Ring of Destruction"):
            for seat in (0, 1):
                duel.damage(seat, atk)
            duel.check_over()
        return
        yield  # pragma: no cover


EFFECTS: dict[str, tuple[Effect, ...]] = {
    "Mirror Force": (MirrorForce(),),
    "Sakuretsu Armor": (SakuretsuArmor(),),
    "Torrential Tribute": (TorrentialTribute(),),
    "Ring of Destruction": (RingOfDestruction(),),
    "Call of the Haunted": (Revive(),),
    "Dust Tornado": (DestroySpellTrap(opponent_only=True, then_set=True),),
}
