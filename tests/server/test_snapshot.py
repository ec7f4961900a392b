"""What a seat is told is built from its own view: never another seat's hidden cards."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ohhell.cards import CardSet, card_text
from ohhell.game import Game
from ohhell.rules import PRESETS, Rules
from ohhell.server.pages import exports
from ohhell.server.party.spectator import WATCHER
from ohhell.server.table import players, snapshot
from ohhell.server.table.live import encode
from ohhell.server.table.seats import Seat
from server.leaks import cards_mentioned
from worlds import other_worlds, positions

SEATS = [
    Seat.human("You", "key"),
    Seat.computer("Alice", "easy"),
    Seat.computer("Bob", "normal"),
    Seat.computer("Cy", "hard"),
]


def hidden_from(game: Game, deal_index: int, seat: int) -> set[str]:
    """The cards other seats still hold in deal ``deal_index``."""
    deal = game.deals[deal_index]
    return {text for other, mask in enumerate(deal.hands) if other != seat for text in CardSet(mask).texts()}


@pytest.mark.parametrize("preset", ["short", "magicians", "traditional"])
def test_no_state_message_names_a_card_of_another_seats_hand(preset: str) -> None:
    rules = Rules.preset(preset)
    game = Game(rules, number=2024)
    rng = random.Random(7)
    mentioned = 0
    while not game.is_over:
        shown = game.deal_index
        facts = snapshot.TableFacts(1, SEATS, shown, {})
        for seat in range(rules.players):
            message = snapshot.state_message(game, facts, seat)
            named = cards_mentioned(message)
            mentioned += len(named)
            assert not named & hidden_from(game, shown, seat), (seat, named & hidden_from(game, shown, seat))
        before = game.deal_index
        game.apply(rng.choice(game.legal_actions()))
        if game.deal_index != before or game.is_over:
            paused = snapshot.TableFacts(1, SEATS, before, {})
            for seat in range(rules.players):
                assert not cards_mentioned(snapshot.state_message(game, paused, seat)) & hidden_from(game, before, seat)
    assert mentioned > 0


def test_the_state_shows_the_finished_hand_until_next_hand() -> None:
    game = Game(Rules.preset("short"), number=5)
    while game.deal_index == 0:
        game.apply(game.legal_actions()[0])
    state = snapshot.state_message(game, snapshot.TableFacts(1, SEATS, 0, {}), 0)
    assert state["deal"]["index"] == 0
    assert state["deal"]["finished"]
    assert state["game"]["waiting_for_next"]
    assert state["game"]["next_deal"] == 1
    assert state["deal"]["hand"] == []


def test_the_score_sheet_has_bid_and_tricks_points_a_check_mark_and_running_totals() -> None:
    game = Game(Rules.preset("short"), number=5)
    while len(game.results) < 2:
        game.apply(game.legal_actions()[-1])
    sheet = snapshot.score_sheet(game, game.deal_index)
    assert [row["hand"] for row in sheet["rows"]] == [1, 2]
    for seat in range(4):
        first, second = sheet["rows"][0]["cells"][seat], sheet["rows"][1]["cells"][seat]
        assert first["made"] == (first["bid"] == first["won"])
        assert second["total"] == first["points"] + second["points"] == sheet["totals"][seat]
    assert sheet["current"]["hand"] == 3


def test_the_bidding_panel_offers_0_to_the_hand_size_with_the_forbidden_bid_marked() -> None:
    game = Game(Rules.preset("short", first_dealer=0), number=5)
    for n in (1, 1, 1):
        game.bid(n)
    state = snapshot.state_message(game, snapshot.TableFacts(1, SEATS, 0, {}), 0)
    options = state["deal"]["bids"]
    assert [o["bid"] for o in options] == [0, 1, 2, 3, 4, 5]
    assert [o["bid"] for o in options if not o["allowed"]] == [2]
    assert "may not bid 2" in state["deal"]["forbidden_reason"]


def test_show_all_hands_is_refused_for_a_hand_still_being_played() -> None:
    game = Game(Rules.preset("short"), number=5)
    facts = snapshot.TableFacts(1, SEATS, 0, {})
    with pytest.raises(ValueError, match="still being played"):
        snapshot.hands_message(game, facts, 0)
    while game.deal_index == 0:
        game.apply(game.legal_actions()[0])
    hands = snapshot.hands_message(game, facts, 0)
    dealt = game.deals[0].hands_dealt
    assert [p["hand"] for p in hands["players"]] == [CardSet(mask).texts() for mask in dealt]


def test_an_illegal_card_carries_its_reason() -> None:
    game = Game(Rules.preset("short", first_dealer=3), number=11)
    while game.deal.phase_name == "bidding":
        game.apply(game.legal_actions()[0])
    seat = game.to_act
    game.apply(game.legal_actions()[0])
    follower = game.to_act
    state = snapshot.state_message(game, snapshot.TableFacts(1, SEATS, 0, {}), follower)
    legal = {card_text(a) for a in game.legal_actions()}
    assert set(state["deal"]["playable"]) == legal
    for card, reason in state["deal"]["unplayable"].items():
        assert card not in legal
        assert reason.startswith("You must follow")
    assert seat != follower


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_each_actions_changes_laid_over_the_state_give_the_next_state_exactly(preset: str) -> None:
    """What the page holds after merging every action's changes is the whole state the server would send."""
    rules = Rules.preset(preset, players=4)
    game = Game(rules, number=31)
    rng = random.Random(3)
    reasons: dict[int, str] = {}
    shown = 0
    state, sent = snapshot.full_state(game, snapshot.TableFacts(1, SEATS, shown, reasons), 0)
    changes_sent = 0
    while not game.is_over:
        if game.deal_index != shown:  # Next hand: a whole state
            shown = game.deal_index
            reasons = {}
            state, sent = snapshot.full_state(game, snapshot.TableFacts(1, SEATS, shown, reasons), 0)
        seq = snapshot.action_count(game)
        actor = game.to_act
        action = rng.choice(game.legal_actions())
        tricks = len(game.deal.tricks)
        deal = game.deal
        game.apply(action)
        if actor != 0 and rng.random() < 0.5:
            reasons[seq] = f"reason {seq}"
        trick = deal.tricks[-1] if len(deal.tricks) > tricks else None
        facts = snapshot.TableFacts(1, SEATS, shown, reasons)
        message = snapshot.action_message(game, facts, 0, seq, actor, action, trick, sent)
        changes_sent += len(json.dumps(message["changes"]))
        state = snapshot.merge(state, json.loads(json.dumps(message)))
        assert state == json.loads(json.dumps(snapshot.state_message(game, facts, 0))), (preset, seq)
    assert changes_sent > 0


