"""The sentences of the table, in the words of seed 002."""

from __future__ import annotations

import pytest

from ohhell.cards import CardSet, parse_card
from ohhell.deal import Deal
from ohhell.errors import HookError, MustFollowSuitError
from ohhell.rules import Rules
from ohhell.server.table import wording
from ohhell.view import seat_view

NAMES = ["You", "West", "North", "East"]


def five_card_deal() -> Deal:
    """Seed 002's hook example: a 5-card hand, East (seat 3) deals; the first three bid 2, 0 and 2."""
    hands = [
        CardSet.parse("AS KS QS JS TS"),
        CardSet.parse("AH KH QH JH TH"),
        CardSet.parse("AD KD QD JD TD"),
        CardSet.parse("AC KC QC JC TC"),
    ]
    return Deal(Rules.preset("full", schedule=(5,)), hands, dealer=3, turn_up=parse_card("2H"))


def test_the_bar_says_4_bid_for_5_tricks() -> None:
    assert wording.bid_bar([2, 0, 2, None], 5) == "4 bid for 5 tricks"


def test_once_everyone_has_bid_the_bar_says_what_the_total_means() -> None:
    assert wording.bid_bar([2, 0, 2, 3], 5).endswith("more than the tricks, so someone will fall short")
    assert wording.bid_bar([1, 0, 1, 0], 5).endswith(
        "fewer than the tricks, so someone will take tricks they did not want"
    )
    assert wording.bid_bar([1, 1, 1, 2], 5).endswith("as many as the tricks, so everyone can make it")


def test_name_plates_say_needs_on_track_or_too_many_while_the_hand_is_played() -> None:
    assert wording.plate_line(2, 1) == "Bid 2 · won 1"
    assert [wording.plate_label(2, won) for won in (0, 1, 2, 3, 4)] == [
        "Needs 2 more",
        "Needs 1 more",
        "On track",
        "1 too many",
        "2 too many",
    ]
    assert wording.plate_label(0, 0) == "On track"  # a zero bid is made only when the hand is over
    assert wording.plate_line(None, 0) == "No bid yet"
    assert wording.plate_label(None, 0) is None


def test_name_plates_say_made_it_missed_by_or_too_many_once_the_hand_is_over() -> None:
    assert [wording.plate_label(2, won, over=True) for won in (0, 1, 2, 3)] == [
        "Missed by 2",
        "Missed by 1",
        "Made it",
        "1 too many",
    ]
    assert wording.plate_label(0, 0, over=True) == "Made it"
    assert wording.plate_label(0, 1, over=True) == "1 too many"


def test_a_hand_left_when_the_game_ended_has_no_labels() -> None:
    assert wording.plate_label(2, 1, abandoned=True) is None


def test_the_dealers_forbidden_bid_comes_with_a_sentence_saying_why() -> None:
    deal = five_card_deal()
    for n in (2, 0, 2):
        deal.bid(n)
    reason = wording.forbidden_reason(seat_view(deal, 3))
    assert reason is not None
    assert "may not bid 1" in reason
    assert "4 + 1 = 5" in reason
    assert wording.forbidden_reason(seat_view(deal, 0)) is None


def test_when_the_others_bid_more_than_the_tricks_no_reason_is_needed() -> None:
    deal = five_card_deal()
    for n in (3, 3, 0):
        deal.bid(n)
    assert wording.forbidden_reason(seat_view(deal, 3)) is None


def test_an_illegal_card_says_you_must_follow_the_suit_led() -> None:
    hands = [CardSet.parse("AS 2H"), CardSet.parse("KS QH"), CardSet.parse("3S 4D"), CardSet.parse("5C 6C")]
    deal = Deal(Rules.preset("full", schedule=(2,)), hands, dealer=3, turn_up=parse_card("9D"))
    for n in (1, 0, 0, 0):
        deal.bid(n)
    deal.play("AS")
    view = seat_view(deal, 1)
    assert wording.unplayable_reason(parse_card("QH"), view, deal.led_suit, NAMES) == "You must follow spades."
    with pytest.raises(MustFollowSuitError) as refused:
        deal.play("QH")
    assert wording.error_message(refused.value, view, deal.led_suit, NAMES) == "You must follow spades."
    assert wording.unplayable_reason(parse_card("AS"), seat_view(deal, 3), deal.led_suit, NAMES).startswith(
        "Wait for your turn"
    )


def test_a_refused_hook_bid_is_explained_to_the_dealer() -> None:
    deal = five_card_deal()
    for n in (2, 0, 2):
        deal.bid(n)
    with pytest.raises(HookError) as refused:
        deal.bid(1)
    assert "may not bid 1" in wording.error_message(refused.value, seat_view(deal, 3), None, NAMES)


def test_the_winners_share_a_tie() -> None:
    assert wording.result_text([1], [10, 20, 5, 0], 0, NAMES) == "West wins with 20 points."
    assert wording.result_text([0], [20, 10, 5, 0], 0, NAMES) == "You win with 20 points."
    assert wording.result_text([0, 2], [20, 10, 20, 0], 0, NAMES) == "Shared win: You and North, 20 points each."


def test_trump_is_named_with_the_turned_card() -> None:
    view = seat_view(five_card_deal(), 0)
    assert wording.trump_text(view) == "Trump: hearts (the 2 of hearts is turned up)"
