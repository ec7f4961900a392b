"""Incoming messages are validated before anything reads them; the seat is never part of one."""

from __future__ import annotations

from typing import get_args

import pytest

from ohhell.rules import SCHEDULES
from ohhell.server.pages.newgame import NewGameRequest
from ohhell.server.table.messages import BadMessageError, NextHandMessage, PlayMessage, parse_message
from ohhell.web.house_rules import ScheduleName, preset_defaults


def test_each_message_type_parses() -> None:
    assert parse_message('{"type": "play", "card": "QH", "seq": 3, "deal": 0}') == PlayMessage(
        type="play", card="QH", seq=3, deal=0
    )
    assert parse_message(b'{"type": "next", "deal": 2}') == NextHandMessage(type="next", deal=2)
    texts = ['{"type": "hint"}', '{"type": "sync"}', '{"type": "show_hands", "deal": 0}']
    texts.append('{"type": "resign", "seq": 4}')
    for text in texts:
        assert parse_message(text).type in text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "null",
        '{"type": "bid", "bid": 1}',
        '{"type": "bid", "bid": 1, "seq": 0}',
        '{"type": "bid", "bid": 1.5, "seq": 0, "deal": 0}',
        '{"type": "bid", "bid": 1, "seq": 1e400, "deal": 0}',
        '{"type": "bid", "bid": 1, "seq": NaN, "deal": 0}',
        '{"type": "bid", "bid": 1, "seq": 99999999999999999999999, "deal": 0}',
        '{"type": "bid", "bid": -1, "seq": 0, "deal": 0}',
        '{"type": "bid", "bid": 1, "seq": 0, "seat": 3}',
        '{"type": "trump", "suit": "X", "seq": 0}',
        '{"type": "play", "card": "QUEEN", "seq": 0}',
        '{"type": "hint", "please": true}',
        '{"type": "resign"}',
        '{"type": "resign", "seq": "3"}',
    ],
)
def test_a_malformed_message_is_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(BadMessageError, match="not a valid message"):
        parse_message(text)


def test_the_form_knows_every_schedule_and_every_preset() -> None:
    assert set(get_args(ScheduleName)) == set(SCHEDULES)
    assert set(preset_defaults()) == {"full", "down-only", "short", "up-and-down", "traditional", "magicians"}


def test_a_new_game_seats_you_first_then_the_computer_players_to_your_left() -> None:
    request = NewGameRequest.model_validate({"computers": [{"name": "Ann", "level": "easy"}, {"name": "Bo"}]})
    seats = request.seats("key")
    assert [s.name for s in seats] == ["You", "Ann", "Bo"]
    assert [s.kind for s in seats] == ["human", "computer", "computer"]
    assert request.rules().players == 3
    assert request.rules().preset_name == "up-and-down"


def test_the_messages_of_tables_of_several_people_parse_and_are_bounded() -> None:
    for text in (
        '{"type": "start", "fill": true}',
        '{"type": "chat", "text": "<b>gl</b>"}',
        '{"type": "chat", "phrase": "well-played"}',
        '{"type": "hand_over", "seat": 2}',
        '{"type": "renew", "link": "watch"}',
        '{"type": "spectator_chat", "open": false}',
        '{"type": "again"}',
    ):
        assert parse_message(text).type in text
    for bad in (
        '{"type": "chat", "text": ""}',
        '{"type": "chat", "text": "' + "x" * 201 + '"}',
        '{"type": "chat", "phrase": "you lose"}',
        '{"type": "hand_over", "seat": 9}',
        '{"type": "renew", "link": "other"}',
        '{"type": "start", "fill": "yes"}',
        '{"type": "again", "seat": 1}',
    ):
        with pytest.raises(BadMessageError):
            parse_message(bad)


def test_new_game_friends_must_be_other_seats_and_the_table_settings_are_bounded() -> None:
    base = {"computers": [{"name": n} for n in ("A", "B", "C")]}
    request = NewGameRequest.model_validate({**base, "friends": [1, 3], "table": {"grace_seconds": 2}})
    assert [s.kind for s in request.seats("key")] == ["human", "open", "computer", "open"]
    assert request.table.turn_seconds is None and request.table.spectator_chat
    for wrong in (
        {"friends": [4]},
        {"friends": [1, 1]},
        {"table": {"turn_seconds": 10}},
        {"table": {"grace_seconds": 0}},
    ):
        with pytest.raises(ValueError, match=r"friends|turn_seconds|grace_seconds"):
            NewGameRequest.model_validate({**base, **wrong})
