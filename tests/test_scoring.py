"""Scoring: the table of RULES.md, its modifiers and the worked numbers of the seeds."""

from __future__ import annotations

import pytest

from ohhell.rules import SCORING_SCHEMES, Rules
from ohhell.scoring import deal_points, exact_bonus, winners


def scheme(name: str, **options: object) -> Rules:
    """``full`` rules with the scoring scheme ``name`` and any modifiers."""
    return Rules.preset("full", scoring=name, **options)


# ----------------------------------------------------------------- the table of RULES.md


@pytest.mark.parametrize(
    ("name", "bid", "tricks", "points"),
    [
        # tricks+10: exact t + 10, missed t
        ("tricks+10", 0, 0, 10),
        ("tricks+10", 3, 3, 13),
        ("tricks+10", 2, 4, 4),
        ("tricks+10", 2, 1, 1),
        ("tricks+10", 5, 0, 0),
        # 10+bid: exact 10 + b, missed 0
        ("10+bid", 0, 0, 10),
        ("10+bid", 4, 4, 14),
        ("10+bid", 4, 3, 0),
        ("10+bid", 0, 2, 0),
        # 5+bid: exact 5 + b, missed 0
        ("5+bid", 0, 0, 5),
        ("5+bid", 3, 3, 8),
        ("5+bid", 3, 1, 0),
        # magicians: exact 20 + 10 b, missed -10 |t - b|
        ("magicians", 0, 0, 20),
        ("magicians", 1, 1, 30),
        ("magicians", 5, 2, -30),
        ("magicians", 0, 3, -30),
    ],
)
def test_scoring_table_of_rules_md(name: str, bid: int, tricks: int, points: int) -> None:
    assert deal_points(bid, tricks, scheme(name)) == points


# ----------------------------------------------------------------- the seeds' worked numbers


@pytest.mark.parametrize(("bid", "tricks", "points"), [(0, 0, 10), (3, 3, 13), (2, 2, 12), (2, 4, 4)])
def test_seed_000_an_exact_bid_scores_10_more_than_its_tricks(bid: int, tricks: int, points: int) -> None:
    """Seed 000: an exact bid of 0 is worth 10, of 3 worth 13; 2 tricks on 2 score 12, 4 tricks on 2 score 4."""
    assert deal_points(bid, tricks, Rules.preset("full")) == points


@pytest.mark.parametrize(("bid", "tricks", "points"), [(2, 2, 12), (2, 1, 1), (2, 3, 3), (0, 0, 10)])
def test_seed_001_one_point_a_trick_plus_10_for_an_exact_bid(bid: int, tricks: int, points: int) -> None:
    assert deal_points(bid, tricks, Rules.preset("full")) == points


@pytest.mark.parametrize(
    ("bid", "tricks", "points"), [(0, 0, 10), (0, 1, 0), (1, 1, 11), (2, 2, 12), (3, 2, 0), (3, 4, 0), (5, 5, 15)]
)
def test_seed_002_score_table(bid: int, tricks: int, points: int) -> None:
    assert deal_points(bid, tricks, Rules.preset("up-and-down")) == points


def test_seed_002_worked_hand_of_4_cards() -> None:
    """You bid 1 take 1: 11; West 2/2: 12; North 0/0: 10; East, the dealer, 0 bid 1 taken: nothing."""
    rules = Rules.preset("up-and-down")
    assert [deal_points(b, t, rules) for b, t in [(1, 1), (2, 2), (0, 0), (0, 1)]] == [11, 12, 10, 0]


def test_seed_003_simplest_scoring_bid_5_won_5_is_15() -> None:
    assert deal_points(5, 5, Rules.preset("traditional", scoring="10+bid")) == 15


@pytest.mark.parametrize(("bid", "tricks", "points"), [(3, 3, 50), (2, 4, -20), (4, 2, -20), (0, 0, 20)])
def test_seed_004_exact_20_plus_10_a_trick_missed_minus_10_a_trick_out(bid: int, tricks: int, points: int) -> None:
    assert deal_points(bid, tricks, Rules.preset("magicians")) == points


# ----------------------------------------------------------------- modifiers


@pytest.mark.parametrize(
    ("name", "bid", "tricks", "points"),
    [
        ("tricks+10", 2, 4, -2),
        ("tricks+10", 3, 0, -3),
        ("tricks+10", 2, 2, 12),
        ("10+bid", 3, 1, -2),
        ("10+bid", 0, 1, -1),
        ("10+bid", 3, 3, 13),
        ("5+bid", 1, 4, -3),
        ("5+bid", 1, 1, 6),
        ("magicians", 2, 4, -2),
        ("magicians", 3, 3, 50),
    ],
)
def test_miss_penalty_makes_a_missed_bid_cost_a_point_a_trick_out(
    name: str, bid: int, tricks: int, points: int
) -> None:
    """Seed 002 house rule: a missed bid scores -|t - b| instead, under every scheme; exact bids are unchanged."""
    assert deal_points(bid, tricks, scheme(name, miss_penalty=True)) == points


@pytest.mark.parametrize(("name", "points"), [("tricks+10", 5), ("10+bid", 5), ("5+bid", 5), ("magicians", 5)])
def test_zero_bonus_makes_a_made_zero_worth_5(name: str, points: int) -> None:
    """Seed 003 variation: only 5 points for a successful zero bid."""
    assert deal_points(0, 0, scheme(name, zero_bid_bonus=5)) == points


@pytest.mark.parametrize("name", SCORING_SCHEMES)
def test_zero_bonus_leaves_other_bids_and_misses_alone(name: str) -> None:
    plain, modified = scheme(name), scheme(name, zero_bid_bonus=5)
    for bid in range(6):
        for tricks in range(6):
            if (bid, tricks) != (0, 0):
                assert deal_points(bid, tricks, modified) == deal_points(bid, tricks, plain)


def test_exact_bonus_of_each_scheme() -> None:
    assert [exact_bonus(2, scheme(name)) for name in SCORING_SCHEMES] == [10, 10, 5, 20]
    assert exact_bonus(0, scheme("tricks+10", zero_bid_bonus=5)) == 5
    assert exact_bonus(1, scheme("tricks+10", zero_bid_bonus=5)) == 10


# ----------------------------------------------------------------- winners


def test_the_highest_total_wins() -> None:
    assert winners([10, 42, 7]) == [1]


def test_players_tied_for_the_highest_total_share_the_win() -> None:
    """Seeds 000, 001, 002: a tie for the highest total is a shared win."""
    assert winners([30, 12, 30, 29]) == [0, 2]
    assert winners([-5, -5, -5]) == [0, 1, 2]
