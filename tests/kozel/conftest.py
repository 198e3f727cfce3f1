"""Shared helpers for the Kozel rule tests.

Tests build a deal from hands written in the card notation, so every expected
outcome can be worked out by hand from ``shared/rules/kozel.md``:

>>> s = deal_state("classic", hands={"0": "7H 8H 9H KH", "1": "7S 8S 9S KS",
...                                  "2": "7D 8D 9D KD", "3": "TH AH TS AS"})
>>> play(s, "0 play 9H").trick[0].cards[0]
Card('9H')

Helpers are plain functions (imported by other test modules, e.g. the street
tests) plus a few fixtures wrapping them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from goat.cards import Card, parse_cards
from goat.games.kozel import KozelDeal, KozelState, new_state
from goat.protocol import Action, IllegalActionError

Hands = Mapping[str | int, str | Iterable[str]] | Iterable[str | Iterable[str]]


def _card_list(cards: str | Iterable[str] | None) -> list[str]:
    """``"7C AH"`` / ``"7C+AH"`` / ``["7C", "AH"]`` -> canonical strings."""
    if cards is None:
        return []
    if isinstance(cards, str):
        return [str(c) for c in parse_cards(cards)] if cards.strip() else []
    return [str(Card.parse(c)) for c in cards]


def deal_json(state: KozelState, hands: Hands, stock: str | Iterable[str] | None = None,
              trump_card: str | None = None) -> dict[str, Any]:
    """A record's deal object for ``state``'s rules.

    ``hands`` maps seats (``"0"`` or ``0``) to cards, or is a list by seat.
    ``stock`` is top first; ``None`` means "every card of the deck not in a hand,
    in deck order (suit-major C D H S, ranks low to high)", a shown ``trump_card``
    moved off the stock's ends into its middle — use it only when the stock order
    does not matter to the test.
    """
    if isinstance(hands, Mapping):
        by_seat = {str(k): _card_list(v) for k, v in hands.items()}
    else:
        by_seat = {str(i): _card_list(v) for i, v in enumerate(hands)}
    if stock is None:
        used = {c for cards in by_seat.values() for c in cards}
        stock_list = [str(c) for c in state.rules.deck_cards if str(c) not in used]
        shown = str(Card.parse(trump_card)) if trump_card is not None else None
        if shown in stock_list[:1] + stock_list[-1:] and len(stock_list) > 2:
            stock_list.remove(shown)   # street takes it from the middle of the stock: put it there
            stock_list.insert(len(stock_list) // 2, shown)
    else:
        stock_list = _card_list(stock)
    obj: dict[str, Any] = {"hands": by_seat, "stock": stock_list}
    if trump_card is not None:
        obj["trump_card"] = str(Card.parse(trump_card))
    return obj


def apply_deal(state: KozelState, hands: Hands, stock: str | Iterable[str] | None = None,
               trump_card: str | None = None) -> KozelState:
    """Apply a hand-written deal at ``state``'s chance node (any deal of a match)."""
    assert state.is_chance_node(), f"no deal is due: {state!r}"
    state.apply_chance(KozelDeal.from_json(state.rules, deal_json(state, hands, stock, trump_card)))
    return state


def deal_state(preset: str = "classic", hands: Hands | None = None,
               stock: str | Iterable[str] | None = None, trump_card: str | None = None,
               dealer: int = 0, players: int | None = None,
               options: dict[str, Any] | None = None, single_deal: bool = False) -> KozelState:
    """A new match of ``preset`` whose first deal (dealt by ``dealer``) is ``hands``/``stock``."""
    state = new_state(preset, options=options, players=players, first_dealer=dealer,
                      single_deal=single_deal)
    assert hands is not None, "deal_state needs hands"
    return apply_deal(state, hands, stock, trump_card)


def act(text: str | Action) -> Action:
    return text if isinstance(text, Action) else Action.parse(text)


def play(state: KozelState, *actions: str | Action) -> KozelState:
    """Apply each action (``"0 play 9H"``, ``"1 give QD"``...) in order; returns ``state``."""
    for a in actions:
        state.apply_action(act(a))
    return state


def snapshot(state: KozelState) -> tuple[Any, ...]:
    """Everything a refusal must leave unchanged (public view, every seat's view, hands)."""
    seats = range(state.rules.players)
    return (state.information_state_string(None),
            tuple(state.information_state_string(s) for s in seats),
            tuple(tuple(h) for h in state.hands), tuple(state.stock),
            state.current_player(), len(state.logs[-1]["actions"]) if state.logs else 0)


