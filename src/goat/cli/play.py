"""``goat play kozel`` / ``goat play spades``: a human against bots in the terminal.

The human's screen is drawn only from ``state.view(human_seat)`` (see
:mod:`goat.cli.render` and :mod:`goat.cli.render_spades`), bots see only their
own seat's view (see
:mod:`goat.bots.base`), and every move, typed or chosen, passes the engine's
``check_action`` before it is applied, so a refusal leaves the game untouched
and shows the engine's own reason.

One seed fixes the whole game: the first dealer, every shuffle and every bot
choice (the human's answers are the only other input).
"""

from __future__ import annotations

import json
import math
import random
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from goat.bots import (THINK_SECONDS, Bot, asked_before_turn, bot_factory, load_bot_modules, out_of_turn_claim, thinks,
                       view_bots)
from goat.bots.base import BotMoveError, bot_choice, prepare_bots
from goat.bots.outside import one_line, raised_by_outside_bot
from goat.cards import CardSyntaxError, parse_cards
from goat.cli import render, render_spades
from goat.cli.hangup import STOPPED_BY, read_at_prompt, stop_as_interrupt
from goat.cli.options import BOT_MODULE_HELP
from goat.cli.output import echo
from goat.files import check_writable
from goat.games import get_game
from goat.games.options import parse_option_pairs
from goat.games.spades.bids import BLIND_KINDS, LOOK
from goat.protocol import (
    VERBS,
    Action,
    ActionSyntaxError,
    GameState,
    GoatError,
    IllegalActionError,
    check_seed,
)
from goat.tournament.specs import BotSpec, parse_bot_spec

QUIT_WORDS = ("quit", "exit", "q", ":q")
HELP_WORDS = ("help", "h", "?")
SHEET_WORDS = ("sheet", "score")


class Quit(Exception):
    """The human asked to stop (``quit`` or end of input)."""


class MoveSyntaxError(GoatError):
    """Typed text that is not a move (the message says what was expected)."""


# ============================================================== typed moves
def default_verb(legal: Sequence[str]) -> str:
    """The verb meant by bare input: ``bid`` when bidding, ``give`` in an
    exchange, otherwise ``play``."""
    verbs = {a.split(" ", 2)[1] for a in legal} - {"molodka"}
    if verbs == {"bid"}:
        return "bid"
    return "give" if verbs == {"give"} else "play"


def parse_move(text: str, view: Mapping[str, Any]) -> Action:
    """Read what the human typed: a move number, cards (``9H``, ``10h``, ``Q♣``,
    ``KH AH``, ``KH+AH``), a verb and cards (``pass 6C 7D``, ``molodka ...``,
    ``give QD``), a full action (``0 play 9H``), or while bidding a bid
    (``4``, ``nil``, ``blind nil``, ``bid 4``: a bare number is the bid itself).

    Raises :class:`MoveSyntaxError` (a one-line message) when it cannot.
    """
    seat, legal = view["seat"], view["legal_actions"]
    text = text.strip()
    if default_verb(legal) == "bid":
        words = text.lower().split()
        if words and words[0] == "bid":
            words = words[1:]
        if not words:
            raise MoveSyntaxError("name the bid, e.g. 4, nil or blind nil")
        return Action(seat, "bid", (), "-".join(words))
    if text.isdecimal():  # not isdigit: "²" is a digit int() does not read
        n = int(text)
        if 1 <= n <= len(legal):
            return Action.parse(legal[n - 1])
        raise MoveSyntaxError(f"there is no move {n} (choose 1 to {len(legal)}, or type the cards)")
    words = text.split(None, 1)
    if not words:  # the terminal skips an empty line; a program calling this gets the one-line error
        raise MoveSyntaxError("name a move: a move number or the card(s), e.g. 9H")
    first = words[0].lower()
    try:
        if first.isdecimal() and len(text.split()) == 3:
            action = Action.parse(text)
            if action.seat != seat:
                raise MoveSyntaxError(f"you play seat {seat}, not seat {action.seat}")
            return action
        if first == "bid":
            raise MoveSyntaxError("there is nothing to bid now")
        if first in VERBS:
            if len(words) < 2:
                only = [a for a in legal if a.split(" ", 2)[1] == first]
                if len(only) == 1:  # e.g. "molodka" when there is one to declare
                    return Action.parse(only[0])
                if not only:  # "pass" in classic: no card would make it a move
                    raise MoveSyntaxError(f"there is nothing to {first} now; type help for your moves")
                example = only[0].split(" ", 2)[2].replace("+", " ")  # one of the player's own
                raise MoveSyntaxError(f"name the cards after {first!r}, e.g. {first} {example}")
            return Action(seat, first, parse_cards(words[1]))
        return Action(seat, default_verb(legal), parse_cards(text))
    except (CardSyntaxError, ActionSyntaxError) as exc:
        raise MoveSyntaxError(f"{exc}; type a card like 9H, 10h or Q♣, a move number, or help") from None


