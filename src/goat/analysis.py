"""Per-move analysis of a recorded deal with a double-dummy solver.

For every decision actually taken in one deal of a record, the solver gives the
value of the action played and of the best action in that position, from the
acting seat's side's point of view; the difference is the cost of the mistake.
This module knows no game rules: it replays the record through the protocol
(``apply_chance`` / ``apply_action``) and asks a solver — anything with
``evaluate_moves(state) -> {action: value}`` raising :class:`GoatError` for a
position it does not take — about each position. Positions the solver refuses
(e.g. Kozel's partner exchange, which happens before the play the solver
starts from) are listed as skipped, each with the solver's one-line reason.

Kozel's values follow :mod:`goat.fast.solver`: the card points the acting side ends the
deal with under best play from there on, or a decisive value (shamok catch,
royal goat). The best move is picked by the solver's ``rank_of`` where it has one:
Kozel's ranks a shamok catch where the table's penalties put it among the point
totals (above every total under the defaults, below a won deal under
``shamok_penalty=1``: :mod:`goat.fast.solver_rank`); a move's ``cost`` stays the
difference of the two values, which says little when one is a catch (it may even be
negative there: a caught queen, -1000, best under ``shamok_penalty=1``): what a reader is
shown instead is the two values in words (``goat analyze`` and the page: "caught → 28")
and the deal's result each stands for, in the record's penalty points. In individual play
(``full-hand`` with 2 or 3 players) the side is the acting seat, and every other
seat plays against it. Spades' values are the tricks the acting side ends the
deal with (:mod:`goat.fast.spades_dd`: Bo Haglund's DDS), valued where tricks are
what the side plays for (not while a nil is alive or a Bemo undecided).

Kozel's score never reads the card points themselves, only which side of a few
lines they fall (more than 60 wins; in ``graded`` also 30/31): a mistake of 30
points that leaves a deal lost by the same penalty cost nothing on the score
sheet, and one of 2 points that turns 61 into 59 cost the deal. So where the
solver can score a value (``outcome_of(state, side, value)``, Kozel's
:func:`goat.fast.solver_outcome.outcome_of`), each move also carries the deal's
result its value and the best value stand for (:attr:`MoveAnalysis.result`,
:attr:`MoveAnalysis.best_result`), and the summary counts the mistakes that
changed it.

Each move also carries the position it was taken in (:attr:`MoveAnalysis.position`:
every hand, the trick so far, the trump suit, the stock's size), for the review's
deal diagram. It is read from each seat's own view
(:func:`goat.games.tricks.views.open_position`), so it shows what the record
shows (every hand, as dealt and played) and nothing of the state beyond it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from goat.fast.solver_core import CATCH as DECISIVE  # value constants only (no kernel is compiled)
from goat.fast.solver_core import ROYAL as ROYAL_VALUE
from goat.games import get_game
from goat.games.tricks.views import open_position
from goat.protocol import Action, GoatError
from goat.records import MalformedRecordError, new_state_for, replay


class MoveSolver(Protocol):
    """What the analysis asks of a solver. It may also have
    ``outcome_of(state, side, value)``: the deal's result a value stands for, an
    object with ``kind`` (a word: Kozel's ``"win"``, ``"loss"``, ...; Spades'
    ``"made"``, ``"set"``) and ``penalty`` (per side, or ``None`` where the value
    cannot tell or the game scores points: then ``score``, per team); and
    ``solve_outcome(state, side)``: that result with best play."""

    def evaluate_moves(self, state: Any) -> dict[Action, int]: ...

    def unsupported(self, state: Any) -> str | None: ...


@dataclass
class MoveAnalysis:
    """One decision: what was played, what was best, and what it cost."""

    index: int                 # action index in the deal (0-based, as in records)
    trick: int                 # 1-based trick number
    seat: int
    side: int                  # the acting seat's side (values are from its view)
    action: Action
    value: int                 # value of the action played
    best_value: int
    best: list[Action]         # every action reaching best_value
    values: dict[Action, int]
    #: The deal's result ``value`` and ``best_value`` stand for (the solver's
    #: ``outcome_of``: ``kind``, ``penalty``), ``None`` where it has none.
    result: Any = None
    best_result: Any = None
    #: The position before the move (:func:`~goat.games.tricks.views.open_position`):
    #: ``hands`` (per seat), ``trick`` (``{"seat", "cards"}`` so far), ``trump``
    #: and ``stock`` (its size) where there are such; ``None`` where not taken.
    position: dict[str, Any] | None = None

    @property
    def cost(self) -> int:
        """best_value - value (0 when the played action was among the best)."""
        return self.best_value - self.value

    @property
    def changed_result(self) -> bool:
        """The move changed the deal's result (its kind or its penalties), not
        only the card points (False where the solver cannot score values)."""
        if self.result is None or self.best_result is None:
            return False
        return (self.result.kind, self.result.penalty) != (self.best_result.kind, self.best_result.penalty)


@dataclass(frozen=True)
class SideSummary:
    """One side's mistakes in a deal: how many, the points they gave away, how
    many of them changed a decisive outcome (a shamok catch, a royal goat: not
    counted in points), and how many changed the deal's result (who wins, the
    penalties; ``None`` where the solver cannot score values)."""

    side: int
    mistakes: int
    points_lost: int
    decisive: int
    results_changed: int | None = None


def is_decisive(value: int) -> bool:
    """A solver value beyond any point total (see :mod:`goat.fast.solver`)."""
    return abs(value) >= DECISIVE


@dataclass
class DealAnalysis:
    deal: int                              # 1-based deal number
    rules: str
    game: str = "kozel"                    # values are Kozel card points, or Spades tricks
    moves: list[MoveAnalysis] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)   # actions the solver does not analyse
    #: Why each of ``skipped`` is not analysed (the solver's one line; the same order).
    skipped_why: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None   # the engine's deal result, if the deal finished
    deals: int = 1                         # deals in the record
    sides: int = 2                         # teams (partnerships), or players in individual play
    partnerships: bool = True              # sides are teams of several seats
    #: The deal's outcome for side 0 with best play from the first analysed
    #: position (``analyze_record(..., outcome=True)``: ``goat analyze``'s text),
    #: e.g. "team 0 wins the deal (penalty 0, 2)"; not part of :meth:`to_json`.
    outcome: str | None = None
    #: What a shamok catch is worth under the record's options, in words (the
    #: solver's ``catch_note``: its penalty and where it ranks among the point
    #: totals), ``None`` where the rules have no catch or the solver does not say;
    #: ``goat analyze``'s note, not part of :meth:`to_json`.
    catch: str | None = None

    def summary(self) -> list[SideSummary]:
        """Per side (0, 1 — or each player in individual play): its mistakes
        (moves that cost anything), the points they cost, and the mistakes that
        changed a decisive outcome instead."""
        out = []
        for side in range(self.sides):
            mine = [m for m in self.moves if m.side == side and m.cost]
            decisive = [m for m in mine if is_decisive(m.best_value) or is_decisive(m.value)]
            scored = all(m.result is not None for m in self.moves)
            changed = sum(m.changed_result for m in mine) if scored else None
            out.append(SideSummary(side, len(mine), sum(m.cost for m in mine if m not in decisive),
                                   len(decisive), changed))
        return out

    def skipped_reasons(self) -> list[str]:
        """The distinct reasons actions were not analysed, in the order they
        first came (a reader's "why": the partner exchange, a nil alive, ...)."""
        return list(dict.fromkeys(self.skipped_why))

    def skipped_by_reason(self) -> dict[str, list[str]]:
        """The actions not analysed, under each reason (:meth:`skipped_reasons`' order)."""
        out: dict[str, list[str]] = {}
        for text, why in zip(self.skipped, self.skipped_why, strict=True):
            out.setdefault(why, []).append(text)
        return out

    def to_json(self) -> dict[str, Any]:
        """The analysis as plain JSON (the server's ``/analysis`` answer,
        ``goat analyze --json``). Values are the solver's integers; ``catch`` and
        ``royal`` give its decisive values (``±catch`` a shamok catch, ``±royal`` a
        royal goat), so a reader can tell them from point totals. Where the
        solver scores values, each move also has ``result`` and ``best_result``
        (``{"kind", "penalty"}``) and each side's summary ``results_changed``.
        Each move's ``position`` is the position it was taken in (every hand,
        the trick so far, the trump suit, the stock's size): the review's diagram.
        ``skipped`` lists the actions not analysed, ``skipped_reasons`` why (the
        distinct reasons, one line each)."""
        return {
            "game": self.game, "deal": self.deal, "deals": self.deals, "rules": self.rules,
            "catch": DECISIVE, "royal": ROYAL_VALUE,
            "moves": [{"index": m.index, "trick": m.trick, "seat": m.seat, "side": m.side,
                       "action": str(m.action), "value": m.value, "best_value": m.best_value,
                       "best": [str(a) for a in m.best], "cost": m.cost}
                      | ({} if m.result is None else {"result": _result_json(m.result),
                                                      "best_result": _result_json(m.best_result)})
                      | ({} if m.position is None else {"position": m.position})
                      for m in self.moves],
            "skipped": list(self.skipped),
            "skipped_reasons": self.skipped_reasons(),
            "summary": [{"side": s.side, "mistakes": s.mistakes, "points_lost": s.points_lost,
                         "decisive": s.decisive}
                        | ({} if s.results_changed is None else {"results_changed": s.results_changed})
                        for s in self.summary()],
            "result": self.result,
        }


def _result_json(result: Any) -> dict[str, Any]:
    """A result as JSON: its ``kind`` and Kozel's ``penalty`` per side, or
    Spades' ``score`` per team (the points its scoring gives)."""
    score = getattr(result, "score", None)
    if score is not None:
        return {"kind": result.kind, "score": list(score)}
    penalty = result.penalty
    return {"kind": result.kind, "penalty": None if penalty is None else list(penalty)}


#: The games with a double-dummy solver (:func:`analyze_record` takes their records):
#: Kozel's own (card points), and Bo Haglund's DDS for Spades (tricks).
SOLVED_GAMES = ("kozel", "spades")


def check_deal(record: dict[str, Any], deal: Any) -> None:
    """Refuse a deal ``record`` (replayed already) does not have: told before the
    solver loads (on a fresh install loading it compiles it: minutes). A game
    without a solver may keep its record otherwise (a duel's has no "deals"), and
    is told by :func:`check_game`. The server asks both before a record sent to it
    waits for its turn to be solved."""
    deals = record.get("deals")
    if isinstance(deals, list) and (not isinstance(deal, int) or not 1 <= deal <= len(deals)):
        raise GoatError(f"the record has {len(deals)} deal{'s' if len(deals) != 1 else ''}; "
                        f"there is no deal {deal!r}")


def check_game(game_name: str) -> None:
    """Refuse a game no solver takes (whatever its ruleset: a ruleset of a solved
    game is judged by the solver itself, in its position)."""
    if game_name not in SOLVED_GAMES:
        raise GoatError(f"no solver for the game {game_name!r} (analysis exists for {' and '.join(SOLVED_GAMES)})")


def _default_solver(game_name: str) -> MoveSolver:
    check_game(game_name)
    if game_name == "spades":
        from goat.fast import spades_dd
        return spades_dd
    from goat.fast import solver
    return solver


def analyze_record(record: Any, deal: int = 1, solver: MoveSolver | None = None,
                   outcome: bool = False) -> DealAnalysis:
    """Analyse deal ``deal`` (1-based) of ``record``; with ``outcome`` also the
    deal's outcome with best play from its first analysed position
    (:attr:`DealAnalysis.outcome`, by the solver's ``solve_outcome`` if it has one).

    Raises a :class:`~goat.records.RecordProblem` for a record that is not
    well-formed or not legal, and :class:`GoatError` for a deal number out of
    range or a ruleset the solver cannot take.
    """
    replay(record)  # validates the whole record first
    check_deal(record, deal)
    solver = solver or _default_solver(record["game"])
    deals = record["deals"]
    game = get_game(record["game"])
    state = new_state_for(record)
    for number, deal_obj in enumerate(deals[:deal - 1], start=1):
        state.apply_chance(game.chance_from_json(state, deal_obj))
        for text in deal_obj["actions"]:
            state.apply_action(Action.parse(text))
    deal_obj = deals[deal - 1]
    # Counted before the deal is dealt: a deal can end as it is dealt (a royal goat).
    results_before = len(state.deal_results)
    try:
        state.apply_chance(game.chance_from_json(state, deal_obj))
    except GoatError as exc:
        raise MalformedRecordError(f"deal {deal}: {exc}") from None
    reason = solver.unsupported(state)
    if reason:
        raise GoatError(reason)
    team_of = getattr(state, "team_of", lambda s: s)
    sides = 1 + max(team_of(s) for s in range(state.num_players))
    out = DealAnalysis(deal, str(record["rules"]), str(record["game"]), deals=len(deals), sides=sides,
                       partnerships=sides < state.num_players)
    catch_note = getattr(solver, "catch_note", None)
    if catch_note is not None:
        out.catch = catch_note(state)
    result_of = getattr(solver, "outcome_of", None)
    for index, text in enumerate(deal_obj["actions"]):
        action = Action.parse(text)
        seat = state.current_player()
        if action.seat == seat:
            try:
                values = solver.evaluate_moves(state)
            except GoatError as exc:
                out.skipped.append(text)
                out.skipped_why.append(str(exc))
                values = {}
            if values and outcome and out.outcome is None and hasattr(solver, "solve_outcome"):
                out.outcome = str(solver.solve_outcome(state, 0))
            if values:
                side = team_of(seat)
                key = _ranking(solver, state)
                best_value = max(values.values(), key=key)
                move = MoveAnalysis(
                    index=index, trick=state.tricks_played + 1, seat=seat, side=side, action=action,
                    value=values[action], best_value=best_value,
                    best=[a for a, v in values.items() if key(v) == key(best_value)], values=values,
                    position=open_position(state))
                if result_of is not None:
                    move.result = result_of(state, side, move.value)
                    move.best_result = result_of(state, side, best_value)
                out.moves.append(move)
        state.apply_action(action)
    if len(state.deal_results) > results_before:
        out.result = state.deal_results[results_before]
    return out


def _ranking(solver: MoveSolver, state: Any) -> Any:
    """How ``solver``'s values of ``state`` rank: its ``rank_of(state, value)``
    where it has one (Kozel's: a shamok catch ranks by the table's penalties,
    below a won deal under ``shamok_penalty=1``), else as numbers."""
    rank_of = getattr(solver, "rank_of", None)
    if rank_of is None:
        return lambda value: value
    return lambda value: rank_of(state, value)
