"""Rich rendering of a Spades seat's view for the terminal.

Like :mod:`goat.cli.render` (Kozel), everything here takes the dict from
``state.view(seat)``, never the state, so the screen shows only what that seat
may know. Cards, seat names and move lists are drawn by the shared helpers of
:mod:`goat.cli.render`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from goat.cli.render import card_text, cards_text, seat_name
from goat.games.spades.rules import BEMO, BOSTON_POINTS, HAND_SIZE, WHEELS_CONTRACT, WHEELS_POINTS
from goat.games.spades.scoring import bag_penalty_words

View = Mapping[str, Any]

__all__ = ["input_help", "action_text", "card_text", "cards_text", "deal_result_text", "header_text",
           "hand_text", "match_result_text", "move_label", "moves_text", "rule_summary", "score_table",
           "seat_name", "table_view", "trick_text", "turn_notes"]

def input_help(view: View) -> str:
    """What the human may type at this table (shown by ``help``): the bids its
    variant has (no ``little bemo`` without Bemo), ``give`` only with double nil's exchange."""
    o = view["options"]
    bids = ["4"] + (["nil"] if o["nil"] and not o["mirror"] else []) + (["blind nil"] if o["blind_nil"] else []) + (["double nil"] if o["double_nil"] else []) \
        + (["little bemo"] if o["bemo"] else []) + (["redeal"] if o["weak_hand_redeal"] else [])
    bidding = ("Bidding: type your bid, the number of spades you hold. " if o["mirror"] else
               f"Bidding: type the bid ({', '.join(bids)}); a number is the bid itself. ")
    give = "; give QD in the exchange" if o["double_nil"] else ""
    return bidding + f"Playing: a move number or the card (9H, 10h, Q♣){give}; sheet (the score sheet); help; quit."


def side_name(view: View, team: int) -> str:
    me = view["seat"]
    return f"seats {team}+{team + 2}" + (" (you)" if me is not None and me % 2 == team else "")


def bid_label(bid: str) -> str:
    return {"nil": "nil", "blind-nil": "blind nil", "double-nil": "double nil",
            "little-bemo": "little Bemo", "big-bemo": "big Bemo", "redeal": "redeal (weak hand)",
            "look": "look at my cards"}.get(bid, bid)


# ---------------------------------------------------------------- actions
def action_text(view: View, action: str, names: Sequence[str]) -> Text:
    """One line for an action as the viewer may see it (``?`` = a hidden card)."""
    seat_s, verb, rest = action.split(" ", 2)
    who = seat_name(view, int(seat_s), names)
    out = Text(who[0].upper() + who[1:] + " ")
    you = who == "you"
    if verb == "bid" and rest == "redeal":       # the hand is shown to every player
        out.append("show a weak hand" if you else "shows a weak hand")
        shown = (view.get("shown_hand") or {}).get(seat_s)
        if shown:
            out.append(" (").append_text(cards_text(shown)).append(")")
        out.append(" and ask for a redeal" if you else " and asks for a redeal")
    elif verb == "bid" and rest == "look":       # a face-down hand turned over (no bid)
        out.append("look at your cards" if you else "looks at their cards")
    elif verb == "bid":
        out.append("bid " if you else "bids ")
        out.append(bid_label(rest), style="bold")
    elif verb == "give":
        giver, me = int(seat_s), view["seat"]
        if giver == me:
            out.append("give your partner a card")
        elif me is not None and (giver + 2) % 4 == me:
            # no card here: the last give of the exchange would show its card alone,
            # the earlier ones none; "You receive ..." lists them all once complete
            return out.append("gives you a card")
        else:
            out.append("gives their partner a card")
        if rest != "?":
            out.append(": ").append_text(cards_text(rest.split("+")))
    else:
        out.append("play " if you else "plays ").append_text(cards_text(rest.split("+")))
    return out


def move_label(action: str) -> Text:
    _seat, verb, rest = action.split(" ", 2)
    if verb == "bid":
        return Text(bid_label(rest))
    if verb == "give":
        return Text("give ").append_text(cards_text(rest.split("+")))
    return cards_text(rest.split("+"))


