"""Chat text as shown (``clean_text``): nothing invisible, no control or direction character, whatever is sent."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ohhell.server.party.live import HIDDEN_CATEGORIES, clean_text

HIDDEN = [
    "\u061c",  # Arabic letter mark
    "\u200b",  # zero-width space
    "\u200e",  # left-to-right mark
    "\u202e",  # right-to-left override
    "\u2060",  # word joiner
    "\u2066",  # left-to-right isolate
    "\ufeff",  # byte order mark
    "\U000e0041",  # tag letter A
    "\U000e007f",  # cancel tag
    "\x00",
    "\x1b",
    "\x85",  # next line (C1)
]


@pytest.mark.parametrize("hidden", HIDDEN, ids=[f"U+{ord(c):04X}" for c in HIDDEN])
def test_each_invisible_control_and_direction_character_is_dropped(hidden: str) -> None:
    assert clean_text(f"ab{hidden}cd") in ("abcd", "ab cd")
    assert hidden not in clean_text(f"{hidden}x{hidden}")


@given(st.text())
def test_chat_text_has_no_hidden_character_and_keeps_every_visible_one(text: str) -> None:
    shown = clean_text(text)
    assert not any(unicodedata.category(c) in HIDDEN_CATEGORIES for c in shown)
    assert shown == shown.strip() and "  " not in shown and all(c == " " or not c.isspace() for c in shown)
    visible = [c for c in text if not c.isspace() and unicodedata.category(c) not in HIDDEN_CATEGORIES]
    assert [c for c in shown if c != " "] == visible
    assert clean_text(shown) == shown
