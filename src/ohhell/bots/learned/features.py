"""What the learned player's networks read: one seat's view, summed up the same way under every rule set.

Everything here is computed from a :class:`~ohhell.view.SeatView` (through
:func:`~ohhell.bots.knowledge.read_view`, which infers only certainties such as
voids) and nothing else, so a network's input can never hold a card the seat may
not see. The research encodings (:mod:`ohhell.env.encoding`) change shape with
the number of players and the largest hand; these do not, so one pair of
networks plays every preset, 3 to 7 players, with or without Magicians and
Jesters.

Conventions:

* **Suits are renamed** so that trump is always suit 0 and the other three keep
  their order (a deal without trump keeps all four): a network learns "a trump"
  once, not four times.
* A **card block** has 52 slots (``suit * 13 + rank`` in renamed suits) and two
  more, the Magicians and the Jesters counted in quarters.
* **Seats are relative**: slot ``i`` of the seat block is the ``i``-th player on
  this seat's left, up to :data:`MAX_OTHERS`; absent seats are zeros.
* Counts of cards and tricks are divided by :data:`SCALE` (the largest hand, 20
  cards, is 3 players of the 60-card pack).

A decision's input is the state block followed by one action block (a bid or a
card); a decision with ``k`` choices is a ``(k, STATE_SIZE + ACTION_SIZE)``
batch for the network.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
from numpy.typing import NDArray

from ohhell.actions import BID_BASE, Action
from ohhell.bots.chances import (
    Table,
    card_chances,
    expected_points,
    opponent_table,
    trick_distribution,
    win_now_chance,
)
from ohhell.bots.knowledge import Knowledge
from ohhell.bots.normal import bid_chances
from ohhell.bots.tactics import trick_status, wants_tricks
from ohhell.cards import JESTER_SUIT, MAGICIAN_SUIT, RANK_OF, SUIT_MASKS, SUIT_OF, Card, cards_of
from ohhell.deal import beats
from ohhell.rules import SCORING_SCHEMES
from ohhell.view import SeatView

SCALE: Final = 20.0
"""Cards and tricks are counted in twentieths: the largest hand is 20 cards."""
POINTS_SCALE: Final = 20.0
"""Points are divided by this."""
MAX_OTHERS: Final = 6
"""Seven players at most: six others."""
CARD_BLOCK: Final = 54
OUTCOMES: Final = 21
"""The networks' output: the chance of taking 0, 1, ... 20 more tricks in the deal."""

_SEAT_FIELDS: Final = 16
_SCALARS: Final = 44
STATE_SIZE: Final = 4 * CARD_BLOCK + 5 + _SCALARS + MAX_OTHERS * _SEAT_FIELDS
"""Hand, unseen cards, the trick so far, its winning card; the suit led; the deal's numbers; the other seats."""
CARD_ACTION_SIZE: Final = CARD_BLOCK + 20
BID_ACTION_SIZE: Final = OUTCOMES + 12
ACTION_SIZE: Final = max(CARD_ACTION_SIZE, BID_ACTION_SIZE)
INPUT_SIZE: Final = STATE_SIZE + ACTION_SIZE

Vector = NDArray[np.float32]


def suit_order(trump: int | None) -> tuple[int, ...]:
    """The renamed suit of each real suit (4: Magician, 5: Jester, unchanged)."""
    if trump is None:
        return (0, 1, 2, 3, 4, 5)
    others = [s for s in range(4) if s != trump]
    order = [0] * 6
    order[trump] = 0
    for index, suit in enumerate(others):
        order[suit] = index + 1
    order[4], order[5] = 4, 5
    return tuple(order)


def card_slot(card: Card, order: Sequence[int]) -> int:
    """Where ``card`` goes in a card block."""
    suit = SUIT_OF[card]
    if suit == MAGICIAN_SUIT:
        return 52
    if suit == JESTER_SUIT:
        return 53
    return order[suit] * 13 + RANK_OF[card]


def _put_cards(out: Vector, start: int, cards: Sequence[Card], order: Sequence[int]) -> None:
    for card in cards:
        slot = card_slot(card, order)
        out[start + slot] += 0.25 if slot >= 52 else 1.0


