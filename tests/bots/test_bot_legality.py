"""No bot ever picks an illegal action, under every preset and option: random rule sets, whole short games."""

from __future__ import annotations

import random

import pytest
from botkit import SEARCH

from ohhell.bots import LEVELS, Bot, Budget, Decision, NotMyTurnError, make_bot
from ohhell.bots.table import play_game
from ohhell.game import Game
from ohhell.rules import PRESETS, SCORING_SCHEMES, Rules
from ohhell.view import SeatView


def random_rules(rng: random.Random) -> Rules:
    """A preset with every option drawn on top: table size, trump rule, hook, bid changes, first lead, scoring."""
    specials = rng.random() < 0.4
    players = rng.randint(3, 6 if specials else 7)
    most = min(6, (60 if specials else 52) // players)
    scoring = rng.choice(SCORING_SCHEMES)
    trump: str | tuple[str, ...] = "turn-up"
    if rng.random() < 0.3:
        trump = tuple(rng.choice(["S", "H", "D", "C", "NT"]) for _ in range(rng.randint(1, 5)))
    return Rules.preset(
        rng.choice(sorted(PRESETS)),
        players=players,
        schedule=tuple(rng.randint(1, most) for _ in range(rng.randint(1, 3))),
        first_dealer=rng.choice(["random", "draw", rng.randrange(players)]),
        trump=trump,
        hook=rng.random() < 0.7,
        bid_changes=rng.choice(["final", "until-next"]),
        first_lead=rng.choice(["left-of-dealer", "dealer"]),
        scoring=scoring,
        miss_penalty=scoring != "magicians" and rng.random() < 0.3,
        zero_bid_bonus=rng.choice([None, None, 5, 0]),
        special_cards=specials,
    )


@pytest.mark.parametrize("seed", range(40))
def test_easy_normal_and_random_play_only_legal_actions(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    levels = [rng.choice(["easy", "normal", "random"]) for _ in range(rules.players)]
    decisions: list[Decision] = []

    def observe(view: SeatView, decision: Decision) -> None:
        assert decision.action in view.legal_actions, (rules, view, decision)
        assert decision.summary and decision.level == levels[view.seat]
        decisions.append(decision)

    game = Game(rules, number=seed)
    play_game(game, [make_bot(level) for level in levels], rng, observe=observe)
    assert game.is_over
    assert len(decisions) == sum(len(d.actions) for d in game.deals)


@pytest.mark.parametrize("seed", range(6))
def test_hard_plays_only_legal_actions(seed: int) -> None:
    rng = random.Random(1000 + seed)
    rules = random_rules(rng).replace(schedule=(rng.randint(1, 3),))
    bots: list[Bot] = [make_bot("hard"), make_bot("normal")] * rules.players
    game = Game(rules, number=seed)

    def observe(view: SeatView, decision: Decision) -> None:
        assert decision.action in view.legal_actions, (rules, view, decision)

    play_game(game, bots[: rules.players], rng, Budget(iterations=4), observe)
    assert game.is_over


def test_the_dealer_who_leads_under_until_next_plays_rather_than_changes() -> None:
    rules = Rules.preset("traditional", schedule=(2,), first_lead="dealer")
    for level in LEVELS:
        game = Game(rules, number=3)
        while game.deal.phase_name == "bidding":
            game.apply(game.legal_actions()[0])
        view = game.view(game.to_act)
        assert view.seat == view.dealer and any(a >= 96 for a in view.legal_actions)
        decision = make_bot(level).decide(view, random.Random(0), SEARCH)
        assert decision.action < 60


def test_a_bot_asked_out_of_turn_refuses() -> None:
    game = Game(Rules.preset("full"), number=1)
    idle = (game.to_act + 1) % 4
    with pytest.raises(NotMyTurnError):
        make_bot("normal").decide(game.view(idle), random.Random(0))
