"""Rich rendering of a Kozel seat's view for the terminal.

Everything here takes the dict from ``state.view(seat)`` (never the state), so
the screen can only show what that seat may know: the view function is the one
filter of hidden information, and this module cannot bypass it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from goat.cards import SUIT_NAMES, SUIT_SYMBOLS, Card
from goat.charset import can_encode
from goat.games.kozel.rules import RANK_ORDER
from goat.games.kozel.trumps import trump_order
from goat.scoresheet import EGGS_NOTES

View = Mapping[str, Any]

SUIT_STYLES = {"H": "bold red", "D": "bold red", "C": "bold", "S": "bold", "J": "bold magenta"}

def input_help(view: View) -> str:
    """What the human may type at this table (shown by ``help``): only the kinds
    of move its rules have (no ``pass``/``molodka`` outside street, no ``give``
    without an exchange)."""
    o = view["options"]
    street = o["trick_style"] == "street"
    kinds = ["a move number", "the card(s) (9H, 10h, Q♣, KH AH or KH+AH)" if street else "the card (9H, 10h, Q♣)"]
    if street:
        kinds.append("pass 6C 7D")
        if o["molodka"]:
            kinds.append("molodka 6S 9S KS AS")
    if o["players"] == 4 and (o["partner_exchange"] or (o["forced_exchange"] and not street)):
        kinds.append("give QD")
    return f"Type {', '.join(kinds)}; sheet (the score sheet); help; quit."

ENDED_BY_TEXT = {
    "cards-exhausted": "all cards played",
    "shamok-caught-queen": "the shamok caught the queen of clubs",
    "royal-goat": "royal goat: four aces in one hand",
    "annulled": "60–60, annulled and redealt",
    "unfinished": "unfinished",
}

TRUMP_LEAD_TEXT = {
    "previous-opener": "The opening lead of a deal is a plain card; the team that made the opening "
                       "lead of the previous deal may not lead a trump in this deal.",
    "not-after-own-lead": "The opening lead is a plain card; you may not lead a trump when your "
                          "team led the previous trick.",
    "opening-only": "The opening lead of a deal must be a plain card.",
}


# ------------------------------------------------------------------ cards
def suits_shown() -> bool:
    """Whether standard output can write the suit symbols: not on Windows' cp1252
    (output to a file or a pipe), an ISO-8859-1 terminal or ``PYTHONIOENCODING=ascii``,
    where cards are written in the records' notation (``KH``) instead."""
    return can_encode("".join(SUIT_SYMBOLS.values()))


def card_text(card: str) -> Text:
    """``"KH"`` -> ``K♥`` in red (``KH`` where :func:`suits_shown` says no);
    ``"?"`` (a hidden card) -> a dim ``??``."""
    if card == "?":
        return Text("??", style="dim")
    c = Card.parse(card)
    return Text(c.symbol() if suits_shown() else str(c), style=SUIT_STYLES[c.suit])


def cards_text(cards: Sequence[str], sep: str = " ") -> Text:
    return Text(sep).join(card_text(c) for c in cards)


def suit_text(suit: str) -> Text:
    """``"C"`` -> ``♣ clubs`` (``clubs`` where :func:`suits_shown` says no)."""
    shown = f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}" if suits_shown() else SUIT_NAMES[suit]
    return Text(shown, style=SUIT_STYLES[suit])


def sort_hand(view: View, cards: Sequence[str]) -> list[str]:
    """Display order: plain suits (clubs, diamonds, hearts, spades) low to high,
    then the trumps low to high, so the strongest cards sit at the right."""
    options, trump_suit = view["options"], view.get("trump_suit")
    order = None
    if trump_suit is not None:
        order = trump_order(options["permanent_trumps"], options["deck"], trump_suit, options["jack_order"])

    def key(text: str) -> tuple[int, int, int]:
        c = Card.parse(text)
        if order is not None and order.is_trump(c):
            return (1, 0, order.strength[c])
        return (0, "CDHS".index(c.suit), RANK_ORDER.index(c.rank))

    return sorted(cards, key=key)


# ------------------------------------------------------------------ seats
def team_of(view: View, seat: int) -> int:
    return seat % 2 if view["players"] == 4 else seat


def seat_name(view: View, seat: int, names: Sequence[str]) -> str:
    """``"you"``, ``"partner (seat 2)"`` or ``"seat 1 (random)"``."""
    me = view["seat"]
    if seat == me:
        return "you"
    if view["players"] == 4 and seat == (me + 2) % 4:
        return f"partner (seat {seat}, {names[seat]})"
    return f"seat {seat} ({names[seat]})"


