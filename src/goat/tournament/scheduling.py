"""The duplicate schedule: which games are played, with which cards and seats.

Luck of the cards is the largest noise in a card-game result, so every deal
sequence is played by every seating of the same bots ("duplicate", as in
duplicate bridge): the *n*-th deal of a match is drawn from a generator seeded
only by the tournament seed, the pairing, the duplicate set and *n*
(``"<seed>/<pairing>/<set>/deal/<n>"``), so all games of one duplicate set see
the same sequence of shuffles as far as their matches go, while the bots sit in
rotated seats (a deal that replaces a void one — Kozel's annulled deal, a
Spades weak-hand redeal — has a stream of its own, so the games stay in step). Games whose chance events are not deals (a
duel's coin tosses and deck shuffles) name several such streams, each seeded
the same way (:mod:`goat.tournament.games`).

Seatings. The bots of one pairing are laid out over the seats once (the *base*
seating) and the duplicate set is every distinct rotation of it:

* partnership play (4 seats, 2 teams): a pairing is two bots; A sits at 0+2 and
  B at 1+3, then the rotation swaps them (B at 0+2, A at 1+3) — so each team's
  cards are played once by each bot;
* individual play (2 or 3 seats): a pairing is ``min(bots, seats)`` bots,
  cycled over the seats (``A,B`` on 3 seats gives ``A,B,A``) and rotated
  through every seat (``ABA``, ``AAB``, ``BAA``), in both orders of play:
  three bots sit ``ABC``, ``CAB``, ``BCA`` and ``ACB``, ``BAC``, ``CBA``.
  Rotations alone give each bot each seat and each hand, but B then always
  plays right after A and sees A's card before playing its own (and A right
  after C): a bot that gains from sitting after a weaker one — or a weak bot
  that hands its left neighbour tricks — would tilt every set the same way.
  With the reverse order each bot sits right after each other bot equally
  often. (``ABA`` read backwards is a rotation of itself: still 3 seatings.)

With more bots than fit at a table, every combination of them plays (a round
robin), each with its own ``N`` duplicate sets. The first dealer of set *k* is
seat ``k mod seats`` (the same in all games of the set). Bot seeds are
``"<seed>/<pairing>/<set>/<rotation>/<seat>"``: they depend on the game, never
on which worker plays it, so results do not depend on the worker count.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from goat.tournament.specs import BotSpec


@dataclass(frozen=True)
class TableConfig:
    """What is played: the game, the ruleset and its options, match or single deals."""

    game: str = "kozel"
    rules: str = "classic"
    options: dict[str, Any] = field(default_factory=dict)
    players: int | None = None
    deals_only: bool = False


@dataclass(frozen=True)
class GameSpec:
    """One game (a match, or one deal with ``deals_only``), fully reproducible."""

    index: int                      # position in the schedule (and in the records file)
    pairing: int                    # which group of bots
    set_index: int                  # duplicate set within the pairing
    rotation: int                   # seating within the set
    bots: tuple[BotSpec, ...]       # one per seat
    first_dealer: int
    seed_root: str                  # "<seed>/<pairing>/<set>"
    config: TableConfig

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(b.label for b in self.bots)

    def deal_seed(self, n: int) -> str:
        """Seed of the n-th deal (0-based) of the match: shared by the whole set."""
        return self.chance_seed("deal", n)

    def chance_seed(self, stream: str, n: int) -> str:
        """Seed of the n-th outcome (0-based) of a chance stream (``deal``, or a
        duel's ``duel/0/shuffle/1``; :mod:`goat.tournament.games`): shared by
        the whole set."""
        return f"{self.seed_root}/{stream}/{n}"

    def bot_seed(self, seat: int) -> str:
        return f"{self.seed_root}/{self.rotation}/{seat}"


def seatings(group: Sequence[BotSpec], seats: int, teams: Sequence[int]) -> list[tuple[BotSpec, ...]]:
    """The distinct rotations of the base seating of ``group``.

    ``teams[s]`` is the team of seat ``s``; in partnership play bot ``i`` of the
    group holds every seat of team ``i``.

    >>> from goat.tournament.specs import parse_bot_list
    >>> a, b = parse_bot_list("random,random")
    >>> [[x.label for x in s] for s in seatings([a, b], 4, [0, 1, 0, 1])]
    [['random', 'random#2', 'random', 'random#2'], ['random#2', 'random', 'random#2', 'random']]
    """
    partnership = len(set(teams)) < seats
    if partnership:
        base = [group[teams[s] % len(group)] for s in range(seats)]
        orders = [base]
    else:
        base = [group[s % len(group)] for s in range(seats)]
        orders = [base, base[:1] + base[:0:-1]]  # the order of play, then the reverse order
    out: list[tuple[BotSpec, ...]] = []
    for order in orders:
        for r in range(seats):
            rotated = tuple(order[(s - r) % seats] for s in range(seats))
            if [b.label for b in rotated] not in [[b.label for b in o] for o in out]:
                out.append(rotated)
    return out


def pairings(bots: Sequence[BotSpec], table_size: int) -> list[tuple[BotSpec, ...]]:
    """Every group of ``table_size`` bots (all of them when fewer fit)."""
    if len(bots) <= table_size:
        return [tuple(bots)]
    return [tuple(c) for c in itertools.combinations(bots, table_size)]


def schedule(bots: Sequence[BotSpec], config: TableConfig, seats: int, teams: Sequence[int],
             sets: int, seed: int | str) -> list[GameSpec]:
    """All games of a tournament in a fixed order: pairing, duplicate set, rotation.

    ``seats``/``teams`` come from the ruleset (a partnership game has fewer
    distinct teams than seats); ``sets`` is the number of duplicate sets (deal
    sequences) per pairing.
    """
    partnership = len(set(teams)) < seats
    table_size = len(set(teams)) if partnership else seats
    games: list[GameSpec] = []
    for p, group in enumerate(pairings(bots, table_size)):
        rotations = seatings(group, seats, teams)
        for k in range(sets):
            for r, seating in enumerate(rotations):
                games.append(GameSpec(len(games), p, k, r, seating, k % seats, f"{seed}/{p}/{k}", config))
    return games
