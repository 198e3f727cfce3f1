"""Decision prompts as a stable key and its arguments, and the one place that
makes their English text.

The engine asks with a :class:`Say` — ``Say("respondChainLink", n=2)`` — not
with free text, so that a prompt can be shown in the reader's language: the
browser looks the key up in ``i18n.js`` (``ygo.prompts.<key>``, English and
Russian) and fills in the arguments, translating phase and step names itself.
The English text everything else uses — the ``prompt`` of a decision, the
terminal UI, error messages, bots that read it — is made here alone, from
:data:`PROMPTS`, and is exactly the text the engine wrote before prompts had
keys.

Arguments are numbers, card names as printed, attribute and phase names, or
— for ``where`` and ``events`` — lists of phase/step names and event kinds
(:data:`JOINS` says how the English text joins them). A prompt's arguments
are exactly the fields of its template (checked when it is made), so the
browser is never sent more than the English text already names: hidden
information stays hidden.
"""

from __future__ import annotations

import string
from typing import Any

#: Every prompt the engine can use: key -> English template (``str.format``).
PROMPTS: dict[str, str] = {
    # chains and windows
    "respondChainLink": "respond to chain link {n}?",
    "windowRespond": "{where}: respond to {events}?",
    "windowActivate": "{where}: activate something?",
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
    "specialSummonWhich": "Special Summon which monster?",
    "specialSummonFusion": "Special Summon which Fusion monster?",
    "tributeWhich": "tribute which monster?",
    "gainsAtk": "which monster gains {n} ATK?",
}

#: List arguments and how the English text joins their items: ``where`` is
#: ``[phase, step, substep]`` (the ones set), ``events`` the kinds of what just
#: happened (``summoned``, ``attack``), as the engine has always written them.
JOINS: dict[str, str] = {"where": " / ", "events": ", "}


def template_fields(template: str) -> frozenset[str]:
    """The ``{field}`` names of a template (the i18n strings use the same syntax)."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


_FIELDS: dict[str, frozenset[str]] = {key: template_fields(text) for key, text in PROMPTS.items()}


class Say:
    """A prompt: a key of :data:`PROMPTS` and exactly the arguments its template names."""

    __slots__ = ("key", "args", "_text")

    def __init__(self, key: str, /, **args: Any) -> None:
        fields = _FIELDS.get(key)
        if fields is None:
            raise ValueError(f"unknown prompt key {key!r}")
        if args.keys() != fields:
            raise ValueError(f"prompt {key!r} takes {sorted(fields)}, not {sorted(args)}")
        self.key = key
        self.args = args
        self._text: str | None = None

    @property
    def text(self) -> str:
        """The English prompt (made once, on first use: most are never read)."""
        if self._text is None:
            self._text = PROMPTS[self.key].format(**{
                name: JOINS[name].join(map(str, value)) if name in JOINS else value
                for name, value in self.args.items()})
        return self._text

    def to_json(self) -> dict[str, Any]:
        """``{"key", "args"}`` for a view (lists stay lists; the browser joins them)."""
        return {"key": self.key, "args": {name: list(value) if name in JOINS else value
                                          for name, value in self.args.items()}}

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        args = "".join(f", {name}={value!r}" for name, value in self.args.items())
        return f"Say({self.key!r}{args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Say) and (self.key, self.args) == (other.key, other.args)

    __hash__ = None  # type: ignore[assignment]  # args is a dict
