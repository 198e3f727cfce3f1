"""``goat serve``: bad settings, a busy port and a database that cannot be
opened are one line and exit status 2; a good start prints the URL to open."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.server.runner import lan_address, start_lines

from .conftest import SRC, ServeProcess


@pytest.fixture
def busy_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    yield sock.getsockname()[1]
    sock.close()


def test_bad_settings_are_one_line(tmp_path: Path, busy_port: int) -> None:
    (tmp_path / "file").write_text("not a directory")
    cases = [
        (["--grace", "-1"], "grace must be a number of seconds >= 0"),
        (["--rate-limit", "0"], "rate-limit must be positive"),
        (["--port", "70000"], "--port must be 0..65535"),
        (["--port", str(busy_port)], f"cannot listen on 127.0.0.1:{busy_port}"),
        (["--port", "0", "--data-dir", str(tmp_path / "file")], f"{tmp_path / 'file'} is a file, not a directory"),
        (["--port", "0", "--data-dir", str(tmp_path / "file" / "below")],
         f"{tmp_path / 'file'} is a file, not a directory"),
    ]
    for args, needle in cases:
        result = CliRunner().invoke(app, ["serve", *args])
        assert result.exit_code == 2, (args, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], (args, lines)


def test_nan_inf_and_an_unknown_log_level_are_one_line_not_a_traceback(tmp_path: Path) -> None:
    """``nan`` and ``inf`` parse as floats: a timer cannot wait ``nan`` seconds, and a
    rate of ``nan``/``inf`` once broke computing its burst with a traceback; an unknown
    ``--log-level`` was uvicorn's ``KeyError``."""
    cases = [
        (["--grace", "nan"], "grace must be a number of seconds >= 0, not nan"),
        (["--deal-pause", "inf"], "deal-pause must be a number of seconds >= 0, not inf"),
        (["--lobby-idle", "nan"], "lobby-idle must be a number of seconds >= 0"),
        (["--rate-limit", "nan"], "rate-limit must be positive and finite, not nan"),
        (["--rate-limit", "inf"], "rate-limit must be positive and finite, not inf"),
        (["--log-level", "bogus"], "--log-level must be one of critical, error, warning, info, debug, trace"),
    ]
    for args, needle in cases:
        result = CliRunner().invoke(app, ["serve", "--port", "0", "--data-dir", str(tmp_path), *args])
        assert result.exit_code == 2, (args, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], (args, lines)


@pytest.mark.parametrize("option, value, problem", [
    ("--grace", "-1", "must be a number of seconds >= 0, not -1"),
    ("--bot-delay", "-0.5", "must be a number of seconds >= 0, not -0.5"),
    ("--bot-think", "inf", "must be a number of seconds >= 0, not inf"),
    ("--deal-pause", "nan", "must be a number of seconds >= 0, not nan"),
    ("--lobby-idle", "-3", "must be a number of seconds >= 0, not -3"),
    ("--finished-idle", "-1e9", "must be a number of seconds >= 0, not -1e+09"),
    ("--rate-limit", "0", "must be positive and finite, not 0"),
    ("--ping", "0", "--ping must be a positive number of seconds, not 0"),
    ("--ping", "nan", "--ping must be a positive number of seconds, not nan"),
    ("--base-path", "/a b", "must be URL path segments"),
    ("--port", "-1", "must be 0..65535, not -1"),
    ("--port", "x", "Invalid value for '--port'"),
    ("--grace", "soon", "Invalid value for '--grace'"),
    ("--log-level", "loud", "must be one of critical, error"),
    ("--connections-per-address", "-1", "must be a whole number >= 0 (0: no cap), not -1"),
    ("--connections-per-address", "lots", "Invalid value for '--connections-per-address'"),
    ("--trusted-proxies", "nginx", "must be IP addresses or networks separated by commas"),
    ("--trusted-proxies", "*,10.0.0.1", "is * (any proxy) alone"),
])
def test_every_bad_serve_option_is_one_line_naming_the_option_as_typed(
        tmp_path: Path, option: str, value: str, problem: str) -> None:
    """Each option mistake begins ``error: --option`` as the user typed it: the
    settings' own checks once said ``grace must …``, a name nobody typed."""
    result = CliRunner().invoke(app, ["serve", "--port", "0", "--data-dir", str(tmp_path), option, value])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, lines
    assert lines[0].startswith("error: ") and option in lines[0] and problem in lines[0], lines


def test_a_bad_base_path_from_the_environment_names_the_variable(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--port", "0", "--data-dir", str(tmp_path)],
                                env={"GOAT_BASE_PATH": "/a b"})
    assert result.exit_code == 2 and result.stderr.startswith("error: GOAT_BASE_PATH must be URL path segments")


