"""The door to the computer players: legal moves, reasons that keep their hands hidden, hints from one view."""

from __future__ import annotations

import random

import pytest

from ohhell.bots import public
from ohhell.cards import CardSet, card_text, parse_card
from ohhell.deal import Deal
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server import players
from ohhell.view import seat_view
from server.leaks import cards_mentioned


def three_seat_deal() -> Deal:
    hands = [CardSet.parse("AS KH"), CardSet.parse("2S 3H"), CardSet.parse("QS QD")]
    return Deal(Rules.preset("full", players=3, schedule=(2,)), hands, dealer=2, turn_up=parse_card("9H"))


def test_a_reason_keeps_the_cards_the_bot_still_holds_out() -> None:
    view = seat_view(three_seat_deal(), 0)
    text = public.public_reason("Counted 2 obvious winners (AS, KH); plays the AS, not the king of hearts.", view, 0)
    assert "KH" not in text and "king of hearts" not in text
    assert public.HIDDEN in text


def test_the_card_played_stays_in_its_reason() -> None:
    view = seat_view(three_seat_deal(), 0)
    text = public.public_reason("Plays the AS, keeping the KH.", view, parse_card("AS"))
    assert text == f"Plays the AS, keeping {public.HIDDEN}."


def test_magicians_and_jesters_still_held_are_hidden_too() -> None:
    hands = [CardSet.parse("MG MG"), CardSet.parse("JE 3H"), CardSet.parse("QS QD")]
    deal = Deal(Rules.preset("magicians", players=3, schedule=(2,)), hands, dealer=2, turn_up=parse_card("9H"))
    view = seat_view(deal, 0)
    assert "MG" not in public.public_reason("Holds the MG.", view, 64 + 2)
    assert public.public_reason("Leads the MG.", view, parse_card("MG")) == "Leads the MG."


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_level_plays_a_whole_game_legally_and_its_reasons_hide_its_hand(level: str) -> None:
    game = Game(Rules.preset("short"), number=99)
    rng = random.Random(3)
    while not game.is_over:
        seat = game.to_act
        view = game.view(seat)
        move = players.decide(level, view, rng)
        assert move.action in view.legal_actions
        still_held = set(view.hand.texts()) - ({card_text(move.action)} if move.action < 60 else set())
        assert not cards_mentioned(move.reason) & still_held
        game.apply(move.action, seat)


def test_the_hard_player_decides_legally_and_its_reason_hides_its_hand() -> None:
    game = Game(Rules.preset("short", first_dealer=3), number=99)
    for _ in range(6):
        seat = game.to_act
        view = game.view(seat)
        move = players.decide("hard", view, random.Random(1))
        assert move.action in view.legal_actions
        played = {card_text(move.action)} if move.action < 60 else set()
        assert not cards_mentioned(move.reason) & (set(view.hand.texts()) - played)
        game.apply(move.action, seat)


def test_a_level_the_bots_do_not_offer_plays_as_the_next_one_down() -> None:
    assert players.bot_for("hard").decide is not None
    with pytest.raises(ValueError, match="unknown level"):
        players.bot_for("grandmaster")


def test_a_hint_is_a_legal_move_for_the_seat_with_its_reason() -> None:
    game = Game(Rules.preset("short"), number=99)
    view = game.view(game.to_act)
    move = players.hint(view)
    assert move.action in view.legal_actions
    assert move.reason
