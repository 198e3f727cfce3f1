"""Deck lists: the ``.ydk``-style text format, loading by card name, legality.

A deck file has a ``#main`` section, an ``#extra`` section (the Fusion Deck)
and a ``!side`` section, one card name a line; lines starting with ``#`` that
are not section names are comments. Card names are matched case-insensitively.
(Classic ``.ydk`` files list numeric passcodes; this project lists names.)

Legality (:func:`deck_problems`): main deck at least 40 cards, side deck 0 or
15, at most 3 copies of a name across main, side and Fusion Deck, and the Goat
Format Forbidden / Limited / Semi-limited list (:data:`BANLIST`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from goat.games.yugioh.cards.data import UnknownCardError, card
from goat.games.yugioh.rules import YugiohRules
from goat.protocol import GoatError


class DeckError(GoatError):
    """A deck list that cannot be read or is not legal (one line)."""


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
            raise DeckError("a deck must be an object with main, fusion and side lists")
        parts = []
        for key in ("main", "fusion", "side"):
            names = obj.get(key, [])
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise DeckError(f'deck "{key}" must be a list of card names')
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
            raise DeckError(f"{forbidden[stripped.casefold()]} is Forbidden in the Goat Format") from None
        raise DeckError(f"unknown card {stripped!r}") from None


def read_ydk(text: str, name: str = "deck") -> tuple[DeckList, list[str]]:
    """Read a deck list as far as it goes: the cards of every readable line and
    one problem per line that is not (``"<name> line 7: unknown card 'Blue
    Eyes'"``). A checker wants them all at once; :func:`parse_ydk` stops at the
    first."""
    sections: dict[str, list[str]] = {"main": [], "fusion": [], "side": []}
    problems: list[str] = []
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
            problems.append(f"{name} line {number}: passcodes are not supported, write the card name")
            continue
        try:
            sections[current].append(_canonical(line))
        except DeckError as exc:
            problems.append(f"{name} line {number}: {exc}")
    return DeckList(tuple(sections["main"]), tuple(sections["fusion"]), tuple(sections["side"])), problems


def parse_ydk(text: str, name: str = "deck") -> DeckList:
    """Read a deck list; raises :class:`DeckError` naming the first bad line."""
    deck, problems = read_ydk(text, name)
    if problems:
        raise DeckError(problems[0])
    return deck


def read_deck_file(path: str | Path) -> str:
    """The text of a deck file (a byte-order mark dropped); one-line error."""
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


def deck_problems(deck: DeckList, rules: YugiohRules) -> list[str]:
    """Every reason ``deck`` is not legal under ``rules`` (empty: legal)."""
    problems = []
    if len(deck.main) < rules.min_main_deck:
        problems.append(f"the main deck has {len(deck.main)} cards (at least {rules.min_main_deck})")
    if len(deck.side) not in rules.side_sizes():
        sizes = " or ".join(map(str, rules.side_sizes()))
        problems.append(f"the side deck has {len(deck.side)} cards ({sizes} allowed)")
    for name in deck.main + deck.side:
        if card(name).is_fusion:
            problems.append(f"{name} belongs in the Fusion Deck")
    for name in deck.fusion:
        if not card(name).is_fusion:
            problems.append(f"{name} is not a Fusion monster")
    counts = Counter(deck.main + deck.fusion + deck.side)
    for name, n in sorted(counts.items()):
        allowed = rules.max_copies
        if rules.banlist == "goat":
            allowed = min(allowed, BANLIST.get(name, allowed))
        if n > allowed:
            status = {0: "Forbidden", 1: "Limited", 2: "Semi-limited"}.get(allowed, f"at most {allowed}")
            problems.append(f"{n} copies of {name} ({status})")
    return problems


def check_deck(deck: DeckList, rules: YugiohRules, who: str = "deck") -> None:
    problems = deck_problems(deck, rules)
    if problems:
        raise DeckError(f"{who} is not legal: " + "; ".join(problems))