def moves_text(legal: Sequence[str]) -> Text:
    """The moves, numbered; bids are not numbered, since a typed number is the
    bid itself (``4`` bids 4: a "move 4" would be another bid)."""
    out = Text()
    bidding = all(a.split(" ", 2)[1] == "bid" for a in legal)
    for i, action in enumerate(legal, 1):
        if i > 1:
            out.append(" · " if bidding else "   ")
        if not bidding:
            out.append(f"{i})", style="cyan").append(" ")
        out.append_text(move_label(action))
    return out


# ----------------------------------------------------------------- tables
def bags_text(count: int) -> str:
    """``1 bag``, ``0 bags``, ``11 bags``: the terminal's deal lines and header read
    "+61 (1 bags)" for a single overtrick."""
    return f"{count} bag{'' if count == 1 else 's'}"


def header_text(view: View, names: Sequence[str]) -> Text:
    return Text(f"Spades · {view['rules']} · deal {view['deal_number']} · dealer: "
                f"{seat_name(view, view['dealer'], names)} · score "
                f"{side_name(view, 0)} {view['score_total'][0]} ({bags_text(view['bags_total'][0])}), "
                f"{side_name(view, 1)} {view['score_total'][1]} ({bags_text(view['bags_total'][1])})", style="bold")


def bids_text(view: View, names: Sequence[str]) -> Text:
    out = Text("Bids: ", style="bold")
    for seat, bid in enumerate(view["bids"]):
        if seat:
            out.append(" · ")
        out.append(f"{seat_name(view, seat, names)} ")
        out.append("—" if bid is None else bid_label(bid), style="dim" if bid is None else "bold")
        out.append(f" ({view['tricks_by_seat'][seat]} won)" if view["tricks_played"] else "")
    return out


def team_deal_text(view: View, deal_number: int, team: int) -> str:
    """A team's deal on the sheet: ``+71 (1 bag)``, and the bag penalty its score
    holds, ``-69 (11 bags; -100 for 10 bags)``."""
    deal = view["deal_results"][deal_number - 1]
    text = f"{deal['score'][team]:+d} ({bags_text(deal['bags'][team])}"
    paid = view["deal_bag_penalties"][deal_number - 1][team]
    if paid:
        text += "; " + bag_penalty_words(paid, view["options"]["bag_penalty"], view["options"]["bag_limit"])
    return text + ")"


def score_table(view: View) -> Table:
    options = view["options"]
    table = Table(title=f"Score sheet ({options['target']} wins)", title_justify="left", show_edge=False,
                  pad_edge=False)
    table.add_column("deal", justify="right")
    table.add_column("bids", justify="left")
    table.add_column("tricks", justify="left")
    for team in (0, 1):
        table.add_column(side_name(view, team), justify="right")
    for i, deal in enumerate(view["deal_results"], 1):
        table.add_row(str(i), " ".join("-" if b is None else b for b in deal["bids"]),
                      " ".join(map(str, deal["tricks"])),
                      *(team_deal_text(view, i, team) for team in (0, 1)))
    table.add_row("total", "", "", *(Text(str(s), style="bold") for s in view["score_total"]), style="bold")
    return table


def trick_text(view: View, names: Sequence[str]) -> Text:
    out = Text("On the table: ", style="bold")
    if not view["trick"]:
        return out.append("(empty)", style="dim")
    for i, play in enumerate(view["trick"]):
        if i:
            out.append(" · ", style="dim")
        out.append(f"{seat_name(view, play['seat'], names)}: ").append_text(cards_text(play["cards"]))
    return out


def hand_text(view: View) -> Text:
    hand = Text("Your hand: ", style="bold")
    if view.get("hand_face_down"):   # a blind bid is still open: the engine sends no card
        count = view["hand_sizes"][view["seat"]]
        return hand.append(f"{count} cards, face down (you have not looked)", style="dim")
    return hand.append_text(cards_text(view["hand"] or [], sep="  "))


