"""Determinization: a complete duel consistent with what one seat knows.

:func:`sample_world` reads only a seat's view — the open deck lists, the
ruleset and the seat's history (``YugiohState.history_of``: every decision as
the seat saw it, every chance event, every glimpse of a hidden card) — and
returns a :class:`~goat.games.yugioh.state.YugiohState` whose view for that
seat is *exactly* the given view. Search bots (ISMCTS, PIMC) then play on in
it without ever touching the real state.

How: a card's identity matters only where someone sees it, so the world is
rebuilt by replaying the history in a fresh match whose hidden cards get their
names lazily.

1. **Replay with renaming.** Every shuffle gets a random order. Before each
   step, the glimpses it will produce (``see top 0 Sangan``, ``see slot 1 S2
   Mirror Force``, ``see hand 1 Pot of Greed`` ...) are made true by swapping
   names between two cards that the seat has never seen (same owner, both in a
   Deck, a hand or face down). A hidden choice of the other seat (``1 set
   ?spell``) takes any legal choice that looks the same. Cards the seat has
   seen are pinned and never renamed; a face-down card keeps the class it was
   Set as (a monster needing k tributes, a Spell/Trap); a Deck proved to hold
   no copy of a card (Nobleman of Crossout) or nothing to search (Sangan) keeps
   that property. An action of the other seat still illegal once its card
   is named first gives its hand the names the hand shows before its next
   hidden draw (Black Luster Ritual's Soldier and tributes, shown only as it
   resolves), and a card it picks from the hand is renamed among those the
   decision offers. Each step must produce exactly the history's entries. A name
   an assumed list lacks is given all the same and noted, and the attempt goes
   on to note the others: the next attempt's list holds them all.
2. **A clean replay.** The final names give every shuffle's order and every
   hidden choice's text; a fresh match replays them (so the world's records,
   ``clone`` and chance lists are coherent) and its view must equal the given
   one, else the attempt is retried.

Both passes play the whole match through the engine (nothing hidden is
revealed when a duel ends, so earlier duels' hidden cards are redrawn too, and
only the clean replay gives the other seat a coherent history): that is what a
world costs; the work around them is kept per step small and per sampler once.

Between duels the other seat's side-deck swaps are hidden: they are chosen so
that its next main deck holds every card it shows in that duel, with the same
number of swaps.

Under ``ask_responses="when-able"`` whether the other seat was asked at a
response window depends on its hidden cards, so each of its windows is
evidence: the first pass answers them from the history and renames its hidden
cards to match (:mod:`.world_windows`).

Approximations (documented in ``docs/yugioh.md``): hidden cards are spread
uniformly over the places they could be, not weighted by how likely the
opponent's choices were with them (the usual determinization); under
"when-able" a step that passes several windows of the other seat does not say
at which one it was asked: a ``pass`` is tried at each in turn over a draw's
attempts, so sampling may still give up there (and where a card glimpsed
later cannot take a name that keeps every earlier window's answer).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from itertools import groupby
from dataclasses import dataclass
from typing import Any

from goat.games.yugioh.cards.data import DATABASE
from goat.games.yugioh.chain import spell_trap_shapes
from goat.games.yugioh.decisions import ChanceRequest, Decision
from goat.games.yugioh.deck import DeckError, DeckList, copies_allowed
from goat.games.yugioh.duel import visible_to
from goat.games.yugioh.rules import YugiohRules, make_rules
from goat.games.yugioh.state import YugiohState, public_action, replay
from goat.games.yugioh.world_windows import _DUEL_START, WindowEvidence, _Retry
from goat.games.yugioh.zones import FIELD_SLOT, CardInst
from goat.games.worlds import WorldSamplingError
from goat.protocol import GoatError

#: Zones where a card may hide (and be renamed) from the seat that samples.
_HIDING = ("deck", "hand", "monster", "spell")
#: The size of a side deck assumed for a seat seen side-decking whose assumed list has none.
SIDE_SIZE = 15


def sample_world(view: dict[str, Any], rng: random.Random, max_tries: int = 30,
                 opponent_deck: DeckList | None = None) -> YugiohState:
    """A complete match state whose ``view(seat)`` equals ``view``.

    When the view holds no list for the other seat (deck lists closed, the
    default), ``opponent_deck`` is assumed for it — by default a mirror of the
    seat's own list (the Goat Control mirror) — made consistent with the view:
    every card of the other seat seen so far is put in, in place of cards never
    seen, and its main and Fusion Deck sizes are those the view shows
    (:func:`assumed_deck`); a card found missing during an attempt is added too.

    Raises :class:`WorldSamplingError` for a spectator's view, a view that is
    not a Yu-Gi-Oh! view, or when ``max_tries`` attempts all fail.
    """
    return YugiohWorldSampler(view, max_tries, opponent_deck).sample(rng)


class YugiohWorldSampler:
    """Draws any number of worlds from one seat's view, read once
    (:class:`goat.games.worlds.WorldSampler`): ``sample(rng)`` gives exactly
    ``sample_world(view, rng)`` — the same world, the same use of ``rng`` — so a
    search bot drawing several worlds a decision parses the view, its rules and
    history, and serialises it for the final check only once (what the view
    proves of a closed opponent list too). Each draw still makes its own
    assumption of that list from ``rng``, so draws are independent."""

    def __init__(self, view: dict[str, Any], max_tries: int = 30,
                 opponent_deck: DeckList | None = None) -> None:
        if not isinstance(view, dict) or view.get("game") != "yugioh":
            raise WorldSamplingError("sample_world needs a Yu-Gi-Oh! view dict")
        seat = view.get("seat")
        if seat not in (0, 1) or isinstance(seat, bool):
            raise WorldSamplingError("sample_world needs a seat's view, not a spectator's")
        try:
            self.rules = make_rules(view["rules"], view["options"])
            lists = view["decklists"]
            self.own = DeckList.from_json(lists[seat])
            self.view = view
            self.assumed = lists[1 - seat] is None
            self.base = opponent_deck if opponent_deck is not None else self.own
            self.other = None if self.assumed else DeckList.from_json(lists[1 - seat])
            history = list(view["history"])
            self.single_duel = bool(view["single_duel"])
        except (KeyError, TypeError, DeckError, GoatError) as exc:
            raise WorldSamplingError(f"not a usable Yu-Gi-Oh! view ({exc})") from None
        self.seat = seat
        self.max_tries = max_tries
        self.target = json.dumps(view, sort_keys=True)
        self._evidence: _Evidence | None = None
        self.steps: list[tuple[str, list[str]]] = []
        for entry in history:
            if entry.startswith("see "):
                if not self.steps:
                    raise WorldSamplingError("a history must start with a decision or a chance event")
                self.steps[-1][1].append(entry[4:])
            else:
                self.steps.append((entry, []))

    def evidence(self) -> _Evidence:
        """What the view proves of the other seat's list, read by the first draw
        that assumes one (so a bad view fails there, as ``sample_world`` does)."""
        if self._evidence is None:
            self._evidence = _Evidence.of(self.view)
        return self._evidence

    def sample(self, rng: random.Random) -> YugiohState:
        """The first of ``max_tries`` attempts that rebuilds the view; raises
        :class:`WorldSamplingError` when all fail."""
        try:
            context = _Context(self, rng)
        except (KeyError, TypeError, DeckError, GoatError) as exc:
            raise WorldSamplingError(f"not a usable Yu-Gi-Oh! view ({exc})") from None
        problem = ""
        for attempt in range(self.max_tries):
            forced = dict(context.forced)
            try:
                return context.attempt(rng)
            except _Retry as retry:
                problem = str(retry)
                if retry.learned:
                    for owner, name, duel, have in retry.learned:
                        context.add_missing(owner, name, duel, have)
                    continue
                context.stalled(retry.step, forced)
                if attempt % 5 == 4:
                    context.reassume()  # another draw of which unseen cards the assumption replaced
        raise WorldSamplingError(f"no world consistent with seat {self.seat}'s view found in {self.max_tries} "
                                 f"tries (last problem: {problem})")


class _Context:
    """One draw's attempts: the sampler's reading of the view plus the decks
    assumed for this draw (an assumed list grows when an attempt misses a card)."""

    def __init__(self, reading: YugiohWorldSampler, rng: random.Random) -> None:
        self.rules = reading.rules
        self.view = reading.view
        self.seat = reading.seat
        self.single_duel = reading.single_duel
        self.steps = reading.steps
        self.target = reading.target
        self.assumed = reading.assumed
        self.base = reading.base
        self.rng = rng
        self.extra: Counter = Counter()
        #: Per duel after the first: how many copies of a card its main deck
        #: must hold, learned from failed attempts (:meth:`add_missing`); the
        #: hidden side-decking before it keeps or brings them in (:meth:`_Renamer.plan_side`).
        self.duel_needs: dict[int, Counter] = {}
        #: Copies the assumed side deck must hold, learned the same way.
        self.side_extra: Counter = Counter()
        #: Under "when-able": a step -> which of its windows of the other seat
        #: asks it for the ``pass`` that follows; per step reached unasked, how
        #: many of those choices were tried (:meth:`.WindowEvidence.missed_window`).
        self.forced: dict[int, int] = {}
        self.tried: dict[int, int] = {}
        #: Per such step, the windows its ``pass`` may be placed at, in the order tried;
        #: the steps in the order they were placed (:meth:`place_next`).
        self.candidates: dict[int, list[tuple[int, int]]] = {}
        self.placed: list[int] = []
        #: Per step and the placements before it, the windows whose ``pass`` an attempt
        #: reached unasked (:meth:`refute`): :meth:`place_next` and :meth:`stalled` skip them.
        self.refuted: set[tuple[int, frozenset[tuple[int, int]], tuple[int, int]]] = set()
        #: Per set of placements and step, how many attempts failed there for another reason (:meth:`stalled`).
        self.stalls: Counter = Counter()
        #: The last attempt's kinds of ``pass`` and windows per step (:meth:`place_earlier`).
        self.last_windows: tuple[dict[int, str], dict[int, int]] = ({}, {})
        #: Steps where an ``activate`` of a card a chain link returns to the hand is asked
        #: at the chain after all: the clean replay failed when it came after (:meth:`.WindowEvidence.returning`).
        self.chained: set[int] = set()
        self.evidence = reading.evidence() if self.assumed else None
        self._hand_later: dict[int, list[frozenset[str]]] = {}
        own = reading.own
        other = assumed_deck(self.view, self.base, rng, evidence=self.evidence) if self.assumed else reading.other
        self.decks = [own, other] if self.seat == 0 else [other, own]

    def hand_later(self, seat: int) -> list[frozenset[str]]:
        """Per step, the names glimpsed in ``seat``'s hand after it to its duel's
        end (:meth:`_Renamer.hand_shows_later`), read once a draw: the renames
        ask at many windows of a late duel's hundreds of steps."""
        if seat not in self._hand_later:
            head = f"hand {seat} "
            out: list[frozenset[str]] = [frozenset()] * len(self.steps)
            after: frozenset[str] = frozenset()
            for index in range(len(self.steps) - 1, -1, -1):
                out[index] = after
                entry, seen = self.steps[index]
                after = frozenset() if _DUEL_START.match(entry) else \
                    after | {fact[len(head):] for fact in seen if fact.startswith(head)}
            self._hand_later[seat] = out
        return self._hand_later[seat]

    def place_next(self, index: int) -> bool:
        """Ask for step ``index``'s ``pass`` at the next of its candidate
        windows (:meth:`.WindowEvidence.missed_window`), after the last the
        first again (an attempt that failed elsewhere may have ruled out the
        right one), skipping a window refuted under the same placements before
        it (:meth:`refute`) while one is not; ``False`` when it has none."""
        candidates = self.candidates.get(index, [])
        if not candidates:
            return False
        start = self.tried.get(index, -1) + 1
        order = [(start + k) % len(candidates) for k in range(len(candidates))]  # all tried: again from the first
        tried = next((k for k in order if not self.is_refuted(index, candidates[k])), order[0])
        self.tried[index] = tried
        for step, _ in candidates:
            self.forced.pop(step, None)
        step, number = candidates[tried]
        self.forced[step] = number
        return True

    def before(self, index: int) -> frozenset[tuple[int, int]]:
        """The placements an attempt makes before step ``index``'s own: what
        decides whether it reaches that step asked (:meth:`refute`)."""
        own = {step for step, _ in self.candidates.get(index, [])}
        return frozenset((step, n) for step, n in self.forced.items() if step < index and step not in own)

    def refute(self, index: int) -> None:
        """An attempt reached step ``index``'s ``pass`` unasked with its
        placement at the current candidate: under the same placements before
        it, that window is not the one (:meth:`.WindowEvidence.missed_window`).
        Only evidence, not proof (the renames are random): once every candidate
        is refuted, :meth:`place_next` cycles through them all again."""
        if index in self.tried and index in self.candidates:
            candidate = self.candidates[index][self.tried[index]]
            if self.forced.get(candidate[0]) == candidate[1]:
                self.refuted.add((index, self.before(index), candidate))

    def is_refuted(self, index: int, candidate: tuple[int, int]) -> bool:
        return (index, self.before(index), candidate) in self.refuted

    def movable(self, index: int) -> bool:
        """Step ``index``'s placement has another candidate not refuted yet:
        a placement whose every other window an attempt reached unasked is the
        only one that gets past its step, and moving it wastes attempts."""
        current = self.candidates[index][self.tried[index]]
        return any(c != current and not self.is_refuted(index, c) for c in self.candidates[index])

    def duel_start(self, index: int) -> int:
        """The first step of the duel step ``index`` is in."""
        last = min(index, len(self.steps) - 1)
        return next((i for i in range(last, -1, -1) if _DUEL_START.match(self.steps[i][0])), 0)

    def place_earlier(self, before: int, pass_kinds: dict[int, str], window_counts: dict[int, int],
                      unplace: int | None = None) -> bool:
        """Give placements to the latest ``pass`` of the other seat before step
        ``before`` (in its duel, later than any ``pass`` placed already) that
        a window took by the default rule, where its step had several windows
        (``pass_kinds``, ``window_counts``: the failed attempt's): the first
        window where a card already could respond may be too late — at an
        earlier one a hidden card the seat held could have been the one, and
        left unasked there it may take none of the names the history needs
        later (a ``pass`` or a glimpse that then fails in every attempt). Its
        windows are tried from the first. ``unplace``: a step whose own
        placement goes back to the start then. ``False`` when there is none."""
        other = 1 - self.seat
        # later than the windows of every other placed ``pass`` up to ``before``
        latest = max((self.candidates[i][self.tried[i]][0] for i in self.placed
                      if i != unplace and self.candidates[i][self.tried[i]][0] <= before), default=-1) + 1
        for step in range(min(before, len(self.steps)) - 1, latest, -1):
            entry = self.steps[step][0]
            if _DUEL_START.match(entry):
                return False
            if entry == f"act {other} pass" and pass_kinds.get(step) == "respond" \
                    and window_counts.get(step - 1, 0) > 1 and step not in self.candidates:
                if unplace is not None:
                    self.unplace(unplace)
                self.candidates[step] = [(step - 1, n) for n in range(window_counts[step - 1])]
                self.placed.append(step)
                return self.place_next(step)
        return False

    def unplace(self, index: int) -> None:
        """Step ``index``'s ``pass`` back to where no placement puts it (its
        next placement starts from its first candidate again)."""
        for step, _ in self.candidates.pop(index, []):
            self.forced.pop(step, None)
        self.tried.pop(index, None)
        if index in self.placed:
            self.placed.remove(index)

    def stalled(self, failed_at: int, forced_before: dict[int, int]) -> None:
        """An attempt failed at step ``failed_at`` for a reason that moved no
        ``pass`` (a glimpse, a hidden Set, a window that could not go
        unasked): when an attempt with the same placements failed there before,
        a ``pass`` at or before that step may be the cause (a window left
        unasked for it, whose hidden cards then may not take a name the
        history shows later): the latest one the first able window took,
        after any placed (:meth:`place_earlier`), else the placed one whose
        window is latest — the next attempts try its next placement.
        Without this, a draw repeated such failures, between random ones
        elsewhere, until its tries ran out. Only a placement in the failing
        step's duel (a window binds only that duel's hidden cards), and only one
        with a window not refuted yet (:meth:`movable`): a placement whose
        other windows all failed at its own step is the one that gets past it,
        and moving it only repeated those failures, four attempts a stall,
        where the later failures were chance (the ``--late=0`` scan's view 11)."""
        if self.forced != forced_before:
            return
        key = (frozenset(self.forced.items()), failed_at)
        self.stalls[key] += 1
        if self.stalls[key] < 2:
            return
        # The latest cause first: a ``pass`` the first window able took, later
        # than any placed ``pass`` (:meth:`place_earlier`); else the ``pass``
        # placed last, its next placement.
        if self.place_earlier(failed_at, *self.last_windows):
            return
        at = {index: self.candidates[index][self.tried[index]][0] for index in self.placed}
        start = self.duel_start(failed_at)
        for index in sorted(self.placed, key=lambda i: at[i], reverse=True):  # the latest windows first
            if start <= at[index] <= failed_at and self.movable(index) and self.place_next(index):
                return

    def reassume(self) -> None:
        if self.assumed:
            decks = list(self.decks)
            decks[1 - self.seat] = assumed_deck(self.view, self.base, self.rng, self.extra, self.evidence,
                                                self.side_extra)
            self.decks = decks

    def add_missing(self, owner: int, name: str, duel: int = 1, have: int = 0) -> None:
        """An attempt needed one more ``name`` for the assumed list: add it.
        A missing card is a guess (the attempt's random renames may have used
        up a copy the list has), and a list grown past the pile sizes the view
        shows decks out later than the view does: when the list could not
        have them (:meth:`_Evidence.holds`), an earlier guess gives up a copy
        (one at random), else the card is not added.

        ``duel``, ``have``: the duel the attempt failed in and how many copies
        its main deck held. After a hidden side-decking that duel's deck is
        the first list with swaps: its side-decking keeps ``have + 1`` copies in
        from then on, and the list grows only if main and side deck together
        hold fewer (the plan used to swap out a copy the duel needs at random,
        and the list then grew a copy too many every other attempt — past what
        a Deck shown to hold no more copies allows, so every later attempt
        failed) — and then its side deck, in place of a side card no duel
        needs, while it has one: a copy the first duel did not need took a place
        in the main deck that one it did need then lacked. The side deck takes
        it only while the side-deckings before that duel can bring in every
        copy the duel holds beyond the main deck (:meth:`_Evidence.side_brings`),
        else the main deck holds it: a side-decking of 3 swaps, a duel after it
        showing two side cards and learned to need two more copies, and every
        later attempt failed there, learning nothing. Never past the
        copies the banlist allows across main, side and Fusion Deck."""
        if duel > 1 and owner != self.seat and self.assumed and self.evidence is not None:
            needs = self.duel_needs.setdefault(duel, Counter())
            needs[name] = max(needs[name], have + 1)
            deck = self.decks[owner]
            main = Counter(deck.main)[name]
            brings = self.evidence.side_brings(deck.main, duel, needs)
            if main >= needs[name] or (main + Counter(deck.side)[name] >= needs[name] and brings):
                return
            if self.evidence.sided and main < needs[name] <= copies_allowed(name, self.rules) \
                    and sum(self.side_extra.values()) + needs[name] - main <= len(deck.side) and brings:
                self.side_extra[name] = max(self.side_extra[name], needs[name] - main)
                decks = list(self.decks)
                decks[owner] = assumed_deck(self.view, self.base, self.rng, self.extra, self.evidence,
                                            self.side_extra)
                self.decks = decks
                return
        deck = self.decks[owner]
        have = Counter(deck.main + deck.fusion)[name]
        allowed = copies_allowed(name, self.rules)
        if not self.assumed or owner == self.seat or self.evidence is None or have >= allowed:
            return  # no legal list holds one more
        if self.side_extra[name] > allowed - have - 1:
            # a copy a later duel needed was put in the side deck: the main deck holds it
            # instead (a side copy no duel needs makes way too: ``_side_within_banlist``)
            self.side_extra[name] = allowed - have - 1
        extra = self.extra.copy()
        extra[name] = have + 1
        side = self.decks[owner].side
        needs = self.evidence.main_needs(side)
        while not self.evidence.holds(side, extra):
            guesses = sorted(n for n in extra if n != name and extra[n] > needs[n])
            if not guesses:
                return
            drop = self.rng.choice(guesses)
            extra[drop] -= 1
            if extra[drop] <= needs[drop]:
                del extra[drop]
        self.extra = extra
        decks = list(self.decks)
        decks[owner] = assumed_deck(self.view, self.base, self.rng, self.extra, self.evidence, self.side_extra)
        self.decks = decks

    def attempt(self, rng: random.Random) -> YugiohState:
        renamer = _Renamer(self, rng)
        self.last_windows = (renamer.pass_kinds, renamer.window_counts)
        try:
            chances, actions = renamer.run()
        except _Retry as retry:
            retry.step = renamer.index
            retry.learned = list(renamer.conjured)
            if retry.missing is not None and renamer.world.duel is not None:
                retry.learned.append((*retry.missing, renamer.world.duel.number, renamer.copies(*retry.missing)))
            raise
        world = YugiohState(self.rules, renamer.start, self.single_duel, check_legal=False)
        try:
            replay(world, chances, actions)
        except GoatError as exc:
            self.chained.update(renamer.deferred)
            raise _Retry(f"the clean replay failed: {exc}") from None
        if json.dumps(world.view(self.seat), sort_keys=True) != self.target:
            self.chained.update(renamer.deferred)
            raise _Retry("the clean replay's view differs")
        return world


