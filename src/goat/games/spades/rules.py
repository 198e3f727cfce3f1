"""Spades rulesets: rules are data (``shared/rules/spades.md``).

A :class:`SpadesRules` is a frozen dataclass of named options. The standard game
(``standard``, also reachable as ``spades``, the rules file's name for it) and
every named variant of the rules file's table are presets — values of it — and the
engine branches on options only, so variants combine freely
(``--option jokers=true`` with ``--rules bemo``).

>>> r = make_rules("standard")
>>> r.target, r.blind_nil, r.blind_nil_behind, r.double_nil, r.nil_tricks
(500, True, 100, False, 'bags')
>>> make_rules("joker-trumps").jokers, make_rules("no-early-spades").spades_broken_by
(True, 'trumping')
>>> make_rules("standard", options={"lose_at": -200}).lose_at
-200
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from goat.cards import Card, make_deck
from goat.games.ruleset import (Need, build_rules, check_choice, check_maxima, forced_values, needs_met, option_names,
                                take_players)
from goat.protocol import RulesError

#: Tricks in a deal, and cards in each hand.
HAND_SIZE = 13
#: The wheels variant ("10 for 200"): a team contract of at least this many tricks...
WHEELS_CONTRACT = 10
#: ...scores this much when made and loses it when missed.
WHEELS_POINTS = 200
#: Boston: a team bid of all 13 tricks scores this much (made) or loses it (missed).
BOSTON_POINTS = 200
#: Bemo bids: the tricks at the start of the deal the team must all win, and the points.
BEMO = {"little-bemo": (6, 60), "big-bemo": (9, 90)}

CHOICES: dict[str, tuple[Any, ...]] = {
    "nil_tricks": ("bags", "contract"),
    "spades_broken_by": ("any-spade", "trumping", "never"),
    "first_lead": ("left-of-dealer", "lowest-club"),
    "set_penalty_per": ("bid-trick", "missing-trick"),
    "wheels_by": ("team", "player"),
}

_BOOLS = ("negative_target_loses", "set_penalty", "bags", "nil", "blind_nil", "double_nil",
          "weak_hand_redeal", "wheels", "mirror", "jokers", "boston", "boston_wins_game", "bemo",
          "bemo_one_per_team", "renege_penalty")
_INTS = ("players", "target", "bag_limit", "bag_penalty", "nil_points", "blind_nil_behind",
         "blind_nil_points", "double_nil_points", "exchange_cards", "face_up_cards", "min_bid",
         "min_team_bid", "max_team_bid")
_OPTIONAL_INTS = ("lose_at", "max_deals")

#: The most points a game is played to: the bound of every option counted in points.
MOST_POINTS = 1000
#: The largest value of a whole-number option where a larger one makes no sense,
#: with why (the error says it): the bid and card counts are bounded by the hand.
INT_MAXIMA: dict[str, tuple[int, str]] = {
    "target": (MOST_POINTS, "a game to more points does not end in a sitting"),
    "max_deals": (1000, "a time limit of more deals is no limit"),
    "bag_limit": (100, "no game collects more bags"),
    "bag_penalty": (MOST_POINTS, f"a game is played to at most {MOST_POINTS} points"),
    "nil_points": (MOST_POINTS, f"a game is played to at most {MOST_POINTS} points"),
    "blind_nil_points": (MOST_POINTS, f"a game is played to at most {MOST_POINTS} points"),
    "double_nil_points": (MOST_POINTS, f"a game is played to at most {MOST_POINTS} points"),
    "blind_nil_behind": (MOST_POINTS, "to bar blind nil, set blind_nil=false"),
}
#: The options that refine another and do nothing without it: option → {other
#: option: its values under which it can matter}, each checked against the code
#: that reads it (scoring.py, bids.py, state.py). One place: ``applies`` answers
#: from it, ``make_rules`` gives an option that cannot matter its forced value or the
#: ruleset's own (``ruleset.forced_values``), and the create form shows an option's
#: row only while it can matter. A list
#: is any of its needs (``ruleset.Need``).
OPTION_NEEDS: dict[str, Need] = {
    "bag_limit": {"bags": (True,)},                 # scoring: only ``if rules.bags``
    "bag_penalty": {"bags": (True,)},
    "set_penalty_per": {"set_penalty": (True,)},    # set_loss is counted only under set_penalty
    "nil_points": {"nil": (True,)},                 # no nil bid without nil
    "blind_nil_points": {"blind_nil": (True,)},
    "double_nil_points": {"double_nil": (True,)},
    "exchange_cards": {"double_nil": (True,)},      # only a double nil exchanges
    # bids.py offers a blind bid, blind nil or double nil, only to a team this far behind
    "blind_nil_behind": [{"blind_nil": (True,)}, {"double_nil": (True,)}],
    "boston_wins_game": {"boston": (True,)},
    "wheels_by": {"wheels": (True,)},
    "bemo_one_per_team": {"bemo": (True,)},
}

#: The value an option of :data:`OPTION_NEEDS` takes where it cannot matter and the
#: player did not set it, wherever the rules allow it only that one value there
#: (``validate`` refuses a refinement of a bid that is off); any other such option
#: keeps the ruleset's own value. One place: the catalog sends it beside ``needs``,
#: the create form counts it as a hidden row's value, ``make_rules`` and
#: ``applies`` put it in (``ruleset.forced_values``), so a preset that turned one
#: of these on would still let a player turn its bid off.
OPTION_FALLBACKS: dict[str, Any] = {
    "boston_wins_game": False,
    "wheels_by": "team",
    "bemo_one_per_team": False,
}

#: The lowest ``lose_at``, with why: the mirror of the largest ``target``.
LEAST_LOSE_AT = (-MOST_POINTS, "a game to a lower score does not end in a sitting")


@dataclass(frozen=True)
class SpadesRules:
    """Every named option of a Spades table. See ``docs/spades.md``.

    Attributes:
        name: the preset this was made from (display only; never branched on).
        players: always 4, in partnerships 0+2 and 1+3.
        target: points that win the game (after a deal; equal scores play on; 1 to 1000).
        lose_at: a team at or below this loses (``None``: off; the source's variant is −200);
            −1000 to −1: below 0, the score both teams start at (at 0 or above both would have
            "lost" before a card was dealt, and the first deal decided the game).
        negative_target_loses: ``negative-reverse``: a team at or below −target loses.
        max_deals: the time limit as a number of played deals, 1 to 1000 (``None``: none);
            then the higher score wins.
        set_penalty: a missed contract costs 10 per bid trick (off: it scores 0).
        set_penalty_per: what a missed contract's 10 points are counted on:
            ``"bid-trick"`` (the whole contract, the rules file) or
            ``"missing-trick"`` (only the tricks short of it: the seed's literal
            wording, "10 очков за каждую взятку ниже суммы ставки"). A flat
            wheels or Boston value is lost whole either way.
        bags: every 10 bags cost 100 points and 10 bags.
        bag_limit, bag_penalty: the 10 and the 100 of the bag rule (1 to 100, 0 to 1000).
        nil: a bid of nil (0) is allowed.
        nil_points: what a nil wins or loses (0 to 1000, as every points option).
        blind_nil: a nil bid before looking at the hand is allowed...
        blind_nil_behind: ...to a team at least this many points behind — [decision];
            0: to any team, the one ahead too (at most 1000: ``blind_nil`` bars it).
        blind_nil_points: what a blind nil wins or loses (the source: 100).
        double_nil: the ``double-nil`` bid: a blind nil followed by an exchange
            of ``exchange_cards`` cards with the partner.
        double_nil_points: what a double nil wins or loses.
        exchange_cards: cards each partner gives in a double nil's exchange.
        nil_tricks: ``"bags"``: only non-nil bidders' tricks count toward the
            team's contract, and each trick a nil bidder takes is 1 point and 1 bag
            — [decision]; ``"contract"``: they count toward the contract (OpenSpiel).
        weak_hand_redeal: a player with no spades and no face cards may show the
            hand and ask for a redeal instead of bidding.
        spades_broken_by: what allows spade leads: ``"any-spade"`` played to an
            earlier trick (standard), ``"trumping"`` — a spade played to a trick led
            in another suit (``no-early-spades``), or ``"never"`` (only a hand of
            nothing but spades may lead one; OpenSpiel's engine).
        first_lead: ``"left-of-dealer"`` leads anything but a spade, or the
            ``"lowest-club"`` holder leads that club (``low-club-lead``).
        face_up_cards: the first N cards dealt to each player are public (``face-up-four``: 4).
        wheels: a team contract of 10+ scores ±200 (``wheels``).
        wheels_by: what must reach 10 for wheels: ``"team"``, the team's
            contract (the rules file's "a bid of 10+" read as the team's bid) —
            [decision]; ``"player"``, one player's own bid (the seed's literal
            wording: "игрок делает ставку на победу в 10 раундах", a player
            bids to win 10 tricks). Either way the team's whole contract is
            then worth the flat ±200.
        mirror: every bid must equal the spades held (``mirror``).
        jokers: big and little joker are the top trumps, 2C and 2D leave (``joker-trumps``).
        min_bid: the lowest number bid (nil aside).
        min_team_bid, max_team_bid: bounds on a team's two bids together
            (``partnership-fourteen``: exactly 7; OpenSpiel: at most 13).
        boston: a team contract of all 13 tricks scores ±200 (``boston``)...
        boston_wins_game: ...and making it wins the game.
        bemo: the ``little-bemo`` (first 6 tricks, ±60) and ``big-bemo`` (first 9, ±90) bids.
        bemo_one_per_team: a Bemo is the team's one bet (the seed: "ваша команда
            делает ставку", your team bets) — [decision]: once a seat bid Bemo,
            its partner may not bid either Bemo; off, each partner may bid one
            and each scores on its own.
        renege_penalty: for imported human records: a card that fails to follow
            suit is accepted (though never among the legal actions offered) and
            the team scores 0 for the deal and −10 per bid trick.
    """

    name: str = "custom"
    players: int = 4
    target: int = 500
    lose_at: int | None = None
    negative_target_loses: bool = False
    max_deals: int | None = None
    set_penalty: bool = True
    set_penalty_per: str = "bid-trick"
    bags: bool = True
    bag_limit: int = 10
    bag_penalty: int = 100
    nil: bool = True
    nil_points: int = 100
    blind_nil: bool = True
    blind_nil_behind: int = 100
    blind_nil_points: int = 100
    double_nil: bool = False
    double_nil_points: int = 200
    exchange_cards: int = 3
    nil_tricks: str = "bags"
    weak_hand_redeal: bool = False
    spades_broken_by: str = "any-spade"
    first_lead: str = "left-of-dealer"
    face_up_cards: int = 0
    wheels: bool = False
    wheels_by: str = "team"
    mirror: bool = False
    jokers: bool = False
    min_bid: int = 1
    min_team_bid: int = 0
    max_team_bid: int = 26
    boston: bool = False
    boston_wins_game: bool = False
    bemo: bool = False
    bemo_one_per_team: bool = False
    renege_penalty: bool = False
    # Derived, not options:
    deck_cards: tuple[Card, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        deck = make_deck("23456789TJQKA")
        if self.jokers is True:
            deck = tuple(c for c in deck if str(c) not in ("2C", "2D")) + (Card("L", "J"), Card("B", "J"))
        object.__setattr__(self, "deck_cards", deck)
        self.validate()

    # ------------------------------------------------------------------ checks
    def validate(self) -> None:
        """Raise :class:`RulesError` naming the first bad option."""
        for name, allowed in CHOICES.items():
            check_choice(name, getattr(self, name), allowed)
        for name in _BOOLS:
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"option {name} must be true or false, not {getattr(self, name)!r}", "optionBool",
                                 option=name, value=getattr(self, name))
        for name in _INTS + _OPTIONAL_INTS:
            value = getattr(self, name)
            if value is None and name in _OPTIONAL_INTS:
                continue
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"option {name} must be a whole number{' or null' if name in _OPTIONAL_INTS else ''}, "
                                 f"not {value!r}", "optionWhole", option=name, value=value)
        for name in ("target", "bag_limit", "bag_penalty", "nil_points", "blind_nil_points",
                     "double_nil_points", "blind_nil_behind", "face_up_cards", "min_team_bid"):
            if getattr(self, name) < 0:
                raise RulesError(f"option {name} must be >= 0, not {getattr(self, name)}", "optionAtLeast",
                                 option=name, value=getattr(self, name), least=0)
        if self.players != 4:
            raise RulesError(f"option players={self.players} is not allowed (Spades is played by 4)",
                             "playersNotAllowed", players=self.players, allowed=[4])
        if self.target < 1 or self.bag_limit < 1:
            raise RulesError("options target and bag_limit must be at least 1", "optionAtLeast",
                             option="target" if self.target < 1 else "bag_limit",
                             value=self.target if self.target < 1 else self.bag_limit, least=1)
        check_maxima(self, INT_MAXIMA)
        least, why = LEAST_LOSE_AT
        if self.lose_at is not None and self.lose_at < least:
            raise RulesError(f"option lose_at={self.lose_at} is too low (at least {least}: {why})", "optionAtLeast",
                             option="lose_at", value=self.lose_at, least=least)
        if self.lose_at is not None and self.lose_at >= 0:
            raise RulesError(f"option lose_at={self.lose_at} must be below 0, e.g. -200 (both teams start at 0, "
                             f"already at or below {self.lose_at} before the first deal)", "spadesLoseAt",
                             option="lose_at", value=self.lose_at)
        if self.max_deals is not None and self.max_deals < 1:
            raise RulesError(f"option max_deals={self.max_deals} must be at least 1 (or null: no limit)",
                             "optionAtLeast", option="max_deals", value=self.max_deals, least=1)
        if not 1 <= self.exchange_cards <= HAND_SIZE:
            raise RulesError(f"option exchange_cards={self.exchange_cards} is not allowed (1 to {HAND_SIZE})",
                             "optionRange", option="exchange_cards", value=self.exchange_cards, least=1, most=HAND_SIZE)
        if self.face_up_cards > HAND_SIZE:
            raise RulesError(f"option face_up_cards={self.face_up_cards} is not allowed (0 to {HAND_SIZE})",
                             "optionRange", option="face_up_cards", value=self.face_up_cards, least=0, most=HAND_SIZE)
        if not 1 <= self.min_bid <= HAND_SIZE:
            raise RulesError(f"option min_bid={self.min_bid} is not allowed (1 to {HAND_SIZE}; nil is option nil)",
                             "optionRange", option="min_bid", value=self.min_bid, least=1, most=HAND_SIZE)
        if not self.min_team_bid <= self.max_team_bid <= 2 * HAND_SIZE:
            raise RulesError(f"options min_team_bid={self.min_team_bid} and max_team_bid={self.max_team_bid} "
                             f"must satisfy 0 <= min_team_bid <= max_team_bid <= {2 * HAND_SIZE}", "spadesTeamBids",
                             least=self.min_team_bid, most=self.max_team_bid, top=2 * HAND_SIZE)
        # An option that refines another does nothing alone: said, not silently ignored.
        if self.boston_wins_game and not self.boston:
            raise RulesError("option boston_wins_game=true needs boston=true (without it there is no Boston bid "
                             "to make)", "optionNeeds", option="boston_wins_game", set=True, needs="boston", value=True)
        if self.wheels_by != "team" and not self.wheels:
            raise RulesError(f"option wheels_by={self.wheels_by!r} needs wheels=true (without it no bid of 10+ "
                             "scores ±200)", "optionNeeds", option="wheels_by", set=self.wheels_by, needs="wheels",
                             value=True)
        if self.bemo_one_per_team and not self.bemo:
            raise RulesError("option bemo_one_per_team=true needs bemo=true (without it there is no Bemo bid "
                             "to limit)", "optionNeeds", option="bemo_one_per_team", set=True, needs="bemo", value=True)
        if self.mirror:
            clash = [n for n in ("blind_nil", "double_nil", "bemo", "weak_hand_redeal") if getattr(self, n)]
            if clash or self.min_team_bid > 0 or self.max_team_bid < 2 * HAND_SIZE or self.min_bid > 1:
                raise RulesError("option mirror forces every bid (the spades held): it cannot be combined "
                                 f"with {', '.join(clash) or 'bid limits'} (set them off)",
                                 "spadesMirrorClash" if clash else "spadesMirrorBidLimits", option="mirror",
                                 options=clash)
            if not self.nil:
                raise RulesError("option mirror makes a hand without spades bid nil: it cannot be combined "
                                 "with nil=false", "spadesMirrorNil", option="mirror", needs="nil")
        if not self._team_bid_possible():
            blind_only = self._team_bid_possible(blind=True)
            raise RulesError(f"no two bids make a team total between {self.min_team_bid} and {self.max_team_bid} "
                             f"(min_bid={self.min_bid}, nil={str(self.nil).lower()})"
                             + ("; a blind bid would, but only a team behind may make one" if blind_only else ""),
                             "spadesNoTeamBidBlind" if blind_only else "spadesNoTeamBid",
                             least=self.min_team_bid, most=self.max_team_bid)
        if not self._team_bid_possible(blind=True, most=HAND_SIZE):
            raise RulesError(f"no team could ever make its contract: every team total these options allow is more "
                             f"than the {HAND_SIZE} tricks of a deal (min_bid={self.min_bid}, "
                             f"min_team_bid={self.min_team_bid})", "spadesNoContract", tricks=HAND_SIZE)

    def _team_bid_possible(self, blind: bool | None = None, most: int | None = None) -> bool:
        """Whether some two bids of a team total ``min_team_bid`` to ``max_team_bid``
        (two Bemos only where a team may bid both), and at most ``most`` tricks
        if given: a table where every team total is more than a deal's tricks could
        never make a contract, each deal costing both teams, and never end."""
        plain, bemo = self.bid_values(blind), self.bemo_values()
        pairs = [(plain, plain), (plain, bemo)] + ([] if self.bemo_one_per_team else [(bemo, bemo)])
        top = self.max_team_bid if most is None else min(self.max_team_bid, most)
        return any(self.min_team_bid <= a + b <= top for xs, ys in pairs for a in xs for b in ys)

    # ----------------------------------------------------------------- derived
    def bemo_values(self) -> set[int]:
        """Trick counts a Bemo bid adds to the team's contract (none without ``bemo``)."""
        return {n for n, _ in BEMO.values()} if self.bemo else set()

    def bid_values(self, blind: bool | None = None) -> set[int]:
        """Trick counts a player's number or nil bid can add to the team's two
        bids (nil kinds add 0; the Bemo bids apart: :meth:`bemo_values`).

        Blind bids count only where every team may always make them
        (``blind_nil_behind=0``; ``blind=True`` counts them anyway): the check that
        some team total is reachable must hold at the first deal, when nobody is
        behind — else the first bidder of a table whose only fitting bid is blind
        nil would have no legal bid at all.
        """
        if blind is None:
            blind = self.blind_nil_behind == 0
        values = set(range(self.min_bid, HAND_SIZE + 1))
        if self.nil or (blind and (self.blind_nil or self.double_nil)):
            values.add(0)
        return values

    @property
    def num_teams(self) -> int:
        return 2

    @staticmethod
    def team_of(seat: int) -> int:
        return seat % 2

    @property
    def hand_size(self) -> int:
        return HAND_SIZE

    def options(self) -> dict[str, Any]:
        """All options as a JSON-able dict (what a record's ``options`` may hold)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.init and f.name != "name"}

    def applies(self, option: str, values: dict[str, Any] | None = None) -> bool:
        """Whether ``option`` can matter under the options ``values`` (laid over
        this ruleset's own): each option of :data:`OPTION_NEEDS` needs the option
        it refines on, where an option that cannot matter counts as the one
        value the rules force there (:data:`OPTION_FALLBACKS`), else as this ruleset's
        own, as in the create form (:func:`~goat.games.ruleset.forced_values`).

        >>> make_rules("standard").applies("double_nil_points"), make_rules("standard").applies("bag_limit")
        (False, True)
        """
        return needs_met(OPTION_NEEDS, option,
                         forced_values(OPTION_NEEDS, OPTION_FALLBACKS, self.options(), values or {}))


STANDARD: dict[str, Any] = {}

#: Every preset: the standard game and each named variant of ``spades.md`` as an option set.
PRESETS: dict[str, dict[str, Any]] = {
    "standard": STANDARD,
    "spades": STANDARD,          # the rules file's name for the standard game
    "no-early-spades": {"spades_broken_by": "trumping"},
    "face-up-four": {"face_up_cards": 4},
    "wheels": {"wheels": True},
    "mirror": {"mirror": True, "blind_nil": False},
    "joker-trumps": {"jokers": True},
    "partnership-fourteen": {"min_bid": 2, "nil": False, "blind_nil": False,
                             "min_team_bid": 7, "max_team_bid": 7},
    "low-club-lead": {"first_lead": "lowest-club"},
    "boston": {"boston": True},
    "bemo": {"bemo": True},
    "negative-reverse": {"negative_target_loses": True},
}

OPTION_NAMES = option_names(SpadesRules)


def make_rules(preset: str = "standard", players: int | None = None,
               options: dict[str, Any] | None = None) -> SpadesRules:
    """Build a ruleset from a preset name and option overrides.

    Raises :class:`RulesError` (one line) for an unknown preset or option, or a
    value out of range.
    """
    if preset not in PRESETS:
        raise RulesError(f"unknown Spades ruleset {preset!r} (one of {', '.join(PRESETS)})", "unknownRules",
                         rules=preset, rulesets=list(PRESETS))
    values = dict(PRESETS[preset])
    players, options = take_players(players, options)
    if players is not None:
        values["players"] = players
    return build_rules(SpadesRules, "Spades", preset, values, options, OPTION_NEEDS, OPTION_FALLBACKS)
