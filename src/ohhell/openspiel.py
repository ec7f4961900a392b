"""Oh Hell! as an OpenSpiel game: ``import ohhell.openspiel`` registers ``python_ohhell``.

Every rule set of RULES.md is a parameter set (see :data:`PARAMETERS`); dealing
is explicit chance (the first dealer, then every card one at a time from the
dealer's left, then the turned card); the returns are the game's totals, given
at the end (a terminal reward model, as OpenSpiel's ``oh_hell`` and its MCTS
want; the totals so far are in every observation, and the PettingZoo and
Gymnasium environments give each deal's points as it ends). Observation and information-state tensors and strings
come from :mod:`ohhell.env.encoding`, so from one seat's view only. Action ids
are those of :mod:`ohhell.env.actions` (OpenSpiel's ``oh_hell`` numbering for the
52 cards and the bids); a card has the same id when it is dealt.

OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``)
plays it through :meth:`OhHellState.resample_from_infostate`; the C++
``pyspiel.ISMCTSBot`` cannot, as OpenSpiel does not pass that call on to Python
games. ``pyspiel.MCTSBot`` plays it too. :class:`OhHellBot` seats our players.

>>> import pyspiel
>>> game = pyspiel.load_game("python_ohhell(preset=short,players=3)")
>>> game.num_distinct_actions(), game.num_players(), game.max_chance_outcomes()
(58, 3, 52)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import pyspiel

from ohhell.bots import Budget
from ohhell.bots.knowledge import read_view
from ohhell.bots.sampling import deal_hidden
from ohhell.cards import FIRST_JESTER, FIRST_MAGICIAN, Card, CardSet, card_text
from ohhell.env.actions import ActionLayout
from ohhell.env.encoding import Encoding, InformationStateEncoding, ObservationEncoding, describe, total_range
from ohhell.env.policy import BotPolicy
from ohhell.env.table import Table
from ohhell.errors import RulesError
from ohhell.features import CARD_IDS, dealt_hand
from ohhell.game import Game
from ohhell.rules import PRESETS, Rules
from ohhell.view import SeatView, seat_view

NAME: Final = "python_ohhell"
PARAMETERS: Final[dict[str, Any]] = {
    "preset": "full",
    "players": 4,
    "schedule": "",
    "hand_size": 0,
    "first_dealer": "",
    "first_dealer_seat": -1,
    "trump": "",
    "hook": -1,
    "bid_changes": "",
    "first_lead": "",
    "scoring": "",
    "miss_penalty": -1,
    "zero_bid_bonus": -1,
    "special_cards": -1,
}
"""The game's parameters and their defaults: every default means "as the preset says".

* ``preset`` (a name of RULES.md), ``players``;
* text options, ``""`` for the preset's: ``schedule`` (a name, or hand sizes separated by ``/``: ``10/9/8``),
  ``first_dealer`` (``random`` or ``draw``), ``trump`` (``turn-up`` or a rotation such as ``S/H/D/C/NT``),
  ``bid_changes``, ``first_lead``, ``scoring``;
