"""Kozel's observation encoder for the RL environments (every ruleset).

Seats are *relative*: row 0 is always the observing seat, row ``r`` the seat
``r`` places to its left (clockwise); sides likewise: side 0 is the observer's
team and side 1 the opponents, or with 2–3 players each side is one seat,
relative as seats are. Cards are indexed within the
ruleset's deck, suit-major (``C D H S``) with ranks low to high as written in
the deck (``9 T J Q K A``, ``7 8 9 T J Q K A`` or ``6 7 8 9 T J Q K A``), so
``QC`` is token 5 in a 32-card deck. Every value lies in ``[0, 1]``.

The observation fields (name, shape, meaning) are declared once, in
:meth:`KozelEncoder._fields`; ``docs/envs.md`` lists them, and
``encoder.layout.markdown()`` prints them with their offsets for a ruleset.

>>> from goat.games.kozel import new_state
>>> enc = make_encoder(new_state("classic").view(None))
>>> enc.num_tokens, enc.multi_token, enc.out_of_turn, enc.layout.size
(32, False, False, 526)
>>> enc.token_name(5)
'QC'
>>> street = make_encoder(new_state("street").view(None))
>>> street.num_tokens, street.multi_token, street.out_of_turn
(39, True, True)
>>> from goat.protocol import Action
>>> street.tokens(Action.parse("1 pass 7D+6C")), street.token_name(37)
((0, 10, 37), 'pass')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from goat.cards import Card
from goat.envs.layout import Field, Layout
from goat.games.kozel.rules import KozelRules
from goat.games.kozel.trumps import trump_order
from goat.protocol import Action

View = Mapping[str, Any]

#: For the OpenSpiel registration: the default ruleset and the seat counts.
DEFAULT_RULES = "classic"
PLAYERS = (2, 4)

SUITS = "CDHS"
PHASES = ("play", "partner-exchange", "forced-exchange")
TOTAL_POINTS = 120
#: Street's verb tokens, after the card tokens: a selection of cards ends with one of them.
STREET_VERBS = ("play", "pass", "molodka")
#: Cards a molodka puts into a street trick: four of a suit, whatever ``max_lead`` says,
#: and every seat that answers it beats or passes as many.
MOLODKA_CARDS = 4
#: The verb token street adds under ``partner_exchange=1``, after :data:`STREET_VERBS`
#: (the only ``give`` street has: its trump lead is free, so no forced exchange), so that
#: the usual street action space keeps its size.
GIVE_VERB = "give"


def stock_depth(place: int, stock_at_deal: int) -> float:
    """How deep a card lies in the stock, ``place`` cards above it: (place + 1) ÷ the
    stock at the deal (the next card drawn is 1 ÷ stock). The observation's
    ``trump_card_place`` and the global state's ``stock_order`` both say it so."""
    return (place + 1) / stock_at_deal


