"""The compiled end-game search agrees with a brute-force search over the engine's own deal."""

from __future__ import annotations

import random

import pytest

from ohhell.bots import playout
from ohhell.bots.endgame import best_play, solvable
from ohhell.cards import CardSet, parse_card
from ohhell.deal import Deal, deal_from_pack
from ohhell.rules import Rules


def _random_position(rng: random.Random, tricks_left: int) -> Deal:
    players = rng.choice([3, 4, 5, 6])
    size = rng.choice([tricks_left, 6, 8, 51 // players])
    scoring = rng.choice(["10+bid", "tricks+10", "5+bid"])
    rules = Rules.preset("full", players=players, schedule=(size,), scoring=scoring)
    pack = list(range(52))
    rng.shuffle(pack)
    deal = deal_from_pack(rules, pack, rng.randrange(players), 0)
    while deal.phase_name == "bidding":
        deal.apply(rng.choice(deal.legal_actions()))
    while deal.size - len(deal.tricks) > tricks_left or (deal.trick and rng.random() < 0.5):
        deal.apply(rng.choice(playout.plays(deal)))
        if deal.is_over:
            break
    return deal


def _brute_force_best(deal: Deal) -> int:
    """The best points the seat to act can reach, every seat playing for its own score (engine moves)."""
    seat = deal.to_act
    best = -(10**9)
    for card in playout.plays(deal):
        deal.apply(card, seat)
        points = deal.points[seat] if deal.points is not None else playout._solve(deal)[seat]
        deal.undo()
        best = max(best, points)
    return best


@pytest.mark.parametrize("tricks_left", [1, 2, 3])
def test_the_search_finds_the_best_card_for_the_seat_to_act(tricks_left: int) -> None:
    rng = random.Random(tricks_left)
    checked = 0
    for _ in range(60):
        deal = _random_position(rng, tricks_left)
        if deal.is_over:
            continue
        before = (list(deal.hands), list(deal.trick), list(deal.tricks_won), deal.to_act)
        seat = deal.to_act
        card = best_play(deal)
        assert (list(deal.hands), list(deal.trick), list(deal.tricks_won), deal.to_act) == before
        assert card in playout.plays(deal)
        deal.apply(card, seat)
        reached = deal.points[seat] if deal.points is not None else playout._solve(deal)[seat]
        deal.undo()
        assert reached == _brute_force_best(deal)
        checked += 1
    assert checked > 30


def test_a_seat_that_has_made_its_bid_ducks_when_it_can() -> None:
    rules = Rules.preset("full", players=3, schedule=(2,))
    deal = Deal(
        rules,
        [CardSet.parse("KS 2H"), CardSet.parse("AS 3H"), CardSet.parse("QS 4H")],
        dealer=2,
        turn_up=parse_card("9D"),
    )
    for bid in (0, 1, 0):
        deal.bid(bid)
    deal.play("KS")
    assert best_play(deal) == parse_card("AS")  # seat 1 bid 1: takes it with the ace
    deal.play("AS")
    assert best_play(deal) == parse_card("QS")


def test_magicians_and_jesters_are_left_to_the_engine_search() -> None:
    rules = Rules.preset("magicians", players=3, schedule=(3,))
    deal = deal_from_pack(rules, [*range(52, 60), *range(52)], 0, 0)
    while deal.phase_name != "playing":
        deal.apply(deal.legal_actions()[0])
    assert not solvable(deal)
