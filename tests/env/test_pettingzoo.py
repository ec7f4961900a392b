"""The PettingZoo AEC environment: PettingZoo's own API test on every preset, and the rules it must keep."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test.api_test import api_test

from ohhell.env import ActionLayout, env, raw_env
from ohhell.env.aec import OhHellEnv
from ohhell.errors import HookError, IllegalActionError
from ohhell.game import Game
from ohhell.rules import PRESETS, Rules

TABLE_SIZES = {name: (3, 5, 6) if rules.special_cards else (3, 5, 7) for name, rules in PRESETS.items()}
# PettingZoo warns of any dict observation not in its own list of environments, and of dict observation spaces.
DICT_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def play(game: OhHellEnv, rng: random.Random, steps: int | None = None) -> None:
    """Random legal actions (from the mask) until the game is over, or for ``steps`` decisions."""
    done = 0
    for _agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        if steps is not None and done == steps:
            return
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        done += 1


@pytest.mark.parametrize(
    ("preset", "players"), [(name, n) for name, sizes in TABLE_SIZES.items() for n in sizes], ids=str
)
def test_pettingzoo_api_test_passes(preset: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(preset, players), num_cycles=1000)  # type: ignore[no-untyped-call]
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(DICT_WARNINGS)]
    assert unexpected == []


@pytest.mark.parametrize("preset", ["full", "traditional", "magicians"])
def test_pettingzoo_api_test_passes_with_the_information_state_encoding(preset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(preset, 4, encoding="information-state", schedule=(3, 2)), num_cycles=200)  # type: ignore[no-untyped-call]


def observations(seed: int | None, options: dict[str, Any] | None = None, steps: int = 60) -> list[np.ndarray]:
    game = raw_env("short", 4)
    game.reset(seed=seed, options=options)
    rng = random.Random(0)
    seen = []
    for _ in range(steps):
        observation, *_ = game.last()
        seen.append(observation["observation"])
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return seen


def test_reset_with_a_seed_is_deterministic() -> None:
    first, again, other = observations(7), observations(7), observations(8)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_reset_deals_the_cards_of_the_game_number() -> None:
    game = raw_env("full", 5)
    game.reset(options={"number": 123456})
    expected = Game(Rules.preset("full", players=5), number=123456)
    assert game.deal_number == 123456
    assert game.table is not None and game.table.game.deal.hands_dealt == expected.deal.hands_dealt
    assert game.agent_selection == f"player_{expected.to_act}"
    assert set(game.infos[game.agent_selection]) == {"action_mask", "view"}  # never the number: it tells every hand


def test_the_seed_fixes_the_number_and_successive_resets_draw_new_ones() -> None:
    game = raw_env("short", 3)
    game.reset(seed=3)
    first = game.deal_number
    game.reset()
    second = game.deal_number
    game.reset(seed=3)
    assert game.deal_number == first != second


@pytest.mark.parametrize("preset", ["full", "up-and-down", "magicians"])
def test_deal_rewards_add_up_to_the_totals(preset: str) -> None:
    game = raw_env(preset, 4)
    game.reset(seed=11)
    received = dict.fromkeys(game.possible_agents, 0.0)
    rng = random.Random(1)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        received[agent] += reward
        if terminated or truncated:
            assert info["totals"] == tuple(game.table.game.totals) if game.table else False
            game.step(None)
            continue
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert game.table is not None
    assert [received[a] for a in game.possible_agents] == [float(t) for t in game.table.game.totals]


def test_game_rewards_come_once_at_the_end() -> None:
    game = raw_env("short", 3, rewards="game")
    game.reset(seed=2)
    rng = random.Random(2)
    rewards_before_end = []
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        rewards_before_end.append(reward)
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if not game.terminations[agent]:
            assert all(r == 0 for r in game.rewards.values())
    assert game.table is not None and game.table.is_over
    assert set(rewards_before_end) == {0.0}


def test_an_illegal_action_raises_naming_the_rule_and_changes_nothing() -> None:
    game = raw_env("full", 4, schedule=(2,))
    game.reset(seed=5)
    for _ in range(3):
        game.step(52 + 0)  # three bids of 0: the dealer may not bid 2
    assert game.table is not None and game.table.game.deal.forbidden_bid() == 2
    forbidden = 2
    before = game.last()[0]["observation"].copy()
    with pytest.raises(HookError, match="may not bid"):
        game.step(52 + forbidden)
    with pytest.raises(IllegalActionError):
        game.step(0 if not game.last()[0]["action_mask"][0] else 1)  # a card during the bidding
    assert np.array_equal(game.last()[0]["observation"], before)


def test_an_illegal_action_can_end_the_game_with_a_penalty_instead() -> None:
    game = raw_env("short", 3, illegal_reward=-50.0)
    game.reset(seed=5)
    offender = game.agent_selection
    mask = game.last()[0]["action_mask"]
    game.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(game.terminations.values())
    assert game.rewards[offender] == -50.0
    assert game.infos[offender]["illegal_action"] is True


def test_the_mask_is_in_the_observation_and_in_info_and_the_view_is_the_agents_own() -> None:
    game = raw_env("magicians", 5)
    game.reset(seed=9)
    rng = random.Random(9)
    for _ in range(40):
        observation, _, _, _, info = game.last()
        assert np.array_equal(observation["action_mask"], info["action_mask"])
        assert info["view"].seat == int(game.agent_selection.split("_")[1])
        assert game.table is not None
        assert sorted(np.flatnonzero(info["action_mask"]).tolist()) == game.table.legal_ids()
        for other in game.agents:
            if other != game.agent_selection:
                assert not game.observe(other)["action_mask"].any()
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_under_until_next_a_bid_is_kept_or_changed_right_after_it_is_made() -> None:
    game = raw_env("traditional", 4, schedule=(3,))
    game.reset(seed=4)
    layout = ActionLayout.of(game.rules)
    assert layout.keep is not None and layout.change_base is not None
    bidder = game.agent_selection
    game.step(52 + 1)
    observation, _, _, _, _info = game.last()
    assert game.agent_selection == bidder
    legal = np.flatnonzero(observation["action_mask"]).tolist()
    assert legal == [layout.keep, layout.change_base + 0, layout.change_base + 2, layout.change_base + 3]
    assert game.encoding.split(observation["observation"])["phase"].tolist() == [0, 0, 1, 0, 0]
    game.step(layout.change_base + 2)
    assert game.agent_selection != bidder
    assert game.table is not None and game.table.game.deal.bids[int(bidder[-1])] == 2
    assert game.table.game.deal.action_log()[-1].endswith("change 2")


def test_a_turned_magician_makes_the_dealer_name_trump() -> None:
    for number in range(1, 400):
        game = raw_env("magicians", 3, schedule=(5,))
        game.reset(options={"number": number})
        assert game.table is not None
        if game.table.game.deal.phase_name == "choosing-trump":
            break
    else:
        pytest.fail("no turned Magician in 400 deals")
    observation, *_ = game.last()
    layout = game.layout
    assert np.flatnonzero(observation["action_mask"]).tolist() == list(layout.trump_ids)
    assert game.agent_selection == f"player_{game.table.game.deal.dealer}"
    game.step(layout.trump_ids[3])  # hearts
    assert game.table.game.deal.trump == 1


def test_render_shows_every_hand() -> None:
    game = raw_env("short", 3, render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert text is not None and text.count("seat ") == 3 and "trump" in text
