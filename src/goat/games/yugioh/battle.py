"""The Battle Phase: Start Step, Battle Step (attacks, replays), the Damage
Step's six sub-steps (Goat rule 9), End Step.

Damage Step sub-steps, as the duel's ``substep``:

1. ``start`` — start of the Damage Step (Mystic Swordsman LV2 destroys a
   face-down Defense Position target here, before it would be flipped);
2. ``before`` — before damage calculation: a face-down target is turned face up;
3. ``calc`` — damage calculation: ATK/DEF modifiers (one chain only under
   ``damage_calc_one_chain``), then the battle is worked out;
4. ``after`` — after damage calculation: battle damage is applied, "deals battle
   damage" triggers (Airknight Parshath);
5. ``flip`` — before the end of the Damage Step: Flip effects and "after it
   battles" effects (D.D. Warrior Lady);
6. ``end`` — end of the Damage Step: monsters destroyed by battle go to the
   Graveyard and their triggers (Sangan) activate.

A replay happens when the number of monsters the defender controls changes
between the attack declaration and the Damage Step (or the target leaves).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from goat.games.yugioh.cards.base import Gen, Link
from goat.games.yugioh.prompts import Line, Say

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.zones import CardInst


@dataclass
class Attack:
    attacker: "CardInst"
    attacker_stamp: int
    target: "CardInst | None"
    target_stamp: int
    defender_count: int
    no_battle_damage: bool = False   # Last Turn's battle: its battle damage is 0


class BattleMixin:
    """Battle procedures of :class:`~goat.games.yugioh.duel.Duel`."""

    def battle_phase(self: Any) -> Gen:
        tp = self.turn_player
        self.step = "start"
        yield from self.quick_window(tp)
        while True:
            self.step = "battle"
            kind, *rest = yield from self.ask(tp, "battle", Say("battleStep"),
                                              lambda: self.battle_options(tp), auto=False)
            if kind == "activate":
                yield from self.activate(tp, *rest)
                summons = yield from self.run_chain(1 - tp)
                yield from self.quick_window(tp, summons)
            elif kind == "attack":
                yield from self.declare_attack(*rest)
            else:
                if (yield from self.quick_window(1 - tp)):
                    continue
                break
        self.step = "end"
        yield from self.quick_window(tp)
        self.step = None

    def battle_options(self: Any, tp: int) -> list[tuple[str, Any]]:
        options = [(f"attack {self.label(a, tp)} -> {'direct' if t is None else self.label(t, tp)}",
                    ("attack", a, t)) for a, t in self.attack_options(tp)]
        options += [(text, ("activate", *v)) for text, v in self.activation_options(tp, self.activatable(tp))]
        options.append(("phase main2", ("end",)))
        return options

    # --------------------------------------------------------------- attacks
    def can_attack(self: Any, card: "CardInst") -> bool:
        return (card.face_up and card.attack_pos and card.controller == self.turn_player
                and card.cannot_attack_turn != self.turn and not self.locked_by_restrict(card))

    def attack_options(self: Any, tp: int) -> list[tuple["CardInst", "CardInst | None"]]:
        defenders = self.monsters(1 - tp)
        out = []
        for card in self.monsters(tp):
            if not self.can_attack(card):
                continue
            if "attack_all" in card.data.traits:
                if defenders:
                    out += [(card, t) for t in defenders if t.uid not in card.attacked_uids]
                elif card.attacks == 0:
                    out.append((card, None))
                continue
            bonus = 1 if card.extra_attack and card.destroyed_by_battle_turn == self.turn else 0
            if card.attacks >= 1 + bonus:
                continue
            out += [(card, t) for t in defenders] if defenders else [(card, None)]
        return out

    def declare_attack(self: Any, attacker: "CardInst", target: "CardInst | None") -> Gen:
        tp = self.turn_player
        attacker.attacks += 1
        if target is not None:
            attacker.attacked_uids.append(target.uid)
        self.say(Line("attacksDirectly", seat=tp, card=attacker.name) if target is None
                 else Line("attacks", seat=tp, card=attacker.name, target=self.label(target, None)))
        self.attack = Attack(attacker, attacker.stamp, target, -1 if target is None else target.stamp,
                             len(self.monsters(1 - tp)))
        yield from self.attack_declared(attacker, target)
        yield from self.after_declaration()

    def attack_declared(self: Any, attacker: "CardInst", target: "CardInst | None") -> Gen:
        """The attack declaration's event and its window: the triggers it starts
        (Sakuretsu Armor, Mirror Force), else a window where the turn player acts
        first — the same for a normal attack and Last Turn's."""
        tp = self.turn_player
        event = ("attack", attacker, target, tp)
        self.emit(event)
        self.window_events = [event]
        before = self.chains_resolved
        yield from self.settle()
        if self.chains_resolved == before:
            yield from self.quick_window(tp, [event])

    def attacker_ok(self: Any) -> bool:
        a = self.attack
        card = a.attacker
        return (card.stamp == a.attacker_stamp and card.zone == "monster" and card.face_up and card.attack_pos
                and card.controller == self.turn_player)

    def after_declaration(self: Any) -> Gen:
        """Replay check, then the Damage Step."""
        tp = self.turn_player
        a = self.attack
        if not self.attacker_ok():
            self.say(Line("attackStops"))
            self.attack = None
            return
        target_gone = a.target is not None and (a.target.stamp != a.target_stamp or a.target.zone != "monster"
                                                or a.target.controller != 1 - tp)
        if target_gone or len(self.monsters(1 - tp)) != a.defender_count:
            self.say(Line("replay"))
            attacker = a.attacker
            if a.target is not None and a.target.uid in attacker.attacked_uids:
                attacker.attacked_uids.remove(a.target.uid)
            self.attack = None
            if self.rules.replay_rewinds:
                attacker.attacks -= 1   # back to the start of the Battle Step
                return
            defenders = self.monsters(1 - tp)
            options = [(f"attack {self.label(attacker, tp)} -> {self.label(t, tp)}", t) for t in defenders
                       if t.uid not in attacker.attacked_uids or "attack_all" not in attacker.data.traits]
            if not defenders:
                options.append((f"attack {self.label(attacker, tp)} -> direct", "direct"))
            options.append(("pass", None))
            choice = yield from self.ask(tp, "replay", Say("replay"),
                                         options, auto=False)
            if choice is None:
                return
            attacker.attacks -= 1
            yield from self.declare_attack(attacker, None if choice == "direct" else choice)
            return
        yield from self.damage_step()

    # ----------------------------------------------------------- Damage Step
    def damage_window(self: Any, one_chain: bool = False) -> Gen:
        yield from self.quick_window(self.turn_player, one_chain=one_chain)

    def battle_valid(self: Any) -> bool:
        a = self.attack
        if not self.attacker_ok():
            return False
        t = a.target
        return t is None or (t.stamp == a.target_stamp and t.zone == "monster")

    def damage_step(self: Any) -> Gen:
        tp = self.turn_player
        a = self.attack
        self.step = "damage"
        try:
            self.substep = "start"
            if a.target is not None and not a.target.face_up and not a.target.attack_pos \
                    and "swordsman" in a.attacker.data.traits and a.attacker.face_up:
                # A Mystic Swordsman's effect destroys the face-down Defense Position monster
                # unflipped, in sub-step 1 (Goat rule 9A), before the target would be flipped: no
                # battle follows, and it is no destruction by battle (no level-up from it).
                self.say(Line("swordsmanDestroys", card=a.attacker.name))
                to_deck = False
                if "swordsman_returns" in a.attacker.data.traits and a.target.owner != a.attacker.controller:
                    # Mystic Swordsman LV6: its player may put the monster on top of the
                    # opponent's Deck instead, choosing without seeing it (era text, RDS-EN008).
                    to_deck = yield from self.ask(a.attacker.controller, "select", Say("swordsmanToDeck"),
                                                  [("choose deck", True), ("choose graveyard", False)],
                                                  auto=False)
                if to_deck:
                    self.destroy_to_deck_top(a.target, a.attacker.name)
                else:
                    self.destroy([a.target], a.attacker.name)
                self.check_over()
                yield from self.settle()
                return
            yield from self.damage_window()
            if not self.battle_valid():
                self.say(Line("battleStopsBefore"))
                return
            self.substep = "before"
            flipped = None
            if a.target is not None and not a.target.face_up:
                self.turn_face_up(a.target)
                a.target.flipped_turn = self.turn
                flipped = a.target
                self.say(Line("attackedFaceDownIs", card=a.target.name,
                              position="Attack" if a.target.attack_pos else "Defense"))
            yield from self.damage_window()
            if not self.battle_valid():
                self.say(Line("battleStopsBefore"))
                return
            self.substep = "calc"
            yield from self.damage_window(one_chain=self.rules.damage_calc_one_chain)
            if not self.battle_valid():
                self.say(Line("battleStopsAtCalc"))
                return
            destroyed, damage = self.calculate(a.attacker, a.target)
            self.substep = "after"
            if a.no_battle_damage and damage:
                self.say(Line("noBattleDamage"))
                damage = []
            for seat, amount in damage:
                self.damage(seat, amount, battle=True, source=a.attacker)
            self.check_over()
            destroyed = self.substitute_restrict(destroyed)
            yield from self.settle()
            self.substep = "flip"
            if flipped is not None and flipped.zone == "monster" and flipped.face_up:
                self.emit(("flipped", flipped, *self.flip_negator(flipped, destroyed)))
            if a.target is not None:
                self.emit(("battled", a.attacker, a.target))
                self.emit(("battled", a.target, a.attacker))
            yield from self.settle()
            self.substep = "end"
            dead = [c for c, stamp in destroyed if c.stamp == stamp and c.zone == "monster"]
            if dead:
                self.destroy(dead, "battle")
                if any(c is a.target for c in dead) and a.attacker.stamp == a.attacker_stamp:
                    a.attacker.destroyed_by_battle_turn = self.turn
                if any(c is a.attacker for c in dead) and a.target is not None \
                        and a.target.stamp == a.target_stamp and a.target.zone == "monster":
                    a.target.destroyed_by_battle_turn = self.turn   # a defender destroys too (Mystic Swordsman LV2)
                self.check_over()
            yield from self.settle()
        finally:
            self.step, self.substep = "battle", None
            self.attack = None
        if tp != self.turn_player:  # pragma: no cover - defensive
            raise RuntimeError("turn changed during a battle")

    # ------------------------------------------------------------ Last Turn
    def last_turn_battle(self: Any) -> Gen:
        """What Last Turn sets up, after the chain it resolved in (Goat-era rulings:
        the turn player Special Summons, then a special Battle Phase, then the turn
        goes on where it was; the check is in the End Phase, :meth:`last_turn_verdict`).

        The turn player (Last Turn's opponent) picks a monster from their Deck that
        an effect may Special Summon, in Attack Position, and shuffles; with none —
        or under Scapegoat's lock — nothing is summoned and nothing battles. The
        special Battle Phase has its Start Step, a Battle Step where the summoned
        monster attacks the kept monster (a face-down one is flipped in the Damage
        Step as in any attack), the Damage Step with its windows and no battle
        damage, and its End Step. An attack that can no longer happen (either
        monster gone) is not replayed. The monster may still attack in the turn's
        own Battle Phase: the special one is extra. Resolved in the End Phase, the
        check follows at once, whether or not a monster was summoned. Two Last
        Turns in one chain (no ruling found) each set up their own, in the order
        they resolved (docs/yugioh.md, *Card pool*)."""
        while self.last_turn_pending:
            seat, keep, stamp = self.last_turn_pending.pop(0)
            tp = 1 - seat
            deck = self.players[tp].deck

            def summonable() -> list["CardInst"]:
                # Offered by name (choose_card: a Deck's order is hidden).
                return [c for c in deck if c.data.summonable_by_effect]

            if self.summon_locked(tp) or not self.players[tp].free("monster"):
                self.say(Line("lastTurnNoSummon", seat=tp))
                continue
            if not summonable():
                self.say(Line("lastTurnNoSummon", seat=tp))
                self.facts.append(((f"nofind {tp} summonable",) * 3, None))
                continue
            pick = yield from self.choose_card(tp, "search", Say("specialSummonWhich"), summonable)
            self.special_summon(pick, tp, attack_pos=True)
            yield from self.shuffle(tp)
            yield from self._special_battle_phase(pick, pick.stamp, keep, stamp)
        if self.phase == "end":   # resolved in the End Phase: its check is now
            self.last_turn_verdict()

    def _special_battle_phase(self: Any, attacker: "CardInst", attacker_stamp: int, target: "CardInst | None",
                              target_stamp: int) -> Gen:
        saved = (self.phase, self.step, self.substep, self.attack)
        tp = self.turn_player
        try:
            yield from self.settle()   # the summon's and the chain's triggers (Sangan sent by Last Turn)
            self.phase, self.step, self.substep, self.attack = "battle", "start", None, None
            yield from self.quick_window(tp)
            self.step = "battle"
            here = (target is not None and target.stamp == target_stamp and target.zone == "monster"
                    and target.controller == 1 - tp)
            if here and attacker.stamp == attacker_stamp and attacker.zone == "monster":
                self.say(Line("attacks", seat=tp, card=attacker.name, target=self.label(target, None)))
                self.attack = Attack(attacker, attacker_stamp, target, target_stamp, len(self.monsters(1 - tp)),
                                     no_battle_damage=True)
                yield from self.attack_declared(attacker, target)
                if self.battle_valid():
                    yield from self.damage_step()
                else:
                    self.say(Line("attackStops"))
            self.attack = None
            self.step = "end"
            yield from self.quick_window(tp)
        finally:
            self.phase, self.step, self.substep, self.attack = saved

    def flip_negator(self: Any, flipped: "CardInst", destroyed: list[tuple["CardInst", int]]) -> tuple[Any, ...]:
        """Blade Knight's second clause: the attacker that will negate the Flip
        effect of ``flipped``, a Flip monster this battle destroys — as
        ``(card, stamp)`` to append to the flip event (:meth:`flip_negated` checks
        it again when the effect resolves), or ``()``."""
        attacker = self.attack.attacker
        if attacker.name == "Blade Knight" and "flip" in flipped.data.traits \
                and any(c is flipped and stamp == flipped.stamp for c, stamp in destroyed):
            return (attacker, attacker.stamp)
        return ()

    def flip_negated(self: Any, link: Link) -> "CardInst | None":
        """The Blade Knight that negates ``link``, a Flip effect whose monster it
        destroyed by battle, if it is still face up and its controller's only monster."""
        event = link.data.get("event")
        if event is None or event[0] != "flipped" or len(event) < 4 or "flip" not in link.card.data.traits:
            return None
        knight, stamp = event[2], event[3]
        alone = self.players[knight.controller].field_monsters() == [knight]
        return knight if knight.stamp == stamp and knight.zone == "monster" and knight.face_up and alone else None

    def calculate(self: Any, attacker: "CardInst", target: "CardInst | None") -> tuple[list, list]:
        """Work out a battle: (monsters destroyed with their stamps, [(seat, damage)])."""
        tp = self.turn_player
        atk = self.atk(attacker)
        if target is None:
            self.say(Line("directAttackFor", n=atk))
            return [], [(1 - tp, atk)]
        destroyed: list[tuple["CardInst", int]] = []
        damage: list[tuple[int, int]] = []
        if target.attack_pos:
            other = self.atk(target)
            self.say(Line("battleVsAtk", attacker=attacker.name, atk=atk, defender=target.name, value=other))
            if atk > other:
                destroyed.append((target, target.stamp))
                damage.append((target.controller, atk - other))
            elif atk < other:
                destroyed.append((attacker, attacker.stamp))
                damage.append((tp, other - atk))
            elif atk > 0 or self.rules.zero_atk_both_destroyed:
                destroyed += [(attacker, attacker.stamp), (target, target.stamp)]
        else:
            other = self.defense(target)
            self.say(Line("battleVsDef", attacker=attacker.name, atk=atk, defender=target.name, value=other))
            if atk > other:
                destroyed.append((target, target.stamp))
                if "piercing" in attacker.data.traits:
                    damage.append((target.controller, atk - other))
            elif atk < other:
                damage.append((tp, other - atk))
        return destroyed, damage

    def substitute_restrict(self: Any, destroyed: list[tuple["CardInst", int]]) -> list[tuple["CardInst", int]]:
        """Monsters that battle does not destroy: Thousand-Eyes Restrict's absorbed
        monster is destroyed in its place, a Union monster in its host's place
        (Goat rule 17: by battle only), Spirit Reaper is not destroyed at all."""
        out = []
        for card, stamp in destroyed:
            held = self.equipped_monster(card) if card.name == "Thousand-Eyes Restrict" and card.face_up else None
            unions = self.unions_on(card) if card.face_up else []
            if held is not None:
                self.say(Line("destroyedInstead", card=held.name, host="Thousand-Eyes Restrict"))
                self.destroy([held], "instead of Thousand-Eyes Restrict")
            elif unions:
                self.say(Line("destroyedInstead", card=unions[0].name, host=card.name))
                self.destroy([unions[0]], f"instead of {card.name}")
            elif card.name == "Spirit Reaper" and card.face_up:
                self.say(Line("reaperSurvives"))
            else:
                out.append((card, stamp))
        return out