def _settable_monster(tributes: int) -> Callable[[str], bool]:
    def ok(name: str) -> bool:
        d = DATABASE[name]
        return (d.is_monster and not d.is_fusion and "nomi" not in d.traits and "token" not in d.traits
                and d.tributes_needed() == tributes)
    return ok


def _spell_or_trap(name: str) -> bool:
    """What a "?spell" Set can be: any Spell/Trap but a Field Spell (those go to the Field zone)."""
    return DATABASE[name].kind in ("spell", "trap") and DATABASE[name].subtype != "field"


def _searchable(name: str) -> bool:
    d = DATABASE[name]
    return d.is_monster and d.atk <= 1500


def _field_spell(name: str) -> bool:
    return DATABASE[name].subtype == "field" and DATABASE[name].kind == "spell"


def _warrior(name: str) -> bool:
    d = DATABASE[name]
    return d.is_monster and d.race == "Warrior" and 1 <= d.level <= 4


def _summonable(name: str) -> bool:
    return DATABASE[name].summonable_by_effect


def _swordsman_lv4(name: str) -> bool:
    return name == "Mystic Swordsman LV4"


def _swordsman_lv6(name: str) -> bool:
    return name == "Mystic Swordsman LV6"


#: What a ``nofind`` glimpse says the Deck lacks, by its words after the seat ("nofind 1"
#: alone: Sangan's search, a monster with 1500 or less ATK). A Mystic Swordsman's
#: level-up (LV2 to LV4, LV4 to LV6): "lv4" (the Deck had none: it took the hand's) and
#: "lv4 hand" (the hand had none either), likewise "lv6" and "lv6 hand".
_NOFIND: dict[str, Callable[[str], bool]] = {"": _searchable, "warrior": _warrior, "summonable": _summonable,
                                              "lv4": _swordsman_lv4, "lv4 hand": _swordsman_lv4,
                                              "lv6": _swordsman_lv6, "lv6 hand": _swordsman_lv6}
