"""OpenSpiel registration of every Goat game that has an encoder.

Importing this module registers ``goat_kozel``, ``goat_spades`` and
``goat_yugioh`` with ``pyspiel``, so OpenSpiel's algorithms load and run them
unchanged:

>>> import pyspiel
>>> import goat.envs.openspiel  # noqa: F401  (registers the games)
>>> game = pyspiel.load_game("goat_kozel", {"rules": "street", "single_deal": True})
>>> game.num_distinct_actions(), game.num_players(), game.max_chance_outcomes()
(40, 4, 256)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 4)

Game parameters: ``rules`` (a preset name), ``players`` (0: the preset's
default), ``options`` (JSON object text of option overrides, e.g.
``'{"penalty": "flat2"}'``; kept as :func:`options_text` writes it) and
``single_deal`` (one deal instead of a match; then ``returns()`` is the
game's one-deal returns: in Kozel the deal's zero-sum penalty balance, in
Spades each seat's team score for the deal, as OpenSpiel's own ``spades`` — so
``goat_spades`` is a general-sum game).

The game is :class:`~goat.envs.tokens.TokenGame`'s decisions: actions are
tokens (cards, and in street the verbs and ``wait``), ``num_distinct_actions``
is the environments' action-space size. Chance is explicit: the first chance
node draws the first dealer (one of ``n`` seats; not in a game whose encoder
module says ``FIRST_DEALER = False``, as Yu-Gi-Oh!, whose coin toss is its
own chance event), then every chance event of the game (a deal, a duel's
shuffle, coin toss or random discard) is four chance nodes of 256 outcomes
each — the bytes of a 32-bit seed — resolved by the game's own
``sample_chance(random.Random(seed))``. So a history of OpenSpiel actions
replays the same game, while the seed bytes (like every hidden card) never
enter an information state.

Information states are the game's ``information_state_string`` (the JSON of the
seat's view) plus the seat's decision in progress; the observation tensor is the
environments' observation vector (``docs/envs.md``). ``resample_from_infostate``
is :func:`goat.games.sample_world` (drawn again, up to :data:`RESAMPLE_DRAWS`
times, when a draw finds no world), so OpenSpiel's Python ISMCTS
(``open_spiel.python.algorithms.ismcts``) samples worlds the seat cannot tell
from the real one. (OpenSpiel's C++ ISMCTS cannot call back into Python for
that; use the Python one.)
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import weakref
from collections.abc import Callable, Hashable
from typing import Any

import pyspiel

from goat.bots.base import sampled_worlds
from goat.envs.encoders import ENCODERS, encoder_module
from goat.envs.spec import GameSpec
from goat.envs.tokens import TokenGame
from goat.games import get_game, world_sampler
from goat.games.worlds import WorldSamplingError
from goat.protocol import GoatError
from goat.records import record_from_state

SEED_BYTES = 4
#: Deals a match may take, for OpenSpiel's ``max_game_length`` (a size hint:
#: a longer run of drawn or annulled deals is not cut short). An encoder module
#: may say otherwise with constants of the same names (Yu-Gi-Oh!: one duel, or a
#: best of three).
MATCH_DEALS_BOUND = 100
SINGLE_DEAL_BOUND = 10  # an annulled deal is redealt
#: Fresh world draws ``resample_from_infostate`` makes before it gives up. A draw
#: is itself many attempts and fails rarely (a Yu-Gi-Oh! view under
#: ``ask_responses="when-able"``: docs/yugioh.md); OpenSpiel's ISMCTS cannot skip
#: a world as goat's search bots do, so a failed draw is followed by another.
RESAMPLE_DRAWS = 5


def module_constant(game: str, name: str, default: Any) -> Any:
    """An optional constant of ``game``'s encoder module (``ZERO_SUM``,
    ``FIRST_DEALER``, ``MATCH_DEALS_BOUND``...), ``default`` when it has none:
    what differs between games, said where the game's encoder is, so that this
    adapter has no branch for any one game."""
    return getattr(encoder_module(game), name, default)


def game_type(game: str) -> pyspiel.GameType:
    """The game's OpenSpiel type. Zero-sum unless the encoder module says
    ``ZERO_SUM = False`` (Spades: a single deal's returns are each team's own
    score), then general-sum."""
    module = encoder_module(game)
    low, high = module.PLAYERS
    zero_sum = module_constant(game, "ZERO_SUM", True)
    return pyspiel.GameType(
        short_name=f"goat_{game}",
        long_name=f"Goat {game} (goat card games project)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"rules": module.DEFAULT_RULES, "players": 0, "options": "",
                                 "single_deal": False},
    )


def options_hint(game: str) -> str:
    """What ``options`` must be, with an example of this game's own (a Kozel
    option offered for a duel would mislead): its default preset's first option
    besides ``players``."""
    module = encoder_module(game)
    example = next(((k, v) for k, v in get_game(game).make_rules(module.DEFAULT_RULES).options().items()
                    if k != "players"), None)
    shown = f", e.g. '{json.dumps(dict([example]))}'" if example else ""
    return f"options of goat_{game} must be a JSON object of option values{shown}"


#: What OpenSpiel's game strings (``goat_kozel(options=...,rules=classic)``) read as
#: syntax: a comma ends a parameter, parentheses nest a game, ``=`` names a parameter.
#: :func:`options_text` writes them, inside option values, as JSON escapes.
GAME_STRING_SYNTAX = {",": "\\u002c", "(": "\\u0028", ")": "\\u0029", "=": "\\u003d"}


def parse_options(game: str, text: str) -> dict[str, Any]:
    """The ``options`` parameter: a JSON object, or several one after another
    (as :func:`options_text` writes them); else a one-line :class:`GoatError`."""
    decoder, options, at = json.JSONDecoder(), {}, 0
    text = text.strip()
    while at < len(text):
        try:
            obj, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise GoatError(f"{options_hint(game)} ({exc})") from None
        if not isinstance(obj, dict):
            raise GoatError(options_hint(game))
        options.update(obj)
        while at < len(text) and text[at].isspace():
            at += 1
    return options


def options_text(options: dict[str, Any]) -> str:
    """``options`` as a game keeps its ``options`` parameter: one JSON object per
    option, one after another, with :data:`GAME_STRING_SYNTAX` in values escaped.

    OpenSpiel writes a game as ``name(key=value,...)`` and reads it back by
    splitting at commas (``pyspiel.load_game(str(game))``, the serialization of
    states, so also pickling a state): a JSON object of two options, or a value
    with a comma (Yu-Gi-Oh!'s ``side_deck_sizes`` ``"0,15"``), made a game that
    could not be written and read again. The text means the same options."""
    parts = []
    for key, value in options.items():
        part = json.dumps({key: value}, separators=(",", ":"))
        if isinstance(value, (str, int, float, bool)) or value is None:  # any comma is in a string
            for char, escape in GAME_STRING_SYNTAX.items():
                part = part.replace(char, escape)
        parts.append(part)
    return "".join(parts)


class GoatGame(pyspiel.Game):
    """One Goat game under the ruleset of its parameters."""

    def __init__(self, game: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        options = parse_options(game, params.get("options") or "")
        if "options" in params:  # kept so that OpenSpiel can write the game and read it again
            params["options"] = options_text(options)
        self.spec = GameSpec(game, params.get("rules") or None,
                             params.get("players") or None, options, bool(params.get("single_deal", False)))
        self.encoder, n = self.spec.encoder()
        declared_zero_sum = module_constant(game, "ZERO_SUM", True)
        if declared_zero_sum and not self.encoder.zero_sum:
            raise GoatError(f"{game}: registered as zero-sum, but its returns are not zero-sum here")
        #: Whether the first chance node draws the first dealer (else the game
        #: begins at its own first chance event: a duel's coin toss).
        self.draws_first_dealer = bool(module_constant(game, "FIRST_DEALER", True))
        self.prototype = TokenGame(self.spec.new_state(), self.encoder)
        # New states share a copy of it (the first to change takes that copy's game).
        self._prototype_handle = CoreHandle(self.prototype.clone())
        low, high = self.encoder.utility_range(self.spec.single_deal)
        deals = (module_constant(game, "SINGLE_DEAL_BOUND", SINGLE_DEAL_BOUND) if self.spec.single_deal
                 else module_constant(game, "MATCH_DEALS_BOUND", MATCH_DEALS_BOUND))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.prototype.num_actions,
            max_chance_outcomes=max(256, n),
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if declared_zero_sum else None,  # a general-sum game has none
            max_game_length=deals * self.encoder.max_tokens_per_deal,
        )
        super().__init__(game_type(game), info, params)

    def new_initial_state(self) -> GoatState:
        return GoatState(self)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its class and parameters, built again (pyspiel's own pickling
        of a game kept the C++ part only: the copy had no ruleset to start a state)."""
        return type(self), (self.get_parameters(),)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GoatObserver:
        return GoatObserver(self, iig_obs_type, params)


class CoreHandle:
    """One OpenSpiel state's hold on its :class:`TokenGame`: a position shared with
    the state's clones, and a change made only when the changed state is read.

    OpenSpiel clones a state all the time (``random_sim_test`` two or three times a
    step, search bots once a simulation), and a Yu-Gi-Oh! state's copy is a replay
    of the current duel (its engine is a generator), so copying at every clone made
    ``random_sim_test`` quadratic in the duel's length: over two minutes for one
    random duel of 8000 LP. So states share positions (:class:`_Position`): a clone
    (``copy.deepcopy`` of a state, which is pyspiel's ``clone``) shares its
    original's; a change moves the state to a child position, one per change, that
    its sharers making the same change join (pyspiel applies one action to a state
    and to its clone and compares them). A child takes its parent's game when first
    read, leaving a pickle behind if the parent is still needed (cheap: a duel
    pickles as its chance outcomes and decisions), rebuilt only if the parent is read
    again. Pickling a handle (pyspiel's serialization) writes the game as the game
    pickles itself.
    """

    __slots__ = ("_at", "__weakref__")

    def __init__(self, core: TokenGame) -> None:
        self._move(_Position(core))

    def _move(self, position: _Position) -> None:
        old = getattr(self, "_at", None)
        if old is not None:
            old.holders.discard(self)
        self._at = position
        position.holders.add(self)

    def get(self) -> TokenGame:
        """The game at this state's position, to read only (others may share it)."""
        return self._at.game()

    def change(self, key: Hashable, mutate: Callable[[TokenGame], Any]) -> None:
        """Move to the position ``mutate`` makes of this one (made when first read);
        ``key`` names the change: equal keys, the same change."""
        here = self._at
        child = here.children.get(key)
        if child is None or not child.usable():
            child = _Position(None, here, mutate)
            here.children[key] = child
        self._move(child)

    def __deepcopy__(self, memo: dict) -> CoreHandle:
        other = object.__new__(CoreHandle)
        other._move(self._at)
        return other

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return CoreHandle, (self.get(),)


class _Position:
    """A game position: its game, or its parent and the change that makes it from
    there (not made yet), or a pickle of its game (taken by a child); the handles
    at it and its children by change (weakly: a dropped clone lets go)."""

    __slots__ = ("core", "parent", "mutate", "recipe", "holders", "children", "__weakref__")

    def __init__(self, core: TokenGame | None, parent: _Position | None = None,
                 mutate: Callable[[TokenGame], Any] | None = None) -> None:
        self.core = core
        self.parent = parent
        self.mutate = mutate
        self.recipe: bytes | None = None
        self.holders: weakref.WeakSet[CoreHandle] = weakref.WeakSet()
        self.children: weakref.WeakValueDictionary[Hashable, _Position] = weakref.WeakValueDictionary()

    def usable(self) -> bool:
        return self.core is not None or self.parent is not None or self.recipe is not None

    def needed(self) -> bool:
        """Whether a handle is here or a child still has to be made from here."""
        return bool(self.holders) or any(child.parent is self for child in self.children.values())

    def game(self) -> TokenGame:
        if self.core is None:
            if self.recipe is not None:
                self.core = pickle.loads(self.recipe)
            else:  # made from the nearest position that has its game (or a pickle of it)
                path = [self]
                while path[-1].core is None and path[-1].recipe is None:
                    path.append(path[-1].parent)
                for child in reversed(path[:-1]):
                    child._take(child.parent)
        return self.core

    def _take(self, parent: _Position) -> None:
        core = parent.game()
        self.parent = None
        if parent.needed() and parent.recipe is None:
            parent.recipe = pickle.dumps(core, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            self.mutate(core)  # checked when it was asked for: an error here is a bug
        except BaseException:
            self.parent = parent  # the game's changes check before they change anything
            raise
        parent.core = None
        self.mutate = None
        self.core = core


class GoatState(pyspiel.State):
    """A Goat game in OpenSpiel: before the first dealer is drawn, at a chance
    event's seed bytes, or at a :class:`TokenGame` decision.

    ``core`` is the :class:`TokenGame`, shared with clones (:class:`CoreHandle`):
    read it at once, never change it from outside (the adapter changes it through
    :meth:`CoreHandle.change`; another state's change may take the object over).
    ``dealer_drawn``: the game has begun (at once in a game that draws no first
    dealer)."""

    def __init__(self, game: GoatGame) -> None:
        super().__init__(game)
        self._handle = copy.deepcopy(game._prototype_handle)
        self.dealer_drawn = not game.draws_first_dealer
        self.seed_bytes: list[int] = []

    @property
    def core(self) -> TokenGame:
        return self._handle.get()

    @core.setter
    def core(self, core: TokenGame) -> None:
        self._handle = CoreHandle(core)

    # ------------------------------------------------------------- players
    def current_player(self) -> int:
        if not self.dealer_drawn:
            return pyspiel.PlayerId.CHANCE
        core = self.core
        if core.state.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if core.state.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return core.actor()

    def is_terminal(self) -> bool:
        return self.dealer_drawn and self.core.state.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.num_players()
        return [float(v) for v in self.core.state.returns()]

    # ------------------------------------------------------------- actions
    def chance_outcomes(self) -> list[tuple[int, float]]:
        count = self.num_players() if not self.dealer_drawn else 256
        return [(i, 1.0 / count) for i in range(count)]

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.legal_tokens()

    def _apply_action(self, action: int) -> None:
        if not self.dealer_drawn:
            self.core = TokenGame(self.get_game().spec.new_state(first_dealer=int(action)), self.core.encoder)
            self.dealer_drawn = True
        elif self.core.state.is_chance_node():
            self.seed_bytes.append(int(action))
            if len(self.seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(self.seed_bytes), "big")
                self.seed_bytes = []
                self._handle.change(("chance", seed), lambda core: core.deal(random.Random(seed)))
        else:
            token = int(action)
            self.core.check_token(token)  # refused now, not when the change is made (at a read)
            self._handle.change(("token", token), lambda core: core.apply_token(token))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"first dealer {action}" if not self.dealer_drawn else f"chance seed byte {action}"
        return self.core.token_name(int(action))

    # -------------------------------------------------------- hidden information
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GoatState:
        """A state ``player_id`` cannot tell from this one (a world sampled from
        its view only; OpenSpiel's ISMCTS calls this). A draw that finds no world
        is followed by a fresh one, :data:`RESAMPLE_DRAWS` in all, then a one-line
        :class:`~goat.games.worlds.WorldSamplingError` (a ``GoatError``)."""
        core = self.core
        if not self.dealer_drawn or not core.is_decision():
            raise GoatError("worlds are sampled only at a decision")
        rng = random.Random(int(probability_sampler() * 2**53))
        # The search bots' own skipping of a failed draw (the first draw is
        # exactly ``sample_world(view, rng)``'s world), bounded.
        sampler = world_sampler(core.state.view(player_id))
        world = next(sampled_worlds(sampler, rng, RESAMPLE_DRAWS, None), None)
        if world is None:
            raise WorldSamplingError(f"no world consistent with seat {player_id}'s view found in "
                                     f"{RESAMPLE_DRAWS} draws")
        other = self.get_game().new_initial_state()
        other.core = core.with_state(world)
        if player_id != core.actor():
            other.core.prefix = ()  # another seat's half-made choice is hidden from this one
        other.dealer_drawn = True
        return other

    def __str__(self) -> str:
        """The whole state (hidden cards included): the game's record so far
        (``goat.records.record_from_state``, any game), the decision in
        progress and the seed bytes drawn of the next chance event."""
        if not self.dealer_drawn:
            return "first dealer not drawn"
        core = self.core
        return json.dumps({"record": record_from_state(core.state), "actor": core.actor(),
                           "pending": list(core.prefix), "offers": core.offers,
                           "seed_bytes": self.seed_bytes}, sort_keys=True)


class GoatObserver:
    """OpenSpiel observer: a seat's own view (public facts plus its private cards).

    The information-state observer has a string only; the observation observer
    has the environments' tensor too, its fields named as in ``docs/envs.md``.
    """

    def __init__(self, game: GoatGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is not None and (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info):
            raise ValueError("goat games observe one seat's view: public info plus that seat's private info")
        perfect_recall = iig_obs_type.perfect_recall if iig_obs_type is not None else False
        layout = game.prototype.layout
        self.tensor = None if perfect_recall else layout.zeros()
        self.dict = {} if self.tensor is None else layout.views(self.tensor)

    def set_from(self, state: GoatState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = state.core.observation(player)

    def string_from(self, state: GoatState, player: int) -> str:
        return state.core.information_state_string(player)


def register(game: str) -> type[GoatGame]:
    """Register ``goat_<game>`` with pyspiel (once); returns its game class."""
    get_game(game)  # an unknown game fails here, in one line
    name = f"Goat{game.title()}Game"
    cls = globals().get(name)
    if cls is None:
        cls = type(name, (GoatGame,), {
            "__init__": lambda self, params=None: GoatGame.__init__(self, game, params),
            "__module__": __name__,
        })
        globals()[name] = cls  # found by name, so a game pickles (process pools, vector envs)
    if f"goat_{game}" not in pyspiel.registered_names():
        pyspiel.register_game(game_type(game), cls)
    return cls


for _game in ENCODERS:
    if module_constant(_game, "OPENSPIEL", True):
        register(_game)
