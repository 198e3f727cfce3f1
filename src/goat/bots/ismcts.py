"""Information-set MCTS: single-observer ISMCTS (Cowling, Powley & Whitehouse 2012).

One tree is grown for the bot's own information set. Every iteration

1. *determinizes*: draws a complete world consistent with the bot's view
   (``goat.games.sample_world(view, rng)``, drawn through one
   ``goat.games.world_sampler(view)`` per search — the bot never sees the real state);
2. *selects* down the tree with UCB1, considering only the children whose
   action is available in this world, with each child's *availability count*
   (how often it was available when its parent was visited) in place of the
   parent's visit count;
3. *expands* one untried action, 4. *rolls out* to the end of the **deal**
   (the world is searched as a one-deal game), and 5. *backpropagates* the
   deal's reward.

Actions the bot cannot see (another seat's face-down pass or give) are keyed
in the tree by what the bot sees (``"1 pass ?+?"``), as in ISMCTS with partially
observable moves; the concrete cards behind such a key are chosen at random in
the world. Every edge's statistics are kept from the point of view of the seat
that takes the action, so opponents minimise and partners maximise the bot's
reward. Inside the tree, street's out-of-turn molodka is one more action at a
node, taken by its own seat, where the drivers would ask for it: the seat to
act's own, another seat's only when it ranks before the seat to act
(:func:`_asked_now`). Out of turn (:meth:`ISMCTSBot.out_of_turn`) the root
offers the bot's molodkas and "stay silent"; the bot declares when the search
prefers a molodka.

Reward (a deal is the unit of search, not the match): for a seat's team,
``0.75 * clip(penalty_balance / P, -1, 1) + 0.25 * point_balance / 120``, where the
penalty balance is the other sides' (mean) penalty points of the deal minus the
team's own, the point balance likewise for card points, and ``P`` the largest
usual penalty of a deal (6 with street's graded penalty; 4 when the shamok can
catch the queen; else 2). The penalty part is what the match is about; the
point part breaks ties between deals with the same penalty (65 vs 90 points). A deal that ends the match scores +1 / -1. In Spades a deal is worth its score
difference (ours minus theirs) over 200, clipped to [-1, 1].
All rewards lie in [-1, 1].

Rollouts are "greedy" by default, one move in five random. In ``street``
they follow :func:`_street_policy`, a cheap open-handed version of the heuristic
bot's street play that works on the world state directly (lead the richest set
no opponent can beat, else the cheapest single card; feed a partner's standing
set; beat with the cheapest set that stands; else pass the cheapest cards). In
the other rulesets they follow :func:`_greedy_kozel_action` (lead at random,
take a trick cheaply when possible, feed a partner's winning trick, throw cheap
cards otherwise). ``rollout="random"`` plays uniformly at random; for a game
other than Kozel rollouts are always random.

Prior (``guide``, default 1.5): before searching, the bot asks the heuristic bot
(:mod:`goat.bots.heuristic`, on the same view) for its move and adds a
progressive bias ``guide / (visits + 1)`` to that root child's UCB value, so
the search starts from the heuristic's choice and leaves it only when the
samples say another move is better. Measured in street duplicate deals, the
prior plus the street rollouts turned an even match with the heuristic into a
clear win: ``goat tournament --rules street --bots ismcts,heuristic -n 250
--deals-only --seed 7 --workers 2`` gave +0.78 ± 0.22 penalty points per deal
(62% of 500 deals won); without the prior, the same search was about even.
``guide=0`` switches it off.

Budget: ``iterations`` (default 500) and/or ``time_limit`` seconds, whichever
runs out first; with only ``iterations`` the bot is deterministic for a seed.
"""

from __future__ import annotations

import math
import random
from itertools import combinations
from typing import Any

from goat.bots.base import (
    BaseBot,
    BotError,
    View,
    asked_before_turn,
    check_time_limit,
    legal_actions,
    required_actions,
    sampled_worlds,
)
from goat.bots.heuristic import HeuristicBot
from goat.games import world_sampler
from goat.games.kozel.phases import DEAL, OVER
from goat.games.kozel.rules import CARD_POINTS, RANK_ORDER
from goat.games.kozel.street import beats_set
from goat.protocol import Action

#: Root key meaning "do not act out of turn" (see :meth:`ISMCTSBot.out_of_turn`).
SILENT = "-"


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


