"""Street tricks: multi-card leads, one-to-one beats, face-down passes and the
out-of-turn molodka. Mixed into :class:`~goat.games.kozel.state.KozelState`."""

from __future__ import annotations

from itertools import combinations

from goat.cards import Card, format_cards
from goat.games.kozel.phases import PLAY
from goat.games.kozel.phases import sort_for_display as _sorted
from goat.games.kozel.trumps import TrumpOrder
from goat.games.tricks import clockwise, left_of
from goat.protocol import Action, IllegalActionError


def beats_set(order: TrumpOrder, challengers: tuple[Card, ...], best: tuple[Card, ...]) -> bool:
    """Street's beat: each challenger beats a different card of ``best`` (a
    one-to-one matching; at most 4 cards, so trying the orderings is enough).

    Works on the order's bit tables (:attr:`TrumpOrder.beats_mask`): legal
    actions test every combination of a hand, and search bots do so in every
    rollout."""
    size = len(best)
    if len(challengers) != size:
        return False
    masks = order.beats_mask
    if size == 1:
        return bool(masks[challengers[0]._index] >> best[0]._index & 1)
    # which positions of ``best`` each challenger beats, then a matching by brute force
    targets = [b._index for b in best]
    options = []
    for c in challengers:
        mask = masks[c._index]
        bits = 0
        for i, b in enumerate(targets):
            if mask >> b & 1:
                bits |= 1 << i
        if not bits:
            return False
        options.append(bits)
    return _matches(options, 0, 0)


def _matches(options: list[int], i: int, taken: int) -> bool:
    """Whether challengers ``i..`` can each take a different position of its
    ``options`` mask, none of ``taken``."""
    if i == len(options):
        return True
    free = options[i] & ~taken
    while free:
        bit = free & -free
        if _matches(options, i + 1, taken | bit):
            return True
        free ^= bit
    return False


class StreetTricks:
    """Rules 1–4 of the street ruleset."""

    def _street_actions(self, seat: int) -> list[Action]:
        hand = _sorted(self.hands[seat])
        if not self.trick:
            actions = []
            limit = min(self.rules.max_lead, len(hand))
            for size in range(1, limit + 1):
                for combo in combinations(hand, size):
                    # the hand is sorted by suit: one suit when the first and last agree
                    if combo[0].suit == combo[-1].suit:
                        actions.append(Action(seat, "play", combo))
            return actions
        need = len(self.trick[0].cards)
        best = self.trick[self.best_index].cards
        beats, passes = [], []
        for combo in combinations(hand, need):
            if self._beats_set(combo, best):
                beats.append(Action(seat, "play", combo))
            passes.append(Action(seat, "pass", combo))
        return beats + passes

    def _beats_set(self, challengers: tuple[Card, ...], best: tuple[Card, ...]) -> bool:
        return beats_set(self.order, challengers, best)

    def _check_street(self, action: Action) -> None:
        seat, cards = action.seat, action.cards
        if not self.trick:
            self._expect_verb(action, "play", "lead 1 to 4 cards of one suit")
            if len(cards) > self.rules.max_lead:
                raise IllegalActionError(action, "street-lead",
                                         f"seat {seat} may lead at most {self.rules.max_lead} cards")
            if len({c.suit for c in cards}) != 1:
                raise IllegalActionError(action, "street-lead",
                                         f"seat {seat} must lead cards of one suit")
            return
        need = len(self.trick[0].cards)
        if action.verb not in ("play", "pass"):
            raise IllegalActionError(action, "verb", f"seat {seat} must beat (play) or pass now, not {action.verb}")
        if len(cards) != need:
            raise IllegalActionError(action, "street-count",
                                     f"seat {seat} must {'beat' if action.verb == 'play' else 'pass'} "
                                     f"with exactly {need} card{'s' if need != 1 else ''}, not {len(cards)}")
        if action.verb == "play":
            best = self.trick[self.best_index].cards
            if not self._beats_set(cards, best):
                raise IllegalActionError(action, "street-beat",
                                         f"seat {seat}'s {format_cards(cards)} do not beat "
                                         f"{format_cards(best)} card for card (pass face down instead)")

    # -------------------------------------------------------------- molodka
    def _molodka_actions(self) -> list[Action]:
        actions: list[Action] = []
        rules = self.rules
        n = rules.players
        # Who may declare: after a lead, before the trick is complete, while the trick
        # has had fewer than max_molodka_per_trick, any seat that has not played to it
        # (_check_molodka refuses the rest with a reason).
        if not (rules.molodka and self.phase == PLAY and self.trick and len(self.trick) < n
                and self.molodkas < rules.max_molodka_per_trick):
            return actions
        played = {p.seat for p in self.trick}
        for seat in clockwise(left_of(self.trick_leader, n), n):
            if seat in played:
                continue
            hand = self.hands[seat]
            if len(hand) < 4:
                continue
            suits = [c.suit for c in hand]   # counted once: most hands have no four of a suit
            for suit in "CDHS":
                if suits.count(suit) >= 4:
                    same = [c for c in hand if c.suit == suit]
                    for combo in combinations(_sorted(same), 4):
                        actions.append(Action(seat, "molodka", combo))
        return actions

    def _check_molodka(self, action: Action) -> None:
        seat = action.seat
        if not self.rules.molodka:
            raise IllegalActionError(action, "molodka", f"seat {seat} cannot declare molodka: not in these rules")
        if self.phase != PLAY or not self.trick:
            raise IllegalActionError(action, "molodka",
                                     f"seat {seat} may declare molodka only after a lead, before the trick is complete")
        if any(p.seat == seat for p in self.trick):
            raise IllegalActionError(action, "molodka",
                                     f"seat {seat} has already played to this trick and cannot declare molodka")
        most = self.rules.max_molodka_per_trick
        if self.molodkas >= most:
            limit = ("this table allows none (max_molodka_per_trick=0)" if most == 0
                     else "this trick already had one" if most == 1
                     else f"this trick already had {most} (max_molodka_per_trick={most})")
            raise IllegalActionError(action, "molodka", f"seat {seat} cannot declare molodka: {limit}")
        self._check_cards_held(action)
        if len(action.cards) != 4 or len({c.suit for c in action.cards}) != 1:
            raise IllegalActionError(action, "molodka", f"seat {seat}: a molodka is four cards of one suit")

    def molodka_priority(self, seats: list[int]) -> list[int]:
        """Order simultaneous molodka claims: the seat nearer clockwise to the
        player who *originally* led the trick goes first (the server uses this for
        claims arriving together). With ``max_molodka_per_trick`` > 1 a restarted
        trick keeps its original leader for this: the rule counts from the first
        lead, not from the molodka player now leading (that one may claim again
        only after another molodka, and the original leader, back with its cards,
        is nearest to itself)."""
        n = self.rules.players
        return sorted(set(seats), key=lambda s: (s - self.trick_opened_by) % n)
