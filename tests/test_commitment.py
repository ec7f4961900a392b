"""The commitment to a secret deal number, and the ``deal_commitment`` extension of records that ``ohhell check``
verifies: the number and salt hash to the commitment, and the cards dealt are the number's."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from ohhell import commitment, records
from ohhell.game import Game
from ohhell.rules import Rules


def played(number: int, preset: str = "short", players: int = 4, actions: int | None = None) -> Game:
    game = Game(Rules.preset(preset, players=players), number)
    count = 0
    while not game.is_over and (actions is None or count < actions):
        game.apply(game.legal_actions()[0])
        count += 1
    return game


def committed(game: Game, salt: str, revealed: bool = True) -> dict[str, Any]:
    """The record as the web game writes it: the commitment, and the number and salt once revealed."""
    assert game.number is not None
    record = records.to_record(game)
    record["deal_commitment"] = {"scheme": "ohhell-commit/1", "sha256": commitment.commitment(game.number, salt)}
    if revealed:
        record["deal_commitment"]["salt"] = salt
    else:
        del record["deal_number"]
    return record


SALT = "0f" * 16


def test_the_commitment_is_sha256_of_the_documented_text() -> None:
    text = b"ohhell-commit/1:9223372036854775807:" + SALT.encode()
    assert commitment.committed_text(2**63 - 1, SALT) == text
    assert commitment.commitment(2**63 - 1, SALT) == hashlib.sha256(text).hexdigest()
    assert commitment.check_command(7, SALT) == f"printf '%s' 'ohhell-commit/1:7:{SALT}' | sha256sum"


def test_secret_numbers_and_salts_are_wide_and_fresh() -> None:
    numbers = {commitment.secret_deal_number() for _ in range(64)}
    salts = {commitment.new_salt() for _ in range(64)}
    assert len(numbers) == 64 and len(salts) == 64
    assert all(0 <= n < 2**63 for n in numbers) and max(numbers) > 2**60  # not the short numbers people type
    assert all(commitment.is_salt(s) and len(s) == 32 for s in salts)
    Game(Rules.preset("short", players=4), max(numbers))  # the engine deals from any of them


def test_check_accepts_a_revealed_commitment_and_a_sealed_one() -> None:
    game = played(2**62 + 12345)
    status, result = records.check(json.dumps(committed(game, SALT)))
    assert status == 0 and result["complete"], result
    partial = played(2**62 + 12345, actions=20)
    status, result = records.check(committed(partial, SALT, revealed=False))
    assert status == 0 and not result["complete"], result


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda r: r["deal_commitment"].update(salt="1f" * 16), "commitment-mismatch"),
        (lambda r: r.update(deal_number=r["deal_number"] + 1), "commitment-mismatch"),
        (lambda r: r["deal_commitment"].update(sha256="0" * 64), "commitment-mismatch"),
        (lambda r: r["deal_commitment"].update(sha256="XYZ"), "bad-record"),
        (lambda r: r["deal_commitment"].update(scheme="md5"), "bad-record"),
        (lambda r: r["deal_commitment"].update(salt="short"), "bad-record"),
        (lambda r: r["deal_commitment"].pop("salt"), "bad-record"),
        (lambda r: r.pop("deal_number"), "bad-record"),
        (lambda r: r.update(deal_commitment=["a"]), "bad-record"),
    ],
)
def test_check_refuses_a_commitment_that_does_not_match(change: Any, code: str) -> None:
    record = committed(played(987_654_321_987), SALT)
    change(record)
    status, result = records.check(json.dumps(record))
    assert status == 1 and result["error"]["code"] == code, result


def test_check_refuses_cards_that_are_not_the_numbers() -> None:
    """Another number's cards under this number's commitment: the hash matches, the deal does not."""
    other = played(5)
    record = committed(played(6), SALT)
    record["deals"] = records.to_record(other)["deals"]
    record["first_dealer"] = other.first_dealer
    record["deal_commitment"]["sha256"] = commitment.commitment(6, SALT)
    status, result = records.check(json.dumps(record))
    assert status == 1 and result["error"]["code"] == "deal-not-from-number", result
    assert result["error"]["deal"] is not None or "first dealer" in result["error"]["message"]


def test_check_refuses_a_turned_card_swapped_in_a_later_deal() -> None:
    game = played(77)
    record = committed(game, SALT)
    deal = record["deals"][3]
    hand = deal["hands"][0]
    deal["hands"][0], deal["turn_up"] = [*hand[1:], deal["turn_up"]], hand[0]  # still a valid deal, not the number's
    status, result = records.check(json.dumps(record))
    assert status == 1, result
    assert result["error"]["code"] in ("deal-not-from-number", "card-not-in-hand", "must-follow-suit"), result


def test_check_refuses_a_left_entry_beyond_the_log() -> None:
    game = played(3, actions=30)
    record = records.to_record(game)
    record["left"] = [{"seat": 1, "action": 30}]
    assert records.check(json.dumps(record))[0] == 0  # left just now: a computer player takes the next action
    record["left"] = [{"seat": 1, "action": 31}]
    status, result = records.check(json.dumps(record))
    assert status == 1 and result["error"]["code"] == "left-beyond-log", result
    assert "action 31" in result["error"]["message"] and "30 actions" in result["error"]["message"]
