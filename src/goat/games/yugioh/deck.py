"""Deck lists: the ``.ydk``-style text format, loading by card name, legality.

A deck file has a ``#main`` section, an ``#extra`` section (the Fusion Deck)
and a ``!side`` section, one card name a line; lines starting with ``#`` that
are not section names are comments. Card names are matched case-insensitively.
(Classic ``.ydk`` files list numeric passcodes; this project lists names.)

Legality (:func:`deck_problems`): main deck at least 40 cards, side deck 0 or
15, at most 3 copies of a name across main, side and Fusion Deck, and the Goat
Format Forbidden / Limited / Semi-limited list (:data:`BANLIST`).

Every problem is a :class:`DeckProblem`: a kind of :data:`DECK_PROBLEMS` and its
arguments, so that a page can word it in its reader's language, and the English
text made from them there alone (the text the CLI, programs and
:class:`DeckError`'s one line show, as before problems had kinds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from goat.games.yugioh.cards.data import DATABASE, UnknownCardError, card
from goat.games.yugioh.prompts import Keyed
from goat.games.yugioh.rules import YugiohRules
from goat.protocol import GoatError

#: Every kind of deck problem: kind -> English template (``str.format``; a list
#: argument is joined as :data:`~goat.games.yugioh.prompts.JOINS` says). The
#: browser words the same kinds as ``lobbyErrors.<kind>`` in ``i18n.js``. A
#: problem at a line of ``.ydk`` text also has the argument ``line``
#: (:meth:`DeckProblem.at_line`).
DECK_PROBLEMS: dict[str, str] = {
    # a card name as read (a line of .ydk text, or a name in a JSON list)
    "unknownCard": "unknown card {card!r}",
    "unknownCardLike": "unknown card {card!r} (did you mean {like}?)",
    "forbiddenCard": "{card} is Forbidden in the Goat Format",
    "passcode": "passcodes are not supported, write the card name",
    # legality (deck_problems); a copies kind for each reason a card is limited
    "mainTooSmall": "the main deck has {count} cards (at least {min})",
    "sideSize": "the side deck has {count} cards ({sizes} allowed)",
    "fusionInMain": "{card} belongs in the Fusion Deck",
    "notFusion": "{card} is not a Fusion monster",
    "forbiddenCopies": "{count} copies of {card} (Forbidden)",
    "limitedCopies": "{count} copies of {card} (Limited)",
    "semiLimitedCopies": "{count} copies of {card} (Semi-limited)",
    "tooManyCopies": "{count} copies of {card} (at most {max})",
    # the shape of a deck sent as JSON
    "notDeck": "a deck is .ydk text or an object of main, fusion and side card name lists",
    "notDeckShape": "a deck must be an object with main, fusion and side lists",
    "listNotNames": 'deck "{list}" must be a list of card names',
    "noSuchList": "a deck has no list {name!r} (its lists: main, fusion, side)",
}

#: The copies kind of a card the Goat Format list allows ``n`` copies of (others: ``tooManyCopies``).
_LISTED_COPIES = {0: "forbiddenCopies", 1: "limitedCopies", 2: "semiLimitedCopies"}


class _DeckSay(Keyed):
    """A kind of :data:`DECK_PROBLEMS` with exactly its template's arguments (the
    prompts' machinery: one check, one English formatter)."""

    __slots__ = ()
    TABLE = DECK_PROBLEMS
    WHAT = "deck problem"


@dataclass(frozen=True)
class DeckProblem:
    """One reason a deck is refused: its ``kind`` (a key of :data:`DECK_PROBLEMS`),
    its JSON ``args`` (card names as printed, counts, a list of sizes, a line)
    and ``text``, the English made from them. Make one with :meth:`of`."""

    kind: str
    args: dict[str, Any]
    text: str

    @classmethod
    def of(cls, kind: str, /, **args: Any) -> "DeckProblem":
        said = _DeckSay(kind, **args)
        return cls(kind, said.to_json()["args"], said.text)

    def at_line(self, source: str, line: int) -> "DeckProblem":
        """The same problem at ``line`` of the text ``source`` names (``"the deck
        line 7: unknown card 'Blue Eyes'"``)."""
        return DeckProblem(self.kind, {**self.args, "line": line}, f"{source} line {line}: {self.text}")

    def __str__(self) -> str:
        return self.text


