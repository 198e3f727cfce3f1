"""Property tests of a table, driven directly (no network): whatever clients send
— legal and illegal actions, other seats' numbers, garbage, stale versions,
repeated ids — the table's version is the number of stored events, every
accepted (seat, client id) is stored exactly once (ids are the clients' own, so
two seats may pick the same one), a refused message changes nothing,
and replaying the stored log gives the same game."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from goat.server.messages import ActionMessage, ProtocolError
from goat.server.settings import Settings
from goat.server.storage import AsyncStorage, SeatRow, Storage, TableRow
from goat.server.tables import Table

STEP = st.tuples(st.sampled_from(["legal", "own-card", "garbage", "other-seat"]), st.integers(0, 3),
                 st.sampled_from([0, 0, 0, -1, 1]), st.booleans())


@settings(max_examples=30, deadline=None)
@given(rules=st.sampled_from(["classic", "street", "full-hand"]), seed=st.integers(0, 10**6),
       script=st.lists(STEP, min_size=1, max_size=80))
def test_refusals_change_nothing_and_the_log_replays(rules: str, seed: int, script: list) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_scenario(Path(tmp), rules, seed, script))


async def _scenario(tmp: Path, rules: str, seed: int, script: list) -> None:
    config = Settings(data_dir=tmp)
    storage = Storage(config.url)
    store = AsyncStorage(storage)
    seats = [SeatRow(i, "human", f"p{i}", None, f"{i:064d}") for i in range(4)]
    row = TableRow("t1", "kozel", rules, {}, 4, str(seed), "playing")
    await store.create_table(row, seats)
    table = Table(row, seats, config, store)
    ids: list[str] = []                       # every id sent so far
    accepted: list[tuple[int, str]] = []      # (seat, id) of accepted actions
    try:
        for step, (kind, seat, offset, reuse) in enumerate(script):
            if table.status == "finished":
                break
            if table.state.is_chance_node():
                async with table.lock:
                    await table._commit_deal()
                continue
            if kind == "legal":   # the seat to act, mostly (a street molodka may come from another)
                seat = table.state.current_player()
            view = table.state.view(seat)
            hand = view["hand"] or ["9H"]
            text = {"legal": (view["legal_actions"] or [f"{seat} play {hand[0]}"])[0],
                    "own-card": f"{seat} play {hand[step % len(hand)]}",
                    "garbage": f"{seat} dance {hand[0]}",
                    "other-seat": f"{(seat + 1) % 4} play {hand[0]}"}[kind]
            msg_id = ids[step % len(ids)] if reuse and ids else f"id{step}"
            before_version, before_log = table.version, table.state.deal_log()
            message = ActionMessage(type="action", action=text, version=max(0, table.version + offset), id=msg_id)
            try:
                await table.submit(seat, message)
            except ProtocolError:
                assert table.version == before_version and table.state.deal_log() == before_log
            else:
                assert table.version == before_version + 1 and (seat, msg_id) not in accepted
                accepted.append((seat, msg_id))
            ids.append(msg_id)
        stored = await store.load("t1")
        assert [e.seq for e in stored.events] == list(range(1, table.version + 1))
        stored_ids = [(int(e.payload.split()[0]), e.client_id) for e in stored.events if e.client_id is not None]
        assert sorted(stored_ids) == sorted(accepted) and len(set(stored_ids)) == len(stored_ids)
        again = Table(stored.table, stored.seats, config, None)
        again.replay(stored.events)
        assert again.version == table.version
        assert again.state.deal_log() == table.state.deal_log() and again.state.result() == table.state.result()
    finally:
        store.close()
