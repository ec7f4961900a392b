"""Deal numbers: golden shuffles, first dealers and draws, determinism, and independence from :mod:`random`.

The literal values below were computed once with the engine and written in by hand: any change to the
shuffle, however small, breaks "Replay this deal" and shared numbers, and must fail here first.
"""

from __future__ import annotations

import itertools
import random
from typing import NoReturn

import pytest

from ohhell.cards import RANK_OF, card_text, parse_card
from ohhell.deal import deal_from_pack
from ohhell.dealnumbers import (
    MAX_DEAL_NUMBER,
    check_deal_number,
    draw_for_deal,
    new_deal_number,
    random_first_dealer,
    shuffled_pack,
)
from ohhell.game import Game
from ohhell.rules import Rules

# ----------------------------------------------------------------- golden shuffles


@pytest.mark.parametrize(
    ("number", "players", "deal_index", "pack"),
    [
        (
            1,
            4,
            0,
            "JS AH KD QC 8S 9D TH AD 3S 8D 3C 8C 6D AC 7S QH 6S 2D 5S 5H 5D 7C 6C 9C KC JC "
            "KS JD TC 2H QD 6H 7D 9H 2S 8H QS 3H 4C 5C KH 7H TD 9S 4S 3D 4D TS AS JH 2C 4H",
        ),
        (
            1,
            4,
            1,
            "KS 4C TH 3D 3S 6H 9S AS 5H QC 5D QS AD JC 2C 2H 8D 6C 7S 2D QD 5S TC TS QH JH "
            "7D 4D JD KC 5C 9D AC JS 4S 9C 4H 3H KH 6D 8S 3C 7C 8C 2S 7H AH 6S KD TD 9H 8H",
        ),
        (
            2,
            3,
            0,
            "KC 5H AD 7C QH 6D JS TS 8C AH 2C QD 2S 7S 3D 7D TH JC 8H 5D 4C 9S 9D 4S JH 2D "
            "2H 3S QS KH 6H QC KS AC TD 8D TC KD AS 4D 8S 5C 3C 9H 4H 3H 9C 6S JD 5S 7H 6C",
        ),
        (
            123456789,
            7,
            18,
            "TC KH 5D AS KC TD 2D 4S JC JD QD 7S KD 8H 9H 6C 2C 3C 3S 3D 6H AH JH 6S TH 7H "
            "AD 7D 5S 2H 7C TS QC 4D 4H 5H 8C 8D 3H QH 4C 9D 2S JS 6D 9S KS 9C 8S AC 5C QS",
        ),
    ],
)
def test_golden_shuffles_of_the_52_card_pack(number: int, players: int, deal_index: int, pack: str) -> None:
    assert " ".join(card_text(c) for c in shuffled_pack(number, players, False, deal_index)) == pack


@pytest.mark.parametrize(
    ("number", "players", "deal_index", "pack"),
    [
        (
            42,
            5,
            0,
            [
                *(11, 37, 39, 22, 48, 3, 36, 52, 33, 26, 44, 24, 40, 53, 18, 8, 38, 42, 59, 28),
                *(58, 32, 7, 34, 27, 49, 54, 43, 6, 1, 16, 45, 17, 56, 15, 9, 23, 2, 47, 51),
                *(25, 55, 31, 10, 14, 21, 5, 30, 19, 57, 4, 50, 46, 13, 41, 20, 0, 29, 12, 35),
            ],
        ),
        (
            10**12 - 1,
            6,
            9,
            [
                *(26, 3, 8, 55, 25, 51, 6, 29, 16, 2, 43, 1, 30, 38, 34, 19, 10, 40, 9, 39),
                *(24, 23, 58, 36, 11, 47, 22, 31, 59, 35, 17, 14, 20, 48, 15, 56, 54, 57, 42, 37),
                *(21, 45, 46, 44, 49, 7, 41, 52, 0, 5, 13, 18, 53, 4, 12, 28, 32, 27, 33, 50),
            ],
        ),
    ],
)
def test_golden_shuffles_of_the_60_card_pack(number: int, players: int, deal_index: int, pack: list[int]) -> None:
    """Card numbers, not text: which copy of a Magician or Jester lands where is part of the shuffle."""
    assert shuffled_pack(number, players, True, deal_index) == pack


