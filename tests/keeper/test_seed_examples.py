"""Every scoring scheme and modifier of RULES.md, kept on a sheet, against the worked examples of the seeds."""

from __future__ import annotations

import pytest

from ohhell.errors import HookError
from ohhell.keeper.sheet import ScoreSheet
from ohhell.rules import Rules

from .helpers import StepClock, enter_deal, new_sheet


def score_on_sheet(rules: Rules, bid: int, tricks: int) -> int:
    """The points a sheet gives a player who bid ``bid`` and took ``tricks``, in a one-deal game for three."""
    cards = max(bid, tricks, 1)
    rules = rules.replace(players=3, schedule=(cards,))
    sheet = ScoreSheet(rules, ["Player", "Left", "Dealer"], clock=StepClock(), first_dealer=2)
    if sheet.phase == "trump":
        sheet.enter_trump("JE" if rules.special_cards else "H")
    sheet.enter_bid(bid)
    sheet.enter_bid(0)
    sheet.enter_bid(sheet.allowed_bids[0])
    sheet.enter_tricks([tricks, cards - tricks, 0])
    row = sheet.rows[0]
    assert row.points is not None
    return row.points[0]


def test_seed_002_worked_hand_four_cards_spades_trump_dealer_hooked() -> None:
    """You bid 1, West 2, North 0; East deals and may not bid 1; tricks 1, 2, 0, 1 score 11, 12, 10 and 0."""
    sheet = new_sheet("up-and-down", names=["You", "West", "North", "East"], first_dealer=3, schedule=(4,))
    sheet.enter_trump("S")
    for bid in (1, 2, 0):
        sheet.enter_bid(bid)
    assert sheet.next_bidder == 3
    assert sheet.forbidden_bid == 1
    with pytest.raises(
        HookError, match=r"^East deals and may not bid 1: the bids would total 4, the number of tricks$"
    ):
        sheet.enter_bid(1)
    sheet.enter_bid(0)
    sheet.enter_tricks([1, 2, 0, 1])
    row = sheet.rows[0]
    assert row.points == (11, 12, 10, 0)
    assert [row.made(seat) for seat in range(4)] == [True, True, True, False]
    assert sheet.winners == (1,)


def test_seed_002_five_card_hook_example_dealer_may_bid_anything_but_one() -> None:
    sheet = new_sheet("up-and-down", first_dealer=3, schedule=(5,))
    sheet.enter_trump("H")
    for bid in (2, 0, 2):
        sheet.enter_bid(bid)
    assert sheet.allowed_bids == (0, 2, 3, 4, 5)


@pytest.mark.parametrize(
    ("bid", "tricks", "points"), [(0, 0, 10), (0, 1, 0), (1, 1, 11), (2, 2, 12), (3, 2, 0), (3, 4, 0), (5, 5, 15)]
)
def test_seed_002_scoring_table_10_plus_bid(bid: int, tricks: int, points: int) -> None:
    assert score_on_sheet(Rules.preset("up-and-down"), bid, tricks) == points


@pytest.mark.parametrize(
    ("bid", "tricks", "points"),
    [
        (0, 0, 10),  # seed 000: "an exact bid of 0 is worth 10"
        (3, 3, 13),  # seed 000: "an exact bid of 3 is worth 13"
        (2, 2, 12),  # seed 000 tip and seed 001: "2 tricks on a bid of 2 score 12"
        (2, 4, 4),  # seed 000 tip: "4 tricks on a bid of 2 score 4"
        (2, 1, 1),  # seed 001: "taking 1 scores 1"
        (2, 3, 3),  # seed 001: "taking 3 scores 3"
    ],
)
def test_seeds_000_001_003_tricks_plus_10(bid: int, tricks: int, points: int) -> None:
    assert score_on_sheet(Rules.preset("full"), bid, tricks) == points
    assert score_on_sheet(Rules.preset("traditional"), bid, tricks) == points


@pytest.mark.parametrize(
    ("bid", "tricks", "points"),
    [(3, 3, 50), (2, 4, -20), (4, 2, -20), (0, 0, 20), (0, 1, -10), (1, 1, 30)],
)
def test_seed_004_magicians_3_and_3_is_50_2_and_4_is_minus_20(bid: int, tricks: int, points: int) -> None:
    assert score_on_sheet(Rules.preset("magicians"), bid, tricks) == points


def test_seed_003_simplest_scoring_bid_5_won_5_is_15() -> None:
    assert score_on_sheet(Rules.preset("full", scoring="10+bid"), 5, 5) == 15


@pytest.mark.parametrize(("scoring", "points"), [("tricks+10", 5), ("10+bid", 5), ("5+bid", 5), ("magicians", 5)])
def test_seed_003_variation_only_5_for_a_successful_zero_bid(scoring: str, points: int) -> None:
    preset = "magicians" if scoring == "magicians" else "full"
    assert score_on_sheet(Rules.preset(preset, scoring=scoring, zero_bid_bonus=5), 0, 0) == points
    assert score_on_sheet(Rules.preset(preset, scoring=scoring, zero_bid_bonus=5), 2, 2) > 5


@pytest.mark.parametrize(("bid", "tricks", "points"), [(2, 2, 7), (0, 0, 5), (3, 2, 0), (1, 3, 0)])
def test_seed_002_house_rule_5_plus_bid(bid: int, tricks: int, points: int) -> None:
    assert score_on_sheet(Rules.preset("up-and-down", scoring="5+bid"), bid, tricks) == points


@pytest.mark.parametrize("scoring", ["tricks+10", "10+bid", "5+bid"])
@pytest.mark.parametrize(("bid", "tricks", "points"), [(3, 1, -2), (0, 2, -2), (1, 2, -1)])
def test_seed_002_house_rule_a_missed_bid_costs_a_point_a_trick(
    scoring: str, bid: int, tricks: int, points: int
) -> None:
    assert score_on_sheet(Rules.preset("up-and-down", scoring=scoring, miss_penalty=True), bid, tricks) == points


def test_seeds_000_001_002_a_tie_for_the_highest_total_is_a_shared_win() -> None:
    sheet = new_sheet("full", names=["Ann", "Bob", "Cy"], schedule=(1,))
    enter_deal(sheet, bids=[0, 0, 0], tricks=[0, 0, 1])
    assert sheet.totals == (10, 10, 1)
    assert sheet.winners == (0, 1)


def test_running_totals_add_each_deal_of_the_seed_002_table() -> None:
    sheet = new_sheet("up-and-down", names=["You", "West", "North", "East"], first_dealer=3, schedule=(4, 1))
    enter_deal(sheet, bids=[1, 2, 0, 0], tricks=[1, 2, 0, 1])
    enter_deal(sheet, bids=[1, 1, 0, 0], tricks=[1, 0, 0, 0])
    assert [row.totals for row in sheet.rows] == [(11, 12, 10, 0), (22, 12, 20, 10)]
    assert sheet.winners == (0,)