* ``hand_size``: a single deal of this many cards (0: the schedule's deals);
* ``first_dealer_seat``: a fixed first dealer (-1: by ``first_dealer``);
* on/off options as 1 or 0, -1 for the preset's: ``hook``, ``miss_penalty``, ``special_cards``
  (OpenSpiel fills in every default before the game sees its parameters, so a true/false
  parameter could not tell "as the preset" from "on");
* ``zero_bid_bonus``: the exact bonus of a made zero bid (-1: the scheme's own).

``str(game)`` lists every option as it is in force, and loads the same rules again.
"""
_TEXT_OPTIONS: Final = ("bid_changes", "first_lead", "scoring")
_SWITCHES: Final = ("hook", "miss_penalty", "special_cards")

GAME_TYPE: Final = pyspiel.GameType(
    short_name=NAME,
    long_name="Oh Hell! (ohhell: every rule set of RULES.md)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=7,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def rules_from_parameters(params: dict[str, Any]) -> Rules:
    """The rules named by OpenSpiel parameters (see :data:`PARAMETERS`)."""
    unknown = set(params) - set(PARAMETERS)
    if unknown:
        raise RulesError(f"unknown parameter {sorted(unknown)[0]!r}: the parameters are {', '.join(PARAMETERS)}")
    given = {**PARAMETERS, **params}
    options: dict[str, Any] = {"players": given["players"]}
    schedule, hand_size = given["schedule"], given["hand_size"]
    if schedule and hand_size:
        raise RulesError("give schedule or hand_size, not both")
    if hand_size:
        options["schedule"] = (hand_size,)
    elif schedule:
        parts = schedule.replace("/", " ").split()
        options["schedule"] = tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else schedule
    if given["first_dealer_seat"] >= 0:
        options["first_dealer"] = given["first_dealer_seat"]
    elif given["first_dealer"]:
        options["first_dealer"] = given["first_dealer"]
    trump = given["trump"]
    if trump:
        options["trump"] = trump if trump == "turn-up" else tuple(trump.replace("/", " ").upper().split())
    for name in _TEXT_OPTIONS:
        if given[name]:
            options[name] = given[name]
    for name in _SWITCHES:
        if given[name] not in (-1, 0, 1):
            raise RulesError(f"{name} must be 1 (on), 0 (off) or -1 (the preset's), not {given[name]!r}")
        if given[name] >= 0:
            options[name] = bool(given[name])
    if given["zero_bid_bonus"] >= 0:
        options["zero_bid_bonus"] = given["zero_bid_bonus"]
    return Rules.preset(given["preset"], **options)


def parameters_of(rules: Rules) -> dict[str, Any]:
    """Parameters that name ``rules`` exactly, every option spelt out (``str(game)`` shows them)."""
    params = dict(PARAMETERS)
    params["preset"] = rules.preset_name if rules.preset_name in PRESETS else "full"
    params["players"] = rules.players
    if isinstance(rules.schedule, str):
        params["schedule"] = rules.schedule
    elif len(rules.schedule) == 1:
        params["hand_size"] = rules.schedule[0]
    else:
        params["schedule"] = "/".join(map(str, rules.schedule))
    if isinstance(rules.first_dealer, int):
        params["first_dealer_seat"] = rules.first_dealer
    else:
        params["first_dealer"] = rules.first_dealer
    params["trump"] = rules.trump if isinstance(rules.trump, str) else "/".join(rules.trump)
    for name in _TEXT_OPTIONS:
        params[name] = getattr(rules, name)
    for name in _SWITCHES:
        params[name] = int(getattr(rules, name))
    params["zero_bid_bonus"] = -1 if rules.zero_bid_bonus is None else rules.zero_bid_bonus
    return params


def max_decisions(rules: Rules) -> int:
    """The most decisions a game can take: bids, *keep or change*, trump choices and cards."""
    n = rules.players
    per_deal = n * (2 if rules.bid_changes == "until-next" else 1) + (1 if rules.special_cards else 0)
    return sum(per_deal + n * size for size in rules.hand_sizes)


class OhHellGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """The game of one rule set; ``pyspiel.load_game("python_ohhell(...)")`` makes one."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.rules = rules_from_parameters(dict(params or {}))
        self.layout = ActionLayout.of(self.rules)
        low, high = total_range(self.rules)
        chance_ids = 52 if self.layout.jester is None else self.layout.jester + 1
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.size,
            max_chance_outcomes=max(chance_ids, self.rules.players),
            num_players=self.rules.players,
            min_utility=float(low),
            max_utility=float(high),
            max_game_length=max_decisions(self.rules),
        )
        super().__init__(GAME_TYPE, info, parameters_of(self.rules))

    def new_initial_state(self) -> OhHellState:
        """Before the first dealer is drawn (or, with a fixed first dealer, before the first card)."""
        return OhHellState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> OhHellObserver:
        """The observation (``perfect_recall=False``) or information-state observer of one seat."""
        return OhHellObserver(self.rules, iig_obs_type, params)


class Trajectory:
    """The game behind an OpenSpiel state: the cards dealt so far, the :class:`~ohhell.env.table.Table`.

    Copied cheaply for OpenSpiel's ``clone()`` (which deep-copies a state's
    attributes), pickled as the chance outcomes and decisions that replay it.
    """

    def __init__(self, rules: Rules, layout: ActionLayout) -> None:
        self.rules = rules
        self.layout = layout
        self.table: Table | None = None
        self.dealt: list[list[int]] = []
        """The chance outcomes (card ids, in dealing order) of each deal so far."""
        if isinstance(rules.first_dealer, int):
            self._start(rules.first_dealer)

    def _start(self, first_dealer: int) -> None:
        self.table = Table(Game(self.rules, deal_cards=False, first_dealer=first_dealer), self.layout)

    @property
    def dealing(self) -> bool:
        """Whether the next chance outcome is a card (or the first dealer)."""
        return self.table is None or self.table.waiting_for_deal

    def _being_dealt(self) -> list[int]:
        """The cards dealt so far of the deal being dealt (empty before its first card)."""
        assert self.table is not None
        return self.dealt[-1] if len(self.dealt) > len(self.table.game.deals) else []

    def cards_to_deal(self) -> int:
        """How many cards the deal being dealt takes in all, the turned card included."""
        assert self.table is not None
        rules = self.rules
        cards = rules.players * rules.hand_sizes[len(self.table.game.deals)]
        return cards + (1 if rules.turns_up_trump and cards < rules.pack_size else 0)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The first dealer (each seat alike), or the next card (each card left alike)."""
        if self.table is None:
            n = self.rules.players
            return [(seat, 1.0 / n) for seat in range(n)]
        dealt = self._being_dealt()
        left = self.rules.pack_size - len(dealt)
        taken = set(dealt)
        outcomes = [(i, 1.0 / left) for i in range(52) if i not in taken]
        layout = self.layout
        for special in (layout.magician, layout.jester):
            if special is not None:
                copies = 4 - dealt.count(special)
                if copies:
                    outcomes.append((special, copies / left))
        return outcomes

    def deal(self, outcome: int) -> None:
        """Apply a chance outcome."""
        if self.table is None:
            self._start(outcome)
            return
        if len(self.dealt) == len(self.table.game.deals):
            self.dealt.append([])
        cards = self.dealt[-1]
        cards.append(outcome)
        if len(cards) < self.cards_to_deal():
            return
        game = self.table.game
        n = self.rules.players
        dealer = game.dealer_of(len(game.deals))
        hands: list[list[Card]] = [[] for _ in range(n)]
        size = self.rules.hand_sizes[len(game.deals)]
        for j, card_id in enumerate(cards[: n * size]):
            hands[(dealer + 1 + j) % n].append(self.card_of(card_id))
        turn_up = self.card_of(cards[n * size]) if len(cards) > n * size else None
        game.start_deal(hands, turn_up)
        self.table.deal_started()

    def card_of(self, card_id: int) -> Card:
        """Our card for a card id (a Magician or Jester id gives the first copy)."""
        if card_id < 52:
            return _CARD_OF_ID[card_id]
        return FIRST_MAGICIAN if card_id == self.layout.magician else FIRST_JESTER

    def card_id(self, card: Card) -> int:
        """The id of one of our cards."""
        if card < 52:
            return CARD_IDS[card]
        magician, jester = self.layout.magician, self.layout.jester
        assert magician is not None and jester is not None
        return magician if card < FIRST_JESTER else jester

    def decide(self, action_id: int) -> None:
        """Apply a player's action."""
        assert self.table is not None
        self.table.apply(action_id)

    def __deepcopy__(self, memo: dict[int, Any]) -> Trajectory:
        other = Trajectory.__new__(Trajectory)
        other.__dict__.update(self.__dict__)
        other.table = None if self.table is None else self.table.copy()
        other.dealt = [cards.copy() for cards in self.dealt]
        return other

    def __reduce__(self) -> tuple[Callable[..., Trajectory], tuple[Any, ...]]:
        table = self.table
        first = None if table is None else table.game.first_dealer
        log = [] if table is None else [[action_id for _, action_id in deal] for deal in table.log]
        return (_replay, (self.rules.to_json(), first, self.dealt, log))


def _replay(
    rules_json: dict[str, Any], first_dealer: int | None, dealt: list[list[int]], log: list[list[int]]
) -> Trajectory:
    """A trajectory rebuilt from its record (the inverse of :meth:`Trajectory.__reduce__`)."""
    rules = Rules.from_json(rules_json)
    trajectory = Trajectory(rules, ActionLayout.of(rules))
    if trajectory.table is None and first_dealer is not None:
        trajectory.deal(first_dealer)
    for index, cards in enumerate(dealt):
        for card_id in cards:
            trajectory.deal(card_id)
        for action_id in log[index] if index < len(log) else ():
            trajectory.decide(action_id)
    return trajectory


_CARD_OF_ID: Final = tuple(CARD_IDS.index(i) for i in range(52))


class OhHellState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """One trajectory of the game. Its only attribute is the :class:`Trajectory` (``clone()`` copies that)."""

    def __init__(self, game: OhHellGame) -> None:
        super().__init__(game)
        self._t = Trajectory(game.rules, game.layout)

    @property
    def trajectory(self) -> Trajectory:
        """The game behind this state."""
        return self._t

    def current_player(self) -> int:
        """The seat to decide, chance while cards are dealt, or terminal."""
        t = self._t
        if t.dealing:
            return int(pyspiel.PlayerId.CHANCE)
        assert t.table is not None
        if t.table.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        decider = t.table.decider
        assert decider is not None
        return decider

    def _legal_actions(self, player: int) -> list[int]:
        assert self._t.table is not None
        return self._t.table.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The first dealer, or the next card dealt."""
        return self._t.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        t = self._t
        if t.dealing:
            t.deal(action)
        else:
            t.decide(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            t = self._t
            if t.table is None:
                return f"first dealer {action}"
            return f"deal {card_text(t.card_of(action))}"
        return self._t.layout.name(action)

    def is_terminal(self) -> bool:
        """Whether the last deal is over."""
        table = self._t.table
        return table is not None and table.is_over

    def returns(self) -> list[float]:
        """Each seat's total once the game is over (0 before: the reward model is terminal)."""
        table = self._t.table
        if table is None or not table.is_over:
            return [0.0] * self._t.rules.players
        return [float(total) for total in table.game.totals]

    def view(self, player: int) -> SeatView:
        """What seat ``player`` may know now (the position before the deal while a deal is being dealt)."""
        table = self._t.table
        if table is None or not table.game.deals:
            raise pyspiel.SpielError("no deal has been dealt yet")
        return table.view(player)

    def confirming(self, player: int) -> bool:
        """Whether ``player`` is at its *keep or change* decision."""
        table = self._t.table
        return table is not None and table.confirming == player

    def information_state_text(self, player: int) -> str:
        """Everything ``player`` has seen, deal by deal: its hands, the turned cards, every decision."""
        t = self._t
        lines = [f"seat {player}"]
        if t.table is None:
            return lines[0]
        game = t.table.game
        layout = t.layout
        for index, deal in enumerate(game.deals):
            view = seat_view(deal, player)
            turned = "-" if view.turn_up is None else card_text(view.turn_up)
            decisions = ", ".join(f"{seat} {layout.name(action_id)}" for seat, action_id in t.table.log[index])
            lines.append(
                f"deal {index}: dealer {deal.dealer}, hand {CardSet(dealt_hand(view))}, turned {turned}: {decisions}"
            )
        return "\n".join(lines)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> OhHellState:
        """A state ``player_id`` cannot tell from this one: the other seats' unseen cards dealt anew.

        The hidden cards are placed at random among the seats that may hold them
        (none of a suit a seat has shown it lacks, see :mod:`ohhell.bots.sampling`),
        and the game is replayed through ``apply_action`` so its history is whole.
        """
        t = self._t
        if t.dealing or t.table is None:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * 2**53))
        view = t.table.view(player_id)
        known = read_view(view)
        hidden = deal_hidden(known, rng)
        n = t.rules.players
        hands = [[*(view.hand if s == player_id else hidden[s]), *known.played[s]] for s in range(n)]
        game = t.table.game
        dealer = game.deal.dealer
        cards: list[int] = []
        for j in range(n * view.hand_size):
            cards.append(t.card_id(hands[(dealer + 1 + j) % n].pop()))
        if view.turn_up is not None:
            cards.append(t.card_id(view.turn_up))
        state = self.get_game().new_initial_state()
        if state.trajectory.table is None:
            state.apply_action(game.first_dealer)
        for index, dealt in enumerate([*t.dealt[:-1], cards]):
            for card_id in dealt:
                state.apply_action(card_id)
            for _, action_id in t.table.log[index]:
                state.apply_action(action_id)
        return state  # type: ignore[no-any-return]

    def __str__(self) -> str:
        t = self._t
        if t.table is None:
            return "first dealer not drawn"
        game = t.table.game
        lines = [f"first dealer {game.first_dealer}"]
        for index, deal in enumerate(game.deals):
            hands = " | ".join(str(CardSet(hand)) for hand in deal.hands_dealt)
            turned = "-" if deal.turn_up is None else card_text(deal.turn_up)
            lines.append(f"deal {index}: dealer {deal.dealer}, hands {hands}, turned {turned}")
            lines.append("  " + ", ".join(f"{seat} {t.layout.name(i)}" for seat, i in t.table.log[index]))
        if len(t.dealt) > len(game.deals):
            lines.append(f"dealing: {len(t.dealt[-1])} cards out")
        lines.append("totals " + " ".join(map(str, game.totals)))
        return "\n".join(lines)


