"""Decision prompts and duel log lines as a stable key and its arguments, and
the one place that makes their English text.

The engine asks with a :class:`Say` — ``Say("respondChainLink", n=2)`` — and
logs with a :class:`Line` — ``Line("draws", seat=0)`` — not with free text, so
that both can be shown in the reader's language: the browser looks the key up
in ``i18n.js`` (``ygo.prompts.<key>`` and ``ygo.log.<key>``, English and
Russian) and fills in the arguments, translating phase, step, position and
reason names itself. The English text everything else uses — the ``prompt``
of a decision, the log's ``text``, the terminal UI, error messages, bots that
read it — is made here alone, from :data:`PROMPTS` and :data:`LOG`, and is
exactly the text the engine wrote before prompts and log lines had keys. Both
kinds share :class:`Keyed`: one check, one formatter, one JSON form.

Arguments are numbers, card names as printed, attribute and phase names, or
— for ``where`` and ``events`` — lists of phase/step names and event kinds
(:data:`JOINS` says how the English text joins them); a log line's ``reason``
(why a card moved, a plain string the engine's triggers also read) is sent as
its :func:`cause`, a key of :data:`CAUSES` and the card it names. An item's
arguments are exactly the fields of its template (checked when it is made),
so the browser is never sent more than the English text already names: hidden
information stays hidden (a log line secret to one seat is two lines, each
with its own key and arguments; see ``duel.LogEntry``).
"""

from __future__ import annotations

import re
import string
from typing import Any

#: Every prompt the engine can use: key -> English template (``str.format``).
PROMPTS: dict[str, str] = {
    # chains and windows
    "respondChainLink": "respond to chain link {n}?",
    "windowRespond": "{where}: respond to {events}?",
    "windowActivate": "{where}: activate something?",
    "summonRespond": "respond to the Summon of {card}?",
    "triggerOrder": "which trigger goes on the chain next?",
    "triggerOptional": "activate an optional trigger?",
    # turn structure
    "first": "duel {n}: go first or second?",
    "sideDeck": "side-deck: swap a main deck card for a side deck card, or done",
    "yourMove": "{phase}: your move",
    "battleStep": "Battle Step: attack, activate or end the Battle Phase",
    "replay": "replay: choose a new target or stop the attack",
    "discardDownTo": "discard down to {n} cards",
    "tributeCount": "tribute {i} of {n}",
    "banishAttribute": "remove a {attribute} monster from your Graveyard",
    "battlePosition": "battle position for {card}",
    # card effects
    "banishWhichMonster": "remove which monster from play?",
    "destroyWhichSpellTrap": "destroy which Spell/Trap card?",
    "destroySecondSpellTrap": "and a second one?",
    "destroyWhichMonster": "destroy which monster?",
    "destroyWhichFaceUp": "destroy which face-up monster?",
    "destroyWhichFaceDown": "destroy which face-down monster?",
    "discardCard": "discard a card",
    "swordsmanToDeck": "put the destroyed monster on top of its owner's Deck instead of the Graveyard?",
    "discardOfChoice": "discard a card of your choice",
    "discardCount": "discard ({i} of {n})",
    "declareType": "declare a Type",
    "searchMonster": "add which monster to your hand?",
    "searchWarrior": "add which Warrior to your hand?",
    "absorbWhichMonster": "absorb which monster?",
    "returnWhichCard": "return which card?",
    "returnWhichSpell": "return which Spell card?",
    "returnWhichFlip": "return which Flip monster?",
    "turnFaceDown": "turn which monster face-down?",
    "fusionSummonWhich": "Fusion Summon which monster?",
    "fusionMaterial": "use which {card} as material?",
    "ritualSummonWhich": "Ritual Summon which monster?",
    "ritualTribute": "tribute for the Ritual ({need} Levels to go)",
    "equipToWhich": "equip to which monster?",
    "banishCount": "remove a monster ({i} of {n})",
    "setSpellTrap": "Set a Spell/Trap card from your hand?",
    "takeControlWhich": "take control of which monster?",
    "keepWhichMonster": "keep which monster?",
    "specialSummonWhich": "Special Summon which monster?",
    "specialSummonFusion": "Special Summon which Fusion monster?",
    "tributeWhich": "tribute which monster?",
    "gainsAtk": "which monster gains {n} ATK?",
}

