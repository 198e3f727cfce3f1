"""Response windows as evidence in world sampling (``ask_responses="when-able"``).

Under "when-able" a seat is asked at a response window only when it holds
something it can activate there, so the seat that samples learns from every
window of the other seat: asked (its ``pass`` or ``activate ...`` is the next
history entry) proves it held an activatable card then; not asked proves it
held none. The world sampler's first pass (:class:`~.worlds._Renamer`) used to
let the engine decide from whatever names the hidden cards had, and rejected
the whole attempt when a window came out differently — in late positions with
hundreds of windows almost every attempt did (the six failed draws of
``when-able/d2/t2`` in ``tests/data/yugioh_world_reference.json``).

:class:`WindowEvidence` instead answers the other seat's windows in that pass
from the history and renames its hidden cards (hand, face-down Spells/Traps)
so that the engine's own rule gives the same answer:

* **not asked**: every hidden card that could respond gets the name of a
  hidden Deck card that cannot (a public card that could respond: the attempt
  is retried — the view itself contradicts the world);
* **asked**: if nothing could respond, a hidden card gets a name that can —
  the card the next action activates, or for a ``pass`` a name the hand
  shows later where a hand card can take one (else any: a random one kept
  the card the history needs, Scapegoat say, out of the hand, and the
  windows after, where it would have asked, went unasked);

and keeps the answer true for the clean replay: a hidden card present at a
window where its owner was not asked never takes a name that could have
responded there, and where it was asked one at least of its hidden cards then
keeps a name that could.

Which window: one step of the history may pass several windows of that seat
(a phase change: the draw, standby, end phase ...) and the history does not say
at which one it was asked. An ``activate ...`` is put at the first window where
a card can be that one; a ``pass`` at the first one where something already can
respond — and when none can, an attempt that reaches the ``pass`` unasked is
retried asking at the step's last window, then the one before, and so on, and
after the first again (``_Context.forced``, kept across the draw's attempts).
Past a forced window that could not ask, the first window where something can
respond asks. A ``pass`` may also have answered an optional trigger rather
than a window, tried the same way; and where a ``pass`` went to an optional
trigger and the seat's next action does not follow, the ``pass`` is placed at
a window of the step before. A step that stops short of its glimpses at a
window asking for the next ``pass`` or ``activate ...`` asked too soon (the
response came after a chain or an effect resolved): the next attempts ask one
window later at the earliest. A placement may also be wrong for a reason seen
only later (a window left unasked for it rules out, for every hand card, a
name the history shows next): when two attempts with the same placements fail
at the same step for another reason, the latest placement at or before that
step in its duel moves on (``_Context.stalled``) — one with a window no attempt
reached its ``pass`` unasked with (the same placements before it): where every
other window failed at its own step, the placement is the one that gets past
it and stays, and a placement moved on skips such windows (``_Context.refute``). The rule "the first window where
something already can respond" may itself be too late for a ``pass``: at an
earlier window a hidden card could have been made able, and left unasked
there it may take none of the names the history needs next; so when every
placement of a ``pass`` failed, or a step failed twice with the same
placements, the latest such ``pass`` after those placed gets placements too,
its step's windows from the first (``_Context.place_earlier``). After the
last history entry, the view's pending response window names its phase, step
and chain.

An ``activate NAME`` from the hand asked at a chain that a link of that seat
will resolve by returning a NAME from its Graveyard to its hand (Magician of
Faith's Book of Moon) is first taken to come after the chain, with the card
returned; where the clean replay then fails (the current duel's log shows it
was a chain link), the next attempts ask at the chain
(:meth:`WindowEvidence.returning`).

A hidden Set made before its evidence: it takes a hand card, and the card
kept may be one an earlier window (where its owner was not asked) rules out
for the name the hand shows next (Rush Recklessly); so a Set takes, where it
can, a card that leaves the hand able to show every name it shows before the
next hidden draw (``_Renamer.keeping_hand``; a name no card can take any more,
every copy seen, counts as one only the card so called can show: a limited
Sinister Serpent back in the hand), and where no card of its class can go, a
hand card the hand can spare trades names with a Deck card of that class to be
the one Set (``_Renamer.set_spare``). A hidden monster Set the history shows
later, renaming a hand card to be it, renames one the windows have bound where
one is (``_Renamer.bound``): it answers no window again, and the hand keeps a
card just drawn free to be what the next windows need. An activation from the hand renames a card that leaves the hand able to
show what it shows next, too (:meth:`WindowEvidence.make_able`). A hand shown
at once (Morphing Jar's discard) is named as a matching, not card by card
(``_Renamer.hand_has``).

What still makes draws fail (``benchmarks/yugioh_world_fails.py 40 2
--when-able --both-seats``, 2026-12-05: 6 of 160 draws before the three fixes
named in ``docs/yugioh.md`` and 0 after; on other draws of the same views,
``--rng=1000``, 6 and 1, and 0 since the side deck takes back a copy Nobleman
of Crossout shows the Deck cannot hold; see ``docs/yugioh.md``), in scans of the failing views:

* an assumed list (closed deck lists) with the wrong copies: a card missing is
  added in the next attempt (an attempt goes on past it to find every card
  missing: ``_Renamer.conjure``), in place of a guess, and the renames that follow
  may leave a hand able only to respond where the view shows it was not
  asked, or every hidden copy of a name is bound where it stands;
* a Deck Nobleman of Crossout showed to hold no more copies of a card, whose
  copies no hidden card outside it may take back (all bound by windows) where
  no side-decking before could have kept the copy out and the duel is not the
  first (there a copy with no card outside the Deck to trade with goes back to
  the side deck, or makes way in the assumed list: ``_Renamer.deck_without``;
  after a hidden side-decking the copy goes back to the side deck before it
  trades with a hand card, where it stayed bound for the rest of the duel:
  the draw of 160 that was put down to a ``pass`` at the wrong window, view 15);
* a hidden Set or hand glimpse naming a card that earlier unasked windows
  ruled out for every card the hand still holds (a Set keeping in hand the
  cards later Sets show did not lower the count, nor a window that must ask
  giving a hand card a name the hand shows later);
* a ``pass`` placed at the wrong window where a draw has many such steps: the
  attempts try one placement more each, not every combination;
* an activation from the hand asked at a chain's window (a hidden card
  renamed to be it) where the history had it after the chain resolved, from
  a card the chain brings to the hand other than by a link's Graveyard target
  (:meth:`WindowEvidence.returning` reads only those): asking every such
  activation a window later after repeated failures cost more draws than it
  saved;
* late in a duel an empty Deck: no hidden card left to trade names with a card
  that must not respond at a window. :meth:`WindowEvidence.take_name` trades
  with a Deck card (a Deck card never responds), else takes a name from the
  side deck after a hidden side-decking or from the list in the first duel;
  since 2026-12-05 it then trades with a hidden hand or Set card that could
  not respond under the name where it stands (a Set Dust Tornado and a hand
  card: the Trap in the hand, a Normal Spell Set in the other seat's turn),
  the windows before allowing both names (:meth:`WindowEvidence.trade_away`),
  and where no single trade can (earlier windows where the seat was asked bind
  the card to an able name, while a card drawn since could have been the able
  one), rotates names with a hand or Set card and a Deck card
  (:meth:`WindowEvidence.rotate_away`). Left: a name that must go to a card
  that could respond at none of the windows it was held through, found only by
  revisiting renames made many steps before: a search the one-pass renamer
  does not make;
* in the scan of late-duel views (``--late=0``, 2026-12-05), seed 23's view
  (view 11): a card whose identity the sampling seat knows (a Spirit monster
  back in the hand) taken by a hidden Set the history never shows, so a copy
  the hand showed after a hidden draw had none left, is fixed (a Set keeps
  such a card: :meth:`~.worlds._Renamer.keeping_hand`), and so is a limited
  card the hand shows later (Metamorphosis) bound face down in a Set by a
  trade made for another reason (:meth:`take_name`, :meth:`~.worlds._Renamer.set_spare`
  now keep Set cards off such names where they can). Its draws still fail
  at times (5 of 12 on six seeds; 12 of 12 on main): three ``pass`` in a row of the other seat
  after its hidden draw, where only the Draw Phase window can ask (the card
  just drawn the one able to be the Book of Moon activated next), tried
  latest window first; and once an attempt placed it right, two failing later
  for another reason moved it on (``_Context.stalled``), and the tries ran out
  cycling through the wrong ones. A stall now leaves a placement whose other
  windows all failed at its own step (2 of 12 draws fail; what is left is
  chance: "no hidden Metamorphosis / Heavy Storm to swap with ..." in duel 3,
  with the same placements as the draws that succeed). Seed 59's view (view 26), "a ``pass`` at the wrong window", was a
  Normal Summon renaming the card the windows left free for the Scapegoat
  Morphing Jar's discard showed next: fixed (:meth:`~.worlds._Renamer.hand_shows_ahead`).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from goat.games.yugioh.cards import active_effects_for
from goat.games.yugioh.cards.base import ReturnFromGraveyard
from goat.games.yugioh.cards.data import DATABASE
from goat.games.yugioh.prompts import Say
from goat.games.yugioh.zones import CardInst

#: A history entry that starts a duel (the choice of who goes first).
_DUEL_START = re.compile(r"^act \d choose (first|second)$")

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.state import YugiohState

class _Retry(Exception):
    """This attempt went wrong; try another random world. ``missing``: a card
    name (and its owner) that no hidden card has — an assumed deck list lacks it."""

    def __init__(self, message: str, missing: tuple[int, str] | None = None) -> None:
        super().__init__(message)
        self.missing = missing
        #: The step of the history the first pass failed at (the clean replay: after the last).
        self.step = 1 << 30
        #: The cards an assumed list lacked, learned by the attempt: (owner, name,
        #: duel, copies that duel's main deck held) (``_Context.add_missing``).
        self.learned: list[tuple[int, str, int, int]] = []


_RESPONSES = ("pass", "activate")
#: :meth:`WindowEvidence.next_response` after the last history entry: the view's pending decision is this window.
HERE = "*"
#: ``_Context.forced`` for a step where no window of the other seat asks for the ``pass`` that follows.
NOWHERE = -1


class WindowEvidence:
    """Mixin of :class:`~.worlds._Renamer`: the other seat's response windows
    answered from the history (see the module docstring). It uses the
    renamer's ``world``, ``seat``, ``ctx``, ``rng``, ``tags`` and its renaming
    methods; ``index`` is the step being replayed and ``claimed_now`` the
    cards that step's glimpses named (never renamed again within it)."""

    world: "YugiohState"
    seat: int
    ctx: Any
    rng: random.Random
    tags: dict[CardInst, list[Callable[[str], bool]]]
    pinned: set[CardInst]
    dirty: bool
    index: int
    claimed_now: set[CardInst]
    fixed: list[tuple[CardInst, Any]]
    #: The other seat's windows in the step being replayed so far, and per step replayed.
    windows: int
    window_counts: dict[int, int]
    #: Per step that is the other seat's ``pass``: the kind of question it answered.
    pass_kinds: dict[int, str]
    #: Names a hidden card may not take: it could have responded under them at a window where it was not asked.
    banned: dict[CardInst, set[str]]
    #: The windows where hidden cards made their owner asked: per card there, the names that could respond.
    needs: dict[CardInst, list[dict[CardInst, frozenset[str]]]]
    window_renamed: bool
    #: The steps whose window an ``activate`` skipped for a card the chain returns to the hand (:meth:`returning`).
    deferred: list[int]

    # supplied by the renamer
    def hidden_cards(self, owner: int) -> list[CardInst]: ...  # pragma: no cover
    def accepts(self, card: CardInst, name: str) -> bool: ...  # pragma: no cover
    def names_ok(self, new: dict[CardInst, str]) -> bool: ...  # pragma: no cover
    def swap(self, a: CardInst, b: CardInst) -> None: ...  # pragma: no cover
    def rename(self, card: CardInst, name: str, claimed: set[CardInst]) -> None: ...  # pragma: no cover
    def list_rename(self, card: CardInst, fits: Callable[[str], bool],
                    names: set[str] | None = None) -> bool: ...  # pragma: no cover
    def side_rename(self, card: CardInst, fits: Callable[[str], bool]) -> bool: ...  # pragma: no cover
    def hand_must_show(self, seat: int, index: int) -> list[str]: ...  # pragma: no cover
    def hand_shows_later(self, seat: int, index: int) -> set[str]: ...  # pragma: no cover
    def keeps_hand(self, seat: int, gone: CardInst, needed: list[str]) -> bool: ...  # pragma: no cover

    def watch_windows(self) -> None:
        """Answer the other seat's windows of the current duel (called before each step)."""
        duel = self.world.duel
        if duel is not None and "asked_to_respond" not in vars(duel):
            duel.asked_to_respond = self.window  # this world's duel only: the clean replay uses the engine's rule

    # ------------------------------------------------------------------ windows
    def window(self, seat: int, found: list[tuple[CardInst, Any]]) -> bool:
        """The engine's ``asked_to_respond`` under "when-able", for this world."""
        if seat == self.seat:
            return bool(found)
        if not found and self.world.duel.summon_negation is not None and not any(
                DATABASE[n].subtype == "counter" for n in self.names(seat)):
            return False  # a Summon's window only a Counter Trap answers: none of its names is one, not a window
        dirty, self.dirty = self.dirty, False
        action = self.next_response(seat)
        number = self.windows
        self.windows += 1
        self.window_counts[self.index] = self.windows
        cards = self.window_cards(seat)
        #: What it can activate that no rename changes (a face-up monster's ignition effect is only in ``found``).
        self.fixed = [(c, e) for c, e in found if c not in cards]
        forced = self.ctx.forced.get(self.index)
        if action == HERE:
            asked = bool(found) or self.give_able_name(seat, cards)
        elif action == "pass" and (forced is None or NOWHERE != forced < number):
            # which window: see the module docstring; past a forced window that
            # could not ask, the first where something can respond
            asked = bool(found)
        elif action == "pass":
            asked = forced == number and (bool(found) or self.give_able_name(seat, cards))
        else:  # an activation: at the first window from the forced one on where a card can be that one
            asked = action is not None and (forced is None or number >= forced) and self.make_able(seat, action)
        if not asked:
            if self.fixed:
                self.asked_too_early(seat)
                raise _Retry(f"seat {seat} could respond with a card seen here but was not asked")
            for card in {id(c): c for c, _ in self.able(seat)}.values():
                if card not in cards:
                    self.asked_too_early(seat)
                    raise _Retry(f"seat {seat} could respond with a card seen here but was not asked")
                try:
                    self.make_unable(seat, card)
                except _Retry:
                    self.asked_too_early(seat)
                    raise
            if self.able(seat):
                raise _Retry(f"seat {seat} cannot be made unable to respond here")
        self.bind(seat, asked)
        if self.dirty:  # the question about to be asked is written from the old names: remade before the next step
            self.window_renamed = True
        self.dirty = self.dirty or dirty
        return asked

    def next_response(self, seat: int) -> str | None:
        """The next history entry's action (without ``act {seat} ``) if it is a
        response of ``seat``; after the last one, :data:`HERE` if the view's
        pending decision is this response window of ``seat``."""
        steps = self.ctx.steps
        if self.index + 1 >= len(steps):
            pending = self.ctx.view.get("decision") or {}
            if pending.get("seat") != seat or pending.get("kind") != "respond":
                return None
            duel = self.world.duel
            say = Say("respondChainLink", n=len(duel.chain)) if duel.chain else duel._window_prompt()
            return HERE if json.loads(json.dumps(say.to_json())) == pending.get("say") else None
        entry = steps[self.index + 1][0]
        head = f"act {seat} "
        if not entry.startswith(head):
            return None
        action = entry[len(head):]
        return action if action.split(" ", 1)[0] in _RESPONSES else None

    def missed_window(self, seat: int, text: str) -> None:
        """Step ``index`` is ``text``, an action of ``seat`` (the other seat)
        that the world did not ask for. A ``pass`` could have been said at any
        window of that seat since its last decision: in the step before, and
        further back when that step's own ``pass`` went to another question
        (an optional trigger). And where the step before is a ``pass`` that a
        window took, that ``pass`` may have answered the question now pending
        (an optional trigger): then no window of the step before it asks; but
        first, for a ``pass``, the windows within the step before (after that
        ``pass`` let a chain resolve: Morphing Jar's new hand may respond). Each
        next attempt of the draw tries one more of these, the latest window
        first (``ctx.forced``, ``ctx.tried``); once all failed, an earlier
        ``pass`` the first able window took gets placements instead
        (:meth:`~goat.games.yugioh.worlds._Context.place_earlier`)."""
        last = self.index - 1
        passed = last >= 0 and self.ctx.steps[last][0] == f"act {seat} pass"
        answered = passed and self.pass_kinds.get(last) == "respond"
        # The step before is a ``pass`` that answered another question (an
        # optional trigger) because no window of the step before it asked: that
        # ``pass`` was said at one of those windows, and the question now due
        # is the one it answered.
        misplaced = passed and self.pass_kinds.get(last, "respond") != "respond"
        if text.split(" ", 2)[1:2] == ["pass"] or answered or misplaced:
            candidates: list[tuple[int, int]] = []
            if answered and text.split(" ", 2)[1:2] == ["pass"]:
                # first the windows after the ``pass`` before (a chain it let
                # resolve brought new cards: Morphing Jar's draws)
                candidates += [(last, n) for n in reversed(range(self.window_counts.get(last, 0)))]
            if answered:
                candidates.append((last - 1, NOWHERE))
            step = last - 1 if answered or misplaced else last
            while step >= 0:
                candidates += [(step, n) for n in reversed(range(self.window_counts.get(step, 0)))]
                if self.ctx.steps[step][0] != f"act {seat} pass" or self.pass_kinds.get(step) == "respond":
                    break
                step -= 1
            ctx = self.ctx
            ctx.refute(self.index)
            cycled = ctx.tried.get(self.index, -1) + 1 >= len(candidates) > 0
            # Every window for this ``pass`` failed alike: an earlier ``pass``
            # taken by a later window than its own may have left unasked the
            # window that would have kept a card able to respond here (this one
            # goes back to its first placement then).
            if not (cycled and ctx.place_earlier(self.index, self.pass_kinds, self.window_counts, self.index)):
                ctx.candidates[self.index] = candidates
                if self.index in ctx.placed:
                    ctx.placed.remove(self.index)
                ctx.placed.append(self.index)
                ctx.place_next(self.index)
        raise _Retry(f"seat {seat} was not asked to respond before {text!r}")

    def passed_by(self, index: int) -> None:
        """The step before ``index`` showed more than the history (the duel
        went on past it): if step ``index`` is the other seat's ``pass``, a
        window of that step should have asked for it (:meth:`missed_window`)."""
        other = 1 - self.seat
        text = self.ctx.steps[index][0]
        if text == f"act {other} pass":
            self.index = index
            self.missed_window(other, text[4:])

    def asked_too_soon(self, index: int) -> None:
        """The step before ``index`` stopped short of the history (its glimpses
        not shown yet) at a window of the other seat that asked for step
        ``index``, its ``pass`` or ``activate ...``: the history shows the step
        went on, so that response came at a later window (after a chain or an
        effect resolved, say: Book of Moon activated once Magical Merchant's
        excavation put it in the hand). The next attempts ask one window later
        at the earliest (the earlier ones then go unasked, their hidden cards
        renamed to match). Raises :class:`_Retry` then."""
        other = 1 - self.seat
        pending = self.world.pending()
        entry = self.ctx.steps[index][0]
        if not entry.startswith((f"act {other} pass", f"act {other} activate ")) \
                or getattr(pending, "seat", None) != other or getattr(pending, "kind", None) != "respond":
            return
        step = index - 1
        self.ctx.forced[step] = self.window_counts.get(step, 0)
        raise _Retry(f"seat {other} was asked to respond at a window before step {step}'s end")

    def asked_too_early(self, seat: int) -> None:
        """This window of ``seat`` cannot go unasked, and the step being
        replayed is its ``pass`` that a window of the step before took: that
        ``pass`` may belong here (say, after a chain resolved rather than
        during it). The next attempts ask for it one window later there."""
        step = self.index - 1
        if step < 0 or self.ctx.steps[self.index][0] != f"act {seat} pass" \
                or self.pass_kinds.get(self.index) != "respond":
            return
        forced = self.ctx.forced
        forced[step] = max(forced.get(step, NOWHERE), self.window_counts.get(step, 0) - 1) + 1

    def able(self, seat: int) -> list[tuple[CardInst, Any]]:
        """What ``seat`` can activate at this window (its hidden and open cards)."""
        return self.world.duel.activatable(seat)

    def window_cards(self, seat: int) -> list[CardInst]:
        """``seat``'s hidden cards that could respond under another name: in its
        hand or face down in its Spell & Trap Zone, not named by this step's glimpses."""
        return [c for c in self.hidden_cards(seat) if c.zone in ("hand", "spell") and c not in self.claimed_now]

    def names(self, seat: int) -> set[str]:
        """Every name a hidden card of ``seat`` might take that has an effect to activate."""
        ctx = self.ctx
        deck = self.world.decks[seat]
        pool = set(deck.main) | set(deck.side) | {c.name for c in self.hidden_cards(seat)}
        if ctx.assumed:
            pool |= set(ctx.base.main) | set(ctx.base.side) | set(ctx.evidence.seen)
        return {n for n in pool if active_effects_for(n)}

    def able_under(self, seat: int, card: CardInst, names: set[str]) -> set[str]:
        """The names among ``names`` under which ``card`` could be activated now."""
        duel = self.world.duel
        keep = card.data
        out = set()
        try:
            for name in names:
                card.data = DATABASE[name]
                if duel.card_activatable(seat, card):
                    out.add(name)
        finally:
            card.data = keep
        return out

    def public_texts(self, seat: int) -> set[str]:
        """The window's options as the sampling seat sees them (without ``act``)."""
        duel = self.world.duel
        return {f"{seat} activate {duel.label(c, self.seat)}" + (f" {e.label}" if e.label else "")
                for c, e in self.fixed + self.able(seat)}

    # ------------------------------------------------------------------ renames
    def make_able(self, seat: int, action: str) -> bool:
        """Make ``action`` (an ``activate ...``) an option of this window if a
        rename can; whether it is one."""
        wanted = f"{seat} {action}"
        what = action.split(" ", 1)[1]
        slot = shown = None
        if what.startswith("face-down@"):  # a Set card: the one in that slot, maybe shown by the next step
            where = what.split("@", 1)[1].split(" ", 1)[0]
            zone = "monster" if where[1] == "M" else "spell"
            slot = self.world.duel.players[seat].slots(zone)[int(where[2:]) - 1]
            head = f"slot {seat} {where[1:]} "
            shown = next((fact[len(head):] for fact in self.ctx.steps[self.index + 1][1] if fact.startswith(head)),
                         None)
            if slot is None or shown is not None and not self.able_under(seat, slot, {shown}):
                return False  # activated later (in an open Main Phase, or at another window)
        if wanted in self.public_texts(seat):
            return True
        cards = self.window_cards(seat)
        if slot is not None:
            if slot not in cards or not self.give_able_name(seat, [slot]):
                return False
        elif what in DATABASE and not any(c.name == what for c in self.world.duel.players[seat].hand):
            if self.returning(seat, what) and self.index not in self.ctx.chained:
                self.deferred.append(self.index)
                return False
            hand = [c for c in cards if c.zone == "hand" and self.accepts(c, what)
                    and what in self.able_under(seat, c, {what})]
            if not hand:
                return False
            # the card that goes leaves the hand able to show what it shows next
            needed = self.hand_must_show(seat, self.index)
            if what in needed:
                needed.remove(what)  # the activation's own glimpse
            hand = [c for c in hand if self.keeps_hand(seat, c, needed)] or hand
            self.rename(self.rng.choice(hand), what, set(self.claimed_now))
        else:
            return False
        return wanted in self.public_texts(seat)

    def returning(self, seat: int, name: str) -> bool:
        """Whether a link of ``seat`` on the chain returns a card called
        ``name`` from its Graveyard to its hand (Magician of Faith's Book of
        Moon): an ``activate {name}`` from the hand asked for now is then
        first taken to come after the chain resolved, with that card — renaming
        a hidden hand card to be a second copy chained to it spent the card
        the hand had to keep (a Set the history shows next: no hand card could
        be it). Where that was wrong, the clean replay's log shows it (the
        activation was a chain link): the next attempts ask at the chain
        (``_Context.chained``). A duel before the current one has no log: both
        readings rebuild its history."""
        duel = self.world.duel
        for link in duel.chain:
            if link.seat == seat and isinstance(link.effect, ReturnFromGraveyard):
                target = duel.target_ok(link)
                if target is not None and target.zone == "gy" and target.name == name:
                    return True
        return False

    def give_able_name(self, seat: int, cards: list[CardInst]) -> bool:
        """Give one of ``cards`` a name under which it could be activated now:
        first, where one can, a hand card a name the hand shows later
        (:meth:`~.worlds._Renamer.hand_must_show`) — a random able name kept a
        card the history needs (Scapegoat, activated two windows on) out of the
        hand, so the windows between, where it would have asked, went unasked."""
        names = self.names(seat)
        order = self.rng.sample(cards, len(cards))
        shown = names & set(self.hand_must_show(seat, self.index))
        for card in order if shown else ():
            good = {n for n in self.able_under(seat, card, shown) if self.accepts(card, n)} \
                if card.zone == "hand" else set()
            if good and self.take_name(seat, card, good):
                return True
        for card in order:
            good = {n for n in self.able_under(seat, card, names) if self.accepts(card, n)}
            if good and self.take_name(seat, card, good):
                return True
        return False

    def make_unable(self, seat: int, card: CardInst) -> None:
        """Give ``card`` (hidden) a name under which it could not be activated now."""
        bad = self.able_under(seat, card, self.names(seat) | {card.name})
        if not self.take_name(seat, card, None, bad):
            raise _Retry(f"no name for a card of seat {seat} that could not respond here")

    def take_name(self, seat: int, card: CardInst, good: set[str] | None, bad: set[str] = frozenset()) -> bool:
        """Swap ``card``'s name with a hidden Deck card's (a Deck card never
        responds) whose name is in ``good`` (any if ``None``) and not in ``bad``;
        else take one from the side deck or the assumed list; else, for a
        card that must not respond (``bad``), trade with another hidden card
        out of the Deck that could not respond here under ``card``'s name
        (:meth:`trade_away`)."""
        def fits(name: str) -> bool:
            return (good is None or name in good) and name not in bad and self.accepts(card, name)

        partners = [c for c in self.hidden_cards(seat) if c.zone == "deck" and c not in self.claimed_now
                    and c.name != card.name and fits(c.name) and self.names_ok({card: c.name, c: card.name})]
        if partners and card.zone != "hand":
            # a Set card keeps off a name the hand shows later where it can: the windows may
            # bind it there, and the limited Metamorphosis had no copy left for the hand (seed 23)
            later = self.hand_shows_later(seat, self.index)
            partners = [c for c in partners if c.name not in later] or partners
        if partners:
            self.swap(card, self.rng.choice(partners))
            return True
        return (self.side_rename(card, fits) or self.list_rename(card, fits)
                or good is None and (self.trade_away(seat, card, fits) or self.rotate_away(seat, card, bad)))

    def trade_away(self, seat: int, card: CardInst, fits: Callable[[str], bool]) -> bool:
        """Swap ``card``'s name (one it could respond under here) with a hidden
        hand card's or Set card's that ``fits``, where that card could not
        respond under it here: a Set Trap's name goes to the hand, where a Trap
        cannot be activated, a hand Quick-Play Spell's to a card Set this turn.
        Late in a duel the Deck is empty, and there was no other card to take
        the name: attempt after attempt failed at the window ("no name for a
        card ... that could not respond here"). Sound as the Deck trade is:
        :meth:`names_ok` keeps both cards' names off those they could have
        responded under at a window they were not asked at, and on one that
        could at a window they were; the window checks :meth:`able` after.
        ``False`` when no card can."""
        partners = [c for c in self.hidden_cards(seat) if c is not card and c.zone != "deck"
                    and c not in self.claimed_now and c.name != card.name and fits(c.name)
                    and self.names_ok({card: c.name, c: card.name}) and not self.able_under(seat, c, {card.name})]
        if not partners:
            return False
        self.swap(card, self.rng.choice(partners))
        return True

    def rotate_away(self, seat: int, card: CardInst, bad: set[str]) -> bool:
        """A three-way rotation where no single trade makes ``card`` unable:
        ``card`` takes the name of another hidden hand or Set card (not one of
        ``bad``, the names it could respond under here), that card a Deck
        card's name under which it could not respond here, and the Deck card
        ``card``'s name. Windows where the owner was asked bind ``card`` to a
        name able there when it was the one able card, though a card drawn
        since could be the one (a card kept as Scapegoat at the windows where
        the Mystical Space Typhoon drawn that turn, targeting a Set Scapegoat,
        made the seat asked; once that resolved the seat was not asked, and
        Scapegoat could still respond): a trade with that card alone leaves
        one of them able here, with the Deck alone breaks the windows before.
        :meth:`names_ok` checks the three names at once, as a swap's two.
        ``False`` when none can."""
        hidden = [c for c in self.hidden_cards(seat) if c is not card and c not in self.claimed_now]
        middles = [c for c in hidden if c.zone != "deck" and c.name != card.name and c.name not in bad]
        ends = [c for c in hidden if c.zone == "deck"]
        options = [(b, d) for b in middles for d in ends
                   if d.name not in (b.name, card.name) and not self.able_under(seat, b, {d.name})
                   and self.names_ok({card: b.name, b: d.name, d: card.name})]
        if not options:
            return False
        middle, end = self.rng.choice(options)
        card.data, middle.data, end.data = middle.data, end.data, card.data
        self.dirty = True
        return True

    # ------------------------------------------------------------- consistency
    def bind(self, seat: int, asked: bool) -> None:
        """Keep this window's answer true whatever later steps rename."""
        names = self.names(seat)
        cards = self.window_cards(seat)
        if not asked:
            for card in cards:
                bad = self.able_under(seat, card, names)
                if bad:
                    self.banned.setdefault(card, set()).update(bad)
            return
        able = {id(c): c for c, _ in self.able(seat)}
        if self.fixed or any(c not in cards for c in able.values()):
            return  # a card that no rename changes answers it
        group = {c: frozenset(self.able_under(seat, c, names | {c.name})) for c in cards}
        group = {c: good for c, good in group.items() if good}  # any of them may be the card that could respond
        for card in group:
            self.needs.setdefault(card, []).append(group)

    def windows_allow(self, new: dict[CardInst, str]) -> bool:
        """May the cards take these names at once, for the windows seen so far?
        None a name it could have responded under where its owner was not
        asked; and where its owner was asked thanks to its hidden cards, one
        of them at least still a name that could respond there."""
        if any(name in self.banned.get(card, ()) for card, name in new.items()):
            return False
        return all(any(new.get(o, o.name) in good for o, good in group.items())
                   for card in new for group in self.needs.get(card, ()))