class KozelEncoder:
    """See the module docstring; built by :func:`make_encoder`."""

    game = "kozel"
    zero_sum = True

    def __init__(self, rules: KozelRules) -> None:
        self.rules = rules
        self.n = n = rules.players
        self.sides = rules.num_teams
        self.deck = rules.deck_cards
        self.index = {str(c): i for i, c in enumerate(self.deck)}
        self._token_of = {c: i for i, c in enumerate(self.deck)}  # by card: cards are interned
        d = self.deck_size = len(self.deck)
        self.max_tricks = d // n
        self.street = rules.trick_style == "street"
        #: ``trump_card_place="public"``: the shown card lies face up in the stock, so the
        #: views give its place and drawer, and the observation gains a field for them.
        self.trump_place_public = rules.shows_stock_card and rules.trump_card_place == "public"
        self.verbs: tuple[str, ...] = ()
        if self.street:
            self.verbs = STREET_VERBS + ((GIVE_VERB,) if rules.partner_exchange else ())
        self.num_tokens = d + len(self.verbs)
        self.multi_token = self.street
        self.out_of_turn = rules.molodka
        #: The most cards one seat puts into a trick (``table_passed``'s divisor): a
        #: street lead's ``max_lead``, but a molodka's four, and the answers to it, when
        #: ``molodka`` is on (``max_lead=2`` once gave ``table_passed`` values of 2).
        self.max_trick_cards = max(rules.max_lead, MOLODKA_CARDS) if rules.molodka else rules.max_lead
        if self.street:
            # Per trick at most: every seat picks up to that many cards and a verb,
            # and is asked for a molodka; one molodka restarts the trick once.
            per_trick = 2 * n * (self.max_trick_cards + 2)
        else:
            per_trick = n + 2  # one card each, plus a forced exchange (two gives)
        self.max_tokens_per_deal = self.max_tricks * per_trick + n  # + the partner exchange
        self._trumps: dict[str | None, np.ndarray] = {}
        self.layout = Layout(self._fields())

    # ------------------------------------------------------------------ layout
    def _fields(self) -> list[Field]:
        n, d, s = self.n, self.deck_size, self.sides
        return [
            Field("hand", (d,), "1 for each card in the observer's hand"),
            Field("known", (n - 1, d), "cards the observer knows seat r+1 holds: cards it gave that "
                  "seat, cards a molodka returned to that seat's hand (face up before), and "
                  "(trump_card_place='public') the shown trump card that seat drew; until seen in play"),
            Field("table", (n, d), "face-up cards of the current trick, by the seat that put them"),
            Field("table_passed", (n,), "face-down cards each seat put in the current trick ÷ max_lead "
                  "(÷ 4 when a molodka may put four cards in a trick)"),
            Field("played", (n, d), "face-up cards each seat played to finished tricks of this deal"),
            Field("passed", (d,), "cards the observer put face down this deal (street)"),
            Field("trump_card", (d,), "the shown trump card (full-hand, street), else zeros"),
            Field("trumps", (d,), "1 for every trump of this deal (permanent trumps and the trump suit)"),
            Field("trump_suit", (4,), "trump suit one-hot, C D H S"),
            Field("hand_sizes", (n,), "cards in each seat's hand ÷ hand_size"),
            Field("stock", (1,), "cards in the stock ÷ its size at the deal (0 without a stock)"),
            Field("leader", (n,), "seat that led the current trick (one-hot; zeros between tricks)"),
            Field("best", (n,), "seat whose card (street: set) currently wins the trick (one-hot)"),
            Field("to_act", (n,), "seat whose turn it is (one-hot; another seat may be offered a molodka)"),
            Field("dealer", (n,), "dealer of this deal (one-hot)"),
            Field("phase", (len(PHASES),), "phase one-hot: play, partner exchange, forced exchange"),
            Field("tricks", (s,), "tricks each side won this deal ÷ (deck ÷ players)"),
            Field("pile_points", (s,), "card points in each side's pile ÷ 120 (single-card "
                  "rulesets; zeros in street, where passed cards are hidden)"),
            Field("pile_sizes", (s,), "cards in each side's pile ÷ deck size"),
            Field("penalty", (s,), "penalty points of each side this match ÷ match_target (capped at 1)"),
            Field("flags", (6,), "[own side made the previous deal's opening lead (trump-lead rule), "
                  "own side made this deal's opening lead, own side led the previous trick, "
                  "eggs pending (next penalty doubled), a molodka was declared in this trick, "
                  "tricks played this deal ÷ (deck ÷ players)]"),
        ] + ([Field("trump_card_place", (1,), "trump_card_place='public' only: how deep the shown "
                    "trump card lies in the stock, (cards above it + 1) ÷ the stock at the deal; "
                    "0 once drawn (its drawer's `known` row then holds it)")]
             if self.trump_place_public else [])

    # ------------------------------------------------------------------ tokens
    def card_token(self, card: Card | str) -> int:
        return self.index[str(card)]

    def tokens(self, action: Action) -> tuple[int, ...]:
        cards = action.cards
        if len(cards) == 1:  # most actions: one card, nothing to sort
            cards = (self._token_of[cards[0]],)
        else:
            cards = tuple(sorted(self._token_of[c] for c in cards))
        if not self.street:
            return cards  # one card; the verb (play or give) follows from the phase
        return cards + (self.deck_size + self.verbs.index(action.verb),)

    def token_name(self, token: int) -> str:
        if 0 <= token < self.deck_size:
            return str(self.deck[token])
        if 0 <= token - self.deck_size < len(self.verbs):
            return self.verbs[token - self.deck_size]
        raise ValueError(f"no token {token}")

    # ----------------------------------------------------------- turn structure
    def offer_seats(self, public_view: View) -> list[int]:
        """Street: every seat that has not put cards in the current trick may
        declare a molodka after the lead, at most ``max_molodka_per_trick`` a
        trick; listed in the rules' priority order (nearer clockwise to the seat
        that *originally* led the trick first, as ``KozelState.molodka_priority``:
        after a molodka that seat may claim again, before the molodka player's left).
        The current player is listed too: only the seats before it are asked
        before it acts (before any molodka none are, as it is the nearest)."""
        rules = self.rules
        trick = public_view.get("trick") or []
        if (not rules.molodka or public_view.get("phase") != "play" or not trick
                or len(trick) >= self.n
                or public_view.get("molodkas_this_trick", 0) >= rules.max_molodka_per_trick):
            return []
        opened_by = public_view["trick_opened_by"]
        played = {p["seat"] for p in trick}
        order = [(opened_by + k) % self.n for k in range(self.n)]
        return [seat for seat in order if seat not in played]

    def _side(self, seat: int) -> int:
        return self.rules.team_of(seat)

    def scores(self, result: View) -> list[float]:
        """Penalty points as a zero-sum balance: each seat's side gets the mean
        penalty total of the other sides minus its own (the deal reward is its
        change: −2 for the losers of a classic deal, +2 for the winners)."""
        pen = result["penalty_total"]
        total, others = sum(pen), self.sides - 1
        return [float((total - pen[self._side(s)]) / others - pen[self._side(s)]) for s in range(self.n)]

    def utility_range(self, single_deal: bool) -> tuple[float, float]:
        if not single_deal:
            return (-1.0, 1.0)
        rules = self.rules
        worst = max(2, 6 if rules.penalty == "graded" else 2,
                    rules.shamok_penalty if rules.has_shamok and rules.shamok_catches_queen else 0)
        if rules.eggs == "double-next":
            worst *= 2
        return (-float(worst), float(worst))

    def describe(self, public_view: View) -> str:
        v = public_view
        lines = [(f"kozel {v['rules']}: deal {v['deal_number']}, dealer {v['dealer']}, "
                  f"phase {v['phase']}, to act {v['current_player']}, "
                  f"trump {v['trump_suit'] or '-'}, penalty {v['penalty_total']}")]
        if v["trick"]:
            plays = "  ".join(f"{p['seat']}:{'+'.join(p['cards']) if 'cards' in p else '?' * p['count']}"
                              for p in v["trick"])
            lines.append(f"trick: {plays}")
        if v["history"]:
            lines.append("last: " + v["history"][-1])
        return "\n".join(lines)

    # ------------------------------------------------------------------ encode
    def _trump_plane(self, suit: str | None) -> np.ndarray:
        plane = self._trumps.get(suit)
        if plane is None:
            plane = np.zeros(self.deck_size, dtype=np.float32)
            if suit is not None:
                order = trump_order(self.rules.permanent_trumps, self.rules.deck, suit, self.rules.jack_order)
                for i, card in enumerate(self.deck):
                    plane[i] = order.is_trump(card)
            self._trumps[suit] = plane
        return plane

    def encode(self, view: View, out: np.ndarray) -> None:
        f = self.layout.views(out)
        n, rules, index = self.n, self.rules, self.index
        me = view["seat"]
        side_me = self._side(me)

        def rel(seat: int) -> int:
            return (seat - me) % n

        def rel_side(side: int) -> int:
            return (side - side_me) % self.sides

        for c in view["hand"] or ():
            f["hand"][index[c]] = 1.0
        self._encode_history(view, me, f)
        for play in view["trick"]:
            r = rel(play["seat"])
            if "cards" in play and play["verb"] == "play":
                for c in play["cards"]:
                    f["table"][r, index[c]] = 1.0
            else:
                count = play["count"] if "cards" not in play else len(play["cards"])
                f["table_passed"][r] = count / self.max_trick_cards
        if view["trump_card"]:
            f["trump_card"][index[view["trump_card"]]] = 1.0
        suit = view["trump_suit"]
        f["trumps"][:] = self._trump_plane(suit)
        if suit:
            f["trump_suit"][SUITS.index(suit)] = 1.0
        for seat, size in enumerate(view["hand_sizes"]):
            f["hand_sizes"][rel(seat)] = min(1.0, size / rules.hand_size)
        if rules.stock_size:
            f["stock"][0] = view["stock_size"] / rules.stock_size
        if view["trick"]:
            f["leader"][rel(view["trick_leader"])] = 1.0
            f["best"][rel(view["trick"][view["trick_best"]]["seat"])] = 1.0
        if 0 <= view["current_player"] < n:
            f["to_act"][rel(view["current_player"])] = 1.0
        f["dealer"][rel(view["dealer"])] = 1.0
        if view["phase"] in PHASES:
            f["phase"][PHASES.index(view["phase"])] = 1.0
        points = view.get("pile_points")
        for side in range(self.sides):
            r = rel_side(side)
            f["tricks"][r] = view["tricks_won"][side] / self.max_tricks
            f["pile_sizes"][r] = view["pile_sizes"][side] / self.deck_size
            if points is not None:
                f["pile_points"][r] = points[side] / TOTAL_POINTS
            f["penalty"][r] = min(1.0, view["penalty_total"][side] / rules.match_target)
        flags = f["flags"]
        flags[0] = view["prev_opening_team"] == side_me
        flags[1] = view["opening_team"] == side_me
        flags[2] = view["prev_trick_leader_team"] == side_me
        flags[3] = bool(view["double_next"])
        flags[4] = view["molodkas_this_trick"] > 0
        flags[5] = min(1.0, view["tricks_played"] / self.max_tricks)
        if self.trump_place_public and view["trump_card_place"] is not None:
            if view["trump_card_drawn_by"] is None:
                drawn = rules.stock_size - view["stock_size"]
                f["trump_card_place"][0] = stock_depth(view["trump_card_place"] - drawn, rules.stock_size)

    def _encode_history(self, view: View, me: int, f: dict[str, np.ndarray]) -> None:
        """Replay this deal's history (hidden cards are ``?``) for what the
        observer has seen leave the game and what it knows others hold."""
        n, index = self.n, self.index
        known: list[set[str]] = [set() for _ in range(n)]
        played: list[set[str]] = [set() for _ in range(n)]
        passed: set[str] = set()
        seen: set[str] = set()  # every card the observer saw in an action of this deal
        trick: list[tuple[int, str, list[str]]] = []
        for text in view["history"]:
            seat_text, verb, rest = text.split(" ", 2)
            seat, cards = int(seat_text), rest.split("+")
            visible = [c for c in cards if c != "?"]
            seen.update(visible)
            for c in visible:
                known[seat].discard(c)
            if verb == "give":
                if seat == me and self.rules.partnerships:
                    known[(me + 2) % 4].update(visible)
                continue
            if verb == "molodka":  # the table goes back to the hands it came from
                for s, v, cs in trick:
                    if v == "play":
                        known[s].update(cs)
                    elif s == me:
                        passed.difference_update(cs)
                trick = []
            if verb == "pass" and seat == me:
                passed.update(visible)
            trick.append((seat, verb, visible))
            if len(trick) == n:
                for s, v, cs in trick:
                    if v != "pass":
                        played[s].update(cs)
                trick = []
        drawer = view.get("trump_card_drawn_by") if self.trump_place_public else None
        if drawer is not None and drawer != me and view["trump_card"] not in seen:
            known[drawer].add(view["trump_card"])  # drawn face up, not seen in play since
        for seat in range(n):
            r = (seat - me) % n
            for c in played[seat]:
                f["played"][r, index[c]] = 1.0
            if r:
                for c in known[seat]:
                    f["known"][r - 1, index[c]] = 1.0
        for c in passed:
            f["passed"][index[c]] = 1.0


def make_encoder(view: View) -> KozelEncoder:
    """The encoder for the ruleset of ``view`` (any Kozel view; the options are public)."""
    return KozelEncoder(KozelRules(name=view["rules"], **view["options"]))
