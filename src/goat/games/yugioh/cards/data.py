"""The card database: public card facts, effect summaries in our own words.

A :class:`CardData` holds what is printed on a card (name, kind, attribute,
Type, Level, ATK/DEF) and ``traits``, short flags the engine reads for rules
that are not effects with a chain link (Spirit return, piercing, "cannot be
Special Summoned" ...). What a card *does* lives in the effect modules of this
package, one per family, keyed by the card name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from goat.protocol import GoatError


class UnknownCardError(GoatError):
    """A card name that is not in the database."""


@dataclass(frozen=True)
class CardData:
    """One card's printed facts.

    ``kind`` is ``"monster"``, ``"spell"`` or ``"trap"``; ``subtype`` is
    ``normal``/``effect``/``fusion``/``ritual``/``union``/``token`` for
    monsters, ``normal``/``quick-play``/``continuous``/``equip``/``field``/
    ``ritual`` for spells and ``normal``/``continuous``/``counter`` for traps.
    ``materials``: a Fusion monster's materials (by name); for a Union monster,
    the monsters it may equip to.
    """

    name: str
    kind: str
    subtype: str
    text: str
    attribute: str = ""
    race: str = ""
    level: int = 0
    atk: int = 0
    defense: int = 0
    traits: frozenset[str] = field(default_factory=frozenset)
    materials: tuple[str, ...] = ()

    @property
    def is_monster(self) -> bool:
        return self.kind == "monster"

    @property
    def is_fusion(self) -> bool:
        return self.subtype == "fusion"

    @property
    def is_union(self) -> bool:
        return self.subtype == "union"

    @property
    def extra_deck(self) -> bool:
        return self.subtype == "fusion"

    @property
    def summonable_by_effect(self) -> bool:
        """May an effect Special Summon this card though it was never properly
        summoned (from the Deck, say: Last Turn)? Not a card that cannot be
        Special Summoned (Spirits, Tokens), nor one that must first be summoned
        its own way (Black Luster Soldier-likes, Fusion and Ritual monsters)."""
        return self.is_monster and not {"no_special", "token", "nomi"} & self.traits and not self.is_fusion

    def tributes_needed(self) -> int:
        return 0 if self.level <= 4 else 1 if self.level <= 6 else 2


def _m(name: str, subtype: str, attribute: str, race: str, level: int, atk: int, defense: int,
       text: str, *traits: str) -> CardData:
    return CardData(name, "monster", subtype, text, attribute, race, level, atk, defense, frozenset(traits))


def _fusion(name: str, attribute: str, race: str, level: int, atk: int, defense: int, text: str,
            materials: tuple[str, ...], *traits: str) -> CardData:
    return CardData(name, "monster", "fusion", text, attribute, race, level, atk, defense, frozenset(traits),
                    materials)


def _union(name: str, attribute: str, race: str, level: int, atk: int, defense: int, text: str,
           hosts: tuple[str, ...]) -> CardData:
    return CardData(name, "monster", "union", text, attribute, race, level, atk, defense, frozenset(), hosts)


def _s(name: str, subtype: str, text: str, *traits: str) -> CardData:
    return CardData(name, "spell", subtype, text, traits=frozenset(traits))


def _t(name: str, subtype: str, text: str, *traits: str) -> CardData:
    return CardData(name, "trap", subtype, text, traits=frozenset(traits))


#: Every Type a monster can have (Tribe-Infecting Virus declares one of these).
RACES = ("Aqua", "Beast", "Beast-Warrior", "Dinosaur", "Dragon", "Fairy", "Fiend", "Fish", "Insect",
         "Machine", "Plant", "Pyro", "Reptile", "Rock", "Sea Serpent", "Spellcaster", "Thunder",
         "Warrior", "Winged Beast", "Zombie")

CARDS: tuple[CardData, ...] = (
    # ------------------------------------------------------- Goat Control monsters
    _m("Black Luster Soldier - Envoy of the Beginning", "effect", "LIGHT", "Warrior", 8, 3000, 2500,
       "Cannot be Normal Summoned or Set. Special Summon it from your hand by removing from play one LIGHT "
       "and one DARK monster in your Graveyard. Once per turn, choose one: remove from play one monster on "
       "the field (this card cannot attack this turn), or let this card attack a second time this turn if "
       "it destroys a monster by battle.", "nomi", "light_dark"),
    _m("Chaos Sorcerer", "effect", "DARK", "Spellcaster", 6, 2300, 2000,
       "Cannot be Normal Summoned or Set. Special Summon it from your hand by removing from play one LIGHT "
       "and one DARK monster in your Graveyard. Once per turn you may remove from play one face-up monster "
       "on the field; this card cannot attack that turn.", "nomi", "light_dark"),
    _m("Airknight Parshath", "effect", "LIGHT", "Fairy", 5, 1900, 1400,
       "Attacking a Defense Position monster with lower DEF deals the difference as battle damage. When it "
       "deals battle damage to the opponent, its controller draws one card.", "piercing"),
    _m("Tsukuyomi", "effect", "DARK", "Spellcaster", 4, 1100, 1400,
       "Spirit: cannot be Special Summoned; returns to its owner's hand in the End Phase of the turn it was "
       "Normal Summoned or flipped face up. When Normal Summoned or flipped face up, turn one face-up "
       "monster on the field into face-down Defense Position.", "spirit", "no_special"),
    _m("Asura Priest", "effect", "LIGHT", "Fairy", 4, 1700, 1200,
       "Spirit: cannot be Special Summoned; returns to its owner's hand in the End Phase of the turn it was "
       "Normal Summoned or flipped face up. It may attack every monster the opponent controls, once each.",
       "spirit", "no_special", "attack_all"),
    _m("Breaker the Magical Warrior", "effect", "DARK", "Spellcaster", 4, 1600, 1000,
       "When Normal Summoned, it gets one Spell Counter (at most one). It gains 300 ATK per Spell Counter. "
       "Remove its Spell Counter to destroy one Spell or Trap card on the field."),
    _m("Tribe-Infecting Virus", "effect", "WATER", "Aqua", 4, 1600, 1000,
       "Discard one card and declare a Type: destroy every face-up monster of that Type on the field."),
    _m("D.D. Warrior Lady", "effect", "LIGHT", "Warrior", 4, 1500, 1600,
       "After damage calculation, when it battles an opponent's monster, you may remove that monster and "
       "this card from play."),
    _m("Sangan", "effect", "DARK", "Fiend", 3, 1000, 600,
       "When it is sent from the field to the Graveyard, its owner adds one monster with 1500 or less ATK "
       "from the Deck to the hand, then shuffles the Deck."),
    _m("Magician of Faith", "effect", "LIGHT", "Spellcaster", 1, 300, 400,
       "Flip: return one Spell card from your Graveyard to your hand.", "flip"),
    _m("Magical Merchant", "effect", "LIGHT", "Insect", 1, 200, 700,
       "Flip: turn over cards from the top of your Deck until a Spell or Trap appears; add it to your hand "
       "and send the other turned-over cards to the Graveyard.", "flip"),
    _m("Sinister Serpent", "effect", "WATER", "Reptile", 1, 300, 250,
       "During your Standby Phase, if this card is in your Graveyard, you may return it to your hand."),
    _m("Morphing Jar", "effect", "EARTH", "Rock", 2, 700, 600,
       "Flip: both players discard their whole hands, then each draws five cards.", "flip"),
    _m("Thousand-Eyes Restrict", "fusion", "DARK", "Spellcaster", 1, 0, 0,
       "Fusion of Relinquished and Thousand-Eyes Idol. No other monster can attack or change its battle "
       "position. Once per turn, equip one monster the opponent controls to this card (one at a time); its "
       "ATK/DEF become that monster's. If it would be destroyed by battle, the equipped monster is destroyed "
       "instead.", "no_position_lock"),
    _m("Sheep Token", "token", "EARTH", "Beast", 1, 0, 0, "A token made by Scapegoat.", "token"),
    # ------------------------------------------------------- Goat Control spells
    _s("Pot of Greed", "normal", "Draw two cards.", "draw"),
    _s("Graceful Charity", "normal", "Draw three cards, then discard two.", "draw"),
    _s("Delinquent Duo", "normal",
       "Pay 1000 LP. The opponent discards one card at random, then one card of their choice."),
    _s("Heavy Storm", "normal", "Destroy every Spell and Trap card on the field."),
    _s("Mystical Space Typhoon", "quick-play", "Destroy one Spell or Trap card on the field."),
    _s("Snatch Steal", "equip",
       "Equip to a monster the opponent controls: you control it. The opponent gains 1000 LP in each of "
       "their Standby Phases."),
    _s("Premature Burial", "equip",
       "Pay 800 LP: Special Summon one monster from your Graveyard in Attack Position and equip it with "
       "this card. When this card is destroyed, destroy that monster."),
    _s("Scapegoat", "quick-play",
       "Special Summon four Sheep Tokens in Defense Position. They cannot be tributed for a Tribute Summon. "
       "You cannot Summon other monsters the turn you activate it (you may still Set)."),
    _s("Metamorphosis", "normal",
       "Tribute one monster (face-up or face-down): Special Summon from your Fusion Deck a Fusion monster of "
       "the same Level."),
    _s("Book of Moon", "quick-play", "Turn one face-up monster into face-down Defense Position."),
    _s("Nobleman of Crossout", "normal",
       "Destroy one face-down monster and remove it from play. If it is a Flip monster, each player removes "
       "from play every card of that name in their Deck."),
    _s("Rush Recklessly", "quick-play", "One face-up monster gains 700 ATK until the end of the turn.",
       "atk_modifier"),
    # ------------------------------------------------------- Goat Control traps
    _t("Mirror Force", "normal",
       "When an opponent's monster declares an attack: destroy every Attack Position monster the "
       "opponent controls."),
    _t("Torrential Tribute", "normal", "When a monster is summoned: destroy every monster on the field."),
    _t("Ring of Destruction", "normal",
       "Destroy one face-up monster; both players take damage equal to its ATK."),
    _t("Call of the Haunted", "continuous",
       "Special Summon one monster from your Graveyard in Attack Position. When this card leaves the field, "
       "destroy that monster; when that monster is destroyed, destroy this card."),
    _t("Sakuretsu Armor", "normal", "When an opponent's monster declares an attack: destroy the attacker."),
    _t("Dust Tornado", "normal",
       "Destroy one Spell or Trap card the opponent controls; then you may Set a Spell or Trap card from "
       "your hand."),
    # ------------------------------------------------------- Counter Traps (spell speed 3)
    _t("Magic Jammer", "counter",
       "When a Spell Card is activated: discard one card to negate the activation and destroy that card."),
    _t("Seven Tools of the Bandit", "counter",
       "When a Trap Card is activated: pay 1000 LP to negate the activation and destroy that card."),
    _t("Solemn Judgment", "counter",
       "When a monster would be Normal, Tribute, Flip or Special Summoned without a chain, or a Spell or Trap Card "
       "is activated: pay half your LP (the LP left rounded up) to negate the Summon or the activation and "
       "destroy that card."),
    # ------------------------------------------------------- Field Spells (rule 3)
    _s("Yami", "field", "Fiend and Spellcaster monsters gain 200 ATK and DEF; Fairy monsters lose 200 ATK and DEF."),
    _s("Sogen", "field", "Warrior and Beast-Warrior monsters gain 200 ATK and DEF."),
    _s("Mystic Plasma Zone", "field", "DARK monsters gain 500 ATK and lose 400 DEF."),
    # ------------------------------------------------------- Fusion, Ritual, Union (rulebook, rule 17)
    _s("Polymerization", "normal",
       "Send the materials listed on a Fusion monster from your hand or field to the Graveyard: Special "
       "Summon that Fusion monster from your Fusion Deck."),
    _fusion("Gaia the Dragon Champion", "WIND", "Dragon", 7, 2600, 2100,
            "Fusion of Gaia The Fierce Knight and Curse of Dragon.", ("Gaia The Fierce Knight", "Curse of Dragon")),
    _m("Gaia The Fierce Knight", "normal", "EARTH", "Warrior", 7, 2300, 2100, "A plain monster."),
    _m("Curse of Dragon", "normal", "DARK", "Dragon", 5, 2000, 1500, "A plain monster."),
    _s("Black Luster Ritual", "ritual",
       "Tribute monsters from your hand or field whose Levels add up to 8 or more: Ritual Summon Black Luster "
       "Soldier from your hand."),
    _m("Black Luster Soldier", "ritual", "EARTH", "Warrior", 8, 3000, 2500,
       "Ritual monster: can only be Ritual Summoned with Black Luster Ritual.", "nomi", "ritual"),
    _m("X-Head Cannon", "normal", "LIGHT", "Machine", 4, 1800, 1500, "A plain monster."),
    _union("Y-Dragon Head", "LIGHT", "Machine", 4, 1500, 1600,
           "Union: once per turn, equip it to your face-up X-Head Cannon, or unequip it and Special Summon it in "
           "Attack Position. The equipped monster gains 400 ATK and DEF; if it would be destroyed by battle, "
           "this card is destroyed instead.", ("X-Head Cannon",)),
    _union("Z-Metal Tank", "LIGHT", "Machine", 4, 1500, 1300,
           "Union: once per turn, equip it to your face-up X-Head Cannon or Y-Dragon Head, or unequip it and "
           "Special Summon it in Attack Position. The equipped monster gains 600 ATK and DEF; if it would be "
           "destroyed by battle, this card is destroyed instead.", ("X-Head Cannon", "Y-Dragon Head")),
    # ------------------------------------------------------- a Continuous Trap with an ignition-like effect (rule 6)
    _t("Skull Lair", "continuous",
       "While face up: remove from play any number of monsters from your Graveyard to destroy one face-up "
       "monster whose Level equals the number removed."),
    # ------------------------------------------------------- Chaos and Warrior decks
    _m("Exiled Force", "effect", "EARTH", "Warrior", 4, 1000, 1000,
       "Tribute this card to destroy one monster on the field."),
    _m("Blade Knight", "effect", "LIGHT", "Warrior", 4, 1600, 1000,
       "Gains 400 ATK while its controller holds one card or none in hand. While it is the only monster its "
       "controller controls, the Flip effect of a Flip monster it destroys by battle is negated."),
    _m("Mystic Swordsman LV2", "effect", "EARTH", "Warrior", 2, 900, 0,
       "When it attacks a face-down Defense Position monster, destroy that monster with this effect at the "
       "start of the Damage Step, without flipping it (not a destruction by battle). In the End Phase of a turn "
       "in which this card destroyed a monster by battle, you may send this face-up card to the Graveyard to "
       "Special Summon one Mystic Swordsman LV4 from your Deck, or from your hand if the Deck has none, then "
       "shuffle the Deck (with none in either, nothing is summoned).", "swordsman"),
    _m("Mystic Swordsman LV4", "effect", "EARTH", "Warrior", 4, 1900, 1600,
       "Normal Summoned only face-down (Set). When it attacks a face-down Defense Position monster, destroy "
       "that monster with this effect at the start of the Damage Step, without flipping it. In the End Phase "
       "of a turn in which this card destroyed a monster by battle, you may send this face-up card to the "
       "Graveyard to Special Summon one Mystic Swordsman LV6 from your Deck, or from your hand if the Deck has "
       "none, then shuffle the Deck (with none in either, nothing is summoned).", "swordsman", "set_only"),
    _m("Mystic Swordsman LV6", "effect", "EARTH", "Warrior", 6, 2300, 1700,
       "Normal Summoned only face-down (Set). When it attacks a face-down Defense Position monster, destroy "
       "that monster with this effect at the start of the Damage Step, without flipping it; if your opponent "
       "owns it, you may put it on top of their Deck instead of sending it to the Graveyard (you choose "
       "without seeing it, and it stays unseen).", "swordsman", "swordsman_returns", "set_only"),
    _m("Jinzo", "effect", "DARK", "Machine", 6, 2400, 1500,
       "While face up, Trap cards cannot be activated and face-up Traps' effects are negated (here: no Trap "
       "activation, no use of Skull Lair's effect, a Trap's chain link resolves with no effect — also one "
       "activated before Jinzo came face up — and Call of the Haunted's link to its monster does nothing)."),
    _m("Spirit Reaper", "effect", "DARK", "Zombie", 3, 300, 200,
       "Cannot be destroyed by battle. Destroyed when targeted by an effect. When it deals battle damage to "
       "the opponent, they discard one card at random."),
    _m("Night Assailant", "effect", "DARK", "Fiend", 3, 200, 500,
       "Flip: destroy one monster on the field. When discarded from the hand to the Graveyard, return one Flip "
       "monster from your Graveyard to your hand (not Night Assailant).", "flip"),
    _m("Dekoichi the Battlechanted Locomotive", "effect", "DARK", "Machine", 4, 1400, 1000,
       "Flip: draw one card.", "flip"),
    _m("Mobius the Frost Monarch", "effect", "WATER", "Aqua", 6, 2400, 1000,
       "When Tribute Summoned, you may destroy up to two Spell or Trap cards on the field."),
    _m("Zaborg the Thunder Monarch", "effect", "LIGHT", "Thunder", 5, 2400, 1000,
       "When Tribute Summoned, destroy one monster on the field."),
    _t("Last Turn", "normal",
       "Activate only during your opponent's turn while you have 1000 or less LP. Keep one monster you control; "
       "every other card on the field and in both hands goes to the Graveyard. After the chain the opponent "
       "Special Summons one monster from their Deck in Attack Position and it attacks the monster you kept "
       "(no battle damage from that battle). In the End Phase of this turn, the player who alone controls "
       "monsters wins the duel; anything else is a draw."),
    _s("Reinforcement of the Army", "normal",
       "Add one Level 4 or lower Warrior monster from your Deck to your hand, then shuffle.", "search"),
    # ------------------------------------------------------- plain monsters (tests, casual decks)
    _m("Gene-Warped Warwolf", "normal", "EARTH", "Beast-Warrior", 4, 2000, 100, "A plain monster."),
    _m("Vorse Raider", "normal", "DARK", "Beast-Warrior", 4, 1900, 1200, "A plain monster."),
    _m("Mystical Elf", "normal", "LIGHT", "Spellcaster", 4, 800, 2000, "A plain monster."),
    _m("Giant Soldier of Stone", "normal", "EARTH", "Rock", 3, 1300, 2000, "A plain monster."),
    _m("Summoned Skull", "normal", "DARK", "Fiend", 6, 2500, 1200, "A plain monster."),
    _m("Dark Magician", "normal", "DARK", "Spellcaster", 7, 2500, 2100, "A plain monster."),
    _m("Blue-Eyes White Dragon", "normal", "LIGHT", "Dragon", 8, 3000, 2500, "A plain monster."),
    _m("Exodia the Forbidden One", "effect", "DARK", "Spellcaster", 3, 1000, 1000,
       "Holding this card and the four Forbidden One limbs in hand wins the duel.", "exodia"),
    _m("Right Arm of the Forbidden One", "normal", "DARK", "Spellcaster", 1, 200, 300,
       "A piece of Exodia.", "exodia"),
    _m("Left Arm of the Forbidden One", "normal", "DARK", "Spellcaster", 1, 200, 300,
       "A piece of Exodia.", "exodia"),
    _m("Right Leg of the Forbidden One", "normal", "DARK", "Spellcaster", 1, 200, 300,
       "A piece of Exodia.", "exodia"),
    _m("Left Leg of the Forbidden One", "normal", "DARK", "Spellcaster", 1, 200, 300,
       "A piece of Exodia.", "exodia"),
)

DATABASE: dict[str, CardData] = {c.name: c for c in CARDS}
_FOLDED = {c.name.casefold(): c for c in CARDS}
# Names as often typed: an en dash in BLS's name, "Envoy of the Beginning" alone.
_ALIASES = {"black luster soldier – envoy of the beginning": "Black Luster Soldier - Envoy of the Beginning",
            "black luster soldier - envoy of the beginning": "Black Luster Soldier - Envoy of the Beginning"}

EXODIA = frozenset(c.name for c in CARDS if "exodia" in c.traits)
SHEEP_TOKEN = "Sheep Token"


def card(name: str) -> CardData:
    """The card called ``name`` (case-insensitive); raises :class:`UnknownCardError`."""
    key = name.strip().casefold()
    found = _FOLDED.get(_ALIASES.get(key, key).casefold())
    if found is None or "token" in found.traits:
        raise UnknownCardError(f"unknown card {name.strip()!r}")
    return found
