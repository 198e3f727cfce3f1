"""Bot specs: ``name`` or ``name:setting=value[:setting=value...]``.

A spec names a bot of the registry (:func:`goat.bots.make_bot`) and its
strength/budget settings, e.g. ``pimc:worlds=100``. Specs are plain strings so
that they can be shipped to worker processes and resolved there, at run time:
a bot added to the registry later needs no change here.

>>> parse_bot_spec("pimc:worlds=100:greedy=true")
BotSpec(name='pimc', settings=(('worlds', 100), ('greedy', True)), text='pimc:worlds=100:greedy=true')
>>> [s.label for s in parse_bot_list("random,random")]
['random', 'random#2']
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from goat.protocol import GoatError


class BotSpecError(GoatError):
    """A bot spec that cannot be read or built (one line for the user)."""


@dataclass(frozen=True)
class BotSpec:
    """A parsed spec. ``label`` tells apart two entries with the same spec
    (``random,random`` → ``random`` and ``random#2``)."""

    name: str
    settings: tuple[tuple[str, Any], ...] = ()
    text: str = ""
    label: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", self.name + "".join(f":{k}={_show(v)}" for k, v in self.settings))
        if not self.label:
            object.__setattr__(self, "label", self.text)

    def make(self, seed: int | str | None, game: str = "kozel") -> Any:
        """A new bot for ``game`` from the registry. Settings are passed as
        keyword arguments; a bot that does not take one, or does not play the
        game, is reported in one line."""
        from goat.bots import make_bot

        settings = dict(self.settings)
        try:
            return make_bot(self.name, seed, game, **settings)
        except GoatError as exc:
            message = str(exc)
            if message.startswith(f"bot {self.name!r} does not play"):  # names the bot already
                raise BotSpecError(message) from None
            raise BotSpecError(f"bot {self.text!r}: {message}") from None
        except (TypeError, ValueError) as exc:
            raise BotSpecError(f"bot {self.text!r}: bad setting ({exc})") from None


def parse_bot_spec(text: str) -> BotSpec:
    """Read one spec; values are JSON when they parse (``100``, ``true``), else text."""
    name, *pairs = text.strip().split(":")
    name = name.strip().lower()
    if not name:
        raise BotSpecError(f"bot {text!r}: no bot name")
    settings: list[tuple[str, Any]] = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise BotSpecError(f"bot {text!r}: write settings as name:key=value, e.g. pimc:worlds=100")
        try:
            parsed: Any = json.loads(value)
        except json.JSONDecodeError:
            parsed = value.strip()
        settings.append((key, parsed))
    return BotSpec(name, tuple(settings), text.strip())


def parse_bot_list(text: str) -> list[BotSpec]:
    """``"A,B"`` → specs with unique labels (a repeated spec gets ``#2``, ``#3``...)."""
    items = [t for t in (part.strip() for part in text.split(","))]
    if any(not t for t in items) or not items:
        raise BotSpecError(f"--bots {text!r}: write a comma-separated list such as random,heuristic")
    specs: list[BotSpec] = []
    seen: dict[str, int] = {}
    for item in items:
        spec = parse_bot_spec(item)
        seen[spec.text] = seen.get(spec.text, 0) + 1
        label = spec.text if seen[spec.text] == 1 else f"{spec.text}#{seen[spec.text]}"
        specs.append(BotSpec(spec.name, spec.settings, spec.text, label))
    return specs


def _show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)
