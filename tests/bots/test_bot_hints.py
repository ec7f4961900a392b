"""Hint and Why?: the words come from the numbers that made the decision, and agree with the action taken."""

from __future__ import annotations

import random

import pytest
from botkit import SEARCH, act, deal_of, decide, view_to_act

from ohhell.actions import action_text
from ohhell.bots import make_bot
from ohhell.bots.base import Decision
from ohhell.bots.hints import explain, hint
from ohhell.cards import card_text
from ohhell.deal import deal_from_pack
from ohhell.dealnumbers import shuffled_pack
from ohhell.rules import Rules
from ohhell.view import SeatView, seat_view


def views_of_a_deal(number: int, preset: str = "full") -> list[SeatView]:
    """The view of the seat to act at every moment of a 5-card deal played by Normal players."""
    rules = Rules.preset(preset, schedule=(5,))
    deal = deal_from_pack(rules, shuffled_pack(number, 4, rules.special_cards, 0), number % 4, 0)
    bot = make_bot("normal")
    views = []
    while not deal.is_over:
        view = view_to_act(deal)
        views.append(view)
        deal.apply(bot.decide(view, random.Random(0)).action)
    return views


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_hint_is_that_players_decision_from_the_seats_own_view(level: str) -> None:
    for view in views_of_a_deal(3)[::3]:
        decision = hint(view, level, random.Random(1), SEARCH)
        assert decision.level == level
        assert decision.action in view.legal_actions
        assert decision == decide(level, view, seed=1)


def test_hints_come_only_from_the_normal_and_hard_players() -> None:
    with pytest.raises(ValueError, match="normal or hard"):
        hint(views_of_a_deal(1)[0], "easy")


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("preset", ["full", "magicians"])
def test_the_chosen_action_is_the_best_option_and_the_why_lists_every_figure(level: str, preset: str) -> None:
    for view in views_of_a_deal(7, preset):
        decision = decide(level, view)
        text = explain(decision)
        assert text.splitlines()[0] == decision.summary
        if not decision.options:
            continue
        assert decision.action == decision.options[0].action
        assert decision.options == tuple(sorted(decision.options, key=lambda o: -o.value))
        for option in decision.options[:6]:
            assert f"{action_text(option.action)} {option.value:.1f}" in text
        for card, chance in decision.card_chances:
            assert f"{card_text(card)} {chance:.0%}" in text


def test_the_normal_bid_names_its_expected_tricks_and_expected_points() -> None:
    for view in views_of_a_deal(11):
        if view.phase != "bidding":
            continue
        decision = decide("normal", view)
        expected = decision.fact("expected_tricks")
        assert isinstance(expected, float)
        assert abs(expected - sum(p for _, p in decision.card_chances)) < 0.01
        assert f"add up to {expected:.1f} expected tricks" in decision.summary
        assert f"scores {decision.options[0].value:.1f} points" in decision.summary


def test_the_normal_play_names_the_chance_of_winning_the_trick() -> None:
    for view in views_of_a_deal(12):
        decision = decide("normal", view)
        if view.phase != "playing" or "under the winning" in decision.summary:
            continue
        chance = dict(decision.card_chances)[decision.action]
        if chance:
            assert f"the {card_text(decision.action)} takes this trick {chance:.0%} of the time" in decision.summary
        else:
            assert f"the {card_text(decision.action)} cannot win this trick" in decision.summary
        assert decision.fact("win_chance") == chance


def _weighed(decision: Decision, phase: str) -> str:
    """How a Hard summary states the value of its choice: own points for a bid, the lead over the table for a card."""
    value = decision.options[0].value
    if phase == "bidding":
        return f"scored {value:.1f} points on average and"
    return f"points on average ({value:+.1f} against the other seats' mean)"


def test_the_hard_decision_names_its_sampled_worlds() -> None:
    uneven = 0
    for view in views_of_a_deal(13)[:8]:
        decision = decide("hard", view)
        worlds = decision.fact("worlds")
        simulations = decision.fact("simulations")
        if simulations:
            assert f"Searched {simulations} simulated deals over {worlds} sampled worlds" in decision.summary
            assert _weighed(decision, view.phase) in decision.summary
            assert sum(o.samples for o in decision.options) == simulations
            assert decision.options[0].samples == max(o.samples for o in decision.options), "the most searched"
            if len({o.samples for o in decision.options}) > 1:
                uneven += 1
                text = explain(decision)
                assert "sampled worlds:" not in text.splitlines()[1], "visits are not worlds"
                assert "with the simulated deals behind each" in text
                for option in decision.options[:6]:
                    assert f"{action_text(option.action)} {option.value:.1f} ({option.samples})" in text
        elif worlds:
            assert f"Searched {worlds} sampled worlds" in decision.summary
            assert _weighed(decision, view.phase) in decision.summary
            assert all(o.samples == worlds for o in decision.options)
            if decision.options:
                assert f"over {worlds} sampled worlds:" in explain(decision)
    assert uneven, "the tree searched some decision with more than one option"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_forbidden_bid_is_named_when_the_hook_bites(level: str) -> None:
    deal = deal_of(["KS QS JS", "KD QD JD", "KC QC JC", "AH 2C 3D"], dealer=3, turn_up="9H")
    act(deal, "bid 1", "bid 1", "bid 0")
    decision = decide(level, seat_view(deal, 3))
    assert "1 is forbidden to the dealer (the bids would total 3)" in decision.summary
    assert decision.fact("forbidden_bid") == 1
    assert "bid 1" not in [action_text(o.action) for o in decision.options]


def test_easy_names_the_forbidden_bid_in_the_same_words() -> None:
    deal = deal_of(["KS QS JS", "KD QD JD", "KC QC JC", "AH 2C 3D"], dealer=3, turn_up="9H")
    act(deal, "bid 1", "bid 1", "bid 0")
    view = seat_view(deal, 3)
    straight = 0
    for seed in range(40):
        decision = decide("easy", view, seed)
        assert decision.fact("forbidden_bid") == 1
        assert action_text(decision.action) != "bid 1"
        if decision.fact("misjudged_by") == 0:
            straight += 1
            assert "1 is forbidden to the dealer (the bids would total 3)" in decision.summary
    assert straight, "some seeds count the ace of trumps without a slip"
