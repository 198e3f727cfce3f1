"""Effect monsters of the Goat Control pool.

Summoning conditions that are not effects (Black Luster Soldier's and Chaos
Sorcerer's own Special Summon, "cannot be Special Summoned", piercing,
attacking every monster) are traits read by the engine; this module holds the
effects that use a chain link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goat.games.yugioh.cards.base import (
    BattleDamageTrigger,
    DrawOne,
    Effect,
    FlipDownTarget,
    FlipTrigger,
    Gen,
    Link,
    ReturnFromGraveyard,
    Trigger,
    flipped,
)
from goat.games.yugioh.cards.data import RACES
from goat.games.yugioh.prompts import Line, Say

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.duel import Duel
    from goat.games.yugioh.zones import CardInst


def _own_summon(card: "CardInst", event: tuple[Any, ...], *hows: str) -> bool:
    return event[0] == "summoned" and event[1] is card and event[2] in hows


# ------------------------------------------------------------ removal by ignition
class RemoveMonster(Effect):
    """Chaos Sorcerer / Black Luster Soldier: remove a monster from play; no attack this turn."""

    kind = "ignition"
    once_per_turn = True
    once_key = "chaos"

    def __init__(self, face_up_only: bool, label: str = "") -> None:
        self.face_up_only = face_up_only
        self.label = label

    def candidates(self, duel: "Duel") -> list["CardInst"]:
        return duel.face_up_monsters() if self.face_up_only else duel.monsters()

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return card.attacks == 0 and bool(self.candidates(duel))

    def activate(self, duel: "Duel", link: Link) -> Gen:
        target = yield from duel.choose_card(link.seat, "target", Say("banishWhichMonster"),
                                             self.candidates(duel))
        duel.target(link, target)
        link.card.cannot_attack_turn = duel.turn

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is not None and target.zone == "monster" and (target.face_up or not self.face_up_only):
            duel.banish(target, f"{link.card.name}'s effect")
        return
        yield  # pragma: no cover


class SecondAttack(Effect):
    """Black Luster Soldier: may attack again after destroying a monster by battle."""

    kind = "ignition"
    once_per_turn = True
    once_key = "chaos"
    label = "attack twice"

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return card.attacks == 0 and duel.phase == "main1"

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        if duel.still_there(link.card, link.card_stamp) and link.card.face_up:
            link.card.extra_attack = True
            duel.say(Line("attacksTwice", card=link.card.name))
        return
        yield  # pragma: no cover


# ------------------------------------------------------------------ triggers
class AirknightDraw(BattleDamageTrigger, DrawOne):
    """Airknight Parshath: when it inflicts battle damage, draw one card."""


class TsukuyomiFlipDown(FlipDownTarget):
    """Tsukuyomi: when Normal Summoned or flipped, turn a face-up monster face-down."""

    kind = "trigger"

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        if _own_summon(card, event, "normal") or flipped(card, event):
            return card.controller
        return None


class SpiritReturn(Effect):
    """Spirit monsters go back to the hand in the End Phase of the turn they
    were Normal Summoned or flipped face up."""

    kind = "trigger"

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        if event[0] != "end_phase" or card.zone != "monster" or not card.face_up:
            return None
        fresh = (card.summoned_turn == duel.turn and card.summon_how in ("normal", "flip")) \
            or card.flipped_turn == duel.turn
        return card.controller if fresh else None

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        if duel.still_there(link.card, link.card_stamp):
            duel.to_hand(link.card)
            duel.adjust()
        return
        yield  # pragma: no cover


class BreakerCounter(Effect):
    kind = "trigger"

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        return card.controller if _own_summon(card, event, "normal") else None

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        card = link.card
        if duel.still_there(card, link.card_stamp) and card.face_up:
            card.counters = 1
            duel.say(Line("spellCounter", card=card.name))
        return
        yield  # pragma: no cover


class BreakerDestroy(Effect):
    kind = "ignition"

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return card.counters >= 1 and bool(duel.spelltraps())

    def activate(self, duel: "Duel", link: Link) -> Gen:
        link.card.counters -= 1  # cost
        duel.say(Line("removesCounter", seat=link.seat, card=link.card.name))
        target = yield from duel.choose_card(link.seat, "target", Say("destroyWhichSpellTrap"), duel.spelltraps())
        duel.target(link, target)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is not None and target.zone == "spell":
            duel.destroy([target], "Breaker the Magical Warrior")
        return
        yield  # pragma: no cover


class VirusDestroy(Effect):
    kind = "ignition"

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(duel.players[seat].hand)

    def activate(self, duel: "Duel", link: Link) -> Gen:
        hand = duel.players[link.seat].hand
        cost = yield from duel.choose_card(link.seat, "cost", Say("discardCard"), hand)
        duel.discard(link.seat, cost, "cost of Tribe-Infecting Virus")
        race = yield from duel.ask(link.seat, "declare", Say("declareType"),
                                   [(f"choose {r}", r) for r in RACES], auto=False)
        link.data["race"] = race
        duel.say(Line("declaresType", seat=link.seat, race=race))

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        race = link.data["race"]
        doomed = [c for c in duel.face_up_monsters() if c.data.race == race]
        duel.destroy(doomed, "Tribe-Infecting Virus")
        return
        yield  # pragma: no cover


class WarriorLadyRemove(Effect):
    kind = "trigger"
    mandatory = False

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        if event[0] == "battled" and event[1] is card and card.zone == "monster" and card.face_up \
                and event[2].zone == "monster" and event[2].controller != card.controller:
            return card.controller
        return None

    def activate(self, duel: "Duel", link: Link) -> Gen:
        # "That monster" is not a target (Spirit Reaper is removed, not destroyed by being targeted).
        other = link.data["event"][2]
        link.data["other"] = (other, other.stamp)
        return
        yield  # pragma: no cover

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        other, stamp = link.data["other"]
        if other.stamp == stamp and other.zone == "monster":
            duel.banish(other, "D.D. Warrior Lady")
        if duel.still_there(link.card, link.card_stamp):
            duel.banish(link.card, "D.D. Warrior Lady")
        duel.adjust()
        return
        yield  # pragma: no cover


class SanganSearch(Effect):
    kind = "trigger"

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        if event[0] == "sent_to_gy" and event[1] is card and event[2] == "monster" and card.zone == "gy":
            # It activates in the Graveyard, its owner's: a stolen Sangan searches for its owner.
            return card.owner
        return None

    @staticmethod
    def finds(duel: "Duel", seat: int) -> list["CardInst"]:
        return [c for c in duel.players[seat].deck if c.data.is_monster and c.data.atk <= 1500]

    def can_trigger(self, duel: "Duel", trig: Trigger) -> bool:
        return duel.rules.search_without_target or bool(self.finds(duel, trig.seat))

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        found = self.finds(duel, link.seat)
        if found:
            pick = yield from duel.choose_card(link.seat, "search", Say("searchMonster"),
                                               lambda: self.finds(duel, link.seat))
            duel.move(pick, "hand", link.seat, reveal=True)
            duel.say(Line("addsFromDeck", seat=link.seat, card=pick.name))
        else:
            duel.say(Line("findsNoMonster", seat=link.seat))
            duel.facts.append(((f"nofind {link.seat}",) * 3, None))
        yield from duel.shuffle(link.seat)
        duel.check_over()


class MagicianOfFaith(FlipTrigger, ReturnFromGraveyard):
    prompt = Say("returnWhichSpell")

    def finds(self, duel: "Duel", seat: int) -> list["CardInst"]:
        return [c for c in duel.players[seat].gy if c.data.kind == "spell"]


class MagicalMerchant(FlipTrigger):
    def resolve(self, duel: "Duel", link: Link) -> Gen:
        deck = duel.players[link.seat].deck
        turned = []
        found = None
        while deck:
            top = deck[0]
            if top.data.kind in ("spell", "trap"):
                found = top
                break
            turned.append(top)
            duel.move(top, "gy", from_top=True)
        duel.say(Line("turnsOverBefore", seat=link.seat, n=len(turned), card=found.name) if found
                 else Line("turnsOverToEnd", seat=link.seat, n=len(turned)))
        for card in turned:
            duel.emit(("sent_to_gy", card, "deck", link.seat, "Magical Merchant", False))
        if found is not None:
            duel.to_hand(found, from_top=True)
        duel.check_over()
        return
        yield  # pragma: no cover


class SerpentReturn(Effect):
    kind = "trigger"
    mandatory = False

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        if event[0] == "standby" and card.zone == "gy" and event[1] == card.owner:
            return card.owner
        return None

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        if link.card.stamp == link.card_stamp and link.card.zone == "gy":
            duel.to_hand(link.card)
            duel.check_over()
        return
        yield  # pragma: no cover


class MorphingJar(FlipTrigger):
    def resolve(self, duel: "Duel", link: Link) -> Gen:
        for seat in (duel.turn_player, 1 - duel.turn_player):
            # All at once; shown by name so that the order says nothing about the hand's past.
            for card in sorted(duel.players[seat].hand, key=lambda c: c.name):
                duel.discard(seat, card, "Morphing Jar")
        for seat in (duel.turn_player, 1 - duel.turn_player):
            duel.draw(seat, 5)
        duel.check_over()
        return
        yield  # pragma: no cover


class RestrictAbsorb(Effect):
    """Thousand-Eyes Restrict equips one monster the opponent controls (one at a time)."""

    kind = "ignition"
    once_per_turn = True

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return (duel.equipped_monster(card) is None and bool(duel.monsters(1 - seat))
                and duel.players[seat].free("spell") > 0)

    def activate(self, duel: "Duel", link: Link) -> Gen:
        target = yield from duel.choose_card(link.seat, "target", Say("absorbWhichMonster"),
                                             duel.monsters(1 - link.seat))
        duel.target(link, target)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is None or target.zone != "monster":
            return
        me = link.card
        if not (duel.still_there(me, link.card_stamp) and me.face_up) or duel.players[link.seat].free("spell") == 0 \
                or duel.equipped_monster(me) is not None:
            if duel.rules.equip_monster_target_stays:
                duel.say(Line("restrictStays", card=target.name) if duel.public(target) else Line("restrictStaysFaceDown"))
            else:
                duel.say(Line("restrictSends"))
                duel.send_to_gy(target, "could not be equipped")
                duel.adjust()
            return
        duel.move(target, "spell", link.seat, face_up=True)
        target.equipped_to, target.equip_stamp = me, me.stamp
        duel.say(Line("restrictAbsorbs", card=target.name))
        duel.adjust()
        return
        yield  # pragma: no cover


EFFECTS: dict[str, tuple[Effect, ...]] = {
    "Black Luster Soldier - Envoy of the Beginning": (RemoveMonster(False, "remove"), SecondAttack()),
    "Chaos Sorcerer": (RemoveMonster(True),),
    "Airknight Parshath": (AirknightDraw(),),
    "Tsukuyomi": (TsukuyomiFlipDown(), SpiritReturn()),
    "Asura Priest": (SpiritReturn(),),
    "Breaker the Magical Warrior": (BreakerCounter(), BreakerDestroy()),
    "Tribe-Infecting Virus": (VirusDestroy(),),
    "D.D. Warrior Lady": (WarriorLadyRemove(),),
    "Sangan": (SanganSearch(),),
    "Magician of Faith": (MagicianOfFaith(),),
    "Magical Merchant": (MagicalMerchant(),),
    "Sinister Serpent": (SerpentReturn(),),
    "Morphing Jar": (MorphingJar(),),
    "Thousand-Eyes Restrict": (RestrictAbsorb(),),
}