#: The ``nofind`` glimpses that show the hand too.
_NOFIND_HAND = frozenset({"lv4 hand", "lv6 hand"})


class _Renamer(WindowEvidence):
    """One attempt's first pass: replay the history, renaming hidden cards
    (under ``ask_responses="when-able"`` answering the other seat's response
    windows from the history: :mod:`.world_windows`)."""

    def __init__(self, context: _Context, rng: random.Random) -> None:
        self.ctx = context
        self.rng = rng
        self.seat = context.seat
        self.world = YugiohState(context.rules, context.decks, context.single_duel, check_legal=False)
        #: The deck lists the match starts with (an assumed one may change in its first duel: :meth:`list_rename`).
        self.start = list(context.decks)
        self.pinned: set[CardInst] = set()
        self.tags: dict[CardInst, list[Callable[[str], bool]]] = {}
        self.chances: list[Any] = []      # coin seat | [cards] (a shuffle) | discarded name
        #: text | (prefix, card): the card's final name ends the text | (before, card, after): it is inside
        self.actions: list[Any] = []
        self.side_plan: list[str] = []
        #: A seat's last hidden side-decking: the duel after it, its deck list
        #: before, its number of swaps and where they are in ``actions``.
        self.sided: dict[int, tuple[int, DeckList, int, list[int]]] = {}
        self.dirty = False                # a hidden card was renamed: ask the pending question again
        self.when_able = context.rules.ask_responses == "when-able"
        self.index = 0                    # the step being replayed
        self.claimed_now: set[CardInst] = set()  # cards named by that step's glimpses
        self.banned: dict[CardInst, set[str]] = {}
        self.needs: dict[CardInst, list[dict[CardInst, frozenset[str]]]] = {}
        self.window_renamed = False       # a window renamed a card: its question is asked again
        #: Cards an assumed list lacked, given their names anyway (:meth:`conjure`):
        #: (owner, name, duel, copies that duel's main deck held); the attempt is then only a lesson.
        self.conjured: list[tuple[int, str, int, int]] = []
        self.windows = 0
        self.window_counts: dict[int, int] = {}
        self.pass_kinds: dict[int, str] = {}
        self.deferred: list[int] = []

    # ------------------------------------------------------------------ driver
    def run(self) -> tuple[list[Any], list[str]]:
        for index, (entry, seen) in enumerate(self.ctx.steps):
            before = len(self.world.history[self.seat])
            self.dirty, self.window_renamed = self.window_renamed, False
            self.index = index
            self.claimed_now = set()
            self.windows = 0
            if self.when_able:
                self.watch_windows()
            if entry.startswith("chance shuffle "):
                self.shuffle(entry, seen)
            elif entry.startswith("chance "):
                self.prepare(seen)
                self.chance(entry)
            elif entry.startswith("act "):
                self.prepare(seen + self.searched_next(index))
                self.act(entry[4:], index)
            else:
                raise _Retry(f"unknown history entry {entry!r}")
            got = self.world.history[self.seat][before:]
            want = [entry] + ["see " + s for s in seen]
            if got != want:
                if self.when_able and index + 1 < len(self.ctx.steps):
                    if got == want[:len(got)]:
                        self.asked_too_soon(index + 1)  # stopped short: the other seat asked before the step's end
                    self.passed_by(index + 1)  # the other seat's pass next: it may be due in this step
                raise _Retry(f"step {index} ({entry}) showed {got[:4]}")
            self.pin()
        if self.conjured:
            raise _Retry(f"the assumed list lacked {sorted({c[1] for c in self.conjured})}")
        chances = [[c.name for c in x] if isinstance(x, list) else x for x in self.chances]
        actions = [x if isinstance(x, str) else f"{x[0]} {x[1].name}" if len(x) == 2 else f"{x[0]}{x[1].name}{x[2]}"
                   for x in self.actions]
        return chances, actions

    def searched_next(self, index: int) -> list[str]:
        """The glimpse ``deck 1 Blade Knight`` of the next step when that step
        is the search taking it (``act 1 choose Blade Knight``): the card is in
        the Deck during step ``index`` already, and that step's resolution
        (Sangan, Reinforcement of the Army) asks for the search only if the
        Deck then holds a card it may take — else it shows ``nofind``, and
        the glimpse came a step too late to make it true. Nothing when the
        Deck holds a card so called now (the next step picks among them)."""
        if index + 1 >= len(self.ctx.steps) or self.world.duel is None:
            return []
        entry, seen = self.ctx.steps[index + 1]
        parts = entry.split(" ", 3)
        if len(parts) < 4 or parts[0] != "act" or parts[2] != "choose" or parts[1] not in ("0", "1"):
            return []
        fact = f"deck {parts[1]} {parts[3]}"
        deck = self.world.duel.players[int(parts[1])].deck
        return [fact] if fact in seen and all(c.name != parts[3] for c in deck) else []

    def pending_chance(self, kind: str) -> ChanceRequest:
        pending = self.world.pending()
        if not isinstance(pending, ChanceRequest) or pending.kind != kind:
            raise _Retry(f"expected a {kind} chance event, the world has {pending}")
        return pending

    def apply_chance(self, outcome: Any) -> None:
        if self.dirty:
            self.world.refresh()
        try:
            self.world.apply_chance(outcome)
        except GoatError as exc:
            raise _Retry(str(exc)) from None

    def chance(self, entry: str) -> None:
        """A coin toss or a random discard: public outcomes."""
        _, kind, *rest = entry.split(" ", 3)
        self.pending_chance(kind)
        outcome: Any = int(rest[0]) if kind == "coin" else rest[1]
        self.apply_chance(outcome)
        self.chances.append(outcome)

    def shuffle(self, entry: str, seen: list[str]) -> None:
        """A random new order, then the glimpses that follow it made true."""
        seat = self.pending_chance("shuffle").seat
        order = list(self.world.duel.players[seat].deck)
        self.rng.shuffle(order)
        self.prepare(seen, {seat: list(order)})
        names = [c.name for c in order]
        # The engine gives each name the first card of that name in the old
        # order: record the cards it will really put where.
        pool: dict[str, list[CardInst]] = {}
        for card in self.world.duel.players[seat].deck:
            pool.setdefault(card.name, []).append(card)
        placed = [pool[name].pop(0) for name in names]
        self.dirty = True  # the request's names are remade from the Deck
        self.apply_chance(names)
        self.chances.append(placed)

    def act(self, text: str, index: int) -> None:
        world = self.world
        pending = world.pending()
        seat = int(text.split(" ", 1)[0])
        if self.when_able and seat != self.seat and (not isinstance(pending, Decision) or pending.seat != seat):
            self.missed_window(seat, text)
        if not isinstance(pending, Decision) or pending.seat != seat:
            raise _Retry(f"expected a decision of seat {seat}, the world has {pending}")
        if seat == self.seat:
            if self.dirty:
                world.refresh()
            self.apply(text)
            self.actions.append(text)
            return
        if pending.kind == "side" and text.endswith(" swap ?"):
            if not self.side_plan:
                self.side_plan = self.plan_side(seat, index)
            chosen = self.side_plan.pop(0)
            self.apply(chosen)
            self.sided[seat][3].append(len(self.actions))
            self.actions.append(chosen)
            return
        if self.dirty:
            world.refresh()
            pending = world.pending()
        matches = self.matching(pending, text)
        if text == f"{seat} pass":
            self.pass_kinds[index] = pending.kind
        if not matches:
            lessons = len(self.conjured)
            self.make_legal(pending, text)
            world.refresh()
            pending = world.pending()
            matches = self.matching(pending, text)
            if not matches:
                # The rename did not make the action legal, so it proves no card missing: the
                # world is elsewhere (``1 pass`` declined Sinister Serpent's Standby trigger and
                # its ``activate`` from the Graveyard renamed a hand card a second Serpent).
                del self.conjured[lessons:]
        if not matches and text.startswith(f"{seat} activate "):
            lessons = len(self.conjured)
            if self.hand_now(seat):
                world.refresh()
                pending = world.pending()
                matches = self.matching(pending, text)
            if not matches:
                del self.conjured[lessons:]  # as above: the renames proved no card missing
        if not matches:
            if self.when_able and seat != self.seat and pending.kind != "respond":
                self.missed_window(seat, text)
            raise _Retry(f"no legal action looks like {text!r}")
        if " ?" not in text:
            chosen = self.rng.choice(matches)
            record = self.naming_face_down(seat, chosen)
            self.apply(chosen)
            self.actions.append(record)
            return
        # A Set from the hand: the engine takes the first card of that name.
        chosen = self.choose_set(seat, index, text, matches)
        verb, name = chosen.split(" ", 2)[1:]
        card = next(c for c in world.duel.players[seat].hand if c.name == name)
        self.tags.setdefault(card, []).append(self.set_class(text))
        self.apply(chosen)
        self.actions.append((f"{seat} {verb}", card))

    def naming_face_down(self, seat: int, text: str) -> str | tuple[str, CardInst, str]:
        """``text`` as ``actions`` keeps it: where it names one of ``seat``'s
        face-down cards (``face-down@1M3`` to the other seat), the card itself,
        whose final name the clean replay's text takes. A later glimpse may
        rename that hidden card (Nobleman of Crossout's own Set monster shown
        Airknight Parshath): the text with the name it had then was not a legal
        choice in the clean replay."""
        duel = self.world.duel
        if "@" not in text or seat == self.seat:
            return text
        for card in duel.players[seat].field_monsters() + duel.players[seat].field_spells():
            label = duel.label(card, seat)
            if not card.face_up and label in text:
                before, after = text.split(label, 1)
                return before, card, label[len(card.name):] + after
        return text

    @staticmethod
    def set_class(text: str) -> Callable[[str], bool]:
        if text.endswith("?field"):
            return _field_spell
        return _spell_or_trap if text.endswith("?spell") else _settable_monster(int(text.rsplit(":", 1)[1]))

    def choose_set(self, seat: int, index: int, text: str, matches: list[str]) -> str:
        """Which hand card a hidden Set takes: the one its slot later shows, if
        the history shows it, else any card of the right class."""
        duel = self.world.duel
        zone = "spell" if text.endswith(("?spell", "?field")) else "monster"
        later = None
        if not text.endswith(("?monster:1", "?monster:2")):  # else its zone depends on the tributes chosen next
            slot_index = FIELD_SLOT if text.endswith("?field") else duel.players[seat].first_free(zone)
            slot = f"{'S' if zone == 'spell' else 'M'}{slot_index + 1}"
            later = self.later_in_slot(seat, slot, index)
        if later is None:
            kept = self.keeping_hand(seat, index, matches)
            if kept:
                return self.rng.choice(kept)
            # none keeps what the hand shows later: a spare card traded to be the Set one, else
            # one that keeps what it shows before the next hidden draw, else any
            return (self.set_spare(seat, index, text) or self.rng.choice(self.keeping_hand(seat, index, matches, False)
                                                                          or matches))
        wanted = f"{text.split(' ', 2)[0]} {text.split(' ', 2)[1]} {later}"
        if wanted not in matches:
            hand = [c for c in duel.players[seat].hand if c not in self.pinned and self.accepts(c, later)]
            if not hand:
                raise _Retry(f"no hand card can be the {later} Set now")
            needed = self.hand_must_show(seat, index)
            hand = [c for c in hand if self.keeps_hand(seat, c, needed)] or hand
            if zone == "monster":
                hand = self.bound(hand)
            self.rename(self.rng.choice(hand), later, set())
            self.world.refresh()
            if wanted not in self.world.pending().actions:
                raise _Retry(f"cannot Set {later}")
        return wanted

    def keeping_hand(self, seat: int, index: int, matches: list[str], scarce: bool = True) -> list[str]:
        """The hidden Sets among ``matches`` (``"{seat} set NAME"``) that keep
        the hand able to show what it must (:meth:`keeps_hand`) and, with
        ``scarce``, keep in hand a card so called for each name it holds that
        the hand shows later in the duel (:meth:`hand_shows_later`) and no
        hidden card outside the hand has: such a card (one the seat has seen,
        or the last hidden copy) can be shown there later only if it stays,
        else a card renamed to it is a copy the list lacks (:meth:`conjure`: a
        guess, which pushes another card out of a list of proven size). A
        hidden Set took the other seat's Asura Priest back in its hand (a
        Spirit: its identity known, so it stayed bound face down); the hand
        showed it again after a hidden draw, a third copy was conjured, and the
        lists the next attempts assumed failed across duel 1 (a late-duel view,
        seed 23). Empty when none does (:meth:`set_spare` then)."""
        needed = self.hand_must_show(seat, index)
        hand = self.world.duel.players[seat].hand

        def card(text: str) -> CardInst:
            return next(c for c in hand if c.name == text.split(" ", 2)[2])  # the engine Sets the first so called

        kept = [t for t in matches if self.keeps_hand(seat, card(t), needed)] if needed else matches
        if not scarce:
            return kept
        outside = {c.name for c in self.hidden_cards(seat) if c.zone != "hand"}
        names = set(self.hand_shows_later(seat, index)) & {c.name for c in hand} - outside
        return [t for t in kept if names <= {c.name for c in hand if c is not card(t)}]

    def hand_shows_later(self, seat: int, index: int) -> set[str]:
        """The names glimpsed in ``seat``'s hand after step ``index`` to the
        duel's end, past hidden draws too (unlike :meth:`hand_must_show`)."""
        return self.ctx.hand_later(seat)[index]

    def bound(self, cards: list[CardInst]) -> list[CardInst]:
        """The ``cards`` (hand cards a hidden monster Set the history shows
        later may be renamed to be) that windows where their owner was not
        asked have ruled names out for, where one has: a Set monster answers
        no window, so the hand keeps a card no window has bound yet (one just
        drawn) free to be what the next windows need — the Mystical Space
        Typhoon that made the seat asked where every older card was ruled out
        for it. Preferring the most bound card instead, and among cards already
        so called too, cost draws elsewhere (a late-duel view, seed 57: 4 and 5
        of 12 draws failed, 0 on main)."""
        return [c for c in cards if self.banned.get(c)] or cards

    def set_spare(self, seat: int, index: int, text: str) -> str | None:
        """No hand card of the Set's class may go without leaving the hand
        unable to show what it must (its one monster is the Sinister Serpent
        a discard shows next, its other card a Spell): a hand card the hand
        can spare trades names with a hidden card of that class outside the
        hand (the Deck), and is the one Set — the true Set card was another
        than the world's. The text of the Set, or ``None`` when no trade can
        (any card of the class is Set then, as before)."""
        needed = self.hand_must_show(seat, index)
        fits = self.set_class(text)
        hand = self.world.duel.players[seat].hand
        spare = [c for c in hand if c not in self.pinned and self.keeps_hand(seat, c, needed)]
        others = [c for c in self.hidden_cards(seat) if c.zone != "hand" and fits(c.name)
                  and c.name not in {h.name for h in hand}]  # the engine Sets the first card so called
        pairs = [(a, b) for a in spare for b in others if self.names_ok({a: b.name, b: a.name})]
        if not pairs:
            return None
        # a name the hand shows later stays out of the Set where it can: Set, the windows may
        # bind it there, and a limited Metamorphosis had no copy left for the hand (seed 23)
        later = self.hand_shows_later(seat, index)
        pairs = [(a, b) for a, b in pairs if b.name not in later] or pairs
        card, partner = self.rng.choice(pairs)
        self.swap(card, partner)
        self.world.refresh()
        chosen = f"{seat} {text.split(' ', 2)[1]} {card.name}"
        return chosen if chosen in self.world.pending().actions else None

    def keeps_hand(self, seat: int, gone: CardInst, needed: list[str]) -> bool:
        """Whether ``seat``'s hand without ``gone`` (the card a hidden Set
        takes) still holds cards able to take each of ``needed``
        (:meth:`hand_must_show`): a random pick could keep in hand only cards an
        earlier window (where the seat was not asked) rules out for them."""
        return self.can_show([c for c in self.world.duel.players[seat].hand if c is not gone], needed)

    def hand_must_show(self, seat: int, index: int) -> list[str]:
        """The names glimpsed in ``seat``'s hand after step ``index`` and before
        its next hidden draw (or the duel's end): cards its hand holds now.
        A step's glimpses before its own hidden draw count (Morphing Jar shows
        the hand it discards, then draws five): stopping at the step left the
        card the discard showed free to be spent before."""
        out = []
        for entry, seen in self.ctx.steps[index + 1:]:
            if _DUEL_START.match(entry) or entry.startswith("chance shuffle"):
                break
            for fact in seen:
                if fact == f"top {seat} ?":
                    return out
                if fact.startswith(f"hand {seat} "):
                    out.append(fact[len(f"hand {seat} "):])
        return out

    def can_show(self, cards: list[CardInst], names: list[str]) -> bool:
        """Can distinct ``cards`` be (or be renamed to) each of ``names``? A bipartite matching."""
        owner: dict[int, int] = {}  # card position -> index of the name it shows

        scarce: dict[tuple[int, str], bool] = {}

        def fits(card: CardInst, name: str) -> bool:
            if card.name == name:
                return True
            if card in self.pinned or not self.accepts(card, name):
                return False
            key = (card.owner, name)
            if key not in scarce:
                scarce[key] = self.unobtainable(card.owner, name)
            return not scarce[key]

        def place(i: int, tried: set[int]) -> bool:
            for j, card in enumerate(cards):
                if j not in tried and fits(card, names[i]):
                    tried.add(j)
                    if j not in owner or place(owner[j], tried):
                        owner[j] = i
                        return True
            return False

        return all(place(i, set()) for i in range(len(names)))

    def unobtainable(self, owner: int, name: str) -> bool:
        """Whether no hidden card of ``owner`` can be renamed ``name``: none is
        so called to trade with, and the list holds every copy the banlist
        allows (:meth:`full`), all of them seen (a limited Sinister Serpent back
        in the hand: no other hand card can be it)."""
        return self.full(owner, name) and not any(c.name == name for c in self.hidden_cards(owner))

    def later_in_slot(self, seat: int, slot: str, index: int) -> str | None:
        """The name the history later shows for ``seat``'s face-down card in ``slot``."""
        head = f"slot {seat} {slot} "
        for entry, seen in self.ctx.steps[index + 1:]:
            if _DUEL_START.match(entry):
                return None  # the duel ended with the card still face down
            for fact in seen:
                if fact.startswith(head):
                    return fact[len(head):]
        return None

    def apply(self, text: str) -> None:
        try:
            self.world.apply_action(text)
        except GoatError as exc:
            raise _Retry(str(exc)) from None

    def matching(self, pending: Decision, text: str) -> list[str]:
        duel = self.world.duel
        return [t for t in pending.actions if public_action(duel, pending, t) == text]

    def make_legal(self, pending: Decision, text: str) -> None:
        """An opponent's action naming a card from its hand (or Deck) that the
        world does not have there yet: rename a hidden card so that it does."""
        seat, verb, *rest = text.split(" ", 2)
        if " ?" in text:  # a hidden Set with no card of its class in the hand
            fits = self.set_class(text)
            owner = int(seat)
            hand = [c for c in self.world.duel.players[owner].hand if c not in self.pinned]
            others = [c for c in self.hidden_cards(owner) if c.zone != "hand" and fits(c.name)]
            pairs = [(a, b) for a in hand for b in others if self.accepts(a, b.name) and self.accepts(b, a.name)]
            if not pairs and any(self.side_rename(c, fits) or self.list_rename(c, fits)
                                 for c in self.rng.sample(hand, len(hand))):
                return
            if not pairs and self.pool_conjure(owner, hand, fits, f"no card for {text!r}"):
                return
            if not pairs:
                raise _Retry(f"no card for {text!r}")
            self.swap(*self.rng.choice(pairs))
            return
        if not rest or "@" in rest[0]:
            return
        name = rest[0]
        if verb not in ("summon", "special", "activate", "choose") or name not in DATABASE:
            return
        if verb == "activate" and DATABASE[name].kind != "spell":
            # a hand card is activated only as a Spell (``card_timing_ok``); a monster so named is
            # a Graveyard trigger's (Sinister Serpent's): no hand card lacks the name
            return
        owner = int(seat)
        if verb == "choose" and not self.picks_from_hand(pending, owner):
            return
        zone = "deck" if pending.kind == "search" else "hand"
        pile = self.world.duel.players[owner].pile(zone)
        if any(c.name == name for c in pile):
            return
        spare = [c for c in pile if c not in self.pinned and self.accepts(c, name)]
        if not spare:
            raise _Retry("no way to make the glimpses true")
        if verb == "choose" and zone == "hand":
            spare = self.offered(pending, owner, spare, name)
            if not spare:
                return  # a card renamed outside the options stays no option: the action fails as it is
        self.rename(self.rng.choice(spare), name, set())

    def offered(self, pending: Decision, owner: int, cards: list[CardInst], name: str) -> list[CardInst]:
        """The ``cards`` (hand cards that may take ``name``, the card a
        ``choose`` of ``owner``'s picked) that ``pending`` offers: its options
        are fixed when it is asked (Black Luster Ritual's tributes, the hand's
        monsters then), so a card renamed outside them stays no option — and
        among those, the ones whose loss leaves the hand able to show what it
        shows before its next hidden draw, where one does. Empty when none is
        offered."""
        cards = [c for c in cards if f"{owner} choose {c.name}" in pending.actions]
        needed = list(self.hand_shows_ahead(owner, []))
        if name in needed:
            needed.remove(name)  # the renamed card shows it
        hand = self.world.duel.players[owner].hand
        return [c for c in cards if self.can_show([h for h in hand if h is not c], needed)] or cards

    def hand_now(self, seat: int) -> bool:
        """An activation of ``seat``'s that is still illegal with the card
        itself named (by the step's glimpse or :meth:`make_legal`) may hang on
        its other hidden cards: Black Luster Ritual needs Black Luster Soldier
        and tributes in the hand, glimpsed only as its resolution goes on, steps
        later. Give the hand now the names it shows before its next hidden draw
        (:meth:`hand_shows_ahead`), the cards this step's glimpses named kept;
        ``False`` when it holds them already or cannot take them (the action
        then fails as before: under "when-able" that failure is evidence of
        the window, :meth:`missed_window`)."""
        needed = self.hand_shows_ahead(seat, [])
        hand = list(self.world.duel.players[seat].hand)
        have = Counter(c.name for c in hand)
        if not needed or all(have[n] >= k for n, k in Counter(needed).items()):
            return False
        claimed = set(self.claimed_now)
        try:
            for i, name in enumerate(needed):
                self.hand_has(hand, name, claimed, needed[i + 1:])
        except _Retry:
            return False
        return True

    def picks_from_hand(self, pending: Decision, owner: int) -> bool:
        """Whether ``pending`` (a ``choose`` of ``owner``) may pick a hand card
        (or, a search, a Deck card), so that a hidden one renamed can be the
        card the history chose: a discard, or a cost whose options name no
        public card without naming a hand card (Tribe-Infecting Virus's
        discard, not Chaos Sorcerer's or Skull Lair's banishing from the
        Graveyard). A target is on the field or in a Graveyard, both public
        (Premature Burial's monster, Magician of Faith's Spell): where the
        history's ``choose`` is not among its options the world is elsewhere,
        and renaming a hand card after it proved nothing — a copy the list
        "lacked" (learned by the next attempts) at worst."""
        if pending.kind in ("search", "discard", "tribute"):  # a tribute named so: a Ritual's, from the hand
            return True
        if pending.kind != "cost":
            return False
        player = self.world.duel.players[owner]
        named = {t.split(" ", 2)[2] for t in pending.actions if t.startswith(f"{owner} choose ") and "@" not in t}
        in_hand = any(c.name in named for c in player.hand)
        public = any(c.name in named for c in player.gy + player.banished)
        return in_hand or not public

    # --------------------------------------------------------------- glimpses
    def prepare(self, seen: list[str], decks: dict[int, list[CardInst]] | None = None) -> None:
        """Make the glimpses of the coming step true in the world (``decks``:
        a Deck's order as the step will find it, if not the present one)."""
        if not seen:
            return
        duel = self.world.duel
        if duel is None:
            raise _Retry("no way to make the glimpses true")
        claimed = self.claimed_now
        decks = {s: list(duel.players[s].deck) for s in (0, 1)} | (decks or {})
        hands = {s: list(duel.players[s].hand) for s in (0, 1)}  # with the cards drawn in the step
        for i, fact in enumerate(seen):
            kind, rest = fact.split(" ", 1)
            if kind == "nofind":  # "nofind 1" (Sangan), "nofind 1 warrior" (Reinforcement of the
                owner_text, _, what = rest.partition(" ")  # Army), "nofind 1 summonable" (Last Turn)
                owner = int(owner_text)
                if what in _NOFIND_HAND:  # "nofind 1 lv4 hand": the Deck and the hand
                    pile = decks[owner] + [c for c in hands[owner] if c in self.hidden_cards(owner)]
                    self.deck_without(pile, _NOFIND[what], claimed, zones=("deck", "hand"))
                else:
                    self.deck_without(decks[owner], _NOFIND[what], claimed)
                continue
            seat_text, _, tail = rest.partition(" ")
            owner = int(seat_text)
            if kind == "top":
                if not decks[owner]:
                    raise _Retry("no way to make the glimpses true")
                card = decks[owner].pop(0)
                if tail != "?":
                    self.make(card, tail, claimed)
                else:
                    hands[owner].append(card)
            elif kind == "deck":
                found = [c for c in decks[owner] if c.name == tail and c not in claimed]
                if not found:
                    found = [c for c in decks[owner] if c not in claimed and c not in self.pinned
                             and self.accepts(c, tail)]
                    if not found:
                        raise _Retry("no way to make the glimpses true", (owner, tail))
                card = self.rng.choice(found)
                decks[owner].remove(card)
                self.make(card, tail, claimed)
            elif kind == "nocopy":
                self.deck_without(decks[owner], lambda n, x=tail: n == x, claimed)
            elif kind == "hand":
                later = [f[len(f"hand {owner} "):] for f in seen[i + 1:] if f.startswith(f"hand {owner} ")]
                self.hand_has(hands[owner], tail, claimed, later, self.hand_shows_ahead(owner, seen[i + 1:]),
                              self.choosing(owner, tail))
            elif kind == "slot":
                where, _, name = tail.partition(" ")
                slots = duel.players[owner].slots("monster" if where[0] == "M" else "spell")
                card = slots[int(where[1:]) - 1]
                if card is not None:  # else it arrives within the step: a card the seat saw go face down
                    self.make(card, name, claimed)
            # "fusion": Fusion Decks are the open deck lists; nothing to hide

    def make(self, card: CardInst, name: str, claimed: set[CardInst]) -> None:
        """``card`` must be called ``name``: swap names with a hidden card so called."""
        if card.name != name:
            self.rename(card, name, claimed)
        claimed.add(card)

    def hand_has(self, hand: list[CardInst], name: str, claimed: set[CardInst], later: list[str] = (),
                 ahead: list[str] = (), offered: list[CardInst] | None = None) -> None:
        """A hand card shows ``name``: one so called, else a hidden one renamed.
        ``later``: the names the same step shows next in that hand; the card is
        one that leaves the rest able to show them (:meth:`can_show`) where one
        can — a hand shown at once (Morphing Jar's discard) is a matching, and
        a greedy pick left a card a window rules out for the next name.
        ``ahead``: the names later steps show there before the next hidden
        draw (:meth:`hand_must_show`), preferred the same way where a card
        leaves the rest able to show them too: a Normal Summon renamed the card
        just drawn, and the older card left, ruled out for Scapegoat by windows
        where its owner was not asked, was the one Morphing Jar's discard had
        to show as Scapegoat (a late-duel view, seed 59). ``offered``: the
        cards the pending decision offers where the step chooses the card so
        called (:meth:`choosing`), taken first: a card renamed outside them is
        no option (Black Luster Ritual's tributes)."""
        hand = [c for c in hand if c not in claimed]

        def keeps(card: CardInst, names: list[str]) -> bool:
            return not names or self.can_show([c for c in hand if c is not card], names)

        def best(cards: list[CardInst]) -> list[CardInst]:
            kept = [c for c in cards if keeps(c, list(later))] or cards
            return ([c for c in kept if keeps(c, list(later) + list(ahead))] or kept) if ahead else kept

        def renamable() -> list[CardInst]:
            return [c for c in hand if c not in self.pinned and self.accepts(c, name)]

        named = best([c for c in hand if c.name == name])
        spare = None
        if offered is not None:
            named_offered = [c for c in named if c in offered]
            spare_offered = [c for c in renamable() if c in offered]
            if named_offered or spare_offered:
                named, spare = named_offered, spare_offered
        if named:
            claimed.add(named[0])
            return
        if spare is None:
            spare = renamable()
        if not spare:
            raise _Retry("no way to make the glimpses true")
        self.make(self.rng.choice(best(spare)), name, claimed)

    def choosing(self, owner: int, name: str) -> list[CardInst] | None:
        """The hand cards of ``owner`` the pending decision offers, where the
        step being replayed chooses the card ``name`` (``act 1 choose Z-Metal
        Tank``, glimpsed in the same step); else ``None``."""
        if self.ctx.steps[self.index][0] != f"act {owner} choose {name}":
            return None
        pending = self.world.pending()
        if not isinstance(pending, Decision) or pending.seat != owner:
            return None
        if self.dirty:
            self.world.refresh()
            pending = self.world.pending()
        return [c for c in self.world.duel.players[owner].hand if f"{owner} choose {c.name}" in pending.actions]

    def hand_shows_ahead(self, owner: int, rest: list[str]) -> list[str]:
        """For :meth:`hand_has`: the names later steps glimpse in ``owner``'s
        hand before its next hidden draw (none if the step's glimpses ``rest``
        hold one), but those of a card of ``owner``'s outside its hand and
        Deck (a Spirit on the field comes back to the hand: no hand card now
        needs to be it)."""
        if owner == self.seat or f"top {owner} ?" in rest:  # the seat's own hand is never renamed
            return []
        p = self.world.duel.players[owner]
        away = {c.name for c in p.field_monsters() + p.field_spells() + p.gy + p.banished}
        return [n for n in self.hand_must_show(owner, self.index) if n not in away]

    def deck_without(self, deck: list[CardInst], bad: Callable[[str], bool], claimed: set[CardInst],
                     zones: tuple[str, ...] = ("deck",)) -> None:
        """No card left in ``deck`` may satisfy ``bad``, now or after later renames
        (``deck`` may hold hand cards too: then ``zones`` names both, and a card
        trades its name only with a hidden card outside them).

        A card that may not stay goes back to the side deck first, where a
        hidden side-decking came just before (:meth:`side_rename`): traded to
        the hand, the copy stayed there for good — no Deck card may take its
        name back — and the Sets and hand glimpses after had to spend the
        other hand cards around it (Magician of Faith after Nobleman of
        Crossout: "no hidden Mystical Elf to swap with Magician of Faith")."""
        for card in deck:
            if bad(card.name):
                if self.side_rename(card, lambda n: not bad(n)):
                    self.tags.setdefault(card, []).append(lambda n, b=bad: not b(n))
                    continue
                outside = [c for c in self.hidden_cards(card.owner) if c.zone not in zones and not bad(c.name)
                           and c not in claimed and self.accepts(c, card.name) and self.accepts(card, c.name)]
                if outside:
                    self.swap(card, self.rng.choice(outside))
                elif not (self.side_rename(card, lambda n: not bad(n))
                          or self.list_rename(card, lambda n: not bad(n))):
                    # No hidden card outside the Deck to trade with (an empty hand): the copy
                    # was never in this Deck — swapped out at the side-decking before, or in
                    # the first duel another card of an assumed list took its place.
                    raise _Retry("no way to make the glimpses true")
            self.tags.setdefault(card, []).append(lambda n, b=bad: not b(n))

    # ---------------------------------------------------------------- renames
    def hidden_cards(self, owner: int) -> list[CardInst]:
        """Cards of ``owner`` the sampling seat has never seen (renamable)."""
        p = self.world.duel.players[owner]
        cards = p.deck + p.hand + p.field_monsters() + p.field_spells()
        return [c for c in cards if c not in self.pinned and c.owner == owner and c.zone in _HIDING
                and not visible_to(c, self.seat) and not c.is_token]

    def accepts(self, card: CardInst, name: str) -> bool:
        return (all(ok(name) for ok in self.tags.get(card, ()))
                and (card not in self.banned and card not in self.needs or self.windows_allow({card: name})))

    def names_ok(self, new: dict[CardInst, str]) -> bool:
        """Would the cards all take their new names at once (a swap, a rotation)
        keep every card's class and the windows' evidence (:meth:`windows_allow`)?"""
        return (all(ok(name) for card, name in new.items() for ok in self.tags.get(card, ()))
                and (not self.banned and not self.needs or self.windows_allow(new)))

    def rename(self, card: CardInst, name: str, claimed: set[CardInst]) -> None:
        """Give ``card`` the name ``name`` by swapping names with a hidden card called so."""
        if card in self.pinned or not all(ok(name) for ok in self.tags.get(card, ())) \
                or name in self.banned.get(card, ()):  # a window it stood for may be taken over: see below
            raise _Retry(f"cannot rename {card.name} to {name}")
        hidden = [c for c in self.hidden_cards(card.owner) if c is not card and c not in claimed]
        named = [c for c in hidden if c.name == name]
        if not named and (self.side_rename(card, lambda n: n == name)
                          or self.list_rename(card, lambda n: n == name, {name})):
            return
        if not named:
            self.conjure(card, name, f"no hidden {name} to swap with {card.name}")
            return
        partners = [c for c in named if self.names_ok({card: name, c: card.name})]
        if partners:
            self.swap(card, self.rng.choice(partners))
            return
        # A three-way rotation: card <- partner's name <- third's name <- card's name
        # (a face-down card keeps the class it was Set as).
        cycles = [(b, c) for b in named for c in hidden
                  if c is not b and self.names_ok({card: name, b: c.name, c: card.name})]
        if not cycles and self.list_rename(card, lambda n: n == name, {name}):
            return
        if not cycles:
            raise _Retry(f"no hidden {name} to swap with {card.name}")
        partner, third = self.rng.choice(cycles)
        card.data, partner.data, third.data = partner.data, third.data, card.data
        self.dirty = True

    def copies(self, owner: int, name: str) -> int:
        """How many copies of ``name`` the main deck of ``owner``'s present duel
        holds: those of its deck list and those :meth:`conjure` gave it."""
        number = self.world.duel.number
        return (Counter(self.world.decks[owner].main)[name]
                + sum(1 for o, n, d, _ in self.conjured if (o, n, d) == (owner, name, number)))

    def full(self, owner: int, name: str) -> bool:
        """Whether ``owner``'s list already holds every copy of ``name`` the
        banlist allows (a list is legal, so no hidden card can be one more),
        counting main and Fusion Deck (and :meth:`conjure`'s) and the side
        deck copies a later duel needs (``_Context.side_extra``): the side's
        others are a guess that makes way (:meth:`list_rename`, :func:`_side_within_banlist`)."""
        deck = self.world.decks[owner]
        kept = min(deck.side.count(name), self.ctx.side_extra[name])
        return self.copies(owner, name) + deck.fusion.count(name) + kept >= copies_allowed(name, self.ctx.rules)

    def conjure(self, card: CardInst, name: str, problem: str) -> None:
        """No hidden card of an assumed list may trade ``name`` to ``card``:
        the list lacks a copy. Note it and give ``card`` the name all the same
        (in place of a hidden card's name the view never proves, where one can
        take ``card``'s), so the attempt goes on to find the other copies the
        list lacks: the next attempt's list holds them all. Each used to cost an
        attempt of its own, and a deck far from the assumed one (Goat Control
        assumed a Chaos Warrior mirror) ran out of tries learning them. The
        attempt itself fails at its end (:meth:`run`). Raises for the own
        list, an open one, or a copy past the banlist (:meth:`full`)."""
        owner = card.owner
        ctx = self.ctx
        if not ctx.assumed or owner == self.seat or ctx.evidence is None or self.full(owner, name):
            raise _Retry(problem, (owner, name))
        seen = ctx.evidence.seen
        gives = [c for c in self.hidden_cards(owner) if c is not card and c not in self.claimed_now
                 and not seen[c.name] and c.name != name and not DATABASE[c.name].extra_deck
                 and self.names_ok({c: card.name, card: name})]
        if not gives:
            raise _Retry(problem, (owner, name))
        self.conjured.append((owner, name, self.world.duel.number, self.copies(owner, name)))
        self.rng.choice(gives).data = card.data
        card.data = DATABASE[name]
        self.dirty = True

    def pool_conjure(self, owner: int, hand: list[CardInst], fits: Callable[[str], bool], problem: str) -> bool:
        """A hidden Set of a shape (``fits``) that no name of ``owner``'s
        assumed lists can take — its deck list, the base list or the cards
        seen hold none that ``fits`` and the banlist leaves room for (a Chaos
        Warrior seat Sets Sogen, a Goat Control mirror assumed): give a hand
        card the name of a card of the pool of that timing shape
        (:func:`.chain.spell_trap_shapes`), as a card the list lacked
        (:meth:`conjure`), in any duel: the next attempts' list holds it. The
        Set stays hidden, so any card of its shape shows the same view; the
        list renames cannot help (they take names from those lists, and only
        in the first duel). ``False`` for an open list or a shape the lists hold."""
        ctx = self.ctx
        if not ctx.assumed or owner == self.seat or ctx.evidence is None:
            return False
        deck = self.world.decks[owner]
        listed = (set(deck.main) | set(deck.side) | set(ctx.base.main) | set(ctx.base.side)
                  | set(ctx.evidence.seen))
        if any(fits(n) and not self.full(owner, n) for n in listed):
            return False
        pool = sorted(d.name for d in spell_trap_shapes() if fits(d.name) and d.name not in ctx.evidence.capped
                      and not self.full(owner, d.name))
        for card in self.rng.sample(hand, len(hand)):
            names = [n for n in pool if self.accepts(card, n)]
            if names:
                self.conjure(card, self.rng.choice(names), problem)
                return True
        return False

    def swap(self, a: CardInst, b: CardInst) -> None:
        a.data, b.data = b.data, a.data
        self.dirty = True

    def pin(self) -> None:
        """Pin every card the sampling seat sees now or has just glimpsed."""
        world = self.world
        seat = self.seat
        for fact, card in world.last_facts:
            text = fact[seat]
            if card is not None and text is not None and not text.endswith(" ?"):
                self.pinned.add(card)
        duel = world.duel
        if duel is None:
            return
        pinned = self.pinned
        for p in duel.players:  # run after every step: the public piles in bulk, then the field
            pinned.update(p.gy)
            pinned.update(p.banished)
            for card in p.monsters + p.spells:
                if card is not None and visible_to(card, seat):
                    pinned.add(card)
        pinned.update(duel.players[seat].hand)

    # -------------------------------------------------------------- side deck
    def plan_side(self, seat: int, index: int) -> list[str]:
        """The hidden swaps of ``seat`` from step ``index`` on: as many as the
        history shows, leaving in the main deck every card shown next duel.
        The plan is a first guess: a card that duel needs and the side deck holds
        may still be swapped in while it is played (:meth:`side_rename`)."""
        steps = self.ctx.steps
        count = 0
        while index + count < len(steps) and steps[index + count][0] == f"act {seat} swap ?":
            count += 1
        deck = self.world.decks[seat]
        main, side = list(deck.main), list(deck.side)
        available = Counter(main + side)
        need: Counter = Counter()
        shown, tribute_sets = self.shown_next_duel(seat, index)
        learned = self.ctx.duel_needs.get(self.world.duel.number + 1, Counter()) if self.world.duel else Counter()
        for name, n in (shown | learned).items():
            need[name] = min(n, available[name])
        for tributes, sets in tribute_sets.items():  # Sets needing tributes need such monsters
            fits = _settable_monster(tributes)
            while sum(n for name, n in need.items() if fits(name)) < sets:
                extra = [name for name in (available - need).elements() if fits(name)]
                if not extra:
                    break
                need[self.rng.choice(sorted(extra))] += 1
        ins = list((need - Counter(main)).elements())
        if len(ins) > count or Counter(ins) - Counter(side):
            raise _Retry(f"{count} side-deck swaps cannot bring in {sorted(ins)}")
        spare_out = list((Counter(main) - need).elements())
        self.rng.shuffle(spare_out)
        if len(ins) > len(spare_out):
            raise _Retry("no side-deck swaps fit")
        outs = [spare_out.pop() for _ in ins]
        if not ins and count % 2:  # nothing to bring in: one free swap
            if not spare_out:
                raise _Retry("no side-deck swaps fit")
            out = spare_out.pop()
            choices = sorted(v for v in set(side) if v != out)
            if not choices:
                raise _Retry("no side-deck swaps fit")
            outs, ins = [out], [self.rng.choice(choices)]
        plan = self.swaps(seat, deck, outs, ins, count)
        self.sided[seat] = (self.world.duel.number + 1 if self.world.duel else 0, deck, count, [])
        return plan

    def swaps(self, seat: int, deck: DeckList, outs: list[str], ins: list[str], count: int) -> list[str]:
        """``count`` swap texts of ``seat`` that take ``outs`` out of ``deck``'s main deck
        and bring ``ins`` in from its side deck (pairwise, in order); the swaps
        to spare make a detour through another side card or go back and forth."""
        main, side = list(deck.main), list(deck.side)
        plan: list[tuple[str, str]] = []

        def do(out: str, into: str) -> None:
            if out == into or out not in main or into not in side:
                raise _Retry("no side-deck swaps fit")
            main.remove(out)
            side.remove(into)
            main.append(into)
            side.append(out)
            plan.append((out, into))

        spare = count - len(ins)
        if spare < 0 or (spare % 2 and not ins):
            raise _Retry("no side-deck swaps fit")
        for out, into in zip(outs, ins):
            if spare % 2:  # one detour: out -> via -> into
                vias = [v for v in set(side) if v not in (out, into)]
                if not vias:
                    raise _Retry("no side-deck swaps fit")
                via = self.rng.choice(sorted(vias))
                do(out, via)
                do(via, into)
                spare -= 1
            else:
                do(out, into)
        while spare > 0:  # swap a pair back and forth
            out = self.rng.choice(sorted(set(main)))
            choices = sorted(v for v in set(side) if v != out)
            if not choices:
                raise _Retry("no side-deck swaps fit")
            into = self.rng.choice(choices)
            do(out, into)
            do(into, out)
            spare -= 2
        return [f"{seat} swap {out} / {into}" for out, into in plan]

    def list_rename(self, card: CardInst, fits: Callable[[str], bool], names: set[str] | None = None) -> bool:
        """In the first duel, give ``card`` (hidden, of an assumed list) a name
        that ``fits`` from ``names`` (else from the list, its base or the cards
        seen), as if the list held that card in its place: so a second copy the
        view proves is found in the attempt that needs it, not one failed
        attempt later. Only a card the list holds more copies of than the view
        proves gives up its name; no name gets a copy past the banlist (:meth:`full`)
        or more copies than a Deck shown to hold no more of it, and none gives up a
        copy a later duel was learned to need (``_Context.duel_needs``) that the
        side deck cannot bring back: with no hidden side-decking that duel's
        main deck is this list's, and a copy renamed away here made every
        attempt fail there (a Chaos Sorcerer banished, then another discarded
        in duel 2: the view proves both, its evidence reads one). ``False`` when none can."""
        ctx = self.ctx
        owner = card.owner
        duel = self.world.duel
        if (not ctx.assumed or owner == self.seat or duel is None or duel.number != 1 or card in self.pinned
                or DATABASE[card.name].extra_deck or ctx.evidence is None):
            return False
        deck = self.world.decks[owner]
        counts = Counter(deck.main)
        later: Counter = Counter()
        for needs in ctx.duel_needs.values():
            later |= needs
        if ctx.evidence.sided:
            later -= Counter(deck.side)
        need = ctx.evidence.main_needs(tuple(deck.side)) | ctx.extra | later
        gives = card  # the card whose name leaves the list: ``card`` or one that can take its name
        if counts[card.name] <= need[card.name]:
            others = [c for c in self.hidden_cards(owner) if c is not card and c.name != card.name
                      and counts[c.name] > need[c.name] and not DATABASE[c.name].extra_deck
                      and self.accepts(c, card.name)]
            if not others:
                return False
            gives = self.rng.choice(others)
        if names is None:
            names = set(deck.main) | set(ctx.base.main) | set(ctx.evidence.seen)
        choices = sorted(n for n in names if n not in (card.name, gives.name) and not DATABASE[n].extra_deck and fits(n)
                         and self.accepts(card, n) and not self.full(owner, n) and n not in ctx.evidence.capped)
        if not choices:
            return False
        name = self.rng.choice(choices)
        main = list(deck.main)
        main.remove(gives.name)
        main.append(name)
        side = list(deck.side)
        if main.count(name) + side.count(name) + deck.fusion.count(name) > copies_allowed(name, ctx.rules):
            side.remove(name)  # a side copy past the banlist trades places with the card leaving the main deck
            side.append(gives.name)
        self.world.decks[owner] = self.start[owner] = DeckList(tuple(main), deck.fusion, tuple(side))
        gives.data = card.data
        card.data = DATABASE[name]
        self.dirty = True
        return True

    def side_rename(self, card: CardInst, fits: Callable[[str], bool]) -> bool:
        """Give ``card`` (hidden, in a duel after its owner's hidden
        side-decking) a name from the side deck that ``fits``, as if that
        side-decking had swapped it in: the world's deck list and the swaps
        recorded for that side-decking are remade. ``False`` when none can."""
        owner = card.owner
        phase = self.sided.get(owner)
        duel = self.world.duel
        if phase is None or duel is None or phase[0] != duel.number or card in self.pinned:
            return False
        _, before, count, indices = phase
        deck = self.world.decks[owner]
        names = sorted({n for n in deck.side if n != card.name and fits(n) and self.accepts(card, n)})
        self.rng.shuffle(names)
        for name in names:
            main = list(deck.main)
            side = list(deck.side)
            main.remove(card.name)
            side.remove(name)
            main.append(name)
            side.append(card.name)
            ins = list((Counter(main) - Counter(before.main)).elements())
            outs = list((Counter(before.main) - Counter(main)).elements())
            self.rng.shuffle(outs)
            try:
                plan = self.swaps(owner, before, outs, ins, count)
            except _Retry:
                continue
            for i, text in zip(indices, plan):
                self.actions[i] = text
            self.world.decks[owner] = DeckList(tuple(main), deck.fusion, tuple(side))
            card.data = DATABASE[name]
            self.dirty = True
            return True
        return False

    def shown_next_duel(self, seat: int, index: int) -> tuple[Counter, Counter]:
        """How many copies of each of ``seat``'s cards the duel after step
        ``index`` proves (:func:`_seen_cards`: a card glimpsed again and again,
        a Spirit back in the hand or a monster flipped twice, counts once), and
        how many monsters it Set with 1 and with 2 tributes there."""
        steps = self.ctx.steps
        start = next((i for i in range(index, len(steps)) if _DUEL_START.match(steps[i][0])), len(steps))
        end = next((i for i in range(start + 1, len(steps)) if _DUEL_START.match(steps[i][0])), len(steps))
        tribute_sets: Counter = Counter()
        history: list[str] = []
        for entry, seen in steps[start + 1:end]:
            if entry.startswith(f"act {seat} set ?monster:") and not entry.endswith(":0"):
                tribute_sets[int(entry.rsplit(":", 1)[1])] += 1
            history += [entry] + ["see " + fact for fact in seen]
        return _seen_cards(self.ctx.view, seat, history, present=end == len(steps)), tribute_sets


