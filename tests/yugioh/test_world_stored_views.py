"""World draws on stored "when-able" views where every draw used to fail.

Under ``ask_responses="when-able"`` each response window of the other seat is
evidence (:mod:`goat.games.yugioh.world_windows`). The views in
``tests/data/views/yugioh-when-able-*.json`` are seats' views of seeded random
matches (``tests/yugioh/world_reference.position``: benchmark positions of
``benchmarks/yugioh_world_fails.py --when-able`` and a wider scan of seeds
600-660 and 800-850, both seats) on which the sampler gave up with a
``WorldSamplingError`` in every draw, each for the reason its test names.
A world drawn must show exactly the stored view: the final check is not
relaxed, the sampler finds a consistent world instead.
``yugioh-chaos-warrior-*.json`` are views of ``--decks=chaos_warrior/goat_control``
matches, where the sampler assumes the Goat Control mirror's list for a Chaos
Warrior seat. ``yugioh-when-able-empty-deck-*.json`` is a view whose draws
failed for several reasons, fixed one at a time: some of its tests read the
attempts' problems.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from goat.games.yugioh.cards.data import DATABASE
from goat.games.yugioh.deck import deck_problems
from goat.games.yugioh.state import YugiohState
from goat.games.yugioh.worlds import YugiohWorldSampler

VIEWS = Path(__file__).parent.parent / "data" / "views"


def _draws(name: str, seed: int, draws: int = 2, kind: str = "when-able") -> list[YugiohState]:
    """``draws`` worlds in a row from one sampler (as ``mc`` draws them), each
    showing the seat exactly the stored view (``yugioh-{kind}-{name}.json``)."""
    view = json.loads((VIEWS / f"yugioh-{kind}-{name}.json").read_text())
    sampler = YugiohWorldSampler(view)
    rng = random.Random(seed)
    target = json.dumps(view, sort_keys=True)
    worlds = []
    for _ in range(draws):
        world = sampler.sample(rng)
        assert json.dumps(world.view(view["seat"]), sort_keys=True) == target
        worlds.append(world)
    return worlds


def _problems(name: str, seed: int) -> tuple[YugiohState | None, list[tuple[int, str]]]:
    """One draw from ``yugioh-when-able-{name}.json`` with ``random.Random(seed)``:
    the world (checked to show exactly the stored view), or ``None`` where every
    attempt failed, and each failed attempt's step and problem."""
    from goat.games.worlds import WorldSamplingError
    from goat.games.yugioh.worlds import _Context, _Retry

    view = json.loads((VIEWS / f"yugioh-when-able-{name}.json").read_text())
    problems: list[tuple[int, str]] = []
    attempt = _Context.attempt

    def recorded(self: _Context, rng: random.Random) -> YugiohState:
        try:
            return attempt(self, rng)
        except _Retry as retry:
            problems.append((retry.step, str(retry)))
            raise

    world = None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_Context, "attempt", recorded)
        try:
            world = YugiohWorldSampler(view).sample(random.Random(seed))
        except WorldSamplingError:
            pass
    if world is not None:
        assert json.dumps(world.view(view["seat"]), sort_keys=True) == json.dumps(view, sort_keys=True)
    return world, problems


def test_a_pass_an_optional_trigger_took_moves_to_an_earlier_window() -> None:
    """Benchmark position 19: the other seat passes in its Draw Phase, then
    activates Sinister Serpent in the Standby Phase. Its hidden cards could
    not respond at the Draw Phase windows, so the world asked it only for the
    Serpent's optional trigger, which the ``pass`` declined; the activation
    then met the Main Phase. The ``pass`` is now placed at a window of the
    step before (one more each attempt) when the question it took was not a
    window."""
    _draws("pass-taken-by-a-trigger", 19)


