"""Hints at a table that allows them: what a strong bot would play in my seat.

Goat is for studying the goat games too, and a learner playing against bots
wants to ask "what would a strong player do here?" on their turn. Among friends
that is fair only when everyone agreed, so it is a table setting (``hints``,
chosen when the table is made and shown to all: :mod:`goat.server.tables`).

A hint is computed **from the seat's view only** (``state.view(seat)``, taken
by :meth:`goat.server.tables.Table.hint_position`): the bot never gets the
state, so a hint cannot tell a player anything their own cards and the table
do not. Which bot (:func:`hint_bot`): the strongest measured one (README
"Strength") that answers within :data:`HINT_SECONDS` seconds — Kozel ``classic``,
``full-hand`` (2, 3 or 4 players) and ``full-hand-24``, the double-dummy
solver's rulesets, ``pimc`` with a modest budget (:data:`PIMC_WORLDS` worlds);
Kozel ``street`` (out of the solver's reach) ``ismcts``, which beats
``heuristic`` there, stopped at the same time (a decision is about a second of
search otherwise; the iterations it manages in the time are a sample of the
ones it would run); Spades ``pimc`` on DDS, which beats ``ismcts`` (+18.0 ± 7.6
points a deal over 100 duplicate sets, README "Strength") and at its own budget
mostly answers well within the time (59 ms a decision at the median, p99 1.8 s, on
60 Spades positions of ``goat bench bots``: so the cap changes what it plays only at
its slowest decisions, the first tricks and some live nils), stopped at
the same time (so measured too: ``pimc`` and ``ismcts`` both at 0.8 s a decision, 60
duplicate sets of single deals, ``pimc`` +16.7 ± 10.5 points a deal) — ``ismcts`` where DDS is not installed or the ruleset is one
``pimc`` plays like ``heuristic`` (``joker-trumps``); Yu-Gi-Oh! ``mc``, which beats ``greedy`` (95.8% (76.3–99.4) of the
matches in the Goat Control mirror and of the duels with Goat Control against Chaos Warrior,
README "Strength"), stopped at the same time — between worlds, so a hint can
end up to one world late: a world (a draw and a rollout per candidate) took about 0.06 s
at the median and up to about 0.2 s over 60 positions of three duels (the decision time
of six worlds, ``docs/yugioh.md`` *Bots*). With 2
players one world at the first tricks (the stock still full) can take seconds to
solve; ``pimc`` solves each world under a node budget for the time left, so the
hint still ends at about :data:`HINT_SECONDS` — from fewer worlds there, or, when
not one finishes in time, from ``pimc``'s fallback, ``heuristic``. Measured on 12
two-player deals each (a loaded 2-core machine): at the first lead a hint took 0.80
s at the median, 0.84 s at most, solving 0 worlds at the median (at most 2: mostly
the fallback's move); four plays in 0.79 s, 1 world (at most 5); eight plays in
0.76 s, 21 of the 24 worlds; twelve in 0.10 s, all 24. (Those runs predate
``goat.fast.solver.stop_after``, which now ends a world at the deadline, and the 2-player
solver's round 3, about 4× faster: ``pimc`` with 100 worlds and 0.8 s at the first lead of 20
two-player deals then took at most 0.80 s and solved 1.5 worlds at the median.)
Is ``ismcts`` the better hint there, with so few worlds? Measured: no. The two hint bots
head to head over whole two-player deals, each at 0.8 s a decision (``goat tournament
--rules full-hand --players 2 --bots ismcts:time_limit=0.8,pimc:worlds=24:time_limit=0.8
--matches 20 --deals-only --seed 12``, 41 deals, twelfth session): ``pimc`` +0.625 ± 0.602
penalty points a deal, 65% ± 15.4 of the deals won.

Like a deal review, thinking takes CPU time, so one hint is computed at a time
in a worker thread (the event loop and the tables go on meanwhile;
:mod:`goat.server.work`). Each bot is
seeded by the table's seed and the version, and each answer is kept by (table,
position, seat): asking twice gives the same hint, and costs nothing the second
time. (The time cap can cut ``pimc``'s search short on a busy machine, which
is why the answer is kept rather than computed again.) A position is the table
since its last event that decided something or showed the seat its own cards
(:meth:`~goat.server.tables.Table.standing_since`): another seat turning its
cards over (a Spades look, out of turn) is a new version but not a new position,
so a hint asked before it still holds after it. A hint says which version it was
computed at (``version``) and since which version its position stands
(``since``); if the position changed while it was computed, it answers
``current: false`` and the page does not show it as the move to make now.
"""

from __future__ import annotations

from typing import Any

from goat.bots import Bot, make_bot
from goat.protocol import Action
from goat.server.solverload import SolverLoad, uses_solver
from goat.server.tables import LobbyError
from goat.server.work import KeptWork