class ISMCTSBot(BaseBot):
    """Single-observer ISMCTS over one deal. See the module docstring."""

    name = "ismcts"
    games = HeuristicBot.games   # its rollouts and guide are the heuristic's

    def __init__(self, seed: int | str | None = None, iterations: int = 500,
                 time_limit: float | None = None, exploration: float = 0.7,
                 rollout: str = "greedy", guide: float = 1.5) -> None:
        if not isinstance(iterations, int) or iterations < 1:
            raise BotError(f"ismcts: iterations must be a whole number >= 1, not {iterations!r}")
        time_limit = check_time_limit("ismcts", time_limit)
        if isinstance(exploration, bool) or not isinstance(exploration, (int, float)) or exploration < 0:
            raise BotError(f"ismcts: exploration must be a number >= 0, not {exploration!r}")
        if rollout not in ("greedy", "random"):
            raise BotError(f"ismcts: rollout must be 'greedy' or 'random', not {rollout!r}")
        if isinstance(guide, bool) or not isinstance(guide, (int, float)) or guide < 0:
            raise BotError(f"ismcts: guide must be a number >= 0, not {guide!r}")
        self.rollout = rollout
        self.guide = float(guide)
        self.rng = random.Random(seed)
        self._guide_bot = HeuristicBot(self.rng.randrange(2**32), samples=16) if guide else None
        self.name = f"ismcts:iterations={iterations}" + (f":time_limit={time_limit}" if time_limit else "")
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration

    # ------------------------------------------------------------------ bot API
    def choose(self, view: View) -> Action:
        actions = required_actions(view)
        if len(actions) == 1:
            return actions[0]
        mine = {str(a) for a in actions}
        prior = str(self._guide_bot.choose(view)) if self._guided(view) else None
        root = self._search(view, lambda world: [a for a in world.legal_actions() if _text(a) in mine], None, prior)
        if not root.children:   # no world could be drawn: the heuristic's move, not nothing
            return Action.parse(prior) if prior is not None else HeuristicBot(self.rng.randrange(2**32)).choose(view)
        best = self._best_key(root, mine)
        return Action.parse(best)

    def out_of_turn(self, view: View) -> Action | None:
        """Declare a molodka when a search says it beats staying silent."""
        actions = [a for a in legal_actions(view) if a.verb == "molodka"]
        if not actions:
            return None
        mine = {str(a) for a in actions}
        prior = None
        if self._guided(view):
            claim = self._guide_bot.out_of_turn(view)
            prior = SILENT if claim is None else str(claim)
        root = self._search(view, lambda world: [a for a in world.legal_actions() if _text(a) in mine], SILENT, prior)
        if not root.children:   # no world could be drawn: no claim to back
            return None
        best = self._best_key(root, mine | {SILENT})
        return None if best == SILENT else Action.parse(best)

    # ------------------------------------------------------------------ search
    @staticmethod
    def _best_key(root: _Node, allowed: set[str]) -> str:
        scored = [(child.visits, child.total / child.visits if child.visits else -2.0, key)
                  for key, child in root.children.items() if key in allowed]
        if not scored:
            raise BotError("ismcts: the search found no legal action")
        return max(scored)[2]

    def _guided(self, view: View) -> bool:
        """The heuristic bot's move is the root prior (Kozel views only)."""
        return self._guide_bot is not None and "trump_suit" in view and "options" in view

    def _search(self, view: View, root_actions: Any, silent: str | None, prior: str | None = None) -> _Node:
        root = _Node()
        seat = view["seat"]
        sampler = world_sampler(dict(view))  # the same worlds as sample_world, view read once
        for world in sampled_worlds(sampler, self.rng, self.iterations, self.time_limit):
            self._iterate(world, root, seat, root_actions, silent, prior)
        return root

    def _iterate(self, world: Any, root: _Node, seat: int, root_actions: Any, silent: str | None,
                 prior: str | None = None) -> None:
        rng = self.rng
        node = root
        path: list[tuple[_Node, int]] = []
        while not _deal_over(world):
            if node is root:
                actions = root_actions(world)
            elif silent is not None and len(path) == 1 and node is root.children.get(silent):
                # after staying silent, the seat to act moves (not this bot's molodka)
                actions = [a for a in _asked_now(world) if not (a.seat == seat and a.verb == "molodka")]
            else:
                actions = _asked_now(world)
            groups: dict[str, list[Action]] = {}
            for a in actions:
                groups.setdefault(_key(a, seat), []).append(a)
            if node is root and silent is not None:
                groups[silent] = []
            untried = []
            for key in groups:
                child = node.children.get(key)
                if child is None:
                    untried.append(key)
                else:
                    child.avail += 1
            if untried:  # expand one new child, then roll out
                key = untried[rng.randrange(len(untried))]
                node.children[key] = child = _Node()
                child.avail = 1
            else:
                key = self._select(node, groups, prior if node is root else None)
                child = node.children[key]
            choice = groups[key]
            # Root edges are the bot's own; silence hands the move to the seat to act.
            mover = seat if node is root else choice[0].seat
            if choice:   # one of the world's legal actions: no need to check it again
                _apply(world)(choice[rng.randrange(len(choice))] if len(choice) > 1 else choice[0])
            path.append((child, mover))
            node = child
            if untried:
                break
        _rollout(world, rng, self.rollout)
        rewards = deal_rewards(world)
        for child, mover in path:
            child.visits += 1
            child.total += rewards[mover]

    def _select(self, node: _Node, groups: dict[str, list[Action]], prior: str | None = None) -> str:
        """UCB1 with availability counts in place of the parent's visits, plus a
        progressive bias ``guide / (visits + 1)`` towards the prior move."""
        c = self.exploration
        best_key, best_value = "", -math.inf
        for key in groups:
            child = node.children[key]
            if not child.visits:
                return key
            value = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if key == prior:
                value += self.guide / (child.visits + 1)
            if value > best_value:
                best_key, best_value = key, value
        return best_key


