"""Goat: play, study and train AI on the "goat" card games.

Layers, with arrows pointing one way:

* :mod:`goat.cards` and :mod:`goat.protocol` — the card notation and the game protocol.
* :mod:`goat.games` — rules engines (pure, deterministic, no I/O), one sub-package a game,
  with :mod:`goat.games.tricks` holding what all trick-taking games share.
* :mod:`goat.records` — the record format (``shared/spec/records.md``), replay and check.
* :mod:`goat.cli` — the ``goat`` command, on top: nothing else imports it (``tests/test_layering.py``).
"""

__version__ = "0.1.0"
