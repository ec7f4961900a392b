"""Where the ones go: one seat's view as positions of a vector, the compiled core of :mod:`ohhell.env.encoding`.

A writer turns one seat's :class:`~ohhell.view.SeatView` into the positions of
the vector that are 1 and the few that hold another value; the encoding (with
the field layout, the bounds and numpy) fills the array. The code is plain
typed Python, compiled with mypyc when the package is built, and imports
nothing outside the engine and the bots' knowledge (so the build needs no numpy).

Card vectors and card action ids share one order: ``rank * 4 + suit`` with the
suits in OpenSpiel's order, clubs, diamonds, spades, hearts (:data:`CARD_IDS`).
"""

from __future__ import annotations

from typing import Final

from ohhell.actions import BID_BASE, CHANGE_BASE
from ohhell.bots.knowledge import voids_from_tricks
from ohhell.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    JESTER_MASK,
    MAGICIAN_MASK,
    MAGICIAN_SUIT,
    SPADES,
    STANDARD_PACK,
    SUIT_OF,
    Card,
    Suit,
    add_card,
    cards_of,
)
from ohhell.scoring import deal_points
from ohhell.view import SeatView

ID_SUITS: Final[tuple[Suit, ...]] = (CLUBS, DIAMONDS, SPADES, HEARTS)
"""Our suit numbers in the order of the ids (OpenSpiel's: clubs, diamonds, spades, hearts)."""
CARD_IDS: Final[tuple[int, ...]] = tuple(c % 13 * 4 + ID_SUITS.index(c // 13) for c in range(52))
"""``CARD_IDS[card]``: the id of one of our suited cards (``suit * 13 + rank``, suits S H D C)."""
SCORE_SCALE: Final = 100.0
"""Totals are given in hundreds of points."""
PHASES: Final = ("choosing-trump", "bidding", "confirming", "playing", "finished")
"""The ``phase`` field's entries; ``confirming`` is the *keep or change* decision right after a bid (``until-next``)."""
_TRUMP_SLOT: Final = {suit: slot for slot, suit in enumerate(ID_SUITS)}
_NO_TRUMP_SLOT: Final = 4
_VOID_SLOTS: Final = tuple(tuple(slot for slot, suit in enumerate(ID_SUITS) if bits >> suit & 1) for bits in range(16))
"""``_VOID_SLOTS[bits]``: the ``voids`` entries (clubs, diamonds, spades, hearts) of a set of suit bits."""

Values = list[tuple[int, float]]


def deal_progress(view: SeatView) -> float:
    """How far into the game the deal is: 0 for the first deal, 1 for the last."""
    deals = view.rules.deals
    return view.deal_index / (deals - 1) if deals > 1 else 0.0


def current_totals(view: SeatView) -> tuple[int, ...]:
    """Each seat's total now: before the deal, plus the deal's points once it is finished."""
    if view.phase != "finished":
        return view.totals
    rules = view.rules
    return tuple(
        total + deal_points(bid or 0, won, rules)
        for total, bid, won in zip(view.totals, view.bids, view.tricks_won, strict=True)
    )


def first_bids(view: SeatView) -> list[int | None]:
    """Each seat's bid as first made in this deal (before any change), from the public history."""
    bids: list[int | None] = [None] * view.players
    for seat, action in view.history:
        if BID_BASE <= action < CHANGE_BASE:
            bids[seat] = action - BID_BASE
    return bids


def dealt_hand(view: SeatView) -> int:
    """The seat's hand as dealt (a bitmask): the cards it holds and the cards it has played."""
    n = view.players
    me = view.seat
    dealt = view.hand.mask
    runs = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        runs.append((view.trick_leader, view.trick))
    for leader, cards in runs:
        if (me - leader) % n < len(cards):
            dealt = add_card(dealt, cards[(me - leader) % n])
    return dealt


class Writer:
    """Writes one encoding's fields; ``offsets`` gives each field's start by name."""

    def __init__(self, players: int, max_bid: int, card_slots: int, offsets: dict[str, int]) -> None:
        self.players = players
        self.max_bid = max_bid
        self.card_slots = card_slots
        self._at = offsets

    def write(self, view: SeatView, confirming: bool) -> tuple[list[int], Values]:
        """The positions that are 1, and ``(position, value)`` for the others that are not 0."""
        hot: list[int] = []
        values: Values = []
        self._write(view, confirming, hot, values)
        return hot, values

    def _write(self, view: SeatView, confirming: bool, hot: list[int], values: Values) -> None:
        raise NotImplementedError

    def _common(self, view: SeatView, confirming: bool, hot: list[int], values: Values) -> None:
        """phase, decider, dealer, leader, hand_size, deal_progress, trump, turn_up, hand."""
        at = self._at
        n = self.players
        me = view.seat
        phase = "confirming" if confirming else view.phase
        hot.append(at["phase"] + PHASES.index(phase))
        if confirming:
            hot.append(at["decider"])
        elif phase != "finished":
            hot.append(at["decider"] + (view.to_act - me) % n)
        hot.append(at["dealer"] + (view.dealer - me) % n)
        hot.append(at["leader"] + (view.trick_leader - me) % n)
        hot.append(at["hand_size"] + view.hand_size - 1)
        values.append((at["deal_progress"], deal_progress(view)))
        if view.trump is not None:
            hot.append(at["trump"] + _TRUMP_SLOT[view.trump])
        elif view.phase != "choosing-trump":
            hot.append(at["trump"] + _NO_TRUMP_SLOT)
        if view.turn_up is not None:
            self._card(at["turn_up"], view.turn_up, hot, values)
        self._cards(at["hand"], view.hand.mask, hot, values)

    def _totals(self, view: SeatView, values: Values) -> None:
        start = self._at["totals"]
        n = self.players
        for seat, total in enumerate(current_totals(view)):
            if total:
                values.append((start + (seat - view.seat) % n, total / SCORE_SCALE))

    def _bids(self, start: int, bids: list[int | None] | tuple[int | None, ...], me: int, hot: list[int]) -> None:
        width = self.max_bid + 2
        n = self.players
        for seat, bid in enumerate(bids):
            hot.append(start + (seat - me) % n * width + (0 if bid is None else bid + 1))

    def _won(self, view: SeatView, hot: list[int]) -> None:
        start = self._at["tricks_won"]
        width = self.max_bid + 1
        n = self.players
        for seat, won in enumerate(view.tricks_won):
            hot.append(start + (seat - view.seat) % n * width + won)

    def _cards(self, start: int, mask: int, hot: list[int], values: Values) -> None:
        for card in cards_of(mask & STANDARD_PACK):
            hot.append(start + CARD_IDS[card])
        if mask >> 52:
            magicians = (mask & MAGICIAN_MASK).bit_count()
            jesters = (mask & JESTER_MASK).bit_count()
            if magicians:
                values.append((start + 52, magicians / 4))
            if jesters:
                values.append((start + 53, jesters / 4))

    @staticmethod
    def _card(start: int, card: Card, hot: list[int], values: Values) -> None:
        if card < 52:
            hot.append(start + CARD_IDS[card])
        else:
            values.append((start + (52 if SUIT_OF[card] == MAGICIAN_SUIT else 53), 0.25))

    def _seat_cards(
        self,
        start: int,
        runs: list[tuple[int, tuple[Card, ...]]],
        me: int,
        hot: list[int],
        values: Values,
        stride: int = 0,
    ) -> None:
        """Cards played in turn from a leader, each into the card vector of the seat that played it.

        ``runs`` are ``(leader, cards)``; with ``stride`` each run starts ``stride`` further on (one block a trick).
        """
        k = self.card_slots
        span = self.players * k
        ids = CARD_IDS
        for leader, cards in runs:
            base = start
            offset = (leader - me) % self.players * k
            for card in cards:
                if card < 52:
                    hot.append(base + offset + ids[card])
                else:
                    values.append((base + offset + (52 if SUIT_OF[card] == MAGICIAN_SUIT else 53), 0.25))
                offset += k
                if offset == span:
                    offset = 0
            start += stride


class ObservationWriter(Writer):
    """The fields of :class:`~ohhell.env.encoding.ObservationEncoding`."""

    def _write(self, view: SeatView, confirming: bool, hot: list[int], values: Values) -> None:
        at = self._at
        n = self.players
        me = view.seat
        self._common(view, confirming, hot, values)
        self._bids(at["bids"], view.bids, me, hot)
        self._won(view, hot)
        tricks = [(t.leader, t.cards) for t in view.tricks]
        if view.trick:
            tricks.append((view.trick_leader, view.trick))
            self._seat_cards(at["trick"], tricks[-1:], me, hot, values)
        self._seat_cards(at["played"], tricks, me, hot, values)
        for seat, suits in enumerate(voids_from_tricks(n, tricks)):
            if suits:
                start = at["voids"] + (seat - me) % n * 4
                hot.extend(start + slot for slot in _VOID_SLOTS[suits])
        self._totals(view, values)


class InformationStateWriter(Writer):
    """The fields of :class:`~ohhell.env.encoding.InformationStateEncoding`."""

    def _write(self, view: SeatView, confirming: bool, hot: list[int], values: Values) -> None:
        at = self._at
        n, k = self.players, self.card_slots
        me = view.seat
        self._common(view, confirming, hot, values)
        tricks = [(t.leader, t.cards) for t in view.tricks]
        if view.trick:
            tricks.append((view.trick_leader, view.trick))
        self._cards(at["dealt"], dealt_hand(view), hot, values)
        self._bids(at["first_bids"], first_bids(view), me, hot)
        self._bids(at["bids"], view.bids, me, hot)
        self._won(view, hot)
        for number, (leader, _) in enumerate(tricks):
            hot.append(at["trick_leaders"] + number * n + (leader - me) % n)
        self._seat_cards(at["tricks"], tricks, me, hot, values, stride=n * k)
        self._totals(view, values)