class OhHellObserver:
    """OpenSpiel's observer of one seat: the observation or information-state tensor, and its string."""

    def __init__(
        self, rules: Rules, iig_obs_type: pyspiel.IIGObservationType | None, params: dict[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"this observer takes no parameters, not {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("python_ohhell observes one seat: public information and that seat's own cards")
        self.perfect_recall = perfect_recall
        self.encoding: Encoding = InformationStateEncoding(rules) if perfect_recall else ObservationEncoding(rules)
        self.tensor = np.zeros(self.encoding.size, np.float32)
        self.dict = self.encoding.split(self.tensor)

    def set_from(self, state: OhHellState, player: int) -> None:
        """Write ``player``'s tensor of ``state`` (zeros before the first deal is dealt)."""
        table = state.trajectory.table
        if table is None or not table.game.deals:
            self.tensor.fill(0.0)
            return
        self.encoding.encode(table.view(player), table.confirming == player, out=self.tensor)

    def string_from(self, state: OhHellState, player: int) -> str:
        """``player``'s observation string (one line), or its information-state string (the whole game)."""
        if self.perfect_recall:
            return state.information_state_text(player)
        table = state.trajectory.table
        if table is None or not table.game.deals:
            return f"seat {player}: nothing dealt yet"
        return describe(table.view(player), table.confirming == player)


class OhHellBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no type information
    """One of our computer players as an OpenSpiel bot for ``python_ohhell``: it reads only its seat's view."""

    def __init__(self, level: str = "hard", seed: int | None = None, budget: Budget | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.policy = BotPolicy(level, seed, budget)

    def step(self, state: OhHellState) -> int:
        """The action id of the seat to act."""
        player = state.current_player()
        return self.policy.act(state.view(player), confirming=state.confirming(player))

    def restart_at(self, state: OhHellState) -> None:
        """Nothing to forget: every decision starts from the view."""


pyspiel.register_game(GAME_TYPE, OhHellGame)
