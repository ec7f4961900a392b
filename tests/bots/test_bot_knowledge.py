"""What a seat infers from its view, and the worlds sampled from it."""

from __future__ import annotations

import dataclasses
import random

import pytest
from botkit import act, deal_of

from ohhell.actions import action_text
from ohhell.bots.knowledge import read_view, voids_from_tricks
from ohhell.bots.sampling import BidEvidence, BidModel, _try_place, deal_hidden, rebuild, sample_world
from ohhell.cards import CLUBS, DIAMONDS, HEARTS, SPADES, SUIT_OF, CardSet, card_text, parse_card
from ohhell.deal import Deal, deal_from_pack
from ohhell.dealnumbers import shuffled_pack
from ohhell.rules import Rules
from ohhell.view import SeatView, seat_view


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def as_text(view: SeatView) -> dict[str, object]:
    """The view's fields with every card and action as text: copies of a Magician or Jester are interchangeable."""
    fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
    fields["hand"] = view.hand.texts()
    fields["turn_up"] = None if view.turn_up is None else card_text(view.turn_up)
    fields["trick"] = [card_text(c) for c in view.trick]
    fields["tricks"] = [(t.leader, [card_text(c) for c in t.cards], t.winner) for t in view.tricks]
    fields["history"] = [(s, action_text(a)) for s, a in view.history]
    fields["legal_actions"] = [action_text(a) for a in view.legal_actions]
    return fields


def test_a_failure_to_follow_marks_a_void() -> None:
    voids = voids_from_tricks(4, [(1, cards("AS KH 2S 3S"))])
    assert voids == [0, 0, 1 << SPADES, 0]


def test_magicians_and_jesters_prove_nothing() -> None:
    # Seat 1 plays a Jester and seat 2 a Magician on a spade lead: both may always be played.
    assert voids_from_tricks(4, [(0, cards("AS JE MG 3S"))]) == [0, 0, 0, 0]


def test_after_a_led_jester_the_first_other_card_sets_the_suit() -> None:
    # Jester led, then KH sets hearts: seat 3's spade shows it has no hearts; seat 1 followed nothing.
    assert voids_from_tricks(4, [(0, cards("JE KH 2H 3S"))]) == [0, 0, 0, 1 << HEARTS]


def test_after_a_led_magician_there_is_no_suit_to_follow() -> None:
    assert voids_from_tricks(4, [(0, cards("MG KH 2S 3D"))]) == [0, 0, 0, 0]
    assert voids_from_tricks(4, [(0, cards("JE MG 2S 3D"))]) == [0, 0, 0, 0]


def test_unseen_cards_held_counts_and_the_stock() -> None:
    deal = deal_of(["AS KS", "2H 3H", "4D 5D", "6C 7C"], dealer=3, turn_up="9H")
    act(deal, "bid 1", "bid 0", "bid 0", "bid 0", "play AS", "play 2H")
    known = read_view(seat_view(deal, 2))
    assert known.held == (1, 1, 2, 2)
    assert known.voids[1] == 1 << SPADES
    unseen = CardSet(known.unseen)
    assert parse_card("9H") not in unseen and parse_card("AS") not in unseen and parse_card("KS") in unseen
    assert known.unseen_count == 52 - 2 - 2 - 1
    assert known.stock == known.unseen_count - (1 + 1 + 2)


def test_special_cards_are_counted_not_matched_by_copy() -> None:
    # A turned Magician and the Magician in a hand may carry the same copy number; both are out of the unseen count.
    rules = Rules.preset("magicians", schedule=(2,))
    deal = Deal(rules, [CardSet.parse(h) for h in ("MG JE", "AS KS", "2H 3H", "4D 5D")], 3, parse_card("MG"))
    known = read_view(seat_view(deal, 0))
    assert known.unseen_magicians == 2
    assert known.unseen_jesters == 3


@pytest.mark.parametrize("number", range(8))
def test_sampled_worlds_agree_with_the_view(number: int) -> None:
    rules = Rules.preset("magicians" if number % 2 else "full", schedule=(8,))
    deal = deal_from_pack(rules, shuffled_pack(number, 4, rules.special_cards, 0), number % 4, 0)
    rng = random.Random(number)
    while len(deal.tricks) < 4:
        deal.apply(rng.choice([a for a in deal.legal_actions() if a < 96]))
    view = seat_view(deal, (deal.to_act + number) % 4)
    known = read_view(view)
    for _ in range(5):
        hidden = deal_hidden(known, rng)
        for seat, hand in enumerate(hidden):
            if seat != view.seat:
                assert len(hand) == known.held[seat]
                assert not any(c < 52 and known.voids[seat] >> SUIT_OF[c] & 1 for c in hand)
        world = rebuild(view, known, hidden)
        assert as_text(seat_view(world, view.seat)) == as_text(view)


