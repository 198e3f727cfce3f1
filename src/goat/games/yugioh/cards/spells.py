"""Spell cards of the Goat Control pool (plus Rush Recklessly, an ATK modifier)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from goat.games.yugioh.cards.base import Effect, FlipDownTarget, Gen, Link
from goat.games.yugioh.prompts import Line, Say

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.duel import Duel
    from goat.games.yugioh.zones import CardInst


def _others(duel: "Duel", card: "CardInst") -> list["CardInst"]:
    return [c for c in duel.spelltraps() if c is not card]


class Draw(Effect):
    """Pot of Greed (draw 2) and Graceful Charity (draw 3, discard 2)."""

    def __init__(self, count: int, discard: int = 0) -> None:
        self.count, self.discard = count, discard

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        # Goat rule 15: a draw effect may be activated with too few cards in the Deck.
        return duel.rules.draw_with_short_deck or len(duel.players[seat].deck) >= self.count

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        duel.draw(link.seat, self.count)
        duel.check_over()
        for i in range(self.discard):
            hand = duel.players[link.seat].hand
            if not hand:
                break
            card = yield from duel.choose_card(link.seat, "discard", Say("discardCount", i=i + 1, n=self.discard), hand)
            duel.discard(link.seat, card, link.card.name)


class DelinquentDuo(Effect):
    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return duel.lp_payable(seat, 1000) and bool(duel.players[1 - seat].hand)

    def activate(self, duel: "Duel", link: Link) -> Gen:
        duel.pay_lp(link.seat, 1000)
        return
        yield  # pragma: no cover

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        from goat.games.yugioh.decisions import ChanceRequest, chance

        victim = 1 - link.seat
        hand = duel.players[victim].hand
        if hand:
            name = yield from chance(lambda: ChanceRequest("discard", victim, [c.name for c in hand]))
            card = next(c for c in hand if c.name == name)
            duel.discard(victim, card, "at random, Delinquent Duo")
        if hand:
            card = yield from duel.choose_card(victim, "discard", Say("discardOfChoice"), hand)
            duel.discard(victim, card, "Delinquent Duo")


class HeavyStorm(Effect):
    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(_others(duel, card))

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        duel.destroy(_others(duel, link.card), "Heavy Storm")
        return
        yield  # pragma: no cover


class DestroySpellTrap(Effect):
    """Mystical Space Typhoon (any Spell/Trap) and Dust Tornado (the opponent's, then Set one)."""

    def __init__(self, opponent_only: bool = False, then_set: bool = False) -> None:
        self.opponent_only, self.then_set = opponent_only, then_set

    def candidates(self, duel: "Duel", card: "CardInst", seat: int) -> list["CardInst"]:
        pool = duel.spelltraps(1 - seat) if self.opponent_only else duel.spelltraps()
        return [c for c in pool if c is not card]

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(self.candidates(duel, card, seat))

    def activate(self, duel: "Duel", link: Link) -> Gen:
        target = yield from duel.choose_card(link.seat, "target", Say("destroyWhichSpellTrap"),
                                             self.candidates(duel, link.card, link.seat))
        duel.target(link, target)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is not None and target.zone == "spell":
            duel.destroy([target], link.card.name)
        if self.then_set:
            p = duel.players[link.seat]
            def settable() -> list["CardInst"]:
                # (not a Field Spell: this Set goes to a Spell & Trap Zone)
                return [c for c in p.hand if c.data.kind in ("spell", "trap") and c.data.subtype != "field"]

            # Asked whenever the hand holds a card: whether it holds a Spell/Trap is hidden.
            if p.hand and p.free("spell"):
                pick = yield from duel.choose_card(link.seat, "set", Say("setSpellTrap"),
                                                   settable, optional=True)
                if pick is not None:
                    duel.move(pick, "spell", link.seat, face_up=False)
                    duel.say(Line("setsACard", seat=link.seat), link.seat, Line("setsCard", seat=link.seat, card=pick.name))


class SnatchSteal(Effect):
    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(duel.face_up_monsters(1 - seat)) and duel.players[seat].free("monster") > 0

    def activate(self, duel: "Duel", link: Link) -> Gen:
        target = yield from duel.choose_card(link.seat, "target", Say("takeControlWhich"),
                                             duel.face_up_monsters(1 - link.seat))
        duel.target(link, target)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is None or target.zone != "monster" or not target.face_up or target.controller == link.seat:
            link.data["fizzled"] = True
            return
        card = link.card
        card.equipped_to, card.equip_stamp = target, target.stamp
        if not duel.change_control(target, link.seat):
            link.data["fizzled"] = True
        return
        yield  # pragma: no cover


class SnatchStealGain(Effect):
    """Snatch Steal's opponent gains 1000 LP in each of their Standby Phases."""

    kind = "trigger"

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple) -> int | None:
        if event[0] == "standby" and card.zone == "spell" and card.face_up and card.equipped_to is not None \
                and event[1] != card.controller:
            return card.controller
        return None

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        duel.gain_lp(1 - link.seat, 1000)
        return
        yield  # pragma: no cover


