"""The sheet and the engine agree: the same dealers, trumps, allowed bids and points, for any valid rules."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import deal_numbers, valid_rules
from ohhell.actions import BID_BASE
from ohhell.game import Game
from ohhell.keeper.sheet import ScoreSheet
from ohhell.keeper.trump import TrumpCall
from ohhell.rules import Rules

from .helpers import StepClock, trump_typed


@settings(max_examples=60, deadline=None)
@given(rules=valid_rules(short_schedules=True, bid_changes="final"), number=deal_numbers, seed=st.integers(0, 99))
def test_a_game_the_engine_plays_keeps_the_same_score_on_a_sheet(rules: Rules, number: int, seed: int) -> None:
    """At every bid the sheet allows exactly the engine's legal bids; every deal scores the engine's points."""
    game = Game(rules, number=number)
    rng = random.Random(seed)
    sheet = ScoreSheet(
        rules, [f"P{s}" for s in range(rules.players)], clock=StepClock(), first_dealer=game.first_dealer
    )
    while not game.is_over:
        deal, index = game.deal, game.deal_index
        assert (sheet.current, sheet.dealer_of(index), sheet.cards_of(index)) == (
            index,
            deal.dealer,
            deal.size,
        )
        if deal.phase_name == "choosing-trump":
            game.apply(rng.choice(game.legal_actions()))
        typed = trump_typed(rules, deal.turn_up, deal.trump)
        if typed is None:
            assert sheet.phase == "bids"
        else:
            sheet.enter_trump(typed)
        trump = sheet.rows[index].trump
        assert trump is not None
        assert trump.suit == deal.trump
        while deal.phase_name == "bidding":
            legal = sorted(a - BID_BASE for a in game.legal_actions())
            assert (sheet.next_bidder, list(sheet.allowed_bids)) == (deal.to_act, legal)
            bid = rng.choice(legal)
            game.bid(bid)
            sheet.enter_bid(bid)
        while not deal.is_over:
            game.apply(rng.choice(game.legal_actions()))
        sheet.enter_tricks(deal.tricks_won)
        assert sheet.rows[index].points == tuple(deal.points or ())
    assert list(sheet.totals) == game.totals
    assert list(sheet.winners or ()) == game.winners


@settings(max_examples=40, deadline=None)
@given(rules=valid_rules(short_schedules=True), first_dealer=st.integers(0, 6))
def test_the_rules_fixed_trump_is_the_rotation_step_or_none_when_every_card_is_dealt(
    rules: Rules, first_dealer: int
) -> None:
    sheet = ScoreSheet(
        rules, [f"P{s}" for s in range(rules.players)], clock=StepClock(), first_dealer=first_dealer % rules.players
    )
    for index, cards in enumerate(rules.hand_sizes):
        ruled = sheet.ruled_trump(index)
        if not rules.turns_up_trump:
            assert ruled == TrumpCall(rules.rotation_trump(index))
        elif cards * rules.players == rules.pack_size:
            assert ruled == TrumpCall(None)
        else:
            assert ruled is None
        assert sheet.dealer_of(index) == (first_dealer % rules.players + index) % rules.players
