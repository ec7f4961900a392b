"""The classic blunders people complain about in other apps, each set up where the right play is clear."""

from __future__ import annotations

import pytest
from botkit import act, deal_of, decide, view_to_act

from ohhell.actions import BID_BASE, action_text
from ohhell.cards import parse_card

SEARCHING = ["normal", "hard"]


@pytest.mark.parametrize("level", SEARCHING)
@pytest.mark.parametrize("scoring", ["tricks+10", "10+bid", "5+bid", "magicians"])
def test_hooked_dealer_with_the_ace_of_trumps_does_not_bid_zero(level: str, scoring: str) -> None:
    # The others bid 1 + 1 + 0 of 3 tricks, so the hook forbids the dealer 1; 0 is legal but the ace is a sure trick.
    deal = deal_of(["KS QS JS", "KD QD JD", "KC QC JC", "AH 2C 3D"], dealer=3, turn_up="9H", scoring=scoring)
    act(deal, "bid 1", "bid 1", "bid 0")
    view = view_to_act(deal)
    assert view.forbidden_bid == 1
    decision = decide(level, view)
    assert decision.action != BID_BASE + 0, decision.summary
    assert decision.action in view.legal_actions


def _made_its_bid(last_to_play: bool) -> list[str]:
    """Seat 0 bid 0 and has taken nothing; hearts are led and the jack of hearts is winning. It holds TH and QH."""
    if last_to_play:
        hands = ["3D TH QH", "AD 9H 4C", "5D 8H 5C", "6D JH 6C"]
        plays = ["play 3D", "play AD", "play 5D", "play 6D", "play 9H", "play 8H", "play JH"]
    else:
        hands = ["3D TH QH", "4D 9H 4C", "5D 8H 5C", "AD JH 6C"]
        plays = ["play 3D", "play 4D", "play 5D", "play AD", "play JH"]
    return [*hands, *plays]


@pytest.mark.parametrize(("level", "last_to_play"), [("normal", True), ("normal", False), ("hard", True)])
def test_a_player_that_has_made_its_bid_plays_under_the_winning_card(level: str, last_to_play: bool) -> None:
    script = _made_its_bid(last_to_play)
    deal = deal_of(script[:4], dealer=3, turn_up="2S")
    act(deal, "bid 0", "bid 1", "bid 0", "bid 1", *script[4:])
    view = view_to_act(deal)
    assert view.seat == 0
    decision = decide(level, view)
    assert action_text(decision.action) == "play TH", decision.summary


@pytest.mark.parametrize("level", SEARCHING)
def test_a_player_needing_every_trick_keeps_its_top_trump(level: str) -> None:
    # Seat 0 bid 2 and lost the first trick, so it needs both of the last two. Spades are trump; it holds AS 3S and
    # plays last to a heart trick nobody has trumped: the 3S wins it, and the AS then takes the last trick. Playing
    # the AS now would leave the 3S to lose to the KS or QS.
    deal = deal_of(["2D AS 3S", "AD 9H KS", "5D 8H QS", "6D JH TH"], dealer=3, turn_up="2S")
    act(deal, "bid 2", "bid 1", "bid 0", "bid 1", "play 2D", "play AD", "play 5D", "play 6D", "play 9H", "play 8H")
    act(deal, "play JH")
    decision = decide(level, view_to_act(deal))
    assert decision.action == parse_card("3S"), decision.summary


@pytest.mark.parametrize("level", SEARCHING)
@pytest.mark.parametrize(("scoring", "card"), [("tricks+10", "QH"), ("magicians", "TH")])
def test_an_overtrick_is_taken_or_avoided_as_the_scoring_says(level: str, scoring: str, card: str) -> None:
    # Seat 0 bid 0 and already took a trick. Winning this heart trick with the QH also wins the last trick with the
    # TH: two more tricks. Under tricks+10 each is a point; under magicians scoring each costs 10.
    hands = ["AD 2C TH QH", "3D AC 9H 5C", "4D 3C 8H 6C", "5D 4C JH 7C"]
    deal = deal_of(hands, dealer=3, turn_up="2S", scoring=scoring)
    act(deal, "bid 0", "bid 1", "bid 0", "bid 1", "play AD", "play 3D", "play 4D", "play 5D")
    act(deal, "play 2C", "play AC", "play 3C", "play 4C", "play 9H", "play 8H", "play JH")
    decision = decide(level, view_to_act(deal))
    assert decision.action == parse_card(card), decision.summary
