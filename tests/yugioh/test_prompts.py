"""Decision prompts as key + arguments (:mod:`goat.games.yugioh.prompts`).

* Every key the engine uses is registered, every registered key is used, and
  each has an English and a Russian string in ``i18n.js`` with the same
  ``{params}`` — so the browser never falls back to English for a prompt.
* The English text made from key + arguments is the engine's prompt as it was
  written before prompts had keys (the terminal, bots and error messages read it).
* Over random matches, every phase, step, attribute and event an argument
  names has a translation in both languages.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from goat.games.yugioh import new_state
from goat.games.yugioh.decisions import ask
from goat.games.yugioh.prompts import JOINS, PROMPTS, Say, template_fields

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "src" / "goat" / "games" / "yugioh"
I18N = ROOT / "src" / "goat" / "server" / "static" / "i18n.js"
ENTRY = re.compile(r'^\s*(\w+): "((?:[^"\\]|\\.)*)",?\s*$')
PAIR = re.compile(r'(\w+|"[^"]+"): "(?:[^"\\]|\\.)*"')


def language_blocks() -> dict[str, str]:
    """The ``en`` and ``ru`` parts of ``i18n.js`` (the file's STRINGS object has them in that order)."""
    text = I18N.read_text(encoding="utf-8")
    en_at, ru_at = text.index("\n  en: {"), text.index("\n  ru: {")
    assert en_at < ru_at
    return {"en": text[en_at:ru_at], "ru": text[ru_at:]}


def prompt_strings(block: str) -> dict[str, str]:
    """The ``ygo.prompts`` table of one language: one ``key: "text",`` a line."""
    start = block.index("\n      prompts: {\n") + len("\n      prompts: {\n")
    end = block.index("\n      },", start)
    out: dict[str, str] = {}
    for line in block[start:end].splitlines():
        if not line.strip() or line.strip().startswith("//"):
            continue
        match = ENTRY.match(line)
        assert match, f"i18n.js: cannot read prompt line {line!r}"
        assert match[1] not in out, f"i18n.js: prompt {match[1]} twice"
        out[match[1]] = match[2]
    return out


def table_names(block: str, name: str) -> set[str]:
    """The names of a small ``ygo.<name>`` table (``{ a: "...", "b-c": "..." }``, no nesting)."""
    match = re.search(rf"\n {{6}}{name}: \{{(.*?)\}}", block, re.S)
    assert match, f"i18n.js: no ygo.{name} table"
    return {key.strip('"') for key in PAIR.findall(match[1])}


def keys_in_source() -> set[str]:
    """Every key the engine's code asks with (``Say("key"...)``)."""
    keys: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        if path.name != "prompts.py":
            keys |= set(re.findall(r'\bSay\(\s*"(\w+)"', path.read_text(encoding="utf-8")))
    return keys


def test_every_key_the_engine_uses_is_registered_and_every_registered_key_is_used() -> None:
    used = keys_in_source()
    assert len(used) > 40
    assert used - PROMPTS.keys() == set(), "asked with a key that prompts.PROMPTS lacks"
    assert PROMPTS.keys() - used == set(), "a registered prompt nothing asks with"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_key_has_a_string_with_the_same_params_in_each_language(lang: str) -> None:
    strings = prompt_strings(language_blocks()[lang])
    assert strings.keys() == PROMPTS.keys()
    for key, template in PROMPTS.items():
        assert template_fields(strings[key]) == template_fields(template), f"{lang} ygo.prompts.{key}"
    if lang == "ru":
        assert all(re.search("[а-яё]", text, re.I) for text in strings.values())


@pytest.mark.parametrize(("say", "prompt"), [
    (Say("respondChainLink", n=2), "respond to chain link 2?"),
    (Say("windowActivate", where=["battle", "damage", "calc"]), "battle / damage / calc: activate something?"),
    (Say("windowActivate", where=["main1"]), "main1: activate something?"),
    (Say("windowRespond", where=["draw"], events=["summoned"] * 4),
     "draw: respond to summoned, summoned, summoned, summoned?"),
    (Say("windowRespond", where=["battle", "battle"], events=["attack"]), "battle / battle: respond to attack?"),
    (Say("yourMove", phase="main2"), "main2: your move"),
    (Say("first", n=3), "duel 3: go first or second?"),
    (Say("banishAttribute", attribute="LIGHT"), "remove a LIGHT monster from your Graveyard"),
    (Say("battlePosition", card="Black Luster Soldier - Envoy of the Beginning"),
     "battle position for Black Luster Soldier - Envoy of the Beginning"),
    (Say("banishCount", i=2, n=4), "remove a monster (2 of 4)"),
    (Say("ritualTribute", need=3), "tribute for the Ritual (3 Levels to go)"),
    (Say("fusionMaterial", card="Gaia The Fierce Knight"), "use which Gaia The Fierce Knight as material?"),
    (Say("discardDownTo", n=6), "discard down to 6 cards"),
    (Say("gainsAtk", n=700), "which monster gains 700 ATK?"),
    (Say("battleStep"), "Battle Step: attack, activate or end the Battle Phase"),
])
def test_the_english_text_is_the_prompt_the_engine_has_always_written(say: Say, prompt: str) -> None:
    assert say.text == str(say) == prompt


def test_a_prompt_takes_exactly_its_templates_arguments() -> None:
    with pytest.raises(ValueError, match="unknown prompt key 'respond'"):
        Say("respond")
    with pytest.raises(ValueError, match=r"prompt 'first' takes \['n'\], not \[\]"):
        Say("first")
    with pytest.raises(ValueError, match=r"takes \['n'\], not \['card', 'n'\]"):
        Say("first", n=1, card="Sangan")   # a stray argument would reach the other seat's view
    with pytest.raises(TypeError, match="must be a Say"):
        next(ask(0, "first", "duel 1: go first or second?", [("choose first", 0)]))  # type: ignore[arg-type]


def test_lists_are_sent_as_lists_and_only_join_in_the_english_text() -> None:
    say = Say("windowRespond", where=("battle", "battle"), events=("attack",))
    assert say.to_json() == {"key": "windowRespond", "args": {"where": ["battle", "battle"], "events": ["attack"]}}
    assert set(JOINS) <= {field for template in PROMPTS.values() for field in template_fields(template)}


def play_views(matches: int) -> list[dict[str, Any]]:
    """Every pending decision's ``view["decision"]`` over random matches of both built-in decks."""
    seen: list[dict[str, Any]] = []
    for i in range(matches):
        rng = random.Random(f"prompts/{i}")
        state = new_state("goat", {"decks": ["goat_control/chaos_warrior", "chaos_warrior/goat_control"][i % 2],
                                   "ask_responses": "always"})
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            seen.append(state.view(1 - state.pending().seat)["decision"])
            state.apply_action(rng.choice(state.legal_actions()))
    return seen


def test_a_views_decision_carries_its_say_and_every_named_thing_has_a_translation() -> None:
    decisions = play_views(4)
    assert decisions[0]["say"] == {"key": "first", "args": {"n": 1}}
    assert decisions[0]["prompt"] == "duel 1: go first or second?"
    names: dict[str, set[str]] = {"phases": set(), "steps": set(), "substeps": set(), "events": set(),
                                  "attributes": set()}
    for d in decisions:
        say = d["say"]
        assert PROMPTS[say["key"]].format(**{k: JOINS[k].join(v) if k in JOINS else v
                                             for k, v in say["args"].items()}) == d["prompt"]
        args = say["args"]
        if "where" in args:
            names["phases"].add(args["where"][0])
            names["steps"] |= set(args["where"][1:2])
            names["substeps"] |= set(args["where"][2:])
        names["phases"] |= {args["phase"]} if "phase" in args else set()
        names["events"] |= set(args.get("events", ()))
        names["attributes"] |= {args["attribute"]} if "attribute" in args else set()
    assert {"main1", "battle", "end"} <= names["phases"] and {"summoned", "attack"} <= names["events"]
    assert {"damage"} <= names["steps"] and {"calc"} <= names["substeps"]
    for lang, block in language_blocks().items():
        for table, seen in names.items():
            assert seen <= table_names(block, table), f"{lang} ygo.{table} lacks {seen - table_names(block, table)}"
