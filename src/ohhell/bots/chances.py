"""Estimated trick chances: each card's chance to take a trick, and the points a bid can expect from them.

The Normal player's arithmetic. A card's chance comes from three counts taken
from the seat's :class:`~ohhell.bots.knowledge.Knowledge`: the unseen cards
above it in its suit (against the seat's own cards above it, which can draw
them), the chance that an opponent is short in the suit and trumps it, and the
Magicians still out. The tricks a hand takes are then the sum of independent
coin flips with those chances, and a bid's worth is the scoring in force
averaged over that distribution:

>>> dist = trick_distribution([0.9, 0.5])
>>> [round(p, 2) for p in dist]
[0.05, 0.5, 0.45]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ohhell.bots.knowledge import Knowledge
from ohhell.cards import JESTER_SUIT, MAGICIAN_SUIT, SUIT_MASKS, SUIT_OF, Card, cards_of
from ohhell.deal import beats
from ohhell.rules import Rules
from ohhell.scoring import deal_points

HIGHER_CARD_DISCOUNT = 0.5
"""How much each unseen higher card held by an opponent, but covered by one of ours, costs a card."""
RUFF_WILLINGNESS = 0.8
"""How often a seat short in a suit actually trumps it."""
RUFF_VALUE = 0.45
"""A low trump's chance to take a trick each time its owner is void in the suit led (overruffs happen)."""
PRESSURE_SHARE = 0.5
"""The share of the tricks nobody wants (or everybody wants) that lands on (or is lost by) one seat."""
OVERTAKE_WILL = {True: 0.95, False: 0.2}
"""How readily a seat that wants (or does not want) the trick plays a card that beats ours."""

SIDE_CARD, TRUMP_CARD, NO_TRUMP_CARD = 0, 1, 2
SIZE_GROUPS = (1, 2, 4, 7, 20)
"""Calibration groups by tricks left to play: 1, 2, 3-4, 5-7, 8 or more."""
CALIBRATION: tuple[tuple[tuple[float, ...], ...], ...] = (
    (  # side suit
        (0.052, 0.063, 0.065, 0.095, 0.167, 0.261, 0.401, 0.559, 0.73, 0.902, 1.0),
        (0.02, 0.055, 0.107, 0.173, 0.265, 0.374, 0.489, 0.598, 0.676, 0.742, 0.885),
        (0.024, 0.075, 0.13, 0.191, 0.254, 0.335, 0.441, 0.548, 0.618, 0.703, 0.703),
        (0.041, 0.133, 0.226, 0.316, 0.399, 0.515, 0.594, 0.69, 0.745, 0.821, 0.821),
        (0.064, 0.218, 0.355, 0.43, 0.515, 0.539, 0.594, 0.671, 0.745, 0.856, 0.899),
    ),
    (  # trump
        (0.12, 0.12, 0.167, 0.295, 0.4, 0.48, 0.571, 0.636, 0.692, 0.79, 0.806),
        (0.0, 0.091, 0.204, 0.262, 0.381, 0.432, 0.531, 0.631, 0.776, 0.861, 0.964),
        (0.0, 0.1, 0.159, 0.202, 0.326, 0.386, 0.554, 0.664, 0.835, 0.906, 0.96),
        (0.126, 0.244, 0.244, 0.288, 0.385, 0.385, 0.621, 0.72, 0.879, 0.953, 0.97),
        (0.173, 0.395, 0.395, 0.441, 0.512, 0.512, 0.725, 0.836, 0.918, 0.962, 0.986),
    ),
    (  # no-trump deal
        (0.064, 0.079, 0.103, 0.244, 0.417, 0.459, 0.5, 0.659, 0.779, 0.933, 1.0),
        (0.038, 0.078, 0.137, 0.147, 0.292, 0.335, 0.449, 0.579, 0.837, 0.896, 1.0),
        (0.038, 0.068, 0.109, 0.123, 0.176, 0.231, 0.301, 0.429, 0.506, 0.58, 0.63),
        (0.041, 0.096, 0.141, 0.194, 0.267, 0.379, 0.495, 0.57, 0.656, 0.736, 0.819),
        (0.061, 0.157, 0.236, 0.352, 0.379, 0.506, 0.617, 0.639, 0.722, 0.821, 0.93),
    ),
)
"""``CALIBRATION[kind][size group]``: the winning rate at counted chances 0, 0.1, ... 1 (``bench/calibrate.py``)."""


@dataclass(frozen=True)
class Table:
    """Per opponent, the chance that a given unseen card of each suit (and a given special) is in its hand."""

    opponents: tuple[int, ...]
    suit_share: tuple[tuple[float, ...], ...]
    """``suit_share[i][suit]``: the chance a given unseen card of ``suit`` is in opponent ``opponents[i]``'s hand."""
    special_share: tuple[float, ...]
    suit_count: tuple[int, ...]
    """How many unseen cards each suit has."""


