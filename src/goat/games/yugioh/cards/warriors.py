"""Cards of the Chaos and Warrior decks of the format (beyond Goat Control).

Jinzo's lock is a timing rule (:meth:`ChainMixin.card_timing_ok`), Blade
Knight's bonus a continuous modifier (:mod:`.continuous`) and Spirit Reaper's
battle immunity a battle rule (:mod:`..battle`); this module holds the effects
that use a chain link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goat.games.yugioh.cards.base import (
    BattleDamageTrigger,
    DrawOne,
    Effect,
    FlipTrigger,
    Gen,
    Link,
    ReturnFromGraveyard,
    Trigger,
    flipped,
)
from goat.games.yugioh.prompts import Line, Say

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.duel import Duel
    from goat.games.yugioh.zones import CardInst


def _tribute_summoned(card: "CardInst", event: tuple[Any, ...]) -> bool:
    return event[0] == "summoned" and event[1] is card and event[2] == "normal" and card.data.level >= 5


class ExiledForce(Effect):
    """Tribute this card (cost) to destroy one monster on the field."""

    kind = "ignition"

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return any(c is not card for c in duel.monsters())

    def activate(self, duel: "Duel", link: Link) -> Gen:
        target = yield from duel.choose_card(link.seat, "target", Say("destroyWhichMonster"),
                                             [c for c in duel.monsters() if c is not link.card])
        duel.target(link, target)
        duel.send_to_gy(link.card, "tributed for its effect")
        duel.adjust()

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is not None and target.zone == "monster":
            duel.destroy([target], "Exiled Force")
        return
        yield  # pragma: no cover


class DestroyMonsterTrigger(Effect):
    """Night Assailant's Flip effect, Zaborg's on Tribute Summon: destroy one monster."""

    kind = "trigger"

    def __init__(self, when: str) -> None:
        self.when = when

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        fired = flipped(card, event) if self.when == "flip" else _tribute_summoned(card, event)
        return card.controller if fired else None

    def can_trigger(self, duel: "Duel", trig: Trigger) -> bool:
        return bool(duel.monsters())

    def activate(self, duel: "Duel", link: Link) -> Gen:
        target = yield from duel.choose_card(link.seat, "target", Say("destroyWhichMonster"), duel.monsters())
        duel.target(link, target)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is not None and target.zone == "monster":
            duel.destroy([target], link.card.name)
        return
        yield  # pragma: no cover


class AssailantReturn(ReturnFromGraveyard):
    """Night Assailant discarded from the hand: return a Flip monster (not Night
    Assailant) from your Graveyard to your hand."""

    prompt = Say("returnWhichFlip")

    def finds(self, duel: "Duel", seat: int) -> list["CardInst"]:
        return [c for c in duel.players[seat].gy if "flip" in c.data.traits and c.name != "Night Assailant"]

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        if event[0] == "sent_to_gy" and event[1] is card and event[2] == "hand" and event[5] and card.zone == "gy":
            return card.owner
        return None


class FlipDraw(FlipTrigger, DrawOne):
    """Dekoichi the Battlechanted Locomotive: Flip: draw one card."""


class MobiusDestroy(Effect):
    """Mobius the Frost Monarch: when Tribute Summoned, you may destroy up to two Spells/Traps."""

    kind = "trigger"
    mandatory = False

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        return card.controller if _tribute_summoned(card, event) else None

    def can_trigger(self, duel: "Duel", trig: Trigger) -> bool:
        return bool(duel.spelltraps())

    def activate(self, duel: "Duel", link: Link) -> Gen:
        first = yield from duel.choose_card(link.seat, "target", Say("destroyWhichSpellTrap"), duel.spelltraps())
        duel.target(link, first)
        rest = [c for c in duel.spelltraps() if c is not first]
        if rest:
            second = yield from duel.choose_card(link.seat, "target", Say("destroySecondSpellTrap"), rest, optional=True)
            if second is not None:
                duel.target(link, second)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        found = [duel.target_ok(link, i) for i in range(len(link.targets))]
        duel.destroy([c for c in found if c is not None and c.zone == "spell"], "Mobius the Frost Monarch")
        return
        yield  # pragma: no cover


class ReaperDiscard(BattleDamageTrigger):
    """Spirit Reaper: when it deals battle damage, the opponent discards one card at random."""

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        from goat.games.yugioh.decisions import ChanceRequest, chance

        victim = 1 - link.seat
        hand = duel.players[victim].hand
        if hand:
            name = yield from chance(lambda: ChanceRequest("discard", victim, [c.name for c in hand]))
            card = next(c for c in hand if c.name == name)
            duel.discard(victim, card, "at random, Spirit Reaper")


class ReinforcementOfTheArmy(Effect):
    """Add a Level 4 or lower Warrior from the Deck to the hand (Goat rule 8:
    activatable with none to find; the Deck is shuffled anyway)."""

    @staticmethod
    def finds(duel: "Duel", seat: int) -> list["CardInst"]:
        return [c for c in duel.players[seat].deck
                if c.data.is_monster and c.data.race == "Warrior" and 1 <= c.data.level <= 4]

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return duel.rules.search_without_target or bool(self.finds(duel, seat))

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        seat = link.seat
        if self.finds(duel, seat):
            pick = yield from duel.choose_card(seat, "search", Say("searchWarrior"),
                                               lambda: self.finds(duel, seat))
            duel.move(pick, "hand", seat, reveal=True)
            duel.say(Line("addsFromDeck", seat=seat, card=pick.name))
        else:
            duel.say(Line("findsNoWarrior", seat=seat))
            duel.facts.append(((f"nofind {seat} warrior",) * 3, None))
        yield from duel.shuffle(seat)


class SwordsmanLevelUp(Effect):
    """A Mystic Swordsman's level-up, one mechanism for LV2 (to LV4) and LV4 (to LV6),
    parameterised by the name it summons: in the End Phase of a turn (either player's)
    in which it destroyed a monster by battle — as the attacker or as the attacked
    monster, not with its own face-down destruction, which is no battle — its
    controller may send it, face up, to the Graveyard (the cost) to Special Summon
    the next level (``level_up``) from the Deck, else from the hand (the Deck first: taking it
    from there is never worse — the hand keeps its card and shows nothing), in the
    position they choose, then shuffle the Deck. An optional trigger of the era's
    texts; a Deck search, so under Goat rule 8 it may be activated with no copy to
    find (the Deck and hand are then shown to hold none: rule 7). Leaving the field or
    turning face-down resets the condition (TCG ruling): a card's
    ``destroyed_by_battle_turn`` goes with its stay face up. The Special Summon comes
    with the effect's resolution, so no Counter Trap may negate it (Solemn Judgment
    negates Summons that are no effect's).

    ``tag`` names the level in the ``nofind`` glimpses the search leaves ("nofind 1
    lv4", "nofind 1 lv6 hand"), which the world sampler reads (:mod:`..worlds`)."""

    kind = "trigger"
    mandatory = False

    def __init__(self, level_up: str, tag: str) -> None:
        self.level_up = level_up
        self.tag = tag

    def triggers(self, duel: "Duel", card: "CardInst", event: tuple[Any, ...]) -> int | None:
        if event[0] == "end_phase" and card.is_face_up_monster() and card.destroyed_by_battle_turn == duel.turn:
            return card.controller
        return None

    def copies(self, duel: "Duel", seat: int, zone: str) -> list["CardInst"]:
        p = duel.players[seat]
        return [c for c in (p.deck if zone == "deck" else p.hand) if c.name == self.level_up]

    def can_trigger(self, duel: "Duel", trig: Trigger) -> bool:
        card, seat = trig.card, trig.seat
        if not (card.is_face_up_monster() and card.controller == seat and card.destroyed_by_battle_turn == duel.turn):
            return False  # gone, turned face-down or taken since: the cost cannot be paid
        if duel.summon_locked(seat):
            return False  # Scapegoat: no Special Summon this turn, so no activation for one
        return duel.rules.search_without_target or bool(self.copies(duel, seat, "deck") + self.copies(duel, seat, "hand"))

    def activate(self, duel: "Duel", link: Link) -> Gen:
        duel.send_to_gy(link.card, f"cost of {link.card.name}")
        duel.adjust()
        return
        yield  # pragma: no cover

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        seat = link.seat
        zone = "deck" if self.copies(duel, seat, "deck") else "hand"
        if zone == "hand":  # the Deck was searched and holds none, the hand too if it has none: rule 7 shows it
            found = bool(self.copies(duel, seat, "hand"))
            duel.facts.append(((f"nofind {seat} {self.tag}" + ("" if found else " hand"),) * 3, None))
        if not self.copies(duel, seat, zone):
            duel.say(Line("findsNoCard", seat=seat, card=self.level_up))
        elif duel.players[seat].free("monster") and not duel.summon_locked(seat):
            pick = yield from duel.choose_card(seat, "search", Say("specialSummonWhich"),
                                               lambda: self.copies(duel, seat, zone))
            attack = yield from duel.ask_position(seat, pick)
            duel.special_summon(pick, seat, attack)
            pick.proper = True   # summoned by its lower level, as its text says: properly summoned
        yield from duel.shuffle(seat)


class LastTurn(Effect):
    """Last Turn, a Normal Trap: only in the opponent's turn, at 1000 LP or less,
    controlling a monster. On resolution its player keeps one monster they control
    (chosen then: it is no target) and every other card on the field and in both
    hands is sent to the Graveyard — that is all the chain link does (the rulings:
    "not all of its effects are applied when the Trap Card resolves"). After the
    whole chain the opponent Special Summons a monster from their Deck and it
    attacks the kept monster (:meth:`BattleMixin.last_turn_battle`); in this
    turn's End Phase the player who alone controls monsters wins, anything else
    is a draw (:meth:`Duel.last_turn_verdict`)."""

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return duel.turn_player != seat and duel.players[seat].lp <= 1000 and bool(duel.monsters(seat))

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        seat = link.seat
        mine = duel.monsters(seat)
        keep = None
        if mine:  # none when a response removed them: the rest happens all the same
            keep = yield from duel.choose_card(seat, "target", Say("keepWhichMonster"), mine)
            duel.say(Line("keepsMonster", seat=seat, target=duel.label(keep, None)))
        doomed = [c for c in duel.all_field() if c is not keep]
        # Each hand in name order, not hand order: which hidden card is where is secret
        # (as Morphing Jar's discards).
        doomed += [c for p in duel.players for c in sorted(p.hand, key=lambda c: c.name)]
        for c in doomed:
            if c.zone in ("monster", "spell", "hand"):  # an equip may have gone with its monster
                duel.send_to_gy(c, "Last Turn")
        duel.adjust()
        duel.last_turn_pending.append((seat, keep, -1 if keep is None else keep.stamp))
        duel.last_turn_verdict_turn = duel.turn


EFFECTS: dict[str, tuple[Effect, ...]] = {
    "Exiled Force": (ExiledForce(),),
    "Night Assailant": (DestroyMonsterTrigger("flip"), AssailantReturn()),
    "Zaborg the Thunder Monarch": (DestroyMonsterTrigger("tribute"),),
    "Dekoichi the Battlechanted Locomotive": (FlipDraw(),),
    "Mobius the Frost Monarch": (MobiusDestroy(),),
    "Spirit Reaper": (ReaperDiscard(),),
    "Reinforcement of the Army": (ReinforcementOfTheArmy(),),
    "Last Turn": (LastTurn(),),
    "Mystic Swordsman LV2": (SwordsmanLevelUp("Mystic Swordsman LV4", "lv4"),),
    "Mystic Swordsman LV4": (SwordsmanLevelUp("Mystic Swordsman LV6", "lv6"),),
}