def _key(action: Action, observer: int) -> str:
    """The tree key of ``action``: what the observing seat sees of it (for a
    card action, ``str(action)`` spelled out: the search keys every legal
    action of every tree node it passes)."""
    if action.seat != observer and action.verb in ("pass", "give"):
        return f"{action.seat} {action.verb} " + "+".join("?" * len(action.cards))
    return _text(action)


def _text(action: Action) -> str:
    """``str(action)``, spelled out for card actions (see :func:`_key`)."""
    if action.verb == "bid":
        return str(action)
    return f"{action.seat} {action.verb} " + "+".join([c._text for c in action.cards])


def _asked_now(world: Any) -> list[Action]:
    """The world's legal actions the drivers let be taken now: the seat to act's,
    and out-of-turn claims only of the seats asked before it moves
    (:func:`~goat.bots.base.asked_before_turn`: a street seat ranking after it
    claims at a later position). The tree models the opponents as they are
    asked, so an opponent's molodka never pre-empts a seat that ranks first."""
    actions = world.legal_actions()
    current = world.current_player()
    others = {a.seat for a in actions if a.seat != current}
    if not others:
        return actions
    asked = set(asked_before_turn(world, others))
    return [a for a in actions if a.seat == current or a.seat in asked]


def _deal_over(world: Any) -> bool:
    """The searched deal has ended (the world is at a chance node or over)."""
    return world.is_terminal() or world.is_chance_node()


def _apply(world: Any) -> Any:
    """How to apply an action the search knows to be legal in ``world``: the
    engine's unchecked :meth:`~goat.games.kozel.state.KozelState.apply_trusted`
    where there is one (the actions come from ``legal_actions()`` or from the
    rollout policies, which build them from the world's own hands and beats),
    else ``apply_action``."""
    return getattr(world, "apply_trusted", None) or world.apply_action


def _rollout(world: Any, rng: random.Random, policy: str = "random") -> None:
    smart = policy == "greedy" and getattr(world, "game_name", None) == "kozel"
    street = smart and world.rules.trick_style == "street"
    apply = _apply(world)
    kozel = getattr(world, "game_name", None) == "kozel"
    while not (world.phase in _DEAL_ENDS if kozel else _deal_over(world)):
        greedy = smart and rng.random() >= ROLLOUT_EPSILON
        if greedy and street:
            apply(_street_policy(world))
            continue
        actions = world.legal_actions()
        if greedy:
            apply(_greedy_kozel_action(world, actions, rng))
        else:
            apply(actions[rng.randrange(len(actions))])


#: A Kozel world's phases in which the searched deal is over (what :func:`_deal_over` asks, read directly).
_DEAL_ENDS = (DEAL, OVER)

#: Share of random moves in a greedy rollout, so rollouts still explore.
ROLLOUT_EPSILON = 0.2


