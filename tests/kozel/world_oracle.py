"""Every world of a small Kozel ending, enumerated through the engine alone.

An independent reference for the world sampler (no code shared with
``goat.games.kozel.worlds``): at a point where the stock is empty, every
assignment of the cards a seat has not seen to the other seats' hands, every
identity of the cards of the moves hidden from it (gives of the other
partnership) and of the cards the others drew, is walked back to an initial
deal, which the engine replays with ``apply_action``; it counts when the seat's
view comes out the same. (Who drew after which play is public; the walk takes
it from the real deal's replay.) Each
(initial deal, hidden cards) pair is counted once, so the counts are the
distribution the sampler's docstring promises: uniform over the initial deals
and hidden choices that fit the view.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from typing import Any

from goat.cards import Card
from goat.games.kozel import KozelDeal, KozelState
from goat.protocol import Action, GoatError

Key = tuple[frozenset[Card], ...]   # the other seats' hands now, by seat (the viewer's empty)


def _view(state: KozelState, seat: int) -> dict[str, Any]:
    return json.loads(json.dumps(state.view(seat)))


def hidden_hands(state: KozelState, seat: int) -> Key:
    """The key of ``state``: every seat's hand now, the viewer's left empty."""
    return tuple(frozenset() if s == seat else frozenset(h) for s, h in enumerate(state.hands))


def _assignments(cards: list[Card], sizes: list[int]):
    if not sizes:
        yield ()
        return
    for chosen in combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in chosen]
        for tail in _assignments(rest, sizes[1:]):
            yield (frozenset(chosen), *tail)


def exact_worlds(start: KozelState, state: KozelState, seat: int) -> Counter[Key]:
    """How many (initial deal, hidden cards) pairs give ``seat`` the view it has
    in ``state``, by the other seats' hands now. ``start`` is the match just
    before ``state``'s deal was dealt (a chance node); the deal has no stock."""
    rules = state.rules
    assert not state.stock, "the oracle walks back from an empty stock"
    view = _view(state, seat)
    actions = list(state.logs[-1]["actions"])
    history = view["history"]
    n = rules.players
    # What the seat saw: its hand, every card shown to it in the history, and where
    # the cards it saw given still are.
    known: list[set[Card]] = [set() for _ in range(n)]
    seen: set[Card] = set(state.hands[seat])
    exchange_done = False
    pending: list[tuple[int, int, Card]] = []
    for action, text in zip(actions, history):
        if "?" in text:
            if action.verb == "give" and rules.partner_exchange and not exchange_done:
                pending.append((action.seat, (action.seat + 2) % 4, None))  # type: ignore[arg-type]
            continue
        card = action.cards[0]
        seen.add(card)
        giver = action.seat
        if action.verb == "give":
            receiver = (giver + 2) % 4
            known[giver].discard(card)
            if rules.partner_exchange and not exchange_done:
                pending.append((giver, receiver, card))
            else:
                known[receiver].add(card)
        else:
            known[giver].discard(card)
        if len(pending) == n and not exchange_done:
            exchange_done = True
            for g, r, c in pending:
                if c is not None:
                    known[r].add(c)
    unseen = [c for c in rules.deck_cards if c not in seen]
    others = [s for s in range(n) if s != seat]
    assert all(known[s] <= set(state.hands[s]) for s in others)
    sizes = [len(state.hands[s]) - len(known[s]) for s in others]
    draws = _draws_after(start, state)
    counts: Counter[Key] = Counter()
    for parts in _assignments(unseen, sizes):
        hands = [set(state.hands[seat]) if s == seat else set() for s in range(n)]
        for s, part in zip(others, parts):
            hands[s] = set(part) | known[s]
        key = tuple(frozenset() if s == seat else frozenset(h) for s, h in enumerate(hands))
        for initial, stock, filled in _walk_back(hands, [], actions, history, len(actions), draws, seat):
            if _replays(start, initial, stock, filled, view, seat, state):
                counts[key] += 1
    return counts


def _draws_after(start: KozelState, state: KozelState) -> dict[int, list[tuple[int, Card]]]:
    """The draws made right after each action of ``state``'s deal (by action
    index), in order: (seat, card). Found by replaying the real deal."""
    replay = start.clone()
    replay.apply_chance(state.logs[-1]["deal"])
    out: dict[int, list[tuple[int, Card]]] = {}
    for i, action in enumerate(state.logs[-1]["actions"]):
        before = [len(d) for d in replay.drawn]
        replay.apply_action(action)
        order = [(s, replay.drawn[s][-1]) for s in range(len(before)) if len(replay.drawn[s]) > before[s]]
        if order:
            winner = replay.last_trick["winner"]
            n = len(before)
            out[i] = sorted(order, key=lambda d: (d[0] - winner) % n)
    return out


def _walk_back(hands: list[set[Card]], stock: list[Card], actions: list[Action], history: list[str], i: int,
               draws: dict[int, list[tuple[int, Card]]], seat: int):
    """Initial hands and stock (and the history with hidden cards filled in)
    that reach ``hands`` and ``stock`` after ``actions[:i]``, branching on every
    hidden card: a hidden give's, and each card another seat drew."""
    if i == 0:
        yield [frozenset(h) for h in hands], list(stock), []
        return
    if draws.get(i - 1):   # undo the draws after actions[i - 1], the last one first
        yield from _undraw(hands, stock, actions, history, i, draws, seat, list(draws[i - 1]))
        return
    yield from _walk_action(hands, stock, actions, history, i, draws, seat)


def _undraw(hands, stock, actions, history, i, draws, seat, left):
    if not left:
        rest = {k: v for k, v in draws.items() if k != i - 1}
        yield from _walk_action(hands, stock, actions, history, i, rest, seat)
        return
    drawer, card = left[-1]
    options = [card] if drawer == seat else sorted(hands[drawer], key=lambda c: c.index)
    for drawn in options:
        if drawn not in hands[drawer]:
            continue
        back = [set(h) for h in hands]
        back[drawer].discard(drawn)
        yield from _undraw(back, [drawn, *stock], actions, history, i, draws, seat, left[:-1])


def _walk_action(hands, stock, actions, history, i, draws, seat):
    action, text = actions[i - 1], history[i - 1]
    actor = action.seat
    if action.verb == "give":
        receiver = (actor + 2) % 4
        options = [action.cards[0]] if "?" not in text else sorted(hands[receiver], key=lambda c: c.index)
        for card in options:
            if card not in hands[receiver]:
                continue
            back = [set(h) for h in hands]
            back[receiver].discard(card)
            back[actor].add(card)
            for initial, rest, filled in _walk_back(back, stock, actions, history, i - 1, draws, seat):
                yield initial, rest, [*filled, Action(actor, "give", (card,))]
        return
    back = [set(h) for h in hands]
    back[actor].update(action.cards)
    for initial, rest, filled in _walk_back(back, stock, actions, history, i - 1, draws, seat):
        yield initial, rest, [*filled, action]


def _replays(start: KozelState, initial, stock: list[Card], filled: list[Action], view: dict[str, Any],
             seat: int, state: KozelState) -> bool:
    world = start.clone()
    deal = KozelDeal(tuple(tuple(sorted(h, key=lambda c: c.index)) for h in initial), tuple(stock),
                     state.logs[-1]["deal"].trump_card)
    try:
        world.apply_chance(deal)
        for action in filled:
            world.apply_action(action)
    except GoatError:
        return False
    return _view(world, seat) == view