def side_name(view: View, side: int) -> str:
    """A team (``"seats 0+2"``) or, in individual play, a seat."""
    me = view["seat"]
    if view["players"] == 4:
        label = f"seats {side}+{side + 2}"
        return label + (" (you)" if me is not None and team_of(view, me) == side else "")
    return f"seat {side}" + (" (you)" if side == me else "")


# ---------------------------------------------------------------- actions
def action_text(view: View, action: str, names: Sequence[str]) -> Text:
    """One line for an action as the viewer may see it (``?`` = a hidden card)."""
    seat_s, verb, cards_s = action.split(" ", 2)
    cards = cards_s.split("+")
    who = seat_name(view, int(seat_s), names)
    out = Text(who[0].upper() + who[1:] + " ")
    hidden = all(c == "?" for c in cards)
    if verb == "play":
        out.append("play " if who == "you" else "plays ")
        out.append_text(cards_text(cards))
    elif verb == "pass":
        n = len(cards)
        out.append(("pass " if who == "you" else "passes ") + f"{n} card{'s' if n > 1 else ''} face down")
        if not hidden:
            out.append(": ")
            out.append_text(cards_text(cards))
    elif verb == "give":
        me, giver = view["seat"], int(seat_s)
        if giver == me:
            out.append("give your partner a card")
        elif view["players"] == 4 and (giver + 2) % 4 == me:
            out.append("gives you a card")
        else:
            out.append("gives their partner a card")
        if not hidden:
            out.append(": ")
            out.append_text(cards_text(cards))
    elif verb == "molodka":
        out.append("declare " if who == "you" else "declares ")
        out.append("MOLODKA ", style="bold magenta")
        out.append_text(cards_text(cards))
    else:
        out.append(f"{verb} {cards_s}")
    return out


def move_label(action: str) -> Text:
    """A legal move as shown in the numbered list: ``K♥``, ``pass 6♣ 7♦``."""
    _seat, verb, cards_s = action.split(" ", 2)
    cards = cards_s.split("+")
    if verb == "play":
        return cards_text(cards)
    return Text(f"{verb} ").append_text(cards_text(cards))


def moves_text(legal: Sequence[str]) -> Text:
    out = Text()
    for i, action in enumerate(legal, 1):
        if i > 1:
            out.append("   ")
        out.append(f"{i})", style="cyan")
        out.append(" ")
        out.append_text(move_label(action))
    return out


# ----------------------------------------------------------------- tables
def plays_text(view: View, plays: Sequence[Mapping[str, Any]], names: Sequence[str]) -> Text:
    out = Text()
    for i, play in enumerate(plays):
        if i:
            out.append(" · ", style="dim")
        who = seat_name(view, play["seat"], names)
        out.append(f"{who}: ")
        if "cards" in play:
            if play["verb"] == "pass":
                out.append("face down ", style="dim")
            out.append_text(cards_text(play["cards"]))
        else:
            n = play["count"]
            out.append(f"{n} face down", style="dim")
    return out


def header_text(view: View, names: Sequence[str]) -> Text:
    opts = view["options"]
    out = Text(f"Kozel · {view['rules']} · deal {view['deal_number']} · dealer: "
               f"{seat_name(view, view['dealer'], names)} · ", style="bold")
    suit = view.get("trump_suit")
    if suit is not None:
        out.append("trump ")
        out.append_text(suit_text(suit))
        if view.get("trump_card"):
            out.append(" (shown ")
            out.append_text(card_text(view["trump_card"]))
            place = trump_place_text(view, names)
            out.append(f", {place})" if place else ")")
        if opts["permanent_trumps"]:
            out.append(" + permanent jacks, queens" + (", shamok" if has_shamok(opts) else ""))
    return out


def has_shamok(options: dict[str, Any]) -> bool:
    """Whether the options' game has the shamok (7♣ above the permanent trumps): the
    permanent trumps on, and a deck with sevens (the 24-card deck starts at nines)."""
    return bool(options["permanent_trumps"]) and options["deck"] != "24"


def trump_place_text(view: View, names: Sequence[str]) -> str | None:
    """Where the shown trump card lies in the stock as it is now ("card 5 from the
    top of the stock") or who drew it, when the table plays it face up there
    (``trump_card_place="public"``: only then does the view say); else ``None``."""
    if view.get("trump_card_drawn_by") is not None:
        return f"drawn by {seat_name(view, view['trump_card_drawn_by'], names)}"
    place = view.get("trump_card_place")
    if place is None:
        return None
    opts = view["options"]
    drawn = int(opts["deck"]) - opts["hand_size"] * opts["players"] - view["stock_size"]
    return f"card {place - drawn + 1} from the top of the stock"


