"""Find every card a message mentions, as card text (``QH``) or in words (``queen of hearts``)."""

from __future__ import annotations

import json
import re
from typing import Any, Final

from ohhell.cards import RANK_LETTERS, RANK_NAMES, SUIT_LETTERS, SUIT_NAMES

_TEXT: Final = re.compile(r"\b([2-9TJQKA][SHDC])\b")
_NAME: Final = re.compile(r"\b(" + "|".join(RANK_NAMES) + r") of (" + "|".join(SUIT_NAMES) + r")\b", re.IGNORECASE)


def cards_mentioned(message: Any) -> set[str]:
    """The standard cards named anywhere in ``message`` (any JSON-ready value), as card texts."""
    text = json.dumps(message)
    found = set(_TEXT.findall(text))
    for rank, suit in _NAME.findall(text):
        found.add(RANK_LETTERS[RANK_NAMES.index(rank.lower())] + SUIT_LETTERS[SUIT_NAMES.index(suit.lower())])
    return found