def told(game: Game, seat: int) -> list[bytes]:
    """Everything the server would tell ``seat`` (or a spectator) now, as the bytes sent: the state, the hint
    (when it is the seat's turn), the record of the game so far, and the change after the seat's first legal
    action."""
    names = tuple(f"Player {s}" for s in range(game.rules.players))
    facts = snapshot.TableFacts(1, [Seat.human(name, str(i)) for i, name in enumerate(names)], game.deal_index, {})
    state, sent = snapshot.full_state(game, facts, seat)
    messages = [state, exports.public_record(game, None)]
    view = snapshot.shown_view(game, facts, seat)
    if seat != WATCHER and view.my_turn:
        move = players.hint(view, names)
        messages.append(snapshot.hint_message(move.action, move.reason, move.details))
        seq = snapshot.action_count(game)
        after = game.copy()
        after.apply(view.legal_actions[0], seat)
        trick = (
            after.deals[game.deal_index].tricks[-1]
            if len(after.deals[game.deal_index].tricks) > len(game.deal.tricks)
            else None
        )
        messages.append(snapshot.action_message(after, facts, seat, seq, seat, view.legal_actions[0], trick, sent))
    return [encode(message).encode() for message in messages]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 2**32))
def test_a_seat_and_a_spectator_are_told_the_same_in_every_deal_the_seat_cannot_tell_apart(
    game: Game, seed: int
) -> None:
    """With Magicians and Jesters: which copies the others hold changes no byte of any message."""
    rng = random.Random(seed)
    for seat in range(game.rules.players):
        before = told(game, seat)
        public = told(game, WATCHER)
        for world in other_worlds(game, seat, rng):
            assert told(world, seat) == before
            assert told(world, WATCHER) == public
