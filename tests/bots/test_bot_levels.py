"""What each level does and says: Easy's honest slips, the trump choice after a turned Magician, Hard's bids."""

from __future__ import annotations

import random

import pytest
from botkit import deal_of, decide, view_to_act

from ohhell.actions import BID_BASE, TRUMP_BASE
from ohhell.bots import make_bot
from ohhell.bots.easy import obvious_winners
from ohhell.cards import CardSet, parse_card
from ohhell.deal import Deal
from ohhell.rules import Rules
from ohhell.view import seat_view


def test_easy_counts_magicians_aces_and_top_trumps() -> None:
    hand = list(CardSet.parse("AS KH QH 3H 2H KD MG JE"))
    assert CardSet(obvious_winners(hand, trump=1)) == CardSet.parse("AS KH QH MG")
    assert CardSet(obvious_winners(hand, trump=None)) == CardSet.parse("AS MG")


def test_easy_says_when_it_misjudged() -> None:
    deal = deal_of(["AS KS 2H 3D 4C", "QS JS 5H 6D 7C", "TS 9S 8H 9D 8C", "8S 7S TH TD TC"], dealer=3, turn_up="2S")
    view = view_to_act(deal)
    for seed in range(30):
        decision = make_bot("easy").decide(view, random.Random(seed))
        slip = decision.fact("misjudged_by")
        assert isinstance(slip, int)
        assert decision.action - BID_BASE == max(0, 2 + slip)
        assert ("misjudged" in decision.summary) == (slip != 0)


def _magician_turned() -> Deal:
    rules = Rules.preset("magicians", schedule=(5,))
    hands = [CardSet.parse(h) for h in ("AH KH QH JH 2C", "2S 3S 4S 5S 6S", "2D 3D 4D 5D 6D", "7S 8S 9S TS 3C")]
    return Deal(rules, hands, dealer=0, turn_up=parse_card("MG"))


@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
def test_after_a_turned_magician_the_dealer_names_trump(level: str) -> None:
    deal = _magician_turned()
    view = seat_view(deal, 0)
    assert view.phase == "choosing-trump"
    decision = decide(level, view)
    assert TRUMP_BASE <= decision.action < TRUMP_BASE + 4
    if level != "random":
        assert decision.action == TRUMP_BASE + 1, decision.summary  # four hearts: hearts


def test_normal_names_the_suit_with_the_most_expected_points() -> None:
    decision = decide("normal", seat_view(_magician_turned(), 0))
    assert decision.options[0].action == decision.action
    assert f"{decision.options[0].value:.1f} points at its best bid" in decision.summary


@pytest.mark.parametrize("scoring", ["tricks+10", "10+bid", "5+bid", "magicians"])
def test_hard_bids_its_three_top_trumps_under_every_scoring(scoring: str) -> None:
    # AS KS QS of trumps are three sure tricks; the 2H and 3D almost surely lose. Whatever the scoring, the search
    # prices each bid by it, and 3 comes out best.
    hands = ["AS KS QS 2H 3D", "JS TS 5H 6D 7C", "9S 8S 8H 9D 8C", "7S 6S TH TD TC"]
    deal = deal_of(hands, dealer=3, turn_up="2S", scoring=scoring)
    decision = decide("hard", view_to_act(deal))
    assert decision.action == BID_BASE + 3, decision.summary
    assert decision.options[0].action == decision.action
