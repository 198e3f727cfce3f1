"""The turn: Draw, Standby, Main 1, Battle, Main 2, End; the Main Phase's
open game state (summons, Sets, position changes, activations).

Turns are numbered from 1. The player who goes first has no Battle Phase on
turn 1 and draws on it only under Goat rule 1 (``first_player_draws``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goat.games.yugioh.cards.base import Gen
from goat.games.yugioh.prompts import Line, Say
from goat.games.yugioh.zones import FIELD_SLOT

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.zones import CardInst


class PhaseMixin:
    """Turn procedures of :class:`~goat.games.yugioh.duel.Duel`."""

    # ---------------------------------------------------------------- duel
    def run(self: Any) -> Gen:
        """The whole duel: shuffle, opening hands, then turns until it ends."""
        for seat in (self.first, 1 - self.first):
            yield from self.shuffle(seat)
        for seat in (self.first, 1 - self.first):
            self.draw(seat, self.rules.starting_hand)
        self.check_over()
        yield from self.turns()

    def turns(self: Any, start_phase: str = "draw") -> Gen:
        """Turns from ``start_phase`` of the current turn on (tests start mid-turn)."""
        phase = start_phase
        while True:
            if self.turn == 0:
                self.turn = 1
            yield from self.play_turn(phase)
            phase = "draw"
            self.turn += 1
            self.turn_player = 1 - self.turn_player

    def play_turn(self: Any, start: str = "draw") -> Gen:
        tp = self.turn_player
        order = ("draw", "standby", "main1", "battle", "main2", "end")
        begin = order.index(start)
        if begin == 0:
            self.normal_summon_used = False
            self.summoned_this_turn = [False, False]
            self.say(Line("turnStarts", n=self.turn, seat=tp))
            self.phase = "draw"
            if self.turn > 1 or self.rules.first_player_draws:
                self.draw(tp, 1)
                self.check_over()
            yield from self.quick_window(tp)
        if begin <= 1:
            self.phase = "standby"
            self.emit(("standby", tp))
            yield from self.settle()
            yield from self.quick_window(tp)
        go_battle = start in ("battle",)
        if begin <= 2:
            self.phase = "main1"
            go_battle = (yield from self.main_phase()) == "battle"
        if go_battle and self.turn > 1:
            self.phase = "battle"
            yield from self.battle_phase()
            self.phase = "main2"
            yield from self.main_phase()
        elif start == "main2":
            self.phase = "main2"
            yield from self.main_phase()
        self.phase = "end"
        self.last_turn_verdict()
        self.emit(("end_phase", tp))
        yield from self.settle()
        yield from self.quick_window(tp)
        yield from self.hand_limit(tp)
        for card in self.monsters():   # what lasts a turn: its bonus, and its attacks
            card.atk_bonus = 0
            card.extra_attack = False
            card.attacks = 0           # each monster attacks once a turn (position changes and
            card.attacked_uids = []    # Flip Summons ask "attacked this turn" of it too)
        self.say(Line("turnEnds", n=self.turn))

    def hand_limit(self: Any, seat: int) -> Gen:
        """The end of the End Phase: discard down to the hand limit. A discard may
        trigger (Night Assailant): the trigger resolves in this End Phase — not in
        the next turn's first settle — the turn player then has priority again, and
        a hand grown past the limit again is discarded again."""
        hand = self.players[seat].hand
        while len(hand) > self.rules.hand_limit:
            while len(hand) > self.rules.hand_limit:
                card = yield from self.choose_card(seat, "discard", Say("discardDownTo", n=self.rules.hand_limit),
                                                   hand)
                self.discard(seat, card, "hand size")
            before = self.chains_resolved
            yield from self.settle()
            if self.chains_resolved > before:
                yield from self.quick_window(seat)

    # ---------------------------------------------------------- main phase
    def main_phase(self: Any) -> Gen:
        """The open game state: returns ``"battle"`` or ``"end"``."""
        tp = self.turn_player
        while True:
            kind, *rest = yield from self.ask(tp, "open", Say("yourMove", phase=self.phase), lambda: self.main_options(tp),
                                              auto=False)
            if kind == "phase":
                # The turn player passes priority: the opponent may respond first.
                if (yield from self.quick_window(1 - tp)):
                    continue
                return rest[0]
            if kind == "activate":
                card, effect = rest
                yield from self.activate(tp, card, effect)
                summons = yield from self.run_chain(1 - tp)
                yield from self.after_chain(summons)
            elif kind in ("summon", "set"):
                yield from self.normal_summon(tp, rest[0], set_it=kind == "set")
            elif kind == "set_spell":
                card = rest[0]
                if card.data.subtype == "field":
                    self.place_field_spell(card, tp, face_up=False)
                else:
                    self.move(card, "spell", tp, face_up=False)
                self.say(Line("setsSpellTrap", seat=tp), tp, Line("setsCard", seat=tp, card=card.name))
            elif kind == "special":
                yield from self.procedure_summon(tp, rest[0])
            elif kind == "flip":
                yield from self.flip_summon(tp, rest[0])
            elif kind == "position":
                card = rest[0]
                card.attack_pos = not card.attack_pos
                card.position_changed_turn = self.turn
                self.say(Line("changesPosition", seat=tp, card=card.name,
                              position="Attack" if card.attack_pos else "Defense"))

    def after_chain(self: Any, summons: list[tuple[Any, ...]]) -> Gen:
        """The window after a chain: turn player first (Goat rule 4: ignition too)."""
        yield from self.quick_window(self.turn_player, summons,
                                     ignition_first=self.rules.ignition_priority and self.phase in ("main1", "main2"))

    def main_options(self: Any, tp: int) -> list[tuple[str, Any]]:
        p = self.players[tp]
        options: list[tuple[str, Any]] = []
        locked = self.summon_locked(tp)
        for card in p.hand:
            d = card.data
            if d.is_monster:
                if self.can_normal_summon(tp, card):
                    if not locked and "set_only" not in d.traits and not self.loop_illegal(card, tp):
                        options.append((f"summon {card.name}", ("summon", card)))
                    options.append((f"set {card.name}", ("set", card)))
                if "light_dark" in d.traits and not locked and self.light_dark_ready(tp) \
                        and not self.loop_illegal(card, tp):
                    options.append((f"special {card.name}", ("special", card)))
            elif p.free("spell") or d.subtype == "field":
                options.append((f"set {card.name}", ("set_spell", card)))
        for card in p.field_monsters():
            if self.locked_by_restrict(card):
                continue
            # A monster turned face-down (Book of Moon) still remembers that it was summoned, changed
            # position or declared an attack this turn: a Flip Summon is a position change, so not then.
            if not card.face_up and card.arrived_turn != self.turn and card.position_changed_turn != self.turn \
                    and card.summoned_turn != self.turn and not card.attacks and not locked \
                    and not self.loop_illegal(card, tp):
                options.append((f"flip {self.label(card, tp)}", ("flip", card)))
            if card.face_up and self.may_change_position(tp, card):
                options.append((f"position {self.label(card, tp)}", ("position", card)))
        for text, value in self.activation_options(tp, self.activatable(tp, open_state=True)):
            options.append((text, ("activate", *value)))
        if self.phase == "main1" and self.turn > 1:
            options.append(("phase battle", ("phase", "battle")))
        options.append(("phase end", ("phase", "end")))
        return options

    def summon_locked(self: Any, seat: int) -> bool:
        """Scapegoat: the turn a player activates it they cannot Summon other monsters
        (Normal, Flip or Special — by procedure or by an effect such as Call of the
        Haunted); Setting stays allowed."""
        return self.scapegoat_turn[seat] == self.turn

    def loop_illegal(self: Any, card: "CardInst", seat: int) -> bool:
        """Goat rule 16: a voluntary action that would make an infinite loop is
        illegal (here: a monster coming face up, a card activated). Off: it is
        allowed, and the loop then destroys the card that causes it."""
        if not self.rules.voluntary_loops_illegal:
            return False
        if card.data.is_monster:
            return self.would_loop(card, "monster", seat)
        slot = FIELD_SLOT if card.data.subtype == "field" else None
        return self.would_loop(card, "spell", seat, slot)

    def may_change_position(self: Any, seat: int, card: "CardInst") -> bool:
        if card.position_changed_turn == self.turn or card.attacks:
            return False
        if card.summoned_turn == self.turn:
            # Goat rule 13: a monster the opponent summoned this turn may be turned by its new controller.
            return self.rules.taken_monster_may_change_position and card.summoned_by != seat
        return True

    # -------------------------------------------------------------- summons
    def tribute_fodder(self: Any, seat: int) -> list["CardInst"]:
        return [c for c in self.players[seat].field_monsters() if not c.is_token]

    def can_normal_summon(self: Any, seat: int, card: "CardInst") -> bool:
        d = card.data
        if self.normal_summon_used or d.is_fusion or "nomi" in d.traits or "token" in d.traits:
            return False
        need = d.tributes_needed()
        if need == 0:
            return self.players[seat].free("monster") > 0
        return len(self.tribute_fodder(seat)) >= need

    def normal_summon(self: Any, seat: int, card: "CardInst", set_it: bool) -> Gen:
        need = card.data.tributes_needed()
        chosen: list["CardInst"] = []
        for i in range(need):
            fodder = [c for c in self.tribute_fodder(seat) if c not in chosen]
            chosen.append((yield from self.choose_card(seat, "tribute", Say("tributeCount", i=i + 1, n=need), fodder)))
        for t in chosen:
            self.send_to_gy(t, "tribute")
        self.adjust()
        self.normal_summon_used = True
        if set_it:
            self.place_monster(card, seat, face_up=False, attack_pos=False)
            self.say(Line("setsMonster", seat=seat), seat, Line("setsCard", seat=seat, card=card.name))
            yield from self.settle()
            return
        self.place_monster(card, seat, face_up=True, attack_pos=True)
        self.say(Line("tributeSummons" if need else "normalSummons", seat=seat, card=card.name))
        if (yield from self.summon_window(seat, card)):
            return  # the Normal Summon is used all the same; the tributes stay in the Graveyard
        card.summoned_turn, card.summoned_by, card.summon_how = self.turn, seat, "normal"
        self.summoned_this_turn[seat] = True
        yield from self.after_summon(("summoned", card, "normal", seat))

    def flip_summon(self: Any, seat: int, card: "CardInst") -> Gen:
        self.turn_face_up(card)
        card.attack_pos = True
        card.position_changed_turn = self.turn
        self.say(Line("flipSummons", seat=seat, card=card.name))
        if (yield from self.summon_window(seat, card)):
            return  # never flipped by a Flip Summon: no Flip effect
        card.flipped_turn = card.summoned_turn = self.turn
        card.summoned_by, card.summon_how = seat, "flip"
        self.summoned_this_turn[seat] = True
        self.emit(("flipped", card))
        yield from self.after_summon(("summoned", card, "flip", seat))

    def light_dark_ready(self: Any, seat: int) -> bool:
        p = self.players[seat]
        attrs = {c.data.attribute for c in p.gy if c.data.is_monster}
        return {"LIGHT", "DARK"} <= attrs and p.free("monster") > 0

    def procedure_summon(self: Any, seat: int, card: "CardInst") -> Gen:
        """Black Luster Soldier / Chaos Sorcerer: remove a LIGHT and a DARK monster (no chain)."""
        p = self.players[seat]
        for attribute in ("LIGHT", "DARK"):
            pick = yield from self.choose_card(seat, "cost", Say("banishAttribute", attribute=attribute),
                                               [c for c in p.gy if c.data.is_monster and c.data.attribute == attribute])
            self.banish(pick, f"cost of {card.name}")
        attack = yield from self.ask_position(seat, card)
        self.place_monster(card, seat, True, attack)
        self.say(Line("specialSummons", seat=seat, card=card.name, position="Attack" if attack else "Defense"))
        if (yield from self.summon_window(seat, card)):
            return  # never properly summoned
        card.summoned_turn, card.summoned_by, card.summon_how = self.turn, seat, "special"
        card.proper = True
        self.summoned_this_turn[seat] = True
        yield from self.after_summon(("summoned", card, "special", seat))

    def summon_window(self: Any, seat: int, card: "CardInst") -> Gen:
        """"When a monster would be Summoned": a Summon that starts no chain
        (Normal, Tribute, Flip, a Special Summon by its own procedure) may be
        negated first. One window, one chain at most, the other player asked
        first; only Counter Traps answer (:meth:`response_floor`), and only the
        first link answers the Summon (Solemn Judgment). The monster waits in the
        Monster Zone it will take, face up, but is not Summoned yet — nor, while it
        waits, a Jinzo that stops Traps (:meth:`jinzo_on_field`) — so a glimpse of it
        comes with its Summon as always. The chain resolves alone: triggers waiting
        (a tributed Sangan's, say) activate after it, once the Summon is made — with
        the Summon's own, in its response window (:meth:`after_summon`) — or negated.
        Returns whether the Summon was not made (negated); then the turn goes on as
        after any chain (turn player first)."""
        self.summon_negation = pending = [card, seat, False]
        try:
            yield from self.quick_window(1 - seat, one_chain=True, settle=False)
        finally:
            self.summon_negation = None
        if pending[2]:
            summons = yield from self.settle()
            yield from self.after_chain(summons)
            return True
        return False

    def negate_summon(self: Any, pending: list[Any]) -> None:
        """Solemn Judgment: the Summon is negated and the monster destroyed. It was
        never Summoned nor, the rulings say, sent to the Graveyard from the field,
        so nothing "when summoned" or "when sent from the field" happens (a card
        linked to a face-down monster Flip Summoned follows it as usual)."""
        card = pending[0]
        pending[2] = True
        self.say(Line("summonNegated", card=card.name))
        if card.zone == "monster":
            self.move(card, "gy")
            self.say(Line("destroyed", card=card.name, seat=card.owner, reason="Solemn Judgment"))
            self.adjust()

    def after_summon(self: Any, event: tuple[Any, ...]) -> Gen:
        """A summon that starts no chain: its triggers (Torrential Tribute may
        chain to them), else a window where the turn player acts first."""
        self.adjust()  # state checks: a summon may start a loop (Goat rule 16)
        self.emit(event)
        self.window_events = [event]
        before = self.chains_resolved
        summons = yield from self.settle()
        if self.chains_resolved > before:
            yield from self.after_chain(summons)
        else:
            yield from self.quick_window(self.turn_player, [event],
                                         ignition_first=self.rules.ignition_priority and self.phase in ("main1", "main2"))
