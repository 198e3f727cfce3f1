"""Single-card tricks (classic, full-hand): who may lead a trump, the forced
exchange, and the follow rules. Mixed into :class:`~goat.games.kozel.state.KozelState`."""

from __future__ import annotations

from goat.cards import Card
from goat.games.kozel.phases import sort_for_display as _sorted
from goat.games.kozel.trumps import TRUMP, suit_label
from goat.games.tricks import must_follow
from goat.protocol import Action, IllegalActionError


def shows_void(led_trump: bool, played_trump: bool, must_follow_trump: bool,
               trump_on_plain: str) -> bool:
    """Does a card of another effective suit than the lead's prove that its
    player holds none of the led suit? Always for a plain card on a plain lead;
    for a trump on a plain lead unless ``trump_on_plain="always"`` (then a player
    holding the suit may trump); on a trump lead only if trumps must be followed.
    One rule for everything that reads a view (the bots' knowledge, the world
    sampler).

    >>> shows_void(False, True, True, "when-void"), shows_void(False, True, True, "always")
    (True, False)
    >>> shows_void(False, False, True, "always"), shows_void(True, False, False, "always")
    (True, False)
    """
    if led_trump:
        return must_follow_trump
    return not (played_trump and trump_on_plain == "always")


class SingleCardTricks:
    """Rules 1–5 of classic Kozel: leads, the trump-lead rule, following."""

    def _lead_restriction(self, seat: int) -> str | None:
        """Why ``seat`` may not lead a trump now (``None``: it may)."""
        rule = self.rules.trump_lead
        if rule == "free":
            return None
        if self.tricks_played == 0:
            return "the opening lead of a deal must be a plain card"
        if rule == "opening-only":
            return None
        team = self.team_of(seat)
        if rule == "previous-opener" and self.prev_opening_team == team:
            who = f"team {team}" if self.rules.partnerships else f"seat {seat}"
            return f"{who} made the opening lead of the previous deal"
        if rule == "not-after-own-lead" and self.prev_trick_leader_team == team:
            who = "their team" if self.rules.partnerships else "they"
            return f"{who} led the previous trick"
        return None

    def _forced_exchange_possible(self, seat: int) -> bool:
        partner = self.partner_of(seat)
        return (self.rules.forced_exchange and partner is not None
                and any(not self.order.is_trump(c) for c in self.hands[partner]))

    def _single_actions(self, seat: int) -> list[Action]:
        hand = _sorted(self.hands[seat])
        if not self.trick:
            if self.must_lead is not None:
                return [Action(seat, "play", (self.must_lead,))]
            if self._lead_restriction(seat):
                plain = [c for c in hand if not self.order.is_trump(c)]
                if plain:
                    return [Action(seat, "play", (c,)) for c in plain]
                if self._forced_exchange_possible(seat):
                    return [Action(seat, "give", (c,)) for c in hand]
            return [Action(seat, "play", (c,)) for c in hand]
        led = self.order.suit_of(self.trick[0].cards[0])
        follow = self._followers(hand, led)
        return [Action(seat, "play", (c,)) for c in (follow or hand)]

    def _followers(self, hand: list[Card], led: str) -> list[Card]:
        """The cards ``hand`` may play to a lead of ``led`` when it may not play any
        (``[]``: any card): the led suit, with ``trump_on_plain="always"`` and a
        plain lead its trumps too."""
        if led == TRUMP and not self.rules.must_follow_trump:
            return []
        follow = must_follow(hand, led, self.order.suit_of)
        if follow and led != TRUMP and self.rules.trump_on_plain == "always":
            return [c for c in hand if c in follow or self.order.is_trump(c)]
        return follow

    def _check_single(self, action: Action) -> str:
        seat, card = action.seat, action.cards[0]
        hand = self.hands[seat]
        if not self.trick:
            restriction = self._lead_restriction(seat) if self.must_lead is None else None
            plain = [c for c in hand if not self.order.is_trump(c)] if restriction else []
            must_exchange = restriction and not plain and self._forced_exchange_possible(seat)
            if action.verb == "give":
                self._expect_count(action, 1)
                if not must_exchange:
                    raise IllegalActionError(action, "forced-exchange",
                                             f"seat {seat} may give a card only in a forced exchange "
                                             "(leading with only trumps when a trump lead is barred)")
                return "forced-give"
            self._expect_verb(action, "play", "lead a card")
            self._expect_count(action, 1)
            if self.must_lead is not None and card != self.must_lead:
                raise IllegalActionError(action, "forced-exchange",
                                         f"seat {seat} must lead {self.must_lead}, the card received in the exchange")
            if must_exchange:
                raise IllegalActionError(action, "forced-exchange",
                                         f"seat {seat} may not lead a trump ({restriction}) and holds only "
                                         "trumps: they must give one to their partner for a plain card")
            if restriction and plain and self.order.is_trump(card):
                raise IllegalActionError(action, "trump-lead",
                                         f"seat {seat} may not lead a trump: {restriction} "
                                         f"(holds plain {' '.join(map(str, _sorted(plain)))})")
            return "play"
        self._expect_verb(action, "play", "play one card to the trick")
        self._expect_count(action, 1)
        led = self.order.suit_of(self.trick[0].cards[0])
        if self.order.suit_of(card) == led:  # following suit is always allowed
            return "play"
        follow = self._followers(hand, led)
        if follow and card not in follow:
            suits = suit_label(led)
            if any(self.order.is_trump(c) for c in follow) and led != TRUMP:
                suits += " or play a trump"
            raise IllegalActionError(action, "follow-suit",
                                     f"seat {seat} must follow {suits} "
                                     f"(holds {' '.join(map(str, _sorted(follow)))})")
        return "play"
