"""One duel: the field, Life Points and the primitive game actions.

:class:`Duel` combines the mixins that hold the procedures of the rules — the
chain (:mod:`.chain`), the Battle Phase (:mod:`.battle`) and the turn
(:mod:`.phases`) — with the primitive actions defined here: moving cards,
drawing, destroying, summoning, Life Points, derived ATK/DEF, the checks that
end a duel, and the log. Everything that needs a player's choice is a
generator (``x = yield from duel.ask(...)``).

Continuous effects are *derived*: ATK/DEF, who may attack, who may change
position are computed from the field when asked (:meth:`atk`,
:meth:`locked_by_restrict`), never stored, so they cannot go stale.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from goat.games.yugioh.battle import BattleMixin
from goat.games.yugioh.cards import with_triggers
from goat.games.yugioh.cards.base import Gen, Link, Trigger
from goat.games.yugioh.cards.continuous import SPELL_IMMUNITY, stat_bonus
from goat.games.yugioh.cards.data import EXODIA, SHEEP_TOKEN, CardData, DATABASE
from goat.games.yugioh.chain import ChainMixin
from goat.games.yugioh.decisions import ChanceRequest, DuelOver, ask, chance
from goat.games.yugioh.phases import PhaseMixin
from goat.games.yugioh.prompts import Line, Say
from goat.games.yugioh.rules import YugiohRules
from goat.games.yugioh.zones import FIELD_SLOT, CardInst, PlayerZones


class EngineError(RuntimeError):
    """An internal inconsistency (a bug, never bad input)."""


@dataclass
class LogEntry:
    """One line of the duel log. ``secret`` replaces ``line`` for ``secret_seat``
    alone (a draw names the card only to the drawer): two lines, each with its
    own key and arguments, so that no seat is ever sent the other's."""

    line: Line
    secret_seat: int | None = None
    secret: Line | None = None

    def line_for(self, seat: int | None) -> Line:
        """The line ``seat`` (``None``: a spectator) is shown."""
        if seat is not None and seat == self.secret_seat and self.secret is not None:
            return self.secret
        return self.line

    @property
    def text(self) -> str:
        """The public English text."""
        return self.line.text

    @property
    def secret_text(self) -> str:
        """The English text ``secret_seat`` sees (``""`` without one)."""
        return "" if self.secret is None else self.secret.text

    def for_seat(self, seat: int | None) -> str:
        """The English text ``seat`` is shown."""
        return self.line_for(seat).text

    def to_json(self, seat: int | None) -> dict[str, Any]:
        """The view's entry: ``{"text": English, "say": {"key", "args"}}`` of the
        line ``seat`` is shown (:meth:`Duel.log_view` makes it once a viewer)."""
        line = self.line_for(seat)
        return {"text": line.text, "say": line.to_json()}


#: Who may look at a duel: seat 0, seat 1, a spectator.
VIEWERS: tuple[int | None, ...] = (0, 1, None)


def visible_to(card: CardInst, viewer: int | None) -> bool:
    """May ``viewer`` see which card ``card`` is, where it is now?"""
    zone = card.zone
    if zone in ("gy", "banished"):
        return True
    if zone in ("monster", "spell"):
        return card.face_up or viewer == card.controller
    if zone in ("hand", "fusion"):
        return viewer == card.owner
    return False  # a Deck: nobody


def _where(card: CardInst) -> str:
    return f"{card.controller} {'M' if card.zone == 'monster' else 'S'}{card.index + 1}"