def _greedy_kozel_action(world: Any, actions: list[Action], rng: random.Random) -> Action:
    """A cheap playout move for Kozel (a "heavy playout"): lead at random; when
    following, give the partner's winning trick points, otherwise take the trick
    with the cheapest winning card(s) if possible, else throw the cheapest card(s).
    Never a molodka (a rollout would declare them far too often)."""
    seat = world.current_player()
    own = [a for a in actions if a.seat == seat and a.verb != "molodka"] or actions
    if not world.trick or own[0].verb == "give":
        return own[rng.randrange(len(own))]
    order, team_of = world.order, world.rules.team_of
    best_play = world.trick[world.best_index]
    partner_wins = team_of(best_play.seat) == team_of(seat)

    def points(a: Action) -> int:
        return sum(CARD_POINTS[c.rank] for c in a.cards)

    def strength(a: Action) -> int:
        return sum(order.strength[c] for c in a.cards)

    best_card = best_play.cards[0]
    winning = [a for a in own if order.beats(a.cards[0], best_card)]
    if partner_wins:
        return max(own, key=lambda a: (a not in winning, points(a), -strength(a)))
    if winning:
        return min(winning, key=lambda a: (strength(a), points(a)))
    return min(own, key=lambda a: (points(a), strength(a)))


# ---------------------------------------------------------------- street rollouts
class _StreetTables:
    """What :func:`_street_policy` looks up per card, by card index, for one
    trump order (worked out once per order: a decision plays thousands of
    rollout moves, each scoring every set of a hand). The values are computed
    with the same expressions, in the same order, as the policy's definitions,
    so every score — and so every choice — is exactly what it was."""

    __slots__ = ("beaten_by", "cost", "feed", "order", "points", "spend", "trump")

    def __init__(self, order: Any) -> None:
        size = len(order.beaten_by)
        self.order = order
        self.beaten_by = order.beaten_by
        self.points = [0] * size
        self.spend = [0.0] * size       # a trump's share of spend(); 0 for a plain card
        self.trump = [False] * size
        self.cost = [0.0] * size
        self.feed: list[tuple[float, float]] = [(0.0, 0.0)] * size
        trumps = order.trumps
        for c in order.strength:
            i = c.index
            trump = order.is_trump(c)
            self.trump[i] = trump
            self.points[i] = CARD_POINTS[c.rank]
            if trump:
                self.spend[i] = 1.0 + 0.5 * trumps.index(c)
            self.cost[i] = 2.0 * CARD_POINTS[c.rank] + (3.0 + trumps.index(c) if trump
                                                        else 0.2 * RANK_ORDER.index(c.rank))
            single_spend = sum(1.0 + 0.5 * trumps.index(x) for x in (c,) if order.is_trump(x))
            self.feed[i] = (3.0 * single_spend - CARD_POINTS[c.rank], self.cost[i])


#: One :class:`_StreetTables` per trump order (``id`` → tables; orders are cached by the engine).
_STREET_TABLES: dict[int, _StreetTables] = {}


def _street_tables(order: Any) -> _StreetTables:
    tables = _STREET_TABLES.get(id(order))
    if tables is None or tables.order is not order:
        tables = _STREET_TABLES[id(order)] = _StreetTables(order)
    return tables


def _beaters(beaten_by: Any, hand_mask: int, hand_size: int, best: tuple) -> bool:
    """Cheap test that a hand (``hand_mask``, one bit per card index) can beat
    the set ``best`` card for card: every card of the set has a beater and
    there are enough distinct beaters (Hall's condition on the whole set —
    exact for one card, nearly so for more)."""
    if hand_size < len(best):
        return False
    used = 0
    for b in best:
        found = beaten_by[b._index] & hand_mask
        if not found:
            return False
        used |= found
    return used.bit_count() >= len(best)