# ================================================================= session
class GameSession:
    """One match in the terminal: a human seat and bots on the others.

    ``render`` is the game's renderer module (every screen is drawn from the
    human's view through it)."""

    render: Any = render

    def __init__(self, console: Console, state: GameState, human: int, bots: Sequence[Bot | None],
                 chance_rng: random.Random) -> None:
        self.console = console
        self.state = state
        self.human = human
        self.bots = bots
        self.chance_rng = chance_rng
        self.names = ["you" if b is None else b.name for b in bots]
        # the deal's header line is on the screen with nothing played under it yet (set
        # where it is printed, cleared by every move): the next table view leaves it out
        self.header_on_screen = False

    # ---------------------------------------------------------------- input
    def read(self, prompt: str) -> str:
        try:
            return read_at_prompt(self.console, prompt)
        except EOFError:
            self.console.print()
            raise Quit from None

    def view(self) -> dict[str, Any]:
        return self.state.view(self.human)

    # ------------------------------------------------------------------ loop
    def run(self) -> None:
        state = self.state
        while not state.is_terminal():
            if state.is_chance_node():
                done = len(state.deal_results)
                state.apply_chance(state.sample_chance(self.chance_rng))
                self.announce_deal()
                if len(state.deal_results) > done:  # ended at once (royal goat)
                    self.console.print(self.render.deal_result_text(self.view(), len(state.deal_results)))
                continue
            action = self.out_of_turn()
            if action is None:
                seat = state.current_player()
                bot = self.bots[seat]
                if bot is None:
                    action = self.human_turn()
                else:
                    action = bot_choice(bot, state, seat)
            self.apply(action)
        self.console.print(self.render.match_result_text(self.view()))

    def announce_deal(self) -> None:
        view = self.view()
        self.console.print()
        self.console.rule(f"Deal {view['deal_number']}")
        self.console.print(self.render.header_text(view, self.names))
        self.header_on_screen = True
        if view["deal_results"]:  # the sheet so far (before each move: one line, or "sheet")
            self.console.print(self.render.score_table(view))

    def out_of_turn(self) -> Action | None:
        """Out-of-turn claims (molodka) before the seat to act moves: the bots'
        through the Bot interface, the human's by a y/N question when a bot is to
        act. Only seats whose claim would rank before the seat to act's are asked
        (``asked_before_turn``; the others at a later position, or on their own
        turn). Simultaneous claims go by the engine's priority."""
        state = self.state
        claims: dict[int, Action] = {}
        bot_claim = out_of_turn_claim(state, self.bots)
        if bot_claim is not None:
            claims[bot_claim.seat] = bot_claim
        if state.current_player() != self.human and asked_before_turn(state, [self.human]):
            mine = self.view()["legal_actions"]
            if mine:
                human_claim = self.ask_out_of_turn(mine)
                if human_claim is not None:
                    claims[self.human] = human_claim
        if not claims:
            return None
        return claims[state.molodka_priority(list(claims))[0]]

    def ask_out_of_turn(self, legal: Sequence[str]) -> Action | None:
        """Ask briefly (Enter = no): the trick on the table, the hand, the offer."""
        view = self.view()
        self.console.print(self.render.trick_text(view, self.names))
        self.console.print(self.render.hand_text(view))
        if len(legal) == 1:
            offer = Text("You may declare ").append_text(self.render.move_label(legal[0]))
            answer = self.read(f"{offer.markup} out of turn? {escape('[y/N]')} ").strip().lower()
            if answer in QUIT_WORDS:
                raise Quit
            return Action.parse(legal[0]) if answer in ("y", "yes") else None
        self.console.print(Text("You may act out of turn: ").append_text(self.render.moves_text(legal)))
        answer = self.read("Number to declare, or Enter to let play go on: ").strip().lower()
        if answer in QUIT_WORDS:
            raise Quit
        if answer.isdecimal() and 1 <= int(answer) <= len(legal):
            return Action.parse(legal[int(answer) - 1])
        return None

    def turn_view(self) -> dict[str, Any]:
        """The human's view at their turn: what the screen shows and offers."""
        return self.view()

    def check_move(self, action: Action) -> None:
        """Refuse a typed move (:class:`IllegalActionError`) before it is applied."""
        self.state.check_action(action)

    def human_turn(self) -> Action:
        view = self.turn_view()
        if not self.header_on_screen:
            self.console.print()
        self.console.print(self.render.table_view(view, self.names, header=not self.header_on_screen))
        for note in self.render.turn_notes(view):
            self.console.print(note)
        self.console.print(Text("Your moves: ").append_text(self.render.moves_text(view["legal_actions"])))
        while True:
            text = self.read("[bold cyan]Your move[/] (number, cards, help, quit)> ").strip()
            if not text:
                continue
            if text.lower() in QUIT_WORDS:
                raise Quit
            if text.lower() in HELP_WORDS:
                self.show_help(view)
                continue
            if text.lower() in SHEET_WORDS:
                self.console.print(self.render.score_table(view))
                continue
            try:
                action = parse_move(text, view)
                self.check_move(action)
            except GoatError as exc:
                self.console.print(refusal(exc))
                continue
            return action

    def show_help(self, view: Mapping[str, Any]) -> None:
        self.console.print(Text("Legal moves: ").append_text(self.render.moves_text(view["legal_actions"])))
        self.console.print(escape(self.render.rule_summary(view)))
        self.console.print(self.render.input_help(view))

    # ----------------------------------------------------------- announce
    def apply(self, action: Action) -> None:
        before = self.view()
        self.state.apply_action(action)
        self.header_on_screen = False
        after = self.view()
        self.console.print(self.render.action_text(after, after["history"][-1], self.names))
        if action.verb == "molodka":
            self.console.print("  The trick restarts: every card on the table goes back to its owner.")
        gained = sorted(set(after["hand"]) - set(before["hand"]))
        if gained and action.verb not in ("molodka", "bid"):   # a look (or a bid ending it) draws nothing
            how = "receive" if action.verb == "give" else "draw"
            self.console.print(Text(f"  You {how} ").append_text(self.render.cards_text(gained)))
        if after["deal_number"] == before["deal_number"] and sum(after["tricks_won"]) > sum(before["tricks_won"]):
            winner = after["last_trick"]["winner"]
            self.console.print(Text(f"  → {self.render.seat_name(after, winner, self.names)} "
                                    f"{'win' if winner == self.human else 'wins'} the trick", style="green"))
        if len(after["deal_results"]) > len(before["deal_results"]):
            self.console.print(self.render.deal_result_text(after, len(after["deal_results"])))


