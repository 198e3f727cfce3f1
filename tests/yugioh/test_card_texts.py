"""The card texts of the page's languages (``cards/texts_ru.py``,
``cards/texts_bg.py``, ``cards/texts_ar.py``) against the English ones.

A Russian, Bulgarian or Arabic player decides from the text in their language alone, so
a mistranslated amount or a card the pool does not have would mislead them.
These are cheap mechanical guards, the same for every language, not a review of
the wording:

* every card of ``DATABASE`` has a text in the language, and no other name does;
* every Latin word sequence in a text is a card name of ``DATABASE``, a name
  outside the pool that the card's English text also mentions (Thousand-Eyes
  Restrict's materials), or an abbreviation the language keeps (Russian: LP,
  LV<n>; Bulgarian, as its rulebook: ATK, DEF, LV<n>; Arabic: LV<n>);
* the numbers of a text equal those of its English text, as a multiset (digits,
  and the number words from two up: English says "one" as an article too, and
  Russian has none, so "one" is not counted in any language; Arabic's duals
  of the words its texts use count as two);
* every Attribute and Type the English text names is written as the page renders
  it (``ygo.attributes``, ``ygo.races`` of the language's strings in ``static/``).
* "that card" (another card: the one a Counter Trap negates) is not written with the
  language's words for "this card", the card itself;
* a Tribute or Flip Summon is said as the page's duel log says it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import goat.server
from goat.games.yugioh.cards.data import DATABASE, RACES
from goat.games.yugioh.cards.texts_ar import TEXTS_AR
from goat.games.yugioh.cards.texts_bg import TEXTS_BG
from goat.games.yugioh.cards.texts_ru import TEXTS_RU


@dataclass(frozen=True)
class Language:
    """What the guards need to know of one language of the card texts."""

    code: str
    texts: dict[str, str]
    letters: str                  #: a letter of the language's script (a regex, matched case-insensitively)
    numbers: dict[int, str]       #: the number words from two up, every form, by value
    abbreviations: str            #: the Latin abbreviations its texts keep (a regex)
    strings: str                  #: the page's file with its ``ygo.*`` strings

    @property
    def words(self) -> dict[str, int]:
        return {word: n for n, forms in self.numbers.items() for word in forms.split()}


LANGUAGES = {
    "ru": Language("ru", TEXTS_RU, "[а-яё]", {
        2: "два две двух двум двумя",
        3: "три трёх трех трём трем тремя",
        4: "четыре четырёх четырех четырём четырем четырьмя",
        5: "пять пяти пятью",
        6: "шесть шести шестью",
        7: "семь семи",
        8: "восемь восьми восемью",
        9: "девять девяти девятью",
        10: "десять десяти десятью",
    }, r"LP|LV\d+", "i18n.js"),
    "bg": Language("bg", TEXTS_BG, "[а-я]", {
        2: "два две двата двете",
        3: "три трите",
        4: "четири четирите",
        5: "пет петте",
        6: "шест шестте",
        7: "седем седемте",
        8: "осем осемте",
        9: "девет деветте",
        10: "десет десетте",
    }, r"ATK|DEF|LV\d+", "i18n-bg.js"),
    # Arabic says two by the dual alone ("بطاقتين", two cards): the duals its texts use count as 2
    "ar": Language("ar", TEXTS_AR, "[\u0600-\u06ff]", {
        2: "اثنان اثنين اثنتان اثنتين بطاقتان بطاقتين",
        3: "ثلاث ثلاثة الثلاث الثلاثة",
        4: "أربع أربعة الأربع الأربعة",
        5: "خمس خمسة الخمس الخمسة",
        6: "ست ستة",
        7: "سبع سبعة",
        8: "ثمان ثماني ثمانية",
        9: "تسع تسعة",
        10: "عشر عشرة",
    }, r"LV\d+", "i18n-ar.js"),
}
BY_CODE = pytest.mark.parametrize("code", sorted(LANGUAGES))
#: Cards outside the pool a card's English text names (Thousand-Eyes Restrict's materials): allowed in
#: that card's text only.
OUTSIDE_POOL = ("Relinquished", "Thousand-Eyes Idol")
ATTRIBUTES = ("LIGHT", "DARK", "EARTH", "WATER", "FIRE", "WIND")
# A run of Latin words, with the joins card names use ("D.D. Warrior Lady", "Black Luster Soldier - Envoy ...").
LATIN_RUN = re.compile(r"[A-Za-z][\w.'\-]*(?:(?: - | )[A-Za-z0-9][\w.'\-]*)*", re.ASCII)
EN_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
BY_LENGTH = sorted(DATABASE, key=len, reverse=True)


def without_names(text: str) -> str:
    """``text`` with every card name of the pool cut out (their digits, as LV2's, are no amounts)."""
    for name in BY_LENGTH:
        text = text.replace(name, " ")
    return text


def numbers(text: str, words: dict[str, int]) -> Counter[int]:
    """The multiset of amounts in ``text``: its digits and its number words. Combining
    marks are dropped first: an Arabic vowel sign would cut a word in two for ``\\w``
    ("ستُدمَّر", will be destroyed, would read as ست, six)."""
    found: Counter[int] = Counter()
    plain = "".join(c for c in without_names(text) if unicodedata.category(c) != "Mn")
    for token in re.findall(r"\d+|[^\W\d_]+", plain):
        if token.isdigit():
            found[int(token)] += 1
        elif token.casefold() in words:
            found[words[token.casefold()]] += 1
    return found


@cache
def page_names(table: str, code: str = "ru") -> dict[str, str]:
    """The page's rendering of ``table`` (``attributes`` or ``races``) in language ``code``,
    read from its strings file (the one of its ``ygo.*`` blocks written in its script)."""
    language = LANGUAGES[code]
    source = (Path(goat.server.__file__).parent / "static" / language.strings).read_text(encoding="utf-8")
    for match in re.finditer(rf"\b{table}: \{{([^}}]*)\}}", source):
        pairs = {key.strip(' "'): value for key, value in re.findall(r'([\w" -]+): "([^"]+)"', match.group(1))}
        if any(re.search(language.letters, value, re.I) for value in pairs.values()):
            return pairs
    raise AssertionError(f"no ygo.{table} of {code} in {language.strings}")


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


def problems(english: str, text: str, code: str = "ru") -> list[str]:
    """What is wrong with ``text`` as the ``code`` text of a card whose English text is ``english``."""
    language = LANGUAGES[code]
    found = []
    if not re.search(language.letters, text, re.I):
        found.append(f"no {code} in it")
    for run in LATIN_RUN.findall(text):
        run = run.rstrip(".") if run not in DATABASE else run
        if run in DATABASE or re.fullmatch(language.abbreviations, run):
            continue
        if run in OUTSIDE_POOL and run in english:
            continue
        found.append(f"Latin {run!r} is not a card name")
    want, got = numbers(english, EN_NUMBERS), numbers(text, language.words)
    if want != got:
        found.append(f"numbers {sorted(got.elements())} instead of {sorted(want.elements())}")
    attributes, races = named_types(english)
    for attribute in attributes:
        shown = page_names("attributes", code)[attribute]
        if not re.search(rf"\b{shown}\b", text):
            found.append(f"{attribute} is not written {shown}")
    for race in races:
        shown = page_names("races", code)[race]
        if not re.search(rf"(?<![\w-]){shown}(?![\w-])", text):
            found.append(f"{race} is not written {shown}")
    return found


@BY_CODE
def test_every_card_has_a_text_and_only_cards_have_one(code: str) -> None:
    texts = LANGUAGES[code].texts
    assert set(texts) == set(DATABASE)
    assert all(text.strip() == text and text.endswith((".", ")")) for text in texts.values())


@BY_CODE
def test_every_text_names_only_cards_and_keeps_the_numbers_and_types(code: str) -> None:
    texts = LANGUAGES[code].texts
    wrong = {name: found for name in DATABASE if (found := problems(DATABASE[name].text, texts[name], code))}
    assert wrong == {}


#: Per language: its word for the Deck in Sangan's text, and Graceful Charity with one wrong amount
#: and with two.
WRONG = {
    "ru": ("колоды", "Возьмите три карты, затем сбросьте одну.", "Возьмите две карты, затем сбросьте две."),
    "bg": ("Колодата", "Изтеглете три карти, после изхвърлете една.", "Изтеглете две карти, после изхвърлете две."),
    "ar": ("الرزمة", "اسحب ثلاث بطاقات، ثم تخلّص من بطاقة واحدة.", "اسحب بطاقتين، ثم تخلّص من بطاقتين."),
}


@BY_CODE
def test_the_checks_catch_a_wrong_amount_an_unknown_name_and_an_english_word(code: str) -> None:
    texts, (deck, one_wrong, two_wrong) = LANGUAGES[code].texts, WRONG[code]
    sangan = DATABASE["Sangan"].text
    right = texts["Sangan"]
    assert problems(sangan, right, code) == []
    assert problems(sangan, right.replace("1500", "1600"), code) == ["numbers [1600] instead of [1500]"]
    assert problems(sangan, right + " Blue-Eyes Ultimate Dragon.", code) == [
        "Latin 'Blue-Eyes Ultimate Dragon' is not a card name"]
    assert deck in right
    assert problems(sangan, right.replace(deck, "Deck", 1), code) == ["Latin 'Deck' is not a card name"]
    assert problems(sangan, sangan, code)[0] == f"no {code} in it"          # the English text left as it is
    restrict = DATABASE["Thousand-Eyes Restrict"].text
    assert problems(restrict, texts["Thousand-Eyes Restrict"], code) == []
    assert problems(sangan, right + " Relinquished.", code) == ["Latin 'Relinquished' is not a card name"]
    graceful = DATABASE["Graceful Charity"].text
    assert problems(graceful, one_wrong, code) == ["numbers [3] instead of [2, 3]"]
    assert problems(graceful, two_wrong, code) == ["numbers [2, 2] instead of [2, 3]"]


def test_attributes_and_types_are_written_as_the_page_renders_them() -> None:
    assert page_names("attributes")["LIGHT"] == "СВЕТ" and page_names("races")["Beast-Warrior"] == "Зверь-воин"
    assert page_names("attributes", "bg")["LIGHT"] == "СВЕТЛИНА"
    assert page_names("races", "bg")["Beast-Warrior"] == "Звяр-воин"
    assert named_types(DATABASE["Sogen"].text) == ([], ["Beast-Warrior", "Warrior"])
    assert named_types(DATABASE["Chaos Sorcerer"].text) == (["LIGHT", "DARK"], [])
    sogen = DATABASE["Sogen"].text
    assert problems(sogen, "Монстры типов Воин и Зверь получают 200 АТК и ЗАЩ.") == [
        "Beast-Warrior is not written Зверь-воин"]
    assert problems(sogen, "Чудовищата от тип Воин и Звяр получават 200 ATK и DEF.", "bg") == [
        "Beast-Warrior is not written Звяр-воин"]
    mpz = DATABASE["Mystic Plasma Zone"].text
    assert problems(mpz, "Монстры с атрибутом ТЬМЫ получают 500 АТК и теряют 400 ЗАЩ.") == [
        "DARK is not written ТЬМА"]
    assert problems(mpz, "Чудовищата с атрибут ТЪМЕН получават 500 ATK и губят 400 DEF.", "bg") == [
        "DARK is not written ТЪМНИНА"]


def test_the_bulgarian_page_keeps_atk_and_def_latin_as_its_rulebook() -> None:
    """ATK and DEF are Latin in the Bulgarian rulebook and on the Bulgarian page:
    the card texts may keep them, the Russian ones (АТК, ЗАЩ) may not."""
    airknight = DATABASE["Airknight Parshath"].text
    assert problems(airknight, TEXTS_BG["Airknight Parshath"], "bg") == []
    assert problems(airknight, TEXTS_RU["Airknight Parshath"].replace("ЗАЩ", "DEF")) == [
        "Latin 'DEF' is not a card name"]


def test_an_arabic_vowel_sign_does_not_cut_a_word_into_a_number() -> None:
    """"ستُدمَّر" (it will be destroyed) is no ست (six); the dual "بطاقتين" is two."""
    words = LANGUAGES["ar"].words
    assert numbers("إن كانت ستُدمَّر في معركة", words) == Counter()
    assert numbers("اسحب بطاقتين.", words) == Counter({2: 1})
    assert page_names("attributes", "ar")["DARK"] == "ظلام" and page_names("races", "ar")["Warrior"] == "محارب"
    assert problems(DATABASE["Mystic Plasma Zone"].text, "تكسب الوحوش الظلامية 500 هجوم وتخسر 400 دفاع.", "ar") == [
        "DARK is not written ظلام"]


#: Per language: how its texts say "this card", the card itself ("Tribute this card", Exiled Force).
THIS_CARD = {"ru": r"\bэт(?:а|у|ой|ою) карт", "bg": r"\bтази карта", "ar": r"هذه البطاقة"}


@BY_CODE
def test_that_card_is_not_written_as_this_card(code: str) -> None:
    """A Counter Trap destroys "that card", the one it negates: a text saying "this
    card" there (Russian "эту карту", Bulgarian "тази карта", the texts' words for the
    card itself) tells the player it destroys itself."""
    texts, this_card = LANGUAGES[code].texts, THIS_CARD[code]
    assert re.search(this_card, texts["Exiled Force"])
    others = [name for name, card in DATABASE.items() if "that card" in card.text and "this card" not in card.text]
    assert "Magic Jammer" in others
    assert [name for name in others if re.search(this_card, texts[name])] == []


#: Per language: Tribute and Flip Summon as the page's duel log says them (``ygo.log.tributeSummons``,
#: ``flipSummons`` in ``static/``), and so as a card text says them.
SUMMONS = {
    "Tribute": {"ru": r"призыв\w* с жертвой", "bg": r"жертвено призоваване", "ar": r"بالتضحية"},
    "Flip": {"ru": r"призыв\w* переворотом", "bg": r"призоваване-обръщане", "ar": r"بالقلب"},
}


@BY_CODE
@pytest.mark.parametrize("kind", sorted(SUMMONS))
def test_a_kind_of_summon_is_said_as_the_duel_log_says_it(code: str, kind: str) -> None:
    """Solemn Judgment named the Tribute Summon "بتقديم قربان" in Arabic (the log and
    Mobius say "بالتضحية") and the Flip Summon "переворотом" alone in Russian."""
    said = SUMMONS[kind][code]
    source = (Path(goat.server.__file__).parent / "static" / LANGUAGES[code].strings).read_text(encoding="utf-8")
    logged = re.findall(rf'{kind.lower()}Summons: "([^"]*)"', source)
    assert any(re.search(said, line) for line in logged)
    named = [name for name, card in DATABASE.items() if re.search(rf"\b{kind}\b[^.:;]*\bSummon", card.text)]
    assert "Solemn Judgment" in named
    assert [name for name in named if not re.search(said, LANGUAGES[code].texts[name])] == []