def test_golden_first_deal_of_game_1_for_4_players() -> None:
    """Game 1, 4 players, ``full``: seat 2 deals, seat 3 gets the first card (JS), the king of hearts is turned."""
    game = Game(Rules.preset("full", players=4), number=1)
    deal = game.deal
    assert game.first_dealer == 2
    assert [" ".join(deal.hand(s).texts()) for s in range(4)] == [
        "AH 9H 3H 2H 9D 8D 2D AC JC 7C",
        "KS 7S 5S 2S TH KD QD 6C 4C 3C",
        "QH 8H 6H 5H AD JD QC 9C 8C 5C",
        "QS JS 8S 6S 3S 7D 6D 5D KC TC",
    ]
    assert deal.turn_up == parse_card("KH")
    assert deal.trump == parse_card("KH") // 13


# ----------------------------------------------------------------- golden first dealers


@pytest.mark.parametrize(
    ("players", "dealers"),
    [
        (3, [0, 1, 1, 0, 1, 2, 1, 0, 2, 0]),
        (4, [2, 2, 3, 0, 1, 1, 1, 1, 1, 0]),
        (5, [0, 1, 3, 0, 0, 2, 3, 4, 1, 3]),
        (6, [1, 2, 0, 0, 1, 4, 2, 1, 0, 4]),
        (7, [0, 2, 3, 5, 1, 5, 0, 1, 3, 1]),
    ],
)
def test_golden_random_first_dealers_of_games_0_to_9(players: int, dealers: list[int]) -> None:
    assert [random_first_dealer(n, players) for n in range(10)] == dealers


# ----------------------------------------------------------------- golden draws for the deal


def drawn(rounds: list[dict[int, int]]) -> list[dict[int, str]]:
    """The draw rounds as card text."""
    return [{seat: card_text(card) for seat, card in r.items()} for r in rounds]


@pytest.mark.parametrize(
    ("number", "players", "dealer", "rounds"),
    [
        (0, 4, 2, [{0: "JD", 1: "JH", 2: "AC", 3: "2S"}]),
        (0, 7, 2, [{0: "2D", 1: "9H", 2: "AC", 3: "5S", 4: "4S", 5: "TD", 6: "KC"}]),
        (8, 3, 2, [{0: "7H", 1: "KD", 2: "KH"}, {1: "3C", 2: "KS"}]),
        (20, 4, 0, [{0: "QS", 1: "JD", 2: "2D", 3: "QH"}, {0: "6D", 3: "5D"}]),
        (302, 4, 0, [{0: "QS", 1: "QD", 2: "JC", 3: "5H"}, {0: "6H", 1: "6C"}, {0: "KC", 1: "TC"}]),
        (
            634,
            4,
            3,
            [{0: "6D", 1: "8H", 2: "3S", 3: "8S"}, {1: "3S", 3: "3C"}, {1: "6D", 3: "6C"}, {1: "2C", 3: "3H"}],
        ),
        (
            87,
            7,
            3,
            [
                {0: "QD", 1: "2C", 2: "2D", 3: "AH", 4: "KD", 5: "TS", 6: "AC"},
                {3: "5H", 6: "5C"},
                {3: "7D", 6: "6H"},
            ],
        ),
    ],
)
def test_golden_draws_for_the_deal_highest_rank_deals_and_ties_redraw(
    number: int, players: int, dealer: int, rounds: list[dict[int, str]]
) -> None:
    """Seed 003: each player draws; the highest card deals; the seats tied for the highest draw again."""
    got_dealer, got_rounds = draw_for_deal(number, players)
    assert (got_dealer, drawn(got_rounds)) == (dealer, rounds)


@pytest.mark.parametrize("number", range(300))
def test_draw_for_the_deal_redraws_exactly_the_seats_tied_for_the_highest_rank(number: int) -> None:
    dealer, rounds = draw_for_deal(number, 4)
    assert sorted(rounds[0]) == [0, 1, 2, 3]
    for before, after in itertools.pairwise(rounds):
        best = max(RANK_OF[c] for c in before.values())
        assert sorted(after) == sorted(s for s, c in before.items() if RANK_OF[c] == best)
        assert len(after) > 1
    last = rounds[-1]
    assert max(last, key=lambda s: RANK_OF[last[s]]) == dealer
    assert sum(RANK_OF[c] == RANK_OF[last[dealer]] for c in last.values()) == 1
    assert all(c < 52 for r in rounds for c in r.values())