class DeckError(GoatError):
    """A deck list that cannot be read or is not legal (one line); ``problems``
    names what is wrong by kind (:class:`DeckProblem`) where the check knows
    (a file that cannot be read, an unknown built-in deck: none)."""

    def __init__(self, message: str, problems: Sequence[DeckProblem] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)

    @classmethod
    def of(cls, kind: str, /, **args: Any) -> "DeckError":
        """The error of one problem, its text the line."""
        return cls.from_problem(DeckProblem.of(kind, **args))

    @classmethod
    def from_problem(cls, problem: DeckProblem) -> "DeckError":
        """The error of ``problem`` alone (a bad line of a ``.ydk`` text: the first one)."""
        return cls(problem.text, (problem,))


#: The Goat Format list: the TCG Forbidden/Limited list in effect from April 1,
#: 2005 (Goat Format = April–September 2005). Copies allowed: 0 Forbidden,
#: 1 Limited, 2 Semi-limited; every other card 3.
#:
#: Sources, cross-checked: the April 2005 changes against October 2004 listed on
#: the Yu-Gi-Oh! wiki (https://yugioh.fandom.com/wiki/April_2005_Lists: e.g. Sangan,
#: Graceful Charity, Delinquent Duo and Mirror Force from Forbidden to Limited,
#: D.D. Warrior Lady newly Limited, Confiscation and Change of Heart Forbidden);
#: the community "2005.4 GOAT" list that simulators use (ProjectIgnis/LFLists,
#: GOAT.lflist.conf); seed 000's Goat rule 7 (D.D. Warrior Lady "limited to 1");
#: and the October 2005 list (forum copy) for cards unchanged in between (Cyber
#: Jar Limited, Dark Hole Forbidden until October 2005). Magician of Faith,
#: Metamorphosis and Thousand-Eyes Restrict are unlimited in April 2005 (Magician
#: of Faith became Limited in October 2005). Cards outside this engine's pool
#: are kept so that a deck naming them gets the right reason (only Forbidden
#: ones are named in errors; others are unknown cards to the engine).
BANLIST: dict[str, int] = {
    # Forbidden
    "Chaos Emperor Dragon - Envoy of the End": 0, "Fiber Jar": 0, "Magical Scientist": 0,
    "Makyura the Destructor": 0, "Witch of the Black Forest": 0, "Yata-Garasu": 0,
    "Butterfly Dagger - Elma": 0, "Change of Heart": 0, "Confiscation": 0, "Dark Hole": 0,
    "Harpie's Feather Duster": 0, "Mirage of Nightmare": 0, "Monster Reborn": 0, "Painful Choice": 0,
    "Raigeki": 0, "The Forceful Sentry": 0, "Imperial Order": 0,
    # Limited
    "Black Luster Soldier - Envoy of the Beginning": 1, "Breaker the Magical Warrior": 1, "Cyber Jar": 1,
    "D.D. Warrior Lady": 1, "Dark Magician of Chaos": 1, "Exiled Force": 1, "Injection Fairy Lily": 1,
    "Jinzo": 1, "Morphing Jar": 1, "Protector of the Sanctuary": 1, "Reflect Bounder": 1,
    "Sacred Phoenix of Nephthys": 1, "Sangan": 1, "Sinister Serpent": 1, "Tribe-Infecting Virus": 1,
    "Twin-Headed Behemoth": 1, "Exodia the Forbidden One": 1, "Right Arm of the Forbidden One": 1,
    "Left Arm of the Forbidden One": 1, "Right Leg of the Forbidden One": 1, "Left Leg of the Forbidden One": 1,
    "Card Destruction": 1, "Delinquent Duo": 1, "Graceful Charity": 1, "Heavy Storm": 1, "Lightning Vortex": 1,
    "Mage Power": 1, "Mystical Space Typhoon": 1, "Pot of Greed": 1, "Premature Burial": 1, "Snatch Steal": 1,
    "Swords of Revealing Light": 1, "United We Stand": 1, "Call of the Haunted": 1, "Ceasefire": 1,
    "Deck Devastation Virus": 1, "Magic Cylinder": 1, "Mirror Force": 1, "Reckless Greed": 1,
    "Ring of Destruction": 1, "Torrential Tribute": 1,
    # Semi-limited
    "Abyss Soldier": 2, "Dark Scorpion - Chick the Yellow": 2, "Manticore of Darkness": 2, "Marauding Captain": 2,
    "Night Assailant": 2, "Vampire Lord": 2, "Creature Swap": 2, "Emergency Provisions": 2,
    "Level Limit - Area B": 2, "Nobleman of Crossout": 2, "Reinforcement of the Army": 2, "Upstart Goblin": 2,
    "Good Goblin Housekeeping": 2, "Gravity Bind": 2, "Last Turn": 2,
}