def score_table(view: View) -> Table:
    """Penalty points per side per deal, with totals (the score sheet)."""
    players = view["players"]
    sides = 2 if players == 4 else players
    table = Table(title=f"Score sheet (penalty points; {view['options']['match_target']} loses)",
                  title_justify="left",
                  show_edge=False, pad_edge=False)
    table.add_column("deal", justify="right")
    for side in range(sides):
        table.add_column(side_name(view, side), justify="right")
    table.add_column("card points", justify="left")
    table.add_column("how it ended", justify="left")
    for i, deal in enumerate(view["deal_results"], 1):
        table.add_row(str(i), *(str(p) for p in deal["penalty"]),
                      "–".join(map(str, deal["points"])), ended_text(deal))
    table.add_row("total", *(Text(str(p), style="bold") for p in view["penalty_total"]), "", "",
                  style="bold")
    return table


def ended_text(deal: Mapping[str, Any]) -> str:
    """How a deal ended, with the ``eggs="double-next"`` note the score sheet
    gives it ("penalty doubled (eggs)" explains a 4 in ``flat2``)."""
    text = ENDED_BY_TEXT.get(deal["ended_by"], deal["ended_by"])
    return f"{text}; {EGGS_NOTES[deal['eggs']]}" if deal.get("eggs") in EGGS_NOTES else text


def totals_text(view: View) -> Text:
    """The match so far in one line (the whole :func:`score_table` is shown when
    a deal starts and on ``sheet``: before every move it would bury the table)."""
    out = Text("Penalty points: ")
    out.append(", ".join(f"{side_name(view, s)} {p}" for s, p in enumerate(view["penalty_total"])))
    return out.append(f" ({view['options']['match_target']} loses)", style="dim")


def table_view(view: View, names: Sequence[str], header: bool = True) -> RenderableType:
    """The screen before the human's move, for the seat whose view this is;
    ``header=False`` leaves out the deal's header line (still on the screen just
    above when nothing has been played since the deal was announced)."""
    parts: list[RenderableType] = [header_text(view, names)] if header else []
    parts.append(totals_text(view))
    sizes = Text("Cards in hand: ")
    for seat, n in enumerate(view["hand_sizes"]):
        if seat:
            sizes.append(", ")
        sizes.append(f"{seat_name(view, seat, names)} {n}")
    sizes.append(f" · stock {view['stock_size']}")
    if "pile_points" in view:
        sizes.append(" · points this deal " + "–".join(map(str, view["pile_points"])))
    sizes.append(" · tricks " + "–".join(map(str, view["tricks_won"])))
    parts.append(sizes)
    last = view.get("last_trick")
    if last is not None:
        line = Text("Last trick: ", style="dim")
        line.append_text(plays_text(view, last["plays"], names))
        line.append(f" → won by {seat_name(view, last['winner'], names)}", style="dim")
        parts.append(line)
    parts.append(trick_text(view, names))
    current = view["current_player"]
    if current is not None and current >= 0:
        parts.append(Text(f"Turn: {seat_name(view, current, names)}", style="bold"))
    if view["hand"] is not None:
        parts.append(hand_text(view))
    return Group(*parts)


def trick_text(view: View, names: Sequence[str]) -> Text:
    trick = Text("On the table: ", style="bold")
    if view["trick"]:
        trick.append_text(plays_text(view, view["trick"], names))
    else:
        trick.append("(empty)", style="dim")
    return trick


def hand_text(view: View) -> Text:
    hand = Text("Your hand: ", style="bold")
    return hand.append_text(cards_text(sort_hand(view, view["hand"] or []), sep="  "))


def turn_notes(view: View) -> list[Text]:
    """Reminders shown before the human's move."""
    if view.get("must_lead"):
        return [Text("You must lead ").append_text(card_text(view["must_lead"]))
                .append(", the card your partner gave back.")]
    return []


def deal_result_text(view: View, deal_number: int) -> Text:
    deal = view["deal_results"][deal_number - 1]
    sides = len(deal["penalty"])
    out = Text(f"Deal {deal_number} is over ({ended_text(deal)}): ",
               style="bold yellow")
    if deal["ended_by"] not in ("shamok-caught-queen", "royal-goat"):
        out.append("points " + ", ".join(f"{side_name(view, s)} {deal['points'][s]}" for s in range(sides)))
        out.append("; ")
    if any(deal["penalty"]):
        out.append("penalty " + ", ".join(f"{side_name(view, s)} +{p}"
                                          for s, p in enumerate(deal["penalty"]) if p))
    else:
        out.append("no penalty points")
    out.append(". Totals: " + ", ".join(f"{side_name(view, s)} {p}"
                                        for s, p in enumerate(view["penalty_total"])))
    return out


