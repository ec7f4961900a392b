"""Fairness is structural: a seat's observation is the same in every deal that differs only in cards it cannot see.

For random positions of random rule sets, the other seats' unseen cards (and the
undealt ones) are dealt again at random among the seats that may hold them, the
deal is rebuilt with the same public history, and the seat's observation,
information-state vector and text must not change, through the encoders and
through the PettingZoo environment itself.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ohhell.bots.knowledge import read_view
from ohhell.bots.sampling import deal_hidden
from ohhell.env import InformationStateEncoding, ObservationEncoding, Table, raw_env
from ohhell.env.encoding import describe
from ohhell.game import Game

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
