"""Decision prompts and duel log lines as key + arguments (:mod:`goat.games.yugioh.prompts`).

* Every key the engine uses (``Say(...)``, ``Line(...)``) is registered, every
  registered key is used, and each has an English and a Russian string in
  ``i18n.js`` (``ygo.prompts``, ``ygo.log``, ``ygo.causes``) with the same
  ``{params}`` — so the browser never falls back to English; the English
  strings of the log are the engine's templates themselves.
* The English text made from key + arguments is the text the engine wrote
  before prompts and log lines had keys (the terminal, bots, error messages
  and tests read it).
* Over random matches, every phase, step, attribute and event a prompt names,
  and every position, zone, effect label, Type, reason and duel end a log line
  names, has a translation in both languages; every view's log entry is its
  key's template filled with its arguments, and every argument is part of the
  text that viewer is shown (so a line tells no more than its English text).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from goat.games.yugioh import new_state
from goat.games.yugioh.decisions import ask
from goat.games.yugioh.prompts import CAUSES, JOINS, LOG, PROMPTS, Line, Say, cause, template_fields
from goat.games.yugioh.scenario import scenario

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


def strings_of(block: str, table: str = "prompts") -> dict[str, str]:
    """One ``ygo.<table>`` of one language (``prompts``, ``log``, ``causes``): one ``key: "text",`` a line."""
    opening = f"\n      {table}: {{\n"
    start = block.index(opening) + len(opening)
    end = block.index("\n      },", start)
    out: dict[str, str] = {}
    for line in block[start:end].splitlines():
        if not line.strip() or line.strip().startswith("//"):
            continue
        match = ENTRY.match(line)
        assert match, f"i18n.js: cannot read ygo.{table} line {line!r}"
        assert match[1] not in out, f"i18n.js: ygo.{table}.{match[1]} twice"
        out[match[1]] = match[2].replace('\\"', '"')
    return out


def table_names(block: str, name: str) -> set[str]:
    """The names of a small ``ygo.<name>`` table (``{ a: "...", "b-c": "..." }``, no nesting)."""
    match = re.search(rf"\n {{6}}{name}: \{{(.*?)\}}", block, re.S)
    assert match, f"i18n.js: no ygo.{name} table"
    return {key.strip('"') for key in PAIR.findall(match[1])}


def keys_in_source(kind: str = "Say") -> set[str]:
    """Every key the engine's code asks (``Say("key"...)``) or logs (``Line("key"...)``,
    ``Line("a" if x else "b", ...)``) with."""
    keys: set[str] = set()
    call = re.compile(rf'\b{kind}\(\s*"(\w+)"(?:\s+if\s+[\w.]+\s+else\s+"(\w+)")?')
    for path in ENGINE.rglob("*.py"):
        if path.name != "prompts.py":
            for found in call.findall(path.read_text(encoding="utf-8")):
                keys |= {key for key in found if key}
    return keys


def test_every_key_the_engine_uses_is_registered_and_every_registered_key_is_used() -> None:
    used = keys_in_source()
    assert len(used) > 40
    assert used - PROMPTS.keys() == set(), "asked with a key that prompts.PROMPTS lacks"
    assert PROMPTS.keys() - used == set(), "a registered prompt nothing asks with"


def test_every_log_key_the_engine_uses_is_registered_and_every_registered_key_is_used() -> None:
    used = keys_in_source("Line")
    assert len(used) > 60
    assert used - LOG.keys() == set(), "logged with a key that prompts.LOG lacks"
    assert LOG.keys() - used == set(), "a registered log line nothing logs"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_key_has_a_string_with_the_same_params_in_each_language(lang: str) -> None:
    strings = strings_of(language_blocks()[lang])
    assert strings.keys() == PROMPTS.keys()
    for key, template in PROMPTS.items():
        assert template_fields(strings[key]) == template_fields(template), f"{lang} ygo.prompts.{key}"
    if lang == "ru":
        assert all(re.search("[а-яё]", text, re.I) for text in strings.values())


@pytest.mark.parametrize(("table", "python"), [("log", LOG), ("causes", CAUSES)])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_log_key_and_cause_has_a_string_with_the_same_params_in_each_language(
        table: str, python: dict[str, str], lang: str) -> None:
    strings = strings_of(language_blocks()[lang], table)
    assert strings.keys() == python.keys()
    for key, template in python.items():
        assert template_fields(strings[key]) == template_fields(template), f"{lang} ygo.{table}.{key}"
    if lang == "en":
        assert strings == python  # the page's English is the engine's
    else:
        assert all(re.search("[а-яё]", text, re.I) for key, text in strings.items() if key not in ("card", "text"))


def owner_lines() -> set[str]:
    """The log lines whose English names a card's owner in brackets or as "{seat}'s"."""
    return {key for key, text in LOG.items() if re.search(r"\([^()]*\{seat\}|\{seat\}'s", text)}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_owner_line_has_a_wording_for_the_owner_themself(lang: str) -> None:
    """The page words "Sangan (Аня) is destroyed" for Аня herself from
    ``ygo.logYours`` (yugioh.js ``logText``), not as "Sangan (Аня (you))": every
    such line has one, with the line's arguments but the seat."""
    yours = strings_of(language_blocks()[lang], "logYours")
    assert len(owner_lines()) >= 6
    assert yours.keys() == owner_lines()
    for key, text in yours.items():
        assert template_fields(text) == template_fields(LOG[key]) - {"seat"}, f"{lang} ygo.logYours.{key}"
        assert "(" + "вы" + ")" not in text and "(you)" not in text


