"""Chains: spell speeds, response windows, priority, SEGOC, resolution.

* :meth:`ChainMixin.activatable` — what a seat may activate *now*: the timing
  rules (Normal Spells only in its own open Main Phase, Quick-Play Spells from
  the hand only in its own turn, Set Traps and Quick-Plays not the turn they
  were Set, responses of speed 2 or more and at least the last link's speed,
  the Damage Step's limits) and each effect's own condition.
* :meth:`ChainMixin.quick_window` — both players may start a chain, the
  first named seat first; after a chain resolves the turn player has priority
  again (Goat rule 4: also for ignition effects in a Main Phase).
* :meth:`ChainMixin.chain_responses` — after a link, the other player may
  respond first; two passes in a row close the chain.
* :meth:`ChainMixin.resolve_chain` — last in, first out; Normal/Quick-Play
  Spells and Normal Traps go to the Graveyard when the whole chain is done.
* :meth:`ChainMixin.settle` — simultaneous triggers as SEGOC: turn player's
  mandatory, opponent's mandatory, turn player's optional, opponent's
  optional, each player ordering their own; then responses and resolution,
  until no trigger is waiting.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from goat.games.yugioh.cards import active_effects_for
from goat.games.yugioh.cards.base import Effect, Gen, Link, Trigger
from goat.games.yugioh.prompts import Line, Say

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.cards.data import CardData
    from goat.games.yugioh.zones import CardInst

MAIN_PHASES = ("main1", "main2")


@functools.cache
def spell_trap_shapes() -> tuple["CardData", ...]:
    """One Spell/Trap of each timing shape in the pool (kind, subtype, ATK
    modifier or not): what a face-down card or a hand card might be."""
    from goat.games.yugioh.cards.data import CARDS

    shapes: dict[tuple[Any, ...], "CardData"] = {}
    for d in CARDS:
        if d.kind in ("spell", "trap"):
            shapes.setdefault((d.kind, d.subtype, "atk_modifier" in d.traits), d)
    return tuple(shapes.values())


class ChainMixin:
    """Chain procedures of :class:`~goat.games.yugioh.duel.Duel`."""

    # --------------------------------------------------------------- timing
    def activatable(self: Any, seat: int, open_state: bool = False,
                    ignition: bool = False) -> list[tuple["CardInst", Effect]]:
        """Every (card, effect) ``seat`` may activate now."""
        p = self.players[seat]
        out = []
        for card in list(p.hand) + p.field_spells() + p.field_monsters():
            out.extend((card, effect) for effect in self.card_activatable(seat, card, open_state, ignition))
        return out

    def card_activatable(self: Any, seat: int, card: "CardInst", open_state: bool = False,
                         ignition: bool = False) -> list[Effect]:
        """The effects of ``card`` (in ``seat``'s hand or on its field) that
        ``seat`` may activate now — one card of :meth:`activatable`, so that
        world sampling can ask what a hidden card could do under another name."""
        top = self.response_floor()
        out = []
        for effect in active_effects_for(card.name):
            speed = effect.speed_of(card)
            if top and (speed < 2 or speed < top):
                continue
            if not self._timing_ok(seat, card, effect, open_state, ignition):
                continue
            if effect.once_per_turn and card.used_turn.get(effect.once_key or effect.key) == self.turn:
                continue
            if effect.kind == "card" and card.data.subtype in ("continuous", "field", "equip") \
                    and self.loop_illegal(card, seat):
                continue  # Goat rule 16
            if effect.can_activate(self, card, seat):
                out.append(effect)
        return out

    def _timing_ok(self: Any, seat: int, card: "CardInst", effect: Effect, open_state: bool,
                   ignition: bool) -> bool:
        in_damage_step = self.step == "damage"
        if effect.kind == "card":
            return self.card_timing_ok(seat, card, card.data, open_state)
        if effect.kind == "quick":
            return card.zone == effect.zone and card.face_up and card.controller == seat and not in_damage_step
        if effect.kind == "ignition":
            return (card.zone == effect.zone and card.face_up and card.controller == seat and not self.chain
                    and not in_damage_step and self.phase in MAIN_PHASES and self.turn_player == seat
                    and (open_state or ignition))
        return False

    def card_timing_ok(self: Any, seat: int, card: "CardInst", d: "CardData", open_state: bool) -> bool:
        """May a Spell/Trap with the facts ``d``, where ``card`` is, be activated
        now by the timing rules alone? ``d`` is ``card.data`` — or, to ask what a
        face-down card *could* be, any card of the pool."""
        if card.zone == "hand":
            if d.kind != "spell" or (self.players[seat].free("spell") == 0 and d.subtype != "field"):
                return False
            if d.subtype == "quick-play":
                if self.turn_player != seat:
                    return False
            elif not open_state:
                return False
        elif card.zone == "spell" and not card.face_up and card.controller == seat:
            if d.kind == "spell" and d.subtype != "quick-play":
                if not open_state:
                    return False
            elif card.arrived_turn == self.turn:
                return False
        else:
            return False
        if d.kind == "trap" and self.jinzo_on_field():  # after the cheap checks: the same answer
            return False
        if d.subtype == "counter" and not (self.chain[-1].effect.kind == "card" if self.chain
                                           else self.summon_negation is not None):
            return False  # every Counter Trap of the pool answers a Spell/Trap Card's activation or a Summon
        top = self.response_floor()
        if top:
            speed = 3 if d.subtype == "counter" else 1 if d.kind == "spell" and d.subtype != "quick-play" else 2
            if speed < 2 or speed < top:
                return False
        if self.step == "damage":
            if d.subtype == "counter":
                return True
            if "atk_modifier" not in d.traits:
                return False
            calc_only = self.rules.damage_step_strict
            return self.substep == "calc" if calc_only else self.substep in ("start", "before", "calc")
        return True

    def response_floor(self: Any) -> int:
        """The lowest spell speed that may be activated now (0: any): the last
        chain link's, or 3 in a Summon's negation window before its chain starts
        (only Counter Traps answer a Summon about to be made)."""
        if self.chain:
            return self.chain[-1].speed
        return 3 if self.summon_negation is not None else 0

    def jinzo_on_field(self: Any) -> bool:
        """Jinzo: while it is face up, no Trap card can be activated, and a Trap
        effect that resolves is negated (:meth:`resolve_chain`)."""
        waiting = self.summon_negation[0] if self.summon_negation is not None else None  # not Summoned yet
        for p in self.players:  # face_up_monsters() without the lists: asked at every window
            for c in p.monsters:
                if c is not None and c.face_up and c.data.name == "Jinzo" and c is not waiting:
                    return True
        return False

    def asked_to_respond(self: Any, seat: int, found: list[tuple["CardInst", Effect]]) -> bool:
        """Is ``seat`` asked at this response window (rule option ``ask_responses``)?

        Under ``when-set-cards`` the answer depends only on what the opponent
        knows: something activatable that is public (``found`` holds only public
        cards then), or a face-down Spell/Trap or a hand card that *some* Spell or
        Trap of the pool could be activated from now. So a pending "respond"
        never tells the opponent that a hidden card can answer."""
        mode = self.rules.ask_responses
        if mode == "always" or found:
            return True
        if mode == "when-able":
            return False
        p = self.players[seat]
        hidden = [c for c in p.field_spells() if not c.face_up]
        if p.hand:
            hidden.append(p.hand[0])
        return any(self.card_timing_ok(seat, c, d, False) for c in hidden for d in spell_trap_shapes())

    def respond_options(self: Any, seat: int, found: list[tuple["CardInst", Effect]],
                        ignition: bool = False) -> Callable[[], list[tuple[str, Any]]]:
        """A response window's choices as a function (for a :data:`~.decisions.REFRESH`):
        ``found`` — ``activatable(seat, ignition=ignition)`` just computed, nothing
        changed since — the first time, remade from the cards after that."""
        first = [found]

        def options() -> list[tuple[str, Any]]:
            now = first.pop() if first else self.activatable(seat, ignition=ignition)
            return [("pass", None)] + self.activation_options(seat, now)
        return options

    def activation_options(self: Any, seat: int, found: list[tuple["CardInst", Effect]]) -> list[tuple[str, Any]]:
        options = []
        for card, effect in found:
            text = f"activate {self.label(card, seat)}" + (f" {effect.label}" if effect.label else "")
            options.append((text, (card, effect)))
        return options

    # ----------------------------------------------------------- activation
    def activate(self: Any, seat: int, card: "CardInst", effect: Effect) -> Gen:
        """Activate: place/flip the card, pay costs, choose targets, add the link."""
        if effect.kind == "card":
            if card.zone == "hand" and card.data.subtype == "field":
                self.place_field_spell(card, seat, face_up=True)
            elif card.zone == "hand":
                self.move(card, "spell", seat, face_up=True)
            else:
                if card.data.subtype == "field" and not self.rules.field_spell_shared:
                    others = [c for c in (p.field_spell() for p in self.players) if c is not None and c is not card]
                    if others:
                        self.destroy(others, "a new Field Spell")
                self.turn_face_up(card)
        link = Link(effect, card, seat, effect.speed_of(card), card.stamp)
        if effect.once_per_turn:
            card.used_turn[effect.once_key or effect.key] = self.turn
        n = len(self.chain) + 1
        self.say(Line("activatesLabel", seat=seat, card=card.name, label=effect.label, n=n) if effect.label
                 else Line("activates", seat=seat, card=card.name, n=n))
        yield from effect.activate(self, link)
        self.chain.append(link)
        self.reaper_targeted(link)
        self.check_over()

    def activate_trigger(self: Any, trig: Trigger) -> Gen:
        link = Link(trig.effect, trig.card, trig.seat, trig.effect.trigger_speed, trig.card.stamp,
                    data={"event": trig.event})
        self.say(Line("activatesEffect", seat=trig.seat, card=trig.card.name, n=len(self.chain) + 1))
        yield from trig.effect.activate(self, link)
        self.chain.append(link)
        self.reaper_targeted(link)

    def reaper_targeted(self: Any, link: Link) -> None:
        """Spirit Reaper is destroyed when an effect targets it (face up)."""
        hit = [c for c, stamp in link.targets if c.name == "Spirit Reaper" and c.stamp == stamp
               and c.zone == "monster" and c.face_up]
        if hit:
            self.destroy(hit, "Spirit Reaper was targeted")

    # -------------------------------------------------------------- windows
    def chain_responses(self: Any, first: int) -> Gen:
        """Players alternate (``first`` first) adding links until both pass in a row."""
        p, passes = first, 0
        while passes < 2:
            found = self.activatable(p)
            choice = None
            if self.asked_to_respond(p, found):
                choice = yield from self.ask(p, "respond", Say("respondChainLink", n=len(self.chain)),
                                             self.respond_options(p, found), auto=False)
            if choice is None:
                passes += 1
            else:
                yield from self.activate(p, *choice)
                passes = 0
            p = 1 - p

    def quick_window(self: Any, first: int, events: list[tuple[Any, ...]] | tuple = (),
                     ignition_first: bool = False, one_chain: bool = False, settle: bool = True) -> Gen:
        """Both players may start a chain, ``first`` first; repeats after each
        chain (turn player first again) until both pass in a row.

        ``events`` are what "just happened" (a summon, an attack) for cards
        such as Torrential Tribute or Mirror Force. ``ignition_first`` lets the
        turn player start with an ignition effect (Goat rule 4). ``settle=False``
        leaves the triggers waiting after a chain to the caller (a Summon's
        window: they activate once the Summon is made or negated). Returns how
        many chains were started."""
        tp = self.turn_player
        p, passes, fresh, chains = first, 0, True, 0
        self.window_events = list(events)
        try:
            while passes < 2:
                allow_ignition = ignition_first and fresh and p == tp
                found = self.activatable(p, ignition=allow_ignition)
                choice = None
                if self.asked_to_respond(p, found):
                    choice = yield from self.ask(p, "respond", self._window_prompt(), auto=False,
                                                 options=self.respond_options(p, found, allow_ignition))
                if choice is None:
                    passes += 1
                    p, fresh = 1 - p, False
                    continue
                yield from self.activate(p, *choice)
                chains += 1
                summons = yield from self.run_chain(1 - p, settle)
                if one_chain:
                    return chains
                self.window_events = summons
                p, passes, fresh = tp, 0, True
                ignition_first = self.rules.ignition_priority and self.phase in MAIN_PHASES
            return chains
        finally:
            self.window_events = []

    def _window_prompt(self: Any) -> Say:
        if self.summon_negation is not None:
            return Say("summonRespond", card=self.summon_negation[0].name)
        where = [self.phase] + ([self.step] if self.step else []) + ([self.substep] if self.substep else [])
        if self.window_events:
            return Say("windowRespond", where=where, events=[e[0] for e in self.window_events])
        return Say("windowActivate", where=where)

    def run_chain(self: Any, first: int, settle: bool = True) -> Gen:
        """Responses, resolution and (unless ``settle`` is false) the triggers
        that follow; returns the summons made by the chain (for a following window)."""
        yield from self.chain_responses(first)
        summons = yield from self.resolve_chain()
        more = (yield from self.settle()) if settle else []
        return summons + more

    # ----------------------------------------------------------- resolution
    def resolve_chain(self: Any) -> Gen:
        self.chain_summons = []
        self.chains_resolved += 1
        self.window_events = []  # what "just happened" before the chain is past now
        resolved: list[Link] = []
        while self.chain:
            link = self.chain.pop()
            self.resolving = link
            card, effect = link.card, link.effect
            n = len(self.chain) + 1
            self.say(Line("resolvesLabel", n=n, card=card.name, label=effect.label) if effect.label
                     else Line("resolves", n=n, card=card.name))
            stays = card.data.kind in ("spell", "trap") and card.data.subtype in ("continuous", "equip", "field")
            if link.data.get("negated"):
                self.say(Line("activationNegated", card=card.name))
            elif effect.kind == "card" and stays and not self.still_there(card, link.card_stamp):
                self.say(Line("noLongerOnField", card=card.name))
                link.data["fizzled"] = True
            elif (card.data.kind == "trap" and self.jinzo_on_field()
                  and self.still_there(card, link.card_stamp) and card.face_up):
                # Jinzo negates "the effects of all face-up Trap Cards" as long as it is face
                # up — also a Trap linked before a later link brought Jinzo face up. Only the
                # effect is negated: a Continuous Trap stays on the field, a Normal Trap goes
                # to the Graveyard. A Normal Trap already destroyed in the chain is no longer a
                # face-up card on the field: its effect resolves, as MST's leaves it.
                self.say(Line("negatedByJinzo", card=card.name))
            elif self.flip_negated(link) is not None:
                self.say(Line("negatedByBladeKnight", card=card.name))
            else:
                yield from effect.resolve(self, link)
            self.resolving = None
            self.adjust()
            self.check_over()
            if effect.kind == "card":
                resolved.append(link)
        for link in resolved:
            card = link.card
            if not self.still_there(card, link.card_stamp) or not card.face_up:
                continue
            if card.data.subtype in ("normal", "quick-play", "counter", "ritual") or link.data.get("fizzled"):
                self.send_to_gy(card, "resolved")
        self.adjust()
        self.check_over()
        summons, self.chain_summons = self.chain_summons, []
        if self.last_turn_pending:  # what Last Turn sets up happens after the whole chain
            yield from self.last_turn_battle()
        return summons

    def negate_activation(self: Any, link: Link, by: str) -> None:
        """A Counter Trap negates ``link``'s activation: its card is destroyed now
        (a Continuous, Equip or Field card does not stay) and, when the link comes
        to resolve, its effect does not; its costs stay paid, what comes only with
        an activation that stands does not (:meth:`~.cards.base.Effect.negated`)."""
        link.data["negated"] = True
        link.effect.negated(self, link)
        self.say(Line("negatesActivation", card=by, other=link.card.name))
        if self.still_there(link.card, link.card_stamp):
            self.destroy([link.card], by)

    def still_there(self: Any, card: "CardInst", stamp: int) -> bool:
        return card.stamp == stamp and card.zone in ("monster", "spell")

    def target(self: Any, link: Link, card: "CardInst") -> None:
        link.targets.append((card, card.stamp))
        self.say(Line("targets", seat=link.seat, target=self.label(card, None)))

    def target_ok(self: Any, link: Link, index: int = 0) -> "CardInst | None":
        """The link's target if it is still the same card in the same place."""
        if index >= len(link.targets):
            return None
        card, stamp = link.targets[index]
        return card if card.stamp == stamp and card.zone != "gone" else None

    # ------------------------------------------------------------- triggers
    def settle(self: Any) -> Gen:
        """Put waiting triggers on chains (SEGOC) and resolve them, until none wait."""
        summons: list[tuple[Any, ...]] = []
        while self.pending:
            waiting, self.pending = self.pending, []
            waiting = [t for t in waiting if t.effect.can_trigger(self, t)]
            tp = self.turn_player
            for seat, mandatory in ((tp, True), (1 - tp, True), (tp, False), (1 - tp, False)):
                group = [t for t in waiting if t.seat == seat and t.effect.mandatory == mandatory]
                while group:
                    options = [(f"activate {self.label(t.card, seat)}", t) for t in group]
                    if mandatory:
                        pick = yield from self.ask(seat, "order", Say("triggerOrder"), options)
                    else:
                        pick = yield from self.ask(seat, "trigger", Say("triggerOptional"),
                                                   [("pass", None)] + options, auto=False)
                        if pick is None:
                            break
                    group.remove(pick)
                    if pick.effect.can_trigger(self, pick):
                        yield from self.activate_trigger(pick)
            if self.chain:
                yield from self.chain_responses(1 - self.chain[-1].seat)
                summons += yield from self.resolve_chain()
        return summons
