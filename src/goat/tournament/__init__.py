"""Tournaments between bots: duplicate schedules, parallel runners, statistics, plots.

The pieces are separate so each can be tested alone:

* :mod:`~goat.tournament.specs` — bot specs such as ``pimc:worlds=100``;
* :mod:`~goat.tournament.schedule` — which games are played, with which cards
  and seats (the duplicate format);
* :mod:`~goat.tournament.runner` — playing the games (in-process, a local
  process pool, or Ray), reproducibly whatever the worker count;
* :mod:`~goat.tournament.games` — the per-game part: what a deal scores
  (Kozel's penalty points, Spades' points, a duel's LP), the sides, the chance
  streams the duplicate format replays;
* :mod:`~goat.tournament.stats` — win rates and per-deal score differences with
  95% confidence intervals, and Elo;
* :mod:`~goat.tournament.plot` — a matplotlib figure of the results.
"""

from goat.tournament.games import SCORING, GameScoring, scoring_for
from goat.tournament.schedule import GameSpec, TableConfig, schedule
from goat.tournament.specs import BotSpec, parse_bot_list, parse_bot_spec

__all__ = ["SCORING", "BotSpec", "GameScoring", "GameSpec", "TableConfig", "parse_bot_list", "parse_bot_spec",
           "schedule", "scoring_for"]