@pytest.mark.parametrize(("line", "text"), [
    (Line("draws", seat=1), "1 draws a card"),
    (Line("drawsCard", seat=1, card="Sangan"), "1 draws Sangan"),
    (Line("turnStarts", n=3, seat=0), "turn 3: player 0"),
    (Line("specialSummons", seat=0, card="Scapegoat", position="Defense"),
     "0 Special Summons Scapegoat in Defense Position"),
    (Line("activatesLabel", seat=1, card="Black Luster Soldier - Envoy of the Beginning", label="remove", n=2),
     "1 activates Black Luster Soldier - Envoy of the Beginning (remove) as chain link 2"),
    (Line("activatesEffect", seat=0, card="Sangan", n=1), "0 activates Sangan's effect as chain link 1"),
    (Line("attacks", seat=0, card="Vorse Raider", target="face-down@1M1"), "0 attacks with Vorse Raider -> face-down@1M1"),
    (Line("attacksDirectly", seat=0, card="Vorse Raider"), "0 attacks with Vorse Raider -> directly"),
    (Line("battleVsDef", attacker="Vorse Raider", atk=1900, defender="Mystical Elf", value=2000),
     "battle: Vorse Raider 1900 ATK vs Mystical Elf 2000 DEF"),
    (Line("destroyed", card="Sangan", seat=1, reason="cost of Skull Lair"), "Sangan (1) is destroyed (cost of Skull Lair)"),
    (Line("takesBattleDamage", seat=1, n=100, lp=7900), "1 takes 100 battle damage (7900 LP left)"),
    (Line("returnsToHand", card="Sangan", seat=0, zone="gy"), "Sangan returns to 0's hand (from gy)"),
    (Line("turnsOverToEnd", seat=1, n=4), "1 turns over 4 card(s) before the end of the Deck"),
    (Line("duelEndsWin", n=1, seat=0, end="lp"), "duel 1 ends: 0 wins (lp)"),
    (Line("duelEndsDraw", n=2, end="lp+deck-out"), "duel 2 ends: draw (lp+deck-out)"),
    (Line("replay"), "replay: the defender's monsters changed"),
])
def test_the_english_text_is_the_log_line_the_engine_has_always_written(line: Line, text: str) -> None:
    assert line.text == str(line) == text


@pytest.mark.parametrize(("reason", "key", "args"), [
    ("battle", "battle", {}),
    ("equip lost", "equipLost", {}),
    ("Mirror Force", "card", {"card": "Mirror Force"}),
    ("cost of Black Luster Soldier - Envoy of the Beginning", "costOf",
     {"card": "Black Luster Soldier - Envoy of the Beginning"}),
    ("Chaos Sorcerer's effect", "effectOf", {"card": "Chaos Sorcerer"}),
    ("at random, Delinquent Duo", "atRandom", {"card": "Delinquent Duo"}),
    ("Sogen took the field", "tookField", {"card": "Sogen"}),
    ("cost of something", "text", {"text": "cost of something"}),  # not a card: shown as it is
])
def test_a_reason_is_sent_as_its_cause(reason: str, key: str, args: dict[str, str]) -> None:
    assert cause(reason) == {"key": key, "args": args}
    assert CAUSES[key].format(**args) == reason
    line = Line("toGraveyard", card="Sangan", seat=0, reason=reason)
    assert line.to_json() == {"key": "toGraveyard", "args": {"card": "Sangan", "seat": 0, "reason": cause(reason)}}