@pytest.mark.parametrize("variable, value, problem", [
    ("GOAT_CONNECTIONS_PER_ADDRESS", "many", "must be a whole number >= 0 (0: no cap), not 'many'"),
    ("GOAT_TRUSTED_PROXIES", "proxy.local", "must be IP addresses or networks"),
])
def test_a_bad_cap_or_proxy_from_the_environment_names_the_variable(
        tmp_path: Path, busy_port: int, variable: str, value: str, problem: str) -> None:
    # a busy port: were the variable not read, the command stops there rather than serve for ever
    result = CliRunner().invoke(app, ["serve", "--port", str(busy_port), "--data-dir", str(tmp_path)],
                                env={variable: value})
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {variable} {problem}") and result.stderr.count("\n") == 1


def test_an_empty_data_dir_is_told_as_empty(tmp_path: Path, busy_port: int,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``--data-dir "$DIR"`` with DIR unset was ``Path("")``: the tables were kept in
    whatever folder the server was started from. (A busy port: before, the command
    stopped there rather than serve for ever.)"""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["serve", "--port", str(busy_port), "--data-dir", ""])
    assert result.exit_code == 2, result.output
    assert result.stderr == ("error: --data-dir names no folder: it is empty "
                             "(leave it out for $GOAT_DATA_DIR or ./goat-data)\n")
    assert list(tmp_path.iterdir()) == []


def test_a_data_directory_that_cannot_be_resolved_is_one_line(tmp_path: Path) -> None:
    """A symlink loop (or an unreadable link) on the way to ``--data-dir`` was
    pathlib's traceback when the database's path was resolved."""
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for given in (["--data-dir", str(tmp_path / "a" / "x")], []):
        result = CliRunner().invoke(app, ["serve", "--port", "0", *given], env={"GOAT_DATA_DIR": str(tmp_path / "b")})
        named = "--data-dir" if given else "GOAT_DATA_DIR"
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(f"error: {named} cannot be used: ") and result.stderr.count("\n") == 1


def test_serve_prints_the_url_and_serves_it(serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process()
    assert server.url.startswith("http://127.0.0.1:")
    assert httpx.get(server.url + "api/health", timeout=20).json()["ok"] is True


def test_serving_every_interface_names_the_address_the_network_reaches() -> None:
    """The page makes invite links from the address it was opened at: an organiser
    who opens the printed ``127.0.0.1`` link with ``--host 0.0.0.0`` would send friends
    links to their own machines, so the start lines also name the network address."""
    lines = start_lines("0.0.0.0", "http://0.0.0.0:8080/", "192.168.1.5")
    assert lines[0] == "Goat table server: open http://127.0.0.1:8080/ in a browser"
    assert "http://192.168.1.5:8080/" in lines[1] and "invite links" in lines[1]
    assert "http://[fd00::2]:8080/" in start_lines("::", "http://[::]:8080/", "fd00::2")[1]
    assert start_lines("", "http://0.0.0.0:8080/", "192.168.1.5")[0] == lines[0]     # "" binds as 0.0.0.0
    assert start_lines("127.0.0.1", "http://127.0.0.1:8080/", "192.168.1.5") == \
        ["Goat table server: open http://127.0.0.1:8080/ in a browser"]
    assert start_lines("0.0.0.0", "http://0.0.0.0:8080/", None) == \
        ["Goat table server: open http://127.0.0.1:8080/ in a browser"]
    found = lan_address()
    assert found is None or not found.startswith("127.")


def test_a_second_serve_on_the_same_data_directory_stops_with_one_line(
        serve_process: Callable[..., ServeProcess], tmp_path: Path) -> None:
    """Started twice on one database (another terminal, an old server still running),
    the second used to restore every unfinished table and play it against the first,
    retrying its refused writes for ever; now it stops before restoring anything. (The
    timeout only keeps a server that did start from hanging the test.)"""
    first = serve_process()
    second = subprocess.run([sys.executable, "-m", "goat", "serve", "--port", "0", "--data-dir", str(tmp_path / "data")],
                            capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert second.returncode == 2, second.stderr
    assert second.stderr.strip().splitlines() == [
        f"error: another goat serve is already using sqlite:///{(tmp_path / 'data').resolve() / 'goat.db'}; "
        "stop it first (two servers would play the same tables)"]
    assert httpx.get(first.url + "api/health", timeout=20).json()["ok"] is True


def test_a_database_url_that_is_no_url_names_where_it_came_from(tmp_path: Path) -> None:
    """It was ``cannot open the database (bad URL): Could not parse SQLAlchemy URL
    from given URL string``: neither the option nor what to write instead."""
    expected = "is not a database URL: write postgresql+psycopg://user:password@host/db or sqlite:///path/goat.db\n"
    for given, env, named in ((["--database-url", "not a url"], {}, "--database-url"),
                              ([], {"GOAT_DATABASE_URL": "not a url"}, "GOAT_DATABASE_URL")):
        result = CliRunner().invoke(app, ["serve", "--port", "0", "--data-dir", str(tmp_path), *given], env=env)
        assert result.exit_code == 2, result.output
        assert result.stderr == f"error: {named} {expected}"
