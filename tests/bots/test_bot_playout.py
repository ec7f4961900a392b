"""Play-outs in sampled worlds: the rule of thumb for every seat, noise for the others, the exact endgame."""

from __future__ import annotations

import random

from botkit import act, deal_of

from ohhell.bots.playout import Playout
from ohhell.cards import parse_card


def test_a_playout_finishes_the_deal_under_the_rules() -> None:
    for number in range(10):
        hands = ["AS KS 2H 3D", "QS JS 4H 5D", "TS 9S 6H 7D", "8S 7S 8H 9D"]
        deal = deal_of(hands, dealer=number % 4, turn_up="2C")
        Playout(seat=0, noise=0.3, rng=random.Random(number)).finish(deal)
        assert deal.is_over
        assert sum(deal.tricks_won) == 4
        assert all(b >= 0 for b in deal.bids)


def test_the_searching_seat_never_plays_at_random() -> None:
    # With noise 1 every other seat plays at random, but seat 1, the searching seat, keeps to the rule of thumb:
    # it bid 0 and the KS is led, so it gets under with the 2S (the AS would win), every time.
    for number in range(20):
        deal = deal_of(["KS 3D 4D", "AS 2S 5D", "QS 6D 7D", "JS 8D 9D"], dealer=3, turn_up="2H")
        act(deal, "bid 1", "bid 0", "bid 0", "bid 0", "play KS")
        Playout(seat=1, noise=1.0, rng=random.Random(number)).finish(deal)
        assert deal.tricks[0].cards[1] == parse_card("2S")


def test_the_last_two_tricks_are_played_to_each_seats_best() -> None:
    # Two tricks left, hearts trump, seat 0 (bid 1) leads holding AS 2D. Leading the AS takes a trick, then the 2D
    # loses to seat 1's last diamond: exactly 1. Leading the 2D first loses it, and seat 1 then leads a diamond,
    # on which the AS is worthless: 0. Solved exactly, seat 0 makes its bid.
    deal = deal_of(["AS 2D", "3D 4D", "5C 6C", "7C 8C"], dealer=3, turn_up="2H", hook=False)
    act(deal, "bid 1", "bid 1", "bid 0", "bid 0")
    Playout(seat=0, noise=0.0, rng=random.Random(0)).finish(deal)
    assert deal.tricks[0].cards[0] == parse_card("AS")
    assert deal.tricks_won[0] == 1
