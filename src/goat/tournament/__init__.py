"""Tournaments between bots: duplicate schedules, parallel runners, statistics, plots.

The pieces are separate so each can be tested alone:

* :mod:`~goat.tournament.specs` — bot specs such as ``pimc:worlds=100``;
* :mod:`~goat.tournament.scheduling` — which games are played, with which
  cards and seats (the duplicate format); its function :func:`schedule` is
  exported here;
* :mod:`~goat.tournament.runner` — playing the games (in-process, a local
  process pool, or Ray), reproducibly whatever the worker count;
* :mod:`~goat.tournament.games` — the per-game part: what a deal scores
  (Kozel's penalty points, Spades' points, a duel's LP), the sides, the chance
  streams the duplicate format replays;
* :mod:`~goat.tournament.stats` — win rates and per-deal score differences with
  95% confidence intervals, and Elo;
* :mod:`~goat.tournament.plot` — a matplotlib figure of the results;
* :mod:`~goat.tournament.api` — all of it in one call, :func:`run_tournament`
  (what ``goat tournament`` runs).
"""

import sys

from goat.tournament import scheduling
from goat.tournament.games import SCORING, GameScoring, scoring_for
from goat.tournament.scheduling import GameSpec, TableConfig, schedule
from goat.tournament.specs import BotSpec, parse_bot_list, parse_bot_spec
from goat.tournament.api import Results, TournamentInterrupted, TournamentSetupError, run_tournament  # after the pieces it uses

# The module was ``schedule``, the name of its function exported here: ``import
# goat.tournament.schedule as s`` gave the function, and the module could not be
# patched by its dotted path. It is ``scheduling`` now; the old path still imports
# it (``from goat.tournament.schedule import TableConfig``, pickles of the old
# name). ``goat.tournament.schedule`` as an attribute stays the function.
sys.modules.setdefault("goat.tournament.schedule", scheduling)

__all__ = ["SCORING", "BotSpec", "GameScoring", "GameSpec", "Results", "TableConfig", "TournamentInterrupted",
           "TournamentSetupError", "parse_bot_list", "parse_bot_spec", "run_tournament", "schedule", "scoring_for"]
