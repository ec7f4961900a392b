"""The Gymnasium environment: Gymnasium's own checker, and one seat's game against our players."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from ohhell.bots import Budget
from ohhell.env import SoloEnv
from ohhell.env.encoding import total_range
from ohhell.errors import IllegalActionError
from ohhell.rules import Rules


@pytest.mark.parametrize(
    ("preset", "players", "levels"),
    [
        ("full", 4, "normal"),
        ("traditional", 3, ["easy", "random"]),
        ("magicians", 5, "easy"),
        ("up-and-down", 7, "easy"),
    ],
)
def test_gymnasium_check_env_passes(preset: str, players: int, levels: str | list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(SoloEnv(preset, players, levels=levels, schedule=(3, 2)), skip_render_check=True)


def test_gymnasium_make_and_its_render_check() -> None:
    made = gymnasium.make("ohhell/Solo-v0", preset="short", players=4, levels="easy", render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(made.unwrapped)


def run(env: SoloEnv, seed: int) -> tuple[float, dict[str, object]]:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    terminated = False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        total += reward
    return total, info


def test_an_episode_is_a_game_and_the_rewards_add_up_to_our_total() -> None:
    env = SoloEnv("short", 4, levels=["easy", "normal", "hard"], budget=Budget(iterations=30), seat=2)
    total, info = run(env, 3)
    assert info["seat"] == 2
    totals = info["totals"]
    assert isinstance(totals, tuple) and total == totals[2]
    assert env.table is not None and env.table.is_over


def test_game_rewards_are_the_total_at_the_end() -> None:
    env = SoloEnv("short", 3, levels="easy", rewards="game", seat=None)
    total, info = run(env, 5)
    totals = info["totals"]
    assert isinstance(totals, tuple) and total == totals[int(str(info["seat"]))]


def test_the_same_seed_replays_the_same_game() -> None:
    env = SoloEnv("full", 4, levels="normal", schedule=(5, 4))
    first_total, first_info = run(env, 21)
    assert env.table is not None
    first_number = env.table.game.number
    total, info = run(env, 21)
    assert (total, info["totals"], env.table.game.number) == (first_total, first_info["totals"], first_number)
    assert info["view"] == first_info["view"]  # the last deal's every action, the same


def test_an_illegal_action_ends_the_episode_below_any_score() -> None:
    env = SoloEnv("magicians", 4, levels="easy")
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and info["illegal_action"] is True
    assert reward == total_range(Rules.preset("magicians"))[0] - 1
    strict = SoloEnv("magicians", 4, levels="easy", illegal_reward=None)
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_levels_must_match_the_table() -> None:
    with pytest.raises(ValueError, match="give one level, or 3 levels"):
        SoloEnv("full", 4, levels=["easy", "hard"])
