"""The Kozel game state: a whole match, deal after deal (or one deal).

Implements :class:`goat.protocol.GameState`. A typical loop:

>>> import random
>>> from goat.games.kozel import new_state
>>> from goat.protocol import CHANCE
>>> state = new_state("classic", first_dealer=0)
>>> state.current_player() == CHANCE
True
>>> state.apply_chance(state.sample_chance(random.Random(7)))
>>> state.current_player()          # the dealer leads in classic
0
>>> all(a.seat == 0 for a in state.legal_actions())
True

Every refusal is an :class:`IllegalActionError` whose ``reason`` names the seat
and the rule, and the state is left exactly as it was (checking happens in
:meth:`KozelState.check_action` before anything is changed).
"""

from __future__ import annotations

import random
from typing import Any

from goat.cards import Card
from goat.games.kozel.deal import KozelDeal
from goat.games.kozel.phases import (
    DEAL,
    ENDED_BY,
    FORCED_RETURN,
    OVER,
    PARTNER_EXCHANGE,
    PLAY,
    TablePlay,
)
from goat.games.kozel.phases import sort_for_display as _sorted
from goat.games.kozel.rules import QUEEN_OF_CLUBS, SHAMOK, KozelRules
from goat.games.kozel.scoring import card_points, deal_penalty, match_losers
from goat.games.kozel.single import SingleCardTricks
from goat.games.kozel.street import StreetTricks
from goat.games.kozel.trumps import TrumpOrder, trump_order
from goat.games.kozel.view import KozelViews
from goat.games.tricks import draw_to, left_of
from goat.games.tricks.phases import PhaseTurns
from goat.protocol import (
    Action,
    CheckedActions,
    check_rng,
    GoatError,
    IllegalActionError,
    InvalidChanceError,
    require_action,
    results_copy,
)

__all__ = ["DEAL", "ENDED_BY", "FORCED_RETURN", "OVER", "PARTNER_EXCHANGE", "PLAY", "KozelState",
           "TablePlay"]