def assert_illegal(state: KozelState, action: str | Action, rule: str) -> IllegalActionError:
    """``action`` is refused for ``rule``, the reason names the seat, nothing changes.

    Checks ``is_legal``, ``check_action``, ``apply_action`` and that the action is not
    among ``legal_actions()``.
    """
    a = act(action)
    before = snapshot(state)
    assert not state.is_legal(a)
    assert a not in state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.check_action(a)
    with pytest.raises(IllegalActionError) as info2:
        state.apply_action(a)
    err = info2.value
    assert err.rule == rule, f"expected rule {rule!r}, got {err.rule!r}: {err.reason}"
    assert info.value.rule == rule
    assert f"seat {a.seat}" in err.reason, err.reason
    assert err.seat == a.seat
    assert "\n" not in str(err)
    assert str(a) in str(err) and f"[{rule}]" in str(err)   # names the action and the rule
    assert snapshot(state) == before
    return err


def legal_strings(state: KozelState, seat: int | None = None) -> set[str]:
    """The legal actions (of ``seat``, default all) as strings."""
    return {str(a) for a in state.legal_actions() if seat is None or a.seat == seat}


def hand_of(state: KozelState, seat: int) -> set[str]:
    return {str(c) for c in state.hands[seat]}


# ------------------------------------------------------------ scripted deals
Trick = list[tuple[int, str]]


def parse_trick(text: str) -> Trick:
    """``"0:AH 1:7H 2:8H 3:9H"`` -> ``[(0, "AH"), (1, "7H"), ...]`` in play order."""
    out = []
    for item in text.split():
        seat, card_text = item.split(":")
        out.append((int(seat), str(Card.parse(card_text))))
    return out


def rotate_trick(text: str, steps: int, players: int = 4) -> str:
    """The same trick with every seat moved ``steps`` places clockwise."""
    return " ".join(f"{(seat + steps) % players}:{c}" for seat, c in parse_trick(text))


def script_deal(state: KozelState, tricks: list[str], winners: list[int],
                trump_card: str | None = None) -> dict[str, Any]:
    """The deal object that makes the scripted play possible.

    ``tricks`` lists every trick as ``"seat:card ..."`` in play order, and
    ``winners`` the trick winners *worked out by hand*. Each seat is dealt its
    first ``hand_size`` cards; the stock is ordered so that, drawing clockwise
    from each (hand-stated) winner, every seat receives its next scripted card.
    If the engine disagrees about a winner, the draws go to the wrong seats and
    the script fails with a card-in-hand error.
    """
    rules = state.rules
    n, size = rules.players, rules.hand_size
    plays: list[list[str]] = [[] for _ in range(n)]
    parsed = [parse_trick(t) for t in tricks]
    for trick in parsed:
        for seat, c in trick:
            plays[seat].append(c)
    dealt = [min(size, len(p)) for p in plays]
    in_hand = list(dealt)
    stock: list[str] = []
    for trick, winner in zip(parsed, winners):
        for seat, _ in trick:
            in_hand[seat] -= 1
        while len(stock) < rules.stock_size:
            progressed = False
            for seat in [(winner + i) % n for i in range(n)]:
                if len(stock) < rules.stock_size and in_hand[seat] < size:
                    stock.append(plays[seat][dealt[seat]])
                    dealt[seat] += 1
                    in_hand[seat] += 1
                    progressed = True
            if not progressed:
                break
    hands = {str(s): plays[s][:size] for s in range(n)}
    return deal_json(state, hands, stock, trump_card)


def play_tricks(state: KozelState, tricks: list[str]) -> list[int]:
    """Play scripted tricks; returns the winner of each as the engine saw it."""
    winners = []
    for text in tricks:
        for seat, c in parse_trick(text):
            state.apply_action(Action.parse(f"{seat} play {c}"))
        assert state.last_trick is not None
        winners.append(state.last_trick["winner"])
    return winners


def play_scripted_deal(state: KozelState, tricks: list[str], winners: list[int],
                       trump_card: str | None = None) -> KozelState:
    """Deal :func:`script_deal` at ``state``'s chance node and play it out,
    checking every trick winner against ``winners``."""
    obj = script_deal(state, tricks, winners, trump_card)
    state.apply_chance(KozelDeal.from_json(state.rules, obj))
    assert play_tricks(state, tricks) == winners
    return state


@pytest.fixture
def kozel_deal():
    """The :func:`deal_state` helper as a fixture."""
    return deal_state


@pytest.fixture
def kozel_play():
    """The :func:`play` helper as a fixture."""
    return play