class Revive(Effect):
    """Premature Burial (pay 800, equip) and Call of the Haunted (linked)."""

    def __init__(self, lp_cost: int = 0, equip: bool = False) -> None:
        self.lp_cost, self.equip = lp_cost, equip

    def candidates(self, duel: "Duel", seat: int) -> list["CardInst"]:
        return [c for c in duel.players[seat].gy if duel.can_special(c)]

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return (bool(self.candidates(duel, seat)) and duel.players[seat].free("monster") > 0
                and not duel.summon_locked(seat) and (not self.lp_cost or duel.lp_payable(seat, self.lp_cost)))

    def activate(self, duel: "Duel", link: Link) -> Gen:
        if self.lp_cost:
            duel.pay_lp(link.seat, self.lp_cost)
        target = yield from duel.choose_card(link.seat, "target", Say("specialSummonWhich"),
                                             self.candidates(duel, link.seat))
        duel.target(link, target)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        card = link.card
        # Scapegoat chained after this card's activation still forbids the Summon.
        if target is None or target.zone != "gy" or not duel.players[link.seat].free("monster") \
                or not duel.still_there(card, link.card_stamp) or duel.summon_locked(link.seat):
            link.data["fizzled"] = True
            return
        duel.special_summon(target, link.seat, attack_pos=True)
        if self.equip:
            card.equipped_to, card.equip_stamp = target, target.stamp
        else:
            card.linked, card.linked_stamp = target, target.stamp
        return
        yield  # pragma: no cover


class Scapegoat(Effect):
    """No Summon of other monsters the turn it is activated: the lock is taken on
    activation, and given back if the activation is negated (the era's rulings:
    "If your opponent chains Magic Jammer to your Scapegoat you may still perform
    Summons that turn")."""

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        free = duel.players[seat].free("monster")
        return free >= 4 and not duel.summoned_this_turn[seat]

    def activate(self, duel: "Duel", link: Link) -> Gen:
        link.data["lock_before"] = duel.scapegoat_turn[link.seat]  # another Scapegoat's this turn stays
        duel.scapegoat_turn[link.seat] = duel.turn
        return
        yield  # pragma: no cover

    def negated(self, duel: "Duel", link: Link) -> None:
        duel.scapegoat_turn[link.seat] = link.data["lock_before"]

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        if duel.players[link.seat].free("monster") < 4:
            duel.say(Line("sheepNoZones"))
            return
        for _ in range(4):
            duel.make_token(link.seat, attack_pos=False)
        duel.say(Line("sheepTokens", seat=link.seat))
        return
        yield  # pragma: no cover


class Metamorphosis(Effect):
    """Tribute a monster you control, face-up or face-down (the card says "Tribute 1
    monster"; the rulings allow a face-down one: its Level shows as it goes to the
    Graveyard), for a Fusion monster of its Level."""

    def fodder(self, duel: "Duel", seat: int) -> list["CardInst"]:
        levels = {c.data.level for c in duel.players[seat].fusion}
        return [c for c in duel.monsters(seat) if c.data.level in levels]

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(self.fodder(duel, seat)) and not duel.summon_locked(seat)

    def activate(self, duel: "Duel", link: Link) -> Gen:
        pick = yield from duel.choose_card(link.seat, "cost", Say("tributeWhich"), self.fodder(duel, link.seat))
        link.data["level"] = pick.data.level
        duel.send_to_gy(pick, "tribute for Metamorphosis")
        duel.adjust()

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        p = duel.players[link.seat]
        choices = [c for c in p.fusion if c.data.level == link.data["level"]]
        # (Scapegoat chained after this card's activation forbids the Summon; the cost stays paid)
        if not choices or not p.free("monster") or duel.summon_locked(link.seat):
            return
        pick = yield from duel.choose_card(link.seat, "summon", Say("specialSummonFusion"), choices)
        attack = yield from duel.ask_position(link.seat, pick)
        duel.special_summon(pick, link.seat, attack)


class BookOfMoon(FlipDownTarget):
    """Book of Moon (Quick-Play): turn a face-up monster face-down."""


class Nobleman(Effect):
    def face_down(self, duel: "Duel") -> list["CardInst"]:
        return [c for c in duel.monsters() if not c.face_up]

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(self.face_down(duel))

    def activate(self, duel: "Duel", link: Link) -> Gen:
        target = yield from duel.choose_card(link.seat, "target", Say("destroyWhichFaceDown"),
                                             self.face_down(duel))
        duel.target(link, target)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is None or target.zone != "monster" or target.face_up:
            return
        name, flip = target.name, "flip" in target.data.traits
        duel.destroy([target], "Nobleman of Crossout", banish=True)
        if flip:
            for seat in (0, 1):
                if duel.rules.reveal_for_checks:
                    duel.say(Line("revealsDeck", seat=seat, card=name))
                for card in [c for c in duel.players[seat].deck if c.name == name]:
                    duel.banish(card, "Nobleman of Crossout")
                duel.facts.append(((f"nocopy {seat} {name}",) * 3, None))
        return
        yield  # pragma: no cover


class RushRecklessly(Effect):
    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(duel.face_up_monsters())

    def activate(self, duel: "Duel", link: Link) -> Gen:
        target = yield from duel.choose_card(link.seat, "target", Say("gainsAtk", n=700),
                                             duel.face_up_monsters())
        duel.target(link, target)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is not None and target.zone == "monster" and target.face_up:
            target.atk_bonus += 700
            duel.say(Line("gainsAtk", card=target.name, n=700, atk=duel.atk(target)))
        return
        yield  # pragma: no cover


EFFECTS: dict[str, tuple[Effect, ...]] = {
    "Pot of Greed": (Draw(2),),
    "Graceful Charity": (Draw(3, discard=2),),
    "Delinquent Duo": (DelinquentDuo(),),
    "Heavy Storm": (HeavyStorm(),),
    "Mystical Space Typhoon": (DestroySpellTrap(),),
    "Snatch Steal": (SnatchSteal(), SnatchStealGain()),
    "Premature Burial": (Revive(lp_cost=800, equip=True),),
    "Scapegoat": (Scapegoat(),),
    "Metamorphosis": (Metamorphosis(),),
    "Book of Moon": (BookOfMoon(),),
    "Nobleman of Crossout": (Nobleman(),),
    "Rush Recklessly": (RushRecklessly(),),
}
