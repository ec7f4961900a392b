"""The door to the computer players: legal moves, reasons that keep their hands hidden, hints from one view."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell.bots import Budget, Decision
from ohhell.bots.intent import Intent
from ohhell.cards import card_text
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.table import players
from ohhell.view import SeatView
from server.leaks import cards_mentioned

NAMES = ("Ann", "Bob", "Cleo", "Dev")


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_level_plays_a_whole_game_legally_and_its_reasons_hide_its_hand(level: str) -> None:
    game = Game(Rules.preset("short"), number=99)
    rng = random.Random(3)
    while not game.is_over:
        seat = game.to_act
        view = game.view(seat)
        move = players.decide(level, view, rng, NAMES)
        assert move.action in view.legal_actions
        still_held = set(view.hand.texts()) - ({card_text(move.action)} if move.action < 60 else set())
        assert not cards_mentioned(move.reason) & still_held
        assert move.reason.startswith(NAMES[seat]), move.reason
        game.apply(move.action, seat)


def test_the_hard_player_decides_legally_and_its_reason_hides_its_hand() -> None:
    game = Game(Rules.preset("short", first_dealer=3), number=99)
    for _ in range(6):
        seat = game.to_act
        view = game.view(seat)
        move = players.decide("hard", view, random.Random(1), NAMES)
        assert move.action in view.legal_actions
        played = {card_text(move.action)} if move.action < 60 else set()
        assert not cards_mentioned(move.reason) & (set(view.hand.texts()) - played)
        game.apply(move.action, seat)


def test_without_names_a_reason_calls_the_seat_by_its_number() -> None:
    game = Game(Rules.preset("short"), number=99)
    assert players.decide("normal", game.view(game.to_act), random.Random(0)).reason.startswith(f"Seat {game.to_act} ")


class Stubborn:
    """A bot that always answers with an action no view allows."""

    level = "stubborn"

    def decide(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> Decision:
        return Decision(action=63, level=self.level, summary="Plays a card it does not hold.", intent=Intent.PLAY)


def test_a_bot_answering_with_an_illegal_action_plays_the_first_legal_one_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(players, "bot_for", lambda level: Stubborn())
    game = Game(Rules.preset("short", first_dealer=3), number=99)
    view = game.view(game.to_act)
    move = players.decide("normal", view, random.Random(0), NAMES)
    assert move.action == view.legal_actions[0]
    assert move.reason == "Ann bid 0: the computer player's own choice was not allowed here."


def test_a_level_the_bots_do_not_offer_plays_as_the_next_one_down() -> None:
    assert players.bot_for("hard").decide is not None
    with pytest.raises(ValueError, match="unknown level"):
        players.bot_for("grandmaster")


def test_a_hint_is_a_legal_move_in_words_to_the_person_with_its_numbers_apart() -> None:
    game = Game(Rules.preset("short"), number=99)
    view = game.view(game.to_act)
    advice = players.hint(view, NAMES)
    assert advice.action in view.legal_actions
    assert advice.reason.startswith(f"Bid {advice.action - 64}: ")
    assert any("Expected points" in line for line in advice.details)


def test_a_computer_players_seed_is_secret_yet_the_same_for_the_same_deal_and_moves() -> None:
    game = Game(Rules.preset("short"), number=424242)
    seeds = []
    for _ in range(3):
        seeds.append(players.bot_seed(game))
        game.apply(game.legal_actions()[0])
    again = Game(Rules.preset("short"), number=424242)
    for _ in range(2):
        again.apply(again.legal_actions()[0])
    assert players.bot_seed(again) == seeds[2]  # the same deal, the same moves: the same computer moves
    assert len(set(seeds)) == 3  # each move gives another
    other = Game(Rules.preset("short"), number=424243)
    assert players.bot_seed(other) != seeds[0]  # from the secret number, not the public table id and move count
    assert "424242" not in seeds[0]  # would let anyone replay the bot's choices; nor is it the number


@settings(max_examples=30, deadline=None)
@given(number=st.integers(min_value=1, max_value=2**62), choices=st.lists(st.integers(0, 50), max_size=120))
def test_the_seeds_kept_move_by_move_are_always_those_of_the_whole_game(number: int, choices: list[int]) -> None:
    """BotSeeds hashes each move once; through undos and whole deals its seed stays bot_seed of the game as it is."""
    game = Game(Rules.preset("short"), number=number)
    seeds = players.BotSeeds()
    for choice in choices:
        if game.is_over:
            break
        if choice % 7 == 0 and game.deal.actions:
            game.undo()  # back one move within the hand: the moves hashed are no longer the game's
        else:
            legal = game.legal_actions()
            game.apply(legal[choice % len(legal)])
        assert seeds.seed(game) == players.bot_seed(game)
    rebuilt = Game(Rules.preset("short"), number=number)
    for deal in game.deals:
        for seat, action in deal.actions:
            rebuilt.apply(action, seat)
    assert seeds.seed(rebuilt) == players.bot_seed(game)  # another game object with the same moves
