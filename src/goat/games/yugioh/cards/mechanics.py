"""Cards that exercise whole mechanics: Field Spells (Goat rule 3), Fusion
with Polymerization, Ritual Summons, Union monsters (rule 17) and a Continuous
Trap with an ignition-like effect (Skull Lair, rule 6)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from goat.games.yugioh.cards.base import Effect, Gen, Link
from goat.games.yugioh.prompts import Line, Say

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.duel import Duel
    from goat.games.yugioh.zones import CardInst


# ---------------------------------------------------------------- Field Spells
class FieldSpell(Effect):
    """Activating a Field Spell: its modifiers live in :mod:`.continuous`; on
    resolution Goat rule 3 destroys the other face-up Field Spell."""

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        duel.field_spell_resolves(link.card)
        return
        yield  # pragma: no cover


# ---------------------------------------------------------------------- Fusion
def _material_pool(duel: "Duel", seat: int, exclude: "CardInst | None" = None) -> list["CardInst"]:
    p = duel.players[seat]
    return [c for c in p.hand + p.field_monsters() if c.data.is_monster and not c.is_token and c is not exclude]


def _fusions(duel: "Duel", seat: int, exclude: "CardInst | None" = None) -> list["CardInst"]:
    """Fusion monsters in ``seat``'s Fusion Deck whose materials are at hand."""
    pool = Counter(c.name for c in _material_pool(duel, seat, exclude))
    p = duel.players[seat]
    out = []
    for f in p.fusion:
        need = Counter(f.data.materials)
        if need and not need - pool:
            on_field = any(c.name in need for c in p.field_monsters())
            if on_field or p.free("monster"):
                out.append(f)
    return out


class Polymerization(Effect):
    """Fusion Summon: the materials go to the Graveyard, the Fusion monster
    comes from the Fusion Deck (properly summoned)."""

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(_fusions(duel, seat, card)) and not duel.summon_locked(seat)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        seat = link.seat
        if duel.summon_locked(seat):   # Scapegoat chained after this card's activation
            return
        choices = _fusions(duel, seat)
        if not choices:
            duel.say(Line("materialsGone"))
            return
        fusion = yield from duel.choose_card(seat, "summon", Say("fusionSummonWhich"), choices)
        used: list["CardInst"] = []
        for name in fusion.data.materials:
            pool = [c for c in _material_pool(duel, seat) if c.name == name and c not in used]
            used.append((yield from duel.choose_card(seat, "cost", Say("fusionMaterial", card=name), pool)))
        for c in used:  # sent, not discarded, from the hand
            duel.send_to_gy(c, "Fusion Material")
        duel.adjust()
        if not duel.players[seat].free("monster"):
            return
        attack = yield from duel.ask_position(seat, fusion)
        duel.special_summon(fusion, seat, attack, how="fusion")
        fusion.proper = True


# ---------------------------------------------------------------------- Ritual
RITUALS = {"Black Luster Ritual": "Black Luster Soldier"}


def _tribute_pool(duel: "Duel", seat: int, ritual: "CardInst") -> list["CardInst"]:
    p = duel.players[seat]
    return [c for c in p.hand + p.field_monsters() if c.data.is_monster and c is not ritual]


class RitualSpell(Effect):
    """Tribute monsters from the hand or field whose Levels add up to at least
    the Ritual monster's, then Ritual Summon it from the hand."""

    def monsters(self, duel: "Duel", card: "CardInst", seat: int) -> list["CardInst"]:
        wanted = RITUALS[card.name]
        out = []
        for m in duel.players[seat].hand:
            if m.name != wanted:
                continue
            pool = _tribute_pool(duel, seat, m)
            room = duel.players[seat].free("monster") or any(c.zone == "monster" for c in pool)
            if room and sum(c.data.level for c in pool) >= m.data.level:
                out.append(m)
        return out

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(self.monsters(duel, card, seat)) and not duel.summon_locked(seat)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        seat = link.seat
        if duel.summon_locked(seat):   # Scapegoat chained after this card's activation
            return
        choices = self.monsters(duel, link.card, seat)
        if not choices:
            duel.say(Line("noRitual", card=link.card.name))
            return
        monster = yield from duel.choose_card(seat, "summon", Say("ritualSummonWhich"), choices)
        chosen: list["CardInst"] = []
        while sum(c.data.level for c in chosen) < monster.data.level:
            pool = [c for c in _tribute_pool(duel, seat, monster) if c not in chosen]
            if not pool:  # pragma: no cover - checked above
                return
            need = monster.data.level - sum(c.data.level for c in chosen)
            chosen.append((yield from duel.choose_card(seat, "tribute", Say("ritualTribute", need=need),
                                                       pool)))
        for c in chosen:  # tributed, not discarded, from the hand
            duel.send_to_gy(c, "Ritual tribute")
        duel.adjust()
        if not duel.players[seat].free("monster"):
            return
        attack = yield from duel.ask_position(seat, monster)
        duel.special_summon(monster, seat, attack, how="ritual")
        monster.proper = True