def test_a_pass_asked_before_its_steps_glimpses_moves_to_a_later_window() -> None:
    """The other seat chains nothing to its own Nobleman of Crossout and passes
    after it resolved; the world asked it at the chain (it held a card able to
    respond), so the step stopped before Nobleman's glimpses. Each retry
    placed the ``pass`` at the one window the short step had reached: every
    attempt failed alike. A step stopped short at a window asking for the
    next ``pass`` now places it at a later window."""
    _draws("pass-after-a-chain-resolved", 1251)


def test_past_a_forced_window_that_cannot_ask_the_first_able_one_asks() -> None:
    """The ``pass`` placed at the End Phase window, where no hidden card can
    be made able, so that window went unasked; the next (Draw Phase) window
    had a card the seat has seen that could respond, and was refused as
    unasked though it must be asked. Past a forced window that could not ask,
    the first window where something can respond now asks."""
    _draws("forced-window-cannot-ask", 629)


def test_a_hand_shown_at_once_is_named_as_a_matching() -> None:
    """Morphing Jar flipped: the other seat's whole hand is discarded, showing
    Black Luster Soldier and Scapegoat. The first name went to a random hand
    card, often the only one an earlier window (where it was not asked) left
    able to be Scapegoat. A step's hand glimpses now pick cards that leave
    the rest able to show the names after them. (Seed 1320: both draws fail
    on the commit before that fix, 6da871c^; seed 1318, the first chosen, drew
    a second world that ran out of tries at the Jar's glimpses once a later
    fix changed the use of ``rng`` — those glimpses fail a few attempts a
    draw, and 0 of 10 draws of seeds 2000-2009 fail, before and after it.)"""
    _draws("hand-shown-at-once", 1320)


def test_an_activation_asked_before_its_steps_glimpses_moves_to_a_later_window() -> None:
    """Benchmark position 37: Magical Merchant flipped, its excavation put
    Book of Moon in the hand and the seat activated it. The activation was put
    at the first window where a hand card could be renamed Book of Moon, before
    the excavation, so the step stopped short of its glimpses in every
    attempt. Such an activation is now asked one window later at the earliest."""
    _draws("activation-after-an-excavation", 37)


def test_a_placement_that_keeps_failing_at_one_step_is_moved() -> None:
    """A ``pass`` placed at its step's last window left the one before
    unasked, banning Mystical Space Typhoon for every hand card, which the
    history then shows from the hand: every attempt with that placement
    failed at the glimpse, a cause the placement search did not see. An
    attempt failing at the same step as one with the same placements now
    moves the latest placement at or before that step."""
    _draws("repeated-failure-after-a-placement", 1270)


def test_a_placement_ruled_out_by_an_unlucky_attempt_is_tried_again() -> None:
    """The right window for a Draw Phase ``pass`` was tried in an attempt that
    failed elsewhere by chance (a card the assumed list lacked); once every
    window had been tried the placement stayed at the last, wrong one for the
    rest of the draw. The placements now start over after the last, and a
    failure for a missing card no longer counts as one against them."""
    _draws("placement-ruled-out-by-a-chance-failure", 1612)


def test_a_pass_failing_at_every_window_moves_an_earlier_pass_to_an_earlier_window() -> None:
    """Position 14, seat 1's view: the other seat flips Magician of Faith,
    passes, activates Book of Moon from its hand and passes again, holding a
    second Book of Moon all along. The world asked the first ``pass`` where
    something could already respond (after Magician of Faith's effect gave a
    Book of Moon back), leaving the window before it unasked, which ruled out
    Book of Moon for every hidden hand card: the second ``pass`` then failed
    at each of its windows in every attempt. Once they all failed, the
    earlier ``pass`` is now tried at each window of its step, the first first."""
    _draws("earlier-pass-at-a-later-window", 29)


def test_a_glimpse_failing_twice_moves_an_earlier_pass_to_an_earlier_window() -> None:
    """Position 57, seat 0's view: the other seat activates Tribe-Infecting
    Virus, passes, then activates Book of Moon that Pot of Greed drew. The
    world asked the ``pass`` at a later window where something could already
    respond, so the window at the Virus's chain went unasked and ruled out
    Book of Moon for the cards drawn: the Book of Moon glimpse failed in every
    attempt, and the stall rule moved only placements made before. A step
    failing twice with the same placements now first places a later ``pass``
    that the first able window took, trying its step's windows from the first."""
    _draws("glimpse-after-a-pass-at-a-later-window", 114)


