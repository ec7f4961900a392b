"""Hint: the words to the person and the numbers folded under them come from the decision, and agree with it."""

from __future__ import annotations

import random
import re

import pytest
from botkit import SEARCH, decide, hooked_dealer, view_to_act

from ohhell import Game
from ohhell.actions import action_text, argument_of, verb_of
from ohhell.bots import make_bot
from ohhell.bots.base import Decision
from ohhell.bots.hints import COUNT_ON, MAY_TAKE, SHARED_CHANCE, explain, figure, hint, suggest
from ohhell.bots.intent import Intent
from ohhell.bots.public import card_words
from ohhell.cards import SUIT_NAMES, card_name, card_text
from ohhell.deal import deal_from_pack
from ohhell.dealnumbers import shuffled_pack
from ohhell.rules import Rules
from ohhell.view import SeatView


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
        decision = suggest(view, level, random.Random(1), SEARCH)
        assert decision.level == level
        assert decision.action in view.legal_actions
        assert decision == decide(level, view, seed=1)
        assert hint(view, level, random.Random(1), SEARCH) == explain(decision, view)


def test_hints_come_only_from_the_normal_and_hard_players() -> None:
    with pytest.raises(ValueError, match="normal or hard"):
        hint(views_of_a_deal(1)[0], "easy")


def option_words(action: int) -> str:
    """How a hint's details name an option."""
    verb = verb_of(action)
    if verb == "play":
        return card_name(action)
    return SUIT_NAMES[argument_of(action)] if verb == "trump" else action_text(action)


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("preset", ["full", "magicians"])
def test_the_chosen_action_is_the_best_option_and_the_details_list_every_figure(level: str, preset: str) -> None:
    for view in views_of_a_deal(7, preset):
        decision = decide(level, view)
        advice = explain(decision, view)
        assert advice.action == decision.action
        details = "\n".join(advice.details)
        if len(decision.options) > 1:
            assert decision.action == decision.options[0].action
            assert decision.options == tuple(sorted(decision.options, key=lambda o: -o.value))
            if len({round(o.value, 1) for o in decision.options}) == 1:
                assert f"{figure(decision.options[0].value)} whichever you choose." in details
            else:
                for option in decision.options[:6]:
                    assert f"{option_words(option.action)}: {figure(option.value)}" in details
        for card, chance in decision.card_chances:
            assert chance_named(details, card, chance) == (chance >= 0.005)
        assert not re.search(r"(?<![\d.])-?0\.0(?!\d)", details), details  # no 0.0 noise


def chance_named(details: str, card: int, chance: float) -> bool:
    """Whether the details give ``card`` its chance: alone ("ace of spades 93%") or in a group sharing it."""
    name, shown = card_name(card), f"{chance:.0%}"
    shared = rf"{re.escape(shown)} each for [^.;]*\bthe {re.escape(name)}(?![\w])"
    return f"{name} {shown}" in details or re.search(shared, details) is not None


def test_the_cards_of_a_big_hand_that_share_one_chance_are_named_together() -> None:
    """Issue 22: a 13-card hand's hint listed card after card at one same figure, as if each had been worked out;
    they share the calibration's lowest rate, and the details say it once for all of them."""
    game = Game(Rules.preset("full", players=4, schedule="down-from-max"), number=1)
    advice = hint(game.view(game.to_act), "normal", random.Random(0))
    chances = advice.details[-1]
    figures = re.findall(r"\b(\d+)%", chances)
    assert all(figures.count(f) < SHARED_CHANCE for f in figures), chances  # a figure many cards share: said once
    assert re.search(r"\d+% each for the [^;]+ and the ", chances), chances


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_hint_speaks_to_you_in_card_names_with_no_numbers_outside_its_details(level: str) -> None:
    for view in views_of_a_deal(8):
        advice = explain(decide(level, view), view, ["Ann", "Bob", "Cleo", "Dev"])
        codes = {card_text(c) for c in range(52)}
        words = set(advice.reason.replace(",", " ").replace(".", " ").replace(":", " ").split())
        assert not words & codes, advice.reason
        assert not re.search(r"\d\.\d|%|points|simulated deals? \d", advice.reason), advice.reason
        if verb_of(advice.action) == "play":
            assert advice.reason.startswith(f"Play {card_words(advice.action)}: you ")
        assert not any(code in line.split() for line in advice.details for code in codes), advice.details


def test_the_normal_bid_hint_names_the_cards_it_counts_on() -> None:
    for view in views_of_a_deal(11):
        if view.phase != "bidding":
            continue
        decision = decide("normal", view)
        reason = explain(decision, view).reason
        for card, chance in decision.card_chances:
            assert (card_words(card) in reason) == (chance >= MAY_TAKE), (card_words(card), chance, reason)
        sure = [c for c, p in decision.card_chances if p >= COUNT_ON]
        assert ("you can count on" in reason) == bool(sure)


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
        details = explain(decision, view).details
        worlds = decision.fact("worlds")
        simulations = decision.fact("simulations")
        if simulations:
            assert f"Searched {simulations} simulated deals over {worlds} sampled worlds" in decision.summary
            assert _weighed(decision, view.phase) in decision.summary
            assert sum(o.samples for o in decision.options) == simulations
            assert decision.options[0].samples == max(o.samples for o in decision.options), "the most searched"
            assert details[0] == f"Searched {simulations} simulated deals over {worlds} sampled worlds."
            if len({o.samples for o in decision.options}) > 1:
                uneven += 1
                for option in decision.options[:6]:
                    deals = f"{option.samples} simulated deal{'' if option.samples == 1 else 's'}"
                    assert f"{option_words(option.action)}: {figure(option.value)} ({deals})" in "\n".join(details)
        elif worlds:
            assert f"Searched {worlds} sampled worlds" in decision.summary
            assert _weighed(decision, view.phase) in decision.summary
            assert all(o.samples == worlds for o in decision.options)
            assert details[0] == f"Searched {worlds} sampled worlds."
    assert uneven, "the tree searched some decision with more than one option"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_forbidden_bid_is_named_when_the_hook_bites(level: str) -> None:
    decision = decide(level, hooked_dealer())
    assert "1 is forbidden to the dealer (the bids would total 3)" in decision.summary
    assert decision.fact("forbidden_bid") == 1
    assert "bid 1" not in [action_text(o.action) for o in decision.options]


def test_the_normal_hint_says_when_the_hook_moved_the_bid() -> None:
    view = hooked_dealer()
    decision = decide("normal", view)
    assert decision.intent is Intent.HOOKED
    reason = explain(decision, view).reason
    assert "you can count on the ace of hearts" in reason
    assert "You would bid 1, but as the dealer you may not make the bids add up to the three tricks." in reason


def test_easy_names_the_forbidden_bid_in_the_same_words() -> None:
    view = hooked_dealer()
    straight = 0
    for seed in range(40):
        decision = decide("easy", view, seed)
        assert decision.fact("forbidden_bid") == 1
        assert action_text(decision.action) != "bid 1"
        if decision.fact("misjudged_by") == 0:
            straight += 1
            assert "1 is forbidden to the dealer (the bids would total 3)" in decision.summary
    assert straight, "some seeds count the ace of trumps without a slip"
