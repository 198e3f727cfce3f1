"""What a club organiser does at the end of an evening: download every finished
game's record and rank the people with ``goat standings`` — the same table,
spelling and all, as the server's own standings."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from goat.cli.main import app
from goat.server.runner import ServerThread

from .conftest import QUICK, Client, Lobby, play_to_the_end, run


async def finish(lobby: Lobby, server: ServerThread, name: str, seed: int) -> str:
    """A quick classic table of ``name`` and three random bots, played to its end; its id."""
    created = await lobby.create(name=name, rules="classic", seed=seed, options=QUICK)
    for seat in (1, 2, 3):
        await lobby.bot(created["id"], seat, created["token"], "random")
    async with Client(server.ws_url, created["id"], created["token"]) as me:
        await lobby.start(created["id"], created["token"])
        await play_to_the_end(me, 0)
    return created["id"]


def test_goat_standings_of_the_downloaded_records_is_the_servers_in_any_file_order(
        start_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    """Anna typed her name "anna " at the first table and "Anna" at the second:
    the server shows the later spelling. The downloaded records say when each
    game ended (``finished_at``), so ``goat standings`` shows it too whichever
    order the files are given in (a shell's ``*.json`` sorts by table id, not by
    time)."""
    server = start_server()

    async def evening() -> tuple[list[dict], bytes]:
        lobby = Lobby(server.url)
        first = await finish(lobby, server, "anna ", 4)
        second = await finish(lobby, server, "Anna", 5)
        records = [await lobby.record(tid) for tid in (first, second)]
        csv_body = (await lobby.http.get("/api/standings.csv")).content
        await lobby.close()
        return records, csv_body

    records, server_csv = run(evening())
    assert records[0]["finished_at"] <= records[1]["finished_at"]
    assert {r["seats"][0]["name"] for r in records} == {"anna", "Anna"}
    paths = []
    for index, record in enumerate(records):
        paths.append(tmp_path / f"{index}.json")
        paths[-1].write_text(json.dumps(record), encoding="utf-8")
    for order in (paths, paths[::-1]):
        out = tmp_path / "standings.csv"
        result = CliRunner().invoke(app, ["standings", "--csv", "--out", str(out), *map(str, order)])
        assert result.exit_code == 0, result.output
        assert out.read_bytes() == server_csv
        assert ",Anna," in server_csv.decode("utf-8-sig")