# ------------------------------------------------------------ assumed deck lists
def _names_in(text: str) -> list[str]:
    """Card names an action or glimpse text mentions (longest first, once each)."""
    return [name for name in _CARD_NAMES if name in text]


_CARD_NAMES = sorted((n for n, d in DATABASE.items() if "token" not in d.traits), key=len, reverse=True)


def _seen_cards(view: dict[str, Any], owner: int, history: list[str] | None = None,
                present: bool | None = None) -> Counter:
    """How many copies of each card of ``owner`` the view proves: the most
    shown at once in public zones now, and at least one of every card its
    history names for that owner (a glimpse, a Fusion Summon's card, or an
    action of that seat naming a card that is not on the field).
    ``history``: a part of the view's history to read instead of all of it
    (then public zones count only if that part reaches the present: by
    default when it is the whole history, else as ``present`` says).

    An action naming a field card (``position Morphing Jar@0M1``) proves
    nothing of its owner: the card stands on its controller's side, and a
    monster taken with Snatch Steal is the other seat's. (Counted for its
    controller, such a card took a place in the assumed list that the true
    list gives another card: with every place proven, the list outgrew the
    size the view shows, and a duel lost by decking out ended later in the
    world than in the view, so every draw failed.) A card on its owner's
    field was named when it got there: Summoned or activated from the hand,
    glimpsed when Set cards are turned face up, Fusion Summoned (``see fusion``)."""
    now: Counter = Counter()
    if present is None:
        present = history is None or len(history) == len(view["history"])
    if present:
        for p_seat, p in enumerate(view.get("players") or ()):
            if p_seat == owner:
                now.update(p["gy"])
                now.update(p["banished"])
            for slot in p["monsters"] + p["spells"]:
                if slot and slot["name"] != "?" and slot.get("owner", p_seat) == owner:
                    now[slot["name"]] += 1
    mentioned: set[str] = set()
    for entry in view["history"] if history is None else history:
        if entry.startswith("see "):
            kind, _, rest = entry[4:].partition(" ")
            if kind in ("top", "deck", "hand", "slot", "fusion") and rest.startswith(f"{owner} "):
                tail = rest.split(" ", 2)[-1] if kind == "slot" else rest.partition(" ")[2]
                if tail in DATABASE and "token" not in DATABASE[tail].traits:
                    mentioned.add(tail)
        elif entry.startswith(f"act {owner} ") and "?" not in entry:
            body = entry.split(" ", 3)[3] if entry.count(" ") >= 3 else ""
            first, at, _ = body.split(" -> ", 1)[0].partition("@")
            if at:
                continue  # a field card: its controller's, not necessarily its owner's
            for name in _names_in(first)[:1]:
                mentioned.add(name)
    out = Counter({n: c for n, c in now.items() if n in DATABASE and "token" not in DATABASE[n].traits})
    for name in sorted(mentioned):  # in a fixed order: the side-decking plan draws from it
        out[name] = max(out[name], 1)
    return out