class KozelState(PhaseTurns, CheckedActions, SingleCardTricks, StreetTricks, KozelViews):
    """A Kozel match in progress. Create with :func:`goat.games.kozel.new_state`."""

    game_name = "kozel"

    def __init__(self, rules: KozelRules, first_dealer: int = 0, single_deal: bool = False) -> None:
        if not isinstance(first_dealer, int) or not 0 <= first_dealer < rules.players:
            raise GoatError(f"first_dealer must be a seat 0..{rules.players - 1}, not {first_dealer!r}")
        self.rules = rules
        self.num_players = rules.players
        # Facts of the rules that every play asks (the rules never change in a state).
        self._street = rules.trick_style == "street"
        self._catch_rule = rules.shamok_catches_queen and rules.has_shamok
        self._teams = tuple(rules.team_of(seat) for seat in range(rules.players))   # team_of, looked up
        self.single_deal = single_deal
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        teams = rules.num_teams
        self.penalty_total = [0] * teams
        #: One entry a finished deal: the fields of the record's ``result`` deals, plus
        #: ``"eggs"`` (``"tie"`` or ``"doubled"``) where ``eggs="double-next"`` acted.
        self.deal_results: list[dict[str, Any]] = []
        self.match_over = False
        self.loser_team: int | None = None
        self.double_next = False
        self.prev_opening_team: int | None = None
        self.last_trick_winner: int | None = None
        #: ``last_trick_winner`` as the current deal started: an annulled deal is
        #: replayed, so its own last trick must not pick the replay's leader.
        self.last_trick_winner_before_deal: int | None = None
        #: One entry a deal: {"deal": KozelDeal, "actions": [Action], "private": [frozenset|None]}
        self.logs: list[dict[str, Any]] = []
        self.phase = DEAL
        self._reset_deal_fields()

    def _reset_deal_fields(self) -> None:
        n, teams = self.rules.players, self.rules.num_teams
        self.order: TrumpOrder | None = None
        self.trump_card: Card | None = None
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []
        self.piles: list[list[Card]] = [[] for _ in range(teams)]
        self.tricks_won = [0] * teams
        self.tricks_by_seat = [0] * n
        self.trick: list[TablePlay] = []
        self.trick_leader = 0
        #: Who led the trick before any molodka restarted it (street's molodka
        #: priority counts from this seat; ``trick_leader`` moves to a molodka player).
        self.trick_opened_by = 0
        self.best_index = 0
        self.to_act = 0
        self.opening_team: int | None = None
        self.tricks_played = 0
        self.prev_trick_leader_team: int | None = None
        self.molodkas = 0
        self.pending_gives: list[tuple[int, Card]] = []
        self.forced: tuple[int, int, Card] | None = None  # (leader, partner, card given)
        self.must_lead: Card | None = None
        self.last_trick: dict[str, Any] | None = None
        self.drawn: list[list[Card]] = [[] for _ in range(n)]  # each seat's draws this deal, in order
        #: A trump card shown from the stock: its index in the stock as dealt (top
        #: first), and the seat that drew it, once drawn. Views give them only under
        #: ``trump_card_place="public"`` (it lies face up there); else nobody knows them.
        self.trump_card_place: int | None = None
        self.trump_card_drawn_by: int | None = None

    # ================================================================ protocol
    def team_of(self, seat: int) -> int:
        return self._teams[seat]

    def partner_of(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.rules.partnerships else None

    # ---------------------------------------------------------------- chance
    def sample_chance(self, rng: random.Random) -> KozelDeal:
        """Shuffle and deal from ``rng`` (only at a chance node)."""
        check_rng(rng)
        if self.phase != DEAL:
            raise GoatError("no deal is due now")
        return KozelDeal.shuffle(self.rules, self.dealer, rng)

    def apply_chance(self, outcome: KozelDeal) -> None:
        """Start the next deal with ``outcome`` (validated against the rules)."""
        if self.phase != DEAL:
            raise InvalidChanceError("no deal is due now" + (": the match is over" if self.phase == OVER else ""))
        if not isinstance(outcome, KozelDeal):  # a record's deal is read by chance_from_json first
            raise InvalidChanceError(f"not a Kozel deal: {outcome!r} (sample_chance or chance_from_json makes one)")
        outcome.validate(self.rules)
        self._start_deal(outcome)

    def _start_deal(self, outcome: KozelDeal) -> None:
        """Start a deal already validated against the rules (``apply_chance``
        after its checks; the world sampler, whose deals are the deck dealt
        into slots, calls it directly)."""
        self._reset_deal_fields()
        rules = self.rules
        self.hands = [list(h) for h in outcome.hands]
        self.stock = list(outcome.stock)
        self.trump_card = outcome.trump_card
        if outcome.trump_card is not None and rules.trump_card_from == "stock":
            self.trump_card_place = self.stock.index(outcome.trump_card)
        self.order = trump_order(rules.permanent_trumps, rules.deck, outcome.trump_suit(rules), rules.jack_order)
        self.logs.append({"deal": outcome, "dealer": self.dealer, "actions": [], "private": []})
        self.last_trick_winner_before_deal = self.last_trick_winner
        if self._royal_goat_check():
            return
        self.phase = PLAY
        self.to_act = self.trick_leader = self._opening_leader()
        if rules.partner_exchange:
            self.phase = PARTNER_EXCHANGE
            self.to_act = left_of(self.dealer, rules.players)

    def _opening_leader(self) -> int:
        if self.rules.opening_leader == "dealer":
            return self.dealer
        if self.last_trick_winner is not None:
            return self.last_trick_winner
        return left_of(self.dealer, self.rules.players)

    # --------------------------------------------------------------- actions
    def legal_actions(self) -> list[Action]:
        """Every action any seat may take now, current player's first.

        Only street's molodka can come from a seat other than
        :meth:`current_player`.
        """
        if self.phase in (DEAL, OVER):
            return []
        seat = self.to_act
        hand = self.hands[seat]
        if self.phase == PARTNER_EXCHANGE:
            return [Action(seat, "give", (c,)) for c in _sorted(hand)]
        if self.phase == FORCED_RETURN:
            plain = [c for c in hand if not self.order.is_trump(c)]
            return [Action(seat, "give", (c,)) for c in _sorted(plain)]
        if self.rules.trick_style == "street":
            return self._street_actions(seat) + self._molodka_actions()
        return self._single_actions(seat)

    def apply_action(self, action: Action) -> None:
        """Apply a legal action; an illegal one raises and changes nothing."""
        kind = self._check(action)
        self._log(action, kind)
        if kind == "play":
            self._apply_play(action)
        elif kind == "partner-give":
            self._apply_partner_give(action)
        elif kind == "forced-give":
            self._apply_forced_give(action)
        elif kind == "forced-return":
            self._apply_forced_return(action)
        elif kind == "molodka":
            self._apply_molodka(action)
        else:
            self._apply_play(action)

    def apply_trusted(self, action: Action) -> None:
        """Apply an action the caller already knows to be legal here — one of
        :meth:`legal_actions`, or a move of a history that was validated when it
        was played and is now replayed on cards that fit it — without checking
        it again.

        Why: search bots apply hundreds of thousands of such actions a decision
        (rollouts, world replays) and :meth:`_check` was about a fifth of each.
        The result is exactly :meth:`apply_action`'s for a legal action; for an
        illegal one it is undefined, so anything from outside (a player, a
        record) goes through :meth:`apply_action`. Between deals it refuses like
        :meth:`apply_action` does."""
        phase = self.phase
        verb = action.verb
        if verb == "molodka":
            self._log(action, "molodka")
            self._apply_molodka(action)
        elif phase == PLAY:
            if verb == "give":   # single-card tricks' forced exchange (street has none)
                self._log(action, "forced-give")
                self._apply_forced_give(action)
            else:
                self._log(action, "play")
                self._apply_play(action)
        elif phase == PARTNER_EXCHANGE:
            self._log(action, "partner-give")
            self._apply_partner_give(action)
        elif phase == FORCED_RETURN:
            self._log(action, "forced-return")
            self._apply_forced_return(action)
        else:
            self.apply_action(action)   # DEAL or OVER: the same one-line refusal

    # ============================================================ validation
    def _check(self, action: Action) -> str:
        """Validate and classify ``action``; the single gate every action passes."""
        require_action(action)
        seat, verb, cards = action.seat, action.verb, action.cards
        n = self.rules.players
        phase = self.phase
        if phase == OVER:
            raise IllegalActionError(action, "game-over", f"seat {seat} cannot act: the match is over")
        if phase == DEAL:
            raise IllegalActionError(action, "no-deal", f"seat {seat} cannot act: the cards have not been dealt yet")
        if not 0 <= seat < n:
            raise IllegalActionError(action, "seat", f"there is no seat {seat} (seats 0..{n - 1})")
        if verb == "molodka":
            self._check_molodka(action)
            return "molodka"
        if seat != self.to_act:
            raise IllegalActionError(action, "turn", f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        self._check_cards_held(action)
        if phase == PLAY and self._street:   # the common case first
            self._check_street(action)
            return "play"
        if phase == PARTNER_EXCHANGE:
            self._expect_verb(action, "give", "give one card face down to their partner")
            self._expect_count(action, 1)
            return "partner-give"
        if phase == FORCED_RETURN:
            self._expect_verb(action, "give", "give a plain card back to their partner")
            self._expect_count(action, 1)
            if self.order.is_trump(cards[0]):
                raise IllegalActionError(action, "forced-exchange",
                                         f"seat {seat} must give back a plain card, not the trump {cards[0]}")
            return "forced-return"
        if self.rules.trick_style == "street":
            self._check_street(action)
            return "play"
        return self._check_single(action)

    def _check_cards_held(self, action: Action) -> None:
        cards = action.cards
        if action.verb == "bid":
            raise IllegalActionError(action, "verb", f"seat {action.seat} cannot bid in Kozel")
        if not cards:
            raise IllegalActionError(action, "syntax", f"seat {action.seat} names no card")
        if len(cards) > 1 and len(set(cards)) != len(cards):
            raise IllegalActionError(action, "duplicate-card", f"seat {action.seat} names a card twice")
        hand = self.hands[action.seat]
        for c in cards:
            if c not in hand:
                raise IllegalActionError(action, "card-in-hand", f"seat {action.seat} does not hold {c}")

    @staticmethod
    def _expect_verb(action: Action, verb: str, what: str) -> None:
        if action.verb != verb:
            raise IllegalActionError(action, "verb", f"seat {action.seat} must {what} now, not {action.verb}")

    @staticmethod
    def _expect_count(action: Action, count: int) -> None:
        if len(action.cards) != count:
            raise IllegalActionError(
                action, "card-count",
                f"seat {action.seat} must use exactly {count} card{'s' if count != 1 else ''}, "
                f"not {len(action.cards)}")

    # ============================================================= appliers
    def _log(self, action: Action, kind: str) -> None:
        log = self.logs[-1]
        log["actions"].append(action)
        private: frozenset[int] | None = None
        if kind == "play" or kind == "molodka":
            if action.verb == "pass":
                private = frozenset({action.seat})
        elif kind in ("partner-give", "forced-give", "forced-return"):
            private = frozenset({action.seat, self.partner_of(action.seat)})
        elif action.verb == "pass":
            private = frozenset({action.seat})
        log["private"].append(private)

    def _apply_partner_give(self, action: Action) -> None:
        seat, card = action.seat, action.cards[0]
        self.hands[seat].remove(card)
        self.pending_gives.append((seat, card))
        if len(self.pending_gives) < self.rules.players:
            self.to_act = left_of(seat, self.rules.players)
            return
        for giver, given in self.pending_gives:
            partner = self.partner_of(giver)
            self.hands[partner].append(given)
        self.pending_gives = []
        self.phase = PLAY
        self.to_act = self.trick_leader = self._opening_leader()

    def _apply_forced_give(self, action: Action) -> None:
        seat, card = action.seat, action.cards[0]
        partner = self.partner_of(seat)
        self.hands[seat].remove(card)
        self.hands[partner].append(card)
        self.forced = (seat, partner, card)
        self.phase = FORCED_RETURN
        self.to_act = partner

    def _apply_forced_return(self, action: Action) -> None:
        seat, card = action.seat, action.cards[0]
        leader = self.forced[0]
        self.hands[seat].remove(card)
        self.hands[leader].append(card)
        self.must_lead = card
        self.forced = None
        self.phase = PLAY
        self.to_act = leader

    def _apply_molodka(self, action: Action) -> None:
        for play in self.trick:  # every card on the table goes back where it came from
            self.hands[play.seat].extend(play.cards)
        self.trick = []
        self.molodkas += 1
        self.trick_leader = action.seat  # play continues clockwise from the molodka player
        self._put_on_table(TablePlay(action.seat, "play", action.cards))

    def _apply_play(self, action: Action) -> None:
        if not self.trick:
            self.trick_leader = self.trick_opened_by = action.seat
            self.must_lead = None
            if self.opening_team is None:
                self.opening_team = self.team_of(action.seat)
        self._put_on_table(TablePlay(action.seat, action.verb, action.cards))

    def _put_on_table(self, play: TablePlay) -> None:
        hand = self.hands[play.seat]
        for c in play.cards:
            hand.remove(c)
        trick = self.trick
        trick.append(play)
        n = self.rules.players
        size = len(trick)
        if size == 1:
            self.best_index = 0
        elif play.verb == "play":
            if self._street:
                self.best_index = size - 1  # a legal beat always takes over
            elif self.order.beats(play.cards[0], trick[self.best_index].cards[0]):
                self.best_index = size - 1
        if self._catch_rule and self._shamok_caught():
            return
        if size < n:
            self.to_act = (play.seat + 1) % n   # left of the player
            return
        self._finish_trick()

    def _shamok_caught(self) -> bool:
        rules = self.rules
        if not self._catch_rule:
            return False
        # Checked after every play: only the play just made can complete a catch.
        last = self.trick[-1].cards
        if len(last) != 1 or (last[0] is not SHAMOK and last[0] is not QUEEN_OF_CLUBS):
            return False
        shamok = queen = None  # the seats that played them alone (a later play counts)
        for p in self.trick:
            if p.verb == "play" and len(p.cards) == 1:
                if p.cards[0] is SHAMOK:
                    shamok = p.seat
                elif p.cards[0] is QUEEN_OF_CLUBS:
                    queen = p.seat
        if shamok is not None and queen is not None:
            shamok_team, queen_team = self.team_of(shamok), self.team_of(queen)
            if shamok_team != queen_team:
                # The catching trick is the deal's last trick, and nothing beats 7C:
                # its player is that trick's winner even though the trick stops here
                # (street's leader rule, opening_leader="last-trick-winner", reads it).
                self.last_trick_winner = shamok
                penalty = [0] * rules.num_teams
                penalty[queen_team] = rules.shamok_penalty
                self._end_deal("shamok-caught-queen", penalty, winner_team=shamok_team)
                return True
        return False

    def _finish_trick(self) -> None:
        trick = self.trick
        winner = trick[self.best_index].seat
        team = self.team_of(winner)
        pile = self.piles[team]
        for play in trick:
            pile.extend(play.cards)
        self.tricks_won[team] += 1
        self.tricks_by_seat[winner] += 1
        self.last_trick = {
            "leader": self.trick_leader,
            "winner": winner,
            "plays": trick,   # the state starts a new list for the next trick (below)
        }
        self.prev_trick_leader_team = self.team_of(self.trick_leader)
        self.tricks_played += 1
        self.trick = []
        self.molodkas = 0
        self.last_trick_winner = winner
        draws = draw_to(self.hands, self.stock, winner, self.rules.hand_size)
        for seat, card in draws:
            self.drawn[seat].append(card)
            if card == self.trump_card and self.trump_card_place is not None:
                self.trump_card_drawn_by = seat
        if draws and self._royal_goat_check():  # "after the deal, or after any draw"
            return
        if not self.stock and not any(self.hands):
            self._score_deal()
            return
        self.to_act = self.trick_leader = winner

    # ============================================================ deal end
    def _royal_goat_check(self) -> bool:
        if not self.rules.royal_goat:
            return False
        aces = self.rules.aces
        for seat, hand in enumerate(self.hands):
            if aces <= set(hand):
                winner = self.team_of(seat)
                self._end_deal("royal-goat", [0] * self.rules.num_teams, winner_team=winner,
                               match_winner=winner)
                return True
        return False

    def _points(self) -> list[int]:
        return [card_points(p) for p in self.piles]

    def _score_deal(self) -> None:
        points = self._points()
        score = deal_penalty(self.rules, points, self.tricks_won)
        if score.tie:
            eggs = None
            if self.rules.eggs == "double-next":
                self.double_next, eggs = True, "tie"
            ended = "annulled" if self.rules.tie == "annul" else "cards-exhausted"
            self._end_deal(ended, score.penalty, winner_team=None, eggs=eggs)
        else:
            self._end_deal("cards-exhausted", score.penalty, winner_team=score.winner_team)

    def _end_deal(self, ended_by: str, penalty: list[int], winner_team: int | None,
                  match_winner: int | None = None, eggs: str | None = None) -> None:
        """Write the deal's result and add its penalty. ``eggs`` is ``"tie"``
        for a 60–60 deal under ``eggs="double-next"``; a decided deal that pays
        a doubling owed by one is marked ``"doubled"`` here. The mark is the
        only place that says so (score sheets, the page and the terminal read
        it), and it stays out of :meth:`result`, whose fields are the records'
        contract."""
        rules = self.rules
        decided = ended_by not in ("annulled",) and winner_team is not None
        if decided and self.double_next and any(penalty):
            penalty = [2 * p for p in penalty]
            self.double_next, eggs = False, "doubled"
        counted = ended_by != "shamok-caught-queen" and ended_by != "royal-goat"
        deal: dict[str, Any] = {
            "points": self._points() if counted else [0] * rules.num_teams,
            "tricks": list(self.tricks_won),
            "penalty": list(penalty),
            "ended_by": ended_by,
            "winner_team": winner_team,
        }
        if eggs is not None:
            deal["eggs"] = eggs
        self.deal_results.append(deal)
        for team, p in enumerate(penalty):
            self.penalty_total[team] += p
        if ended_by != "annulled":
            if self.opening_team is not None:
                self.prev_opening_team = self.opening_team
        else:   # replayed as if it never happened: the same seat leads it again
            self.last_trick_winner = self.last_trick_winner_before_deal
        self.trick = []
        if match_winner is not None:
            self.match_over = True
            others = [t for t in range(rules.num_teams) if t != match_winner]
            self.loser_team = others[0] if len(others) == 1 else None
        elif goats := match_losers(rules, self.penalty_total):
            # Several goats (individual play): no single loser; the deal's winner
            # won the match, as with a royal goat among three.
            self.match_over = True
            self.loser_team = goats[0] if len(goats) == 1 else None
        if self.match_over or (self.single_deal and ended_by != "annulled"):
            self.phase = OVER
            return
        if ended_by != "annulled" and rules.next_dealer == "clockwise":
            self.dealer = left_of(self.dealer, rules.players)
        self.phase = DEAL

    # ============================================================== results
    def points(self) -> list[int]:
        """Card points in each side's pile so far this deal."""
        return self._points()

    def returns(self) -> list[float]:
        """+1 / −1 per seat when the match is over (the loser's seats −1, the
        others share +1 each; in individual play the winners split the loss so the
        sum is zero). In single-deal games: the deal's penalty balance per seat."""
        n, rules = self.rules.players, self.rules
        if self.phase != OVER:
            return [0.0] * n
        if self.single_deal and not self.match_over:
            pen = self.deal_results[-1]["penalty"] if self.deal_results else [0] * rules.num_teams
            sides = rules.num_teams
            mean_other = [(sum(pen) - pen[t]) / (sides - 1) for t in range(sides)]
            return [float(mean_other[self.team_of(s)] - pen[self.team_of(s)]) for s in range(n)]
        sides = rules.num_teams
        if self.loser_team is not None:
            value = [1.0 / (sides - 1)] * sides
            value[self.loser_team] = -1.0
        else:  # 3 individual players, one winner and two goats (a royal goat, or both at the target)
            winner = self.deal_results[-1]["winner_team"]
            value = [-1.0 / (sides - 1)] * sides
            value[winner] = 1.0
        return [value[self.team_of(s)] for s in range(n)]

    def result(self) -> dict[str, Any]:
        """The record's ``result`` object (``shared/spec/records.md``)."""
        deals = [{k: v for k, v in d.items() if k != "eggs"} for d in results_copy(self.deal_results)]
        if self.phase in (PLAY, PARTNER_EXCHANGE, FORCED_RETURN):
            deals.append({
                "points": self._points(),
                "tricks": list(self.tricks_won),
                "penalty": [0] * self.rules.num_teams,
                "ended_by": "unfinished",
                "winner_team": None,
            })
        return {
            "deals": deals,
            "penalty_total": list(self.penalty_total),
            "match_over": self.match_over,
            "loser_team": self.loser_team,
        }

    def deal_log(self) -> list[dict[str, Any]]:
        """The record's ``deals`` array: every deal's cards and actions so far."""
        return [log["deal"].to_json() | {"actions": [str(a) for a in log["actions"]]}
                for log in self.logs]

    # ================================================================ clone
    def clone(self) -> KozelState:
        """An independent copy (cheaper than ``copy.deepcopy``)."""
        other = object.__new__(KozelState)
        other.__dict__.update(self.__dict__)
        other.penalty_total = list(self.penalty_total)
        other.deal_results = [dict(d) for d in self.deal_results]
        other.logs = [{"deal": log["deal"], "dealer": log["dealer"], "actions": list(log["actions"]),
                       "private": list(log["private"])} for log in self.logs]
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.piles = [list(p) for p in self.piles]
        other.tricks_won = list(self.tricks_won)
        other.tricks_by_seat = list(self.tricks_by_seat)
        other.trick = list(self.trick)
        other.pending_gives = list(self.pending_gives)
        other.drawn = [list(d) for d in self.drawn]
        return other

    def __repr__(self) -> str:
        return (f"KozelState(rules={self.rules.name!r}, deal={len(self.logs)}, phase={self.phase!r}, "
                f"to_act={self.current_player()}, penalty={self.penalty_total})")


