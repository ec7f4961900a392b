"""Research interfaces: PettingZoo, Gymnasium (and, in :mod:`ohhell.openspiel`, OpenSpiel) on every rule set.

Install with ``pip install '.[rl]'`` in a clone (ohhell is not on PyPI). See ``docs/research.md``.

* :func:`env` / :func:`raw_env`: a PettingZoo AEC environment, every seat an agent;
* :class:`SoloEnv`: a Gymnasium environment, one seat against our computer players, also
  ``gymnasium.make("ohhell/Solo-v0", ...)`` once this package is imported (:mod:`ohhell.env.registration`);
* :func:`bot_policy`: our Easy, Normal and Hard players as policies for either;
* :class:`ActionLayout` (the action ids), :class:`ObservationEncoding` and
  :class:`InformationStateEncoding` (the vectors, field by field), :class:`Table`
  (the turn structure all three interfaces share).

>>> game = env("full", players=4)
>>> game.reset(seed=42)
>>> observation, reward, terminated, truncated, info = game.last()
>>> observation["observation"].shape, observation["action_mask"].shape, game.agent_selection
((665,), (63,), 'player_2')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ohhell.env.actions import ActionLayout, card_id
from ohhell.env.encoding import Encoding, InformationStateEncoding, ObservationEncoding
from ohhell.env.policy import BotPolicy, bot_policy
from ohhell.env.registration import register_with_gymnasium
from ohhell.env.table import Table
from ohhell.rules import Rules

if TYPE_CHECKING:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from ohhell.env.aec import Observation, OhHellEnv
    from ohhell.env.solo import SoloEnv

__all__ = [
    "ActionLayout",
    "BotPolicy",
    "Encoding",
    "InformationStateEncoding",
    "ObservationEncoding",
    "OhHellEnv",
    "SoloEnv",
    "Table",
    "bot_policy",
    "card_id",
    "env",
    "raw_env",
]

register_with_gymnasium()


def raw_env(
    preset: str = "full",
    players: int = 4,
    *,
    rewards: str = "deal",
    encoding: str = "observation",
    illegal_reward: float | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> OhHellEnv:
    """The AEC environment for ``Rules.preset(preset, players=players, **options)``, without wrappers.

    Every option of RULES.md can be given (``schedule``, ``trump``, ``hook``, ``bid_changes``, ``first_lead``,
    ``scoring``, ``miss_penalty``, ``zero_bid_bonus``, ``special_cards``, ``first_dealer``); the others are the
    environment's (see :class:`~ohhell.env.aec.OhHellEnv`).
    """
    from ohhell.env.aec import OhHellEnv

    rules = Rules.preset(preset, players=players, **options)
    return OhHellEnv(rules, rewards=rewards, encoding=encoding, illegal_reward=illegal_reward, render_mode=render_mode)


def env(preset: str = "full", players: int = 4, **options: Any) -> OrderEnforcingWrapper[str, Observation, np.int64]:
    """:func:`raw_env` (same arguments) in PettingZoo's order-enforcing wrapper, as PettingZoo's ``env()`` gives it."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    return OrderEnforcingWrapper(raw_env(preset, players, **options))


def __getattr__(name: str) -> Any:
    """``SoloEnv`` and ``OhHellEnv`` load Gymnasium and PettingZoo only when asked for."""
    if name == "SoloEnv":
        from ohhell.env.solo import SoloEnv

        return SoloEnv
    if name == "OhHellEnv":
        from ohhell.env.aec import OhHellEnv

        return OhHellEnv
    raise AttributeError(f"module 'ohhell.env' has no attribute {name!r}")