def table_view(view: View, names: Sequence[str], header: bool = True) -> RenderableType:
    """The whole screen for the seat whose view this is; ``header=False`` leaves
    out the header line (still on the screen just above when nothing has been
    played since it was printed)."""
    # the header carries the score and bags; the whole sheet: at each deal's start and on "sheet"
    parts: list[RenderableType] = [header_text(view, names)] if header else []
    parts.append(bids_text(view, names))
    if any(view["face_up_held"]):   # yours too: every player sees them (the page marks them)
        line = Text("Face-up cards: ")
        for seat, cards in enumerate(view["face_up_held"]):
            if cards:
                line.append(f"{seat_name(view, seat, names)} ").append_text(cards_text(cards)).append("  ")
        parts.append(line)
    status = Text(f"Tricks {view['tricks_won'][0]}–{view['tricks_won'][1]} · "
                  f"spades {'broken' if view['spades_broken'] else 'not broken'}")
    parts.append(status)
    last = view.get("last_trick")
    if last is not None:
        line = Text("Last trick: ", style="dim")
        for i, play in enumerate(last["plays"]):
            if i:
                line.append(" · ", style="dim")
            line.append(f"{seat_name(view, play['seat'], names)}: ").append_text(cards_text(play["cards"]))
        parts.append(line.append(f" → won by {seat_name(view, last['winner'], names)}", style="dim"))
    parts.append(trick_text(view, names))
    if view["hand"] is not None:
        parts.append(hand_text(view))
    return Group(*parts)


def turn_notes(view: View) -> list[Text]:
    notes = []
    if view.get("must_lead"):
        notes.append(Text("You must lead ").append_text(card_text(view["must_lead"])).append(", the lowest club."))
    if view["phase"] == "exchange":
        left = sum(1 for g in view["exchange_to_give"] if g == view["seat"])
        notes.append(Text(f"Double nil: give your partner {left} more card{'s' if left != 1 else ''}."))
    return notes


def deal_result_text(view: View, deal_number: int) -> Text:
    deal = view["deal_results"][deal_number - 1]
    out = Text(f"Deal {deal_number} is over: ", style="bold yellow")
    if "redeal" in deal["bids"]:
        seat = deal["bids"].index("redeal")
        who = "you" if seat == view["seat"] else f"seat {seat}"
        return out.append(f"{who} showed a weak hand; the same dealer deals again.")
    for team in (0, 1):
        out.append(f"{side_name(view, team)} {team_deal_text(view, deal_number, team)}")
        out.append("; " if team == 0 else ". ")
    return out.append("Totals: " + ", ".join(f"{side_name(view, t)} {view['score_total'][t]}" for t in (0, 1)))


def match_result_text(view: View) -> Text:
    winner = view.get("winner_team")
    if winner is None:
        return Text("The game is over.", style="bold")
    me = view["seat"]
    mine = me is not None and me % 2 == winner
    return Text(f"The game is over: {side_name(view, winner)} win "
                f"{view['score_total'][winner]} to {view['score_total'][1 - winner]}"
                + (" — you win!" if mine else "."), style="bold green" if mine else "bold red")


def _set_text(options: Mapping[str, Any]) -> str:
    """What a missed contract costs, as the options say (older records lack
    ``set_penalty_per``: the default)."""
    if not options["set_penalty"]:
        return "0"
    if options.get("set_penalty_per", "bid-trick") == "missing-trick":
        return "-10 a trick short"
    return "-10 a trick"


BROKEN_TEXT = {
    "any-spade": "A spade may not be led until one was played to an earlier trick (spades broken)",
    "trumping": "A spade may not be led until a spade has trumped a trick of another suit",
    "never": "A spade may not be led",
}