def test_a_game_under_draw_deals_first_from_the_seat_that_drew_highest() -> None:
    game = Game(Rules.preset("traditional", players=4), number=634)
    assert game.first_dealer == 3
    assert drawn(game.draws)[-1] == {1: "2C", 3: "3H"}
    assert game.deal.dealer == 3


# ----------------------------------------------------------------- determinism


@pytest.mark.parametrize(("players", "special_cards"), [(3, False), (5, False), (7, False), (4, True), (6, True)])
def test_a_shuffle_is_a_permutation_of_the_pack(players: int, special_cards: bool) -> None:
    size = 60 if special_cards else 52
    for number in (0, 1, 99, MAX_DEAL_NUMBER):
        assert sorted(shuffled_pack(number, players, special_cards, 0)) == list(range(size))


def test_the_same_number_gives_the_same_cards() -> None:
    for number in (0, 5, 77_777, MAX_DEAL_NUMBER):
        assert shuffled_pack(number, 4, False, 3) == shuffled_pack(number, 4, False, 3)
        assert draw_for_deal(number, 5) == draw_for_deal(number, 5)
        assert random_first_dealer(number, 6) == random_first_dealer(number, 6)


def test_the_deals_of_one_game_differ() -> None:
    packs = [tuple(shuffled_pack(9, 4, False, i)) for i in range(19)]
    assert len(set(packs)) == 19


def test_other_numbers_table_sizes_and_packs_shuffle_differently() -> None:
    base = shuffled_pack(9, 4, False, 0)
    assert shuffled_pack(10, 4, False, 0) != base
    assert shuffled_pack(9, 5, False, 0) != base
    assert shuffled_pack(9, 4, True, 0)[:10] != base[:10]


def test_the_shuffle_does_not_depend_on_pythons_random_module(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.preset("traditional", players=5, schedule=(4, 3))
    expected = [shuffled_pack(31, 5, False, i) for i in range(2)]
    expected_game = Game(rules, number=31)
    expected_hands = [deal_from_pack(rules, expected[i], expected_game.dealer_of(i), i).hands_dealt for i in range(2)]

    def forbidden(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("the deal used Python's random module")

    for name in ("random", "shuffle", "randint", "randrange", "choice", "choices", "sample", "seed", "getrandbits"):
        monkeypatch.setattr(random, name, forbidden)
    monkeypatch.setattr(random.Random, "random", forbidden)
    monkeypatch.setattr(random.Random, "shuffle", forbidden)
    monkeypatch.setattr(random.Random, "getrandbits", forbidden)
    assert [shuffled_pack(31, 5, False, i) for i in range(2)] == expected
    game = Game(rules, number=31)
    assert game.first_dealer == expected_game.first_dealer
    assert game.draws == expected_game.draws
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert [deal.hands_dealt for deal in game.deals] == expected_hands


# ----------------------------------------------------------------- numbers


@pytest.mark.parametrize("number", [0, 1, 999_999_999, MAX_DEAL_NUMBER])
def test_a_deal_number_is_a_whole_number_from_0_to_the_maximum(number: int) -> None:
    assert check_deal_number(number) == number


@pytest.mark.parametrize("number", [-1, MAX_DEAL_NUMBER + 1, True, 1.0, "7", None])
def test_anything_else_is_not_a_deal_number(number: object) -> None:
    with pytest.raises(ValueError, match=f"a deal number is a whole number from 0 to {MAX_DEAL_NUMBER}, not"):
        check_deal_number(number)


def test_new_numbers_are_short_enough_to_read_out() -> None:
    numbers = {new_deal_number() for _ in range(200)}
    assert all(1 <= n <= 999_999_999 for n in numbers)
    assert len(numbers) > 190


def test_the_draw_uses_the_52_card_ranks_ace_high() -> None:
    assert RANK_OF[parse_card("AS")] > RANK_OF[parse_card("KD")] > RANK_OF[parse_card("2C")]