def _deck_sizes(view: dict[str, Any], owner: int) -> tuple[int, int, int] | None:
    """What the view shows of ``owner``'s main and Fusion Deck sizes: the cards
    known to come from each (pile counts plus its public cards elsewhere) and how
    many face-down monsters could be either or a token; ``None`` between duels."""
    players = view.get("players")
    if not players:
        return None
    p = players[owner]
    main, fusion, unknown = p["deck_count"] + p["hand_count"], p["fusion_count"], 0
    public = list(p["gy"]) + list(p["banished"])
    for p_seat, q in enumerate(players):
        for zone in ("monsters", "spells"):
            for slot in q[zone]:
                if slot and slot.get("owner", p_seat) == owner:
                    if slot["name"] == "?" and zone == "monsters":
                        unknown += 1  # a face-down monster: main deck, Fusion Deck or a token
                    else:
                        public.append(slot["name"])
    for name in public:
        data = DATABASE.get(name)
        if data is not None and "token" in data.traits:
            continue
        if data is not None and data.extra_deck:
            fusion += 1
        else:
            main += 1  # a face-down Spell/Trap is a main deck card
    return main, fusion, unknown


def _side_decked(history: list[str], start: int, owner: int) -> bool:
    """Whether ``owner`` was asked to side-deck before the duel that starts at
    ``history[start]`` (its swaps or its "done" end the duel before, each seat's
    in turn, maybe followed by a coin toss)."""
    i = start - 1
    while i >= 0 and history[i].startswith("chance coin"):
        i -= 1
    while i >= 0 and re.match(r"^act \d (swap .*|done)$", history[i]):
        if history[i].startswith(f"act {owner} "):
            return True
        i -= 1
    return False


