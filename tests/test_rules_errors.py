"""Every refusal of a ruleset names its kind, so that a page can say it in its
reader's language: each ``raise RulesError(`` of the games gives a kind and the
arguments its sentence names, and each kind has a sentence (``rulesErrors``)
in every language of the page (en and ru in ``i18n.js``, bg, ar). The English
line stays the message (the CLI's, the records')."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable
from pathlib import Path

import pytest

from goat.games.kozel.rules import CHOICES as KOZEL_CHOICES
from goat.games.kozel.rules import make_rules as kozel_rules
from goat.games.spades.rules import make_rules as spades_rules
from goat.games.yugioh.rules import make_rules as yugioh_rules
from goat.protocol import RulesError

SRC = Path(__file__).resolve().parents[1] / "src/goat"
STATIC = SRC / "server/static"
#: language -> (file, which ``<group>: {`` block of the file holds it)
LANGUAGES = {"en": ("i18n.js", 0), "ru": ("i18n.js", 1), "bg": ("i18n-bg.js", 0), "ar": ("i18n-ar.js", 0)}


def raise_sites() -> list[tuple[str, int, list[str], set[str]]]:
    """Each ``raise RulesError(...)`` under goat/games: (file, line, its kinds, its keyword names).
    A kind is the second positional argument: a text, or ``a if cond else b`` of texts."""
    sites = []
    for path in sorted((SRC / "games").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and getattr(node.exc.func, "id", None) == "RulesError"):
                continue
            call = node.exc
            kind = call.args[1] if len(call.args) > 1 else None
            choices = [kind.body, kind.orelse] if isinstance(kind, ast.IfExp) else [kind]
            kinds = [c.value for c in choices if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            where = f"{path.relative_to(SRC)}:{node.lineno}"
            sites.append((where, node.lineno, kinds if len(kinds) == len(choices) else [],
                          {k.arg for k in call.keywords if k.arg}))
    return sites


def strings(group: str, lang: str) -> dict[str, str]:
    """The ``group`` sentences of ``lang`` as the page's strings file has them."""
    name, index = LANGUAGES[lang]
    text = (STATIC / name).read_text(encoding="utf-8")
    blocks = re.findall(rf"^\s*{group}: {{\n(.*?)^\s*}},?$", text, flags=re.M | re.S)
    return dict(re.findall(r'^\s*(\w+): "(.*)",?$', blocks[index], flags=re.M))


def fields(template: str) -> set[str]:
    """The ``{name}`` (and ``{name|forms}``) arguments a sentence uses."""
    return {name.split("|")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_raise_of_a_rules_error_names_its_kind() -> None:
    sites = raise_sites()
    assert len(sites) >= 56
    assert [where for where, _, kinds, _ in sites if not kinds] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_has_its_sentence_in_every_language(lang: str) -> None:
    """...using only the arguments each raise gives, and none of them also a
    lobby refusal's name (the page looks ``say`` up in both)."""
    sentences = strings("rulesErrors", lang)
    lobby = strings("lobbyErrors", lang)
    for where, _, kinds, given in raise_sites():
        for kind in kinds:
            assert kind in sentences, f"{where}: no {lang} rulesErrors.{kind}"
            assert fields(sentences[kind]) <= given, (where, kind, fields(sentences[kind]) - given)
            assert kind not in lobby, kind
    used = {kind for *_, kinds, _ in raise_sites() for kind in kinds}
    assert set(sentences) == used            # none left for a refusal that is gone


@pytest.mark.parametrize(("make", "kind", "args"), [
    (lambda: spades_rules("mirror", options={"blind_nil": True}), "spadesMirrorClash",
     {"option": "mirror", "options": ["blind_nil"]}),
    (lambda: spades_rules("standard", options={"min_team_bid": 9, "max_team_bid": 4}), "spadesTeamBids",
     {"least": 9, "most": 4, "top": 26}),
    (lambda: kozel_rules("full-hand", players=3, options={"deck": "32"}), "kozelDeckShare",
     {"deck": "32", "players": 3}),
    (lambda: kozel_rules("full-hand", players=4, options={"deck": "24"}), "kozelHandsFit",
     {"players": 4, "hand_size": 8, "deck": "24"}),
    (lambda: kozel_rules("classic", options={"eggs": "many"}), "optionChoice",
     {"option": "eggs", "value": "many", "choices": list(KOZEL_CHOICES["eggs"])}),
    (lambda: kozel_rules("classic", options={"colour": 1}), "unknownOption", {"option": "colour"}),
    (lambda: kozel_rules("street", options={"molodka": "yes"}), "optionBool", {"option": "molodka", "value": "yes"}),
    (lambda: kozel_rules("classic", players=3), "playersNotAllowed", {"players": 3, "allowed": [4]}),
    (lambda: kozel_rules("classic", options={"molodka": True}), "optionNeeds",
     {"option": "molodka", "set": True, "needs": "trick_style", "value": "street"}),
    (lambda: yugioh_rules("goat", {"starting_lp": {"a": 1}}), "optionAtLeast",
     {"option": "starting_lp", "value": "{'a': 1}", "least": 1}),
])
def test_a_refusal_carries_its_kind_and_json_args_beside_its_english_line(
        make: Callable[[], object], kind: str, args: dict[str, object]) -> None:
    with pytest.raises(RulesError) as caught:
        make()
    assert (caught.value.kind, caught.value.say_args) == (kind, args)
    assert "\n" not in str(caught.value) and len(str(caught.value)) > 20


def test_the_english_line_stays_as_it_was() -> None:
    with pytest.raises(RulesError, match=r"^option deck=32: 32 cards do not share out evenly among 3 players$"):
        kozel_rules("full-hand", players=3, options={"deck": "32"})
