"""Deal numbers: a game's number and its table fix every shuffle and the first dealer, everywhere.

The shuffle does not use :mod:`random` (whose algorithms may change between
Python versions). Each card gets a 64-bit key from SHAKE-256 of a text naming the
number, the pack, the table size and the deal; the pack is sorted by key. SHAKE-256
is a fixed standard, so the same number gives the same cards on every machine and
every version; golden tests pin the outcome.

Only the number, the table size and the pack go in: the same number with other
scoring or hook rules deals the same cards, so house rules can be compared on
identical hands.

>>> shuffled_pack(1, players=4, special_cards=False, deal_index=0)[:5]
[43, 12, 19, 9, 35]
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from typing import Final

from ohhell.cards import RANK_OF, Card

MAX_DEAL_NUMBER: Final = 10**12 - 1
"""Numbers run from 0 to this; new games pick from 1 to 999,999,999 so people can read them out."""


def _keys(label: str, count: int) -> tuple[int, ...]:
    digest = hashlib.shake_256(label.encode("ascii")).digest(8 * count)
    return struct.unpack(f"<{count}Q", digest)


def check_deal_number(number: object) -> int:
    """``number`` if it is a valid deal number, else :class:`ValueError` saying why."""
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MAX_DEAL_NUMBER:
        raise ValueError(f"a deal number is a whole number from 0 to {MAX_DEAL_NUMBER}, not {number!r}")
    return number


def new_deal_number() -> int:
    """A fresh number for a new game, from the operating system's randomness."""
    return secrets.randbelow(999_999_999) + 1


def shuffled_pack(number: int, players: int, special_cards: bool, deal_index: int) -> list[Card]:
    """The pack in dealt order for deal ``deal_index`` (0-based) of game ``number``."""
    size = 60 if special_cards else 52
    keys = _keys(f"ohhell-shuffle/1:{number}:{size}:{players}:{deal_index}", size)
    return sorted(range(size), key=keys.__getitem__)


def random_first_dealer(number: int, players: int) -> int:
    """The first dealer under ``first_dealer = "random"``."""
    return _keys(f"ohhell-first-dealer/1:{number}:{players}", 1)[0] % players


def draw_for_deal(number: int, players: int) -> tuple[int, list[dict[int, Card]]]:
    """The first dealer under ``first_dealer = "draw"``, and the cards drawn.

    Each seat draws a card from the 52-card pack; the highest rank deals. Seats
    tied for the highest draw again from a fresh pack, until one is highest.
    Returns the dealer and, for each round of drawing, the card each drawing seat took.
    """
    drawing = list(range(players))
    rounds: list[dict[int, Card]] = []
    while True:
        pack = sorted(range(52), key=_keys(f"ohhell-draw/1:{number}:{players}:{len(rounds)}", 52).__getitem__)
        drawn = dict(zip(drawing, pack, strict=False))
        rounds.append(drawn)
        best = max(RANK_OF[c] for c in drawn.values())
        drawing = [seat for seat, card in drawn.items() if RANK_OF[card] == best]
        if len(drawing) == 1:
            return drawing[0], rounds