class Duel(ChainMixin, BattleMixin, PhaseMixin):
    """The state of one duel between seats 0 and 1."""

    def __init__(self, rules: YugiohRules, decks: Sequence[Any], first: int, number: int = 1) -> None:
        self.rules = rules
        self.number = number
        self.first = first
        self.players = [PlayerZones(s, rules.starting_lp) for s in (0, 1)]
        self.next_uid = 0
        for seat, deck in enumerate(decks):
            p = self.players[seat]
            p.deck = [self.new_card(DATABASE[name], seat, "deck") for name in deck.main]
            p.fusion = [self.new_card(DATABASE[name], seat, "fusion") for name in deck.fusion]
        self.turn = 0
        self.turn_player = first
        self.phase = "draw"
        self.step: str | None = None       # battle step: start, battle, damage, end
        self.substep: str | None = None    # damage step: start, before, calc, after, flip, end
        self.chain: list[Link] = []
        self.pending: list[Trigger] = []
        self.resolving: Link | None = None
        self.window_events: list[tuple[Any, ...]] = []
        #: A Summon about to be made, in its negation window (:meth:`summon_window`):
        #: ``[the monster, its player, negated]``; else ``None``.
        self.summon_negation: list[Any] | None = None
        self.chain_summons: list[tuple[Any, ...]] = []
        self.normal_summon_used = False
        self.summoned_this_turn = [False, False]
        self.scapegoat_turn = [-1, -1]
        self.losers: set[int] = set()
        self.log: list[LogEntry] = []
        self._log_views: dict[int | None, list[dict[str, Any]]] = {}  # see log_view
        #: What each viewer (0, 1, spectator) learns about hidden cards, in
        #: order: ``"top 1 ?"`` (seat 1 drew a card it alone sees), ``"top 0
        #: Sangan"``, ``"deck 1 Sangan"`` (taken from the Deck, not the top),
        #: ``"hand 1 Sangan"``, ``"slot 1 S2 Mirror Force"`` (a face-down card),
        #: ``"fusion 1 ..."``, ``"nocopy 1 <name>"`` and ``"nofind 1"`` (a Deck
        #: proved to hold no such card). The state drains it into each viewer's
        #: history; ``sample_world`` rebuilds hidden cards from it.
        self.facts: list[tuple[tuple[str | None, ...], CardInst | None]] = []
        self.attack: Any = None
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.left: list[tuple[Any, ...]] = []
        #: Last Turn links resolved in the chain now resolving: (its player, the monster
        #: kept, its stamp); their Summon and battle follow the chain (:meth:`last_turn_battle`).
        self.last_turn_pending: list[tuple[int, CardInst | None, int]] = []
        #: The turn whose End Phase decides the duel by Last Turn's check, if any.
        self.last_turn_verdict_turn: int | None = None
        self.chains_resolved = 0
        self._adjusting = False
        self._destroying = False

    # ================================================================ cards
    def new_card(self, data: CardData, owner: int, zone: str) -> CardInst:
        card = CardInst(self.next_uid, data, owner, zone=zone, controller=owner)
        self.next_uid += 1
        return card

    def opp(self, seat: int) -> int:
        return 1 - seat

    def all_field(self) -> list[CardInst]:
        out: list[CardInst] = []
        for p in self.players:
            out += p.field_monsters() + p.field_spells()
        return out

    def monsters(self, seat: int | None = None) -> list[CardInst]:
        seats = (0, 1) if seat is None else (seat,)
        return [c for s in seats for c in self.players[s].field_monsters()]

    def face_up_monsters(self, seat: int | None = None) -> list[CardInst]:
        return [c for c in self.monsters(seat) if c.face_up]

    def spelltraps(self, seat: int | None = None) -> list[CardInst]:
        seats = (0, 1) if seat is None else (seat,)
        return [c for s in seats for c in self.players[s].field_spells()]

    def label(self, card: CardInst, viewer: int | None) -> str:
        """How ``viewer`` names ``card`` in an action (see :mod:`.decisions`)."""
        if card.zone in ("monster", "spell"):
            where = f"{card.controller}{'M' if card.zone == 'monster' else 'S'}{card.index + 1}"
            if not card.face_up and viewer != card.controller:
                return f"face-down@{where}"
            return f"{card.name}@{where}"
        return card.name

    def public(self, card: CardInst) -> bool:
        """Does everybody see which card ``card`` is (face-up, or in a public pile)?"""
        return card.face_up or card.zone in ("gy", "banished")

    # ================================================================= log
    def say(self, line: Line, secret_seat: int | None = None, secret: Line | None = None) -> None:
        """Log ``line`` (a key and its arguments, :mod:`.prompts`); ``secret_seat``
        sees ``secret`` instead (it names a card the others must not learn)."""
        if not isinstance(line, Line) or (secret is not None and not isinstance(secret, Line)):
            raise TypeError(f"a log line must be a Line (a key and its arguments), not {line!r}")
        if (secret_seat is None) != (secret is None):
            raise ValueError("a secret log line needs both its seat and its text")
        self.log.append(LogEntry(line, secret_seat, secret))

    def log_view(self, seat: int | None) -> list[dict[str, Any]]:
        """The log as ``seat`` sees it (:meth:`LogEntry.to_json`), a new list.
        The log only grows, so each viewer's entries are made once and kept:
        bots look at a view before every decision."""
        made = self._log_views.setdefault(seat, [])
        if len(made) < len(self.log):
            made.extend(entry.to_json(seat) for entry in self.log[len(made):])
        return list(made)

    # ============================================================ decisions
    def ask(self, seat: int, kind: str, prompt: Say,
            options: Iterable[tuple[str, Any]] | Callable[[], Iterable[tuple[str, Any]]], auto: bool = True) -> Gen:
        """See :func:`goat.games.yugioh.decisions.ask`."""
        return (yield from ask(seat, kind, prompt, options, auto))

    def choose_card(self, seat: int, kind: str, prompt: Say,
                    cards: Sequence[CardInst] | Callable[[], Sequence[CardInst]], optional: bool = False) -> Gen:
        """Ask ``seat`` to pick one of ``cards`` (copies of a name are one choice).

        The choice is taken without asking only when exactly one *card* is
        offered and it is not in a Deck: the number of cards is public, the
        number of distinct names in a hand or Deck is not, so asking (or not)
        must never depend on it. Cards in a Deck are offered by name: the
        Deck's order is hidden from its owner too (a search must not show it,
        and a sampled world, which redraws it, must offer the same choices).
        ``cards`` may be a function that finds them (for a
        :data:`~.decisions.REFRESH`)."""
        def options() -> list[tuple[str, Any]]:
            found = cards() if callable(cards) else cards
            if any(c.zone == "deck" for c in found):
                found = sorted(found, key=lambda c: c.name)
            return [(f"choose {self.label(c, seat)}", c) for c in found] + ([("done", None)] if optional else [])

        first = cards() if callable(cards) else cards
        auto = not optional and len(first) == 1 and first[0].zone != "deck"
        return (yield from self.ask(seat, kind, prompt, options, auto=auto))

    def ask_position(self, seat: int, card: CardInst) -> Gen:
        return (yield from self.ask(seat, "position", Say("battlePosition", card=card.name),
                                    [("choose attack", True), ("choose defense", False)], auto=False))

    # ============================================================== chance
    def shuffle(self, seat: int) -> Gen:
        deck = self.players[seat].deck
        if len(deck) > 1:
            order = yield from chance(lambda: ChanceRequest("shuffle", seat, [c.name for c in deck]))
            pool: dict[str, list[CardInst]] = {}
            for c in deck:
                pool.setdefault(c.name, []).append(c)
            self.players[seat].deck = [pool[name].pop(0) for name in order]
        self.say(Line("shuffles", seat=seat))

    # ================================================================ moves
    def _remove(self, card: CardInst) -> None:
        p = self.players[card.controller if card.zone in ("monster", "spell") else card.owner]
        if card.zone in ("monster", "spell"):
            slots = p.slots(card.zone)
            if slots[card.index] is not card:
                raise EngineError(f"{card.name} is not in its slot")
            slots[card.index] = None
        elif card.zone in ("deck", "hand", "gy", "banished", "fusion"):
            p.pile(card.zone).remove(card)

    def move(self, card: CardInst, zone: str, seat: int | None = None, face_up: bool = True,
             attack_pos: bool = True, top: bool = False, from_top: bool = False, reveal: bool = False,
             slot: int | None = None) -> None:
        """Put ``card`` in ``zone`` (of ``seat``, default: the owner).

        Leaving the field (or any zone change) starts a fresh card: per-visit
        facts are reset and the stamp grows, so older targets are lost.
        ``from_top`` says the card is the top card of its Deck (a draw, an
        excavation) and ``reveal`` that it is shown to both players on the way
        (a searched card): both only shape what each viewer learns. ``slot``:
        a given field slot (the Field Spell zone), else the first free one.
        """
        before = [visible_to(card, v) for v in VIEWERS]
        origin = ("top" if from_top else "deck") if card.zone == "deck" else \
            "hand" if card.zone == "hand" else "fusion" if card.zone == "fusion" else \
            f"slot {_where(card)}" if card.zone in ("monster", "spell") else None
        self._move(card, zone, seat, face_up, attack_pos, top, slot)
        if origin is not None and not all(before):
            owner = card.controller if origin.startswith("slot") else card.owner
            seen = f"{origin} {card.name}" if origin.startswith("slot") else f"{origin} {owner} {card.name}"
            after = [reveal or (card.zone != "gone" and visible_to(card, v)) for v in VIEWERS]
            self.facts.append((tuple(
                None if was else seen if now else f"top {owner} ?" if from_top else None
                for was, now in zip(before, after)), card))

    def turn_face_up(self, card: CardInst) -> None:
        """Turn a face-down field card face up (activation, flip): the other
        viewers learn which card it is."""
        if not card.face_up:
            seen = f"slot {_where(card)} {card.name}"
            self.facts.append((tuple(None if v == card.controller else seen for v in VIEWERS), card))
        card.face_up = True

    def _move(self, card: CardInst, zone: str, seat: int | None, face_up: bool, attack_pos: bool,
              top: bool, slot: int | None = None) -> None:
        if card.zone in ("monster", "spell"):
            self.left.append((card, card.stamp, card.zone, card.controller, self._destroying,
                              card.linked, card.linked_stamp, card.equipped_to, card.equip_stamp))
        self._remove(card)
        card.reset_visit()
        if card.is_token and zone not in ("monster", "spell"):  # a token may only be an absorbed equip
            card.zone = "gone"
            return
        seat = card.owner if seat is None else seat
        p = self.players[seat]
        card.zone = zone
        card.face_up = face_up
        card.attack_pos = attack_pos
        card.controller = seat
        if zone in ("monster", "spell"):
            index = p.first_free(zone) if slot is None else slot
            if index < 0 or p.slots(zone)[index] is not None:
                raise EngineError(f"no free {zone} zone for {card.name}")
            p.slots(zone)[index] = card
            card.index = index
            card.arrived_turn = self.turn
        else:
            pile = p.pile(zone)
            if top:
                pile.insert(0, card)
            else:
                pile.append(card)

    def send_to_gy(self, card: CardInst, reason: str = "sent") -> None:
        """Send a card to its owner's Graveyard (a token vanishes) and fire triggers."""
        from_zone, controller = card.zone, card.controller
        self.move(card, "gy")
        if card.zone == "gone":
            self.say(Line("vanishes", card=card.name, seat=controller))
        else:
            self.say(Line("toGraveyard", card=card.name, seat=card.owner, reason=reason))
        self.emit(("sent_to_gy", card, from_zone, controller, reason, False))

    def banish(self, card: CardInst, reason: str = "removed") -> None:
        from_zone = card.zone
        self.move(card, "banished")
        if card.zone != "gone":
            self.say(Line("banished", card=card.name, seat=card.owner, reason=reason))
        self.emit(("banished", card, from_zone))

    def to_hand(self, card: CardInst, reveal: bool = True, from_top: bool = False) -> None:
        from_zone = card.zone
        self.move(card, "hand", reveal=reveal, from_top=from_top)
        if reveal or from_zone in ("monster", "spell", "gy", "banished"):
            self.say(Line("returnsToHand", card=card.name, seat=card.owner, zone=from_zone))
        else:
            self.say(Line("addsToHand", seat=card.owner), card.owner,
                     Line("addsCardToHand", seat=card.owner, card=card.name))

    def discard(self, seat: int, card: CardInst, reason: str = "discard") -> None:
        """Discard a hand card. The event's last item says it was *discarded*: a card sent
        from the hand otherwise (a Ritual tribute, a Fusion Material) is not (Night Assailant)."""
        self.move(card, "gy")
        self.say(Line("discards", seat=seat, card=card.name, reason=reason))
        self.emit(("sent_to_gy", card, "hand", seat, reason, True))

    def draw(self, seat: int, count: int = 1) -> None:
        p = self.players[seat]
        for _ in range(count):
            if not p.deck:
                self.say(Line("drawEmpty", seat=seat))
                self.losers.add(seat)
                return
            card = p.deck[0]
            self.move(card, "hand", from_top=True)
            self.say(Line("draws", seat=seat), seat, Line("drawsCard", seat=seat, card=card.name))
        self.adjust()  # a hand size can change ATK (Blade Knight), and so make a loop

    def destroy(self, cards: Iterable[CardInst], reason: str = "effect", banish: bool = False) -> list[CardInst]:
        """Destroy field cards at once; returns those destroyed. Linked cards follow."""
        done = []
        for card in [self._union_instead(c, reason) for c in cards]:
            if card.zone not in ("monster", "spell"):
                continue
            # A destroyed card goes to a public pile: it is named even if it was face-down.
            self.say(Line("destroyed", card=card.name, seat=card.controller, reason=reason))
            snapshot = (card, card.stamp, card.zone, card.controller)
            self._destroying = True
            try:
                if banish:
                    self.banish(card, reason)
                else:
                    self.send_to_gy(card, reason)
            finally:
                self._destroying = False
            done.append(snapshot)
        for card, _stamp, zone, controller in done:
            self.emit(("destroyed", card, zone, controller, reason))
        self.adjust()
        return [c for c, *_ in done]

    def destroy_to_deck_top(self, card: CardInst, reason: str) -> None:
        """Destroy a face-down monster and put it on top of its owner's Deck instead of
        the Graveyard (Mystic Swordsman LV6). The card stays unseen: only its owner,
        who knew it, is told its name; the others learn that the top card of that Deck
        is the monster that stood there. A Fusion monster goes back to the Fusion Deck
        (it was public, having been turned face-down by an effect). No Graveyard, so no
        trigger of being sent there."""
        owner, zone, controller = card.owner, card.zone, card.controller
        self._destroying = True
        try:
            if card.data.extra_deck:
                self.move(card, "fusion", reveal=True)
                self.say(Line("toFusionDeck", card=card.name, seat=owner))
            else:
                self.move(card, "deck", top=True)
                self.say(Line("toDeckTopUnseen", seat=owner), owner,
                         Line("toDeckTop", card=card.name, seat=owner))
        finally:
            self._destroying = False
        self.emit(("destroyed", card, zone, controller, reason))
        self.adjust()

    def _union_instead(self, card: CardInst, reason: str) -> CardInst:
        """Official rules (rule 17 off): a Union also takes its host's place when
        an effect destroys it; Goat rule 17: by battle only (see battle.py)."""
        if self.rules.one_union_per_monster or reason == "battle" or card.zone != "monster" or not card.face_up:
            return card
        unions = self.unions_on(card)
        if unions:
            self.say(Line("destroyedInstead", card=unions[0].name, host=card.name))
            return unions[0]
        return card

    # ============================================================ summons
    def place_monster(self, card: CardInst, seat: int, face_up: bool, attack_pos: bool) -> None:
        self.move(card, "monster", seat, face_up=face_up, attack_pos=attack_pos)

    def special_summon(self, card: CardInst, seat: int, attack_pos: bool, how: str = "special") -> None:
        self.place_monster(card, seat, True, attack_pos)
        card.summoned_turn, card.summoned_by, card.summon_how = self.turn, seat, how
        self.summoned_this_turn[seat] = True
        self.say(Line("specialSummons", seat=seat, card=card.name, position="Attack" if attack_pos else "Defense"))
        event = ("summoned", card, how, seat)
        self.emit(event)
        self.chain_summons.append(event)

    def make_token(self, seat: int, attack_pos: bool) -> CardInst:
        token = self.new_card(DATABASE[SHEEP_TOKEN], seat, "token")
        token.zone = "limbo"
        p = self.players[seat]
        index = p.first_free("monster")
        p.monsters[index] = token
        token.zone, token.index, token.controller = "monster", index, seat
        token.face_up, token.attack_pos, token.arrived_turn = True, attack_pos, self.turn
        token.summoned_turn, token.summoned_by, token.summon_how = self.turn, seat, "special"
        self.summoned_this_turn[seat] = True
        event = ("summoned", token, "special", seat)
        self.emit(event)
        self.chain_summons.append(event)
        return token

    def can_special(self, card: CardInst) -> bool:
        """May ``card`` (in a Graveyard) be Special Summoned by an effect? A
        Fusion, Ritual or Black Luster Soldier-like monster only if it was
        properly summoned first (Fusion/Ritual Summon, its own procedure)."""
        d = card.data
        if not d.is_monster or "no_special" in d.traits or "token" in d.traits:
            return False
        return d.summonable_by_effect or card.proper

    def flip_down(self, card: CardInst) -> None:
        card.face_up = False
        card.destroyed_by_battle_turn = -1   # a LV monster's level-up condition is reset (TCG ruling)
        card.attack_pos = False
        card.counters = 0
        card.atk_bonus = 0
        self.say(Line("turnedFaceDown", card=card.name, seat=card.controller))
        self.adjust()

    def change_control(self, card: CardInst, seat: int) -> bool:
        """Move a monster to ``seat``'s side; False (and to the Graveyard) if no zone."""
        p = self.players[seat]
        index = p.first_free("monster")
        if index < 0:
            return False
        old = self.players[card.controller]
        old.monsters[card.index] = None
        p.monsters[index] = card
        card.index, card.controller = index, seat
        self.say(Line("takesControl", seat=seat, card=card.name) if self.public(card)
                 else Line("takesControlFaceDown", seat=seat))
        return True

    # =========================================================== LP
    def lp_payable(self, seat: int, amount: int) -> bool:
        lp = self.players[seat].lp
        return lp > amount if self.rules.lp_cost_leaves_positive else lp >= amount

    def pay_lp(self, seat: int, amount: int) -> None:
        self.players[seat].lp -= amount
        self.say(Line("paysLp", seat=seat, n=amount, lp=self.players[seat].lp))

    def damage(self, seat: int, amount: int, battle: bool = False, source: CardInst | None = None) -> None:
        if amount <= 0:
            return
        p = self.players[seat]
        p.lp = max(0, p.lp - amount)
        self.say(Line("takesBattleDamage" if battle else "takesDamage", seat=seat, n=amount, lp=p.lp))
        if battle:
            self.emit(("battle_damage", source, seat, amount))

    def gain_lp(self, seat: int, amount: int) -> None:
        self.players[seat].lp += amount
        self.say(Line("gainsLp", seat=seat, n=amount, lp=self.players[seat].lp))

    # ====================================================== derived stats
    def equipped_monster(self, card: CardInst) -> CardInst | None:
        """The monster card Thousand-Eyes Restrict has absorbed, if any."""
        for c in self.spelltraps():
            if c.data.is_monster and not c.data.is_union and c.equipped_to is card:
                return c
        return None

    def unions_on(self, card: CardInst) -> list[CardInst]:
        """The Union monsters equipped to ``card``."""
        return [c for c in self.spelltraps() if c.data.is_union and c.equipped_to is card and c.face_up]

    # ========================================================= field spells
    def place_field_spell(self, card: CardInst, seat: int, face_up: bool) -> None:
        """Put a Field Spell in ``seat``'s Field Spell zone (activated or Set).

        A card already there is sent to the Graveyard first (one Field Spell
        zone each). Official rules (rule 3 off): the new Field Spell destroys
        every other Field Spell on the field at once, face up or Set. Goat
        rule 3: the other player's face-up Field Spell is destroyed only when
        the new one *resolves* (:meth:`field_spell_resolves`); a Set one stays."""
        own = self.players[seat].field_spell()
        if own is not None:
            self.send_to_gy(own, "replaced by a new Field Spell")
        if not self.rules.field_spell_shared:
            others = [c for c in (p.field_spell() for p in self.players) if c is not None]
            if others:
                self.destroy(others, "a new Field Spell")
        self.move(card, "spell", seat, face_up=face_up, slot=FIELD_SLOT)

    def field_spell_resolves(self, card: CardInst) -> None:
        """Goat rule 3: one face-up Field Spell for both players."""
        if self.rules.field_spell_shared:
            others = [c for c in (p.field_spell() for p in self.players)
                      if c is not None and c is not card and c.face_up]
            if others:
                self.destroy(others, f"{card.name} took the field")

    def atk(self, card: CardInst) -> int:
        return self._atk(card, card in self.spell_immune()[0])

    def _atk(self, card: CardInst, immune: bool) -> int:
        """ATK with every modifier, or without Spell cards' (``immune``)."""
        base = card.data.atk
        if card.name == "Thousand-Eyes Restrict" and card.face_up:
            held = self.equipped_monster(card)
            base = held.data.atk if held is not None else 0
        if card.name == "Breaker the Magical Warrior" and card.face_up:
            base += 300 * card.counters
        if card.face_up and card.zone == "monster":
            base += stat_bonus(self, card, spells=not immune)[0]
        # Rush Recklessly's bonus is a Spell's effect.
        return max(0, base + (0 if immune else card.atk_bonus))

    def spell_immune(self) -> tuple[frozenset[CardInst], bool]:
        """The monsters unaffected by Spell cards now, and whether working that
        out loops (Goat rule 16). Effects in ``SPELL_IMMUNITY`` depend on ATK
        that depends on them: iterate from "nobody is immune" until the set
        repeats; a fixpoint is the answer, a cycle longer than one is a loop."""
        if not SPELL_IMMUNITY:  # no such card in the pool: the usual case, answered at once
            return frozenset(), False
        sources = [c for c in self.all_field() if c.face_up and c.name in SPELL_IMMUNITY]
        if not sources:
            return frozenset(), False
        immune: frozenset[CardInst] = frozenset()
        seen: list[frozenset[CardInst]] = []
        monsters = self.face_up_monsters()
        for _ in range(2 * len(monsters) + 4):
            stats = {m: self._atk(m, m in immune) for m in monsters}
            found: frozenset[CardInst] = frozenset().union(*(SPELL_IMMUNITY[c.name](self, c, stats) for c in sources))
            if found == immune:
                return immune, False
            if found in seen:
                return immune, True
            seen.append(immune)
            immune = found
        return immune, True

    def loop_sources(self) -> list[CardInst]:
        """The cards that cause the loop in the continuous effects now, if any."""
        if not self.spell_immune()[1]:
            return []
        return [c for c in self.all_field() if c.face_up and c.name in SPELL_IMMUNITY]

    def would_loop(self, card: CardInst, zone: str, seat: int, slot: int | None = None) -> bool:
        """Would ``card`` face up in ``zone`` (a summon, a flip, an activation)
        make the continuous effects loop? Tried on the field and undone."""
        if not SPELL_IMMUNITY or not (card.name in SPELL_IMMUNITY or any(
                c.face_up and c.name in SPELL_IMMUNITY for c in self.all_field())):
            return False
        saved = (card.zone, card.index, card.controller, card.face_up)
        placed = card.zone != zone
        if placed:
            slots = self.players[seat].slots(zone)
            index = self.players[seat].first_free(zone) if slot is None else slot
            if index < 0 or slots[index] is not None:
                return False
            slots[index] = card
            card.zone, card.index, card.controller = zone, index, seat
        card.face_up = True
        try:
            return self.spell_immune()[1]
        finally:
            if placed:
                self.players[seat].slots(zone)[card.index] = None
            card.zone, card.index, card.controller, card.face_up = saved

    def defense(self, card: CardInst) -> int:
        base = card.data.defense
        if card.name == "Thousand-Eyes Restrict" and card.face_up:
            held = self.equipped_monster(card)
            base = held.data.defense if held is not None else 0
        if card.face_up and card.zone == "monster":
            base += stat_bonus(self, card, spells=card not in self.spell_immune()[0])[1]
        return max(0, base)

    def locked_by_restrict(self, card: CardInst) -> bool:
        """Thousand-Eyes Restrict: no *other* monster may attack or change position."""
        return any(c.name == "Thousand-Eyes Restrict" and c is not card for c in self.face_up_monsters())

    # ========================================================== triggers
    def emit(self, event: tuple[Any, ...]) -> None:
        """Offer ``event`` to every trigger effect that can see it (field, hands,
        Graveyards, banished; Goat rule 11 lets triggers be seen mid-chain)."""
        mid_chain = self.resolving is not None and bool(self.chain)
        for p in self.players:
            for card, effects in with_triggers(p.all_cards()):
                for effect in effects:
                    seat = effect.triggers(self, card, event)
                    if seat is None:
                        continue
                    if mid_chain and not effect.mandatory and not self.rules.triggers_seen_mid_chain:
                        self.say(Line("missesTiming", card=card.name))
                        continue
                    self.pending.append(Trigger(effect, card, seat, event, mid_chain))

    # ============================================== linked cards, state checks
    def adjust(self) -> None:
        """State checks after every action, until nothing changes: equip cards
        whose monster is gone or face-down, monsters absorbed by a Thousand-Eyes
        Restrict that left, Call of the Haunted's link both ways, Premature
        Burial's destruction, Snatch Steal's control returning."""
        if self._adjusting:
            return
        self._adjusting = True
        try:
            for _ in range(100):
                if self.left:
                    info = self.left.pop(0)
                    self._follow_left(*info)
                    continue
                lost = next((c for c in self.spelltraps() if c.equipped_to is not None and (
                    c.equipped_to.stamp != c.equip_stamp or c.equipped_to.zone != "monster"
                    or not c.equipped_to.face_up)), None)
                if lost is None:
                    looping = self.loop_sources()
                    if not looping:
                        return
                    # Goat rule 16 (and today's rules): a loop nobody chose destroys its cause.
                    self.destroy(looping, "an infinite loop")
                    continue
                self.destroy([lost], "its monster is gone" if lost.data.is_monster else "equip lost")
        finally:
            self._adjusting = False

    def _follow_left(self, card: CardInst, stamp: int, zone: str, controller: int, destroyed: bool,
                     linked: CardInst | None, linked_stamp: int, equipped: CardInst | None,
                     equip_stamp: int) -> None:
        def same(target: CardInst | None, target_stamp: int) -> bool:
            return target is not None and target.stamp == target_stamp and target.zone == "monster"

        # Jinzo negates face-up Traps' effects: while it is face up Call of the Haunted's link
        # does nothing either way (a revived Jinzo survives its Call being destroyed).
        if card.name == "Call of the Haunted" and zone == "spell" and same(linked, linked_stamp) \
                and not self.jinzo_on_field():
            self.destroy([linked], "Call of the Haunted left the field")
        elif card.name == "Premature Burial" and destroyed and same(equipped, equip_stamp) and equipped.face_up:
            # Turned face-down (Book of Moon), the monster is no longer equipped: Premature
            # Burial is destroyed for that, and the monster stays.
            self.destroy([equipped], "Premature Burial was destroyed")
        elif card.name == "Snatch Steal" and same(equipped, equip_stamp) and equipped.controller == controller:
            back = 1 - controller
            if not self.change_control(equipped, back):
                self.send_to_gy(equipped, "no zone to return to")
        if zone == "monster" and destroyed and not self.jinzo_on_field():
            for c in self.spelltraps():
                if c.name == "Call of the Haunted" and c.face_up and c.linked is card and c.linked_stamp == stamp:
                    self.destroy([c], "its monster was destroyed")

    # ============================================================ win checks
    def check_over(self) -> None:
        """Raise :class:`DuelOver` when a player has won (Exodia, LP 0, deck-out)."""
        exodia = [s for s in (0, 1) if EXODIA <= {c.name for c in self.players[s].hand}]
        if exodia:
            self._end(exodia[0] if len(exodia) == 1 else None, "exodia")
        zero = {s for s in (0, 1) if self.players[s].lp <= 0}
        lost = zero | self.losers
        if lost:
            reason = "lp" if zero and not self.losers else "deck-out" if not zero else "lp+deck-out"
            self._end(None if len(lost) == 2 else 1 - next(iter(lost)), reason)

    def last_turn_verdict(self) -> None:
        """Last Turn's check in the End Phase of the turn it resolved: the player who
        alone controls monsters (how many does not matter) wins; anything else —
        both or neither — is a draw. Raises :class:`DuelOver` either way."""
        if self.last_turn_verdict_turn != self.turn:
            return
        holders = [s for s in (0, 1) if self.monsters(s)]
        self._end(holders[0] if len(holders) == 1 else None, "last-turn")

    def _end(self, winner: int | None, reason: str) -> None:
        self.winner, self.end_reason = winner, reason
        self.say(Line("duelEndsWin", n=self.number, seat=winner, end=reason) if winner is not None
                 else Line("duelEndsDraw", n=self.number, end=reason))
        raise DuelOver(winner, reason)
