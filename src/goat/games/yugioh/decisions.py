"""The one request/response mechanism of a duel.

The engine is written as generators that *yield* what they need next:

* a :class:`Decision` — who decides, what kind of decision, a prompt, and the
  legal choices, each already written as an action text
  (``"0 summon Sangan"``, ``"1 activate Mirror Force@1S2"``, ``"0 pass"``,
  ``"0 choose Sheep Token@1M3"``); the engine receives the chosen index back;
* a :class:`ChanceRequest` — a shuffle, a coin toss or a random discard; the
  engine receives the outcome (a JSON value) back.

Nothing else enters a duel. The terminal UI, bots, records and tests therefore
all drive it the same way: read ``legal_actions()``, answer with one of them.

Card labels in choices: hand, Deck, Graveyard and banished cards by name;
field cards as ``Name@<seat><M|S><1-5>`` (``Sangan@0M2``), face-down cards of
the other player as ``face-down@1M3`` so that a choice never reveals a hidden
card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from goat.games.yugioh.prompts import Say
from goat.protocol import ActionSyntaxError

#: Verbs of Yu-Gi-Oh! actions (the record notation ``"<seat> <verb> <args>"``).
VERBS = ("summon", "set", "flip", "position", "special", "activate", "attack", "phase", "pass",
         "choose", "done", "swap")


@dataclass(frozen=True, slots=True)
class DuelAction:
    """One decision taken: ``"<seat> <verb> [args]"`` (args may hold spaces)."""

    seat: int
    verb: str
    args: str = ""

    @classmethod
    def parse(cls, text: str) -> "DuelAction":
        if not isinstance(text, str):
            raise ActionSyntaxError(text, "an action must be a string")
        parts = text.strip().split(None, 2)
        if len(parts) < 2:
            raise ActionSyntaxError(text, 'expected "<seat> <verb> [what]"')
        if not (parts[0].isascii() and parts[0].isdigit()):  # "²" is a digit int() does not read
            raise ActionSyntaxError(text, "seat must be a number")
        verb = parts[1].lower()
        if verb not in VERBS:
            raise ActionSyntaxError(text, f"unknown verb {verb!r}; one of {', '.join(VERBS)}")
        return cls(int(parts[0]), verb, " ".join(parts[2].split()) if len(parts) > 2 else "")

    def __str__(self) -> str:
        return f"{self.seat} {self.verb}" + (f" {self.args}" if self.args else "")


@dataclass
class Decision:
    """A pending decision: ``seat`` chooses one of ``actions`` (texts).

    ``say`` is the prompt as a key and arguments (:mod:`.prompts`), so the
    browser can word it in the reader's language; ``prompt`` is its English
    text, the one the terminal, bots and error messages read."""

    seat: int
    kind: str          # open, battle, respond, trigger, target, cost, select, position, order, first, side ...
    say: Say
    actions: list[str]

    @property
    def prompt(self) -> str:
        return self.say.text

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "prompt": self.prompt, "say": self.say.to_json()}


@dataclass
class ChanceRequest:
    """A random event: ``kind`` is ``coin``, ``shuffle`` or ``discard``.

    ``seat`` is whose deck/hand it concerns; ``cards`` the names to order
    (shuffle) or to pick one of (discard).
    """

    kind: str
    seat: int
    cards: list[str]


class _Refresh:
    """Sent instead of an answer: "ask again" (see :data:`REFRESH`)."""

    def __repr__(self) -> str:
        return "REFRESH"


#: Sent into a pending decision or chance request instead of an answer, it makes
#: the engine ask the same question again, its choices written anew from the
#: cards as they are now. Only world sampling (:mod:`.worlds`) uses it: it
#: renames hidden cards while a question is pending.
REFRESH = _Refresh()


def ask(seat: int, kind: str, prompt: Say, options: Any, auto: bool = True) -> Any:
    """Ask ``seat`` to pick one of ``options`` (pairs of text after the seat, value).

    A generator: ``value = yield from ask(...)``. Options with the same text
    are the same choice (two copies of a card in hand). With ``auto`` a single
    option is taken without asking. ``options`` may be a function that makes
    them, so that a :data:`REFRESH` can remake them. ``prompt`` is a
    :class:`~.prompts.Say` (a key and its arguments), never free text.
    """
    if not isinstance(prompt, Say):
        raise TypeError(f"a prompt must be a Say (a key and its arguments), not {prompt!r}")
    while True:
        choices: dict[str, Any] = {}
        for text, value in (options() if callable(options) else options):
            choices.setdefault(f"{seat} {text}", value)
        if not choices:
            raise RuntimeError(f"no option for decision {kind!r} of seat {seat}")
        texts = list(choices)
        if auto and len(texts) == 1:
            return choices[texts[0]]
        index = yield Decision(seat, kind, prompt, texts)
        if index is not REFRESH:
            return choices[texts[index]]


def chance(request: Any) -> Any:
    """Yield the chance request ``request()`` until an outcome (not a
    :data:`REFRESH`) comes back: ``outcome = yield from chance(lambda: ...)``."""
    while True:
        outcome = yield request()
        if outcome is not REFRESH:
            return outcome


class DuelOver(Exception):
    """Raised inside the engine when a duel ends (LP 0, deck-out, Exodia)."""

    def __init__(self, winner: int | None, reason: str) -> None:
        super().__init__(reason)
        self.winner = winner
        self.reason = reason
