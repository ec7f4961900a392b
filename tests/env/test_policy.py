"""Our computer players as policies: they play legal actions from their own seat's view."""

from __future__ import annotations

import numpy as np
import pytest

from ohhell.bots import Budget
from ohhell.env import bot_policy, raw_env


@pytest.mark.parametrize(("preset", "level"), [("full", "hard"), ("traditional", "normal"), ("magicians", "hard")])
def test_bot_policies_play_whole_games_in_the_pettingzoo_environment(preset: str, level: str) -> None:
    game = raw_env(preset, 4, schedule=(3, 1))
    game.reset(seed=8)
    policies = {
        agent: bot_policy(level, seed=seat, budget=Budget(iterations=40))
        for seat, agent in enumerate(game.possible_agents)
    }
    for agent in game.agent_iter():
        observation, _, terminated, truncated, info = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        assert info["view"].seat == game.possible_agents.index(agent)
        action = policies[agent](observation, info)
        assert observation["action_mask"][action]
        game.step(action)
    assert game.table is not None and game.table.is_over


def test_a_bot_policy_keeps_its_bid_under_until_next() -> None:
    game = raw_env("traditional", 3, schedule=(2,))
    game.reset(seed=1)
    policy = bot_policy("normal", seed=0)
    observation, _, _, _, info = game.last()
    game.step(policy(observation, info))
    observation, _, _, _, info = game.last()
    assert policy(observation, info) == game.layout.keep
    assert np.flatnonzero(observation["action_mask"])[0] == game.layout.keep
