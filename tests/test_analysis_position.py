"""Each analysed move carries the position it was taken in (the review's deal
diagram): every hand, the trick so far, the trump suit, the stock's size.

Checked against the record alone, not the engine: at every move the hands, the
cards played before it in the deal and the stock make up the deal's deck
exactly (no card twice, none missing); the card played is in the mover's hand
and not anywhere else; the trick on the table is the record's plays since the
last full trick. Kozel's classic (a stock) and full-hand (the partner exchange
moves cards between hands before the play), and Spades where DDS is installed.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from goat.analysis import analyze_record
from goat.fast import spades_dd
from goat.games.kozel import new_state
from goat.protocol import play_randomly
from goat.records import record_from_state


def kozel_record(preset: str, seed: int) -> dict[str, Any]:
    state = new_state(preset, single_deal=True)
    play_randomly(state, random.Random(seed))
    return record_from_state(state)


def spades_record(seed: int) -> dict[str, Any]:
    """A Spades deal the heuristic bots played (random bids make a nil, and no
    card is valued while a nil is alive)."""
    from goat.bots import make_bot, play_bots
    from goat.games.spades import new_state as new_spades

    state = new_spades("standard", single_deal=True)
    bots = [make_bot("heuristic", f"{seed}/{seat}", game="spades") for seat in range(4)]
    play_bots(state, bots, random.Random(seed))
    return record_from_state(state)


def check_positions(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every analysed move's position, checked against the record; returns the
    positions (as ``to_json`` gives them)."""
    analysis = analyze_record(record, 1)
    assert analysis.moves
    deal = record["deals"][0]
    deck = Counter(c for hand in deal["hands"].values() for c in hand) + Counter(deal["stock"])
    players = record["players"]
    actions = deal["actions"]
    moves = analysis.to_json()["moves"]
    for move in moves:
        position = move["position"]
        assert len(position["hands"]) == players
        plays = [a.split() for a in actions[:move["index"]] if a.split()[1] == "play"]
        played = Counter(c for _, _, cards in plays for c in cards.split("+"))
        held = Counter(c for hand in position["hands"] for c in hand)
        stock = position.get("stock", 0)
        assert not held & played, move                                # no card both held and played
        assert held + played <= deck, move                                # no card twice, none made up
        rest = deck - held - played                                       # what the stock still holds
        assert sum(rest.values()) == stock and set(rest) <= set(deal["stock"]), move
        seat, _, cards = move["action"].split()
        assert all(c in position["hands"][int(seat)] for c in cards.split("+")), move
        assert all(c not in hand for s, hand in enumerate(position["hands"]) if s != int(seat)
                   for c in cards.split("+")), move
        on_table = plays[len(plays) - len(plays) % players:]          # one card a seat per trick
        assert position["trick"] == [{"seat": int(s), "cards": c.split("+")} for s, _, c in on_table], move
    return moves


@pytest.mark.parametrize(("preset", "seed"), [("classic", 5), ("classic", 8), ("full-hand", 3), ("full-hand", 11)])
def test_kozel_positions_hold_the_deck_and_the_trick(preset: str, seed: int) -> None:
    record = kozel_record(preset, seed)
    moves = check_positions(record)
    trump = moves[0]["position"]["trump"]
    assert trump in "CDHS" and all(m["position"]["trump"] == trump for m in moves)
    stocked = preset == "classic"   # 4 cards a hand and a stock of 16; full-hand deals the whole deck
    assert ("stock" in moves[0]["position"]) == stocked
    if stocked:
        assert moves[0]["position"]["stock"] == len(record["deals"][0]["stock"])


@pytest.mark.skipif(not spades_dd.dds_available(), reason="needs endplay (DDS)")
@pytest.mark.parametrize("seed", [5, 6])
def test_spades_positions_hold_the_deck_and_the_trick(seed: int) -> None:
    moves = check_positions(spades_record(seed))
    assert len(moves) == 52 and all(len(h) == 13 for h in moves[0]["position"]["hands"])
    assert all("trump" not in m["position"] and "stock" not in m["position"] for m in moves)