#: Every duel log line: key -> English template. Seats are numbers (``{seat}``),
#: cards their printed names, ``{target}`` an action's card label
#: (``Sangan@1M2``, ``face-down@1M1``), ``{position}`` ``Attack`` or ``Defense``,
#: ``{zone}`` where a card came from (``monster``, ``gy``...), ``{end}`` why a
#: duel ended (``lp``, ``deck-out``, ``lp+deck-out``, ``exodia``, ``last-turn``), ``{reason}``
#: why a card moved (see :data:`CAUSES`).
LOG: dict[str, str] = {
    # turns, draws and shuffles
    "turnStarts": "turn {n}: player {seat}",
    "turnEnds": "turn {n} ends",
    "draws": "{seat} draws a card",
    "drawsCard": "{seat} draws {card}",
    "drawEmpty": "{seat} must draw from an empty deck",
    "shuffles": "{seat} shuffles their deck",
    "duelEndsWin": "duel {n} ends: {seat} wins ({end})",
    "duelEndsDraw": "duel {n} ends: draw ({end})",
    # summons, sets and positions
    "normalSummons": "{seat} Normal Summons {card}",
    "tributeSummons": "{seat} Tribute Summons {card}",
    "flipSummons": "{seat} Flip Summons {card}",
    "specialSummons": "{seat} Special Summons {card} in {position} Position",
    "setsMonster": "{seat} sets a monster",
    "setsSpellTrap": "{seat} sets a card in the Spell & Trap zone",
    "setsACard": "{seat} sets a card",
    "setsCard": "{seat} sets {card}",
    "changesPosition": "{seat} changes {card} to {position} Position",
    "turnedFaceDown": "{card} ({seat}) is turned face-down",
    "takesControl": "{seat} takes control of {card}",
    "takesControlFaceDown": "{seat} takes control of a face-down card",
    # chains
    "activates": "{seat} activates {card} as chain link {n}",
    "activatesLabel": "{seat} activates {card} ({label}) as chain link {n}",
    "activatesEffect": "{seat} activates {card}'s effect as chain link {n}",
    "resolves": "chain link {n} resolves: {card}",
    "resolvesLabel": "chain link {n} resolves: {card} ({label})",
    "noLongerOnField": "{card} is no longer on the field: no effect",
    "negatedByJinzo": "{card}: negated by Jinzo",
    "negatesActivation": "{card} negates the activation of {other}",
    "activationNegated": "{card}: its activation was negated, no effect",
    "summonNegated": "the Summon of {card} is negated",
    "negatedByBladeKnight": "{card}: its Flip effect is negated by Blade Knight",
    "targets": "{seat} targets {target}",
    "missesTiming": "{card} misses its timing",
    # battle
    "attacks": "{seat} attacks with {card} -> {target}",
    "attacksDirectly": "{seat} attacks with {card} -> directly",
    "attackStops": "the attack stops: the attacker is gone or cannot attack",
    "replay": "replay: the defender's monsters changed",
    "battleStopsBefore": "the battle stops before damage calculation",
    "battleStopsAtCalc": "the battle stops at damage calculation",
    "swordsmanDestroys": "{card} destroys the face-down monster without flipping it",
    "attackedFaceDownIs": "the attacked face-down monster is {card} ({position} Position)",
    "directAttackFor": "direct attack for {n}",
    "battleVsAtk": "battle: {attacker} {atk} ATK vs {defender} {value} ATK",
    "battleVsDef": "battle: {attacker} {atk} ATK vs {defender} {value} DEF",
    "reaperSurvives": "Spirit Reaper cannot be destroyed by battle",
    "noBattleDamage": "no battle damage from this battle (Last Turn)",
    # cards moving
    "toGraveyard": "{card} ({seat}) goes to the Graveyard ({reason})",
    "vanishes": "{card} ({seat}) leaves the field and vanishes",
    "banished": "{card} ({seat}) is removed from play ({reason})",
    "destroyed": "{card} ({seat}) is destroyed ({reason})",
    "destroyedInstead": "{card} is destroyed in place of {host}",
    "toDeckTopUnseen": "the destroyed face-down monster goes on top of {seat}'s Deck instead of the Graveyard",
    "toDeckTop": "{card} goes on top of {seat}'s Deck instead of the Graveyard",
    "toFusionDeck": "{card} goes back to {seat}'s Fusion Deck instead of the Graveyard",
    "returnsToHand": "{card} returns to {seat}'s hand (from {zone})",
    "addsToHand": "{seat} adds a card to their hand",
    "addsCardToHand": "{seat} adds {card} to their hand",
    "addsFromDeck": "{seat} adds {card} from the Deck to the hand",
    "discards": "{seat} discards {card} ({reason})",
    # LP
    "paysLp": "{seat} pays {n} LP ({lp} left)",
    "takesDamage": "{seat} takes {n} damage ({lp} LP left)",
    "takesBattleDamage": "{seat} takes {n} battle damage ({lp} LP left)",
    "gainsLp": "{seat} gains {n} LP ({lp})",
    # card effects
    "attacksTwice": "{card} may attack twice this turn",
    "spellCounter": "{card} gets a Spell Counter",
    "removesCounter": "{seat} removes the Spell Counter from {card}",
    "declaresType": "{seat} declares {race}",
    "findsNoMonster": "{seat} finds no monster to add",
    "findsNoWarrior": "{seat} finds no Warrior to add",
    "findsNoCard": "{seat} finds no {card} in the Deck or hand",
    "turnsOverBefore": "{seat} turns over {n} card(s) before {card}",
    "turnsOverToEnd": "{seat} turns over {n} card(s) before the end of the Deck",
    "restrictStays": "Thousand-Eyes Restrict cannot absorb: {card} stays",
    "restrictStaysFaceDown": "Thousand-Eyes Restrict cannot absorb: a face-down card stays",
    "restrictSends": "Thousand-Eyes Restrict cannot absorb: the target is sent to the Graveyard",
    "restrictAbsorbs": "Thousand-Eyes Restrict absorbs {card}",
    "materialsGone": "Polymerization: the materials are gone",
    "noRitual": "{card}: no Ritual Summon possible now",
    "cannotEquip": "{card} cannot be equipped",
    "equippedAsUnion": "{card} is equipped to {host} as a Union",
    "sheepNoZones": "not enough Monster Zones for four Sheep Tokens",
    "sheepTokens": "{seat} Special Summons four Sheep Tokens in Defense Position",
    "revealsDeck": "{seat} reveals their Deck to check for {card}",
    "gainsAtk": "{card} gains {n} ATK ({atk})",
    "keepsMonster": "{seat} keeps {target}: every other card on the field and in the hands goes to the Graveyard",
    "lastTurnNoSummon": "{seat} Special Summons no monster for Last Turn",
}

