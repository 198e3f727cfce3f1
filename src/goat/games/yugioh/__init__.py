"""Yu-Gi-Oh! duels in the Goat Format: rules engine, card pool, decks, records.

>>> from goat.games.yugioh import new_state
>>> state = new_state("goat")            # Goat Control mirror, match of three duels
>>> state.is_chance_node()               # the coin toss is due
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from goat.games.yugioh.deck import DeckError, DeckList, builtin_deck, check_deck, load_deck, parse_ydk
from goat.games.yugioh.decisions import DuelAction
from goat.games.yugioh.recording import RecordFormatError, RecordStepError, record_from_state, replay_record
from goat.games.yugioh.rules import CHOICES, PRESETS, YugiohRules, make_rules
from goat.games.yugioh.state import YugiohState

NAME = "yugioh"


def new_state(rules: str | YugiohRules = "goat", options: dict[str, Any] | None = None,
              players: int | None = None, first_dealer: int = 0,
              decks: Sequence[DeckList] | None = None, single_duel: bool = False,
              seed: int | None = None, single_deal: bool = False,
              seat_data: Sequence[Any] | None = None) -> YugiohState:
    """A new match at its first chance node (the coin toss). ``decks``
    defaults to the built-in lists the option ``decks`` names (the Goat
    Control mirror). ``seat_data``: per seat, the deck a player brought
    (the JSON :func:`seat_data_from_json` returns) or ``None`` for the
    option's list (the table server's generic name for private per-seat
    input; ``decks`` wins over it). ``players`` must be 2 (or None);
    ``first_dealer`` is ignored and ``single_deal`` means ``single_duel`` (the
    registry's common signature: a duel is this game's deal)."""
    from goat.protocol import RulesError

    if players not in (None, 2):
        raise RulesError("a duel has exactly 2 players", "playersNotAllowed", players=players, allowed=[2])
    rules = make_rules(rules, options)
    if decks is None:
        names = rules.decks.split("/")
        defaults = (names[0], names[-1])
        own = list(seat_data or ())
        if len(own) > 2:
            raise RulesError("seat_data names more than 2 seats", "seatDataSeats", seats=len(own), most=2)
        own += [None] * (2 - len(own))
        decks = tuple(builtin_deck(defaults[seat]) if own[seat] is None else DeckList.from_json(own[seat])
                      for seat in (0, 1))
    return YugiohState(rules, decks, single_duel=single_duel or single_deal, seed=seed)


#: A duel's chance events (coin tosses, shuffles, random discards) come in the
#: middle of play, not at the start of a deal: a table server need not pause
#: before them to let people read the last deal.
CHANCE_STARTS_DEAL = False


def seat_data_from_json(rules: str | YugiohRules, options: dict[str, Any] | None, obj: Any) -> dict[str, Any]:
    """A player's own deck for a table of ``rules`` and ``options``, checked and
    in canonical form (``DeckList.to_json()``: card names as the database
    spells them), ready to store and to pass to :func:`new_state` as a seat's
    ``seat_data``. ``obj`` is the ``.ydk`` text (a JSON string) or an object
    of ``main``/``fusion``/``side`` name lists (any other key is refused, not
    ignored: .ydk's "extra" would drop the Fusion Deck). Legality is the table's: its
    banlist, minimum main deck, side deck sizes and copies; raises
    :class:`DeckError` with one line (an unknown card and its line, a
    Forbidden card, too few cards, too many copies) and its ``problems`` by
    kind (:class:`~goat.games.yugioh.deck.DeckProblem`), so a server can refuse the
    upload, store nothing and let a page word the reasons in its language."""
    table_rules = make_rules(rules, options)
    if isinstance(obj, str):
        deck = parse_ydk(obj, "the deck")
    elif isinstance(obj, dict):
        unknown = [key for key in obj if key not in ("main", "fusion", "side")]
        if unknown:   # e.g. .ydk's "extra": its cards must not vanish without a word
            raise DeckError.of("noSuchList", name=str(unknown[0])[:40])
        deck = DeckList.from_json(obj)
    else:
        raise DeckError.of("notDeck")
    check_deck(deck, table_rules, "the deck")
    return deck.to_json()


def sample_world(view: dict[str, Any], rng: Any, opponent_deck: DeckList | None = None) -> YugiohState:
    """A complete match consistent with one seat's ``view`` (see :mod:`.worlds`);
    ``opponent_deck``: the list assumed for the other seat when deck lists are
    closed (default: a mirror of the seat's own)."""
    from goat.games.yugioh.worlds import sample_world as sample

    return sample(view, rng, opponent_deck=opponent_deck)


def world_sampler(view: dict[str, Any], opponent_deck: DeckList | None = None) -> Any:
    """A reusable sampler for one seat's ``view`` (:class:`.worlds.YugiohWorldSampler`):
    ``world_sampler(view).sample(rng)`` is ``sample_world(view, rng)`` with the view read once."""
    from goat.games.yugioh.worlds import YugiohWorldSampler

    return YugiohWorldSampler(view, opponent_deck=opponent_deck)


def parse_action(text: str) -> DuelAction:
    """Parse an action text (``"0 summon Sangan"``)."""
    return DuelAction.parse(text)


def chance_from_json(state: YugiohState, obj: Any) -> Any:
    """The chance outcome ``obj`` (JSON: a coin 0/1, a shuffled deck as names
    top first, a discarded card's name) checked against the pending request;
    raises :class:`~goat.protocol.InvalidChanceError`. A duel's outcomes are
    JSON values already, so this is the identity for a valid one (the table
    server stores and replays them through it, as it does Kozel's deals)."""
    state.check_chance(obj)
    return obj


def chance_to_json(state: YugiohState, outcome: Any) -> Any:
    """The JSON of a chance outcome (:func:`chance_from_json` reads it back)."""
    return outcome


def card_names() -> tuple[str, ...]:
    """Every card name of the pool: what a server's free-text scrub looks for
    (a name a recipient cannot see is replaced, as Kozel's "9H" is)."""
    from goat.games.yugioh.cards.data import DATABASE

    return tuple(sorted(DATABASE))


def card_catalog() -> dict[str, dict[str, Any]]:
    """Every card of the pool by name, as JSON: what is printed on it (``kind``
    monster/spell/trap, ``subtype``; for a monster ``attribute``, ``type``,
    ``level``, ``atk``, ``def``; a Fusion's ``materials``, a Union's hosts) and
    ``text``, the database's effect summary, and ``texts``, that summary by
    the page's language (``{"en": text, "ru": ..., "bg": ..., "ar": ...}``,
    ``cards/texts_ru.py``, ``cards/texts_bg.py``, ``cards/texts_ar.py``: the
    table is Russian by default and players decide from the effect text; ``text``
    stays for clients that read only it). Public reference data, the same
    for every seat: the table server serves it once (``GET
    /api/games/yugioh/cards``) so that the page can describe the names a view
    already holds, and no view has to carry card texts."""
    from goat.games.yugioh.cards.data import DATABASE
    from goat.games.yugioh.cards.texts_ar import TEXTS_AR
    from goat.games.yugioh.cards.texts_bg import TEXTS_BG
    from goat.games.yugioh.cards.texts_ru import TEXTS_RU

    out: dict[str, dict[str, Any]] = {}
    for name, data in sorted(DATABASE.items()):
        entry: dict[str, Any] = {"kind": data.kind, "subtype": data.subtype}
        if data.is_monster:
            entry.update({"attribute": data.attribute, "type": data.race, "level": data.level,
                          "atk": data.atk, "def": data.defense})
        if data.materials:
            entry["hosts" if data.is_union else "materials"] = list(data.materials)
        entry["text"] = data.text
        entry["texts"] = {"en": data.text, "ru": TEXTS_RU[name], "bg": TEXTS_BG[name], "ar": TEXTS_AR[name]}
        out[name] = entry
    return out


__all__ = ["CHANCE_STARTS_DEAL", "CHOICES", "NAME", "seat_data_from_json", "card_catalog", "card_names", "chance_from_json", "chance_to_json", "PRESETS", "DeckError", "DeckList", "DuelAction", "RecordFormatError", "RecordStepError",
           "YugiohRules", "YugiohState", "record_from_state", "replay_record",
           "builtin_deck", "check_deck", "load_deck", "make_rules", "new_state", "parse_action", "parse_ydk",
           "sample_world", "world_sampler"]