def opponent_table(known: Knowledge) -> Table:
    """Spread the unseen cards over the other hands and the stock in proportion to room, respecting voids."""
    opponents = tuple(s for s in range(known.players) if s != known.seat)
    suit_count = tuple((known.unseen & SUIT_MASKS[s]).bit_count() for s in range(4))
    suit_share: list[tuple[float, ...]] = []
    room_by_suit = []
    for suit in range(4):
        room = sum(known.held[o] for o in opponents if not known.voids[o] >> suit & 1) + known.stock
        room_by_suit.append(room)
    for o in opponents:
        row = []
        for suit in range(4):
            void = known.voids[o] >> suit & 1
            row.append(0.0 if void or not room_by_suit[suit] else known.held[o] / room_by_suit[suit])
        suit_share.append(tuple(row))
    total = known.unseen_count
    special_share = tuple(known.held[o] / total if total else 0.0 for o in opponents)
    return Table(opponents, tuple(suit_share), special_share, suit_count)


def _binomial(k: int, n: int, p: float) -> float:
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


def card_chances(known: Knowledge, hand: int, tricks_left: int, leading: bool, table: Table) -> dict[Card, float]:
    """Each card of ``hand``'s chance to take one of the next ``tricks_left`` tricks.

    ``leading`` says whether the seat leads the first of them, which matters in
    the last trick or two, when a side-suit card wins only if its suit is led.
    The counts of :func:`raw_chances` are mapped through :data:`CALIBRATION`.
    """
    trump = known.trump
    return {
        c: p if SUIT_OF[c] >= 4 else calibrated(p, card_kind(c, trump), tricks_left)
        for c, p in raw_chances(known, hand, tricks_left, leading, table).items()
    }


def card_kind(card: Card, trump: int | None) -> int:
    """The calibration row of a suited card: side suit, trump, or a card of a deal without trump."""
    return NO_TRUMP_CARD if trump is None else TRUMP_CARD if SUIT_OF[card] == trump else SIDE_CARD


def calibrated(raw: float, kind: int, tricks_left: int) -> float:
    """The observed winning rate of cards of ``kind`` whose counted chance is ``raw``, with ``tricks_left`` to play."""
    points = CALIBRATION[kind][size_group(tricks_left)]
    x = raw * (len(points) - 1)
    low = min(int(x), len(points) - 2)
    return points[low] + (points[low + 1] - points[low]) * (x - low)


def size_group(tricks_left: int) -> int:
    """The calibration column for a number of tricks left to play."""
    return next(i for i, top in enumerate(SIZE_GROUPS) if tricks_left <= top)


def raw_chances(known: Knowledge, hand: int, tricks_left: int, leading: bool, table: Table) -> dict[Card, float]:
    """The counted chances, before calibration: see the module's description."""
    if not tricks_left:
        return {}
    trump = known.trump
    cards = cards_of(hand)
    lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    opponent_magicians = known.unseen_magicians * sum(table.special_share, 0.0)
    magician_risk = max(0.0, 1.0 - opponent_magicians / tricks_left)
    rank_chance = {c: _rank_chance(c, hand, known, table) for c in cards if c < 52}
    ruffs = 0.0
    low_trumps = 0
    if trump is not None and tricks_left > 1:
        ruffs = sum(max(0, 2 - lengths[s]) for s in range(4) if s != trump)
        low_trumps = sum(1 for c, p in rank_chance.items() if SUIT_OF[c] == trump and p < 0.5)
    chances: dict[Card, float] = {}
    for card in cards:
        suit = SUIT_OF[card]
        if suit == MAGICIAN_SUIT:
            chances[card] = 1.0 - 0.5 * (1.0 - magician_risk)
            continue
        if suit == JESTER_SUIT:
            chances[card] = 0.0
            continue
        p = rank_chance[card]
        if suit == trump:
            if low_trumps and p < 0.5:
                p += (1.0 - p) * min(1.0, ruffs / low_trumps) * RUFF_VALUE
        else:
            if trump is not None:
                p *= _not_ruffed(card, hand, known, table)
            if not leading and tricks_left <= 2:
                p *= _suit_led_chance(suit, tricks_left, table)
        chances[card] = p * magician_risk
    return chances


def _rank_chance(card: Card, hand: int, known: Knowledge, table: Table) -> float:
    """The chance no unseen higher card of the suit beats ``card``, with our own higher cards to draw them out."""
    suit = SUIT_OF[card]
    above = ~((2 << card) - 1) & SUIT_MASKS[suit]
    higher_unseen = (known.unseen & above).bit_count()
    ours_above = (hand & above).bit_count()
    if not higher_unseen:
        return 1.0
    held_share = sum((row[suit] for row in table.suit_share), 0.0)
    return sum(
        (
            _binomial(h, higher_unseen, held_share) * HIGHER_CARD_DISCOUNT**h
            for h in range(min(ours_above, higher_unseen) + 1)
        ),
        0.0,
    )


