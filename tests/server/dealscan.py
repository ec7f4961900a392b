"""Try to rebuild hidden hands from everything a client was told: every number, string of digits and hex string.

The deal number fixes every hand (docs/deal-numbers.md), so a client that was told it, in any form, could see every
card. :func:`rebuilt_hands` tries each integer, digit string (and every window of up to 19 digits of a longer one)
and hex string a client received as a deal number under every first dealer, and every pair of such a number and a
hex string against the table's commitment; it answers what reproduced the real hands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final

from ohhell.cards import CardSet
from ohhell.commitment import SECRET_NUMBER_LIMIT, commitment
from ohhell.game import Game
from ohhell.rules import Rules

_DIGITS: Final = re.compile(r"[0-9]+")
_HEX: Final = re.compile(r"[0-9a-fA-F]{8,}")
_LONGEST: Final = 19
"""The most digits a deal number has (2**63 - 1)."""


def told_values(texts: Iterable[str]) -> tuple[set[int], set[str]]:
    """The numbers a client could try as a deal number, and the hex strings it could try as a salt."""
    numbers: set[int] = set()
    hexes: set[str] = set()
    for text in texts:
        for run in _DIGITS.findall(text):
            if len(run) <= _LONGEST:
                numbers.add(int(run))
            else:
                numbers.update(int(run[i : i + k]) for k in range(1, _LONGEST + 1) for i in range(len(run) - k + 1))
        for run in _HEX.findall(text):
            lowered = run.lower()
            hexes.add(lowered)
            hexes.update(lowered[i : i + 32] for i in range(len(lowered) - 31))  # every salt-sized window
            value = int(lowered, 16)
            if value < SECRET_NUMBER_LIMIT:
                numbers.add(value)
    return {n for n in numbers if n < SECRET_NUMBER_LIMIT}, hexes


def real_hands(record: dict[str, Any]) -> list[int]:
    """The first deal's hands, by seat, as card masks."""
    return [CardSet.parse(hand).mask for hand in record["deals"][0]["hands"]]


def rebuilt_hands(texts: Iterable[str], record: dict[str, Any], sealed: str) -> list[str]:
    """What, among the values in ``texts``, rebuilds the hands of the record's first deal or opens its commitment."""
    rules = Rules.from_json(record["rules"])
    hands = real_hands(record)
    numbers, hexes = told_values(texts)
    found = []
    for number in sorted(numbers):
        for dealer in range(rules.players):
            dealt = Game(rules, number=number, first_dealer=dealer).deals[0].hands_dealt
            # Every hand, not any one: a number told deals them all, while one of four five-card hands comes up by
            # chance about once in a thousand scans of 160 numbers. A CI run failed on "number 24 with first dealer
            # 1 deals a real hand"; with 0 to 399 as the numbers told, 39 of 20,000 random deals had a hand among
            # theirs, where chance gives 49.
            if all(mask == real for mask, real in zip(dealt, hands, strict=True)):
                found.append(f"number {number} with first dealer {dealer} deals the real hands")
    salts = {h for h in hexes if len(h) == 32}
    for number in numbers:
        found += [f"number {number} and salt {s} open the commitment" for s in salts if commitment(number, s) == sealed]
    return found
