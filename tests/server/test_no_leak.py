"""No message to any client ever names a card hidden from it.

Random games are played through the real server (uvicorn on loopback) by a
WebSocket client at every seat plus a spectator. The clients play random legal
actions, try molodkas out of turn, and now and then send illegal or out-of-turn
actions, so errors are exercised too. Every message each client receives is
kept. After the match the test rebuilds the true game from the downloaded
record and, for every version, what each seat may know — independently of the
game's view function:

* its own hand (and every card it has held this deal: drawn, received) — in
  Spades not while it is face down (a blind bid open, not looked);
* every card put face up this deal (plays, beats, molodkas),
* the shown trump card,
* its own face-down passes and gives.

A spectator knows only the face-up cards and the trump card. Spades adds the
cards dealt face up (``face-up-four``) and a weak hand shown for a redeal to
what everyone knows; a double nil's gives are its givers' own cards, and the
receiver's once they are in its hand. Each message is stamped with the version
it was built at; any card named in it (anywhere in the JSON) that the
recipient may not know at that version is a leak (Spades' jokers, ``LJ`` and
``BJ``, included).

Yu-Gi-Oh! cards are names, and a seat knows every name of its own deck list,
so the duel is played between two different lists (Goat Control against Chaos
Warrior, the option ``decks``): a name only the *other* list holds is a marker
that a seat may hear only once the engine's state has shown it — in a public
zone (either Graveyard, banished, face up on the field, the chain) or in what
the engine recorded that seat seeing or being told (``state.history``: a
search shown, a public discard, the other seat's actions as that seat sees
them), or a card being Special Summoned face up whose battle position is being
asked (Metamorphosis: the answer puts it face up on the field). The other
seat's hand, its Set cards, its Deck (and any order) and its
Fusion Deck stay unnamed until then; a spectator's markers are every name.
Both seats are clients that choose with the ``greedy`` bot from the view the
server sent, and now and then send an illegal or out-of-turn decision. One
match has seat 0 bring its own deck (Normal monsters, uploaded in the lobby
while every client is connected): that private list is a marker set too, so
no lobby update and no play message names one of its cards to the other seat
or the spectator before the engine has shown it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

from goat.bots import make_bot
from goat.games import get_game
from goat.games.yugioh.recording import replay_record
from goat.games.yugioh.state import YugiohState
from goat.protocol import Action
from goat.records import new_state_for
from goat.server.runner import ServerThread
from goat.server.viewfilter import cards_in, names_pattern

from .conftest import Client, Lobby, random_player, run
from .test_yugioh_decks import NORMALS as OWN_NORMALS
from .test_yugioh_decks import OPTIONS as OWN_OPTIONS
from .test_yugioh_decks import normal_ydk

#: Blind nil and double nil at every deal (not only 100 behind), so that random
#: play bids them and every hand starts face down; a short match.
SPADES_BLIND = {"double_nil": True, "blind_nil_behind": 0, "max_deals": 3}


def steered(view: dict[str, Any], rng: random.Random) -> str:
    """A random player's turn, but a face-down seat bids double nil in the first
    deal and looks in the second (the first bidder is still face down then, as no
    other seat's move came before its turn): the exchange and a look are sure to be
    exercised, whatever order the clients' out-of-turn looks arrive in."""
    want = {1: "double-nil", 2: "look"}.get(view["deal_number"])
    legal = view["legal_actions"]
    return next((a for a in legal if a.endswith(f" bid {want}")), None) or rng.choice(legal)

GAMES = [  # (game, rules, players, options, seed): whole matches
    ("kozel", "classic", 4, {}, 1),
    ("kozel", "classic", 4, {}, 2),
    ("kozel", "classic", 4, {"trump_lead": "not-after-own-lead"}, 3),
    ("kozel", "full-hand", 4, {}, 4),
    ("kozel", "full-hand", 4, {"partner_exchange": 0}, 5),
    ("kozel", "full-hand", 3, {}, 6),
    ("kozel", "full-hand", 2, {}, 7),
    ("kozel", "full-hand-24", 4, {}, 8),
    ("kozel", "street", 4, {}, 9),
    ("kozel", "street", 4, {}, 10),
    ("kozel", "street", 4, {"penalty": "flat2"}, 11),
    ("spades", "standard", 4, SPADES_BLIND, 12),
    ("spades", "standard", 4, SPADES_BLIND, 20),
    ("spades", "face-up-four", 4, {"max_deals": 2}, 14),
    ("spades", "joker-trumps", 4, {"max_deals": 2}, 15),
]

Knowledge = list[list[set[str]]]  # [version][seat, or players for the spectator] -> cards known


def public_histories(inbox: list[dict[str, Any]]) -> dict[int, list[str]]:
    """Each deal's whole history as a spectator last saw it: Spades' looks are
    events (versions) of the table but not actions of the record."""
    out: dict[int, list[str]] = {}
    for m in inbox:
        if m["type"] == "state" and m.get("view") and m["view"].get("deal_number"):
            out[m["view"]["deal_number"]] = list(m["view"]["history"])
    return out


def with_looks(actions: list[str], history: list[str]) -> list[str]:
    """A deal's record ``actions`` with the looks of its public ``history`` put back in place."""
    out = list(actions)
    for i, entry in enumerate(history):
        if entry.endswith(" bid look"):
            out.insert(i, entry)
    return out


def knowledge_by_version(record: dict[str, Any], histories: dict[int, list[str]] | None = None) -> Knowledge:
    """What each seat (and, last, the spectator) may know after each version
    (``histories``: :func:`public_histories`, for Spades' looks)."""
    state = new_state_for(record)
    game = get_game(record["game"])
    n = state.num_players
    known: list[set[str]] = [set() for _ in range(n + 1)]
    out: Knowledge = [[set(k) for k in known]]

    def learn(action: Action | None, dealt: dict[str, Any]) -> None:
        face_down = getattr(state, "face_down", lambda seat: False)
        for seat in range(n):
            if not face_down(seat):
                known[seat] |= {str(c) for c in state.hands[seat]}
        trump_card = getattr(state, "trump_card", None)       # Kozel's shown trump
        public: set[str] = {str(trump_card)} if trump_card is not None else set()
        public |= {str(c) for cards in getattr(state, "face_up", ()) for c in cards}   # Spades' face-up-four
        if action is not None:
            cards = {str(c) for c in action.cards}
            if action.verb in ("play", "molodka"):
                public |= cards
            elif action.verb == "bid" and action.bid == "redeal":   # the weak hand is shown to all
                public |= set(dealt["hands"][str(action.seat)])
            else:  # pass, give: the actor's own knowledge (already in its hand)
                known[action.seat] |= cards
        for k in known:
            k |= public
        out.append([set(k) for k in known])

    for number, deal in enumerate(record["deals"], start=1):
        state.apply_chance(game.chance_from_json(state, deal))
        known = [set() for _ in range(n + 1)]
        learn(None, deal)
        for text in with_looks(deal["actions"], (histories or {}).get(number, [])):
            action = Action.parse(text)
            state.apply_action(action)
            learn(action, deal)
    return out


def leaks(raw: str, version: int, seat: int | None, knowledge: Knowledge) -> set[str]:
    who = len(knowledge[0]) - 1 if seat is None else seat
    return cards_in(raw) - knowledge[version][who]


@pytest.mark.slow
@pytest.mark.parametrize("game, rules, players, options, seed", GAMES)
def test_no_message_names_a_hidden_card(start_server: Callable[..., ServerThread], game: str, rules: str,
                                        players: int, options: dict[str, Any], seed: int) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(players, game=game, rules=rules, options=options, seed=seed)
        clients = [await Client(server.ws_url, tid, t).__aenter__() for t in tokens]
        watcher = await Client(server.ws_url, tid).__aenter__()
        await lobby.start(tid, tokens[0])
        rng = random.Random(seed)
        seats: list[int | None] = [*range(players), None]
        steer = steered if options.get("blind_nil_behind") == 0 else None
        await asyncio.wait_for(asyncio.gather(*(random_player(c, s, random.Random(rng.random()), choose=steer)
                                                for c, s in zip([*clients, watcher], seats))), 300)
        record = await lobby.record(tid)
        knowledge = knowledge_by_version(record, public_histories(watcher.inbox))
        errors = 0
        for client, seat in zip([*clients, watcher], seats):
            for raw, message in zip(client.raw, client.inbox):
                version = message.get("version", 0)
                assert not leaks(raw, version, seat, knowledge), (seat, version, raw)
                errors += message["type"] == "error"
        # The check can fail: the hands of the others at the first deal are not known
        # (at the first version where every seat has seen its hand: face-down ones have not).
        at = next(v for v in range(1, len(knowledge)) if all(knowledge[v][s] for s in range(players)))
        first = knowledge[at]
        for seat in range(players):
            others = set().union(*(first[s] for s in range(players) if s != seat)) - first[seat]
            assert others and leaks(str(sorted(others)), at, seat, knowledge) == others
        assert errors > 0
        final = max(m["version"] for m in watcher.inbox)
        for client in [*clients, watcher]:   # every client saw every version: no update lost
            assert {m["version"] for m in client.inbox if m["type"] == "state"} >= set(range(1, final + 1))
        assert len(record["result"]["deals"]) >= 2
        if options.get("double_nil"):   # the exchange's gives, hidden then shown to the partner, were checked
            assert any(" give " in a for deal in record["deals"] for a in deal["actions"])
        if options.get("blind_nil_behind") == 0:   # face-down hands were checked, looks too
            assert any(h.endswith(" bid look") for h in sum(public_histories(watcher.inbox).values(), []))
        for c in [*clients, watcher]:
            await c.__aexit__()
        await lobby.close()

    run(scenario())


# ------------------------------------------------------------------ Yu-Gi-Oh!
YUGIOH = [  # (decks, seed): whole matches of three duels at most
    ("goat_control/chaos_warrior", 31),
    ("chaos_warrior/goat_control", 32),
    ("own", 33),   # seat 0 brings its own deck (Normal monsters) in the lobby; seat 1 plays Goat Control
]


def _names(deck: dict[str, Any]) -> set[str]:
    return set(deck["main"]) | set(deck.get("fusion") or ()) | set(deck.get("side") or ())


def yugioh_knowledge(record: dict[str, Any]) -> tuple[list[set[str]], list[list[set[str]]]]:
    """``(markers, known)``: for each viewer (seat 0, seat 1, the spectator) the
    names it may hear only once shown, and after each version the markers it
    has been shown — from the engine's state alone (its zones and its record
    of what each viewer saw), not from the view function."""
    lists = [_names(d) for d in record["decks"]]
    markers = [lists[1] - lists[0], lists[0] - lists[1], lists[0] | lists[1]]
    pattern = names_pattern("yugioh")
    state = replay_record({**record, "actions": [], "chance": []})   # the match before its first step
    chances, actions = iter(record["chance"]), iter(record["actions"])
    known: list[set[str]] = [set(), set(), set()]
    out = [[set(k) for k in known]]

    def public(state: YugiohState) -> set[str]:
        duel = state.duel
        if duel is None:
            return set()
        names = {link.card.name for link in duel.chain}
        pending = state.pending()
        if getattr(pending, "kind", None) == "position":   # a card being Special Summoned face up, as
            names |= set(pattern.findall(pending.prompt))   # Metamorphosis's: placed face up by this answer
        for p in duel.players:
            names |= {c.name for c in (*p.gy, *p.banished)}
            names |= {c.name for c in (*p.monsters, *p.spells) if c is not None and c.face_up}
        return names

    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(next(chances))
        else:
            state.apply_action(next(actions))
        shown = public(state)
        for viewer in range(3):
            told = " ".join(state.history[viewer])
            known[viewer] |= {m for m in markers[viewer] if m in shown or m in told}
        out.append([set(k) for k in known])
    return markers, out


async def yugioh_player(client: Client, seat: int, rng: random.Random) -> None:
    """Answer every decision of ``seat`` with the greedy bot's choice from the
    view; sometimes first an illegal one (a card of the hand summoned when that
    is not offered) or one out of turn."""
    bot = make_bot("greedy", seed=rng.random(), game="yugioh")
    while True:
        message = await client.recv(timeout=60)
        if message["type"] != "state" or message["view"] is None:
            continue
        view, version = message["view"], message["version"]
        if message["status"] == "finished":
            return
        legal = view["legal_actions"]
        hand = (view.get("players") or [{}, {}])[seat].get("hand") or []
        if legal:
            wrong = [f"{seat} summon {c}" for c in hand if f"{seat} summon {c}" not in legal]
            if wrong and rng.random() < 0.03:
                await client.act(wrong[0], version)
            await client.act(str(bot.choose(view)), version)
        elif hand and rng.random() < 0.01:
            await client.act(f"{seat} pass", version)        # not this seat's decision: refused


@pytest.mark.slow
@pytest.mark.parametrize("decks, seed", YUGIOH)
def test_no_duel_message_names_a_hidden_card(start_server: Callable[..., ServerThread], decks: str,
                                             seed: int) -> None:
    server = start_server()
    pattern = names_pattern("yugioh")

    async def scenario() -> None:
        lobby = Lobby(server.url)
        options = {"decks": decks} if decks != "own" else {"decks": "goat_control", **OWN_OPTIONS}
        tid, tokens = await lobby.humans(2, game="yugioh", rules="goat", options=options, seed=seed)
        clients = [await Client(server.ws_url, tid, t).__aenter__() for t in tokens]
        watcher = await Client(server.ws_url, tid).__aenter__()
        if decks == "own":
            # Uploaded while everyone is connected: the lobby updates it causes
            # are checked with every other message (they may say "own deck", no name).
            uploaded = await lobby.http.put(f"/api/tables/{tid}/seats/0/deck", content=normal_ydk(),
                                            headers={"Authorization": f"Bearer {tokens[0]}"})
            assert uploaded.status_code == 200, uploaded.text
            for c in [clients[1], watcher]:
                await c.until(lambda m: m["type"] == "state" and m["seats"][0].get("own_deck"))
        await lobby.start(tid, tokens[0])
        rng = random.Random(seed)
        await asyncio.wait_for(asyncio.gather(*(yugioh_player(c, s, random.Random(rng.random()))
                                                for s, c in enumerate(clients)),
                                              until_finished(watcher)), 600)
        record = await lobby.record(tid)
        markers, known = yugioh_knowledge(record)
        errors = 0
        for viewer, client in enumerate([*clients, watcher]):
            for raw, message in zip(client.raw, client.inbox):
                named = set(pattern.findall(raw)) & markers[viewer]
                leaked = named - known[message.get("version", 0)][viewer]
                assert not leaked, (viewer, message.get("version"), leaked)
                errors += message["type"] == "error"
        # The check can fail: after the opening hands each seat holds markers of the other.
        opening = next(v for v, k in enumerate(known) if v and record_hands_dealt(record, v))
        for seat in (0, 1):
            hand = record_hand(record, opening, 1 - seat)
            assert hand & markers[seat] - known[opening][seat], (seat, hand)
        assert errors > 0
        final = max(m["version"] for m in watcher.inbox)
        for client in [*clients, watcher]:   # every client saw every version: no update lost
            assert {m["version"] for m in client.inbox if m["type"] == "state"} >= set(range(1, final + 1))
        if decks == "own":
            assert record["decks"][0]["main"] == [n for n in OWN_NORMALS for _ in range(3)]
        assert record["result"]["match_over"] and len(record["result"]["duels"]) >= 2
        side = [a for a in record["actions"] if " swap " in a or a.endswith(" done")]
        assert side                                   # side-decking between duels was decided (and checked)
        for c in [*clients, watcher]:
            await c.__aexit__()
        await lobby.close()

    run(scenario())


async def until_finished(client: Client) -> None:
    while True:
        message = await client.recv(timeout=60)
        if message["type"] == "state" and message["status"] == "finished":
            return


def _state_at(record: dict[str, Any], version: int) -> YugiohState:
    state = replay_record({**record, "actions": [], "chance": []})
    chances, actions = iter(record["chance"]), iter(record["actions"])
    for _ in range(version):
        if state.is_chance_node():
            state.apply_chance(next(chances))
        else:
            state.apply_action(next(actions))
    return state


def record_hands_dealt(record: dict[str, Any], version: int) -> bool:
    """Whether both opening hands are in hand at ``version`` (the first duel's)."""
    duel = _state_at(record, version).duel
    return duel is not None and all(len(p.hand) >= 5 for p in duel.players)


def record_hand(record: dict[str, Any], version: int, seat: int) -> set[str]:
    duel = _state_at(record, version).duel
    assert duel is not None
    return {c.name for c in duel.players[seat].hand}
