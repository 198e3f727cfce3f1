"""Bots from outside the project: how a researcher's bot gets a name.

The registry stays one place, the tables of :mod:`goat.bots` (``BOTS``,
``GAME_BOTS``); this module only keeps what it needs to fill them with outside
bots and to say where each came from:

* **entry points** of the group ``goat.bots`` (``[project.entry-points."goat.bots"]
  mybot = "mypkg.bots:MyBot"`` in a package's ``pyproject.toml``). Their names
  are read at the first lookup of any bot name in a process, and an entry point
  is imported when its name is looked up (or every bot is listed): a package
  that is installed but never asked for costs nothing, and every process — a
  tournament's spawned workers too — finds them by itself;
* **bot modules** (:func:`load_bot_module`, ``--bot-module`` of ``goat tournament``
  and ``goat play``): a module name or a ``.py`` file imported for the
  :func:`goat.bots.register_bot` calls it makes;
* :func:`goat.bots.register_bot` calls anywhere else (a script, a notebook).

The tournament's worker processes are started with ``spawn`` (fresh
interpreters, see :mod:`goat.tournament.runner`): they find entry points
themselves, but bot modules and ``register_bot`` calls happened in the parent
only. :func:`bot_setup` packs what a worker needs to do the same (the bot
modules to import again, the other registrations by reference), and
:func:`restore_bot_setup` replays it there.

Everything that can go wrong with an outside bot — an entry point that does
not import, a module that raises, a factory that fails — is told in one line
naming the entry point or module and where it failed (:func:`one_line`), never
a traceback.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import pickle
import re
import sys
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

from goat.bots.base import BotError

#: The entry point group a package declares its bots in.
GROUP = "goat.bots"

#: What a bot name may be: ``name:key=value,other`` is how specs are written, so
#: no ``:``, ``,``, ``=``, ``#`` or spaces; lower case, as every lookup is.
NAME = re.compile(r"[a-z0-9][a-z0-9_.-]*\Z")


@dataclass(frozen=True)
class Registration:
    """An outside bot in the tables: its factory, the games it was registered
    for (``None``: all), where it came from (for messages) and how (``"entry
    point"``, ``"module"``: made while a bot module was imported, ``"call"``:
    any other :func:`goat.bots.register_bot` call)."""

    factory: Callable[..., Any]
    games: tuple[str, ...] | None
    origin: str
    kind: str


#: Outside bots now in the tables, by name. A name not here is a built-in one.
REGISTERED: dict[str, Registration] = {}
_pending: dict[str, EntryPoint] = {}     # entry points seen, not imported yet
_broken: dict[str, str] = {}             # name -> the one line that says why it cannot be made
_modules: list[str] = []                 # bot modules imported (a file as its absolute path), in order
_loading: list[str] = []                 # the bot module being imported now (its register_bot calls)
_discovered = False


def one_line(exc: BaseException) -> str:
    """``Type: message (file, line N)`` for an exception raised by outside code:
    the deepest frame that is not the import machinery's or this module's, so
    the line points into the researcher's file, not into ours."""
    text = " ".join(f"{type(exc).__name__}: {exc}".split()) if str(exc) else type(exc).__name__
    if isinstance(exc, SyntaxError):
        return text  # its message already names the file and line
    ours = (__file__, str(Path(__file__).with_name("__init__.py")))
    machinery = str(Path(importlib.__file__).parent)   # importlib.metadata's EntryPoint.load: not where the typo is
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not f.filename.startswith(("<frozen", machinery)) and f.filename not in ours]
    return f"{text} ({frames[-1].filename}, line {frames[-1].lineno})" if frames else text


def raised_by_outside_bot(exc: BaseException) -> list[str]:
    """The outside bots whose module ``exc`` passed through on its way up (none:
    not raised in a researcher's bot): a driver reports those in one line, and
    keeps the traceback of an error of the project's own."""
    files = {name: getattr(sys.modules.get(getattr(reg.factory, "__module__", "") or ""), "__file__", None)
             for name, reg in REGISTERED.items()}
    passed = {frame.filename for frame in traceback.extract_tb(exc.__traceback__)}
    return sorted(name for name, file in files.items() if file and file in passed)


#: Setting types checked against a factory's annotations (also written as text,
#: under ``from __future__ import annotations``), and how a spec writes them.
SETTING_TYPES: dict[str, tuple[type, str]] = {
    "bool": (bool, "true or false"), "int": (int, "a whole number"),
    "float": (float, "a number"), "str": (str, "text"),
}