@dataclass(frozen=True)
class _Evidence:
    """What a view proves about the other seat's deck list (read once per
    view: it scans the whole history): the cards seen (:func:`_seen_cards`),
    the pile sizes (:func:`_deck_sizes`), what its Deck was shown to hold
    nothing of and which cards no more copies of."""

    seen: Counter
    sizes: tuple[int, int, int] | None
    #: The searches its Deck was shown to have nothing for (``nofind`` glimpses,
    #: each kind's last word, :data:`_NOFIND`): Sangan's (""), Reinforcement of
    #: the Army's ("warrior"), Last Turn's ("summonable").
    nofind: frozenset[str]
    capped: frozenset[str]
    #: The cards seen in the first duel (:func:`_seen_cards` of its history):
    #: the only ones the match's first main deck must hold. A card first seen
    #: later may have been sided in, and it is then in the side deck.
    first: Counter
    #: Whether that seat swapped any card with its side deck between duels.
    sided: bool
    #: Whether it was seen to have no side deck: a duel ended and it was not asked to side-deck.
    sideless: bool = False
    #: Whether it was seen asked to side-deck (its swaps or its "done"): it has
    #: a side deck even if it swapped nothing.
    asked: bool = False
    #: The most swaps it made in one side-decking.
    swaps: int = 0
    #: Per duel after the first (duel ``d`` at ``d - 2``): the swaps of the side-decking
    #: before it and the cards seen in it (:func:`_seen_cards` of its history).
    duels: tuple[tuple[int, Counter], ...] = ()

    @classmethod
    def of(cls, view: dict[str, Any]) -> "_Evidence":
        owner = 1 - view["seat"]
        history = view["history"]
        # A Deck shown to hold no more copies of a card (Nobleman of Crossout).
        capped = frozenset(e[len(f"see nocopy {owner} "):] for e in history
                           if e.startswith(f"see nocopy {owner} "))
        starts = [i for i, e in enumerate(history) if _DUEL_START.match(e)]
        first_duel = history[:starts[1]] if len(starts) > 1 else history
        decked = [_side_decked(history, i, owner) for i in starts[1:]]   # before each later duel
        under_way = not view.get("players") and _side_decked(history, len(history), owner)  # a side-decking now
        swap = f"act {owner} swap ?"
        swaps = max((len(list(run)) for entry, run in groupby(history) if entry == swap), default=0)
        head = f"see nofind {owner}"  # then nothing (Sangan's), " warrior" or " summonable"
        nofind = frozenset(e[len(head):].strip() for e in history if e == head or e.startswith(head + " "))
        bounds = starts + [len(history)]
        duels = tuple((history[bounds[k - 1]:bounds[k]].count(swap),
                       _seen_cards(view, owner, history[bounds[k]:bounds[k + 1]], present=k + 1 == len(starts)))
                      for k in range(1, len(starts)))
        return cls(_seen_cards(view, owner), _deck_sizes(view, owner), nofind, capped,
                   _seen_cards(view, owner, first_duel), swap in history,
                   bool(decked) and not any(decked), any(decked) or under_way, swaps, duels)

    def side_brings(self, main: tuple[str, ...], duel: int, needs: Counter) -> bool:
        """Whether the hidden side-deckings before ``duel`` (its number) can
        have brought into ``main`` (the first main deck) every copy that
        duel's main deck holds: ``needs`` and the cards seen in it. Each swap
        brings in one card, so no more than their swaps (for duel 2 exactly
        its side-decking's; for a later one those of every side-decking so far,
        a bound its own side-decking from the deck before may still not meet)."""
        if not 2 <= duel <= len(self.duels) + 1:
            return True
        swaps = sum(count for count, _ in self.duels[:duel - 1])
        held = needs | self.duels[duel - 2][1]
        brought = sum(n for name, n in (held - Counter(main)).items() if not DATABASE[name].extra_deck)
        return brought <= swaps

    def holds(self, side: tuple[str, ...], extra: Counter) -> bool:
        """Whether a list holding :meth:`main_needs` and ``extra`` copies can
        have the main and Fusion Deck sizes the view shows (:func:`_deck_sizes`)."""
        if self.sizes is None:
            return True
        known_main, known_fusion, unknown = self.sizes
        need = self.main_needs(side) | extra
        fusion = sum(n for name, n in need.items() if DATABASE[name].extra_deck)
        main = sum(need.values()) - fusion
        return (main <= known_main + unknown and fusion <= known_fusion + unknown
                and main + fusion <= known_main + known_fusion + unknown)

    def main_needs(self, side: tuple[str, ...]) -> Counter:
        """The cards the first main deck must hold: those seen in the first
        duel, and of those seen later as many as ``side`` (the assumed side
        deck) cannot have brought in, when the seat side-decked at all."""
        if not self.sided:
            return Counter(self.seen)
        spare = Counter(side)
        return Counter({name: max(self.first[name], n - spare[name]) for name, n in self.seen.items()
                        if max(self.first[name], n - spare[name]) > 0})


