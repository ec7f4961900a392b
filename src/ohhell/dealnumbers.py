"""Deal numbers: a game's number and its table fix every shuffle and the first dealer, everywhere.

The shuffle does not use :mod:`random` (whose algorithms may change between
Python versions). SHAKE-256 of a text naming the number, the pack, the table size
and the deal gives a stream of 32-bit words that drive a Fisher-Yates shuffle.
SHAKE-256 is a fixed standard, so the same number gives the same cards on every
machine and every version; golden tests pin the outcome.

Only the number, the table size and the pack go in: the same number with other
scoring or hook rules deals the same cards, so house rules can be compared on
identical hands.

>>> shuffled_pack(1, players=4, special_cards=False, deal_index=0)[:5]
[9, 25, 37, 49, 6]
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from typing import Final

from ohhell.cards import RANK_OF, Card

MAX_DEAL_NUMBER: Final = 2**63 - 1
"""Numbers run from 0 to this (what a 64-bit database integer holds). :func:`new_deal_number` picks from 1 to
999,999,999 so people can read it out; the web game deals a live series from a secret 63-bit number
(:func:`ohhell.commitment.secret_deal_number`), which nobody can find by trying numbers against their own hand."""


def _words(label: str, count: int) -> tuple[int, ...]:
    """``count`` unsigned 32-bit words of SHAKE-256 output for ``label``."""
    digest = hashlib.shake_256(label.encode("ascii")).digest(4 * count)
    return struct.unpack(f"<{count}I", digest)


def _shuffle(cards: list[Card], words: tuple[int, ...]) -> list[Card]:
    """Fisher-Yates: position ``i`` (from the top down) swaps with ``words[i - 1] mod (i + 1)``.

    The modulo bias is below 60 / 2**32, far below anything a player could notice.
    """
    for i in range(len(cards) - 1, 0, -1):
        j = words[i - 1] % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


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
    return _shuffle(list(range(size)), _words(f"ohhell-shuffle/1:{number}:{size}:{players}:{deal_index}", size - 1))


def random_first_dealer(number: int, players: int) -> int:
    """The first dealer under ``first_dealer = "random"``."""
    return _words(f"ohhell-first-dealer/1:{number}:{players}", 1)[0] % players


def draw_for_deal(number: int, players: int) -> tuple[int, list[dict[int, Card]]]:
    """The first dealer under ``first_dealer = "draw"``, and the cards drawn.

    Each seat draws a card from the 52-card pack; the highest rank deals. Seats
    tied for the highest draw again from a fresh pack, until one is highest.
    Returns the dealer and, for each round of drawing, the card each drawing seat took.
    """
    drawing = list(range(players))
    rounds: list[dict[int, Card]] = []
    while True:
        pack = _shuffle(list(range(52)), _words(f"ohhell-draw/1:{number}:{players}:{len(rounds)}", 51))
        drawn = dict(zip(drawing, pack, strict=False))
        rounds.append(drawn)
        best = max(RANK_OF[c] for c in drawn.values())
        drawing = [seat for seat, card in drawn.items() if RANK_OF[card] == best]
        if len(drawing) == 1:
            return drawing[0], rounds
