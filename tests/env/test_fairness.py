"""Fairness is structural: a seat's observation is the same in every deal that differs only in cards it cannot see.

For random positions of random rule sets, the other seats' unseen cards (and the
undealt ones) are dealt again at random among the seats that may hold them, the
deal is rebuilt with the same public history, and the seat's observation,
information-state vector and text must not change, through the encoders and
through the PettingZoo environment itself.

With Magicians and Jesters, the same holds for everything a policy is given, byte for byte: for positions of every
preset with them, the worlds of :mod:`worlds` (a hidden Magician swapped between seats, the hidden cards dealt
again) give the agent to act the same observation and the same ``info``, which holds exactly ``action_mask`` and
``view`` (the Gymnasium environment adds ``seat``), never the game's number.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ohhell.bots.knowledge import read_view
from ohhell.bots.sampling import deal_hidden
from ohhell.cards import cards_of
from ohhell.env import InformationStateEncoding, ObservationEncoding, Table, bot_policy, raw_env
from ohhell.env.aec import OhHellEnv
from ohhell.env.encoding import describe
from ohhell.env.solo import SoloEnv
from ohhell.game import Game
from worlds import other_worlds, plain, positions, view_bytes

PRESETS_AND_TABLES = [("full", 4), ("traditional", 5), ("magicians", 4), ("up-and-down", 3), ("magicians", 6)]


def other_world(table: Table, seat: int, rng: random.Random) -> Table:
    """The same game, but this deal's cards unseen by ``seat`` dealt again; the same decisions replayed."""
    game = table.game
    view = table.view(seat)
    known = read_view(view)
    hidden = deal_hidden(known, rng)
    n = game.rules.players
    hands = [[*(view.hand if s == seat else hidden[s]), *known.played[s]] for s in range(n)]
    rebuilt = Game(game.rules, deal_cards=False, first_dealer=game.first_dealer)
    other = Table(rebuilt, table.layout)
    for index, deal in enumerate(game.deals):
        if index < len(game.deals) - 1:
            rebuilt.start_deal(deal.hands_dealt, deal.turn_up)
        else:
            rebuilt.start_deal(hands, deal.turn_up)
        other.deal_started()
        for _, action_id in table.log[index]:
            other.apply(action_id)
    return other


@pytest.mark.parametrize(("preset", "players"), PRESETS_AND_TABLES)
def test_an_observation_is_the_same_whatever_cards_the_others_hold(preset: str, players: int) -> None:
    rng = random.Random(f"{preset}{players}")
    env = raw_env(preset, players)
    encodings = (ObservationEncoding(env.rules), InformationStateEncoding(env.rules))
    changed = 0
    for game_number in range(6):
        env.reset(seed=game_number)
        for _ in range(rng.randrange(1, 120)):
            observation, *_ = env.last()
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert env.table is not None
        for seat, agent in enumerate(env.possible_agents):
            before = env.observe(agent)["observation"]
            original = env.table
            other = other_world(original, seat, rng)
            changed += other.game.deal.hands_dealt != original.game.deal.hands_dealt
            confirming = original.confirming == seat
            for encoding in encodings:
                assert np.array_equal(
                    encoding.encode(original.view(seat), confirming), encoding.encode(other.view(seat), confirming)
                )
            assert describe(original.view(seat), confirming) == describe(other.view(seat), confirming)
            if agent != env.agent_selection:  # the agent to act's view is cached from the real table
                env.table = other
                assert np.array_equal(env.observe(agent)["observation"], before)
                env.table = original
    assert changed > 0, "the other worlds never dealt the hidden cards differently"


def ints_in(value: object) -> set[int]:
    """Every whole number anywhere in ``value`` (lists, dicts and numbers, as :func:`worlds.plain` gives them)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return {n for item in value.values() for n in ints_in(item)}
    if isinstance(value, list) and len(value) == 2 and value[0] == "cards":  # a hand, as plain() gives its mask
        return set(cards_of(value[1]))  # its cards' numbers: a one-card hand's mask, 1 << 22, is no game number
    if isinstance(value, list):
        return {n for item in value for n in ints_in(item)}
    return set()


def given_to_policy(observation: dict[str, np.ndarray], info: dict[str, object], number: int | None) -> bytes:
    """What a policy is given at a decision, as bytes; checked on the way to hold no number of the game."""
    view = info["view"]
    assert number is None or number not in ints_in(plain([v for k, v in info.items() if k != "action_mask"]))
    assert "deal_number" not in info and not hasattr(view, "deal_number")
    parts = [observation["observation"].tobytes(), observation["action_mask"].tobytes()]
    parts += [info["action_mask"].tobytes(), view_bytes(view)]  # type: ignore[attr-defined, arg-type]
    parts += [repr(info[key]).encode() for key in sorted(info) if key not in ("action_mask", "view")]
    return b"|".join(parts)


def aec_at(game: Game) -> OhHellEnv:
    """The PettingZoo environment at ``game``'s position, its agent to act given its decision."""
    env = OhHellEnv(game.rules)
    env.reset(options={"number": 1})
    env.table = Table(game, env.layout)
    env._next_decision()  # the environment's own observation and info for the table set here
    return env


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 2**32))
def test_a_policy_is_given_the_same_in_every_deal_its_seat_cannot_tell_apart(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    seat = game.to_act
    env = aec_at(game)
    observation, _, _, _, info = env.last()
    assert set(info) == {"action_mask", "view"}
    given_now = given_to_policy(observation, info, game.number)
    policy_choice = bot_policy("normal", seed=0)(observation, info)
    solo = SoloEnv(game.rules.preset_name, game.rules.players, seat=seat, special_cards=True)
    solo.reset(seed=0)
    solo.table = Table(game, solo.layout)
    solo._play_others()  # the mask of the table set here; nobody else is to act
    solo_given = given_to_policy(*solo._outputs(), game.number)
    for world in other_worlds(game, seat, rng):
        env.table = Table(world, env.layout)
        env._next_decision()
        observation, _, _, _, info = env.last()
        assert given_to_policy(observation, info, world.number) == given_now
        assert bot_policy("normal", seed=0)(observation, info) == policy_choice
        solo.table = Table(world, solo.layout)
        solo._play_others()
        assert given_to_policy(*solo._outputs(), world.number) == solo_given
