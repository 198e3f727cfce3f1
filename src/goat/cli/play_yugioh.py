"""``goat play yugioh``: a Yu-Gi-Oh! match in the terminal against a bot.

Everything shown comes from ``state.view(seat)`` of the human's seat, so the
screen cannot leak the opponent's hand, Set cards or deck order. Moves are
typed as their number in the list, as the action text without the seat
(``summon Sangan``), or in full (``0 summon Sangan``).
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.markup import escape

from goat.bots import THINK_SECONDS, Bot, load_bot_modules
from goat.bots.base import bot_choice
from goat.cli.errors import user_errors
from goat.cli.hangup import read_at_prompt
from goat.cli.options import BOT_MODULE_HELP
from goat.cli.play import (
    HELP_WORDS,
    NAME_HELP,
    Quit,
    check_name,
    check_think,
    make_thinking_bot,
    refusal,
    run_session,
    terminal_seats,
    think_help,
)
from goat.files import check_named, check_writable
from goat.games.options import parse_option_pairs
from goat.games.yugioh import (
    DeckList,
    builtin_deck,
    check_deck,
    load_deck,
    make_rules,
    new_state,
    parse_action,
)
from goat.games.yugioh.cards.data import DATABASE, card
from goat.games.yugioh.state import YugiohState
from goat.protocol import GoatError, check_seed

QUIT_WORDS = ("quit", "exit", "q", ":q")
PILE_WORDS = ("gy", "graveyard", "piles")
DECK_WORDS = ("deck", "decks")
LIST_WORDS = ("list", "all")
INPUT_HELP = ("Type a choice's number, its text without your seat in any case (summon sangan, pass), or in "
              "full (0 summon Sangan); gy lists the Graveyards, banished cards and your Fusion Deck; decks the "
              "deck lists (the opponent's with open_decklists); card NAME shows what a card does; list shows "
              "every choice; quit (or Ctrl+D) stops the match.")
#: The engine's phase, step and Damage Step part names and what just happened, as a
#: player says them (the table words them alike: ``ygo.phases``, ``steps``,
#: ``substeps``, ``events`` in ``i18n.js``); the engine's English prompt keeps the
#: keys ("battle / damage / calc"), which bots and programs read.
PHASES = {"draw": "Draw Phase", "standby": "Standby Phase", "main1": "Main Phase 1", "battle": "Battle Phase",
          "main2": "Main Phase 2", "end": "End Phase"}
STEPS = {"start": "Start Step", "battle": "Battle Step", "damage": "Damage Step", "end": "End Step"}
SUBSTEPS = {"start": "start", "before": "before damage calculation", "calc": "damage calculation",
            "after": "after damage calculation", "flip": "flip effects", "end": "end"}
EVENTS = {"summoned": "a summon", "attack": "an attack"}
#: More choices than this are summed up, not listed one a line (side-decking offers hundreds of swaps).
LONG_LIST = 30


def board_text(view: Mapping[str, Any]) -> str:
    """The field as the viewer sees it (plain text, one block)."""
    if "players" not in view:
        return ""
    me = view["seat"]
    lines = [f"Duel {view['duel_number']} (wins {view['wins'][0]}-{view['wins'][1]}) · turn {view['turn']} · "
             f"player {view['turn_player']} · {where_words(view['phase'], view.get('step'), view.get('substep'))}"]
    for seat in (1 - me, me):
        p = view["players"][seat]
        who = "you" if seat == me else "opponent"
        lines.append(f"[{who}, seat {seat}] LP {p['lp']} · hand {p['hand_count']} · deck {p['deck_count']} · "
                     f"GY {len(p['gy'])}" + (f" (top: {p['gy'][-1]})" if p["gy"] else "")
                     + (f" · banished {len(p['banished'])}" if p["banished"] else ""))
        lines.append("  monsters: " + "  ".join(_slot(c, i, "M") for i, c in enumerate(p["monsters"])))
        lines.append("  spell/trap: " + "  ".join(_slot(c, i, "S") for i, c in enumerate(p["spells"])))
    lines.append("your hand: " + (", ".join(view["players"][me]["hand"]) or "(empty)"))
    if view.get("chain"):
        lines.append("chain: " + " → ".join(f"{link['card']} ({link['seat']})" for link in view["chain"]))
    return "\n".join(lines)


def where_words(phase: str | None, step: str | None = None, substep: str | None = None) -> str:
    """"Battle Phase · Damage Step · damage calculation" for the engine's ("battle", "damage", "calc")."""
    parts = [PHASES.get(phase or "", phase or "")]
    if step:
        parts.append(STEPS.get(step, step))
    if substep:
        parts.append(SUBSTEPS.get(substep, substep))
    return " · ".join(part for part in parts if part)


