"""A player's name: the one rule the table server, ``goat play --name`` and the
standings share, so one person typing one name in both places is one person.

There are no accounts: a name is free text, kept tidied (:func:`tidy_name`), at
most :data:`NAME_LIMIT` characters, and grouped with case, spaces and Unicode
form folded (:func:`fold_name`). A record may carry a longer name (one
``goat play`` wrote before the limit was shared, or a tournament's bot spec):
the standings fold it as the server would have stored it (:func:`stored_name`).
"""

from __future__ import annotations

import unicodedata

#: The longest name a player has: the table server's, the page's name fields'
#: (``maxlength="24"``) and ``goat play --name``'s.
NAME_LIMIT = 24

#: Characters that are letters or symbols to Unicode but show as blank space.
BLANKS = frozenset("\u2800\u3164\u115f\u1160\uffa0")


class NameRefused(ValueError):
    """A name that cannot be a player's; the message is one line, the same
    wherever it is said. ``blank``: the name shows nothing (the page says that
    in its own language)."""

    def __init__(self, message: str, blank: bool = False) -> None:
        super().__init__(message)
        self.blank = blank


def tidy_name(name: str) -> str:
    """A typed name as kept and shown: control characters dropped, spaces trimmed and
    collapsed, case kept — what the table server and ``goat play --name`` store.

    >>> tidy_name("  Anna \x1b[31m K\t")
    'Anna [31m K'
    """
    return " ".join("".join(ch for ch in name if unicodedata.category(ch)[0] != "C").split())


def shows_something(text: str) -> bool:
    """Whether ``text`` has a character one can see: not a space, a mark alone
    (a combining accent, a variation selector) or a blank (:data:`BLANKS`)."""
    return any(not ch.isspace() and unicodedata.category(ch)[0] != "M" and ch not in BLANKS for ch in text)


def check_name(name: str) -> str:
    """``name`` as a player's name is kept (:func:`tidy_name`); :class:`NameRefused`
    for one that shows nothing or is longer than :data:`NAME_LIMIT` characters
    (the page's field stops there; a longer one typed elsewhere is said, not cut).

    >>> check_name("  Anna   K ")
    'Anna K'
    >>> check_name("x" * 30)
    Traceback (most recent call last):
    ...
    goat.names.NameRefused: a name has at most 24 characters, not 30
    """
    text = tidy_name(name)
    if not shows_something(text):
        raise NameRefused("a name must show something, not only spaces or accents", blank=True)
    if len(text) > NAME_LIMIT:
        raise NameRefused(f"a name has at most {NAME_LIMIT} characters, not {len(text)}")
    return text


def stored_name(name: str) -> str:
    """A name from a record as the table server would have stored it: tidied and
    cut at :data:`NAME_LIMIT` characters (a record may hold up to 200, as
    ``goat play --name`` wrote them before the limit was shared). A space the cut
    leaves at the end is dropped, as the server's store and tidying would.

    >>> stored_name("  Konstantin   Alexandrovich Petrov"), stored_name("x" * 23 + " yz")
    ('Konstantin Alexandrovich', 'xxxxxxxxxxxxxxxxxxxxxxx')
    """
    return tidy_name(name)[:NAME_LIMIT].rstrip()


def fold_name(name: str) -> str:
    """The grouping key of a typed name: stored as the server stores it
    (:func:`stored_name`), spaces collapsed, case folded, and one Unicode form
    (NFC), so a "ё" typed as one character and one typed as "е" with a combining
    diaeresis (as some keyboards and phones send it) are the same name. "Алена"
    and "Алёна" stay two names: they are two spellings, and only the person
    knows which is theirs.

    >>> fold_name(" Але\u0308на ") == fold_name("АЛЁНА"), fold_name("Алена") == fold_name("Алёна")
    (True, False)
    >>> fold_name("Konstantin Alexandrovich Petrov") == fold_name("konstantin alexandrovich")
    True
    """
    folded = unicodedata.normalize("NFC", stored_name(name)).casefold()
    return unicodedata.normalize("NFC", folded)
