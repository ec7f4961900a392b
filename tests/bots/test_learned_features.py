"""What the learned player's networks read: the same numbers in every world a seat cannot tell apart."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from ohhell.actions import BID_BASE
from ohhell.bots.base import playable
from ohhell.bots.knowledge import read_view
from ohhell.bots.learned.features import CARD_BLOCK, INPUT_SIZE, STATE_SIZE, Reading, card_slot, suit_order
from ohhell.cards import FIRST_JESTER, FIRST_MAGICIAN, SPADES, parse_card
from ohhell.game import Game
from ohhell.rules import PRESETS, Rules
from ohhell.view import SeatView
from worlds import other_worlds, positions


def inputs(view: SeatView) -> NDArray[np.float32]:
    """Every row the networks would read at this view's decision (the state alone when it is not the seat's turn)."""
    reading = Reading(view, read_view(view))
    if view.to_act != view.seat or not view.legal_actions or view.phase not in ("bidding", "playing"):
        return reading.state
    actions = playable(view)
    if view.phase == "bidding":
        return reading.bid_block([a - BID_BASE for a in actions])[0]
    return reading.card_block(actions)[0]


def test_trump_is_always_suit_zero_and_the_others_keep_their_order() -> None:
    assert suit_order(None)[:4] == (0, 1, 2, 3)
    assert suit_order(2)[:4] == (1, 2, 0, 3)
    assert card_slot(parse_card("AD"), suit_order(2)) == 12
    assert card_slot(parse_card("2S"), suit_order(2)) == 13
    assert card_slot(FIRST_MAGICIAN, suit_order(SPADES)) == 52
    assert card_slot(FIRST_JESTER + 3, suit_order(SPADES)) == 53


def test_the_inputs_have_one_shape_under_every_preset_and_number_of_players() -> None:
    rng = random.Random(5)
    for name in sorted(PRESETS):
        for players in (3, 5, 6):
            game = Game(Rules.preset(name, players=players), number=rng.randrange(10**9))
            view = game.view(game.to_act)
            rows = inputs(view)
            assert rows.ndim == 2
            assert rows.shape[1] == INPUT_SIZE
            assert np.isfinite(rows).all()
            assert rows[0, :CARD_BLOCK].sum() > 0  # the hand is there


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 2**32))
def test_what_the_networks_read_is_the_same_in_every_world_the_seat_cannot_tell_apart(game: Game, seed: int) -> None:
    for seat in {game.to_act, (game.to_act + 1) % game.rules.players}:
        before = inputs(game.view(seat))
        for world in other_worlds(game, seat, random.Random(seed)):
            after = inputs(world.view(seat))
            assert after.shape == before.shape
            assert np.array_equal(after, before)
            assert np.array_equal(after[..., :STATE_SIZE], before[..., :STATE_SIZE])