#: Hints kept (one per table, position and seat; a few hundred bytes each).
KEEP = 512
#: Worlds ``pimc`` samples for a hint: enough to play well, a fraction of a second.
PIMC_WORLDS = 24
#: The most seconds a hint's search takes (``pimc``'s ``time_limit``, which it keeps
#: by solving each world under a node budget: :mod:`goat.bots.pimc`).
HINT_SECONDS = 0.8


def spades_pimc_hints(rules: str) -> bool:
    """Whether Spades hints come from ``pimc`` (Bo Haglund's DDS): where it is installed
    and the ruleset is one ``pimc`` plays itself (not ``joker-trumps``, where it plays like
    ``heuristic``: :data:`goat.server.botlevels.PLAYS_LIKE`); else from ``ismcts``."""
    from goat.bots import bot_factory
    from goat.server.botlevels import PLAYS_LIKE

    factory = bot_factory("pimc", "spades")
    return factory is not None and factory.available() and ("spades", rules, "pimc") not in PLAYS_LIKE


def hint_bot(game: str, rules: str, players: int, seed: str) -> Bot:
    """The bot that gives hints at a table of ``game`` (see the module docstring),
    seeded with ``seed``."""
    if uses_solver(game, rules, players):
        return make_bot("pimc", seed, game=game, worlds=PIMC_WORLDS, time_limit=HINT_SECONDS)
    if game == "yugioh":
        return make_bot("mc", seed, game=game, time_limit=HINT_SECONDS)
    if game == "spades" and spades_pimc_hints(rules):
        return make_bot("pimc", seed, game=game, time_limit=HINT_SECONDS)
    if game == "spades" or (game == "kozel" and rules == "street"):
        return make_bot("ismcts", seed, game=game, time_limit=HINT_SECONDS)
    return make_bot("heuristic", seed, game=game)


def suggest(game: str, rules: str, players: int, seed: str, view: dict[str, Any]) -> tuple[Any, str]:
    """The action the hint bot chooses from ``view`` (one seat's view, never the
    state) and the bot's name; runs in a worker thread."""
    bot = hint_bot(game, rules, players, seed)
    prepare = getattr(bot, "prepare", None)
    if prepare is not None:   # pimc loads its solver once per process
        prepare(view)
    return bot.choose(view), bot.name


def hint_json(action: Any) -> dict[str, Any]:
    """The suggested action as the page sends it to play it (``action``: the
    game's action notation, ``"0 play 8S"``, ``"1 bid 4"``, ``"0 summon
    Sangan"``), with its verb and, for the card games, its cards (and a
    Spades bid, ``"4"``, ``"nil"``)."""
    text = str(action)
    answer: dict[str, Any] = {"action": text, "verb": getattr(action, "verb", text.split(" ")[1])}
    if isinstance(action, Action):
        answer["cards"] = [str(card) for card in action.cards]
        if action.bid is not None:
            answer["bid"] = action.bid
    return answer


class Hints:
    """The hints computed so far, by (table, position, seat) (:class:`KeptWork`)."""

    def __init__(self, keep: int = KEEP, solver: SolverLoad | None = None) -> None:
        self.work = KeptWork(keep)
        #: The solver's kernels loading (:mod:`goat.server.solverload`): a hint
        #: from ``pimc`` waits for them rather than compiling them itself.
        self.solver = solver or SolverLoad()

    async def hint(self, table: Any, token: str | None) -> dict[str, Any]:
        """The hint for the seat holding ``token`` at ``table`` (a
        :class:`~goat.server.tables.Table`): ``{"table", "version", "since",
        "seat", "action", "verb", "cards", "bot", "current"}``; only ``{"table",
        "version", "since", "seat", "action": None, "current": False}`` when the
        position changed before the hint's turn to be computed came (hints are computed
        one at a time, for every table: one nobody can use would delay the others). Raises the table's
        :class:`~goat.server.tables.LobbyError` (403, 409) when it may not be given."""
        row = table.row
        seat, version, view = table.hint_position(token)   # refused first: a refused ask starts nothing
        if uses_solver(row.game, row.rules, row.players):
            await self.solver.ready()   # at once unless the kernels are still compiling (a fresh install)
            seat, version, view = table.hint_position(token)   # the table may have moved on meanwhile
        since = table.standing_since(seat)   # read with the view: no await in between

        def standing() -> bool:
            return table.standing_since(seat) == since

        def compute() -> dict[str, Any]:
            action, bot = suggest(row.game, row.rules, row.players, f"{row.seed}/hint/{version}", view)
            return {"table": table.id, "version": version, "since": since, "seat": seat, **hint_json(action),
                    "bot": bot}

        answer = await self.work.get(   # a bot that cannot choose here: say so, in one line
            (table.id, since, seat), compute,
            lambda exc: LobbyError(f"no hint for this position: {exc}", status=409),
            wanted=standing)
        if answer is None:   # the position changed while the hint waited its turn: not computed
            return {"table": table.id, "version": version, "since": since, "seat": seat, "action": None,
                    "current": False}
        return {**answer, "current": standing()}