def test_a_pass_after_a_pass_is_tried_at_the_windows_its_chain_left() -> None:
    """Position 43, seat 0's view: the other seat flips Morphing Jar, passes
    (holding Book of Moon), the hands are discarded and redrawn, and it passes
    again (a new Book of Moon). The second ``pass`` was tried only where the
    first one might have belonged (the windows before it), never at the
    window after the Jar resolved, where a drawn card could respond: every
    attempt failed. Those windows now come first."""
    _draws("pass-after-a-hand-shown-and-redrawn", 86)


def test_a_step_failing_twice_moves_the_placement_whose_window_is_latest() -> None:
    """Position 9, seat 0's view: the other seat's Tribe-Infecting Virus
    resolves between two of its ``pass``es. The second was placed where no
    window asks, so the Virus (face up, able to respond) met a window the
    world could not leave unasked, in every attempt; the stall rule moved the
    ``pass`` placed last (hundreds of steps earlier) instead of that one. It
    now moves the placed ``pass`` whose window is latest at or before the
    failing step."""
    _draws("stall-after-a-later-placement", 18)


def test_a_deck_shown_to_hold_no_more_copies_trades_one_with_the_side_deck() -> None:
    """``40 2 --when-able --both-seats`` view 38 (position 19, seat 0): in
    duel 2 the seat's Nobleman of Crossout banishes the other seat's one
    Magician of Faith from its Deck and shows it holds no more, while that
    seat's hand is empty. Its hidden side-decking had swapped a second copy
    in from the side deck, and no hidden card outside the Deck could take it:
    every attempt failed at the glimpse. A Deck copy with no card outside to
    trade with now goes back to the side deck (or, in the first duel, an
    assumed list gives up that place)."""
    _draws("nocopy-after-a-side-decking", 38, draws=1)


def test_a_window_that_must_ask_gives_a_hand_card_a_name_the_hand_shows_later() -> None:
    """View 13 (position 6, seat 1): the other seat activates two Book of
    Moons in its Draw Phase, passes twice and activates Scapegoat, shown from
    its hand. The ``pass`` asked at the chain's window renamed a random hand
    card to a random able name (a third Book of Moon), so no hand card was
    Scapegoat at the windows after the chain, which went unasked and ruled it
    out: the second ``pass`` failed at each of its windows. A window that
    must ask now first gives a hand card a name the hand shows later."""
    _draws("pass-before-a-card-the-hand-shows", 13, draws=1)


def test_an_activation_of_a_card_a_chain_returns_comes_after_the_chain() -> None:
    """View 50 (position 25, seat 0): in duel 1 the other seat flips Magician
    of Faith, returns Book of Moon, activates Book of Moon and Sets a card
    later shown to be Dust Tornado, its one hand card. The world asked for
    the activation at the Magician's chain and renamed its hidden hand card a
    second Book of Moon: the returned copy then stayed in hand, and no hand
    card could be the Dust Tornado Set in any attempt. An activation of a card
    a chain link of that seat returns to its hand is now first taken to come
    after the chain resolved."""
    _draws("activation-of-a-card-a-chain-returns", 50)


def test_a_copy_a_deck_is_shown_to_lack_goes_back_to_the_side_deck_before_the_hand() -> None:
    """Benchmark view 15 (``--when-able --both-seats``; its second draw with
    ``--rng=1000`` failed, and 4 of 18 draws of nine seeds): the first duel
    proves a second Magician of Faith (one attacks, one is in the hand Morphing
    Jar discards), then Nobleman of Crossout at the start of duel 2, after 15
    hidden side-deck swaps, shows the Deck holds no more. The Deck's copy
    traded its name with a hand card first, so a hidden hand card stayed
    Magician of Faith, and no Deck card could take that name back: each Set
    and glimpse after that needed the hand card ("no hidden Mystical Elf to
    swap with Magician of Faith") and attempts ran out placing ``pass``
    entries elsewhere. The copy now goes back to the side deck first (the
    side-decking swapped it out), where one can."""
    _draws("nocopy-sends-the-copy-to-the-side-deck", 1015)


