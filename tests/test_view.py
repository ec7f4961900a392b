"""What one seat may know: its own hand and the public record, never another seat's hidden cards."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import make_deal, play_randomly, random_move
from ohhell.actions import action_text, bid, change
from ohhell.cards import CardSet, card_text, parse_card
from ohhell.deal import Deal, Trick, deal_from_pack
from ohhell.dealnumbers import shuffled_pack
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.view import SeatView, seat_view
from worlds import hidden_special_counts, other_worlds, positions, view_bytes

SEAT_VIEW_FIELDS = {
    "rules",
    "seat",
    "deal_index",
    "dealer",
    "hand_size",
    "hand",
    "turn_up",
    "trump",
    "phase",
    "to_act",
    "bids",
    "tricks_won",
    "first_leader",
    "trick_leader",
    "trick",
    "led_suit",
    "winning_seat",
    "tricks",
    "history",
    "legal_actions",
    "forbidden_bid",
    "totals",
}
"""Every field of :class:`SeatView`; a new field must be checked for hidden cards before it joins this set."""


def test_the_seat_view_fields_are_the_ones_checked_for_hidden_cards() -> None:
    assert {f.name for f in dataclasses.fields(SeatView)} == SEAT_VIEW_FIELDS


def cards_shown(view: SeatView) -> Iterator[tuple[str, int]]:
    """Every card number anywhere in ``view``, with the field it is in."""
    yield from (("hand", c) for c in view.hand)
    if view.turn_up is not None:
        yield "turn_up", view.turn_up
    yield from (("trick", c) for c in view.trick)
    yield from (("tricks", c) for t in view.tricks for c in t.cards)
    yield from (("history", a) for _, a in view.history if a < 60)
    yield from (("legal_actions", a) for a in view.legal_actions if a < 60)


def hidden_from(deal: Deal, seat: int) -> int:
    """The cards ``seat`` may not see: what the other seats still hold."""
    hidden = 0
    for other, hand in enumerate(deal.hands):
        if other != seat:
            hidden |= hand
    return hidden


def assert_view_hides_other_hands(deal: Deal, view: SeatView) -> None:
    """No field shows a card another seat still holds, and every card shown outside the hand is public.

    Copies of a Magician or Jester are interchangeable, so for them the check is that the cards shown
    are the cards played, the turned card, or (as legal plays) the seat's own.
    """
    hidden = hidden_from(deal, view.seat)
    for field, card in cards_shown(view):
        if card < 52:
            assert not hidden >> card & 1, f"{field} shows {card}, held by another seat"
    assert view.hand.texts() == CardSet(deal.hands[view.seat]).texts()
    played = [card_text(c) for t in deal.tricks for c in t.cards] + [card_text(c) for c in deal.trick]
    assert [card_text(c) for t in view.tricks for c in t.cards] + [card_text(c) for c in view.trick] == played
    assert [action_text(a) for _, a in view.history] == [action_text(a) for _, a in deal.actions]
    assert (view.turn_up is None) == (deal.turn_up is None)
    assert view.turn_up is None or deal.turn_up is None or card_text(view.turn_up) == card_text(deal.turn_up)
    assert all(a in view.hand for a in view.legal_actions if a < 60)


def assert_holds_no_reference_to_the_deal(view: SeatView, deal: Deal) -> None:
    """Nothing reachable from the view is the deal or one of its mutable parts."""
    mutable = {id(deal), id(deal.hands), id(deal.bids), id(deal.trick), id(deal.tricks), id(deal.actions)}
    seen: set[int] = set()
    stack: list[object] = [getattr(view, f.name) for f in dataclasses.fields(view)]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        assert id(item) not in mutable
        assert not isinstance(item, (Deal, list, dict, set))
        if isinstance(item, tuple):
            stack.extend(item)


VIEW_RULES = [
    Rules.preset("full", players=4, schedule=(7,)),
    Rules.preset("traditional", players=5, schedule=(6,)),
    Rules.preset("magicians", players=4, schedule=(12,)),
    Rules.preset("magicians", players=3, schedule=(20,), bid_changes="until-next"),
]


@pytest.mark.parametrize("rules", VIEW_RULES, ids=lambda r: f"{r.preset_name}-{r.players}")
@pytest.mark.parametrize("seed", range(4))
def test_a_view_shows_its_own_hand_and_never_another_seats_cards(rules: Rules, seed: int) -> None:
    deal = deal_from_pack(rules, shuffled_pack(seed, rules.players, rules.special_cards, 0), seed % rules.players, 0)
    rng = random.Random(seed)
    while True:
        for seat in range(rules.players):
            view = seat_view(deal, seat)
            assert view.seat == seat
            assert_view_hides_other_hands(deal, view)
            assert_holds_no_reference_to_the_deal(view, deal)
        if deal.is_over:
            break
        seat, action = random_move(deal, rng)
        deal.apply(action, seat)


def test_a_view_copies_the_public_state_of_the_deal() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    deal.apply(bid(0))
    deal.apply(bid(1))
    view = seat_view(deal, 0, totals=(3, 4, 5))
    assert view.rules is deal.rules
    assert view.players == 3
    assert (view.seat, view.deal_index, view.dealer, view.hand_size) == (0, 0, 2, 2)
    assert view.hand == CardSet.parse("AD 2C")
    assert view.turn_up == parse_card("9H")
    assert view.trump == 1
    assert view.phase == "bidding"
    assert view.to_act == 2
    assert view.bids == (0, 1, None)
    assert view.tricks_won == (0, 0, 0)
    assert view.first_leader == 0
    assert view.history == ((0, bid(0)), (1, bid(1)))
    assert view.legal_actions == ()
    assert not view.my_turn
    assert view.forbidden_bid == 1
    assert view.totals == (3, 4, 5)
    assert seat_view(deal, 2).legal_actions == (bid(0), bid(2))
    assert seat_view(deal, 2).my_turn


def test_a_view_of_the_play_shows_the_trick_in_progress_by_seat() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    for n in (0, 1, 0):
        deal.apply(bid(n))
    deal.play("AD")
    deal.play("3H")
    deal.play("5H")
    deal.play("4C")
    view = seat_view(deal, 1)
    assert view.tricks == (Trick(0, (parse_card("AD"), parse_card("3H"), parse_card("5H")), 2),)
    assert view.trick == (parse_card("4C"),)
    assert view.trick_leader == 2
    assert view.trick_seats() == [(2, parse_card("4C"))]
    assert view.played == CardSet.parse("AD 3H 5H 4C")
    assert view.tricks_won == (0, 0, 1)
    assert view.hand == CardSet.parse("5C")
    assert seat_view(deal, 0).legal_actions == (parse_card("2C"),)
    assert seat_view(deal, 1).legal_actions == ()


def test_legal_actions_are_only_for_the_seat_to_act_under_final_bids() -> None:
    rules = Rules.preset("full", players=5, schedule=(6,))
    deal = deal_from_pack(rules, shuffled_pack(4, 5, False, 0), 0, 0)
    rng = random.Random(0)
    while not deal.is_over:
        for seat in range(5):
            view = seat_view(deal, seat)
            assert bool(view.legal_actions) == (seat == deal.to_act)
            assert view.my_turn == (seat == deal.to_act)
            if seat == deal.to_act:
                assert view.legal_actions == deal.legal_actions()
        play_randomly(deal, rng, steps=1)
    assert all(seat_view(deal, s).legal_actions == () for s in range(5))


def test_under_until_next_a_seat_not_to_act_sees_only_its_open_bid_changes() -> None:
    rules = Rules.preset("traditional", players=4, schedule=(5,))
    deal = deal_from_pack(rules, shuffled_pack(4, 4, False, 0), 3, 0)
    deal.apply(bid(2))
    view = seat_view(deal, 0)
    assert view.legal_actions == tuple(change(n) for n in (0, 1, 3, 4, 5))
    assert not view.my_turn
    assert seat_view(deal, 2).legal_actions == ()


def test_a_view_of_a_seat_that_does_not_exist_is_refused() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    with pytest.raises(ValueError, match="there is no seat 3: seats are 0 to 2"):
        seat_view(deal, 3)
    with pytest.raises(ValueError, match="there is no seat -1"):
        seat_view(deal, -1)


def test_a_view_is_frozen() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    view = seat_view(deal, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 1  # type: ignore[misc]


def test_a_view_does_not_change_when_the_deal_goes_on() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    view = seat_view(deal, 0)
    before = tuple(getattr(view, f.name) for f in dataclasses.fields(view))
    deal.apply(bid(1))
    assert tuple(getattr(view, f.name) for f in dataclasses.fields(view)) == before


def test_a_view_converts_to_a_dict_for_sending() -> None:
    deal = make_deal(["AD 2C", "3H 5C", "5H 4C"], dealer=2, turn_up="9H")
    assert dataclasses.asdict(seat_view(deal, 0))["seat"] == 0


def test_a_games_view_carries_the_totals_before_the_deal_and_never_the_number() -> None:
    game = Game(Rules.preset("short", players=3), number=5)
    rng = random.Random(2)
    while game.deal_index == 0:
        seat, action = random_move(game.deal, rng)
        game.apply(action, seat)
    view = game.view(1)
    assert view.totals == tuple(game.totals)
    assert not hasattr(view, "deal_number")
    assert view.deal_index == 1
    assert view.hand == game.deal.hand(1)


def test_the_view_names_the_suit_to_follow_and_who_is_winning() -> None:
    rules = Rules.preset("full", players=3, schedule=(2,))
    game = Game(rules, deal_cards=False, first_dealer=0)
    game.start_deal([CardSet.parse("AS 2H"), CardSet.parse("KH 3C"), CardSet.parse("QH 4C")], parse_card("9D"))
    for seat, n in ((1, 0), (2, 0), (0, 1)):
        game.bid(n, seat=seat)
    assert (game.view(2).led_suit, game.view(2).winning_seat) == (None, None)
    game.play("KH", seat=1)
    game.play("QH", seat=2)
    view = game.view(0)
    assert view.led_suit == parse_card("2H") // 13
    assert view.winning_seat == 1


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 2**32))
def test_a_seat_has_the_same_view_in_every_deal_it_cannot_tell_apart(game: Game, seed: int) -> None:
    """Copies of a Magician or Jester are named by what the seat saw, never by who holds the others."""
    rng = random.Random(seed)
    for seat in range(game.rules.players):
        view = view_bytes(game.view(seat))
        for world in other_worlds(game, seat, rng):
            assert view_bytes(world.view(seat)) == view, (
                f"seat {seat} sees another view when the others hold {hidden_special_counts(world, seat)}"
                f" Magicians and Jesters instead of {hidden_special_counts(game, seat)}"
            )
