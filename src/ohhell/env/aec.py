"""The PettingZoo AEC environment: every seat an agent, any rule set of RULES.md.

Build it with :func:`ohhell.env.env` (wrapped in PettingZoo's order-enforcing
wrapper) or :func:`ohhell.env.raw_env`. A game is one episode: the deals of the
schedule follow one another, and the game's number (drawn from the seed, or
given as ``reset(options={"number": N})``) fixes every shuffle and the first
dealer, as everywhere in ohhell.
"""

from __future__ import annotations

import random
from typing import Any, Final, Literal, NoReturn, overload

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from ohhell.cards import SUIT_NAMES, CardSet, card_text
from ohhell.dealnumbers import check_deal_number
from ohhell.env.actions import ActionLayout
from ohhell.env.encoding import Encoding, InformationStateEncoding, ObservationEncoding
from ohhell.env.table import Table
from ohhell.errors import IllegalActionError, UnexpectedActionError
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.view import SeatView

Observation = dict[str, Any]
"""``{"observation": float32 vector, "action_mask": int8 vector}``."""
REWARDS: Final = ("deal", "game")
ENCODINGS: Final = ("observation", "information-state")
NUMBERS: Final = 999_999_999
"""Games drawn from a seed get numbers 1 … this, like new games elsewhere."""


def encoding_for(rules: Rules, name: str) -> Encoding:
    """The encoding called ``name`` (``"observation"`` or ``"information-state"``) for ``rules``."""
    if name == "observation":
        return ObservationEncoding(rules)
    if name == "information-state":
        return InformationStateEncoding(rules)
    raise ValueError(f"unknown encoding {name!r}: use one of {', '.join(ENCODINGS)}")


def observation_space(encoding: Encoding, layout: ActionLayout) -> spaces.Dict:
    """``{"observation": Box(float32), "action_mask": Box(0, 1, (A,), int8)}``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(encoding.low, encoding.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (layout.size,), dtype=np.int8),
        }
    )


def check_choice(name: str, value: str, choices: tuple[str, ...]) -> None:
    """Refuse a value that is not one of ``choices``, naming them."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")