@dataclass(frozen=True)
class DeckList:
    """A player's deck by card names (canonical spelling)."""

    main: tuple[str, ...]
    fusion: tuple[str, ...] = ()
    side: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"main": list(self.main), "fusion": list(self.fusion), "side": list(self.side)}

    @classmethod
    def from_json(cls, obj: Any) -> "DeckList":
        if not isinstance(obj, dict):
            raise DeckError.of("notDeckShape")
        parts = []
        for key in ("main", "fusion", "side"):
            names = obj.get(key, [])
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise DeckError.of("listNotNames", list=key)
            parts.append(tuple(_canonical(n) for n in names))
        return cls(*parts)

    def to_ydk(self) -> str:
        lines = ["#created by goat", "#main", *self.main, "#extra", *self.fusion, "!side", *self.side]
        return "\n".join(lines) + "\n"


def _canonical(name: str) -> str:
    stripped = name.strip()
    forbidden = {k.casefold(): k for k, v in BANLIST.items()}
    try:
        return card(stripped).name
    except UnknownCardError:
        if stripped.casefold() in forbidden:
            raise DeckError.of("forbiddenCard", card=forbidden[stripped.casefold()]) from None
        like = _close_name(stripped)
        if like is not None:
            raise DeckError.of("unknownCardLike", card=stripped, like=like) from None
        # clipped: a file that is not a deck list (a game record) has lines of thousands of characters
        raise DeckError.of("unknownCard", card=stripped if len(stripped) <= 60 else stripped[:59] + "…") from None


def _close_name(name: str) -> str | None:
    """The card a mistyped name most likely means ("Thousand Eyes Restrict",
    "Sakuretsu Armour", "Mystic Space Typhoon"), or None: a list typed from
    memory is refused with the name to write, not just "unknown"."""
    if len(name) > 60:
        return None
    folded = {n.casefold(): n for n, data in DATABASE.items() if "token" not in data.traits}
    close = get_close_matches(name.casefold(), folded, n=1, cutoff=0.8)
    return folded[close[0]] if close else None


def read_ydk(text: str, name: str = "deck") -> tuple[DeckList, list[DeckProblem]]:
    """Read a deck list as far as it goes: the cards of every readable line and
    one problem per line that is not (``"<name> line 7: unknown card 'Blue
    Eyes'"``). A checker wants them all at once; :func:`parse_ydk` stops at the
    first."""
    sections: dict[str, list[str]] = {"main": [], "fusion": [], "side": []}
    problems: list[DeckProblem] = []
    current = "main"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        low = line.lower()
        if low in ("#main",):
            current = "main"
            continue
        if low in ("#extra", "#fusion"):
            current = "fusion"
            continue
        if low in ("!side", "#side"):
            current = "side"
            continue
        if line.startswith("#"):
            continue
        if line.isdigit():
            problems.append(DeckProblem.of("passcode").at_line(name, number))
            continue
        try:
            sections[current].append(_canonical(line))
        except DeckError as exc:
            problems += (problem.at_line(name, number) for problem in exc.problems)
    return DeckList(tuple(sections["main"]), tuple(sections["fusion"]), tuple(sections["side"])), problems


