"""Physical cards and the zones that hold them.

A :class:`CardInst` is one physical card (or token) in a duel. It knows where it
is (``zone``, ``index``), who owns and controls it, its face and position, and
the small per-field-visit facts the rules need (turn it arrived, attacks made,
counters). ``stamp`` grows each time the card changes zone, so a target
chosen earlier can be recognised as "no longer the same card" (a lost
target); a change of control or of face keeps the stamp.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from goat.games.yugioh.cards.data import CardData

MONSTER_ZONES = 5
SPELL_ZONES = 5
#: The Field Spell zone is the sixth slot of a player's Spell & Trap row
#: (``S6`` in labels): it holds only a Field Spell, and the five Spell & Trap
#: Zones never hold one.
FIELD_SLOT = SPELL_ZONES

#: Zones that are "the field".
FIELD = ("monster", "spell")
#: Zone names in the order a view lists them.
PILES = ("deck", "hand", "gy", "banished", "fusion")


@dataclass(eq=False)
class CardInst:
    """One card in a duel (identity = the object; ``uid`` is stable for logs)."""

    uid: int
    data: CardData
    owner: int
    zone: str = "deck"
    index: int = -1           # slot in monster/spell zones
    controller: int = -1
    face_up: bool = False
    attack_pos: bool = True
    stamp: int = 0
    # per field visit
    arrived_turn: int = -1
    summoned_turn: int = -1
    summoned_by: int = -1
    flipped_turn: int = -1
    position_changed_turn: int = -1
    attacks: int = 0
    attacked_uids: list[int] = field(default_factory=list)
    extra_attack: bool = False
    destroyed_by_battle_turn: int = -1
    cannot_attack_turn: int = -1
    summon_how: str = ""
    counters: int = 0
    equipped_to: "CardInst | None" = None
    equip_stamp: int = -1
    linked: "CardInst | None" = None
    linked_stamp: int = -1
    proper: bool = False          # properly Special Summoned once (may be revived); kept across moves
    atk_bonus: int = 0           # until end of turn (Rush Recklessly)
    used_turn: dict[str, int] = field(default_factory=dict)  # once-per-turn effects

    @property
    def name(self) -> str:
        return self.data.name

    @property
    def is_token(self) -> bool:
        return "token" in self.data.traits

    def on_field(self) -> bool:
        return self.zone in FIELD

    def is_face_up_monster(self) -> bool:
        return self.zone == "monster" and self.face_up

    def reset_visit(self) -> None:
        """Forget everything tied to one stay on the field (the card moved)."""
        self.stamp += 1
        self.arrived_turn = self.summoned_turn = self.summoned_by = self.flipped_turn = -1
        self.position_changed_turn = self.cannot_attack_turn = -1
        self.summon_how = ""
        self.equip_stamp = self.linked_stamp = -1
        self.attacks = 0
        self.attacked_uids = []
        self.extra_attack = False
        self.destroyed_by_battle_turn = -1
        self.counters = 0
        self.equipped_to = None
        self.linked = None
        self.atk_bonus = 0
        self.index = -1
        self.used_turn = {}


@dataclass
class PlayerZones:
    """One player's side: LP, piles (deck top = index 0) and field slots."""

    seat: int
    lp: int
    deck: list[CardInst] = field(default_factory=list)
    hand: list[CardInst] = field(default_factory=list)
    gy: list[CardInst] = field(default_factory=list)
    banished: list[CardInst] = field(default_factory=list)
    fusion: list[CardInst] = field(default_factory=list)
    monsters: list[CardInst | None] = field(default_factory=lambda: [None] * MONSTER_ZONES)
    spells: list[CardInst | None] = field(default_factory=lambda: [None] * (SPELL_ZONES + 1))

    def pile(self, zone: str) -> list[CardInst]:
        return getattr(self, zone)

    def slots(self, zone: str) -> list[CardInst | None]:
        return self.monsters if zone == "monster" else self.spells

    def field_monsters(self) -> list[CardInst]:
        return [c for c in self.monsters if c is not None]

    def field_spells(self) -> list[CardInst]:
        return [c for c in self.spells if c is not None]

    def free(self, zone: str) -> int:
        """Free Monster Zones, or free Spell & Trap Zones (not the Field Spell zone)."""
        return self.slots(zone)[:MONSTER_ZONES if zone == "monster" else SPELL_ZONES].count(None)

    def first_free(self, zone: str) -> int:
        for i, c in enumerate(self.slots(zone)[:MONSTER_ZONES if zone == "monster" else SPELL_ZONES]):
            if c is None:
                return i
        return -1

    def field_spell(self) -> CardInst | None:
        """The card in this player's Field Spell zone (face up or Set)."""
        return self.spells[FIELD_SLOT]

    def all_cards(self) -> list[CardInst]:
        """Every card of this player's, piles (in ``PILES`` order) then the field: a new list."""
        return (self.deck + self.hand + self.gy + self.banished + self.fusion
                + self.field_monsters() + self.field_spells())