class KozelSession(GameSession):
    """A Kozel match in the terminal."""

    render = render


class SpadesSession(GameSession):
    """A Spades game in the terminal. While a blind bid is open to the human the
    engine holds their hand face down (``hand_face_down``: no card is sent), so
    their turn starts with a question — bid blind, or look at the cards — and the
    other bids come once they have looked. The engine refuses a blind bid after a
    look; nothing here needs to remember it."""

    render = render_spades

    def out_of_turn(self) -> Action | None:
        """The bots' out-of-turn looks. The human is not asked at every other
        seat's bid: their look comes with the question on their turn."""
        return out_of_turn_claim(self.state, self.bots)

    def apply(self, action: Action) -> None:
        """As every game; a look changes nothing on the table, so a header line
        on the screen still stands after it (it is not printed again)."""
        on_screen = self.header_on_screen
        super().apply(action)
        if action.bid == LOOK:
            self.header_on_screen = on_screen

    def human_turn(self) -> Action:
        view = self.view()
        if view.get("hand_face_down"):
            return self.ask_blind(view, [a for a in view["legal_actions"] if is_blind_bid(a)])
        return super().human_turn()

    def ask_blind(self, view: Mapping[str, Any], blind: Sequence[str]) -> Action:
        """The face-down turn: a blind bid, or ``bid look`` (then the usual turn, hand shown)."""
        if not self.header_on_screen:
            self.console.print()
            self.console.print(self.render.header_text(view, self.names))
            self.header_on_screen = True
        self.console.print(self.render.bids_text(view, self.names))
        self.console.print(self.render.hand_text(view))
        kinds = {a.split()[2]: a for a in blind}
        look = next(a for a in view["legal_actions"] if a.endswith(" bid look"))
        # only the blind bids open now (blind_nil=false with double_nil=true offers double nil alone)
        choices = ["l = look at my cards"] + [label for kind, label in (("blind-nil", "b = blind nil"),
                                                                        ("double-nil", "d = double nil"))
                                              if kind in kinds]
        behind = view["options"]["blind_nil_behind"]
        why = f"Your team is at least {behind} points behind: you" if behind else "You"
        self.console.print(f"{why} may bid before looking at your cards.")
        while True:
            answer = self.read(f"Bid blind? ({', '.join(choices)}) ").strip().lower()
            if answer in QUIT_WORDS:
                raise Quit
            if answer in ("", "l", "look", "n", "no"):
                return Action.parse(look)
            if answer in ("b", "blind", "blind nil", "blind-nil") and "blind-nil" in kinds:
                return Action.parse(kinds["blind-nil"])
            if answer in ("d", "double", "double nil", "double-nil") and "double-nil" in kinds:
                return Action.parse(kinds["double-nil"])
            # say what is expected, or a wrong answer (a move number, "help") re-asks in silence
            self.console.print(f"[red]?[/] answer {' or '.join(c.split(' ')[0] for c in choices)} "
                               "(or quit); your moves come once you have seen your cards")


