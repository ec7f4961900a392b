"""Trump text: what the table types, read back exactly."""

from __future__ import annotations

import pytest

from ohhell.keeper.trump import TrumpCall, TrumpCallError

ALL_CALLS = [TrumpCall(s) for s in range(4)] + [TrumpCall(None), TrumpCall(None, "JE")]
ALL_CALLS += [TrumpCall(s, "MG") for s in range(4)]


@pytest.mark.parametrize("call", ALL_CALLS, ids=lambda call: call.text())
def test_text_and_parse_are_inverses(call: TrumpCall) -> None:
    assert TrumpCall.parse(call.text()) == call


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("spades", TrumpCall(0)),
        ("♥", TrumpCall(1)),
        (" d ", TrumpCall(2)),
        ("no trump", TrumpCall(None)),
        ("jester", TrumpCall(None, "JE")),
        ("magician clubs", TrumpCall(3, "MG")),
    ],
)
def test_people_may_type_words_and_symbols(text: str, call: TrumpCall) -> None:
    assert TrumpCall.parse(text) == call


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no trump was given"),
        ("X", "'X' is not a trump"),
        ("MG", "the dealer names a suit"),
        ("JE H", "not a trump"),
    ],
)
def test_text_that_names_no_trump_is_refused_with_what_to_type(text: str, message: str) -> None:
    with pytest.raises(TrumpCallError, match=message):
        TrumpCall.parse(text)


def test_a_jester_cannot_come_with_a_suit_nor_a_magician_without_one() -> None:
    with pytest.raises(TrumpCallError, match="a turned Jester means no trump"):
        TrumpCall(1, "JE")
    with pytest.raises(TrumpCallError, match="the dealer names a suit"):
        TrumpCall(None, "MG")
