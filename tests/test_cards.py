"""Cards, their two-character text and :class:`CardSet` (RULES.md "Table and cards")."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable

import pytest

from ohhell.cards import (
    CLUBS,
    DIAMONDS,
    FIRST_JESTER,
    FIRST_MAGICIAN,
    FULL_PACK,
    HEARTS,
    JESTER_SUIT,
    JESTERS,
    MAGICIAN_SUIT,
    MAGICIANS,
    RANK_OF,
    SPADES,
    STANDARD_PACK,
    SUIT_OF,
    CardError,
    CardSet,
    add_card,
    card_name,
    card_text,
    cards_of,
    distinct_cards_of,
    first_card,
    parse_card,
    parse_suit,
    suit_text,
)
from ohhell.errors import OhHellError, RecordError

RANKS_HIGH_TO_LOW = "AKQJT98765432"


# ----------------------------------------------------------------- card text


def test_card_text_is_rank_then_suit_for_the_52_suited_cards() -> None:
    texts = [card_text(c) for c in range(52)]
    assert len(set(texts)) == 52
    assert {t[1] for t in texts} == set("SHDC")
    assert {t[0] for t in texts} == set(RANKS_HIGH_TO_LOW)
    assert (card_text(0), card_text(12), card_text(13 + 8), card_text(39), card_text(51)) == (
        "2S",
        "AS",
        "TH",
        "2C",
        "AC",
    )


def test_parse_card_and_card_text_are_exact_inverses_for_every_suited_card() -> None:
    for card in range(52):
        assert parse_card(card_text(card)) == card
    for rank in RANKS_HIGH_TO_LOW:
        for suit in "SHDC":
            assert card_text(parse_card(rank + suit)) == rank + suit


def test_special_cards_have_the_text_mg_and_je_and_parse_to_the_first_copy() -> None:
    """RULES.md: copies of a kind are interchangeable, so all four share one text."""
    assert [card_text(c) for c in MAGICIANS] == ["MG"] * 4
    assert [card_text(c) for c in JESTERS] == ["JE"] * 4
    assert parse_card("MG") == FIRST_MAGICIAN
    assert parse_card("JE") == FIRST_JESTER
    for card in range(60):
        assert card_text(parse_card(card_text(card))) == card_text(card)


def test_every_one_of_the_60_cards_round_trips_to_its_kind() -> None:
    for card in range(60):
        parsed = parse_card(card_text(card))
        assert parsed == card if card < 52 else SUIT_OF[parsed] == SUIT_OF[card]


@pytest.mark.parametrize(("text", "expected"), [("10H", "TH"), ("10s", "TS"), ("10D", "TD"), ("10c", "TC")])
def test_ten_is_accepted_as_10_on_input_and_written_as_t(text: str, expected: str) -> None:
    assert card_text(parse_card(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [("as", "AS"), (" qh ", "QH"), ("mg", "MG"), ("je", "JE"), ("Td", "TD")])
def test_card_text_is_case_insensitive_and_ignores_surrounding_space(text: str, expected: str) -> None:
    assert card_text(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", " ", "A", "AX", "1H", "11H", "10", "100H", "ASS", "ZS", "S A", "M G", "JK", "♠A"])
def test_text_that_is_not_a_card_is_refused_with_a_message_quoting_it(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert repr(text) in str(info.value)
    assert "rank then suit" in str(info.value)


def test_card_errors_are_record_errors_under_value_error() -> None:
    with pytest.raises(CardError) as info:
        parse_card("XX")
    assert isinstance(info.value, RecordError)
    assert isinstance(info.value, OhHellError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("number", [-1, 60, 100])
def test_card_numbers_outside_0_to_59_have_no_text(number: int) -> None:
    with pytest.raises(CardError, match="not a card number"):
        card_text(number)


def test_card_names_are_words_for_people() -> None:
    assert card_name(parse_card("AS")) == "ace of spades"
    assert card_name(parse_card("TH")) == "10 of hearts"
    assert card_name(parse_card("2C")) == "2 of clubs"
    assert card_name(parse_card("JD")) == "jack of diamonds"
    assert card_name(FIRST_MAGICIAN + 3) == "Magician"
    assert card_name(FIRST_JESTER + 1) == "Jester"


# ----------------------------------------------------------------- suits and ranks


def test_suits_are_spades_hearts_diamonds_clubs() -> None:
    assert [parse_suit(s) for s in "SHDC"] == [SPADES, HEARTS, DIAMONDS, CLUBS]
    assert parse_suit(" h ") == HEARTS
    assert [suit_text(s) for s in (SPADES, HEARTS, DIAMONDS, CLUBS)] == ["S", "H", "D", "C"]
    assert suit_text(None) is None


@pytest.mark.parametrize("text", ["", "X", "SH", "NT", "spades"])
def test_text_that_is_not_a_suit_is_refused(text: str) -> None:
    with pytest.raises(CardError, match="is not a suit"):
        parse_suit(text)


def test_ace_is_high_and_a_higher_card_of_a_suit_is_a_higher_int() -> None:
    """RULES.md: Ace high, A K Q J T 9 8 7 6 5 4 3 2."""
    for suit in "SHDC":
        cards = [parse_card(rank + suit) for rank in RANKS_HIGH_TO_LOW]
        assert cards == sorted(cards, reverse=True)
        assert [RANK_OF[c] for c in cards] == list(range(12, -1, -1))


def test_special_cards_have_their_own_pseudo_suits_and_draw_ranks() -> None:
    assert all(SUIT_OF[c] == MAGICIAN_SUIT for c in MAGICIANS)
    assert all(SUIT_OF[c] == JESTER_SUIT for c in JESTERS)
    assert all(RANK_OF[c] > RANK_OF[parse_card("AS")] for c in MAGICIANS)
    assert all(RANK_OF[c] < RANK_OF[parse_card("2S")] for c in JESTERS)


# ----------------------------------------------------------------- CardSet


def test_cardset_parse_accepts_spaces_commas_and_lists() -> None:
    expected = CardSet([parse_card("AS"), parse_card("TH"), parse_card("2C")])
    assert CardSet.parse("AS 10H 2C") == expected
    assert CardSet.parse("AS,TH,2C") == expected
    assert CardSet.parse(["2C", "AS", "TH"]) == expected
    assert CardSet(expected.mask) == expected


def test_cardset_is_sorted_by_suit_high_to_low_then_magicians_then_jesters() -> None:
    cards = CardSet.parse("JE 2C MG 3H AS AH KS 9D MG")
    assert cards.texts() == ["AS", "KS", "AH", "3H", "9D", "2C", "MG", "MG", "JE"]
    assert str(cards) == "AS KS AH 3H 9D 2C MG MG JE"
    assert list(cards) == cards.sorted()


def test_cardset_repr_pastes_back_into_python() -> None:
    cards = CardSet.parse("KH QH MG JE")
    assert repr(cards) == "CardSet.parse('KH QH MG JE')"
    assert eval(repr(cards)) == cards


def test_cardset_set_operations() -> None:
    a = CardSet.parse("AS KS QS")
    b = CardSet.parse("QS JS")
    assert a | b == CardSet.parse("AS KS QS JS")
    assert a & b == CardSet.parse("QS")
    assert a - b == CardSet.parse("AS KS")
    assert b - a == CardSet.parse("JS")
    assert (a - a) == CardSet()
    assert not CardSet()
    assert a
    assert len(a) == 3
    assert len(CardSet()) == 0


def test_cardset_membership_by_card_and_by_text() -> None:
    hand = CardSet.parse("AS TH")
    assert parse_card("AS") in hand
    assert "10H" in hand
    assert "th" in hand
    assert "2C" not in hand
    assert 60 not in hand
    assert -1 not in hand
    assert None not in hand


def test_cardset_equality_and_hash_follow_the_cards() -> None:
    assert CardSet.parse("AS KH") == CardSet.parse("KH AS")
    assert hash(CardSet.parse("AS KH")) == hash(CardSet.parse("KH AS"))
    assert CardSet.parse("AS") != CardSet.parse("KS")
    assert CardSet.parse("AS") != "AS"
    assert len({CardSet.parse("AS KH"), CardSet.parse("KH AS")}) == 1


def test_cardset_of_suit() -> None:
    hand = CardSet.parse("AS 2S KH MG 3C")
    assert hand.of_suit(SPADES) == CardSet.parse("AS 2S")
    assert hand.of_suit(HEARTS) == CardSet.parse("KH")
    assert hand.of_suit(DIAMONDS) == CardSet()
    assert hand.of_suit(CLUBS) == CardSet.parse("3C")


def test_cardset_is_immutable() -> None:
    hand = CardSet.parse("AS")
    with pytest.raises(AttributeError, match="immutable"):
        hand.mask = 0


@pytest.mark.parametrize("duplicate", [copy.copy, copy.deepcopy, lambda c: pickle.loads(pickle.dumps(c))])
def test_cardset_can_be_copied_and_pickled(duplicate: Callable[[CardSet], CardSet]) -> None:
    hand = CardSet.parse("AS MG")
    assert duplicate(hand) == hand


def test_cardset_parse_refuses_bad_text() -> None:
    with pytest.raises(CardError, match="'ZZ'"):
        CardSet.parse("AS ZZ")


def test_the_packs_hold_52_and_60_cards() -> None:
    assert len(CardSet(STANDARD_PACK)) == 52
    assert len(CardSet(FULL_PACK)) == 60
    assert cards_of(FULL_PACK) == list(range(60))
    assert CardSet(FULL_PACK).texts().count("MG") == 4
    assert CardSet(FULL_PACK).texts().count("JE") == 4


# ----------------------------------------------------------------- Magician and Jester copies


def test_each_mg_or_je_takes_the_next_free_copy() -> None:
    cards = CardSet.parse("MG MG JE MG")
    assert cards_of(cards.mask) == [52, 53, 54, 56]
    assert len(cards) == 4
    assert add_card(0, FIRST_MAGICIAN + 2) == 1 << FIRST_MAGICIAN
    assert add_card(1 << FIRST_JESTER, FIRST_JESTER) == 0b11 << FIRST_JESTER


def test_a_fifth_magician_or_jester_is_refused() -> None:
    with pytest.raises(CardError, match="only four Magicians"):
        CardSet.parse("MG MG MG MG MG")
    with pytest.raises(CardError, match="only four Jesters"):
        CardSet.parse("JE JE JE JE JE")


def test_membership_of_mg_or_je_text_means_any_copy() -> None:
    hand = CardSet(1 << (FIRST_MAGICIAN + 2) | 1 << (FIRST_JESTER + 3))
    assert "MG" in hand
    assert "JE" in hand
    assert FIRST_MAGICIAN not in hand
    assert FIRST_MAGICIAN + 2 in hand


def test_a_cardset_built_from_cards_takes_the_first_free_copies() -> None:
    assert CardSet([FIRST_MAGICIAN + 2, FIRST_JESTER + 3]).mask == 1 << FIRST_MAGICIAN | 1 << FIRST_JESTER


def test_distinct_cards_list_one_copy_per_kind() -> None:
    mask = CardSet.parse("AS MG MG JE JE JE").mask
    assert cards_of(mask) == [12, 52, 53, 56, 57, 58]
    assert distinct_cards_of(mask) == [12, 52, 56]
    assert distinct_cards_of(1 << 54) == [54]


def test_first_card_is_the_lowest_card_of_a_mask() -> None:
    assert first_card(CardSet.parse("AS 3S JE").mask) == parse_card("3S")
    assert first_card(1 << 57 | 1 << 59) == 57