def test_a_hidden_set_of_a_shape_no_assumed_list_holds_takes_a_pool_card() -> None:
    """``--decks=chaos_warrior/goat_control --both-seats`` view 33 (seat 1):
    the Chaos Warrior seat Sets a Field Spell (Sogen) that stays hidden. The
    Goat Control list assumed for it holds no Field Spell, nothing shows the
    card, and in that duel no rename could give one ("no card for '0 set
    ?field'" in every attempt). A Set of a shape the assumed lists cannot hold
    now takes a card of the pool of that shape, learned like a missing card;
    the worlds' lists stay legal."""
    for world in _draws("hidden-field-spell-set", 33, kind="chaos-warrior"):
        deck = world.decks[0]
        assert any(DATABASE[n].subtype == "field" for n in deck.main + deck.side)
        assert deck_problems(deck, world.rules) == []


def test_a_choice_naming_a_face_down_card_takes_its_final_name() -> None:
    """``--decks=chaos_warrior/goat_control --both-seats`` view 38 (seat 0):
    the other seat Sets a monster, then targets it with its own Nobleman of
    Crossout, and the card is shown to be Airknight Parshath. The ``choose``
    was kept as the text the world had then ("1 choose Zaborg the Thunder
    Monarch@1M3"); the glimpse renamed the hidden card after it, so the clean
    replay refused that text. A choice naming a face-down card now takes the
    card's final name, as a hidden Set does."""
    _draws("face-down-choice-renamed-later", 38, draws=1, kind="chaos-warrior")


def test_a_side_decking_brings_in_no_more_copies_than_its_swaps() -> None:
    """``--decks=chaos_warrior/goat_control --both-seats`` view 6 (seat 0, a
    duel-3 view): the Chaos Warrior seat side-decks 3 swaps before duel 2
    (15 before duel 3), and duel 2 shows Magical Merchant and Morphing Jar,
    first seen there (side cards), and, learned over the attempts, a third
    Airknight Parshath and a second Nobleman of Crossout. Those copies went to
    the assumed side deck with no regard to that side-decking's swaps: 4 cards
    to bring in with 3, and every later attempt failed alike ("3 side-deck
    swaps cannot bring in"), learning nothing (the second draw of seed 6, 7 of
    16 draws of seeds 0-7). A copy a duel needs goes to the side deck only
    while the side-deckings before that duel can bring in all it holds; else
    the main list holds it."""
    for world in _draws("side-decking-brings-in-no-more-than-its-swaps", 6, kind="chaos-warrior"):
        assert deck_problems(world.decks[1], world.rules) == []


def test_with_the_deck_empty_a_set_card_that_must_not_respond_trades_with_a_hand_card() -> None:
    """Seat 0's view in duel 3 of a seeded "when-able" match (seed 23, stopped
    where the other seat's Deck is empty): in duel 1, turn 38, that seat's Deck
    is empty too, and in seat 0's Draw Phase it was not asked to respond while
    the world's hidden Set card was Dust Tornado. No Deck card was left to take
    the name, so most attempts of a draw (20 of 30 with this seed) failed there
    ("no name for a card of seat 1 that could not respond here"). The Set card
    now trades names with a hidden hand card that could not respond under its
    name here (a Trap in the hand: Nobleman of Crossout is Set, Dust Tornado in
    the hand), the windows before allowing both names. The view's draws failed
    for other reasons then (the tests below), so the test reads the attempts' problems."""
    _, problems = _problems("empty-deck-set-card-trades-with-the-hand", 1011)
    assert problems  # the draw took several attempts, none failing for want of a name there
    assert not [p for _, p in problems if p.startswith("no name for a card")]


