"""The one view function of Kozel: what a seat (or a spectator) may know.
Mixed into :class:`~goat.games.kozel.state.KozelState`."""

from __future__ import annotations

from typing import Any

from goat.games.kozel.phases import DEAL, OVER, PARTNER_EXCHANGE, PLAY
from goat.games.kozel.phases import sort_for_display as _sorted
from goat.games.tricks.views import (
    information_state_string,
    last_trick_view,
    play_view,
    view_header,
    visible_history,
)
from goat.protocol import check_seat, results_copy


class KozelViews:
    """``view`` and ``information_state_string``."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator, public facts only).

        Own hand; every face-up card; hand and stock sizes; trick piles'
        owners and sizes; the shown trump card (and, shown from the stock under
        ``trump_card_place="public"``, where it lies there and who drew it: it lies
        face up; under ``"hidden"`` neither, as it lies face down like the rest);
        with the molodka, who led the trick before any molodka restarted it;
        cards given in an exchange, only to giver and receiver; passed cards only
        to the passer. Nothing else.
        """
        rules = self.rules
        seat = check_seat(seat, rules.players)
        trick = [play_view(p, seat) for p in self.trick]
        last = last_trick_view(self.last_trick, seat)
        history: list[str] = []
        if self.logs:
            log = self.logs[-1]
            # The partner exchange is simultaneous: a give stays hidden from the
            # receiver until every seat has given.
            pending = range(rules.players) if self.phase == PARTNER_EXCHANGE else ()
            history = visible_history(log["actions"], log["private"], seat, pending)
        legal = []
        if seat is not None and self.phase not in (DEAL, OVER):
            legal = [str(a) for a in self.legal_actions() if a.seat == seat]
        view: dict[str, Any] = {
            **view_header("kozel", self, seat),
            "phase": self.phase,
            "current_player": self.current_player(),
            "trump_suit": self.order.trump_suit if self.order else None,
            "trump_card": str(self.trump_card) if self.trump_card else None,
            "hand": [str(c) for c in _sorted(self.hands[seat])] if seat is not None else None,
            "drawn": [str(c) for c in self.drawn[seat]] if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "stock_size": len(self.stock),
            "trick": trick,
            "trick_leader": self.trick_leader if self.trick else None,
            "last_trick": last,
            "tricks_won": list(self.tricks_won),
            "pile_sizes": [len(p) for p in self.piles],
            "penalty_total": list(self.penalty_total),
            "deal_results": results_copy(self.deal_results),
            "match_over": self.match_over,
            "loser_team": self.loser_team,
            "history": history,
            "legal_actions": legal,
            # Public rule state, so that a bot can rebuild a consistent world from
            # the view alone (goat.games.kozel.worlds) without seeing the state.
            "first_dealer": self.first_dealer,
            "single_deal": self.single_deal,
            "tricks_played": self.tricks_played,
            "tricks_by_seat": list(self.tricks_by_seat),
            "trick_best": self.best_index if self.trick else None,
            "opening_team": self.opening_team,
            "prev_opening_team": self.prev_opening_team,
            "prev_trick_leader_team": self.prev_trick_leader_team,
            "last_trick_winner": self.last_trick_winner,
            "double_next": self.double_next,
            "molodkas_this_trick": self.molodkas,
            "exchange_givers": [giver for giver, _ in self.pending_gives],
            "forced_exchange": ({"leader": self.forced[0], "partner": self.forced[1]}
                                if self.forced is not None else None),
        }
        if rules.molodka:   # a molodka moves trick_leader; claims still count from the first lead
            view["trick_opened_by"] = self.trick_opened_by if self.trick else None
        if rules.trump_card_place == "public":   # it lies face up in its place: where, and who drew it
            view["trump_card_place"] = self.trump_card_place
            view["trump_card_drawn_by"] = self.trump_card_drawn_by
        if rules.trick_style == "single":  # every card in a pile was face up: points are public
            view["pile_points"] = self._points()
        if seat is not None and self.phase == PLAY and not self.trick and self.must_lead is not None \
                and self.to_act == seat:
            view["must_lead"] = str(self.must_lead)
        return view

    def information_state_string(self, seat: int | None) -> str:
        """Canonical text of :meth:`view` (sorted-key JSON) — equal strings mean
        the seat cannot tell the two states apart."""
        return information_state_string(self.view(seat))