#: Why a card moved — the ``reason`` the engine passes along with the move
#: (triggers read it too, so it stays a plain string there) — as a key and
#: template; :func:`cause` finds the key of a reason. ``card`` is a reason that
#: is a card's name ("Mirror Force"); a reason no template matches is sent as
#: ``text``.
CAUSES: dict[str, str] = {
    "card": "{card}",
    "text": "{text}",
    "resolved": "resolved",
    "battle": "battle",
    "effect": "effect",
    "sent": "sent",
    "removed": "removed",
    "discard": "discard",
    "tribute": "tribute",
    "ritualTribute": "Ritual tribute",
    "fusionMaterial": "Fusion Material",
    "handSize": "hand size",
    "equipLost": "equip lost",
    "tributedForEffect": "tributed for its effect",
    "monsterDestroyed": "its monster was destroyed",
    "monsterGone": "its monster is gone",
    "newFieldSpell": "a new Field Spell",
    "replacedByFieldSpell": "replaced by a new Field Spell",
    "noZoneToReturn": "no zone to return to",
    "couldNotEquip": "could not be equipped",
    "infiniteLoop": "an infinite loop",
    "costOf": "cost of {card}",
    "effectOf": "{card}'s effect",
    "atRandom": "at random, {card}",
    "insteadOf": "instead of {card}",
    "tributeFor": "tribute for {card}",
    "wasDestroyed": "{card} was destroyed",
    "wasTargeted": "{card} was targeted",
    "leftField": "{card} left the field",
    "tookField": "{card} took the field",
}