def is_blind_bid(action: str) -> bool:
    """Whether the action text ``action`` is a blind bid (blind nil, double nil)."""
    parts = action.split(" ", 2)
    return len(parts) == 3 and parts[1] == "bid" and parts[2] in BLIND_KINDS


SESSIONS: dict[str, type[GameSession]] = {"kozel": KozelSession, "spades": SpadesSession}


def refusal(exc: GoatError) -> str:
    """The line (rich markup) a refused move is told in: ``illegal: <the engine's
    reason>`` for a move the rules forbid, ``? <what was expected>`` for text
    that is no move. It quotes what was typed, and a pasted page is cut to its
    two ends (:func:`goat.records.shortened`): one line, not a screenful."""
    from goat.records import shortened

    if isinstance(exc, IllegalActionError):
        return f"[red]illegal:[/] {escape(shortened(exc.reason))}"
    return f"[red]?[/] {escape(shortened(str(exc)))}"


# ================================================================ records
def write_record(path: Path, state: GameState, seats: list[dict[str, Any] | None] | None = None) -> None:
    """Write ``state`` as one game record (``shared/spec/records.md``) on one
    line, so the file is both a ``.json`` record and a one-line ``.jsonl``;
    ``seats``: who sat where (:func:`goat.records.read_seats`). A game over says
    when it ended (``finished_at``, ISO 8601 UTC, as the table server's downloads),
    so ``goat standings --since/--until`` can date it."""
    from goat.records import record_from_state

    record = record_from_state(state)
    if seats is not None:
        record["seats"] = seats
    if state.is_terminal():
        record["finished_at"] = datetime.now(timezone.utc).isoformat()
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")