def _bid_lines(o: Mapping[str, Any]) -> list[str]:
    """The bidding rules in force: the numbers, nil, the blind bids, the variants' bids."""
    if o["mirror"]:
        return ["Spades: partners sit opposite (seats 0+2 and 1+3). Mirror: each player bids exactly "
                "the number of spades they hold (none: nil); a team's contract is the sum of its bids."]
    lines = [f"Spades: partners sit opposite (seats 0+2 and 1+3). Each player bids once, {o['min_bid']}–{HAND_SIZE} "
             "tricks" + (" or nil (take no trick)" if o["nil"] else "") + "; a team's contract is the sum of its bids"
             + (f", which must total {_span(o['min_team_bid'], o['max_team_bid'])}"
                if (o["min_team_bid"], o["max_team_bid"]) != (0, 2 * HAND_SIZE) else "") + "."]
    blind = [f"blind nil (±{o['blind_nil_points']})"] if o["blind_nil"] else []
    if o["double_nil"]:
        blind.append(f"double nil (±{o['double_nil_points']}; then each partner gives the other "
                     f"{o['exchange_cards']} cards)")
    if blind:
        who = f"A team {o['blind_nil_behind']}+ points behind" if o["blind_nil_behind"] else "Either team"
        lines.append(f"{who} may bid {' or '.join(blind)} before looking at the cards.")
    if o["bemo"]:
        lines.append("Bemo: " + "; ".join(f"{bid_label(k)} takes all of the first {n} tricks (±{v})"
                                          for k, (n, v) in BEMO.items())
                     + "; either counts as a bid of its tricks toward the team's contract"
                     + ("; one Bemo a team: once a player bids one, the partner may not." if o["bemo_one_per_team"]
                        else "."))
    if o["weak_hand_redeal"]:
        lines.append("Instead of bidding, a hand with no spade and no face card (J, Q, K) may be shown "
                     "for a redeal (bid redeal).")
    return lines


def _span(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo} to {hi}"


def _play_lines(o: Mapping[str, Any]) -> list[str]:
    """Dealing and playing: face-up cards, the first lead, trumps, breaking spades."""
    lines = []
    if o["face_up_cards"]:
        lines.append(f"The first {o['face_up_cards']} cards dealt to each player are face up.")
    if o["first_lead"] == "lowest-club":
        lines.append("The holder of the lowest club leads it to the first trick.")
    lines.append("Follow suit if you can; spades are trumps"
                 + (" (with the little and big joker above the ace; 2♣ and 2♦ are out)" if o["jokers"] else "")
                 + f". {BROKEN_TEXT[o['spades_broken_by']]}, unless you hold only spades.")
    return lines


def _score_lines(o: Mapping[str, Any]) -> list[str]:
    """Scoring and the game's end, each variant's rule included."""
    nils = []
    if o["nil"] or o["mirror"]:
        nils.append(f"nil ±{o['nil_points']}")
    if nils or o["blind_nil"] or o["double_nil"]:
        nils.append("a nil bidder's tricks are 1 point and 1 bag each" if o["nil_tricks"] == "bags"
                    else "a nil bidder's tricks count toward the contract")
    bags = f"every {o['bag_limit']} bags cost {o['bag_penalty']}" if o["bags"] else "bags cost nothing"
    lines = ["; ".join([f"Made contract: 10 a trick plus 1 a bag (overtrick); missed: {_set_text(o)}", *nils, bags])
             + "."]
    flat = []
    if o["wheels"]:
        flat.append(f"Wheels: when one player bids {WHEELS_CONTRACT}+, the team's contract scores ±{WHEELS_POINTS}."
                    if o.get("wheels_by") == "player" else
                    f"Wheels: a team contract of {WHEELS_CONTRACT}+ scores ±{WHEELS_POINTS}.")
    if o["boston"]:
        flat.append(f"Boston: a team contract of all {HAND_SIZE} tricks scores ±{BOSTON_POINTS}"
                    + (" and making it wins the game." if o["boston_wins_game"] else "."))
    if o["renege_penalty"]:
        flat.append("A team that fails to follow suit scores 0 for the deal and -10 a bid trick.")
    end = [f"{o['target']} points win"]
    if o["lose_at"] is not None:
        end.append(f"a team at or below {o['lose_at']} loses")
    if o["negative_target_loses"]:
        end.append(f"a team at or below -{o['target']} loses")
    if o["max_deals"] is not None:
        end.append(f"after {o['max_deals']} deal{'s' if o['max_deals'] != 1 else ''} the higher score wins")
    return lines + flat + ["; ".join(end) + " (equal scores play another deal)."]


def rule_summary(view: View) -> str:
    """The rules in force, built from the options (for ``help``): each variant's
    own rule too, since the terminal has no other place that says it."""
    o = view["options"]
    return "\n".join(_bid_lines(o) + _play_lines(o) + _score_lines(o))