# ----------------------------------------------------------------------- Union
class UnionEquip(Effect):
    """Once per turn: equip this Union monster to a face-up monster it names.
    Goat rule 17 (``one_union_per_monster``): a monster holds one Union at most."""

    kind = "ignition"
    once_per_turn = True
    once_key = "union"
    label = "equip"

    def hosts(self, duel: "Duel", card: "CardInst", seat: int) -> list["CardInst"]:
        return [c for c in duel.face_up_monsters(seat) if c is not card and c.name in card.data.materials
                and not (duel.rules.one_union_per_monster and duel.unions_on(c))]

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return bool(self.hosts(duel, card, seat)) and duel.players[seat].free("spell") > 0

    def activate(self, duel: "Duel", link: Link) -> Gen:
        host = yield from duel.choose_card(link.seat, "target", Say("equipToWhich"),
                                           self.hosts(duel, link.card, link.seat))
        duel.target(link, host)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        host, me = duel.target_ok(link), link.card
        if host is None or host.zone != "monster" or not host.face_up or host.controller != link.seat \
                or not duel.still_there(me, link.card_stamp) or me.zone != "monster" or not me.face_up \
                or duel.players[link.seat].free("spell") == 0 \
                or (duel.rules.one_union_per_monster and duel.unions_on(host)):
            duel.say(Line("cannotEquip", card=me.name))
            return
        duel.move(me, "spell", link.seat, face_up=True)
        me.equipped_to, me.equip_stamp = host, host.stamp
        me.used_turn["union"] = duel.turn
        duel.say(Line("equippedAsUnion", card=me.name, host=host.name))
        duel.adjust()
        return
        yield  # pragma: no cover


class UnionUnequip(Effect):
    """Once per turn: unequip the Union and Special Summon it in Attack Position."""

    kind = "ignition"
    zone = "spell"
    once_per_turn = True
    once_key = "union"
    label = "unequip"

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return card.equipped_to is not None and duel.players[seat].free("monster") > 0 and not duel.summon_locked(seat)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        me = link.card
        if not duel.still_there(me, link.card_stamp) or me.zone != "spell" or not duel.players[link.seat].free("monster") \
                or duel.summon_locked(link.seat):
            return
        duel.special_summon(me, link.seat, True, how="union")
        me.used_turn["union"] = duel.turn
        return
        yield  # pragma: no cover


# ------------------------------------------------------------------ Skull Lair
class SkullLairDestroy(Effect):
    """Skull Lair's ignition-like effect (spell speed 2, while face up): remove
    N monsters in your Graveyard from play to destroy a face-up Level N monster.

    Goat rule 6 (``continuous_trap_preflip``): not in the chain in which the
    card itself was flipped face up — it must have been face up already. Off:
    the effect may follow the card's own activation in the same chain."""

    kind = "quick"
    zone = "spell"
    label = "destroy"

    def targets(self, duel: "Duel", seat: int) -> list["CardInst"]:
        graveyard = sum(1 for c in duel.players[seat].gy if c.data.is_monster)
        return [c for c in duel.face_up_monsters() if 1 <= c.data.level <= graveyard]

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        if duel.rules.continuous_trap_preflip and any(l.card is card and l.effect.kind == "card"
                                                      for l in duel.chain):
            return False
        return not duel.jinzo_on_field() and bool(self.targets(duel, seat))

    def activate(self, duel: "Duel", link: Link) -> Gen:
        target = yield from duel.choose_card(link.seat, "target", Say("destroyWhichMonster"),
                                             self.targets(duel, link.seat))
        duel.target(link, target)
        for i in range(target.data.level):
            pool = [c for c in duel.players[link.seat].gy if c.data.is_monster]
            pick = yield from duel.choose_card(link.seat, "cost", Say("banishCount", i=i + 1, n=target.data.level),
                                               pool)
            duel.banish(pick, "cost of Skull Lair")

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        target = duel.target_ok(link)
        if target is not None and target.zone == "monster" and target.face_up:
            duel.destroy([target], "Skull Lair")
        return
        yield  # pragma: no cover


class Stays(Effect):
    """Activating a Continuous Trap whose use is a separate effect (it just turns face up)."""


EFFECTS: dict[str, tuple[Effect, ...]] = {
    "Yami": (FieldSpell(),),
    "Sogen": (FieldSpell(),),
    "Mystic Plasma Zone": (FieldSpell(),),
    "Polymerization": (Polymerization(),),
    "Black Luster Ritual": (RitualSpell(),),
    "Y-Dragon Head": (UnionEquip(), UnionUnequip()),
    "Z-Metal Tank": (UnionEquip(), UnionUnequip()),
    "Skull Lair": (Stays(), SkullLairDestroy()),
}