def test_a_hidden_set_keeps_in_hand_a_limited_card_the_hand_shows_next() -> None:
    """Seat 0's view late in duel 2 of a seeded "when-able" match (seed 0,
    stopped where the other seat's Deck is empty). In duel 1 that seat's
    Sinister Serpent (limited: one copy, seen) returns to its hand, it Sets a
    monster, and three steps later Tribe-Infecting Virus's discard shows the
    Serpent in the hand. The Set took the Serpent in every attempt: no other
    hand card could take the name (no copy left), yet the hand was judged able
    to show it, and where the Serpent was the hand's only monster nothing else
    could be Set ("no hidden Sinister Serpent to swap with ..."; both draws
    failed). The Set now keeps it, and a hand card the hand can spare trades
    names with a Deck monster to be the one Set."""
    for world in _draws("set-keeps-a-limited-card-the-hand-shows", 0):
        assert deck_problems(world.decks[1], world.rules) == []


def test_an_activation_from_the_hand_keeps_the_card_the_hand_shows_next() -> None:
    """Seat 0's view late in duel 3 of a seeded "when-able" match (seed 87,
    stopped where the other seat's Deck is empty). In duel 1 that seat draws,
    activates Mystical Space Typhoon at once (in its Draw Phase), passes at
    the chain, then activates Scapegoat from its hand. Earlier windows where
    it was not asked rule Scapegoat out for every older hand card, so only the
    card just drawn can be it; the world renamed a random hand card to be
    Mystical Space Typhoon, often that one, and no card was left to make the
    seat asked for its ``pass`` (both draws failed, "seat 1 was not asked to
    respond before '1 pass'"). The card renamed now leaves the hand able to
    show the names it shows next."""
    _draws("activation-keeps-the-card-the-hand-shows-next", 40)


def test_the_card_just_drawn_can_be_the_one_that_made_the_seat_asked() -> None:
    """Seat 0's view late in duel 1 of a seeded "when-able" match (seed 32,
    stopped where the other seat's Deck is empty). Earlier, seat 0 has a Set
    Scapegoat; the other seat draws, is asked in its Draw and Standby Phases
    and at the chain of seat 0's Scapegoat, and not asked once that resolved. Windows
    before rule out Mystical Space Typhoon (whose target was the Set
    Scapegoat) for every older hand card, so the world kept an older card as
    Scapegoat, able at the last window too. Two changes draw both worlds
    (both failed, "no name for a card of seat 1 that could not respond
    here"): a hidden monster Set renames a hand card the windows have bound,
    not the card just drawn (here one had to become Sangan); and a card that
    must not respond, where no single trade can, rotates names with a hand
    card and a Deck card (the older card takes the drawn card's name, the
    drawn card Mystical Space Typhoon's, the Deck card Scapegoat)."""
    _draws("drawn-card-is-the-one-that-made-the-seat-asked", 15)


def test_a_hidden_set_keeps_a_seen_card_the_hand_shows_after_a_hidden_draw() -> None:
    """The empty-Deck test's view (seed 23; view 11 of ``yugioh_world_fails.py
    110 2 --when-able --late=0``). In duel
    1 the other seat's Asura Priest (a Spirit, back in its hand: the seat knows
    it) stays in the hand while the other seat Sets a monster the history never
    shows, draws, and Normal Summons an Asura Priest; no hidden card is called
    so, the list's other copy being seen. The Set took the known Asura Priest
    (nothing after the draw was read), the summon gave a hand card a third copy
    the list lacked, and the lists the next attempts assumed, grown by it, failed
    across duel 1 ("no hidden Magician of Faith to swap ..."): 12 of 12 draws
    on seeds 11, 1011, ..., 5011 failed. A hidden Set now keeps in hand a
    card so called for each name the hand shows later in the duel that no
    hidden card outside the hand has, where another card can be the Set one
    (or a spare hand card trade names with a Deck card to be it)."""
    world, problems = _problems("empty-deck-set-card-trades-with-the-hand", 1011)
    assert world is not None
    assert not [p for step, p in problems if step < 662 and "Asura Priest" in p]  # duel 1 ends at step 661