def check_setting_types(name: str, factory: Callable[..., Any], settings: dict[str, Any]) -> None:
    """Refuse in one line a setting whose value is not of its parameter's simple
    annotated type (``bool``, ``int``, ``float``, ``str``): a spec's value that is
    not JSON stays text, and ``random_ties=maybe`` would otherwise reach the bot as
    the truthy ``'maybe'`` and quietly mean true. Other annotations are not checked."""
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return
    for key, value in settings.items():
        parameter = parameters.get(key)
        annotation = getattr(parameter, "annotation", inspect.Parameter.empty)
        label = annotation.strip("'\"") if isinstance(annotation, str) else getattr(annotation, "__name__", None)
        if label not in SETTING_TYPES:
            continue
        wanted, how = SETTING_TYPES[label]
        ok = (isinstance(value, wanted) and not (wanted is int and isinstance(value, bool))) or (
            wanted is float and isinstance(value, int) and not isinstance(value, bool))
        if not ok:
            raise BotError(f"bot {name!r}: setting {key} must be {how}, not {value!r}")


def origin_of(factory: Callable[..., Any]) -> str:
    """How a :func:`goat.bots.register_bot` factory is named in messages: ``module.Name``."""
    module = getattr(factory, "__module__", None) or "?"
    return f"{module}.{getattr(factory, '__qualname__', None) or repr(factory)}"


def kind_of_call() -> tuple[str, str]:
    """``(kind, origin suffix)`` of a :func:`goat.bots.register_bot` call made now."""
    return ("module", f" of bot module {_loading[-1]}") if _loading else ("call", "")


