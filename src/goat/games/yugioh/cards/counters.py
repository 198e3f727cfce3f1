"""Counter Traps (spell speed 3): negating an activation or a Summon.

Each card answers exactly one thing: the chain link right before it (a Spell
or Trap *Card* activated — not an effect of a card already face up, such as
Skull Lair's) or, for Solemn Judgment, also a Summon about to be made
(:meth:`~goat.games.yugioh.phases.PhaseMixin.summon_window`, where only Counter
Traps may answer). Costs are paid on activation and stay paid; on resolution
the answered link is negated (:meth:`~goat.games.yugioh.chain.ChainMixin.negate_activation`:
its card is destroyed, its effect does not resolve) or the Summon is
(:meth:`~goat.games.yugioh.phases.PhaseMixin.negate_summon`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goat.games.yugioh.cards.base import Effect, Gen, Link
from goat.games.yugioh.prompts import Say

if TYPE_CHECKING:  # pragma: no cover
    from goat.games.yugioh.duel import Duel
    from goat.games.yugioh.zones import CardInst


def answered_activation(duel: "Duel", kinds: tuple[str, ...]) -> Link | None:
    """The chain's last link if it is the activation of a card of ``kinds``
    (``"spell"``, ``"trap"``): what a Counter Trap activated now would negate."""
    if not duel.chain:
        return None
    link = duel.chain[-1]
    return link if link.effect.kind == "card" and link.card.data.kind in kinds else None


class NegateActivation(Effect):
    """Negate the activation of a card of ``kinds`` and destroy it; the cost
    (:meth:`pay` / :meth:`can_pay`) is each card's own."""

    kinds: tuple[str, ...] = ("spell", "trap")

    def can_pay(self, duel: "Duel", seat: int) -> bool:  # pragma: no cover - each card says
        raise NotImplementedError

    def pay(self, duel: "Duel", link: Link) -> Gen:  # pragma: no cover - each card says
        raise NotImplementedError

    def answers(self, duel: "Duel") -> bool:
        return answered_activation(duel, self.kinds) is not None

    def can_activate(self, duel: "Duel", card: "CardInst", seat: int) -> bool:
        return self.answers(duel) and self.can_pay(duel, seat)

    def activate(self, duel: "Duel", link: Link) -> Gen:
        answered = answered_activation(duel, self.kinds)
        if answered is not None:
            link.data["negates"] = answered
        else:  # only Solemn Judgment answers something else: a Summon
            link.data["summon"] = duel.summon_negation
        yield from self.pay(duel, link)

    def resolve(self, duel: "Duel", link: Link) -> Gen:
        if "negates" in link.data:
            duel.negate_activation(link.data["negates"], link.card.name)
        else:
            duel.negate_summon(link.data["summon"])
        return
        yield  # pragma: no cover


class MagicJammer(NegateActivation):
    """Discard a card (cost): negate a Spell Card's activation and destroy it."""

    kinds = ("spell",)

    def can_pay(self, duel: "Duel", seat: int) -> bool:
        return bool(duel.players[seat].hand)

    def pay(self, duel: "Duel", link: Link) -> Gen:
        cost = yield from duel.choose_card(link.seat, "cost", Say("discardCard"), duel.players[link.seat].hand)
        duel.discard(link.seat, cost, "cost of Magic Jammer")


class SevenTools(NegateActivation):
    """Pay 1000 LP (cost; Goat rule 15: it must leave more than 0): negate a Trap
    Card's activation and destroy it."""

    kinds = ("trap",)

    def can_pay(self, duel: "Duel", seat: int) -> bool:
        return duel.lp_payable(seat, 1000)

    def pay(self, duel: "Duel", link: Link) -> Gen:
        duel.pay_lp(link.seat, 1000)
        return
        yield  # pragma: no cover


class SolemnJudgment(NegateActivation):
    """Pay half your LP (cost): negate a Summon or a Spell/Trap Card's activation
    and destroy that card. The half paid is rounded down — the LP left rounded up,
    as the era's rulings say — so it can always be paid (at 1 LP: 0)."""

    def answers(self, duel: "Duel") -> bool:
        return super().answers(duel) or (not duel.chain and duel.summon_negation is not None)

    def can_pay(self, duel: "Duel", seat: int) -> bool:
        lp = duel.players[seat].lp
        return duel.lp_payable(seat, lp // 2)

    def pay(self, duel: "Duel", link: Link) -> Gen:
        duel.pay_lp(link.seat, duel.players[link.seat].lp // 2)
        return
        yield  # pragma: no cover


EFFECTS: dict[str, tuple[Effect, ...]] = {
    "Magic Jammer": (MagicJammer(),),
    "Seven Tools of the Bandit": (SevenTools(),),
    "Solemn Judgment": (SolemnJudgment(),),
}
