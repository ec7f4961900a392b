"""Actions as small ints with a text form and its exact inverse."""

from __future__ import annotations

import pytest

from ohhell.actions import (
    BID_BASE,
    CHANGE_BASE,
    MAX_BID,
    TRUMP_BASE,
    action_text,
    argument_of,
    bid,
    change,
    choose_trump,
    parse_action,
    play,
    verb_of,
)
from ohhell.cards import FIRST_JESTER, FIRST_MAGICIAN, HEARTS, CardError, parse_card
from ohhell.errors import BidOutOfRangeError, RecordError

CANONICAL_ACTIONS = [
    *range(52),
    FIRST_MAGICIAN,
    FIRST_JESTER,
    *(bid(n) for n in range(MAX_BID + 1)),
    *(change(n) for n in range(MAX_BID + 1)),
    *(choose_trump(s) for s in range(4)),
]


def test_the_encoding_of_each_verb() -> None:
    assert play(parse_card("AS")) == 12
    assert bid(0) == BID_BASE == 64
    assert bid(3) == 67
    assert change(1) == CHANGE_BASE + 1 == 97
    assert choose_trump(HEARTS) == TRUMP_BASE + 1 == 129


def test_action_text_and_parse_action_are_exact_inverses() -> None:
    texts = [action_text(a) for a in CANONICAL_ACTIONS]
    assert len(set(texts)) == len(CANONICAL_ACTIONS)
    for action, text in zip(CANONICAL_ACTIONS, texts, strict=True):
        assert parse_action(text) == action
        assert action_text(parse_action(text)) == text


@pytest.mark.parametrize(
    ("action", "text"),
    [(parse_card("AS"), "play AS"), (bid(2), "bid 2"), (change(1), "change 1"), (choose_trump(HEARTS), "trump H")],
)
def test_action_text_is_a_verb_and_its_argument(action: int, text: str) -> None:
    assert action_text(action) == text


def test_playing_any_copy_of_a_special_card_reads_as_its_kind() -> None:
    assert [action_text(c) for c in range(FIRST_MAGICIAN, 60)] == ["play MG"] * 4 + ["play JE"] * 4
    assert parse_action("play MG") == FIRST_MAGICIAN
    assert parse_action("play JE") == FIRST_JESTER


def test_play_accepts_10_for_ten() -> None:
    assert action_text(parse_action("play 10H")) == "play TH"


def test_verb_and_argument_of_each_action() -> None:
    assert [verb_of(a) for a in (5, bid(2), change(3), choose_trump(2))] == ["play", "bid", "change", "trump"]
    assert [argument_of(a) for a in (5, bid(2), change(3), choose_trump(2))] == [5, 2, 3, 2]


@pytest.mark.parametrize("number", [-1, 60, 63, TRUMP_BASE + 4, 1000])
def test_numbers_that_are_no_action_are_refused(number: int) -> None:
    with pytest.raises(RecordError, match="is not an action number"):
        verb_of(number)


@pytest.mark.parametrize("text", ["", "bid", "bid 1 2", "play", "jump 2", "Bid 2"])
def test_text_that_is_no_action_is_refused(text: str) -> None:
    with pytest.raises(RecordError):
        parse_action(text)


def test_an_unknown_verb_is_refused_naming_the_verbs() -> None:
    with pytest.raises(RecordError, match="unknown verb 'jump'; the verbs are bid, change, trump, play"):
        parse_action("jump 2")


def test_a_bid_that_is_not_a_number_is_refused() -> None:
    with pytest.raises(RecordError, match="a bid needs a whole number, not 'two'"):
        parse_action("bid two")
    with pytest.raises(RecordError, match="a change needs a whole number"):
        parse_action("change 1.5")


@pytest.mark.parametrize("text", ["bid -1", "change -3", f"bid {MAX_BID + 1}", "change 99"])
def test_a_bid_outside_the_encodable_range_is_refused(text: str) -> None:
    with pytest.raises(BidOutOfRangeError, match="out of range"):
        parse_action(text)


def test_a_bad_card_or_suit_is_a_card_error() -> None:
    with pytest.raises(CardError, match="'ZZ' is not a card"):
        parse_action("play ZZ")
    with pytest.raises(CardError, match="'X' is not a suit"):
        parse_action("trump X")
