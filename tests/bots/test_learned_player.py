"""The learned player: legal, deterministic and fair under every preset, with reasons from its own numbers."""

from __future__ import annotations

import random

import pytest

from ohhell.actions import BID_BASE
from ohhell.bots import hints, make_bot
from ohhell.bots.learned import LearnedBot
from ohhell.bots.table import play_game
from ohhell.game import Game
from ohhell.rules import PRESETS, Rules
from ohhell.view import SeatView
from worlds import other_worlds


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_whole_games_of_every_preset_are_played_legally_and_every_decision_is_fair(name: str) -> None:
    """Four (or three to six) learned players play a whole game; at a sample of the decisions the same decision
    comes from every world the seat cannot tell apart (hidden cards dealt again, a hidden Magician swapped)."""
    rules = Rules.preset(name, players=3 + len(name) % 4)
    game = Game(rules, number=1000 + len(name))
    bot = LearnedBot()
    checked = 0
    count = 0

    def observe(view: SeatView, decision: object) -> None:
        nonlocal checked, count
        count += 1
        assert decision == bot.decide(view, random.Random(1))  # deterministic, whatever the generator
        if count % 23 == 0:
            for world in other_worlds(game, view.seat, random.Random(count)):
                assert bot.decide(world.view(view.seat), random.Random(2)) == decision
            checked += 1

    play_game(game, [bot] * rules.players, random.Random(0), observe=observe)
    assert game.is_over
    assert checked >= 3


def test_the_bid_is_the_legal_one_with_the_most_expected_points_and_the_hook_is_respected() -> None:
    bot = LearnedBot()
    for number in range(30):
        game = Game(Rules.preset("full", players=4, schedule=(5,)), number=number)
        while game.deal.to_act != game.deal.dealer:
            game.apply(bot.decide(game.view(game.to_act), random.Random(0)).action, game.to_act)
        view = game.view(game.to_act)
        decision = bot.decide(view, random.Random(0))
        assert decision.action in view.legal_actions
        assert decision.options[0].action == decision.action
        assert [o.value for o in decision.options] == sorted((o.value for o in decision.options), reverse=True)
        if view.forbidden_bid is not None:
            assert BID_BASE + view.forbidden_bid not in [o.action for o in decision.options]
        assert 0.0 <= float(decision.fact("made_chance") or 0.0) <= 1.0


def test_a_hint_and_a_why_can_be_written_from_its_numbers() -> None:
    from ohhell.bots.public import why

    game = Game(Rules.preset("full"), number=77)
    bot = make_bot("normal")
    for _ in range(12):
        view = game.view(game.to_act)
        decision = bot.decide(view, random.Random(0))
        advice = hints.explain(decision, view)
        assert advice.reason and advice.details
        assert why(decision, view, tuple(f"P{s}" for s in range(4)))
        game.apply(decision.action, game.to_act)


def test_exploring_makes_some_other_choices_drawn_from_the_generator() -> None:
    plain, exploring = LearnedBot(), LearnedBot(explore=1.0)
    game = Game(Rules.preset("full", players=4, schedule=(8,)), number=5)
    view = game.view(game.to_act)
    chosen = {exploring.decide(view, random.Random(seed)).action for seed in range(20)}
    assert len(chosen) > 1
    assert plain.decide(view, random.Random(3)) == plain.decide(view, random.Random(4))