def match_result_text(view: View) -> Text:
    loser = view.get("loser_team")
    me = view["seat"]
    if loser is None:
        deal = view["deal_results"][-1] if view["deal_results"] else None
        winner = deal["winner_team"] if deal else None
        if winner is None:
            return Text("The match is over.", style="bold")
        mine = me is not None and team_of(view, me) == winner
        if deal["ended_by"] == "royal-goat":
            how = " by a royal goat"
        else:   # two players reached the target together (3 players, option match_loser)
            goats = [s for s in range(len(view["penalty_total"])) if s != winner]
            how = "; " + " and ".join(side_name(view, s) for s in goats) + " are both goats 🐐"
        return Text(f"The match is over: {side_name(view, winner)} won{how}"
                    + (" — you win!" if mine else "."), style="bold green" if mine else "bold")
    mine = me is not None and team_of(view, me) == loser
    return Text(f"The match is over: {side_name(view, loser)} "
                f"{'are' if view['players'] == 4 else 'is'} the goat 🐐"
                + (" — that's you." if mine else " — you win!"), style="bold red" if mine else "bold green")


def rule_summary(view: View) -> str:
    """A few lines on the rules in force, built from the options (for ``help``)."""
    o = view["options"]
    has_stock = o["hand_size"] * o["players"] < int(o["deck"])
    lines = [f"Ruleset {view['rules']}: {o['players']} players, {o['deck']}-card deck, "
             f"{o['hand_size']} cards each"
             + (", the rest is the stock (draw after each trick)." if has_stock else ", no stock.")]
    if o["trump_suit"] == "drawn":
        where = "the middle of the stock" if o["trump_card_from"] == "stock" else "the deck"
        lines.append(f"A card from {where} is shown; its suit is trump for the deal.")
        if o["trump_card_from"] == "stock":
            lines.append("It stays in its place face up: everyone sees where it lies and who draws it."
                         if o.get("trump_card_place") == "public" else
                         "It goes back to its place face down: everyone knows the card, not where it lies.")
    else:
        lines.append(f"Trump suit: {SUIT_NAMES[o['trump_suit']]}.")
    if o["permanent_trumps"]:
        lines.append("Permanent trumps above the trump suit: jacks, then queens (D<H<S<C)"
                     + (", then the seven of clubs (shamok), the highest card." if has_shamok(o) else "."))
    if o["trick_style"] == "street":
        lines.append("Lead 1–4 cards of one suit. Each next player beats every led card one-to-one "
                     "(type the cards) or passes as many cards face down (`pass 6C 7D`).")
        lines.append("Card order in a suit: 6 7 8 9 J Q K T A; a trump beats any other suit.")
        if o["molodka"]:
            lines.append("Molodka: holding four cards of one suit, you may restart a trick out of turn "
                         "(`molodka 6S 9S KS AS`).")
    else:
        lines.append("One card each; follow the led suit (trumps count as one suit) if you can"
                     + (" — on a plain suit you may also play a trump" if o.get("trump_on_plain") == "always"
                        else "")
                     + "; plain suit order 7 8 9 K T A.")
        if o["trump_lead"] in TRUMP_LEAD_TEXT:
            lines.append(TRUMP_LEAD_TEXT[o["trump_lead"]])
        if o["shamok_catches_queen"] and has_shamok(o):
            lines.append("If 7♣ and Q♣ meet in one trick from two teams, the deal ends; "
                         f"the queen's team gets {o['shamok_penalty']} penalty points.")
    if o["partner_exchange"]:
        lines.append("After the deal each player gives one card face down to the partner (`give QD`).")
    lines.append("Card points: J 2, Q 3, K 4, T 10, A 11. More than 60 wins the deal; "
                 + ("losers get 2/4/6 penalty points (graded)" if o["penalty"] == "graded"
                    else "the losers get 2 penalty points")
                 + f"; reaching {o['match_target']} makes you the goat"
                 + ("" if view["players"] != 3 else
                    " (two at once: " + ("the one with more is the goat, both if level)"
                                         if o["match_loser"] == "most-penalty" else "both are goats)"))
                 + ".")
    return "\n".join(lines)