# ------------------------------------------------------------ worked deals
# Every winner below is worked out by hand from shared/rules/kozel.md, trick by
# trick; the comments give the reason. Points: A=11 T=10 K=4 Q=3 J=2, rest 0.

#: Classic / full-hand (clubs trump), dealer 0: seat 0 wins all 8 tricks.
SWEEP = [
    "0:AH 1:7H 2:8H 3:9H",  # hearts led, no trump: AH highest heart        11
    "0:AS 1:7S 2:8S 3:9S",  # spades: AS                                    11
    "0:AD 1:7D 2:8D 3:9D",  # diamonds: AD                                  11
    "0:7C 1:8C 2:9C 3:KC",  # trumps: 7C (shamok) is the highest card        4
    "0:QC 1:JD 2:JH 3:JS",  # QC above every jack                            9
    "0:QS 1:TC 2:QD 3:AC",  # QS > QD > any club                            27
    "0:QH 1:KH 2:JC 3:TH",  # QH > JC; 1 and 3 hold no trump, discard       19
    "0:TS 1:KS 2:TD 3:KD",  # spades: TS > KS, diamonds never win           28
]
SWEEP_WINNERS = [0] * 8  # team 0: 120 points, 8 tricks; team 1: 0, 0

#: Classic / full-hand (clubs trump), dealer 0: a 60-60 deal, 4 tricks each.
EGGS = [
    "0:AH 1:7H 2:8H 3:9H",  # -> 0, AH                      team 0: 11
    "0:AS 1:7S 2:8S 3:9S",  # -> 0, AS                      team 0: 22
    "0:AD 1:7D 2:8D 3:9D",  # -> 0, AD                      team 0: 33
    "0:8C 1:7C 2:9C 3:KC",  # -> 1, 7C highest              team 1: 4
    "1:QC 2:JD 3:JH 0:JS",  # -> 1, QC above jacks          team 1: 13
    "1:QH 2:JC 3:AC 0:TC",  # -> 1, QH above JC and clubs   team 1: 39
    "1:TH 2:KH 3:QD 0:KD",  # -> 3, QD the only trump       team 1: 60
    "3:TD 0:QS 1:KS 2:TS",  # -> 0, QS the only trump       team 0: 60
]
EGGS_WINNERS = [0, 0, 0, 1, 1, 1, 3, 0]

#: Full-hand, 3 players, 24 cards, clubs trump, dealer 0 (8 cards each, no stock).
#: Trumps: 9C KC TC AC < JD JH JS JC < QD QH QS QC.
THREE_WIN = [
    "0:AH 1:9D 2:9S",  # hearts led; JH/QH are trumps so 1 and 2 are void: AH   s0 11
    "0:TH 1:TD 2:TS",  # TH                                                      s0 41
    "0:KH 1:KD 2:KS",  # KH                                                      s0 53
    "0:9H 1:AD 2:AS",  # 9H, the only heart                                      s0 75
    "0:9C 1:JD 2:QD",  # trump lead, all follow trumps: QD                       s2 3+2 = 5
    "2:QH 0:KC 1:JH",  # QH                                                      s2 14
    "2:QS 0:TC 1:JS",  # QS                                                      s2 29
    "2:QC 0:AC 1:JC",  # QC                                                      s2 45
]
THREE_WIN_WINNERS = [0, 0, 0, 0, 2, 2, 2, 2]  # points [75, 0, 45], tricks [4, 0, 4]

#: Same hands, nobody above 60: points [11, 56, 53], tricks [1, 3, 4].
THREE_NO_WINNER = [
    "0:AH 1:9D 2:9S",  # AH                                   s0 11
    "0:TH 1:JD 2:TS",  # 1 trumps in with JD                  s1 22
    "1:AD 2:KS 0:9H",  # diamonds led, 2 and 0 void: AD       s1 37
    "1:KD 2:AS 0:KH",  # KD                                   s1 56
    "1:TD 2:QD 0:9C",  # QD > 9C                              s2 13
    "2:QH 0:KC 1:JH",  # QH                                   s2 22
    "2:QS 0:TC 1:JS",  # QS                                   s2 37
    "2:QC 0:AC 1:JC",  # QC                                   s2 53
]
THREE_NO_WINNER_WINNERS = [0, 1, 1, 1, 2, 2, 2, 2]


def rotated(script: list[str], steps: int, players: int = 4) -> list[str]:
    """A scripted deal with every seat moved ``steps`` places clockwise
    (for a dealer ``steps``: the same play, the teams swapped when ``steps`` is odd)."""
    return [rotate_trick(t, steps, players) for t in script]