def _describe(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    owner = f" of {dist.name} {dist.version}" if dist is not None else ""
    return f"entry point '{ep.name} = {ep.value}'{owner}"


def discover(builtin: Callable[[str], bool]) -> None:
    """Read the names of the ``goat.bots`` entry points, once a process (nothing
    is imported yet). A name that is a built-in bot's, or that two different
    entry points declare, is kept as broken: looking it up says so in one line
    instead of one of them winning silently."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    seen: dict[str, EntryPoint] = {}
    for ep in entry_points(group=GROUP):
        name = ep.name.strip().lower()
        if name in seen:
            if seen[name].value != ep.value:   # the same one twice on sys.path is no clash
                _pending.pop(name, None)
                _broken[name] = (f"two entry points are named {name!r}: {_describe(seen[name])} and {_describe(ep)}; "
                                 "uninstall or rename one")
            continue
        seen[name] = ep
        if not NAME.match(name):
            _broken[name] = f"{_describe(ep)}: a bot name is lower-case letters, digits, '_', '.' and '-'"
        elif builtin(name) and name not in REGISTERED:
            _broken[name] = f"{_describe(ep)} takes the name of a built-in bot: rename the entry point"
        elif name in REGISTERED:
            _broken[name] = f"{_describe(ep)} takes the name of {REGISTERED[name].origin}: rename one of them"
        else:
            _pending[name] = ep


def pending_entry_point(name: str) -> str | None:
    """The entry point that declares ``name`` but is not imported yet, described (else ``None``)."""
    ep = _pending.get(name)
    return _describe(ep) if ep is not None else None


def broken(name: str) -> str | None:
    """Why the outside bot ``name`` cannot be made (one line), or ``None``."""
    return _broken.get(name)


def load_entry_point(name: str, register: Callable[[str, Any, Registration], None]) -> None:
    """Import the entry point named ``name`` (if one is pending) and ``register``
    its factory. A failure is kept and raised as :class:`BotError` in one line."""
    ep = _pending.pop(name, None)
    if ep is None:
        return
    where = _describe(ep)
    try:
        factory = ep.load()
    except Exception as exc:  # the researcher's import: any error, one line
        _broken[name] = f"{where} cannot be loaded: {one_line(exc)}"
        raise BotError(_broken[name]) from None
    try:
        register(name, factory, Registration(factory, getattr(factory, "games", None), where, "entry point"))
    except BotError as exc:
        _broken[name] = f"{where}: {exc}"
        raise BotError(_broken[name]) from None


def load_entry_points(register: Callable[[str, Any, Registration], None]) -> None:
    """Import every pending entry point (to list the bots); those that fail are
    left out of lists and tell why when their name is asked for."""
    for name in list(_pending):
        try:
            load_entry_point(name, register)
        except BotError:
            pass


def _is_file(spec: str) -> bool:
    return spec.endswith(".py") or "/" in spec or os.sep in spec


def load_bot_module(spec: str) -> None:
    """Import the bot module ``spec`` — a module name (``mypkg.bots``, looked for
    on ``sys.path`` and then in the working directory) or a Python file
    (``bots/lowest.py``, imported as module ``lowest`` with its folder put on
    ``sys.path`` as when it is run as a script) — for the
    :func:`goat.bots.register_bot` calls it makes. Once a process; a
    tournament's worker processes import it again (:func:`bot_setup`).
    :class:`BotError` in one line if it cannot be imported."""
    key = str(Path(spec).resolve()) if _is_file(spec) else spec.strip()
    if key in _modules:
        return
    _loading.append(spec)
    try:
        if _is_file(spec):
            _import_file(spec, Path(key))
        else:
            if not re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*", key):
                raise BotError(f"bot module {spec!r}: give a module name (mypkg.bots) or a .py file")
            if os.getcwd() not in sys.path:
                sys.path.append(os.getcwd())  # as a script's folder is: mybots.py next to you
            importlib.import_module(key)
    except BotError as exc:
        raise BotError(str(exc) if str(exc).startswith("bot module") else f"bot module {spec!r}: {exc}") from None
    except Exception as exc:  # the researcher's module: any error, one line
        raise BotError(f"bot module {spec!r} cannot be imported: {one_line(exc)}") from None
    finally:
        _loading.pop()
    _modules.append(key)


def _import_file(spec: str, path: Path) -> None:
    if not path.is_file():
        # a relative path from another directory is the usual cause: say where it was looked for
        where = "" if Path(spec).is_absolute() else (
            f" (a relative path is read from the current directory, {Path.cwd()})")
        raise BotError(f"bot module {spec!r}: no such file{where}")
    name = path.stem
    if not name.isidentifier():
        raise BotError(f"bot module {spec!r}: its name must be a Python identifier (e.g. my_bots.py)")
    loaded = sys.modules.get(name)
    if loaded is not None:
        if Path(getattr(loaded, "__file__", "") or "").resolve() == path:
            return
        raise BotError(f"bot module {spec!r}: a module named {name!r} is already imported "
                       f"({getattr(loaded, '__file__', None) or 'built in'}); rename the file")
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))  # its helper modules next to it import, as in a script
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise BotError(f"bot module {spec!r}: not a Python file")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise


@dataclass(frozen=True)
class BotSetup:
    """What a worker process needs to know the outside bots this one knows
    (entry points it finds itself): the bot modules to import, then the other
    ``register_bot`` calls, pickled by reference (``module:Name``)."""

    modules: tuple[str, ...] = ()
    calls: bytes = b""


def bot_setup(names: Iterable[str]) -> BotSetup:
    """The :class:`BotSetup` of the bots ``names`` (the rest need nothing). A bot
    registered by a call whose factory a new process cannot import — defined in
    an interactive session or a notebook, a lambda — is refused in one line."""
    calls = []
    for name in sorted(set(names)):
        reg = REGISTERED.get(name)
        if reg is None or reg.kind != "call":
            continue
        factory = reg.factory
        main_file = getattr(sys.modules.get("__main__"), "__file__", None) or ""
        if getattr(factory, "__module__", None) == "__main__" and not os.path.isfile(main_file):  # a REPL, <stdin>
            raise BotError(_unportable(name, reg, "it is defined in an interactive session"))
        try:
            pickle.dumps(factory)
        except Exception as exc:
            raise BotError(_unportable(name, reg, f"it cannot be pickled ({one_line(exc)})")) from None
        calls.append((name, factory, reg.games))
    return BotSetup(tuple(_modules), pickle.dumps(calls) if calls else b"")


def _unportable(name: str, reg: Registration, why: str) -> str:
    return (f"bot {name!r} ({reg.origin}) cannot be sent to worker processes: {why}; define it in a module "
            "(goat.bots.load_bot_module, or an entry point) or play with one worker")


def restore_bot_setup(setup: BotSetup, register: Callable[..., None]) -> None:
    """Replay ``setup`` in a worker process: import the bot modules, then make the
    registrations (``register(name, factory, games=...)``; registering a name again
    replaces it, so a ``__main__`` that registered at import time is no clash)."""
    for module in setup.modules:
        load_bot_module(module)
    if setup.calls:
        try:
            calls = pickle.loads(setup.calls)
        except Exception as exc:
            raise BotError(f"a worker process cannot import a registered bot: {one_line(exc)}") from None
        for name, factory, games in calls:
            register(name, factory, games=games)
