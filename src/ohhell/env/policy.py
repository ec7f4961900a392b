"""Our computer players as policies for the research environments.

>>> from ohhell.env import raw_env
>>> env = raw_env("short", players=3)
>>> env.reset(seed=1)
>>> policy = bot_policy("normal", seed=0)
>>> observation, reward, terminated, truncated, info = env.last()
>>> bool(observation["action_mask"][policy(observation, info)])
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ohhell.bots import Budget, make_bot
from ohhell.env.actions import ActionLayout
from ohhell.view import SeatView


class BotPolicy:
    """A computer player (Easy, Normal, Hard or random) choosing action ids for one seat.

    It reads that seat's :class:`~ohhell.view.SeatView` and nothing else: call it
    with an environment's observation and info (``policy(observation, info)``; the
    info carries the view, the observation's mask tells a *keep or change*
    decision apart), or with a view directly (:meth:`act`). Under ``until-next``
    it keeps every bid, as our players do. ``budget`` bounds the Hard player's
    search (an iteration budget makes it reproducible; the default is half a
    second a decision).
    """

    def __init__(self, level: str = "hard", seed: int | None = None, budget: Budget | None = None) -> None:
        self.level = level
        self.bot = make_bot(level)
        self.rng = random.Random(seed)
        self.budget = budget

    def __call__(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """The action id for the seat whose observation and info these are."""
        view: SeatView = info["view"]
        keep = ActionLayout.of(view.rules).keep
        return self.act(view, confirming=keep is not None and bool(observation["action_mask"][keep]))

    def act(self, view: SeatView, confirming: bool = False) -> int:
        """The action id for ``view.seat`` (``confirming``: its *keep or change* decision, always *keep*)."""
        layout = ActionLayout.of(view.rules)
        if confirming:
            assert layout.keep is not None, "only until-next rules have a keep-or-change decision"
            return layout.keep
        return layout.id_of(self.bot.decide(view, self.rng, self.budget).action)

    def __repr__(self) -> str:
        return f"bot_policy({self.level!r})"


def bot_policy(level: str = "hard", seed: int | None = None, budget: Budget | None = None) -> BotPolicy:
    """The computer player of ``level`` (``"easy"``, ``"normal"``, ``"hard"`` or ``"random"``) as a policy."""
    return BotPolicy(level, seed, budget)
