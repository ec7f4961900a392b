"""The Gymnasium environment: one seat against our computer players.

>>> env = SoloEnv("short", players=3, levels=["easy"])
>>> observation, info = env.reset(seed=3)
>>> observation["observation"].shape == env.observation_space["observation"].shape, info["seat"]
(True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from ohhell.bots import Budget
from ohhell.dealnumbers import check_deal_number
from ohhell.env.actions import ActionLayout
from ohhell.env.aec import (
    NUMBERS,
    REWARDS,
    Observation,
    check_choice,
    encoding_for,
    observation_space,
    refuse,
    render_as,
    started,
)
from ohhell.env.encoding import total_range
from ohhell.env.policy import BotPolicy
from ohhell.env.table import Table
from ohhell.errors import UnexpectedActionError
from ohhell.game import Game
from ohhell.rules import Rules

LOWEST: Final = "lowest"
"""The default ``illegal_reward``: one point below the lowest total the game can give."""


class SoloEnv(gymnasium.Env[Observation, np.int64]):
    """Oh Hell! for one agent in seat ``seat`` against computer players of ``levels``.

    ``levels`` names the other seats' players in seat order from the agent's left
    (``["easy", "normal", "hard"]``), or one level for all of them. ``seat=None``
    draws the agent's seat at each reset. An episode is a game; the observation is
    the agent's, as in :func:`ohhell.env.env`; the reward is the agent's points as
    each deal ends (``rewards="deal"``) or its total at the end (``"game"``).

    An illegal action ends the episode with ``illegal_reward`` (by default one point
    below the lowest total the rules allow, so that no play is worse); ``None``
    makes it raise instead. ``budget`` is handed to the computer players (the Hard
    player's default is half a second of wall time a decision, which makes its play
    depend on the machine; ``Budget(iterations=N)`` does not).

    ``info`` holds exactly ``action_mask``, ``view`` (the agent's
    :class:`~ohhell.view.SeatView`) and ``seat``; ``totals`` is added once the game is
    over and ``illegal_action`` after an illegal action. It holds no deal number:
    ``table.game.number`` is the experimenter's.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        preset: str = "full",
        players: int = 4,
        levels: str | Sequence[str] = "normal",
        *,
        seat: int | None = 0,
        rewards: str = "deal",
        encoding: str = "observation",
        illegal_reward: float | Literal["lowest"] | None = LOWEST,
        budget: Budget | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.rules = Rules.preset(preset, players=players, **options)
        check_choice("rewards", rewards, REWARDS)
        if render_mode is not None:
            check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        names = [levels] if isinstance(levels, str) else list(levels)
        if len(names) == 1:
            names *= players - 1
        if len(names) != players - 1:
            raise ValueError(f"give one level, or {players - 1} levels (one for each other seat), not {len(names)}")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"there is no seat {seat}: seats are 0 to {players - 1}")
        self.levels = tuple(names)
        self.opponents = [BotPolicy(level, budget=budget) for level in names]
        self.fixed_seat = seat
        self.reward_mode = rewards
        if illegal_reward == LOWEST:
            illegal_reward = float(total_range(self.rules)[0] - 1)
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.layout = ActionLayout.of(self.rules)
        self.encoding = encoding_for(self.rules, encoding)
        self.observation_space = observation_space(self.encoding, self.layout)
        self.action_space = spaces.Discrete(self.layout.size)
        self.seat = 0 if seat is None else seat
        self.table: Table | None = None
        self._mask = np.zeros(self.layout.size, np.int8)
        self._done = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a game (number ``options["number"]``, else one drawn from the seed); the others play to our turn."""
        super().reset(seed=seed)
        number = None if options is None else options.get("number")
        number = int(self.np_random.integers(1, NUMBERS + 1)) if number is None else check_deal_number(number)
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(self.rules.players))
        for opponent in self.opponents:
            opponent.rng.seed(int(self.np_random.integers(2**62)))
        self.table = Table(Game(self.rules, number), self.layout)
        self._done = False
        self._play_others()
        return self._outputs()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Our seat's action id; then the others play until it is our turn again or the game is over."""
        table = self._table
        if self._done:
            raise UnexpectedActionError("the game is over: call reset()")
        action = int(action)
        if not (0 <= action < self.layout.size and self._mask[action]):
            if self.illegal_reward is None:
                refuse(table, action)
            self._done = True
            self._mask = np.zeros(self.layout.size, np.int8)
            observation, info = self._outputs()
            info["illegal_action"] = True
            return observation, float(self.illegal_reward), True, False, info
        points = table.apply(action)
        reward = 0.0 if points is None else float(points[self.seat])
        reward += self._play_others()
        self._done = table.is_over
        if self._done and self.reward_mode == "game":
            reward = float(table.game.totals[self.seat])
        elif self.reward_mode == "game":
            reward = 0.0
        observation, info = self._outputs()
        return observation, reward, self._done, False, info

    def render(self) -> str | None:
        """The whole table in text, every hand included (``"ansi"`` returns it, ``"human"`` prints it)."""
        return render_as(self.render_mode, started(self.table))

    @property
    def _table(self) -> Table:
        return started(self.table)

    def _play_others(self) -> float:
        """Let the computer players act until our seat decides; our points of any deal that ended meanwhile."""
        table = self._table
        n = self.rules.players
        points = 0.0
        while not table.is_over:
            seat = table.decider
            assert seat is not None
            if seat == self.seat:
                break
            policy = self.opponents[(seat - self.seat) % n - 1]
            finished = table.apply(policy.act(table.view(seat), confirming=table.confirming == seat))
            if finished is not None:
                points += finished[self.seat]
        mask = np.zeros(self.layout.size, np.int8)
        if not table.is_over:
            mask[table.legal_ids()] = 1
        self._mask = mask
        return points

    def _outputs(self) -> tuple[Observation, dict[str, Any]]:
        """Our observation and info: both from our seat's view."""
        table = self._table
        view = table.view(self.seat)
        observation = {
            "observation": self.encoding.encode(view, table.confirming == self.seat),
            "action_mask": self._mask,
        }
        info: dict[str, Any] = {
            "action_mask": self._mask,
            "view": view,
            "seat": self.seat,
        }
        if table.is_over:
            info["totals"] = tuple(table.game.totals)
        return observation, info
