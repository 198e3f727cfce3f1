"""The Russian card texts (``cards/texts_ru.py``) against the English ones.

A Russian player decides from the Russian text alone, so a mistranslated
amount or a card the pool does not have would mislead them. These are cheap
mechanical guards, not a review of the wording:

* every card of ``DATABASE`` has a Russian text, and no other name does;
* every Latin word sequence in a Russian text is a card name of ``DATABASE``,
  a name outside the pool that the card's English text also mentions (Thousand-Eyes
  Restrict's materials), or an abbreviation allowed here (LP, LV<n>);
* the numbers of a Russian text equal those of its English text, as a multiset
  (digits, and the number words from two up: English says "one" as an article
  too, and Russian has none, so "one" is not counted in either language);
* every Attribute and Type the English text names is written as the page renders
  it (``ygo.attributes``, ``ygo.races`` of the Russian ``static/i18n.js``).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

import goat.server
from goat.games.yugioh.cards.data import DATABASE, RACES
from goat.games.yugioh.cards.texts_ru import TEXTS_RU

ABBREVIATIONS = re.compile(r"LP|LV\d+")
#: Cards outside the pool a card's English text names (Thousand-Eyes Restrict's materials): allowed in
#: that card's Russian text only.
OUTSIDE_POOL = ("Relinquished", "Thousand-Eyes Idol")
ATTRIBUTES = ("LIGHT", "DARK", "EARTH", "WATER", "FIRE", "WIND")
# A run of Latin words, with the joins card names use ("D.D. Warrior Lady", "Black Luster Soldier - Envoy ...").
LATIN_RUN = re.compile(r"[A-Za-z][\w.'\-]*(?:(?: - | )[A-Za-z0-9][\w.'\-]*)*", re.ASCII)
EN_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
RU_NUMBERS = {
    2: "два две двух двум двумя",
    3: "три трёх трех трём трем тремя",
    4: "четыре четырёх четырех четырём четырем четырьмя",
    5: "пять пяти пятью",
    6: "шесть шести шестью",
    7: "семь семи",
    8: "восемь восьми восемью",
    9: "девять девяти девятью",
    10: "десять десяти десятью",
}
RU_WORDS = {word: n for n, forms in RU_NUMBERS.items() for word in forms.split()}
BY_LENGTH = sorted(DATABASE, key=len, reverse=True)


def without_names(text: str) -> str:
    """``text`` with every card name of the pool cut out (their digits, as LV2's, are no amounts)."""
    for name in BY_LENGTH:
        text = text.replace(name, " ")
    return text


def numbers(text: str, words: dict[str, int]) -> Counter[int]:
    """The multiset of amounts in ``text``: its digits and its number words."""
    found: Counter[int] = Counter()
    for token in re.findall(r"\d+|[^\W\d_]+", without_names(text)):
        if token.isdigit():
            found[int(token)] += 1
        elif token.casefold() in words:
            found[words[token.casefold()]] += 1
    return found


@cache
def page_names(table: str) -> dict[str, str]:
    """The Russian page's rendering of ``table`` (``attributes`` or ``races``), read from i18n.js."""
    source = (Path(goat.server.__file__).parent / "static" / "i18n.js").read_text(encoding="utf-8")
    for match in re.finditer(rf"\b{table}: \{{([^}}]*)\}}", source):
        pairs = {key.strip(' "'): value for key, value in re.findall(r'([\w" -]+): "([^"]+)"', match.group(1))}
        if any(re.search("[а-яё]", value, re.I) for value in pairs.values()):
            return pairs
    raise AssertionError(f"no Russian ygo.{table} in i18n.js")


def named_types(english: str) -> tuple[list[str], list[str]]:
    """The Attributes and Types the English text names outside card names."""
    rest = without_names(english)
    attributes = [a for a in ATTRIBUTES if re.search(rf"\b{a}\b", rest)]
    races = []
    for race in sorted(RACES, key=len, reverse=True):                # Beast-Warrior before Warrior
        pattern = rf"(?<![\w-]){re.escape(race)}(?![\w-])"
        if re.search(pattern, rest):
            races.append(race)
            rest = re.sub(pattern, " ", rest)
    return attributes, races


def problems(english: str, russian: str) -> list[str]:
    """What is wrong with ``russian`` as the text of a card whose English text is ``english``."""
    found = []
    if not re.search("[а-яё]", russian, re.I):
        found.append("no Russian in it")
    for run in LATIN_RUN.findall(russian):
        run = run.rstrip(".") if run not in DATABASE else run
        if run in DATABASE or ABBREVIATIONS.fullmatch(run):
            continue
        if run in OUTSIDE_POOL and run in english:
            continue
        found.append(f"Latin {run!r} is not a card name")
    want, got = numbers(english, EN_NUMBERS), numbers(russian, RU_WORDS)
    if want != got:
        found.append(f"numbers {sorted(got.elements())} instead of {sorted(want.elements())}")
    attributes, races = named_types(english)
    for attribute in attributes:
        if not re.search(rf"\b{page_names('attributes')[attribute]}\b", russian):
            found.append(f"{attribute} is not written {page_names('attributes')[attribute]}")
    for race in races:
        shown = page_names("races")[race]
        if not re.search(rf"(?<![\w-]){shown}(?![\w-])", russian):
            found.append(f"{race} is not written {shown}")
    return found


def test_every_card_has_a_russian_text_and_only_cards_have_one() -> None:
    assert set(TEXTS_RU) == set(DATABASE)
    assert all(text.strip() == text and text.endswith((".", ")")) for text in TEXTS_RU.values())


def test_every_russian_text_names_only_cards_and_keeps_the_numbers_and_types() -> None:
    wrong = {name: found for name in DATABASE if (found := problems(DATABASE[name].text, TEXTS_RU[name]))}
    assert wrong == {}


def test_the_checks_catch_a_wrong_amount_an_unknown_name_and_an_english_word() -> None:
    sangan = DATABASE["Sangan"].text
    right = TEXTS_RU["Sangan"]
    assert problems(sangan, right) == []
    assert problems(sangan, right.replace("1500", "1600")) == ["numbers [1600] instead of [1500]"]
    assert problems(sangan, right + " Blue-Eyes Ultimate Dragon.") == [
        "Latin 'Blue-Eyes Ultimate Dragon' is not a card name"]
    assert problems(sangan, right.replace("колоды", "Deck")) == ["Latin 'Deck' is not a card name"]
    assert problems(sangan, sangan)[0] == "no Russian in it"                # the English text left as it is
    restrict = DATABASE["Thousand-Eyes Restrict"].text
    assert problems(restrict, TEXTS_RU["Thousand-Eyes Restrict"]) == []
    assert problems(sangan, right + " Relinquished.") == ["Latin 'Relinquished' is not a card name"]
    graceful = DATABASE["Graceful Charity"].text
    assert problems(graceful, "Возьмите три карты, затем сбросьте одну.") == ["numbers [3] instead of [2, 3]"]
    assert problems(graceful, "Возьмите две карты, затем сбросьте две.") == ["numbers [2, 2] instead of [2, 3]"]


def test_attributes_and_types_are_written_as_the_page_renders_them() -> None:
    assert page_names("attributes")["LIGHT"] == "СВЕТ" and page_names("races")["Beast-Warrior"] == "Зверь-воин"
    assert named_types(DATABASE["Sogen"].text) == ([], ["Beast-Warrior", "Warrior"])
    assert named_types(DATABASE["Chaos Sorcerer"].text) == (["LIGHT", "DARK"], [])
    sogen = DATABASE["Sogen"].text
    assert problems(sogen, "Монстры типов Воин и Зверь получают 200 АТК и ЗАЩ.") == [
        "Beast-Warrior is not written Зверь-воин"]
    mpz = DATABASE["Mystic Plasma Zone"].text
    assert problems(mpz, "Монстры с атрибутом ТЬМЫ получают 500 АТК и теряют 400 ЗАЩ.") == [
        "DARK is not written ТЬМА"]
