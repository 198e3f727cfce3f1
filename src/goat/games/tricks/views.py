"""View helpers every trick game shares: the history a seat may see, a play on
the table as a seat sees it, and the canonical information-state text.

The view function itself stays one per game (it knows the game's public
facts); these helpers make sure the *same* hiding rules apply everywhere: a card
given in an exchange is shown only to giver and receiver — and to the receiver
only once the exchange is complete, since exchanges are simultaneous in spirit —
and a card passed face down only to the passer.
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterable, Sequence
from typing import Any

from goat.games.tricks.table import TablePlay
from goat.protocol import Action


def hidden_text(action: Action) -> str:
    """The action with its cards replaced by ``?`` (``"1 give ?+?"``)."""
    return f"{action.seat} {action.verb} " + "+".join("?" * len(action.cards))


def visible_history(actions: Sequence[Action], private: Sequence[Container[int] | None], seat: int | None,
                    pending_from: Iterable[int] = ()) -> list[str]:
    """The action texts ``seat`` may see (``None``: a spectator).

    ``private[i]`` is ``None`` for a public action, else the seats allowed to
    see its cards. ``pending_from`` lists givers whose gives are still pending
    (an exchange in progress): those stay hidden from everyone but the giver.
    """
    pending = set(pending_from)
    out: list[str] = []
    for action, allowed in zip(actions, private):
        if allowed is None or (seat is not None and seat in allowed
                               and not (action.seat in pending and action.seat != seat)):
            out.append(str(action))
        else:
            out.append(hidden_text(action))
    return out


def play_view(play: TablePlay, seat: int | None) -> dict[str, Any]:
    """A play on the table as ``seat`` sees it: face-down passes show only a count."""
    if play.verb == "pass" and play.seat != seat:
        return {"seat": play.seat, "verb": "pass", "count": len(play.cards)}
    return {"seat": play.seat, "verb": play.verb, "cards": [str(c) for c in play.cards]}


def last_trick_view(last: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
    """The previous trick (``{"leader", "winner", "plays"}``) as ``seat`` sees it."""
    if last is None:
        return None
    return {"leader": last["leader"], "winner": last["winner"],
            "plays": [play_view(p, seat) for p in last["plays"]]}


def view_header(game: str, state: Any, seat: int | None) -> dict[str, Any]:
    """The fields every trick game's view opens with: the game, its ruleset and
    options, whose view it is, the table size, the deal number and the dealer."""
    rules = state.rules
    return {"game": game, "rules": rules.name, "options": rules.options(), "seat": seat,
            "players": rules.players, "deal_number": len(state.logs), "dealer": state.dealer}


def information_state_string(view: dict[str, Any]) -> str:
    """Canonical text of a view (sorted-key JSON, without the legal actions):
    equal strings mean the seat cannot tell the two states apart."""
    view = dict(view)
    view.pop("legal_actions", None)
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def open_position(state: Any) -> dict[str, Any]:
    """The position with every card face up, as a deal review draws it: each
    seat's hand from that seat's own view, the current trick's plays each from
    its player's view (a card passed face down is its passer's to see), the
    trump suit where the view names one, and the stock's size where there is a
    stock (its order is not given: the size is all a diagram shows). Read from
    ``state.view`` alone — no game's internals — so every trick game has it
    (:mod:`goat.analysis`). Plain JSON; ``verb`` only for a play that is not
    ``"play"``."""
    views = [state.view(seat) for seat in range(state.num_players)]
    trick = []
    for i, play in enumerate(views[0]["trick"]):
        own = views[play["seat"]]["trick"][i]
        trick.append({"seat": own["seat"], "cards": list(own["cards"])}
                     | ({} if own["verb"] == "play" else {"verb": own["verb"]}))
    position: dict[str, Any] = {"hands": [list(v["hand"]) for v in views], "trick": trick}
    if views[0].get("trump_suit"):
        position["trump"] = views[0]["trump_suit"]
    if views[0].get("stock_size"):
        position["stock"] = views[0]["stock_size"]
    return position
