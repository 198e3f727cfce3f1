"""Declarative duel scenarios: set up a board, script decisions, look at the result.

Used by the scenario tests and for hand-written rule checks::

    s = scenario(turn_player=0, phase="main1",
                 p0={"hand": ["Tribe-Infecting Virus", "Sangan"]},
                 p1={"monsters": ["Mystical Elf"], "spells": ["Book of Moon"]})
    play(s, ["0 summon Tribe-Infecting Virus", ...])

Player specs (every key optional): ``lp``, ``hand``, ``deck`` (top first),
``gy``, ``banished``, ``fusion``, ``monsters``, ``spells``. A monster is a name
(face-up Attack Position) with an optional suffix ``:def`` (face-up Defense),
``:set`` (face-down Defense) or ``:new`` (summoned this turn); a Spell/Trap is a
name (Set on an earlier turn) or ``name:up`` (face up). Decks default to ten
Giant Soldiers of Stone so nobody decks out by accident.

Chance events in :func:`play` resolve plainly: a shuffle keeps the order, a
random discard takes the first card in hand — unless ``chances`` are given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from goat.games.yugioh.cards.data import DATABASE, card as lookup
from goat.games.yugioh.deck import DeckList
from goat.games.yugioh.decisions import ChanceRequest, DuelOver
from goat.games.yugioh.duel import Duel
from goat.games.yugioh.rules import YugiohRules, make_rules
from goat.games.yugioh.state import YugiohState
from goat.games.yugioh.zones import FIELD_SLOT, CardInst

FILLER = "Giant Soldier of Stone"


class ScenarioState(YugiohState):
    """A single duel that starts from a hand-built board (not replayable by clone)."""

    def __init__(self, rules: YugiohRules, duel: Duel, start_phase: str) -> None:
        self.rules = rules
        self.first_dealer = 0
        self.seed = None
        self.start_decks = ()
        self.decks = [DeckList(()), DeckList(())]
        self.single_duel = True
        self.chances, self.actions, self.results = [], [], []
        self.wins = [0, 0]
        self.duel = duel
        self.match_winner = None
        self.over = False
        self._pending = None
        self._legal_cache = None
        self.history = ([], [], [])
        self.last_facts = []
        self._flow = self._run(start_phase)
        self._advance(None)

    def _run(self, phase: str) -> Any:
        duel = self.duel
        try:
            yield from duel.turns(phase)
        except DuelOver as over:
            self.results.append({"winner": over.winner, "reason": over.reason, "first": duel.first,
                                 "turns": duel.turn, "lp": [p.lp for p in duel.players]})
            if over.winner is not None:
                self.wins[over.winner] += 1
            self.match_winner = over.winner

    def clone(self) -> "YugiohState":  # pragma: no cover - scenarios are not replayed
        raise NotImplementedError("scenario states cannot be cloned")


def _place(duel: Duel, seat: int, spec: str, zone: str) -> CardInst:
    name, _, flag = spec.partition(":")
    data = DATABASE[lookup(name).name] if name != "Sheep Token" else DATABASE["Sheep Token"]
    card = duel.new_card(data, seat, "limbo")
    p = duel.players[seat]
    slots = p.slots(zone)
    index = FIELD_SLOT if data.subtype == "field" and data.kind == "spell" else p.first_free(zone)
    slots[index] = card
    card.zone, card.index, card.controller = zone, index, seat
    card.arrived_turn = duel.turn - 1
    if zone == "monster":
        card.face_up = flag != "set"
        card.attack_pos = flag not in ("def", "set")
        card.summoned_turn = duel.turn if flag == "new" else duel.turn - 1
        card.summoned_by = seat
        card.summon_how = "normal"
        card.proper = True
    else:
        card.face_up = flag == "up"
    return card


def scenario(rules: str | YugiohRules = "goat", options: dict[str, Any] | None = None, turn_player: int = 0,
             phase: str = "main1", turn: int = 3, p0: dict[str, Any] | None = None,
             p1: dict[str, Any] | None = None, normal_summon_used: bool = False) -> ScenarioState:
    """A duel at ``phase`` of turn ``turn`` with the boards described by ``p0``/``p1``.

    Scenarios ask at response windows only a player who can respond
    (``ask_responses="when-able"``) unless ``options`` say otherwise, so that a
    script lists only the decisions that matter to the rule under test."""
    options = {"ask_responses": "when-able", **(options or {})}
    rules = make_rules(rules, options)
    duel = Duel(rules, [DeckList(()), DeckList(())], first=turn_player if turn % 2 else 1 - turn_player)
    duel.turn, duel.turn_player = turn, turn_player
    duel.normal_summon_used = normal_summon_used
    for seat, spec in enumerate((p0 or {}, p1 or {})):
        p = duel.players[seat]
        p.lp = spec.get("lp", rules.starting_lp)
        for zone in ("hand", "deck", "gy", "banished", "fusion"):
            names = spec.get(zone, [FILLER] * 10 if zone == "deck" else [])
            for name in names:
                c = duel.new_card(DATABASE[lookup(name).name], seat, zone)
                c.face_up = zone in ("gy", "banished")
                c.proper = zone != "fusion"  # a Fusion Deck card was never summoned
                p.pile(zone).append(c)
        for name in spec.get("monsters", []):
            _place(duel, seat, name, "monster")
        for name in spec.get("spells", []):
            _place(duel, seat, name, "spell")
    return ScenarioState(rules, duel, phase)


def play(state: YugiohState, actions: Iterable[str], chances: Sequence[Any] = ()) -> YugiohState:
    """Apply ``actions`` in order; chance events take ``chances`` in order, then plain outcomes."""
    pending_chances = list(chances)
    for text in actions:
        resolve_chance(state, pending_chances)
        state.apply_action(text)
    resolve_chance(state, pending_chances)
    return state


def resolve_chance(state: YugiohState, chances: list[Any] | None = None) -> None:
    """Resolve due chance events (plain outcomes unless given)."""
    while state.is_chance_node():
        request = state.pending()
        assert isinstance(request, ChanceRequest)
        if chances:
            state.apply_chance(chances.pop(0))
        elif request.kind == "coin":
            state.apply_chance(0)
        elif request.kind == "shuffle":
            state.apply_chance(list(request.cards))
        else:
            state.apply_chance(request.cards[0])


def names(cards: Iterable[CardInst | None]) -> list[str]:
    return [c.name for c in cards if c is not None]
