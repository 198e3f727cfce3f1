"""Text for a stream that cannot hold every character.

Standard output is not always UTF-8: on Windows, output redirected to a file or
a pipe is the ANSI code page (cp1252 has no ♣), an old terminal may be
ISO-8859-1, a CI job may set ``PYTHONIOENCODING=ascii``. Python's streams then
fail at the first character they cannot encode (``UnicodeEncodeError``, a
traceback in the middle of a game). So:

* :func:`plain_fallback` (at the start of the ``goat`` command and of its pool workers) lets
  standard output and error write what they cannot encode as :func:`plain`
  text (``·`` as ``.``, ``→`` as ``->``, ``é`` as ``e``), and standard input
  read what it cannot decode as ``?`` (a bad move, told as one);
* the CLI shows cards with suit symbols only where :func:`can_encode` says the
  symbols go through, and in the records' notation (``QC``) elsewhere;
* JSON for a stream that does not write every character (:func:`writes_unicode`)
  escapes what is not ASCII, so it stays valid JSON that reads back the same
  (and UTF-8, as every record file is).
"""

from __future__ import annotations

import codecs
import sys
import unicodedata
from functools import lru_cache
from typing import Any

#: The name of the error handler :func:`plain` is registered under.
PLAIN_ERRORS = "goat-plain"

#: What the characters our own texts use look like in ASCII.
ASCII_LOOKALIKES = {
    "·": ".", "—": "-", "–": "-", "−": "-", "→": "->", "←": "<-", "…": "...", "×": "x", "÷": "/",
    "±": "+/-", "≥": ">=", "≤": "<=", "∞": "inf", "½": "1/2", "²": "^2", "√": "sqrt",
    "♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S",
    "‘": "'", "’": "'", "“": '"', "”": '"', "«": '"', "»": '"', "•": "*", "━": "-", "─": "-", "🐐": "",
}


def plain(char: str) -> str:
    """ASCII text for a character a stream cannot write.

    Our own symbols become their look-alikes, a letter with an accent its base
    letter; any other letter (Cyrillic, Arabic: a player's name) its ``\\u``
    escape, so two names stay two; any other symbol ``?``.

    >>> [plain(c) for c in "→éА✓"]
    ['->', 'e', '\\\\u0410', '?']
    """
    if char in ASCII_LOOKALIKES:
        return ASCII_LOOKALIKES[char]
    base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    if base:
        return base
    if unicodedata.category(char)[0] in "LMN":
        return char.encode("ascii", "backslashreplace").decode("ascii")
    return "?"


def _plain_errors(exc: UnicodeError) -> tuple[str, int]:
    """The codec error handler: :func:`plain` text for what cannot be encoded,
    ``?`` for what cannot be decoded."""
    if isinstance(exc, UnicodeEncodeError):
        return "".join(plain(c) for c in exc.object[exc.start:exc.end]), exc.end
    if isinstance(exc, UnicodeDecodeError):
        return "?", exc.end
    raise exc


codecs.register_error(PLAIN_ERRORS, _plain_errors)


@lru_cache(maxsize=64)
def _encodes(encoding: str, text: str) -> bool:
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def can_encode(text: str, stream: Any = None) -> bool:
    """Whether ``stream`` (standard output by default) can write ``text`` as it is.
    A stream that names no encoding (``io.StringIO``, a test's capture) holds any."""
    stream = sys.stdout if stream is None else stream
    encoding = getattr(stream, "encoding", None)
    return not encoding or _encodes(encoding, text)


def writes_unicode(stream: Any = None) -> bool:
    """Whether ``stream`` (standard output by default) writes every character:
    its encoding is a UTF one (or it names none)."""
    stream = sys.stdout if stream is None else stream
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


def plain_fallback() -> None:
    """Standard output and error, where they do not write every character, write
    :func:`plain` text for what they cannot encode instead of failing; standard
    input decodes what it cannot as ``?``. A UTF stream, a closed one or one
    that is not a text file's (no ``reconfigure``) is left as it is."""
    for stream in (sys.stdout, sys.stderr, sys.stdin):
        if stream is not None and not writes_unicode(stream) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=PLAIN_ERRORS)
