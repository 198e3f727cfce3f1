"""The one view function of Spades: what a seat (or a spectator) may know.
Mixed into :class:`~goat.games.spades.state.SpadesState`.

A seat sees its own hand — not while it is face down (it may still bid blind
and has not looked: ``"hand": []``, ``"hand_face_down": true``; whether each
seat is face down is public, ``hands_face_down``); every bid and look; every card played; the cards dealt face
up (``face-up-four``) while they are held; the cards given in a double nil's
exchange only if it gave or received them, and received ones only once its pair's
exchange is complete; a hand shown to ask for a redeal; trick counts, scores
and bags. A renege (under
``renege_penalty``) is not announced: it shows in the deal's score.
"""

from __future__ import annotations

from typing import Any

from goat.games.spades.bids import REDEAL
from goat.games.spades.cards import sort_hand
from goat.games.spades.phases import DEAL, OVER
from goat.games.spades.scoring import bag_penalties
from goat.games.tricks.views import (
    information_state_string,
    last_trick_view,
    play_view,
    view_header,
    visible_history,
)
from goat.protocol import check_seat, results_copy


class SpadesViews:
    """``view`` and ``information_state_string``."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator, public facts only)."""
        rules = self.rules
        seat = check_seat(seat, rules.players)
        history: list[str] = []
        shown: dict[str, list[str]] | None = None
        if self.logs:
            log = self.logs[-1]
            pending = {giver for giver, _, _ in self.pending_gives}
            history = visible_history(log["actions"], log["private"], seat, pending)
            for action in log["actions"]:
                if action.verb == "bid" and action.bid == REDEAL:   # the weak hand is shown to all
                    shown = {str(action.seat): [str(c) for c in sort_hand(log["deal"].hands[action.seat])]}
        face_up_cards = {c for cards in self.face_up for c in cards}
        last = last_trick_view(self.last_trick, seat)
        legal = []
        if seat is not None and self.phase not in (DEAL, OVER):   # a look may come out of turn
            legal = [str(a) for a in self.legal_actions() if a.seat == seat]
        face_down = [self.face_down(s) for s in range(rules.players)]
        hand = None
        if seat is not None:
            hand = [] if face_down[seat] else [str(c) for c in sort_hand(self.hands[seat])]
        return {
            **view_header("spades", self, seat),
            "first_dealer": self.first_dealer,
            "single_deal": self.single_deal,
            "phase": self.phase,
            "current_player": self.current_player(),
            "hand": hand,
            "hand_face_down": seat is not None and face_down[seat],
            "hands_face_down": face_down,
            "hand_sizes": [len(h) for h in self.hands],
            "face_up": [[str(c) for c in cards] for cards in self.face_up],
            "face_up_held": [[str(c) for c in sort_hand(h) if c in face_up_cards] for h in self.hands],
            "bids": [b.name if b is not None else None for b in self.bids],
            "shown_hand": shown,
            "blind_nil_teams": list(self.blind_teams),
            "exchange_to_give": [giver for giver, _ in self.exchange_queue],
            "trick": [play_view(p, seat) for p in self.trick],
            "trick_leader": self.trick_leader if self.trick else None,
            "trick_best": self.best_index if self.trick else None,
            "last_trick": last,
            "must_lead": str(self.must_lead) if self.must_lead is not None else None,
            "tricks_by_seat": list(self.tricks_by_seat),
            "tricks_won": [self.tricks_by_seat[0] + self.tricks_by_seat[2],
                           self.tricks_by_seat[1] + self.tricks_by_seat[3]],
            "tricks_played": self.tricks_played,
            "spades_broken": self.spades_broken,
            "score_total": list(self.score_total),
            "bags_total": list(self.bags_total),
            "deals_played": self.deals_played,
            "deal_results": results_copy(self.deal_results),
            # per deal and team, the bag penalties its score holds (a sheet says where the 100 went)
            "deal_bag_penalties": bag_penalties(rules, [d["bags"] for d in self.deal_results]),
            "match_over": self.match_over,
            "winner_team": self.winner_team,
            "history": history,
            "legal_actions": legal,
        }

    def information_state_string(self, seat: int | None) -> str:
        """Canonical text of :meth:`view` — equal strings mean the seat cannot
        tell the two states apart."""
        return information_state_string(self.view(seat))