def test_a_summon_keeps_in_hand_the_card_a_later_discard_shows() -> None:
    """Seat 1's view late in duel 3 of a seeded "when-able" match (seed 59, view 26 of
    ``yugioh_world_fails.py 110 2 --when-able --late=0``, its draw 0 with
    ``--rng=1000``). In duel 1 the other seat draws, Normal Summons Asura
    Priest, and at the turn's end seat 1's Morphing Jar discards its hand:
    Scapegoat and the Tsukuyomi just back in it. Windows where it was not asked
    ruled Scapegoat out for its older hand card, so only the card drawn could
    be it; the summon renamed a random hand card to be Asura Priest, often that
    one, and the discard then failed ("no way to make the glimpses true", 8 of
    the draw's 30 attempts, and the draw with them; put down to "a `pass` at the
    wrong window" before). Two changes: a hand card renamed for a glimpse now
    leaves the hand able to show what it shows before the next hidden draw,
    where one can (a card of the owner's outside hand and Deck so called, the
    Tsukuyomi on the field, is no such need); and those names include a step's
    glimpses before its own hidden draw (the discard before the Jar's five
    draws), which were dropped with the step."""
    world, problems = _problems("summon-keeps-the-card-a-discard-shows-next", 1026)
    assert world is not None
    assert not [p for step, p in problems if step == 342]  # the Morphing Jar step


def test_a_set_card_keeps_off_a_limited_name_the_hand_shows_later() -> None:
    """The same view (seed 23), past duel 1: its draws then failed in duel 2
    (at the commit that kept the Asura Priest, 8 of 12 draws on seeds 11,
    1011, ..., 5011, both draws of seed 2011 among them). A hidden Set card
    that must not respond at a window took a Deck card's name that could not
    (a Normal Spell: Metamorphosis, limited), and a hidden Set a spare hand
    card traded to be took one too; the windows then bound the Set card to it,
    and the hand that activates Metamorphosis later had no copy left ("no
    hidden Metamorphosis to swap with ..."). Both now keep off a name the hand
    shows later in the duel where another will do."""
    _draws("empty-deck-set-card-trades-with-the-hand", 2011)


def test_a_stall_leaves_a_placement_whose_other_windows_failed_at_its_step() -> None:
    """The same view (seed 23), duel 3: three ``pass`` of the other seat after
    its hidden draw, where only one window of the step before can ask (the card
    just drawn able to be the Book of Moon activated next). Once placed there,
    attempts failed later for another reason ("no hidden Metamorphosis to swap
    ...", "no hidden Heavy Storm ...": chance, the same placements drew worlds),
    and the stall rule moved that placement on after two of them, to windows
    attempts had already reached the ``pass`` unasked with, the same placements
    before it: four attempts a stall, until the tries ran out (draw 0 of this
    seed failed; 5 of 12 draws on seeds 11, 1011, ..., 5011). A stall now moves
    only a placement that has a window not yet failed at its own step (under the
    same placements before it), and a placement moved on skips the windows
    failed there."""
    _draws("empty-deck-set-card-trades-with-the-hand", 3011)


def test_a_stall_in_a_later_duel_leaves_the_placements_of_an_earlier_one() -> None:
    """Seat 1's view late in duel 3 of a seeded "when-able" match (seed 57, view 23
    of ``yugioh_world_fails.py 110 2 --when-able --late=0``). Attempts failed
    twice alike at a glimpse of duel 3 ("no way to make the glimpses true"),
    and the stall rule moved the latest placement at or before it: a duel-2
    ``pass`` (the other seat's, before its Sinister Serpent), whose windows bind
    only duel 2's hidden cards, so the failures went on and the moved placement
    failed at its own step; draw 1 of this seed ran out of tries (1 of 12 draws
    on seeds 23, 1023, ..., 5023). A stall now moves only a placement in the
    failing step's duel."""
    _draws("stall-in-a-later-duel", 5023)
