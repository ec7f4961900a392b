"""The score sheet: whose deal, how many cards, the trump, bids in order under the hook, tricks that add up,
refusals that change nothing, and corrections kept in the history."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ohhell.errors import BidOutOfRangeError, HookError, NotYourTurnError, OhHellError, UnexpectedActionError
from ohhell.keeper.errors import SheetSetupError, TricksDoNotAddUpError, TricksOutOfRangeError, TrumpNotAllowedError
from ohhell.keeper.files import sheet_to_json
from ohhell.keeper.sheet import ScoreSheet
from ohhell.keeper.trump import TrumpCall
from ohhell.rules import Rules

from .helpers import StepClock, enter_deal, new_sheet


def unchanged_after(sheet: ScoreSheet, entry: object, error: type[OhHellError], match: str) -> None:
    """``entry`` (a callable) is refused with ``error`` and a message matching ``match``, and nothing changes."""
    before = sheet_to_json(sheet)
    with pytest.raises(error, match=match):
        entry()  # type: ignore[operator]
    assert sheet_to_json(sheet) == before


def test_short_game_deals_pass_to_the_left_with_5_4_3_2_1_2_3_4_5_cards() -> None:
    sheet = new_sheet("short", first_dealer=2)
    assert [sheet.cards_of(i) for i in range(sheet.deal_count)] == [5, 4, 3, 2, 1, 2, 3, 4, 5]
    assert [sheet.dealer_of(i) for i in range(4)] == [2, 3, 0, 1]
    assert sheet.bid_order(0) == (3, 0, 1, 2)
    assert (sheet.current, sheet.phase) == (0, "trump")


def test_the_table_enters_the_turned_trump_before_anyone_bids() -> None:
    sheet = new_sheet()
    unchanged_after(sheet, lambda: sheet.enter_bid(1), UnexpectedActionError, "enter the trump of deal 1 first")
    sheet.enter_trump("hearts")
    assert sheet.rows[0].trump == TrumpCall(1)
    assert sheet.phase == "bids"
    unchanged_after(sheet, lambda: sheet.enter_trump("S"), UnexpectedActionError, "already entered .*correct it")


def test_a_plain_pack_always_turns_a_suit_unless_every_card_is_dealt() -> None:
    sheet = new_sheet()
    unchanged_after(
        sheet, lambda: sheet.enter_trump("NT"), TrumpNotAllowedError, "only every card dealt means no trump"
    )
    unchanged_after(sheet, lambda: sheet.enter_trump("JE"), TrumpNotAllowedError, "no Magicians or Jesters")
    full = new_sheet("up-and-down", schedule=(13,))
    assert full.phase == "bids"
    assert full.rows[0].trump == TrumpCall(None)
    assert not full.rows[0].trump_entered
    with pytest.raises(TrumpNotAllowedError, match="every card is dealt in a 13-card deal"):
        full.enter_trump("S")


def test_magicians_and_jesters_a_jester_means_no_trump_a_magician_the_dealer_names_it() -> None:
    sheet = new_sheet("magicians")
    unchanged_after(sheet, lambda: sheet.enter_trump("NT"), TrumpNotAllowedError, r"only a Jester \(JE\)")
    sheet.enter_trump("JE")
    assert sheet.rows[0].trump == TrumpCall(None, "JE")
    enter_deal(sheet, bids=[0, 0, 0, 1], tricks=[0, 0, 0, 1])
    sheet.enter_trump("MG D")
    assert sheet.rows[1].trump == TrumpCall(2, "MG")
    assert sheet.forbidden_bid is None


def test_the_last_deal_of_the_magicians_game_has_no_trump_to_turn() -> None:
    sheet = new_sheet("magicians", schedule=(15,))
    assert sheet.phase == "bids"
    assert sheet.rows[0].trump == TrumpCall(None)


def test_a_rotation_gives_each_deal_its_trump_and_no_entry_is_asked() -> None:
    sheet = new_sheet("short", trump=("S", "H", "NT"))
    assert sheet.phase == "bids"
    enter_deal(sheet, bids=[1, 1, 1, 1], tricks=[2, 1, 1, 1])
    enter_deal(sheet, bids=[1, 1, 1, 0], tricks=[1, 1, 1, 1])
    enter_deal(sheet, bids=[1, 1, 0, 0], tricks=[1, 1, 1, 0])
    assert [row.trump for row in sheet.rows[:4]] == [TrumpCall(0), TrumpCall(1), TrumpCall(None), TrumpCall(0)]
    with pytest.raises(TrumpNotAllowedError, match="follows the rotation: spades"):
        sheet.enter_trump("H")


def test_bids_go_in_order_from_the_dealers_left_with_the_running_total() -> None:
    sheet = new_sheet(first_dealer=1)
    sheet.enter_trump("C")
    assert sheet.next_bidder == 2
    unchanged_after(
        sheet,
        lambda: sheet.enter_bid(1, seat=0),
        NotYourTurnError,
        "^it is Cy's turn to bid, not Ann's: bids go in order from the dealer's left$",
    )
    sheet.enter_bid(2)
    sheet.enter_bid(1, seat=3)
    assert (sheet.next_bidder, sheet.rows[0].bid_total) == (0, 3)
    assert sheet.history[-1].text == "deal 1: Di bid 1 (bids total 3)"


def test_a_bid_above_the_hand_size_is_refused_with_the_range() -> None:
    sheet = new_sheet()
    sheet.enter_trump("S")
    message = "^Bob may not bid 6: bids run from 0 to 5 in a 5-card deal$"
    unchanged_after(sheet, lambda: sheet.enter_bid(6), BidOutOfRangeError, message)
    unchanged_after(sheet, lambda: sheet.enter_bid(-1), BidOutOfRangeError, "may not bid -1")


def test_the_hook_refuses_the_dealers_bid_that_makes_the_total_the_tricks() -> None:
    sheet = new_sheet()
    sheet.enter_trump("S")
    for bid in (2, 0, 2):
        sheet.enter_bid(bid)
    assert (sheet.next_bidder, sheet.forbidden_bid, sheet.allowed_bids) == (0, 1, (0, 2, 3, 4, 5))
    message = "^Ann deals and may not bid 1: the bids would total 5, the number of tricks$"
    unchanged_after(sheet, lambda: sheet.enter_bid(1), HookError, message)
    sheet.enter_bid(3)
    assert sheet.phase == "tricks"


def test_when_the_others_already_bid_more_than_the_tricks_the_dealer_may_bid_anything() -> None:
    sheet = new_sheet()
    sheet.enter_trump("S")
    for bid in (3, 2, 1):
        sheet.enter_bid(bid)
    assert sheet.forbidden_bid is None
    assert sheet.allowed_bids == (0, 1, 2, 3, 4, 5)


def test_without_the_hook_the_dealer_may_make_the_bids_add_up() -> None:
    sheet = new_sheet(hook=False)
    sheet.enter_trump("S")
    for bid in (2, 0, 2, 1):
        sheet.enter_bid(bid)
    assert sheet.rows[0].bid_total == 5


def test_tricks_must_add_up_to_the_hand_size_and_nothing_entered_is_lost() -> None:
    sheet = new_sheet()
    sheet.enter_trump("S")
    unchanged_after(sheet, lambda: sheet.enter_tricks([1, 1, 1, 2]), UnexpectedActionError, "the tricks come after")
    for bid in (1, 1, 1, 1):
        sheet.enter_bid(bid)
    message = "^the tricks add up to 6, but a 5-card deal has 5 tricks: every trick goes to exactly one player$"
    unchanged_after(sheet, lambda: sheet.enter_tricks([2, 2, 1, 1]), TricksDoNotAddUpError, message)
    unchanged_after(sheet, lambda: sheet.enter_tricks([6, 0, 0, -1]), TricksOutOfRangeError, "Ann cannot have taken 6")
    unchanged_after(sheet, lambda: sheet.enter_tricks([5, 0, 0]), TricksOutOfRangeError, "3 numbers of tricks")
    assert sheet.rows[0].bids == (1, 1, 1, 1)
    sheet.enter_tricks([2, 1, 1, 1])
    assert (sheet.current, sheet.rows[0].points) == (1, (2, 11, 11, 11))


def test_after_the_last_deal_the_winners_are_shown_and_entries_refused() -> None:
    sheet = new_sheet("short", schedule=(1,))
    enter_deal(sheet, bids=[0, 0, 1, 1], tricks=[0, 0, 1, 0])
    assert (sheet.is_over, sheet.phase, sheet.current, sheet.winners) == (True, "over", None, (2,))
    unchanged_after(sheet, lambda: sheet.enter_bid(0), UnexpectedActionError, "the game is over")


def test_names_must_be_one_for_each_player_and_different() -> None:
    with pytest.raises(SheetSetupError, match="3 names were given for 4 players"):
        ScoreSheet(Rules.preset("short"), ["Ann", "Bob", "Cy"], clock=StepClock())
    with pytest.raises(SheetSetupError, match="two players are called ann"):
        new_sheet(names=["Ann", "Bob", "ann", "Di"])
    with pytest.raises(SheetSetupError, match="player 2 has no name"):
        new_sheet(names=["Ann", " ", "Cy", "Di"])


def test_a_correction_changes_the_points_and_is_kept_in_the_history_with_who_and_when() -> None:
    sheet = new_sheet()
    enter_deal(sheet, bids=[2, 1, 1, 0], tricks=[2, 1, 1, 1])
    assert sheet.totals == (12, 11, 11, 1)
    sheet.correct(0, bids={3: 1, 0: 3}, tricks={0: 3, 3: 0}, by="Bob")
    row = sheet.rows[0]
    assert (row.bids, row.tricks, row.points) == ((3, 1, 1, 1), (3, 1, 1, 0), (13, 11, 11, 0))
    assert row.corrected == {"bid:0", "bid:3", "tricks:0", "tricks:3"}
    line = sheet.history[-1]
    assert line.correction
    assert line.by == "Bob"
    assert line.at == datetime(2025, 3, 1, 20, 7, tzinfo=UTC)
    assert line.text == ("corrected deal 1: Ann's bid 2 → 3; Di's bid 0 → 1; Ann's tricks 2 → 3; Di's tricks 1 → 0")
    assert [h.correction for h in sheet.history] == [False] * 6 + [True]


def test_a_correction_that_breaks_a_rule_is_refused_whole() -> None:
    sheet = new_sheet()
    enter_deal(sheet, bids=[2, 1, 1, 0], tricks=[2, 1, 1, 1])
    unchanged_after(
        sheet,
        lambda: sheet.correct(0, bids={1: 2}),
        HookError,
        "would total 5, the number of tricks, which the hook forbids: correct the bid of Ann, the dealer,",
    )
    unchanged_after(sheet, lambda: sheet.correct(0, bids={0: 3}), HookError, "^Ann deals and may not bid 3")
    unchanged_after(sheet, lambda: sheet.correct(0, tricks={0: 3}), TricksDoNotAddUpError, "add up to 6")
    unchanged_after(sheet, lambda: sheet.correct(0, bids={1: 9}), BidOutOfRangeError, "Bob may not bid 9")
    unchanged_after(sheet, lambda: sheet.correct(0, bids={1: 1}), UnexpectedActionError, "nothing to correct")
    unchanged_after(sheet, lambda: sheet.correct(4, bids={1: 1}), UnexpectedActionError, "deals reached are 1 to 2")
    unchanged_after(sheet, lambda: sheet.correct(1, bids={1: 1}), UnexpectedActionError, "not entered yet")
    sheet.correct(0, bids={1: 2, 0: 1})
    assert sheet.rows[0].bids == (1, 2, 1, 0)


def test_a_bid_can_be_corrected_while_the_bidding_goes_on() -> None:
    sheet = new_sheet()
    sheet.enter_trump("D")
    sheet.enter_bid(3)
    sheet.correct(0, bids={1: 2})
    sheet.enter_bid(1)
    assert sheet.rows[0].bids == (None, 2, 1, None)
    assert sheet.next_bidder == 3


def test_the_trump_can_be_corrected_where_the_table_told_it() -> None:
    sheet = new_sheet()
    sheet.enter_trump("D")
    sheet.correct(0, trump="C", by="Di")
    assert sheet.rows[0].trump == TrumpCall(3)
    assert sheet.history[-1].text == "corrected deal 1: trump diamonds → clubs"
    rotated = new_sheet(trump=("S",))
    with pytest.raises(TrumpNotAllowedError, match="follows the rotation"):
        rotated.correct(0, trump="H")


def test_renaming_and_a_wrong_first_dealer_are_corrections_too() -> None:
    sheet = new_sheet(first_dealer=0)
    sheet.rename(1, "Robert", by="Ann")
    assert sheet.names == ("Ann", "Robert", "Cy", "Di")
    assert sheet.starting_names == ("Ann", "Bob", "Cy", "Di")
    assert sheet.history[-1].text == "renamed Bob to Robert"
    unchanged_after(sheet, lambda: sheet.rename(2, "robert"), SheetSetupError, "two players are called")
    sheet.correct_first_dealer(3)
    assert (sheet.dealer_of(0), sheet.next_bidder) == (3, None)
    sheet.enter_trump("H")
    sheet.enter_bid(1)
    unchanged_after(sheet, lambda: sheet.correct_first_dealer(1), UnexpectedActionError, "cannot have dealt first")
    assert sheet.history[-3].text == "first dealer Ann → Di"


def test_entries_are_made_by_the_keeper_unless_someone_else_is_named() -> None:
    sheet = new_sheet()
    sheet.enter_trump("S")
    sheet.enter_bid(0, by="Cy")
    assert [(line.by, str(line)) for line in sheet.history] == [
        ("Scorekeeper", "2025-03-01 20:01 UTC Scorekeeper: deal 1: trump spades"),
        ("Cy", "2025-03-01 20:02 UTC Cy: deal 1: Bob bid 0 (bids total 0)"),
    ]
    with pytest.raises(SheetSetupError, match="say who makes the entry"):
        sheet.enter_bid(0, by="  ")


def test_a_replayed_log_rebuilds_the_same_sheet_and_a_bad_log_says_which_event() -> None:
    sheet = new_sheet()
    enter_deal(sheet, bids=[2, 1, 1, 0], tricks=[2, 1, 1, 1])
    sheet.correct(0, tricks={0: 1, 3: 2})
    again = ScoreSheet.replay(sheet.rules, sheet.starting_names, sheet.events, clock=lambda: sheet.created)
    assert (again.rows, again.history) == (sheet.rows, sheet.history)
    with pytest.raises(OhHellError, match=r"^event 3 cannot be replayed: it is Cy's turn"):
        ScoreSheet.replay(
            sheet.rules, sheet.starting_names, [sheet.events[i] for i in (0, 1, 3)], clock=lambda: sheet.created
        )