def prompt_words(decision: Mapping[str, Any]) -> str:
    """A decision's prompt as a player reads it: a response window names its
    phase and step in words and what happened once ("Standby Phase: respond to a
    summon?", where the engine says "standby: respond to summoned, summoned,
    summoned, summoned?" for four Sheep Tokens); other prompts as the engine says them."""
    say = decision.get("say") or {}
    args = say.get("args", {})
    if say.get("key") == "yourMove":
        return f"{where_words(args['phase'])}: your move"
    if say.get("key") in ("windowActivate", "windowRespond"):
        where = where_words(*args["where"])
        if say["key"] == "windowActivate":
            return f"{where}: activate something?"
        events = " and ".join(EVENTS.get(e, e) for e in dict.fromkeys(args["events"]))
        return f"{where}: respond to {events}?"
    return decision["prompt"]


def piles_text(view: Mapping[str, Any]) -> str:
    """Both Graveyards and banished piles (public) and the viewer's own Fusion
    Deck: what the board's counts stand for, which a player reads before a
    Chaos Sorcerer, a Premature Burial or a Magician of Faith."""
    if "players" not in view:
        return "no duel yet"
    me = view["seat"]
    lines = []
    for seat in (1 - me, me):
        p = view["players"][seat]
        who = "you" if seat == me else "opponent"
        lines.append(f"[{who}] Graveyard ({len(p['gy'])}): " + (", ".join(p["gy"]) or "-"))
        lines.append(f"[{who}] banished ({len(p['banished'])}): " + (", ".join(p["banished"]) or "-"))
    fusion = view["players"][me].get("fusion")
    if fusion is not None:
        lines.append(f"your Fusion Deck ({len(fusion)}): " + (", ".join(fusion) or "-"))
    return "\n".join(lines)


def decks_text(view: Mapping[str, Any]) -> str:
    """The deck lists the viewer may see: their own as brought (and their side
    deck now, after side-decking), the opponent's only with ``open_decklists``."""
    me = view["seat"]
    lines = []
    for seat in (me, 1 - me):
        brought = (view.get("decklists") or [None, None])[seat]
        who = "your" if seat == me else "the opponent's"
        if brought is None:
            lines.append(f"{who} deck list: private (--option open_decklists=true shows both)")
            continue
        lines.append(f"{who} deck list as brought:")
        for part in ("main", "fusion", "side"):
            counts = Counter(brought[part])
            lines.append(f"  {part} ({len(brought[part])}): "
                         + (", ".join(f"{n}x {name}" for name, n in counts.items()) or "-"))
    mine = view.get("my_deck")
    if mine is not None:
        lines.append(f"your side deck now ({len(mine['side'])}): " + (", ".join(mine["side"]) or "-"))
    return "\n".join(lines)


def card_text(name: str) -> str:
    """A card's public facts and effect summary (the catalog the table shows), by
    its name in any case."""
    tokens = {n.casefold(): d for n, d in DATABASE.items() if "token" in d.traits}  # no deck card, but on the field
    data = tokens.get(name.strip().casefold()) or card(name)
    if data.kind == "monster":
        head = (f"{data.name}: {data.subtype.capitalize()} Monster, Level {data.level} {data.attribute} "
                f"{data.race}, ATK {data.atk} / DEF {data.defense}")
    else:
        head = f"{data.name}: {data.subtype.capitalize()} {data.kind.capitalize()}"
    return head + (f"\n  {data.text}" if data.text else "")


def swaps_summary(view: Mapping[str, Any]) -> list[str]:
    """Side-decking's hundreds of swaps as the two lists they pair: the main deck
    cards that may go out and the side deck cards that may come in."""
    outs: dict[str, None] = {}
    ins: dict[str, None] = {}
    example = ""
    for text in view["legal_actions"]:
        parts = text.split(" ", 2)
        if len(parts) == 3 and parts[1] == "swap":
            out, _, into = parts[2].partition(" / ")
            outs.setdefault(out)
            ins.setdefault(into)
            example = example or f" (e.g. swap {parts[2]})"
    out, into = sorted(outs), sorted(ins)
    return ["  out (main deck): " + ", ".join(out),
            "  in (side deck): " + ", ".join(into),
            f"  type swap <main card> / <side card>{example}, done, or list for all "
            f"{len(view['legal_actions'])} choices"]