def test_a_tightly_constrained_world_is_still_found() -> None:
    # Seat 1 holds only spades and hearts, seat 2 only diamonds and clubs, seat 3 only spades and diamonds, and
    # seat 0 knows it. Placing cards at random nearly always paints itself into a corner; the checked placement
    # (Hall's condition before each card) never does, so sampling always succeeds.
    hands = [
        "AS AH KH QH JH TH 9H AD AC KC QC JC",
        "KS QS JS TS 9S 8S 8H 7H 6H 5H 4H 3H",
        "KD QD JD TD 9D 8D TC 9C 8C 7C 6C 5C",
        "7S 6S 5S 4S 3S 2S 7D 6D 5D 4D 3D 2D",
    ]
    known = read_view(seat_view(deal_of(hands, dealer=3, turn_up="2C"), 0))
    void = {s: 1 << s for s in (SPADES, HEARTS, DIAMONDS, CLUBS)}
    tight = dataclasses.replace(
        known, voids=(0, void[DIAMONDS] | void[CLUBS], void[SPADES] | void[HEARTS], void[HEARTS] | void[CLUBS])
    )
    rng = random.Random(0)
    assert sum(_try_place(tight, rng, check=False) is None for _ in range(100)) > 50
    for _ in range(20):
        hidden = deal_hidden(tight, rng)
        for seat in (1, 2, 3):
            assert len(hidden[seat]) == 12
            assert not any(tight.voids[seat] >> SUIT_OF[c] & 1 for c in hidden[seat])


def test_bids_weigh_the_worlds() -> None:
    # Seat 1 bid 5 of 5: worlds that give it strong cards are kept far more often than weak ones.
    deal = deal_of(["2S 3S 4S 5S 6S", "AH KH QH AD AC", "7S 8S 9S TS JS", "2C 3C 4C 5C 6C"], dealer=3, turn_up="2H")
    act(deal, "bid 0", "bid 5", "bid 0", "bid 1")
    view = seat_view(deal, 0)
    known = read_view(view)
    evidence = BidEvidence.from_view(known, view)
    rng = random.Random(3)
    strong = weak = 0.0
    for _ in range(400):
        world = sample_world(view, known, rng, evidence)
        aces_and_trumps = sum(1 for c in CardSet(world.hands[1]) if c % 13 == 12 or SUIT_OF[c] == HEARTS)
        strong += aces_and_trumps
        weak += 5 - aces_and_trumps
    unweighted = sum(
        sum(
            1
            for c in CardSet(rebuild(view, known, deal_hidden(known, rng)).hands[1])
            if c % 13 == 12 or SUIT_OF[c] == HEARTS
        )
        for _ in range(400)
    )
    assert strong > 1.3 * unweighted


def test_a_bid_model_reads_a_bid_against_the_strength_it_expects() -> None:
    # Cards 0 and 1 are worth a trick each, card 2 half a trick; seat 1 bid 2.
    values = (1.0, 1.0, 0.5) + (0.0,) * 57
    plain = BidEvidence(values, (None, 2, None, None), 0)
    fitted = BidEvidence(values, (None, 2, None, None), 0, BidModel(offset=-1.4, slope=1.36, spread=0.9))
    two, two_and_a_half = [[], [0, 1], [], []], [[], [0, 1, 2], [], []]
    assert plain.likelihood(two) == 1.0, "the plain model reads a bid as the strength itself"
    assert plain.likelihood(two) > plain.likelihood(two_and_a_half)
    # The fitted bidders bid low on middling hands: a bid of 2 is expected of strength 2.5 (-1.4 + 1.36 * 2.5 = 2).
    assert fitted.model.expected(2.5) == pytest.approx(2.0)
    assert fitted.likelihood(two_and_a_half) > fitted.likelihood(two)
    assert fitted.likelihood(two_and_a_half) == pytest.approx(1.0)