def _made_up_side(rules: YugiohRules, base: DeckList, rng: random.Random, evidence: _Evidence) -> tuple[str, ...]:
    """A side deck for a seat seen side-decking whose assumed list has none
    (:func:`assumed_deck`): the main deck cards first seen after a side-decking,
    as many as one side-decking swapped at most, then copies of ``base``'s main
    deck cards. A legal one: side-decking swaps main deck cards only, so a
    Fusion monster first seen later came from the Fusion Deck, and no card goes
    past the copies the banlist allows across the list (a second Pot of Greed
    sided in gave worlds a hand the opponent cannot hold), while some fits."""
    later = sorted(n for n in (evidence.seen - evidence.first).elements() if not DATABASE[n].extra_deck)
    room = min(SIDE_SIZE, evidence.swaps)  # no more than one side-decking could swap in
    if len(later) > room:
        later = sorted(rng.sample(later, room))
    held = Counter(base.main + base.fusion + tuple(later))
    side = list(later)
    while len(side) < SIDE_SIZE:
        fits = [n for n in sorted(base.main) if held[n] < copies_allowed(n, rules)] or sorted(base.main)
        name = rng.choice(fits)
        held[name] += 1
        side.append(name)
    return tuple(side)


def _side_within_banlist(rules: YugiohRules, side: tuple[str, ...], held: Counter, rng: random.Random,
                         fill: tuple[str, ...]) -> tuple[str, ...]:
    """``side`` without the copies that pass the banlist with the ``held``
    copies of the main and Fusion Deck, each replaced by a card of ``fill``
    the list may hold one more of (``rng`` used only then). The main deck's
    copies are what the view proves or a failed attempt needed, the side's a
    guess (``base``'s side, or a made-up one): a third Book of Moon the main
    deck needed made ``base``'s side copy a fourth, a Pot of Greed first seen
    after side-decking (a made-up side's first guess) a second one beside the main deck's."""
    cards = Counter(side)
    over = {n: held[n] + k - copies_allowed(n, rules) for n, k in cards.items()}
    if all(k <= 0 for k in over.values()):
        return side
    for name, k in sorted(over.items()):
        for _ in range(min(k, cards[name])):
            cards[name] -= 1
            room = [n for n in sorted(set(fill)) if cards[n] + held[n] < copies_allowed(n, rules)]
            if room:
                cards[rng.choice(room)] += 1
    return tuple(sorted((+cards).elements()))