def test_a_log_line_takes_exactly_its_templates_arguments_and_is_no_prompt() -> None:
    with pytest.raises(ValueError, match="unknown log line key 'draw'"):
        Line("draw", seat=0)
    with pytest.raises(ValueError, match=r"log line 'draws' takes \['seat'\], not \['card', 'seat'\]"):
        Line("draws", seat=0, card="Sangan")   # the public line of a draw must not name the card
    with pytest.raises(ValueError, match="unknown prompt key 'draws'"):
        Say("draws", seat=0)
    with pytest.raises(TypeError, match="must be a Say"):
        next(ask(0, "first", Line("draws", seat=0), [("choose first", 0)]))  # type: ignore[arg-type]
    assert Line("replay") != Say("replay")
    duel = scenario().duel
    with pytest.raises(TypeError, match="must be a Line"):
        duel.say("0 draws a card")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs both its seat and its text"):
        duel.say(Line("draws", seat=0), 0)


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
    from goat.games.yugioh.deck import DECK_PROBLEMS   # the deck problems share the machinery ("sizes")

    assert set(JOINS) <= {field for table in (PROMPTS, DECK_PROBLEMS) for template in table.values()
                          for field in template_fields(template)}


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


def play_duels(matches: int) -> list[Any]:
    """Every duel (with its whole log) of random matches of both built-in decks, goat and official rules."""
    duels: list[Any] = []
    for i in range(matches):
        rng = random.Random(f"log/{i}")
        state = new_state(["goat", "official"][i % 2],
                          {"decks": ["goat_control/chaos_warrior", "chaos_warrior/goat_control"][i // 2 % 2]})
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            if state.duel is not None and (not duels or duels[-1] is not state.duel):
                duels.append(state.duel)
            state.apply_action(rng.choice(state.legal_actions()))
    return duels


def english(say: dict[str, Any], table: dict[str, str] = LOG) -> str:
    """A view's ``{"key", "args"}`` made English again, as the browser's English strings do."""
    return table[say["key"]].format(**{name: english(value, CAUSES) if name == "reason" else value
                                       for name, value in say["args"].items()})


def arg_values(args: dict[str, Any]) -> list[str]:
    """Every argument as text, a reason's parts included."""
    out: list[str] = []
    for value in args.values():
        out += arg_values(value["args"]) if isinstance(value, dict) else [str(value)]
    return out


def test_every_views_log_entry_is_its_key_filled_and_every_named_thing_has_a_translation() -> None:
    duels = play_duels(4)
    names: dict[str, set[str]] = {"positions": set(), "fromZones": set(), "labels": set(), "races": set(),
                                  "reasons": set()}
    keys: set[str] = set()
    causes: set[str] = set()
    for duel in duels:
        for viewer in (0, 1, None):
            view = duel.log_view(viewer)
            assert [e["text"] for e in view] == [entry.for_seat(viewer) for entry in duel.log]
            for e in view:
                say = e["say"]
                keys.add(say["key"])
                assert english(say) == e["text"]
                # No argument names anything the text this viewer is shown does not.
                assert all(value in e["text"] for value in arg_values(say["args"])), e
                args = say["args"]
                for arg, table in (("position", "positions"), ("zone", "fromZones"), ("label", "labels"),
                                   ("race", "races"), ("end", "reasons")):
                    names[table] |= {args[arg]} if arg in args else set()
                if "reason" in args:
                    causes.add(args["reason"]["key"])
    assert {"draws", "drawsCard", "activates", "resolves", "toGraveyard", "destroyed", "duelEndsWin"} <= keys
    assert {"battle", "resolved", "card"} <= causes and "text" not in causes, "a reason with no cause template"
    assert names["positions"] == {"Attack", "Defense"} and {"gy", "monster"} <= names["fromZones"]
    assert names["labels"] and names["races"] and names["reasons"]
    for lang, block in language_blocks().items():
        for table, seen in names.items():
            if table == "races" and lang == "en":
                continue  # English Types are their own names
            assert seen <= table_names(block, table), f"{lang} ygo.{table} lacks {seen - table_names(block, table)}"