def _not_ruffed(card: Card, hand: int, known: Knowledge, table: Table) -> float:
    """The chance no opponent trumps ``card`` when it is played, in round ``ours above + 1`` of its suit."""
    assert known.trump is not None
    suit, trump = SUIT_OF[card], known.trump
    round_index = (hand & SUIT_MASKS[suit] & ~((2 << card) - 1)).bit_count()
    safe = 1.0
    for i, o in enumerate(table.opponents):
        if known.voids[o] >> trump & 1 or not known.held[o]:
            continue
        has_trump = 1.0 - (1.0 - table.suit_share[i][trump]) ** table.suit_count[trump]
        if known.voids[o] >> suit & 1:
            short = 1.0
        else:
            mean = table.suit_count[suit] * table.suit_share[i][suit]
            short = sum((math.exp(-mean) * mean**k / math.factorial(k) for k in range(round_index + 1)), 0.0)
        safe *= 1.0 - short * has_trump * RUFF_WILLINGNESS
    return safe


def _suit_led_chance(suit: int, tricks_left: int, table: Table) -> float:
    """Near the end, the chance someone else leads ``suit`` while we hold a card of it."""
    mean_share = sum((row[suit] for row in table.suit_share), 0.0) / max(1, len(table.suit_share))
    per_trick = min(1.0, table.suit_count[suit] * mean_share)
    return 1.0 - (1.0 - per_trick) ** tricks_left


def apply_pressure(chances: dict[Card, float], shift: float) -> dict[Card, float]:
    """Move the hand's expected tricks by ``shift``, mostly through its doubtful cards.

    When the bids (or the tricks still needed) fall short of the tricks there
    are, someone must take the spare tricks, and middling cards take them; when
    they run over, everybody fights and middling cards lose. Sure cards and
    Jesters do not move.
    """
    weights = {c: p * (1.0 - p) + 0.02 for c, p in chances.items() if 0.0 < p < 1.0}
    total = sum(weights.values(), 0.0)
    if not total or not shift:
        return chances
    return {c: min(0.99, max(0.01, p + shift * weights[c] / total)) if c in weights else p for c, p in chances.items()}


def trick_distribution(chances: Iterable[float]) -> list[float]:
    """The distribution of the number of tricks taken by cards with these independent chances."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for t, q in enumerate(dist):
            nxt[t] += q * (1.0 - p)
            nxt[t + 1] += q * p
        dist = nxt
    return dist


def expected_points(bid: int, won: int, dist: Sequence[float], rules: Rules) -> float:
    """The deal points a seat that bid ``bid`` and has ``won`` tricks can expect, if it takes ``dist`` more."""
    row = points_table(rules, won + len(dist) - 1, bid)
    return sum((q * row[won + t] for t, q in enumerate(dist)), 0.0)


@lru_cache(maxsize=1024)
def points_table(rules: Rules, most: int, bid: int) -> tuple[int, ...]:
    """``deal_points(bid, t, rules)`` for ``t`` from 0 to ``most``: looked up, not recomputed, in searches."""
    return tuple(deal_points(bid, t, rules) for t in range(most + 1))


def overtake_chance(
    card: Card,
    known: Knowledge,
    table: Table,
    led: int,
    later: Sequence[tuple[int, bool]],
) -> float:
    """The chance that ``card``, winning the trick now, is beaten by one of the seats still to play.

    ``led`` is the suit to follow after ``card`` (-1 for none), ``later`` the
    seats still to play with whether each wants the trick.
    """
    suit = SUIT_OF[card]
    if suit == MAGICIAN_SUIT:
        return 0.0
    if suit == JESTER_SUIT:
        return 1.0
    trump = -1 if known.trump is None else known.trump
    unseen = known.unseen
    survive = 1.0
    for seat, wants in later:
        if not known.held[seat]:
            continue
        i = table.opponents.index(seat)
        share = table.suit_share[i]
        beat = 1.0 - (1.0 - table.special_share[i]) ** known.unseen_magicians
        follow_beaters = 0
        if led >= 0 and suit == led:
            follow_beaters = (unseen & SUIT_MASKS[led] & ~((2 << card) - 1)).bit_count()
        if led >= 0:
            void = 1.0 if known.voids[seat] >> led & 1 else (1.0 - share[led]) ** table.suit_count[led]
        else:
            void = 1.0
        if follow_beaters:
            beat += (1.0 - void) * (1.0 - (1.0 - share[led]) ** follow_beaters)
        if trump >= 0 and led != trump:
            trumps = unseen & SUIT_MASKS[trump]
            if suit == trump:
                trumps &= ~((2 << card) - 1)
            beat += void * (1.0 - (1.0 - share[trump]) ** trumps.bit_count())
        survive *= 1.0 - min(1.0, beat) * OVERTAKE_WILL[wants]
    return 1.0 - survive


def win_now_chance(
    card: Card,
    best: Card | None,
    known: Knowledge,
    table: Table,
    led: int,
    later: Sequence[tuple[int, bool]],
) -> float:
    """The chance that playing ``card`` now takes the trick (``best``: the card winning so far, if any)."""
    trump = -1 if known.trump is None else known.trump
    if best is not None and not beats(card, best, trump):
        return 0.0
    if best is None or SUIT_OF[best] == JESTER_SUIT:
        suit = SUIT_OF[card]
        led = suit if suit < 4 else -1
    return 1.0 - overtake_chance(card, known, table, led, later)