class OhHellEnv(AECEnv[str, Observation, np.int64]):
    """Oh Hell! for PettingZoo: agents ``player_0 … player_{n-1}`` are the seats.

    ``rewards="deal"`` gives every seat its points as each deal ends; ``"game"``
    gives each seat its total once, when the game ends. ``encoding`` chooses the
    observation vector (see :mod:`ohhell.env.encoding`). ``illegal_reward=None``
    makes an illegal action raise (naming the rule, and changing nothing); a number
    ends the game instead, that reward going to the offender and 0 to the others.

    ``infos[agent]`` of the agent to act holds exactly ``action_mask`` (the same as
    in the observation) and ``view`` (its :class:`~ohhell.view.SeatView`, for
    :func:`ohhell.env.bot_policy`); an agent not to act gets only ``action_mask``
    (zeros); once the game is over every agent's info adds ``totals`` (and, after an
    illegal action under ``illegal_reward``, ``illegal_action``). Nothing there tells
    a hidden card: no deal number, no game object. :meth:`view` gives any seat's
    view, and :attr:`deal_number` the game's number, to the experimenter.
    """

    metadata: dict[str, Any] = {"name": "ohhell_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules,
        *,
        rewards: str = "deal",
        encoding: str = "observation",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # PettingZoo leaves it unannotated
        check_choice("rewards", rewards, REWARDS)
        if render_mode is not None:
            check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        self.rules = rules
        self.layout = ActionLayout.of(rules)
        self.encoding = encoding_for(rules, encoding)
        self.reward_mode = rewards
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(rules.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(self.encoding, self.layout) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.layout.size) for a in self.possible_agents}
        self._no_actions = np.zeros(self.layout.size, np.int8)
        self._no_actions.flags.writeable = False
        self._rng = random.Random()
        self.table: Table | None = None
        self.agents = []
        self._cached: tuple[str, SeatView, NDArray[np.int8]] | None = None

    # ----------------------------------------------------------------- the PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space[Observation]:
        """The same space object for every call (PettingZoo seeds it)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[np.int64]:
        """``Discrete(A)``: every action id of :mod:`ohhell.env.actions`."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: number ``options["number"]`` if given, else one drawn from the seed (or the last one)."""
        if seed is not None:
            self._rng = random.Random(seed)
        number = None if options is None else options.get("number")
        number = self._rng.randint(1, NUMBERS) if number is None else check_deal_number(number)
        self.table = Table(Game(self.rules, number), self.layout)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {"action_mask": self._no_actions} for agent in self.agents}
        self._skip_agent_selection = None  # type: ignore[assignment]  # as PettingZoo itself resets it
        self._next_decision()

    @overload
    def last(self, observe: Literal[True] = True) -> tuple[Observation, float, bool, bool, dict[str, Any]]: ...
    @overload
    def last(self, observe: Literal[False]) -> tuple[None, float, bool, bool, dict[str, Any]]: ...
    @overload
    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]: ...
    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation (unless ``observe=False``), reward so far, terminated, truncated, info."""
        return super().last(observe)

    def observe(self, agent: str) -> Observation:
        """The observation dict of ``agent``: its encoded view, and its action mask (zeros when not to act)."""
        cached = self._cached
        if cached is not None and cached[0] == agent:
            _, view, mask = cached
        else:
            view = self.view(agent)
            mask = self._no_actions
        confirming = self._table.confirming == view.seat
        return {"observation": self.encoding.encode(view, confirming), "action_mask": mask}

    def step(self, action: np.int64 | int | None) -> None:
        """The acting agent's action id (or ``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # type: ignore[arg-type]  # PettingZoo refuses anything but None here
            return
        table = self._table
        if action is None:
            raise UnexpectedActionError(f"{agent} is still playing: None is only for agents that are done")
        action = int(action)
        self._cumulative_rewards[agent] = 0.0
        for other in self.rewards:
            self.rewards[other] = 0.0
        cached = self._cached
        legal = cached is not None and 0 <= action < self.layout.size and cached[2][action]
        if not legal and self.illegal_reward is not None:
            self._end(illegal=agent)
            return
        if not legal:
            refuse(table, action)
        points = table.apply(action)
        if points is not None and self.reward_mode == "deal":
            for other, p in zip(self.possible_agents, points, strict=True):
                self.rewards[other] = float(p)
        if table.is_over:
            self._end()
            return
        self.infos[agent] = {"action_mask": self._no_actions}
        self._accumulate_rewards()
        self._next_decision()

    def render(self) -> str | None:
        """The whole table in text, every hand included (``"ansi"`` returns it, ``"human"`` prints it)."""
        return render_as(self.render_mode, started(self.table))

    def close(self) -> None:
        """Nothing to release."""

    # ----------------------------------------------------------------- beyond the PettingZoo API

    def view(self, agent: str) -> SeatView:
        """What ``agent``'s seat may know now: the only input of its observation."""
        return self._table.view(self._seats[agent])

    @property
    def deal_number(self) -> int | None:
        """The number of the game in progress: the experimenter's, never in what a policy is given."""
        return None if self.table is None else self.table.game.number

    @property
    def _table(self) -> Table:
        return started(self.table)

    def _next_decision(self) -> None:
        table = self._table
        seat = table.decider
        assert seat is not None
        agent = self.possible_agents[seat]
        view = table.view(seat)
        mask = np.zeros(self.layout.size, np.int8)
        mask[table.legal_ids()] = 1
        self._cached = (agent, view, mask)
        self.agent_selection = agent
        self.infos[agent] = {"action_mask": mask, "view": view}

    def _end(self, illegal: str | None = None) -> None:
        """The game is over (or was ended by an illegal action): every agent is terminated."""
        table = self._table
        if illegal is not None:
            self.rewards[illegal] = float(self.illegal_reward or 0.0)
        elif self.reward_mode == "game":
            for agent, total in zip(self.possible_agents, table.game.totals, strict=True):
                self.rewards[agent] = float(total)
        for agent in self.agents:
            self.terminations[agent] = True
            info: dict[str, Any] = {"action_mask": self._no_actions, "view": self.view(agent)}
            info["totals"] = tuple(table.game.totals)
            if illegal is not None:
                info["illegal_action"] = agent == illegal
            self.infos[agent] = info
        self._cached = None
        self._accumulate_rewards()


def refuse(table: Table, action_id: int) -> NoReturn:
    """Raise the error that names the rule ``action_id`` breaks (tried on a copy: the table is left as it was)."""
    table.copy().apply(action_id)
    raise IllegalActionError(f"action {action_id} is not legal now")


def started(table: Table | None) -> Table:
    """The table of the game in progress (an environment has none before its first reset)."""
    if table is None:
        raise UnexpectedActionError("call reset() first")
    return table


def render_as(mode: str | None, table: Table) -> str | None:
    """``render()`` of both environments: the table's text for ``"ansi"``, printed for ``"human"``."""
    if mode is None:
        return None
    text = render_table(table)
    if mode == "human":
        print(text)
        return None
    return text


def render_table(table: Table) -> str:
    """The game in progress for people watching: trump, every hand, bids, tricks, the trick in progress, totals."""
    game = table.game
    deal = game.deal
    trump = (
        "being chosen"
        if deal.phase_name == "choosing-trump"
        else "none"
        if deal.trump is None
        else SUIT_NAMES[deal.trump]
    )
    turned = "" if deal.turn_up is None else f", turned {card_text(deal.turn_up)}"
    lines = [
        f"game {game.number}, deal {game.deal_index + 1} of {game.rules.deals}: {deal.size} cards, "
        f"dealer {deal.dealer}, trump {trump}{turned}, {deal.phase_name}"
    ]
    for seat in range(game.rules.players):
        bid = "-" if deal.bids[seat] < 0 else str(deal.bids[seat])
        marker = " <" if table.decider == seat else ""
        lines.append(
            f"  seat {seat}: {CardSet(deal.hands[seat]) or '-'}  bid {bid} won {deal.tricks_won[seat]}"
            f"  total {game.totals[seat]}{marker}"
        )
    if deal.trick:
        n = game.rules.players
        played = " ".join(f"{(deal.trick_leader + i) % n}:{card_text(c)}" for i, c in enumerate(deal.trick))
        lines.append(f"  trick: {played}")
    return "\n".join(lines)