# ==================================================================== CLI
def _fail(message: str) -> None:
    echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def bot_specs(spec: str, players: int, human: int) -> list[str | None]:
    """``--bots`` spread over the seats: one spec for every other seat, or one each in
    seat order; ``None`` at the player's seat."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    others = players - 1
    if len(names) == 1:
        names = names * others
    if len(names) != others:
        many = f" or {others} comma-separated names" if others > 1 else ""  # one other seat: one name
        raise GoatError(f"--bots needs one name{many}, not {spec!r}")
    it = iter(names)
    return [None if seat == human else next(it) for seat in range(players)]


def _make_bots(specs: list[str | None], master: random.Random, game: str = "kozel",
               think: float = 0.0) -> list[Bot | None]:
    """Each spec (``heuristic``, ``pimc:worlds=50:time_limit=1``, as a tournament
    reads them) built for ``game``, seeded from ``master``, a searching bot's
    moves capped at ``think`` seconds (:func:`thinking`). A bot that sees every
    card (``perfect``) is refused: a table with a person seats only bots that play
    from their seat's view, as the server's do (it is the tournaments' upper bound)."""
    for spec in specs:
        factory = None if spec is None else bot_factory(name := parse_bot_spec(spec).name, game)
        plays = factory is not None and game in (getattr(factory, "games", None) or (game,))
        if plays and getattr(factory, "sees_everything", False):
            raise GoatError(f"bot {name!r} sees every card (a tournament's upper bound), so it does not play "
                            f"with a person; bots for {game}: {', '.join(view_bots(game))}")
    return [None if spec is None else make_thinking_bot(spec, master.getrandbits(64), game, think)
            for spec in specs]


def make_thinking_bot(spec: str, seed: int, game: str, think: float) -> Bot:
    """The bot of ``spec`` for ``game``, capped at ``think`` seconds (:func:`thinking`).

    A spec the bot refuses is told as the player typed it: the cap is goat play's
    own addition, so ``pimc:nope=1`` is not reported as ``pimc:nope=1:time_limit=2.0``
    that "does not take the settings nope, time_limit" (pimc takes time_limit)."""
    try:
        return thinking(spec, game, think).make(seed, game)
    except GoatError:
        as_typed = parse_bot_spec(spec)
        if as_typed == thinking(spec, game, think):
            raise
        as_typed.make(seed, game)  # its own error, in the player's words
        raise  # it was the cap after all (a bot that does not take time_limit)


def thinking(spec: str, game: str, think: float) -> BotSpec:
    """The bot spec ``spec``, with ``time_limit=think`` added when the bot searches
    (:func:`goat.bots.thinks`), ``think`` > 0 and the spec sets no limit of its own:
    a person is waiting at the terminal, as at a server table (its ``bot_think``).
    The record keeps the spec as typed, as the server's records do."""
    parsed = parse_bot_spec(spec)
    if think > 0 and thinks(parsed.name, game) and "time_limit" not in dict(parsed.settings):
        return BotSpec(parsed.name, (*parsed.settings, ("time_limit", think)), parsed.text)
    return parsed


def check_think(think: float) -> float:
    """``--think`` as given; :class:`GoatError` for a negative or non-finite value."""
    if not math.isfinite(think) or think < 0:
        raise GoatError(f"--think must be 0 (no limit) or a number of seconds, not {think:g}")
    return think


def terminal_seats(human: int, name: str, bots: list[str | None]) -> list[dict[str, Any] | None]:
    """The record's ``seats`` of a terminal game: the player's ``name`` at ``human``, each
    bot named as the table server names one (``"heuristic bot"``) with its spec."""
    return [{"name": name} if seat == human else {"name": f"{spec} bot", "bot": spec}
            for seat, spec in enumerate(bots)]


def check_name(name: str) -> str:
    """``--name`` as the table server keeps a name (:func:`goat.names.check_name`, the
    rule both share); :class:`GoatError` with the server's words for one that shows
    nothing or is longer than it takes (the standings fold such names as one)."""
    from goat.names import NameRefused, check_name as check_player_name

    try:
        return check_player_name(name)
    except NameRefused as refused:
        raise GoatError(f"--name: {refused}") from None


def play_game(game: str, rules: str, seed: int | None, seat: int, players: int | None, option: list[str],
              bots: str, record: str | Path | None, name: str = "You", think: float = THINK_SECONDS,
              bot_module: Sequence[str] = ()) -> None:
    """Set up a table of ``game`` and run it in the terminal (shared by every ``goat play`` command)."""
    module = get_game(game)
    try:
        if seed is not None:
            check_seed(seed, name="--seed")
        load_bot_modules(bot_module)
        state_rules = module.make_rules(rules, players=players,
                                        options=parse_option_pairs(option, _defaults(module, rules)))
        if not 0 <= seat < state_rules.players:
            raise GoatError(f"--seat must be 0..{state_rules.players - 1}, not {seat}")
        if seed is None:
            seed = secrets.randbelow(2**32)
        master = random.Random(seed)
        draw = getattr(module, "draw_first_dealer", None)
        first_dealer = draw(master, state_rules.players) if draw else master.randrange(state_rules.players)
        state = module.new_state(state_rules, first_dealer=first_dealer)
        chance_rng = random.Random(master.getrandbits(64))
        specs = bot_specs(bots, state_rules.players, seat)
        bot_list = _make_bots(specs, master, game, check_think(think))
        seats = terminal_seats(seat, check_name(name), specs)
        if record is not None:
            check_writable(record, "the record to", option="--record")
            record = Path(record)
    except GoatError as exc:
        _fail(str(exc))
        return
    console = Console(highlight=False, emoji=False)
    with console.status("Getting the bots ready (on a fresh install the solver compiles first: "
                        "about a minute)…"):
        prepare_bots(bot_list, state.view)
    console.print(f"{game.capitalize()} ({escape(state_rules.name)}), you are seat {seat}; seed {seed} "
                  f"(play it again with --seed {seed}). Type help for the moves and rules.")
    run_session(console, SESSIONS[game](console, state, seat, bot_list, chance_rng), state, record, "game", seats)


def run_session(console: Console, session: Any, state: GameState, record: Path | None, what: str,
                seats: list[dict[str, Any] | None] | None = None) -> None:
    """Run a terminal session to its end (or ``quit`` / Ctrl+C, exit status
    130; SIGTERM or SIGHUP, the terminal closed, 143 or 129), then write the
    record if one was asked for — whatever the game.

    Output that stops being read (``goat play ... | head``, a closed ``tee``)
    ends the session too: the record is still written, silently, before the
    exit status 1 that rich (``SystemExit``) or typer gives a broken pipe.

    Ctrl+C is handled as the stops are (``ctrl_c``): one that lands as a prompt
    begins to read still stops it, and a second one (or a SIGTERM) does not
    interrupt the stopping — the line and the record are written inside the
    block, where a stop under way ignores the next one. A first stop that lands
    in the record's writing at the game's end is that stop: the record is
    written again whole, then the session ends as stopped."""
    code = 0
    stopped: list[int] = []   # SIGTERM or SIGHUP (the terminal window closed), once received
    # the stopping too (the line, the record): a second Ctrl+C or a SIGTERM then does not cut it
    with stop_as_interrupt(stopped, ctrl_c=True):
        try:
            session.run()
        except Quit:
            console.print(f"Bye: {what} stopped.")
        except KeyboardInterrupt:
            code = _say_stopped(console, stopped)
        except (BrokenPipeError, SystemExit) as exc:
            broken = isinstance(exc, BrokenPipeError) or isinstance(exc.__context__, BrokenPipeError)
            if broken and record is not None:
                write_record(record, state, seats)
            raise
        except Exception as exc:
            crashed = [exc.bot] if isinstance(exc, BotMoveError) else raised_by_outside_bot(exc)
            if not crashed:
                raise  # a bug of the project's own: its traceback helps
            # an outside bot's error (the researcher's code): one line, where it was raised; the game so far kept
            if record is not None:
                write_record(record, state, seats)
                console.print(f"Record of the game so far written to {escape(str(record))}.")
            why = str(exc) if isinstance(exc, BotMoveError) else one_line(exc)
            echo(f"error: {what} stopped: bot {', '.join(crashed)} failed: {why}", err=True)
            raise typer.Exit(1) from None
        if record is not None:
            try:
                _keep_record(record, state, seats)
            except KeyboardInterrupt:   # the first stop landed in the write: a stop is under way now,
                _keep_record(record, state, seats)   # so writing it again whole is not cut by the next
                code = _say_stopped(console, stopped)
            console.print(f"Record written to {escape(str(record))}.")
    if code:
        raise typer.Exit(code)


def _say_stopped(console: Console, stopped: list[int]) -> int:
    """The line of a session stopped by Ctrl+C (``stopped`` empty) or by the
    signal in ``stopped``, and its exit status (130; 128 + the signal)."""
    how = STOPPED_BY[stopped[0]] if stopped else "interrupted"
    console.print(f"\n{how[0].upper()}{how[1:]}.")
    return 128 + stopped[0] if stopped else 130


def _keep_record(record: Path, state: GameState, seats: list[dict[str, Any] | None] | None) -> None:
    """Write the record at the session's end; a file that cannot be written is one line."""
    try:
        write_record(record, state, seats)
    except OSError as exc:
        _fail(f"cannot write the record to {record}: {exc.strerror or exc}")
    except GoatError as exc:
        _fail(f"cannot write the record to {record}: {exc}")


def _defaults(module: Any, rules: str) -> dict[str, Any] | None:
    """The preset's option values (their types drive ``--option`` parsing)."""
    try:
        return module.make_rules(rules).options()
    except GoatError:
        return None   # an unknown preset: make_rules reports it below


SEED_HELP = "Makes the whole game reproducible (default: a fresh seed, printed at the start to play it again)."
BOTS_HELP = ("Bot for the other seats (random, heuristic, pimc, ismcts; settings as name:key=value, "
             "e.g. pimc:worlds=50), or one per seat, comma-separated.")
RECORD_HELP = ("Write the game record here when it ends, on quit or Ctrl+C, or when stopped "
               "(its terminal closed, kill) (default: no record).")
NAME_HELP = ("Your name in the record, at most 24 characters as at the table server "
             "(goat standings ranks players by it).")


def think_help(searching_bots: str) -> str:
    """``--think``'s help naming the bots that search in the game at hand (those
    with a ``time_limit``, :func:`goat.bots.thinks`): a game's help names only its own."""
    return (f"The most seconds a searching bot ({searching_bots}) thinks a move, unless its spec sets "
            "time_limit; 0: no limit, so that --seed replays the game exactly.")


def play_kozel(
    rules: str = typer.Option("classic", "--rules", "-r", help="classic, full-hand, full-hand-24 or street."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help=SEED_HELP),
    seat: int = typer.Option(0, "--seat", help="Your seat (0 = first)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players (default: the ruleset's)."),
    option: list[str] = typer.Option([], "--option", "-o", metavar="KEY=VALUE", help="Rules option key=value (repeatable), "
                                "e.g. royal_goat=false, match_target=8; docs/kozel.md lists them "
                                "(default: the ruleset's)."),
    bots: str = typer.Option("heuristic", "--bots", help=BOTS_HELP),
    record: Optional[str] = typer.Option(None, "--record", help=RECORD_HELP),  # str: "" is no ".", see check_named
    name: str = typer.Option("You", "--name", help=NAME_HELP),
    think: float = typer.Option(THINK_SECONDS, "--think", help=think_help("pimc, ismcts")),
    bot_module: list[str] = typer.Option([], "--bot-module", metavar="MODULE", help=BOT_MODULE_HELP),
) -> None:
    """Play Kozel against bots in the terminal."""
    play_game("kozel", rules, seed, seat, players, option, bots, record, name, think, bot_module)


def play_spades(
    rules: str = typer.Option("standard", "--rules", "-r",
                              help="standard, or a variant: no-early-spades, face-up-four, wheels, mirror, "
                                   "joker-trumps, partnership-fourteen, low-club-lead, boston, bemo, "
                                   "negative-reverse."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help=SEED_HELP),
    seat: int = typer.Option(0, "--seat", help="Your seat (0 = first; partners sit opposite: seats 0+2 and 1+3)."),
    option: list[str] = typer.Option([], "--option", "-o", metavar="KEY=VALUE", help="Rules option key=value (repeatable), "
                                                                "e.g. lose_at=-200, double_nil=true (default: the ruleset's)."),
    bots: str = typer.Option("heuristic", "--bots", help="Bot for the other seats (random, heuristic, ismcts, "
                                                         "pimc with the dds extra), "
                                                         "or one per seat, comma-separated."),
    record: Optional[str] = typer.Option(None, "--record", help=RECORD_HELP),  # str: "" is no ".", see check_named
    name: str = typer.Option("You", "--name", help=NAME_HELP),
    think: float = typer.Option(THINK_SECONDS, "--think", help=think_help("ismcts, pimc")),
    bot_module: list[str] = typer.Option([], "--bot-module", metavar="MODULE", help=BOT_MODULE_HELP),
) -> None:
    """Play Spades against bots in the terminal (partners sit opposite: seats 0+2 and 1+3)."""
    play_game("spades", rules, seed, seat, None, option, bots, record, name, think, bot_module)


def register(app: typer.Typer) -> None:
    play_app = typer.Typer(help="Play a game in the terminal against bots.", no_args_is_help=True)
    play_app.command("kozel")(play_kozel)
    play_app.command("spades")(play_spades)
    from goat.cli.play_yugioh import play_yugioh  # Yu-Gi-Oh! lives in its own module

    play_app.command("yugioh")(play_yugioh)
    app.add_typer(play_app, name="play")