def assumed_deck(view: dict[str, Any], base: DeckList, rng: random.Random,
                 extra: Counter | None = None, evidence: _Evidence | None = None,
                 side_extra: Counter | None = None) -> DeckList:
    """``base`` (the list assumed for the other seat) made consistent with the
    view: every card of that seat seen so far (at least ``extra`` copies) is in it
    (a card first seen after side-decking only when the side deck cannot hold
    it: :meth:`_Evidence.main_needs`), each added in place of a card of ``base``
    never seen; then the main and Fusion Deck are cut or padded (with copies of
    ``base``'s cards) to the sizes the view shows (a face-down monster may be a
    main or Fusion Deck card or a token: there ``base``'s sizes are kept when
    they fit). The side deck is ``base``'s — or, when ``base`` has none but the
    view shows that seat asked to side-deck (it must have one, even if it
    swapped nothing), :data:`SIDE_SIZE` cards: the copies first seen after a
    side-decking (the likeliest side cards: in the main deck they took the places
    of second copies the first duel needed; as many as one side-decking swapped
    at most), then copies of ``base``'s main deck cards; with at least
    ``side_extra`` copies (``_Context.add_missing``).
    ``evidence``: ``_Evidence.of(view)``, when the caller keeps it."""
    if evidence is None:
        evidence = _Evidence.of(view)
    rules = make_rules(view["rules"], view["options"])
    side = () if evidence.sideless else tuple(base.side)
    if not side and (evidence.sided or evidence.asked):
        side = _made_up_side(rules, base, rng, evidence)
    if side_extra:
        cards = Counter(side)
        for name, n in sorted(side_extra.items()):
            while cards[name] < n:
                spare = sorted((cards - side_extra).elements())
                if not spare:
                    break
                cards[rng.choice(spare)] -= 1
                cards[name] += 1
        side = tuple(sorted((+cards).elements()))
    need = evidence.main_needs(side) | (extra or Counter())
    sizes = evidence.sizes

    # A Deck shown to hold nothing a search takes: replace such cards first, pad with others.
    searches = [_NOFIND[kind] for kind in sorted(evidence.nofind)]

    def found(name: str) -> bool:
        return any(takes(name) for takes in searches)

    def pick(spare: list[str]) -> str:
        if any(found(n) for n in spare):
            spare = [n for n in spare if found(n)]
        return rng.choice(spare)

    # A Deck shown to hold no more copies of a card: no more copies than were seen.
    capped = evidence.capped

    def fit(pile: tuple[str, ...], wanted: Counter, size: int | None, others: Counter) -> tuple[str, ...]:
        cards = Counter(pile)
        for name in capped:
            cards[name] = min(cards[name], wanted[name])
        dropped = 0  # ``pile``'s copies (a guess) past the banlist with ``others`` make way
        for name in list(cards):
            keep = min(cards[name], max(wanted[name], copies_allowed(name, rules) - others[name]))
            dropped += cards[name] - keep
            cards[name] = keep
        for name, n in sorted(wanted.items()):
            while cards[name] < n:
                spare = sorted((cards - wanted).elements())
                if spare and (size is None or sum(cards.values()) >= size):
                    cards[pick(spare)] -= 1
                cards[name] += 1
        cards = +cards
        if size is None and dropped:
            size = sum(cards.values()) + dropped  # their places padded as below
        if size is not None:
            while sum(cards.values()) > size:
                spare = sorted((cards - wanted).elements())
                if not spare:
                    break
                cards[pick(spare)] -= 1
                cards = +cards
            fill = [n for n in sorted(pile) if n not in capped] or sorted(wanted.elements())
            if searches and any(not found(n) for n in fill):
                fill = [n for n in fill if not found(n)]
            while fill and sum(cards.values()) < size:
                # a copy the banlist allows (with ``others``, the list's other piles), while one is
                room = [n for n in fill if cards[n] + others[n] < copies_allowed(n, rules)]
                cards[rng.choice(room or fill)] += 1
        return tuple(sorted(cards.elements()))

    main_need = Counter({n: c for n, c in need.items() if not DATABASE[n].extra_deck})
    fusion_need = Counter({n: c for n, c in need.items() if DATABASE[n].extra_deck})
    main_size = fusion_size = None
    if sizes is not None:  # the base list's sizes, within what the view allows
        known_main, known_fusion, unknown = sizes
        main_size = min(max(len(base.main), known_main), known_main + unknown)
        fusion_size = min(max(len(base.fusion), known_fusion), known_fusion + unknown)
    main = fit(base.main, main_need, main_size, Counter(side) + fusion_need)
    fusion = fit(base.fusion, fusion_need, fusion_size, Counter(side + main))
    # a side copy gives way to the main deck's (which the side's counted in ``main_needs`` already)
    return DeckList(main, fusion, _side_within_banlist(rules, side, Counter(main + fusion), rng, base.main))