class Reading:
    """One decision's view, read once: the state block and what the action blocks need."""

    def __init__(self, view: SeatView, known: Knowledge) -> None:
        self.view = view
        self.known = known
        self.rules = view.rules
        self.seat = view.seat
        self.n = view.players
        self.order = suit_order(view.trump)
        self.trump = -1 if view.trump is None else view.trump
        self.table: Table = opponent_table(known)
        if view.trick:
            index, led = trick_status(view.trick, self.trump)
            self.best: Card | None = view.trick[index]
            self.led = led
        else:
            self.best, self.led = None, -1
        self.later = [
            ((view.trick_leader + i) % self.n, self._wants((view.trick_leader + i) % self.n))
            for i in range(len(view.trick) + 1, self.n)
        ]
        self.state = self._state()

    def _wants(self, seat: int) -> bool:
        bid = self.view.bids[seat]
        return bid is not None and wants_tricks(bid, self.view.tricks_won[seat], self.view.rules)

    def _state(self) -> Vector:
        view, known, order = self.view, self.known, self.order
        out = np.zeros(STATE_SIZE, dtype=np.float32)
        _put_cards(out, 0, cards_of(view.hand.mask), order)
        unseen = cards_of(known.unseen)
        _put_cards(out, CARD_BLOCK, unseen, order)
        out[CARD_BLOCK + 52] = known.unseen_magicians / 4
        out[CARD_BLOCK + 53] = known.unseen_jesters / 4
        _put_cards(out, 2 * CARD_BLOCK, view.trick, order)
        if self.best is not None:
            _put_cards(out, 3 * CARD_BLOCK, [self.best], order)
        at = 4 * CARD_BLOCK
        out[at + (order[self.led] if self.led >= 0 else 4)] = 1.0
        at += 5
        seat, n, rules = self.seat, self.n, self.rules
        bid = view.bids[seat]
        won = view.tricks_won[seat]
        held = known.held[seat]
        position = len(view.trick) if view.phase == "playing" else (seat - view.first_leader) % n
        bids = [b for b in view.bids if b is not None]
        others_need = sum(max(0, (b or 0) - view.tricks_won[s]) for s, b in enumerate(view.bids) if s != seat)
        scalars = [
            n / 7,
            view.hand_size / SCALE,
            held / SCALE,
            (view.hand_size - held) / SCALE,
            (bid or 0) / SCALE,
            won / SCALE,
            ((bid or 0) - won) / 10,
            float(bid is not None and won < bid),
            float(bid is not None and won == bid),
            float(bid is not None and won > bid),
            float(bid is not None and wants_tricks(bid, won, rules)),
            float(view.phase == "bidding"),
            float(view.trump is not None),
            float(rules.special_cards),
            known.stock / 60,
            float(rules.miss_penalty),
            float(rules.hook),
            float(seat == view.dealer),
            sum(bids) / SCALE,
            (sum(bids) - view.hand_size) / 10,
            len(bids) / 7,
            others_need / SCALE,
            (held - others_need) / 10,
            float(view.trick_leader == seat and not view.trick),
            (rules.zero_bid_bonus or 0) / 10,
            float(self.best is not None and view.winning_seat is not None and self._wants(view.winning_seat)),
        ]
        scalars += [float(rules.scoring == s) for s in SCORING_SCHEMES]
        scalars += [float(position == p) for p in range(7)]
        scalars += [0.0] * (_SCALARS - len(scalars))
        out[at : at + _SCALARS] = scalars
        at += _SCALARS
        for i in range(1, n):
            other = (seat + i) % n
            other_bid = view.bids[other]
            other_won = view.tricks_won[other]
            played_now = (other - view.trick_leader) % n < len(view.trick)
            fields = [
                1.0,
                float(other_bid is not None),
                (other_bid or 0) / SCALE,
                other_won / SCALE,
                ((other_bid or 0) - other_won) / 10,
                float(self._wants(other)),
                known.held[other] / SCALE,
                float(played_now),
                float(view.winning_seat == other and bool(view.trick)),
                float(other == view.dealer),
                float(other_bid is not None and other_won == other_bid),
                float(other_bid is not None and other_won > other_bid),
            ]
            fields += [float(known.voids[other] >> suit & 1) for suit in self._real_suits()]
            out[at + (i - 1) * _SEAT_FIELDS : at + (i - 1) * _SEAT_FIELDS + len(fields)] = fields
        return out

    def _real_suits(self) -> list[int]:
        """The real suits in renamed order (renamed suit 0 first)."""
        real = [0, 0, 0, 0]
        for suit in range(4):
            real[self.order[suit]] = suit
        return real

    # ----------------------------------------------------------------- cards

    def card_block(self, cards: Sequence[Card]) -> tuple[NDArray[np.float32], list[float], list[float]]:
        """The inputs for playing each of ``cards``, and each card's chance to win the trick now (Normal's count)
        and Normal's expected points for it."""
        known, view = self.known, self.view
        bid = view.bids[self.seat]
        assert bid is not None
        won = view.tricks_won[self.seat]
        tricks_left = known.held[self.seat]
        batch = np.zeros((len(cards), INPUT_SIZE), dtype=np.float32)
        batch[:, :STATE_SIZE] = self.state
        hand = known.hand
        others = known.unseen
        nows: list[float] = []
        values: list[float] = []
        for row, card in enumerate(cards):
            now = win_now_chance(card, self.best, known, self.table, self.led, self.later)
            rest = card_chances(known, hand & ~(1 << card), tricks_left - 1, now >= 0.5, self.table)
            dist = trick_distribution([now, *rest.values()])
            value = expected_points(bid, won, dist, self.rules)
            nows.append(now)
            values.append(value)
            suit = SUIT_OF[card]
            a = batch[row, STATE_SIZE:]
            slot = card_slot(card, self.order)
            a[slot] = 1.0
            at = CARD_BLOCK
            suited = suit < 4
            higher = (others & SUIT_MASKS[suit] & ~((2 << card) - 1)).bit_count() if suited else 0
            lower = (others & SUIT_MASKS[suit] & ((1 << card) - 1)).bit_count() if suited else 0
            mine = (hand & SUIT_MASKS[suit]).bit_count() if suited else 0
            rest_mean = sum(rest.values(), 0.0)
            a[at : at + 20] = [
                (RANK_OF[card] / 12) if suited else 0.0,
                float(suited and suit == self.trump),
                float(suited and suit == self.led),
                float(suit == MAGICIAN_SUIT),
                float(suit == JESTER_SUIT),
                float(self.best is None or beats(card, self.best, self.trump)),
                now,
                rest_mean / 10,
                value / POINTS_SCALE,
                higher / 13,
                lower / 13,
                mine / 13,
                float(suited and higher == 0),
                dist[0] if len(dist) > 0 else 0.0,
                _chance_of(dist, bid - won),
                (now + rest_mean - (bid - won)) / 10,
                float(not view.trick),
                len(self.later) / 6,
                sum(1.0 for _, w in self.later if w) / 6,
                float(suited and suit == self.led and higher == 0),
            ]
        return batch, nows, values

    # ----------------------------------------------------------------- bids

    def bid_block(self, bids: Sequence[int]) -> tuple[NDArray[np.float32], dict[Card, float], list[float]]:
        """The inputs for each bid in ``bids``, the card chances Normal counts, and Normal's expected points."""
        view, known = self.view, self.known
        chances = bid_chances(known, view.bids, view.first_leader)
        dist = trick_distribution(chances.values())
        mean = sum(chances.values(), 0.0)
        batch = np.zeros((len(bids), INPUT_SIZE), dtype=np.float32)
        batch[:, :STATE_SIZE] = self.state
        values: list[float] = []
        for row, bid in enumerate(bids):
            value = expected_points(bid, 0, dist, self.rules)
            values.append(value)
            a = batch[row, STATE_SIZE:]
            a[min(bid, OUTCOMES - 1)] = 1.0
            at = OUTCOMES
            a[at : at + 12] = [
                bid / SCALE,
                (bid - mean) / 5,
                mean / SCALE,
                value / POINTS_SCALE,
                _chance_of(dist, bid),
                sum(dist[: bid + 1]),
                float(bid == 0),
                bid / max(1, view.hand_size),
                float(bid == view.forbidden_bid),
                float(view.seat == view.dealer),
                abs(bid - mean) / SCALE,
                sum(dist[bid + 1 :]),
            ]
        return batch, chances, values


def _chance_of(dist: Sequence[float], tricks: int) -> float:
    return dist[tricks] if 0 <= tricks < len(dist) else 0.0


def bid_of(action: Action) -> int:
    """The number bid by a bid action."""
    return action - BID_BASE
