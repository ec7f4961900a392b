"""Play-outs in sampled worlds: the table-reading card rule and the exact endgame."""

from __future__ import annotations

import random

from botkit import act, deal_of

from ohhell.bots.playout import Playout, plays, world_card
from ohhell.cards import parse_card


def test_a_seat_wanting_the_trick_plays_the_cheapest_card_that_surely_wins() -> None:
    # Seat 0 (bid 1) leads; hearts are trump. Its KS wins only if nobody after holds the AS: seat 2 does.
    # Its QC is the top club left in play (AC, KC gone to nobody: they are undealt), so the QC is a sure winner.
    deal = deal_of(["KS QC 2D", "3S 4C 3D", "AS 5C 4D", "6S 6C 5D"], dealer=3, turn_up="2H")
    act(deal, "bid 1", "bid 0", "bid 1", "bid 0")
    assert world_card(deal, 0, plays(deal)) == parse_card("QC")


def test_a_seat_avoiding_the_trick_sheds_its_highest_sure_loser() -> None:
    # Seat 1 bid 0; the KS is winning. Its QS and 9S both lose to it; the QS is the more dangerous to keep.
    deal = deal_of(["KS 2C 2D", "QS 9S 3D", "AS 5C 4D", "6S 6C 5D"], dealer=3, turn_up="2H")
    act(deal, "bid 1", "bid 0", "bid 1", "bid 0", "play KS")
    assert world_card(deal, 1, plays(deal)) == parse_card("QS")


def test_a_card_another_seat_must_overtake_counts_as_a_loser() -> None:
    # Seat 0 bid 0 and leads; hearts are trump. Seat 1 bid 0 too, but its only spade is the 9S: a led 5S is
    # overtaken whatever seat 1 wants. The 2D would stand (no diamonds elsewhere, and nobody wants to trump it).
    deal = deal_of(["5S 2D 3C", "9S 8C 9C", "7H 5C 4C", "6C 7C TC"], dealer=3, turn_up="2H")
    act(deal, "bid 0", "bid 0", "bid 0", "bid 0")
    assert world_card(deal, 0, plays(deal)) == parse_card("5S")


def test_a_playout_finishes_the_deal_and_respects_the_rules() -> None:
    for number in range(10):
        hands = ["AS KS 2H 3D", "QS JS 4H 5D", "TS 9S 6H 7D", "8S 7S 8H 9D"]
        deal = deal_of(hands, dealer=number % 4, turn_up="2C")
        Playout(seat=0, noise=0.3, rng=random.Random(number)).finish(deal)
        assert deal.is_over
        assert sum(deal.tricks_won) == 4
