"""What every table setting shares (the settings beside a game's rules:
``hints``, ``move_seconds``, ``private``, ``chat``, stored in ``goat_table_settings``):
its default on a table made without it, its value in the table's info and in
every state message, and that a rematch and a restart of the server keep it.
What each setting does is tested in its own file (``test_hints.py``,
``test_clock.py``, ``test_private.py``, ``test_chat.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from goat.server.runner import ServerThread

from .conftest import QUICK, Client, Lobby, auth, play_to_the_end, run

#: (setting, a value to make a table with, the default)
SETTINGS = [("hints", True, False), ("move_seconds", 3600, None), ("private", True, False),
            ("chat", "lobby", "on")]


@pytest.mark.parametrize(("name", "value", "default"), SETTINGS)
def test_a_setting_is_public_and_kept_by_a_rematch_and_a_restart(start_server: Callable[..., ServerThread],
                                                                 name: str, value: Any, default: Any) -> None:
    server = start_server()
    kept: dict[str, str] = {}

    async def before() -> None:
        lobby = Lobby(server.url)
        plain = await lobby.create()
        assert plain[name] == default
        tid, ann = await lobby.with_bots(rules="classic", seed=2, options=QUICK, bot="random", **{name: value})
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            await play_to_the_end(me, 0)
            assert me.state is not None and me.state[name] == value       # in the state messages
        made = (await lobby.http.post(f"/api/tables/{tid}/rematch", headers=auth(ann))).json()
        assert made[name] == value and made["options"] == QUICK
        kept.update(old=tid, new=made["id"], plain=plain["id"])
        await lobby.close()

    run(before())
    server = start_server.restart(server)   # the same data directory

    async def after() -> None:
        lobby = Lobby(server.url)
        for table, expected in ((kept["old"], value), (kept["new"], value), (kept["plain"], default)):
            assert (await lobby.http.get(f"/api/tables/{table}")).json()[name] == expected
        await lobby.close()

    run(after())


def test_a_chosen_seed_is_said_to_everyone_and_not_passed_to_a_rematch(
        start_server: Callable[..., ServerThread]) -> None:
    """Whoever chose a table's seed can work out every deal, so a table made with
    ``seed`` says ``chosen_seed`` (never the seed) in its info and state messages,
    across a restart; its rematch deals from a new random seed, so it does not."""
    server = start_server()
    kept: dict[str, str] = {}

    async def before() -> None:
        lobby = Lobby(server.url)
        plain = await lobby.create()
        assert plain["chosen_seed"] is False
        tid, ann = await lobby.with_bots(rules="classic", seed="club-night-3", options=QUICK, bot="random")
        info = (await lobby.http.get(f"/api/tables/{tid}")).json()
        assert info["chosen_seed"] is True and "club-night-3" not in str(info)
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            await play_to_the_end(me, 0)
            assert me.state is not None and me.state["chosen_seed"] is True
        made = (await lobby.http.post(f"/api/tables/{tid}/rematch", headers=auth(ann))).json()
        assert made["chosen_seed"] is False
        kept.update(old=tid, new=made["id"])
        await lobby.close()

    run(before())
    server = start_server.restart(server)

    async def after() -> None:
        lobby = Lobby(server.url)
        for table, expected in ((kept["old"], True), (kept["new"], False)):
            assert (await lobby.http.get(f"/api/tables/{table}")).json()["chosen_seed"] is expected
        await lobby.close()

    run(after())