def _street_policy(world: Any) -> Action:
    """A cheap version of the heuristic's street play on the world state (see
    :mod:`goat.bots.heuristic`), built without listing every legal action: lead
    the richest set no opponent can beat, else the cheapest single card; feed a
    partner whose set stands; else beat with the cheapest set that stands; else
    pass the cheapest cards. Never a molodka.

    "Stands": no opponent after this seat can beat the set (the world's real
    hands: rollouts play the determinized world open-handed), judged by
    :func:`_beaters`."""
    seat = world.to_act   # current_player() in play
    hands = world.hands
    hand = hands[seat]
    order, n = world.order, world.num_players
    teams = world._teams   # KozelState.team_of, without the call
    team = teams[seat]
    t = _street_tables(order)
    beaten_by, points, spend_of = t.beaten_by, t.points, t.spend
    trick = world.trick
    start = len(trick)
    # the opponents still to play after this seat: (hand mask, hand size)
    opponents = []
    for i in range(1, n - start):
        other = (seat + i) % n
        if teams[other] != team:
            held = hands[other]
            mask = 0
            for c in held:
                mask |= 1 << c._index
            opponents.append((mask, len(held)))

    def stands(cards: tuple) -> bool:
        for mask, size in opponents:
            if _beaters(beaten_by, mask, size, cards):
                return False
        return True

    def spend(cards: Any) -> float:
        total: float = 0
        for c in cards:
            total += spend_of[c._index]   # 0.0 for a plain card: the same sum
        return total

    if not trick:
        suits: dict[str, list] = {}
        for c in hand:
            suits.setdefault(c.suit, []).append(c)
        best_set, best_value = None, -math.inf
        max_lead = world.rules.max_lead
        for cards in suits.values():
            for size in range(1, min(max_lead, len(cards)) + 1):
                for combo in combinations(cards, size):
                    total: float = 0
                    value = 0
                    for c in combo:
                        i = c._index
                        value += points[i]
                        total += spend_of[i]
                    v = value + 2.0 * size - 0.5 * total
                    if v > best_value and stands(combo):
                        best_set, best_value = combo, v
        if best_set is not None:
            return Action(seat, "play", best_set)
        cost = t.cost
        return Action(seat, "play", (min(hand, key=lambda c: cost[c._index]),))
    need = len(trick[0].cards)
    best = trick[world.best_index]
    if teams[best.seat] == team and stands(best.cards):
        feed = t.feed
        ordered = sorted(hand, key=lambda c: feed[c._index])
        return Action(seat, "pass", tuple(ordered[:need]))
    # only cards that beat some card of the set can be in a beating set; the
    # combinations of those come in the same order as among the whole hand's
    targets = 0
    for b in best.cards:
        targets |= 1 << b._index
    beats_mask = order.beats_mask
    able = [c for c in hand if beats_mask[c._index] & targets]
    standing = [combo for combo in combinations(able, need)
                if beats_set(order, combo, best.cards) and stands(combo)]
    if standing:
        return Action(seat, "play", min(standing, key=lambda cs: (spend(cs), sum([points[c._index] for c in cs]))))
    cost = t.cost
    return Action(seat, "pass", tuple(sorted(hand, key=lambda c: cost[c._index])[:need]))


def deal_rewards(world: Any) -> list[float]:
    """Each seat's reward in [-1, 1] for the deal the world just finished
    (see the module docstring); 0 for every seat if no deal has ended."""
    n = world.num_players
    rules = world.rules
    if world.match_over:
        loser = getattr(world, "loser_team", None)
        if loser is not None:
            return [-1.0 if rules.team_of(s) == loser else 1.0 for s in range(n)]
        winner = getattr(world, "winner_team", None)
        if winner is None:
            winner = world.deal_results[-1]["winner_team"]
        return [1.0 if rules.team_of(s) == winner else -1.0 for s in range(n)]
    if not world.deal_results:
        return [0.0] * n
    result = world.deal_results[-1]
    if "score" in result:   # Spades: the deal's score balance, 200 points to the unit
        score = result["score"]
        return [max(-1.0, min(1.0, (score[s % 2] - score[1 - s % 2]) / SPADES_SCALE)) for s in range(n)]
    pen, pts = result["penalty"], result["points"]
    sides = len(pen)
    scale = penalty_scale(rules)
    out = []
    for s in range(n):
        t = rules.team_of(s)
        pen_balance = (sum(pen) - pen[t]) / (sides - 1) - pen[t]
        pts_balance = pts[t] - (sum(pts) - pts[t]) / (sides - 1)
        out.append(0.75 * max(-1.0, min(1.0, pen_balance / scale)) + 0.25 * pts_balance / 120)
    return out


#: Spades deal-score difference that counts as a full win of the deal in a rollout.
SPADES_SCALE = 200.0


def penalty_scale(rules: Any) -> int:
    """The largest penalty one deal usually brings: 6 (graded), else 2 or the
    shamok's penalty — so a deal's penalty balance maps onto [-1, 1]."""
    if rules.penalty == "graded":
        return 6
    return max(2, rules.shamok_penalty if rules.has_shamok and rules.shamok_catches_queen else 2)