def parse_ydk(text: str, name: str = "deck") -> DeckList:
    """Read a deck list; raises :class:`DeckError` naming the first bad line."""
    deck, problems = read_ydk(text, name)
    if problems:
        raise DeckError.from_problem(problems[0])
    return deck


def read_deck_file(path: str | Path) -> str:
    """The text of a deck file (a byte-order mark dropped); one-line error. An
    empty name (an unset shell variable) is told as such: ``Path("")`` is the
    current folder, "cannot read deck .: Is a directory"."""
    if not str(path):
        raise DeckError("cannot read a deck file with an empty name")
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise DeckError(f"cannot read deck {p}: not a UTF-8 text file") from None
    except OSError as exc:
        raise DeckError(f"cannot read deck {p}: {exc.strerror or exc}") from None


def load_deck(path: str | Path) -> DeckList:
    return parse_ydk(read_deck_file(path), Path(path).name)


BUILTIN_DECKS = Path(__file__).parent / "decks"


def builtin_deck_names() -> list[str]:
    """The decks shipped with the package, by name (``goat_control``, ...)."""
    return sorted(p.stem for p in BUILTIN_DECKS.glob("*.ydk"))


def builtin_deck(name: str = "goat_control") -> DeckList:
    """A deck shipped with the package (``decks/<name>.ydk``)."""
    path = BUILTIN_DECKS / f"{name}.ydk"
    if name not in builtin_deck_names():
        raise DeckError(f"no built-in deck {name!r} (one of {', '.join(builtin_deck_names())})")
    return load_deck(path)


def copies_allowed(name: str, rules: YugiohRules) -> int:
    """How many copies of ``name`` a list may hold across main, side and Fusion
    Deck: ``max_copies``, or fewer as the Forbidden/Limited list says."""
    listed = BANLIST.get(name, rules.max_copies) if rules.banlist == "goat" else rules.max_copies
    return min(listed, rules.max_copies)


def deck_problems(deck: DeckList, rules: YugiohRules) -> list[DeckProblem]:
    """Every reason ``deck`` is not legal under ``rules`` (empty: legal)."""
    problems = []
    if len(deck.main) < rules.min_main_deck:
        problems.append(DeckProblem.of("mainTooSmall", count=len(deck.main), min=rules.min_main_deck))
    if len(deck.side) not in rules.side_sizes():
        problems.append(DeckProblem.of("sideSize", count=len(deck.side), sizes=list(rules.side_sizes())))
    for name in deck.main + deck.side:
        if card(name).is_fusion:
            problems.append(DeckProblem.of("fusionInMain", card=name))
    for name in deck.fusion:
        if not card(name).is_fusion:
            problems.append(DeckProblem.of("notFusion", card=name))
    counts = Counter(deck.main + deck.fusion + deck.side)
    for name, n in sorted(counts.items()):
        allowed = copies_allowed(name, rules)
        if n > allowed:
            if allowed < rules.max_copies:
                problems.append(DeckProblem.of(_LISTED_COPIES[allowed], count=n, card=name))
            else:
                problems.append(DeckProblem.of("tooManyCopies", count=n, card=name, max=rules.max_copies))
    return problems


def check_deck(deck: DeckList, rules: YugiohRules, who: str = "deck") -> None:
    """Raise :class:`DeckError` naming every problem of ``deck`` (one line, and by kind)."""
    problems = deck_problems(deck, rules)
    if problems:
        raise DeckError(f"{who} is not legal: " + "; ".join(p.text for p in problems), problems)