def log_line(entry: Mapping[str, Any], me: int) -> str:
    """One duel log line as rich markup: the lines about the viewer's own moves
    and cards in green, the opponent's in yellow, the rest (chain links
    resolving, battle figures) plain — the engine's text names seats by number,
    which alone makes a reader work out whose move each line was."""
    seat = entry.get("say", {}).get("args", {}).get("seat")
    text = escape(entry["text"])
    if seat is None:
        return f"  {text}"
    return f"  [{'green' if seat == me else 'yellow'}]{text}[/]"


def _slot(card: Mapping[str, Any] | None, index: int, zone: str) -> str:
    if card is None:
        return f"{zone}{index + 1}:-"
    text = card["name"] if card["face_up"] else f"set {card['name']}" if card["name"] != "?" else "set ?"
    if "atk" in card:
        text += f" {card['atk']}/{card['def']} {card['position'][:3]}"
    elif "position" in card and not card["face_up"]:
        text += " def"
    return f"{zone}{index + 1}:{text}"


def parse_typed(text: str, view: Mapping[str, Any]) -> Any:
    """A typed move: a choice's number, or its text with or without the seat, in
    any case and spacing (``summon sangan``): card names are matched as the
    legal actions spell them, so the player need not type capitals."""
    legal: Sequence[str] = view["legal_actions"]
    text = " ".join(text.split())
    if text.isdecimal():  # not isdigit: "²" is a digit int() does not read
        n = int(text)
        if 1 <= n <= len(legal):
            return parse_action(legal[n - 1])
        raise GoatError(f"there is no move {n} (choose 1 to {len(legal)})")
    if not text[:1].isdecimal():
        text = f"{view['seat']} {text}"
    spelled = {action.casefold(): action for action in legal}
    return parse_action(spelled.get(text.casefold(), text))


class YugiohSession:
    def __init__(self, console: Console, state: YugiohState, human: int, bot: Bot, chance_rng: random.Random) -> None:
        self.console, self.state, self.human, self.bot, self.chance_rng = console, state, human, bot, chance_rng
        self.shown = 0

    def read(self, prompt: str) -> str:
        try:
            return read_at_prompt(self.console, prompt)
        except EOFError:
            self.console.print()  # Ctrl+D leaves the cursor after the prompt
            raise Quit from None

    def show_log(self) -> None:
        view = self.state.view(self.human)
        log = view.get("log", [])
        if len(log) < self.shown:  # a new duel began
            self.shown = 0
        for entry in log[self.shown:]:
            self.console.print(log_line(entry, self.human))
        self.shown = len(log)

    def run(self) -> None:
        state = self.state
        while not state.is_terminal():
            if state.is_chance_node():
                request, outcome = state.pending(), state.sample_chance(self.chance_rng)
                state.apply_chance(outcome)
                if request.kind == "coin":  # public: who tossed the right to choose
                    self.console.print("Coin toss: " + ("you choose" if outcome == self.human else
                                                        "the opponent chooses") + " who goes first.")
                continue
            seat = state.current_player()
            if seat == self.human and state.legal_texts() == [f"{seat} pass"]:
                # A window where the human can only pass (the engine asks anyway, so
                # that the bot cannot tell; this screen need not).
                action = state.legal_actions()[0]
            elif seat == self.human:
                self.show_log()
                action = self.human_turn()
            else:
                action = bot_choice(self.bot, state, seat)
                if state.pending().kind == "first":  # the loser of a duel, or the toss's winner, chose
                    self.show_log()  # the last duel's end first
                    self.console.print(f"The opponent chooses to go {str(action).rsplit(' ', 1)[-1]}.")
            state.apply_action(action)
        self.show_log()
        r = state.result()
        w = r["winner"]
        self.console.print(f"[bold]Match over: {'you win' if w == self.human else 'draw' if w is None else 'you lose'}"
                           f" ({r['wins'][0]}-{r['wins'][1]})[/]")

    def show_choices(self, view: Mapping[str, Any], every: bool = False) -> None:
        self.console.print(f"[bold]{escape(prompt_words(view['decision']))}[/]")
        legal = view["legal_actions"]
        if not every and len(legal) > LONG_LIST and view["decision"]["kind"] == "side":
            for line in swaps_summary(view):
                self.console.print(escape(line))
            done = [i for i, text in enumerate(legal, 1) if text.endswith(" done")]
            if done:
                self.console.print(f"  [cyan]{done[0]})[/] done")
            return
        for i, text in enumerate(legal, 1):
            self.console.print(f"  [cyan]{i})[/] {escape(text.split(' ', 1)[1])}")

    def human_turn(self) -> Any:
        view = self.state.view(self.human)
        self.console.print()
        self.console.print(escape(board_text(view)))
        self.show_choices(view)
        while True:
            text = self.read("[bold cyan]Your choice[/] (number or text, help, quit)> ").strip()
            if not text:
                continue
            if text.lower() in QUIT_WORDS:
                raise Quit
            if text.lower() in HELP_WORDS:
                self.show_choices(view)
                self.console.print(INPUT_HELP)
                continue
            if text.lower() in LIST_WORDS:
                self.show_choices(view, every=True)
                continue
            if text.lower() in PILE_WORDS:
                self.console.print(escape(piles_text(view)))
                continue
            if text.lower() in DECK_WORDS:
                self.console.print(escape(decks_text(view)))
                continue
            if text.lower().startswith("card "):
                try:
                    self.console.print(escape(card_text(text[5:])))
                except GoatError as exc:
                    self.console.print(refusal(exc))
                continue
            try:
                action = parse_typed(text, view)
                self.state.check_action(action)
            except GoatError as exc:
                self.console.print(refusal(exc))
                continue
            return action


