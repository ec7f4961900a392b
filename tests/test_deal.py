"""One deal: dealing, trump, bidding with the hook and bid changes, the play, Magicians and Jesters, undo, copy.

Test names follow the clauses of RULES.md and the seeds they come from.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from conftest import deal_state, make_deal, play_randomly
from ohhell.actions import bid, change, choose_trump
from ohhell.cards import (
    CLUBS,
    DIAMONDS,
    FIRST_JESTER,
    FIRST_MAGICIAN,
    HEARTS,
    SPADES,
    CardSet,
    parse_card,
)
from ohhell.deal import Deal, Trick, deal_from_pack
from ohhell.dealnumbers import shuffled_pack
from ohhell.errors import (
    BidChangeNotAllowedError,
    BidOutOfRangeError,
    CardNotInHandError,
    DealError,
    HookError,
    IllegalActionError,
    MustFollowSuitError,
    NotYourTurnError,
    OhHellError,
    UnexpectedActionError,
)
from ohhell.rules import Rules
from ohhell.scoring import deal_points


def dealt(rules: Rules, dealer: int = 3, number: int = 1, deal_index: int = 0) -> Deal:
    """Deal ``deal_index`` of game ``number`` under ``rules``, as a game deals it."""
    pack = shuffled_pack(number, rules.players, rules.special_cards, deal_index)
    return deal_from_pack(rules, pack, dealer, deal_index)


def bids(deal: Deal, *numbers: int) -> None:
    """Bid ``numbers`` in turn from the seat to act."""
    for n in numbers:
        deal.apply(bid(n))


def plays(deal: Deal, *cards: str) -> None:
    """Play ``cards`` (text) in turn from the seat to act."""
    for card in cards:
        deal.play(card)


def assert_refused(deal: Deal, error: type[OhHellError], act: Callable[[], object], match: str | None = None) -> None:
    """``act`` raises ``error`` and leaves every field of ``deal`` as it was."""
    before = deal_state(deal)
    with pytest.raises(error, match=match):
        act()
    assert deal_state(deal) == before


def card_set(text: str) -> int:
    """The bitmask of card text."""
    return CardSet.parse(text).mask


# ----------------------------------------------------------------- dealing and trump


def test_dealing_is_one_card_at_a_time_from_the_dealers_left_then_the_next_card_is_turned_up() -> None:
    rules = Rules.preset("full", players=4, schedule=(3,))
    pack = list(range(52))
    deal = deal_from_pack(rules, pack, dealer=1, deal_index=0)
    assert deal.hands_dealt == (1 << 2 | 1 << 6 | 1 << 10, 1 << 3 | 1 << 7 | 1 << 11, 1 << 0 | 1 << 4 | 1 << 8, 0x222)
    assert deal.turn_up == 12
    assert deal.trump == SPADES


def test_turn_up_the_turned_cards_suit_is_trump_and_nobody_holds_it() -> None:
    deal = make_deal(["AS 2C", "KH 3C", "QD 4C"], dealer=0, turn_up="9H")
    assert deal.trump == HEARTS
    assert deal.turn_up == parse_card("9H")
    assert all(not hand >> deal.turn_up & 1 for hand in deal.hands)


def test_turn_up_no_card_left_means_no_trump() -> None:
    """Seeds 002, 004: in the 13-card hand of 4 players nothing is turned up and there is no trump."""
    deal = dealt(Rules.preset("up-and-down", players=4), deal_index=12)
    assert deal.size == 13
    assert deal.turn_up is None
    assert deal.trump is None


def test_turn_up_with_special_cards_no_card_left_in_the_last_round_means_no_trump() -> None:
    rules = Rules.preset("magicians", players=4)
    deal = dealt(rules, deal_index=14)
    assert deal.size == 15
    assert deal.turn_up is None
    assert deal.trump is None
    assert deal.phase_name == "bidding"


def test_rotation_trump_advances_one_step_a_deal_with_a_no_trump_step() -> None:
    rules = Rules.preset("traditional", players=4, trump=("S", "H", "D", "C", "NT"))
    trumps = [dealt(rules, deal_index=i).trump for i in range(7)]
    assert trumps == [SPADES, HEARTS, DIAMONDS, CLUBS, None, SPADES, HEARTS]
    assert all(dealt(rules, deal_index=i).turn_up is None for i in range(7))


def test_turned_magician_lets_the_dealer_choose_trump_before_the_first_bid() -> None:
    deal = make_deal(["AS 2C", "KH 3C", "QD 4C"], dealer=1, turn_up="MG", special_cards=True)
    assert deal.phase_name == "choosing-trump"
    assert deal.to_act == 1
    assert deal.trump is None
    assert deal.legal_actions() == tuple(choose_trump(s) for s in range(4))
    assert deal.legal_actions(0) == ()
    assert_refused(deal, UnexpectedActionError, lambda: deal.apply(bid(1)), "waiting for the dealer to choose trump")
    assert_refused(deal, NotYourTurnError, lambda: deal.apply(choose_trump(HEARTS), 2), "the dealer \\(seat 1\\)")
    assert_refused(deal, UnexpectedActionError, lambda: deal.play("KH", 2))
    deal.apply(choose_trump(CLUBS))
    assert deal.trump == CLUBS
    assert deal.phase_name == "bidding"
    assert deal.to_act == 2
    assert deal.actions == [(1, choose_trump(CLUBS))]


def test_choosing_trump_is_refused_when_no_magician_was_turned() -> None:
    deal = make_deal(["AS 2C", "KH 3C", "QD 4C"], dealer=1, turn_up="9H")
    assert_refused(
        deal, UnexpectedActionError, lambda: deal.choose_trump(SPADES), "trump is chosen only after a turned Magician"
    )
    rotating = make_deal(["AS 2C", "KH 3C", "QD 4C"], dealer=1, trump=("S",))
    assert_refused(rotating, UnexpectedActionError, lambda: rotating.choose_trump(SPADES), "these rules rotate trump")


def test_trump_is_chosen_once() -> None:
    deal = make_deal(["AS 2C", "KH 3C", "QD 4C"], dealer=1, turn_up="MG", special_cards=True)
    deal.choose_trump(CLUBS)
    assert_refused(deal, UnexpectedActionError, lambda: deal.choose_trump(SPADES), "trump is already clubs")


def test_turned_jester_means_no_trump() -> None:
    deal = make_deal(["AS 2C", "KH 3C", "QD 4C"], dealer=1, turn_up="JE", special_cards=True)
    assert deal.trump is None
    assert deal.phase_name == "bidding"


# ----------------------------------------------------------------- bidding


def test_bidding_starts_left_of_the_dealer_and_the_dealer_bids_last() -> None:
    deal = dealt(Rules.preset("full", players=5, schedule=(4,)), dealer=2)
    order = []
    while deal.phase_name == "bidding":
        order.append(deal.to_act)
        deal.apply(bid(0) if deal.to_act != deal.dealer else deal.legal_actions()[-1])
    assert order == [3, 4, 0, 1, 2]
    assert deal.phase_name == "playing"


def test_a_bid_is_a_whole_number_from_0_to_the_hand_size() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(5,)))
    assert deal.legal_actions() == tuple(bid(n) for n in range(6))
    assert_refused(deal, BidOutOfRangeError, lambda: deal.apply(bid(6)), "bids run from 0 to 5 in a 5-card deal")
    assert_refused(deal, BidOutOfRangeError, lambda: deal.bid(-1))


def test_bids_are_public_and_unmade_bids_are_minus_one() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(5,)))
    bids(deal, 2, 1)
    assert deal.bids == [2, 1, -1, -1]
    assert deal.bid_total() == 3


def test_hook_seed_002_after_bids_2_0_2_in_a_5_card_hand_the_dealer_may_not_bid_1() -> None:
    deal = dealt(Rules.preset("up-and-down", players=4, schedule=(5,)), dealer=3)
    bids(deal, 2, 0, 2)
    assert deal.to_act == deal.dealer == 3
    assert deal.forbidden_bid() == 1
    assert deal.legal_actions() == (bid(0), bid(2), bid(3), bid(4), bid(5))
    assert_refused(
        deal,
        HookError,
        lambda: deal.apply(bid(1)),
        "^the dealer \\(seat 3\\) may not bid 1: the bids would total 5, the number of tricks$",
    )
    deal.apply(bid(2))
    assert deal.bids == [2, 0, 2, 2]


def test_hook_seed_002_worked_hand_east_the_dealer_could_not_bid_1() -> None:
    """4 cards: you bid 1, West 2, North 0; East, the dealer, could not bid 1 since 1 + 2 + 0 + 1 = 4."""
    deal = dealt(Rules.preset("up-and-down", players=4, schedule=(4,)), dealer=3)
    bids(deal, 1, 2, 0)
    assert bid(1) not in deal.legal_actions()
    assert bid(0) in deal.legal_actions()


def test_hook_seed_002_a_dealers_zero_in_a_1_card_hand_is_refused_when_it_makes_the_total() -> None:
    deal = dealt(Rules.preset("up-and-down", players=3, schedule=(1,)), dealer=2)
    bids(deal, 1, 0)
    assert deal.legal_actions() == (bid(1),)
    assert_refused(deal, HookError, lambda: deal.bid(0), "may not bid 0: the bids would total 1")


def test_hook_when_the_others_total_already_exceeds_the_tricks_every_bid_is_allowed() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(5,)), dealer=3)
    bids(deal, 3, 2, 2)
    assert deal.forbidden_bid() is None
    assert deal.legal_actions() == tuple(bid(n) for n in range(6))


def test_hook_when_the_others_total_equals_the_tricks_the_dealer_may_not_bid_0() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(5,)), dealer=3)
    bids(deal, 3, 2, 0)
    assert deal.forbidden_bid() == 0
    assert bid(0) not in deal.legal_actions()


def test_hook_applies_only_to_the_dealer_and_only_once_all_others_have_bid() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(5,)), dealer=3)
    assert deal.forbidden_bid() is None
    bids(deal, 2, 2)
    assert deal.forbidden_bid() is None
    assert deal.legal_actions() == tuple(bid(n) for n in range(6))


def test_hook_off_the_dealer_may_make_the_bids_add_up() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(5,), hook=False), dealer=3)
    bids(deal, 2, 0, 2)
    assert deal.forbidden_bid() is None
    assert bid(1) in deal.legal_actions()
    deal.apply(bid(1))
    assert deal.bid_total() == 5


def test_magicians_preset_has_no_hook() -> None:
    deal = dealt(Rules.preset("magicians", players=3, schedule=(2,)), dealer=2)
    if deal.phase_name == "choosing-trump":
        deal.apply(choose_trump(SPADES))
    bids(deal, 1, 0)
    assert deal.legal_actions() == (bid(0), bid(1), bid(2))


def test_bidding_out_of_turn_is_refused() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(5,)), dealer=3)
    assert_refused(deal, NotYourTurnError, lambda: deal.bid(1, seat=2), "seat 2 may not bid: it is seat 0's turn")
    assert_refused(deal, NotYourTurnError, lambda: deal.bid(1, seat=4), "there is no seat 4")
    assert_refused(deal, NotYourTurnError, lambda: deal.apply(bid(1), -1))


def test_playing_during_the_bidding_is_refused() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(5,)), dealer=3)
    card = next(iter(deal.hand(0)))
    assert_refused(deal, UnexpectedActionError, lambda: deal.apply(card), "the deal is in the bidding")


def test_bidding_during_the_play_is_refused() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(5,)), dealer=3)
    bids(deal, 1, 1, 1, 1)
    assert_refused(deal, UnexpectedActionError, lambda: deal.bid(1), "in the play of the cards")


# ----------------------------------------------------------------- bid changes


def until_next(players: int = 4, size: int = 5, **options: object) -> Deal:
    """A dealt deal under ``traditional`` (``until-next``) with a fixed dealer, seat ``players - 1``."""
    rules = Rules.preset("traditional", players=players, schedule=(size,), **options)
    return dealt(rules, dealer=players - 1)


def test_final_bids_cannot_be_changed() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(5,)), dealer=3)
    bids(deal, 2)
    assert deal.legal_actions(0) == ()
    assert not deal.can_change_bid(0)
    assert_refused(deal, BidChangeNotAllowedError, lambda: deal.change_bid(1, 0), "bids are final under these rules")


def test_until_next_a_player_may_change_their_bid_until_the_player_on_their_left_has_bid() -> None:
    deal = until_next()
    bids(deal, 2)
    assert deal.can_change_bid(0)
    assert deal.legal_actions(0) == tuple(change(n) for n in (0, 1, 3, 4, 5))
    deal.apply(change(4), 0)
    assert deal.bids[0] == 4
    assert deal.to_act == 1
    deal.change_bid(3, 0)
    assert deal.bids[0] == 3
    bids(deal, 1)
    assert not deal.can_change_bid(0)
    assert deal.legal_actions(0) == ()
    assert_refused(
        deal,
        BidChangeNotAllowedError,
        lambda: deal.apply(change(1), 0),
        "a bid may change only until the player on the left \\(seat 1\\) has bid",
    )
    assert deal.legal_actions(1) == tuple(change(n) for n in (0, 2, 3, 4, 5))
    assert deal.actions == [(0, bid(2)), (0, change(4)), (0, change(3)), (1, bid(1))]


def test_until_next_a_bid_not_yet_made_cannot_be_changed() -> None:
    deal = until_next()
    assert_refused(deal, BidChangeNotAllowedError, lambda: deal.change_bid(1, 0), "it has not bid yet")


def test_until_next_the_dealer_may_change_until_the_first_card_is_played() -> None:
    deal = until_next()
    bids(deal, 1, 1, 1)
    assert deal.can_change_bid(2)
    deal.apply(bid(0))
    assert not deal.can_change_bid(2)
    assert deal.phase_name == "playing"
    assert deal.to_act == 0
    assert deal.can_change_bid(3)
    assert deal.legal_actions(3) == tuple(change(n) for n in (1, 3, 4, 5))
    deal.apply(change(3), 3)
    assert deal.bids == [1, 1, 1, 3]
    deal.apply(deal.legal_actions()[0])
    assert not deal.can_change_bid(3)
    assert deal.legal_actions(3) == ()
    assert_refused(
        deal,
        BidChangeNotAllowedError,
        lambda: deal.change_bid(4, 3),
        "the dealer may change only until the first card is played",
    )


def test_until_next_the_hook_applies_to_the_dealers_change() -> None:
    deal = until_next()
    bids(deal, 2, 0, 2, 0)
    assert change(1) not in deal.legal_actions(3)
    assert_refused(
        deal,
        HookError,
        lambda: deal.change_bid(1, 3),
        "^the dealer \\(seat 3\\) may not change to 1: the bids would total 5, the number of tricks$",
    )
    deal.change_bid(2, 3)
    assert deal.bid_total() == 6


def test_until_next_a_change_by_the_seat_before_the_dealer_moves_the_forbidden_bid() -> None:
    deal = until_next()
    bids(deal, 2, 0, 2)
    assert deal.forbidden_bid() == 1
    deal.change_bid(1, 2)
    assert deal.forbidden_bid() == 2
    assert bid(2) not in deal.legal_actions()
    assert bid(1) in deal.legal_actions()


def test_until_next_when_the_dealer_leads_its_plays_and_changes_are_offered_together() -> None:
    deal = until_next(first_lead="dealer")
    bids(deal, 1, 1, 1, 1)
    assert deal.to_act == 3
    actions = deal.legal_actions()
    assert {a for a in actions if a < 60} == set(deal.hand(3))
    assert {a for a in actions if a >= 60} == {change(n) for n in (0, 3, 4, 5)}


def test_until_next_a_change_out_of_range_is_refused() -> None:
    deal = until_next()
    bids(deal, 2)
    assert_refused(deal, BidOutOfRangeError, lambda: deal.change_bid(6, 0))


def test_until_next_there_is_no_seat_9() -> None:
    deal = until_next()
    assert_refused(deal, NotYourTurnError, lambda: deal.change_bid(1, 9), "there is no seat 9")
    assert deal.legal_actions(9) == ()


def test_until_next_a_change_to_the_same_bid_is_refused_like_every_action_not_in_legal_actions() -> None:
    deal = until_next()
    bids(deal, 2)
    assert change(2) not in deal.legal_actions(0)
    assert_refused(
        deal, BidChangeNotAllowedError, lambda: deal.apply(change(2), 0), "seat 0 already bid 2: a change must name"
    )


# ----------------------------------------------------------------- the play


def test_first_lead_is_the_player_on_the_dealers_left_by_default() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(2,)), dealer=2)
    bids(deal, 0, 0, 0, 0)
    assert deal.first_leader == 3
    assert deal.to_act == 3


def test_first_lead_by_the_dealer_seed_003_variation() -> None:
    deal = dealt(Rules.preset("full", players=4, schedule=(2,), first_lead="dealer"), dealer=2)
    assert deal.to_act == 3
    bids(deal, 0, 0, 0, 0)
    assert deal.first_leader == 2
    assert deal.to_act == 2


def test_follow_suit_if_you_can() -> None:
    deal = make_deal(["AS 2C", "KS 3D", "QH 4C"], dealer=2, turn_up="9H")
    bids(deal, 1, 0, 0)
    plays(deal, "AS")
    assert deal.led_suit == SPADES
    assert deal.legal_cards() == CardSet.parse("KS")
    assert deal.legal_actions() == (parse_card("KS"),)
    assert_refused(
        deal,
        MustFollowSuitError,
        lambda: deal.play("3D"),
        "^seat 1 must follow spades: it holds spades and may not play the 3 of diamonds$",
    )


def test_with_no_card_of_the_suit_led_play_any_card_and_trumping_is_not_compulsory() -> None:
    deal = make_deal(["AS 2C", "KS 3D", "QH 4C"], dealer=2, turn_up="9H")
    bids(deal, 1, 0, 0)
    plays(deal, "AS", "KS")
    assert deal.legal_cards() == CardSet.parse("QH 4C")
    plays(deal, "4C")
    assert deal.tricks[-1] == Trick(0, (parse_card("AS"), parse_card("KS"), parse_card("4C")), 0)


def test_trump_may_be_led_at_any_time() -> None:
    deal = make_deal(["AH 2C", "KS 3D", "QS 4C"], dealer=2, turn_up="9H")
    bids(deal, 1, 0, 0)
    assert deal.legal_cards() == CardSet.parse("AH 2C")
    plays(deal, "AH")
    assert deal.led_suit == HEARTS


def test_the_highest_trump_wins_the_trick() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    bids(deal, 1, 0, 0)
    plays(deal, "AD", "3H", "5H")
    assert deal.tricks[0].winner == 2
    assert deal.tricks_won == [0, 0, 1]


def test_with_no_trump_in_it_the_highest_card_of_the_suit_led_wins() -> None:
    """Seed 002: a higher card of a different suit (not trump) never wins."""
    deal = make_deal(["5D 2C", "AS 3C", "9D 4C"], dealer=2, turn_up="9H")
    bids(deal, 1, 0, 0)
    plays(deal, "5D", "AS", "9D")
    assert deal.tricks[0].winner == 2


def test_seed_002_hearts_trump_ks_led_4s_2h_as_the_2_of_hearts_wins() -> None:
    """West leads K♠, North 4♠, East (no spades) 2♥, you A♠: East wins with the little 2 of hearts."""
    west, east, you = 0, 2, 3
    deal = make_deal(["KS 5C", "4S 6C", "2H 3D", "AS 7C"], dealer=you, turn_up="9H")
    bids(deal, 0, 0, 0, 0)
    assert deal.to_act == west
    plays(deal, "KS", "4S", "2H", "AS")
    assert deal.tricks[0].winner == east
    assert deal.to_act == east


def test_seed_001_spades_trump_the_two_of_spades_beats_the_ace_of_hearts() -> None:
    deal = make_deal(["AH 5C", "2S 6C", "3H 3D"], dealer=2, turn_up="9S")
    bids(deal, 0, 0, 0)
    plays(deal, "AH", "2S", "3H")
    assert deal.tricks[0].winner == 1


def test_the_winner_leads_the_next_trick() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    bids(deal, 1, 0, 0)
    plays(deal, "AD", "3H", "5H")
    assert deal.to_act == 2
    assert deal.trick_leader == 2
    plays(deal, "4C")
    assert deal.trick_leader == 2
    assert_refused(deal, NotYourTurnError, lambda: deal.play("2C", 2), "it is seat 0's turn")


def test_playing_out_of_turn_or_a_card_not_held_is_refused() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    bids(deal, 1, 0, 0)
    assert_refused(deal, NotYourTurnError, lambda: deal.play("3H", 1), "seat 1 may not play: it is seat 0's turn")
    assert_refused(deal, NotYourTurnError, lambda: deal.play("AD", 5), "there is no seat 5")
    assert_refused(deal, CardNotInHandError, lambda: deal.play("3H"), "^seat 0 does not hold the 3 of hearts \\(3H\\)$")
    assert_refused(deal, CardNotInHandError, lambda: deal.play("MG"), "does not hold a Magician")
    assert_refused(deal, UnexpectedActionError, lambda: deal.apply(60), "is not an action")
    assert_refused(deal, UnexpectedActionError, lambda: deal.apply(-1))
    assert_refused(deal, UnexpectedActionError, lambda: deal.apply(200))


def test_the_deal_ends_with_the_last_trick_and_scores_every_seat() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    bids(deal, 0, 1, 0)
    plays(deal, "AD", "3H", "5H", "4C", "2C", "5C")
    assert deal.is_over
    assert deal.phase_name == "finished"
    assert deal.tricks_won == [0, 1, 1]
    assert deal.points == [10, 11, 1]
    assert deal.legal_actions() == ()
    assert_refused(deal, UnexpectedActionError, lambda: deal.play("AD", 0), "the deal is over")
    assert_refused(deal, UnexpectedActionError, lambda: deal.bid(0, 0), "the deal is over")
    assert deal.action_log() == [
        "0 bid 0",
        "1 bid 1",
        "2 bid 0",
        "0 play AD",
        "1 play 3H",
        "2 play 5H",
        "2 play 4C",
        "0 play 2C",
        "1 play 5C",
    ]


def test_trick_seat_of_names_the_seat_of_each_card() -> None:
    trick = Trick(leader=2, cards=(1, 2, 3), winner=0)
    assert [trick.seat_of(i, 3) for i in range(3)] == [2, 0, 1]


def test_trick_winner_so_far_follows_the_trick_in_progress() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    bids(deal, 1, 0, 0)
    assert deal.trick_winner_so_far() is None
    plays(deal, "AD")
    assert deal.trick_winner_so_far() == 0
    plays(deal, "3H")
    assert deal.trick_winner_so_far() == 1


# ----------------------------------------------------------------- Magicians and Jesters


def special(hands: list[str], dealer: int = 2, turn_up: str | None = "9D") -> Deal:
    """A deal with Magicians and Jesters, bids all 0 except the last (the hook is off in the preset)."""
    deal = make_deal(hands, dealer=dealer, turn_up=turn_up, special_cards=True, hook=False)
    bids(deal, *[0] * len(hands))
    return deal


def test_magicians_and_jesters_may_always_be_played_even_holding_the_suit_led() -> None:
    deal = special(["5S 2D", "7S MG", "9S JE"])
    plays(deal, "5S")
    assert deal.legal_cards() == CardSet.parse("7S MG")
    assert set(deal.legal_actions()) == {parse_card("7S"), FIRST_MAGICIAN}
    plays(deal, "MG")
    assert deal.legal_cards() == CardSet.parse("9S JE")
    plays(deal, "JE")
    assert deal.tricks[0].winner == 1


def test_a_led_magician_means_no_led_suit_and_wins() -> None:
    deal = special(["MG 2D", "7S 2H", "AD JE"])
    plays(deal, "MG")
    assert deal.led_suit is None
    assert deal.legal_cards() == CardSet.parse("7S 2H")
    plays(deal, "2H", "AD")
    assert deal.tricks[0].winner == 0


def test_after_a_led_jester_the_next_non_jester_sets_the_suit_to_follow() -> None:
    deal = special(["JE 2D", "5H 2S", "AH KS"])
    plays(deal, "JE")
    assert deal.led_suit is None
    assert deal.legal_cards() == CardSet.parse("5H 2S")
    plays(deal, "5H")
    assert deal.led_suit == HEARTS
    assert_refused(deal, MustFollowSuitError, lambda: deal.play("KS"), "seat 2 must follow hearts")
    plays(deal, "AH")
    assert deal.tricks[0].winner == 2


def test_after_a_led_jester_and_another_jester_the_first_non_jester_sets_the_suit() -> None:
    deal = special(["JE 2D", "JE 2S", "5H KS", "AH 3C"], dealer=3)
    plays(deal, "JE", "JE", "5H")
    assert deal.led_suit == HEARTS
    assert deal.legal_cards() == CardSet.parse("AH")
    plays(deal, "AH")
    assert deal.tricks[0].winner == 3


def test_after_a_led_jester_a_trump_beats_the_suit_set_by_the_next_card() -> None:
    deal = special(["JE 2D", "5H 2S", "3D KS"])
    plays(deal, "JE", "5H", "3D")
    assert deal.trump == DIAMONDS
    assert deal.tricks[0].winner == 2


def test_a_jester_then_a_magician_means_no_led_suit_for_the_rest_of_the_trick() -> None:
    deal = special(["JE 2D", "MG 2S", "AS 3H"])
    plays(deal, "JE", "MG")
    assert deal.led_suit is None
    assert deal.legal_cards() == CardSet.parse("AS 3H")
    plays(deal, "3H")
    assert deal.tricks[0].winner == 1


def test_a_trick_of_only_jesters_goes_to_the_first_jester() -> None:
    deal = special(["2D JE", "2S JE", "3H JE"], dealer=0)
    assert deal.to_act == 1
    plays(deal, "JE", "JE", "JE")
    assert deal.tricks[0].winner == 1
    assert deal.tricks[0].leader == 1


def test_the_first_magician_played_wins() -> None:
    deal = special(["5S 2D", "MG 7S", "MG 9S"])
    plays(deal, "5S", "MG", "MG")
    assert deal.tricks[0].winner == 1


def test_a_magician_beats_the_highest_trump() -> None:
    deal = special(["AD 2C", "KD MG", "QS 3C"])
    plays(deal, "AD", "MG", "QS")
    assert deal.tricks[0].winner == 1


def test_a_jester_never_wins_a_trick_with_another_card_in_it() -> None:
    deal = special(["JE 2C", "2H 3C", "JE 4C"])
    plays(deal, "JE", "2H", "JE")
    assert deal.tricks[0].winner == 1


def test_copies_of_a_special_card_are_interchangeable_when_played() -> None:
    deal = special(["MG 2D", "MG 2S", "3H 3S"])
    assert deal.hands[1] >> FIRST_MAGICIAN & 0xF == 0b10
    deal.apply(FIRST_MAGICIAN + 1)
    deal.apply(FIRST_MAGICIAN)
    assert deal.trick == [FIRST_MAGICIAN, FIRST_MAGICIAN + 1]
    assert deal.hands[0] & CardSet.parse("MG").mask == 0
    assert deal.hands[1] >> FIRST_MAGICIAN & 0xF == 0
    deal.undo()
    assert deal.hands[1] >> FIRST_MAGICIAN & 0xF == 0b10


def test_the_turned_card_is_never_also_a_card_in_a_hand() -> None:
    """Game 0, deal 8 of ``magicians`` for 4 players, seat 0 dealing: Magician 53 is turned and seat 3 holds 53."""
    rules = Rules.preset("magicians", players=4)
    deal = deal_from_pack(rules, shuffled_pack(0, 4, True, 8), 0, 8)
    assert deal.turn_up is not None
    assert deal.turn_up >= FIRST_MAGICIAN
    held = 0
    for hand in deal.hands:
        held |= hand
    assert not held >> deal.turn_up & 1


def test_the_legal_actions_list_one_copy_of_each_special_card() -> None:
    deal = special(["MG MG JE JE 2D", "2S 3S 4S 5S 6S", "3H 4H 5H 6H 7H"])
    assert deal.legal_actions() == (parse_card("2D"), FIRST_MAGICIAN, FIRST_JESTER)
    assert len(deal.legal_cards()) == 5


# ----------------------------------------------------------------- checked deals


@pytest.mark.parametrize(
    ("hands", "dealer", "turn_up", "options", "message"),
    [
        (["AS 2C", "KS", "QS"], 0, "2S", {}, "seat 1 holds 1 cards"),
        (["AS", "AS", "QS"], 0, "2S", {}, "the ace of spades \\(AS\\) was dealt twice"),
        (["AS", "KS", "QS"], 3, "2S", {}, "the dealer must be a seat from 0 to 2, not 3"),
        (["AS", "KS", "MG"], 0, "2S", {}, "seat 2 holds a Magician, but these rules use no special cards"),
        (["AS", "KS", "QS"], 0, "AS", {}, "the turned card, the ace of spades, is also in a hand"),
        (["AS", "KS", "QS"], 0, None, {}, "49 cards are left after the deal, so a card must be turned up"),
        (["AS", "KS", "QS"], 0, "2S", {"trump": ("S",)}, "these rules rotate trump, so no card is turned up"),
        (["AS", "KS", "QS"], 0, "MG", {}, "the turned card 52 is not a card of this pack"),
        (
            ["MG MG", "MG MG", "MG 2S"],
            0,
            "3S",
            {"special_cards": True},
            "there are only four Magicians, but more were dealt",
        ),
        (
            ["MG MG", "MG MG", "2S 3S"],
            0,
            "MG",
            {"special_cards": True},
            "the turned card is a Magician, but all four are in hands",
        ),
    ],
)
def test_a_deal_that_cannot_be_is_refused(
    hands: list[str], dealer: int, turn_up: str | None, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(DealError, match=message):
        make_deal(hands, dealer, turn_up, **options)


def test_a_deal_with_a_hand_missing_is_refused() -> None:
    with pytest.raises(DealError, match="2 hands were given for 3 players"):
        Deal(Rules.preset("full", players=3, schedule=(1,)), [CardSet.parse("AS"), CardSet.parse("KS")], 0, 5)


def test_a_deal_of_the_wrong_size_for_its_schedule_is_refused() -> None:
    rules = Rules.preset("full", players=3)
    with pytest.raises(DealError, match="seat 0 holds 2 cards, but deal 0 is a 10-card deal"):
        Deal(rules, [CardSet.parse("AS KH"), CardSet.parse("2S 3H"), CardSet.parse("QS QD")], 2, parse_card("9H"))


def test_no_card_can_be_turned_up_when_the_hands_use_the_whole_pack() -> None:
    hands = [CardSet(sum(1 << c for c in range(s, 52, 4))) for s in range(4)]
    rules = Rules.preset("full", players=4, schedule=(13,))
    with pytest.raises(DealError, match="no card is left after this deal"):
        Deal(rules, hands, 0, parse_card("AS"))
    assert Deal(rules, hands, 0).trump is None


def test_hands_may_be_given_as_card_sets_masks_or_lists_of_cards() -> None:
    rules = Rules.preset("full", players=3, schedule=(2,))
    as_sets = Deal(rules, [CardSet.parse("AS KH"), CardSet.parse("2S 3H"), CardSet.parse("QS QD")], 0, 5)
    as_masks = Deal(rules, [card_set("AS KH"), card_set("2S 3H"), card_set("QS QD")], 0, 5)
    as_lists = Deal(rules, [[12, 24], [0, 14], [10, 36]], 0, 5)
    assert as_sets.hands == as_masks.hands == as_lists.hands


def test_special_card_copies_in_given_hands_are_renumbered_in_seat_order() -> None:
    rules = Rules.preset("magicians", players=3, schedule=(2,))
    deal = Deal(rules, [[FIRST_MAGICIAN + 3, 0], [FIRST_MAGICIAN + 3, 1], [FIRST_JESTER + 2, 2]], 0, 3)
    assert deal.hands == [1 << FIRST_MAGICIAN | 1, 1 << (FIRST_MAGICIAN + 1) | 2, 1 << FIRST_JESTER | 4]


def test_a_hand_that_is_not_cards_is_refused() -> None:
    rules = Rules.preset("full", players=3, schedule=(1,))
    with pytest.raises(DealError, match="seat 1 holds 60, which is not a card"):
        Deal(rules, [[0], [60], [2]], 0, 5)
    with pytest.raises(DealError, match="is not a set of cards"):
        Deal(rules, [1, -1, 4], 0, 5)


# ----------------------------------------------------------------- undo and copy


def played_out(rules: Rules, seed: int, number: int = 7) -> tuple[Deal, list[dict[str, object]]]:
    """A deal played out at random, with the full state before every action."""
    deal = dealt(rules, dealer=1, number=number)
    rng = random.Random(seed)
    states = []
    while not deal.is_over:
        states.append(deal_state(deal))
        play_randomly(deal, rng, steps=1)
    return deal, states


UNDO_RULES = [
    Rules.preset("full", players=4, schedule=(6,)),
    Rules.preset("traditional", players=5, schedule=(4,)),
    Rules.preset("traditional", players=3, schedule=(5,), first_lead="dealer"),
    Rules.preset("magicians", players=4, schedule=(9,)),
    Rules.preset("magicians", players=3, schedule=(20,), bid_changes="until-next"),
    Rules.preset("short", players=6, schedule=(3,), trump=("NT", "S")),
]


@pytest.mark.parametrize("rules", UNDO_RULES, ids=lambda r: f"{r.preset_name}-{r.players}")
@pytest.mark.parametrize("seed", range(5))
def test_undo_restores_exactly_the_state_before_each_action(rules: Rules, seed: int) -> None:
    deal, states = played_out(rules, seed)
    for before in reversed(states):
        deal.undo()
        assert deal_state(deal) == before
    assert not deal.actions
    assert_refused(deal, UnexpectedActionError, deal.undo, "there is no action to take back")


def test_undo_returns_the_seat_and_action_taken_back() -> None:
    deal = until_next()
    bids(deal, 2)
    deal.change_bid(3, 0)
    assert deal.undo() == (0, change(3))
    assert deal.bids[0] == 2
    assert deal.undo() == (0, bid(2))
    assert deal.bids[0] == -1


def test_undo_of_the_last_card_reopens_the_finished_deal() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    bids(deal, 0, 1, 0)
    plays(deal, "AD", "3H", "5H", "4C", "2C", "5C")
    assert deal.undo() == (1, parse_card("5C"))
    assert deal.phase_name == "playing"
    assert deal.points is None
    assert deal.tricks_won == [0, 0, 1]
    assert deal.trick == [parse_card("4C"), parse_card("2C")]
    assert deal.trick_winner_so_far() == 2
    assert deal.to_act == 1
    deal.play("5C")
    assert deal.points == [10, 11, 1]


def test_undo_of_the_trump_choice_returns_to_choosing() -> None:
    deal = make_deal(["AS 2C", "KH 3C", "QD 4C"], dealer=1, turn_up="MG", special_cards=True)
    before = deal_state(deal)
    deal.choose_trump(HEARTS)
    assert deal.undo() == (1, choose_trump(HEARTS))
    assert deal_state(deal) == before


@pytest.mark.parametrize("rules", UNDO_RULES, ids=lambda r: f"{r.preset_name}-{r.players}")
def test_a_copy_is_independent_of_its_original(rules: Rules) -> None:
    deal = dealt(rules, dealer=0, number=3)
    play_randomly(deal, random.Random(1), steps=rules.players + 2)
    original = deal_state(deal)
    other = deal.copy()
    assert deal_state(other) == original
    play_randomly(other, random.Random(2))
    assert other.is_over
    assert deal_state(deal) == original
    copied = deal_state(other)
    while deal.actions:
        deal.undo()
    play_randomly(deal, random.Random(3))
    assert deal_state(other) == copied


def test_replaying_the_action_log_gives_the_same_deal() -> None:
    rules = Rules.preset("traditional", players=4, schedule=(8,))
    deal = dealt(rules, dealer=2, number=99)
    play_randomly(deal, random.Random(5))
    again = dealt(rules, dealer=2, number=99)
    for seat, action in deal.actions:
        again.apply(action, seat)
    assert deal_state(again) == deal_state(deal)
    assert again.points == [deal_points(b, t, rules) for b, t in zip(deal.bids, deal.tricks_won, strict=True)]


def test_repr_names_the_size_dealer_trump_and_phase() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    assert repr(deal) == "<Deal 2 cards, dealer 2, H, bidding, bids [-1, -1, -1], tricks [0, 0, 0]>"
    assert deal.turn_up == parse_card("9H")


def test_every_refusal_is_an_illegal_action_error_under_value_error() -> None:
    for error in (
        NotYourTurnError,
        UnexpectedActionError,
        BidOutOfRangeError,
        HookError,
        BidChangeNotAllowedError,
        CardNotInHandError,
        MustFollowSuitError,
    ):
        assert issubclass(error, IllegalActionError)
        assert issubclass(error, ValueError)
    assert not issubclass(DealError, IllegalActionError)
