"""Kozel rulesets: rules are data.

A :class:`KozelRules` is a frozen dataclass of named options; the presets
``classic``, ``full-hand``, ``full-hand-24`` and ``street`` are just values of it
(``shared/rules/kozel.md``). The engine branches on options, never on a preset's
name, so a table can mix and match (e.g. ``street`` with ``penalty="flat2"``).

>>> r = make_rules("classic")
>>> r.players, r.deck, r.hand_size, r.stock_size, r.trump_suit
(4, '32', 4, 16, 'C')
>>> make_rules("full-hand", players=3).deck
'24'
>>> make_rules("street", options={"penalty": "flat2"}).penalty
'flat2'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from goat.cards import Card, make_deck
from goat.games.ruleset import (Need, build_rules, check_choice, check_maxima, forced_values, needs_met, option_names,
                                take_players)
from goat.protocol import RulesError

#: Kozel card points, whatever the suit or trump status. Every deck sums to 120.
CARD_POINTS = {"6": 0, "7": 0, "8": 0, "9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}

#: Rank order inside a suit, lowest to highest. Classic's plain order
#: ``7 8 9 K T A`` is this order once J and Q have become permanent trumps.
RANK_ORDER = "6789JQKTA"

#: Order of suits among the permanent jacks and queens, lowest to highest
#: (the jacks by default; the option `jack_order` may rank them otherwise).
PERMANENT_SUIT_ORDER = "DHSC"
#: The permanent jacks' suits, lowest to highest, by the ``jack_order`` option ([decision]).
JACK_SUIT_ORDERS = {"clubs-high": PERMANENT_SUIT_ORDER, "spades-high": "DHCS"}

DECK_RANKS = {"24": "9TJQKA", "32": "789TJQKA", "36": "6789TJQKA"}

SHAMOK = Card("7", "C")
QUEEN_OF_CLUBS = Card("Q", "C")

# Allowed values of each enumerated option: one place, used for validation,
# for `goat rules` style help and for the docs.
CHOICES: dict[str, tuple[Any, ...]] = {
    "deck": ("24", "32", "36"),
    "trump_suit": ("drawn", "C", "D", "H", "S"),
    "trick_style": ("single", "street"),
    "trump_lead": ("previous-opener", "not-after-own-lead", "opening-only", "free"),
    "tie": ("no-penalty", "annul"),
    "eggs": ("nothing", "double-next"),
    "penalty": ("flat2", "graded"),
    "opening_leader": ("dealer", "last-trick-winner"),
    "next_dealer": ("clockwise", "same"),
    "trump_card_from": ("deck", "stock"),
    "trump_card_place": ("hidden", "public"),
    "match_loser": ("most-penalty", "all-at-target"),
    "jack_order": tuple(JACK_SUIT_ORDERS),
    "trump_on_plain": ("when-void", "always"),
}

#: The options that can matter only under some values of others: option → {other
#: option: its values under which it can}, each checked against the code that
#: reads it. One place: ``applies`` answers from it, ``make_rules`` gives an option
#: that cannot matter its forced value or the ruleset's own (``ruleset.forced_values``),
#: and the catalog sends it to the create form, which shows an option's row only
#: while it can matter.
OPTION_NEEDS: dict[str, Need] = {
    "permanent_trumps": {"trick_style": ("single",)},                # street takes none (``validate``)
    "jack_order": {"permanent_trumps": (True,)},                     # only permanent jacks are ordered
    "shamok_catches_queen": {"permanent_trumps": (True,), "deck": ("32", "36")},   # ``has_shamok``
    "shamok_penalty": {"permanent_trumps": (True,), "deck": ("32", "36"), "shamok_catches_queen": (True,)},
    "trump_lead": {"trick_style": ("single",)},                      # single.py; street takes only "free"
    "must_follow_trump": {"trick_style": ("single",)},               # single.py: one-card following
    "trump_on_plain": {"trick_style": ("single",)},                  # street's beats have no following
    "forced_exchange": {"trick_style": ("single",)},                 # single.py's trump-lead swap
    "molodka": {"trick_style": ("street",)},                         # street.py only
    "max_molodka_per_trick": {"trick_style": ("street",), "molodka": (True,)},
    "max_lead": {"trick_style": ("street",)},                        # a one-card trick leads one card
    "trump_card_from": {"trump_suit": ("drawn",)},                   # deal.py: only a drawn trump is shown
    "trump_card_place": {"trump_suit": ("drawn",), "trump_card_from": ("stock",)},   # ``shows_stock_card``
}

#: The value an option of :data:`OPTION_NEEDS` takes where it stops mattering and
#: the player did not set it, wherever the rules allow it only that one value there
#: (``validate`` refuses any other: classic's trump lead and permanent trumps would
#: refuse the street tricks a player makes of it, street's molodka the one-card
#: tricks); any other such option keeps the ruleset's own value. One place: the
#: catalog sends it beside ``needs``, the create form counts it as a hidden row's
#: value (no permanent trumps hide the jacks' order) and sends nothing,
#: ``make_rules`` and ``applies`` put this value in (``ruleset.forced_values``).
OPTION_FALLBACKS: dict[str, Any] = {
    "trump_lead": "free",                                            # street: "no trump-lead rule applies"
    "permanent_trumps": False,                                       # street: none (and so no jacks' order)
    "molodka": False,                                                # one-card tricks: no restart
    "trump_on_plain": "when-void",                                   # street's beats have no following
    "trump_card_place": "hidden",                                    # only a card shown from the stock lies
}

#: The largest value of a whole-number option where a larger one makes no sense,
#: with why (the error says it): other counts are bounded by the deck or a list.
INT_MAXIMA: dict[str, tuple[int, str]] = {
    "match_target": (100, "a match to more penalty points does not end in a sitting"),
    "shamok_penalty": (100, "no match is played to more"),
    "max_molodka_per_trick": (4, "one a seat"),
}


@dataclass(frozen=True)
class KozelRules:
    """Every named option of a Kozel table. See ``docs/kozel-options.md``.

    Attributes:
        name: the preset this was made from (display only; never branched on).
        players: 2, 3 or 4; 4 plays in partnerships 0+2 and 1+3.
        deck: ``"24"`` (9–A), ``"32"`` (7–A) or ``"36"`` (6–A).
        hand_size: cards dealt to each seat; the rest is the stock.
        trump_suit: a fixed suit letter, or ``"drawn"`` (a random card shows it).
        trump_card_from: where the shown card comes from: the shuffled ``"deck"``
            (then shuffled back; full-hand) or the middle of the ``"stock"`` (street).
        trump_card_place: what the table knows of a card shown from the stock besides
            its identity — [decision]: ``"hidden"`` (the rules' words: it goes back to
            its place and only its identity is public, so it lies face down like the
            rest and nobody sees where nor who draws it) or ``"public"`` (it lies face
            up in its place: every view gives where and, once drawn, who drew it).
            Only with a card shown from the stock; ``"public"`` is refused otherwise.
        permanent_trumps: jacks, queens and the shamok ``7C`` are always trumps
            above the trump suit (classic, full-hand); off in street.
        jack_order: the order of the four permanent jacks — [decision]:
            ``"clubs-high"`` (``JD JH JS JC``, the queens' suit order, as the classic
            text gives it) or ``"spades-high"`` (``JD JH JC JS``: the full-hand text
            puts the jack of spades above the red jacks and the hearts above the
            diamonds, and does not place the clubs; here it stays below the spades,
            the most sensible reading).
        trick_style: ``"single"`` one card each, following suit; ``"street"``
            multi-card leads answered by beats or face-down passes.
        trump_lead: who may lead a trump (rule 2 of classic) — [decision].
        must_follow_trump: a trump lead must be followed with a trump — [decision].
        trump_on_plain: who may play a trump to a plain lead — [decision]:
            ``"when-void"`` (a player who holds the led suit follows it: the rules
            file's classic following) or ``"always"`` (the full-hand text: trumps
            "may be played to the trick whatever suit is led", so a player holding
            the led suit may follow it *or* trump; another plain suit still only
            when void). Single-card tricks only: street's beats have no following.
        forced_exchange: the trump-lead rule's swap with the partner (rule 3).
        shamok_catches_queen: ``7C`` and ``QC`` in one trick from two teams ends the deal.
        shamok_penalty: penalty points for the team that played ``QC`` (0 to 100).
        partner_exchange: cards each seat passes face down to its partner after the deal (0 or 1).
        royal_goat: all four aces in one hand after a deal or draw wins the match.
        tie: a 60–60 deal (or no one above 60 in individual play) gives
            ``"no-penalty"`` or is ``"annul"``-led and redealt by the same dealer.
        eggs: ``"nothing"`` or ``"double-next"``: penalty of the next decided deal doubled.
        penalty: ``"flat2"`` (losers get 2) or ``"graded"`` (street's 2/4/6).
        match_target: penalty points at which a team loses the match (1 to 100).
        match_loser: who is the goat when several players of individual play reach
            ``match_target`` in one deal — [decision]: ``"most-penalty"`` (the most
            penalty points; players level at the top are goats together) or
            ``"all-at-target"`` (every player at or over the target).
        opening_leader: ``"dealer"`` leads first, or ``"last-trick-winner"`` of the
            previous deal (the first deal: the seat left of the dealer).
        next_dealer: ``"clockwise"`` ([decision]) or ``"same"``.
        molodka: street's out-of-turn four-card restart.
        max_molodka_per_trick: [decision] 1 (0 to 4, one a seat).
        max_lead: the most cards a street lead may hold.
    """

    name: str = "custom"
    players: int = 4
    deck: str = "32"
    hand_size: int = 4
    trump_suit: str = "C"
    trump_card_from: str = "deck"
    trump_card_place: str = "hidden"
    permanent_trumps: bool = True
    jack_order: str = "clubs-high"
    trick_style: str = "single"
    trump_lead: str = "previous-opener"
    must_follow_trump: bool = True
    trump_on_plain: str = "when-void"
    forced_exchange: bool = True
    shamok_catches_queen: bool = True
    shamok_penalty: int = 4
    partner_exchange: int = 0
    royal_goat: bool = False
    tie: str = "no-penalty"
    eggs: str = "nothing"
    penalty: str = "flat2"
    match_target: int = 12
    match_loser: str = "most-penalty"
    opening_leader: str = "dealer"
    next_dealer: str = "clockwise"
    molodka: bool = False
    max_molodka_per_trick: int = 1
    max_lead: int = 4
    # Derived, not options:
    deck_cards: tuple[Card, ...] = field(init=False, repr=False, compare=False)
    #: The deck as a set and its aces: built once, the engine checks every deal
    #: (and every draw, for the royal goat) against them.
    deck_set: frozenset[Card] = field(init=False, repr=False, compare=False)
    aces: frozenset[Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        deck = make_deck(DECK_RANKS.get(self.deck, ""))
        object.__setattr__(self, "deck_cards", deck)
        object.__setattr__(self, "deck_set", frozenset(deck))
        object.__setattr__(self, "aces", frozenset(c for c in deck if c.rank == "A"))
        self.validate()

    # ------------------------------------------------------------------ checks
    def validate(self) -> None:
        """Raise :class:`RulesError` naming the first bad option."""
        for name, allowed in CHOICES.items():
            check_choice(name, getattr(self, name), allowed)
        for name in ("must_follow_trump", "forced_exchange", "shamok_catches_queen",
                     "royal_goat", "permanent_trumps", "molodka"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"option {name} must be true or false, not {getattr(self, name)!r}", "optionBool",
                                 option=name, value=getattr(self, name))
        for name in ("players", "hand_size", "shamok_penalty", "partner_exchange",
                     "match_target", "max_molodka_per_trick", "max_lead"):
            value = getattr(self, name)
            least = 1 if name == "match_target" else 0   # a match must have a target to reach
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise RulesError(f"option {name} must be a whole number >= {least}, not {value!r}", "optionAtLeast",
                                 option=name, value=value, least=least)
        check_maxima(self, INT_MAXIMA)
        if self.players not in (2, 3, 4):
            raise RulesError(f"option players={self.players} is not allowed (2, 3 or 4)", "playersNotAllowed",
                             players=self.players, allowed=[2, 3, 4])
        if self.hand_size < 1 or self.players * self.hand_size > len(self.deck_cards):
            raise RulesError(
                f"option hand_size={self.hand_size}: {self.players} hands of {self.hand_size} "
                f"do not fit a {self.deck}-card deck", "kozelHandsFit",
                players=self.players, hand_size=self.hand_size, deck=self.deck,
            )
        if len(self.deck_cards) % self.players:
            # every trick takes as many cards from each player: the last ones would be
            # left with a player who must follow but holds nothing (the deal stands still)
            raise RulesError(f"option deck={self.deck}: {len(self.deck_cards)} cards do not share out "
                             f"evenly among {self.players} players", "kozelDeckShare",
                             deck=self.deck, players=self.players)
        if self.partner_exchange not in (0, 1):
            raise RulesError(f"option partner_exchange={self.partner_exchange} is not allowed (0 or 1)", "optionRange",
                             option="partner_exchange", value=self.partner_exchange, least=0, most=1)
        if self.partner_exchange and not self.partnerships:
            raise RulesError("option partner_exchange needs 4 players in partnerships", "kozelPartnerExchange",
                             option="partner_exchange")
        if not 1 <= self.max_lead <= 4:
            raise RulesError(f"option max_lead={self.max_lead} is not allowed (1 to 4)", "optionRange",
                             option="max_lead", value=self.max_lead, least=1, most=4)
        if self.trick_style == "street" and self.permanent_trumps:
            raise RulesError("option trick_style='street' needs permanent_trumps=false", "optionNeeds",
                             option="trick_style", set="street", needs="permanent_trumps", value=False)
        if self.trick_style == "street" and self.trump_lead != "free":
            raise RulesError("option trump_lead must be 'free' with trick_style='street' "
                             "(street leads are sets of cards; no trump-lead rule applies)", "optionNeeds",
                             option="trick_style", set="street", needs="trump_lead", value="free")
        if self.trump_on_plain != "when-void" and self.trick_style != "single":
            raise RulesError(f"option trump_on_plain={self.trump_on_plain!r} needs trick_style='single' "
                             "(street's beats and passes have no following)", "optionNeeds",
                             option="trump_on_plain", set=self.trump_on_plain, needs="trick_style", value="single")
        if self.molodka and self.trick_style != "street":
            raise RulesError("option molodka needs trick_style='street'", "optionNeeds",
                             option="molodka", set=True, needs="trick_style", value="street")
        if self.shows_stock_card and self.stock_size == 0:
            raise RulesError("option trump_card_from='stock' needs a stock (hand_size too large)", "kozelNoStock",
                             hand_size=self.hand_size, players=self.players, deck=self.deck)
        if self.trump_card_place != "hidden" and not self.shows_stock_card:
            raise RulesError(f"option trump_card_place={self.trump_card_place!r} needs trump_suit='drawn' and "
                             "trump_card_from='stock' (only a card shown from the stock has a place there)",
                             "kozelCardPlace", option="trump_card_place", value=self.trump_card_place)

    # ----------------------------------------------------------------- derived
    @property
    def partnerships(self) -> bool:
        """True when seats 0+2 and 1+3 play as teams."""
        return self.players == 4

    @property
    def num_teams(self) -> int:
        return 2 if self.partnerships else self.players

    def team_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    @property
    def stock_size(self) -> int:
        return len(self.deck_cards) - self.players * self.hand_size

    @property
    def shows_stock_card(self) -> bool:
        """True when the trump card is shown from the middle of the stock (street)
        and goes back there: only then has it a place in the stock and a drawer."""
        return self.trump_suit == "drawn" and self.trump_card_from == "stock"

    @property
    def has_shamok(self) -> bool:
        return self.permanent_trumps and SHAMOK in self.deck_set

    def options(self) -> dict[str, Any]:
        """All options as a JSON-able dict (what a record's ``options`` may hold)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.init and f.name != "name"}

    def applies(self, option: str, values: dict[str, Any] | None = None) -> bool:
        """Whether ``option`` can matter at this player count under the options
        ``values`` (laid over this ruleset's own): the exchanges with a partner
        need partnerships, ``match_loser`` needs three players (only they can reach
        the target together), and each option of :data:`OPTION_NEEDS` the values
        of the others it names (the jacks' order permanent trumps, molodka street
        tricks, ...), where an option that cannot matter counts as its
        :data:`OPTION_FALLBACKS` value, else as this ruleset's own, as in the create
        form (:func:`~goat.games.ruleset.forced_values`: street tricks take the
        permanent trumps, and so the jacks' order, with them).

        >>> make_rules("full-hand", players=3).applies("partner_exchange"), make_rules("classic").applies("match_loser")
        (False, False)
        >>> make_rules("classic").applies("molodka"), make_rules("classic").applies("molodka", {"trick_style": "street"})
        (False, True)
        >>> make_rules("classic").applies("jack_order", {"trick_style": "street"})
        False
        """
        values = forced_values(OPTION_NEEDS, OPTION_FALLBACKS, self.options(), values or {})
        return self.seats_allow(option) and needs_met(OPTION_NEEDS, option, values)

    def seats_allow(self, option: str) -> bool:
        """Whether ``option`` can matter at this player count under some values of
        the others (the catalog offers these; the form shows each while
        :data:`OPTION_NEEDS` holds)."""
        if option in ("partner_exchange", "forced_exchange"):
            return self.partnerships
        if option == "match_loser":
            return self.players == 3
        return True

    def differences_from(self, other: "KozelRules") -> dict[str, Any]:
        """Options whose value differs from ``other`` (a record's ``options``)."""
        mine, theirs = self.options(), other.options()
        return {k: v for k, v in mine.items() if theirs.get(k) != v}


def _classic() -> dict[str, Any]:
    return dict(players=4, deck="32", hand_size=4, trump_suit="C", permanent_trumps=True,
                trick_style="single", trump_lead="previous-opener", shamok_catches_queen=True,
                partner_exchange=0, royal_goat=False, tie="no-penalty", penalty="flat2",
                opening_leader="dealer")


def _full_hand(players: int) -> dict[str, Any]:
    base = _classic() | dict(trump_suit="drawn", trump_card_from="deck", royal_goat=True,
                             tie="annul", partner_exchange=1 if players == 4 else 0)
    if players == 4:
        return base | dict(players=4, deck="32", hand_size=8)
    if players == 3:
        return base | dict(players=3, deck="24", hand_size=8)
    if players == 2:
        return base | dict(players=2, deck="32", hand_size=8)
    raise RulesError(f"players={players} is not allowed for full-hand (2, 3 or 4)", "playersNotAllowed",
                     players=players, allowed=[2, 3, 4])


def _full_hand_24(players: int) -> dict[str, Any]:
    if players != 4:
        raise RulesError(f"players={players} is not allowed for full-hand-24 (4)", "playersNotAllowed",
                         players=players, allowed=[4])
    return _full_hand(4) | dict(deck="24", hand_size=6)


def _street(players: int) -> dict[str, Any]:
    if players != 4:
        raise RulesError(f"players={players} is not allowed for street (4)", "playersNotAllowed",
                         players=players, allowed=[4])
    return dict(players=4, deck="36", hand_size=4, trump_suit="drawn", trump_card_from="stock",
                permanent_trumps=False, trick_style="street", trump_lead="free",
                shamok_catches_queen=False, partner_exchange=0, royal_goat=False,
                tie="no-penalty", penalty="graded", opening_leader="last-trick-winner",
                molodka=True)


PRESETS = {
    "classic": lambda players: _classic() if players == 4 else _bad_players("classic", players),
    "full-hand": _full_hand,
    "full-hand-24": _full_hand_24,
    "street": _street,
}
DEFAULT_PLAYERS = {"classic": 4, "full-hand": 4, "full-hand-24": 4, "street": 4}


def _bad_players(preset: str, players: int) -> dict[str, Any]:
    raise RulesError(f"players={players} is not allowed for {preset} (4)", "playersNotAllowed",
                     players=players, allowed=[4])


OPTION_NAMES = option_names(KozelRules)


def make_rules(preset: str = "classic", players: int | None = None,
               options: dict[str, Any] | None = None) -> KozelRules:
    """Build a ruleset from a preset name, a player count and option overrides.

    Raises :class:`RulesError` (one line) for an unknown preset or option, or a
    value out of range.
    """
    if preset not in PRESETS:
        raise RulesError(f"unknown Kozel ruleset {preset!r} (one of {', '.join(PRESETS)})", "unknownRules",
                         rules=preset, rulesets=list(PRESETS))
    players, options = take_players(players, options)
    if players is None:
        players = DEFAULT_PLAYERS[preset]
    if not isinstance(players, int) or isinstance(players, bool):
        raise RulesError(f"players must be a whole number, not {players!r}", "optionWhole",
                         option="players", value=players)
    return build_rules(KozelRules, "Kozel", preset, PRESETS[preset](players), options, OPTION_NEEDS,
                       OPTION_FALLBACKS)