def _decks(rules: Any, seat: int, deck: Optional[str], opponent_deck: Optional[str]) -> list[DeckList]:
    """Both seats' lists: the built-in ones the ``decks`` option names (Goat
    Control for both by default), the player's and the bot's files in their place."""
    names = rules.decks.split("/")
    decks = [builtin_deck(names[0]), builtin_deck(names[-1])]
    for where, option, path in ((seat, "--deck", deck), (1 - seat, "--opponent-deck", opponent_deck)):
        if path is not None:
            check_named(path, option, instead="leave it out for the built-in deck")
            decks[where] = load_deck(path)
            check_deck(decks[where], rules, f"{option} {path}")  # named as typed, not "seat 1's deck"
    return decks


def play_yugioh(
    deck: Optional[str] = typer.Option(None, "--deck", help="Your deck (.ydk list of card names); default Goat "
                                                             "Control (or what --option decks=... names)."),
    opponent_deck: Optional[str] = typer.Option(None, "--opponent-deck", help="The bot's deck; default Goat Control "
                                                                                "(or what --option decks=... names)."),
    vs: str = typer.Option("greedy", "--vs", help="The bot: random, greedy or mc (searches: up to --think seconds a move)."),
    rules: str = typer.Option("goat", "--rules", "-r", help="goat or official."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Makes the whole match reproducible "
                                                                  "(default: a fresh seed, printed at the start)."),
    seat: int = typer.Option(0, "--seat", help="Your seat (0 or 1)."),
    option: list[str] = typer.Option([], "--option", "-o", metavar="KEY=VALUE", help="Rules option key=value (repeatable), e.g. "
                                                                 "starting_lp=4000, open_decklists=true "
                                                                 "(default: the ruleset's)."),
    single: bool = typer.Option(False, "--single", help="One duel instead of a match."),
    record: Optional[str] = typer.Option(None, "--record", help="Write the match record here at the end, on quit or "
                                                                 "Ctrl+C, or when stopped (its terminal closed, kill) "
                                                                 "(default: no record)."),
    name: str = typer.Option("You", "--name", help=NAME_HELP),
    think: float = typer.Option(THINK_SECONDS, "--think", help=think_help("mc")),
    bot_module: list[str] = typer.Option([], "--bot-module", metavar="MODULE", help=BOT_MODULE_HELP),
) -> None:
    """Play a Yu-Gi-Oh! (Goat Format) match against a bot in the terminal."""
    with user_errors():
        if seed is not None:
            check_seed(seed, name="--seed")
        load_bot_modules(bot_module)
        if seat not in (0, 1):
            raise GoatError(f"--seat must be 0 or 1, not {seat}")
        if seed is None:
            seed = secrets.randbelow(2**32)
        base = make_rules(rules)
        ruleset = make_rules(base, parse_option_pairs(option, base.options()))
        state = new_state(ruleset, decks=_decks(ruleset, seat, deck, opponent_deck), single_duel=single, seed=seed)
        bot = make_thinking_bot(vs, seed + 1, "yugioh", check_think(think))  # name or name:key=value
        seats = terminal_seats(seat, check_name(name), [None if s == seat else vs for s in (0, 1)])
        if record is not None:
            check_writable(record, "the record to", option="--record")
            record = Path(record)
    console = Console(highlight=False, emoji=False)
    console.print(f"Yu-Gi-Oh! ({escape(rules)}), you are seat {seat} against {bot.name}; seed {seed}. "
                  "In the log, [green]your moves[/] and [yellow]the opponent's[/].")
    run_session(console, YugiohSession(console, state, seat, bot, random.Random(seed)), state, record, "match", seats)
