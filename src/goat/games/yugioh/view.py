"""The one view function: what a seat (or a spectator, ``None``) may know.

A seat sees its own hand and Fusion Deck, its own Set cards, every face-up
card, both Graveyards and banished piles, LP, pile sizes, the chain, the
pending decision's kind and — when it is the one to decide — the legal
actions. The opponent's hand, Set cards and Fusion Deck are counts or ``"?"``;
no deck order is ever shown. The log is filtered per seat (a draw names the
card only to the drawer; each line is its English ``text`` and its ``say``,
key and arguments, for the page to word), and so is the history (``YugiohState.history_of``):
every decision, chance event and glimpse of a hidden card, as this viewer saw
them — what :func:`goat.games.yugioh.worlds.sample_world` rebuilds a world from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goat.games.yugioh.decisions import Decision
from goat.protocol import check_seat, results_copy

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.duel import Duel
    from goat.games.yugioh.state import YugiohState
    from goat.games.yugioh.zones import CardInst

HIDDEN = "?"


def _field_card(duel: "Duel", card: "CardInst | None", seat: int | None) -> dict[str, Any] | None:
    if card is None:
        return None
    sees = card.face_up or (seat is not None and seat == card.controller)
    out: dict[str, Any] = {"name": card.name if sees else HIDDEN, "face_up": card.face_up}
    if card.zone == "monster":
        out["position"] = "attack" if card.attack_pos else "defense"
        if card.face_up:
            out["atk"], out["def"] = duel.atk(card), duel.defense(card)
        if card.counters:
            out["counters"] = card.counters
    elif card.equipped_to is not None and card.face_up:
        target = card.equipped_to
        out["equipped_to"] = duel.label(target, seat)
    if card.owner != card.controller:
        out["owner"] = card.owner
    return out


def _player(duel: "Duel", s: int, seat: int | None, state: "YugiohState") -> dict[str, Any]:
    p = duel.players[s]
    mine = seat == s
    return {
        "lp": p.lp,
        "hand": [c.name for c in p.hand] if mine else None,
        "hand_count": len(p.hand),
        "deck_count": len(p.deck),
        "gy": [c.name for c in p.gy],
        "banished": [c.name for c in p.banished],
        "fusion": [c.name for c in p.fusion] if mine else None,
        "fusion_count": len(p.fusion),
        "monsters": [_field_card(duel, c, seat) for c in p.monsters],
        "spells": [_field_card(duel, c, seat) for c in p.spells],
    }


def view(state: "YugiohState", seat: int | None) -> dict[str, Any]:
    seat = check_seat(seat, state.num_players)  # -1 would index seat 1's hand
    duel = state.duel
    pending = state.pending()
    deciding = isinstance(pending, Decision)
    out: dict[str, Any] = {
        "game": "yugioh",
        "rules": state.rules.name,
        "options": state.rules.options(),
        "seat": seat,
        "duel_number": len(state.results) + (0 if duel is None or duel.winner is not None or state.over else 1),
        "wins": list(state.wins),
        "duel_results": results_copy(state.results),
        "match_over": state.over,
        "decision": pending.to_json() if deciding else None,
        "legal_actions": list(pending.actions) if deciding and pending.seat == seat else [],
        "my_deck": None if seat is None else {"main_count": len(state.decks[seat].main),
                                               "side": list(state.decks[seat].side)},
        # The lists each player brought to the match: both under the option
        # open_decklists (an open-decklist event), else only the seat's own.
        # Side-decking between duels stays private either way.
        "decklists": [d.to_json() if state.rules.open_decklists or s == seat else None
                      for s, d in enumerate(state.start_decks)],
        "single_duel": state.single_duel,
        "history": state.history_of(seat),
    }
    if duel is not None:
        out.update({
            "turn": duel.turn,
            "turn_player": duel.turn_player,
            "phase": duel.phase,
            "step": duel.step,
            "substep": duel.substep,
            "players": [_player(duel, s, seat, state) for s in (0, 1)],
            "chain": [{"card": link.card.name, "seat": link.seat} for link in duel.chain],
            # {"text": English, "say": {"key", "args"}}: the line this viewer may see.
            "log": duel.log_view(seat),
        })
    return out