#: List arguments and how the English text joins their items: ``where`` is
#: ``[phase, step, substep]`` (the ones set), ``events`` the kinds of what just
#: happened (``summoned``, ``attack``), as the engine has always written them;
#: ``sizes`` the side deck sizes a deck problem allows (:mod:`.deck`, "0 or 15").
JOINS: dict[str, str] = {"where": " / ", "events": ", ", "sizes": " or "}


def template_fields(template: str) -> frozenset[str]:
    """The ``{field}`` names of a template (the i18n strings use the same syntax)."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


class Keyed:
    """A key of :attr:`TABLE` and exactly the arguments its template names;
    :class:`Say` (prompts) and :class:`Line` (log lines) differ only in their table."""

    __slots__ = ("key", "args", "_text")
    #: key -> English template; set by each subclass.
    TABLE: dict[str, str] = {}
    #: What a key names, for error messages ("prompt", "log line").
    WHAT = ""
    _FIELDS: dict[str, frozenset[str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._FIELDS = {key: template_fields(text) for key, text in cls.TABLE.items()}

    def __init__(self, key: str, /, **args: Any) -> None:
        fields = self._FIELDS.get(key)
        if fields is None:
            raise ValueError(f"unknown {self.WHAT} key {key!r}")
        if args.keys() != fields:
            raise ValueError(f"{self.WHAT} {key!r} takes {sorted(fields)}, not {sorted(args)}")
        self.key = key
        self.args = args
        self._text: str | None = None

    @property
    def text(self) -> str:
        """The English text (made once, on first use: most are never read)."""
        if self._text is None:
            self._text = self.TABLE[self.key].format(**{
                name: JOINS[name].join(map(str, value)) if name in JOINS else value
                for name, value in self.args.items()})
        return self._text

    def to_json(self) -> dict[str, Any]:
        """``{"key", "args"}`` for a view (lists stay lists, the browser joins
        them; a ``reason`` is sent as its :func:`cause`)."""
        return {"key": self.key, "args": {name: list(value) if name in JOINS else
                                          cause(value) if name == "reason" else value
                                          for name, value in self.args.items()}}

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        args = "".join(f", {name}={value!r}" for name, value in self.args.items())
        return f"{type(self).__name__}({self.key!r}{args})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and (self.key, self.args) == (other.key, other.args)  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # args is a dict


class Say(Keyed):
    """A prompt: a key of :data:`PROMPTS` and exactly the arguments its template names."""

    __slots__ = ()
    TABLE = PROMPTS
    WHAT = "prompt"


class Line(Keyed):
    """A duel log line: a key of :data:`LOG` and exactly the arguments its template names."""

    __slots__ = ()
    TABLE = LOG
    WHAT = "log line"


def cause(reason: str) -> dict[str, Any]:
    """Why a card moved (the engine's ``reason`` string: ``"battle"``, ``"cost of
    Skull Lair"``, a card's name) as ``{"key", "args"}`` of :data:`CAUSES`, so that
    the browser can word it; ``{"key": "text", "args": {"text": reason}}`` for a
    reason no template matches (shown as it is). The args are parts of the
    reason, so they name no card the English text does not."""
    key = _FIXED_CAUSES.get(reason)
    if key is not None:
        return {"key": key, "args": {}}
    for key, pattern in _CAUSE_PATTERNS:
        match = pattern.fullmatch(reason)
        if match and _is_card(match["card"]):
            return {"key": key, "args": {"card": match["card"]}}
    if _is_card(reason):
        return {"key": "card", "args": {"card": reason}}
    return {"key": "text", "args": {"text": reason}}


def _is_card(name: str) -> bool:
    from goat.games.yugioh.cards.data import DATABASE

    return name in DATABASE


_FIXED_CAUSES: dict[str, str] = {text: key for key, text in CAUSES.items() if not template_fields(text)}
_CAUSE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (key, re.compile(re.escape(text).replace(re.escape("{card}"), "(?P<card>.+)")))
    for key, text in CAUSES.items() if template_fields(text) == {"card"} and key != "card"]
