"""The last tricks of a sampled world solved exactly, on bitmasks (compiled with mypyc: see ``setup.py``).

Every seat sees every hand and plays the card best for its own score, looking to
the end of the deal (a *max-n* search: each seat maximizes its own points; among
cards worth the same to it, a seat plays its lowest). Cards in sequence (no card
another seat holds lies between them) lead to the same outcomes, so only one of
them is searched. The search works on the standard 52 cards only; deals with
Magicians or Jesters still in play are left to the play-out's search over the engine's own deal.

    >>> from ohhell.cards import CardSet, card_text, parse_card
    >>> from ohhell.deal import Deal
    >>> from ohhell.rules import Rules
    >>> rules = Rules.preset("full", players=3, schedule=(2,))
    >>> deal = Deal(rules, [CardSet.parse("AS 2H"), CardSet.parse("KS 3H"), CardSet.parse("QS 4H")],
    ...             dealer=2, turn_up=parse_card("9D"))
    >>> for bid in (1, 0, 0):
    ...     deal.bid(bid)
    >>> card_text(best_play(deal))   # seat 0 bid 1: the ace of spades makes it at once
    'AS'
"""

from __future__ import annotations

from typing import Final

from ohhell.cards import STANDARD_PACK, Card
from ohhell.deal import Deal
from ohhell.scoring import deal_points

SUIT_BITS: Final = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)
TRICK_BITS: Final = 5
"""Bits per seat in a packed count of tricks won."""
TRICK_MASK: Final = 31


def suit_of_bit(bit: int) -> int:
    """The suit of a one-card mask."""
    if bit < 1 << 13:
        return 0
    if bit < 1 << 26:
        return 1
    if bit < 1 << 39:
        return 2
    return 3


def _bit_index(bit: int) -> int:
    index = 0
    while bit > 1:
        bit >>= 1
        index += 1
    return index


class _Solver:
    """A max-n search over the rest of one deal; the hands are changed and restored as it goes."""

    def __init__(self, hands: list[int], trump: int, points: list[list[int]]) -> None:
        self.hands = hands
        self.players = len(hands)
        self.trump = trump
        self.points = points

    def prepare(self, left: int) -> None:
        """Work out each seat's ceiling for up to ``left`` tricks to go (before searching)."""
        width = left + 1
        self.width = width
        self.ceiling = [
            [max(scores[won : won + rest + 1]) for won in range(len(scores)) for rest in range(width)]
            for scores in self.points
        ]
        """``ceiling[seat][won * width + rest]``: the most a seat with ``won`` tricks can end with, ``rest`` to go."""

    def value(self, seat: int, count: int, led: int, best: int, best_seat: int, won: int, left: int) -> int:
        """The packed trick counts the deal ends with from here, every seat playing for its own score.

        ``seat`` is to play the ``count``-th card of the trick (0: it leads); ``led``
        is the led suit, ``best`` the winning card (one-bit mask) and ``best_seat``
        its seat (ignored when leading); ``won`` is the packed trick counts so far and
        ``left`` the number of tricks still to finish, the one in progress included.
        The card the seat chooses is left in :attr:`move`.
        """
        n = self.players
        hands = self.hands
        if count == n:
            won += 1 << (TRICK_BITS * best_seat)
            if not hands[best_seat]:
                return won
            seat = best_seat
            count = 0
            left -= 1
        hand = hands[seat]
        if count == 0 and not hand & (hand - 1):
            self.move = hand
            return won + (1 << (TRICK_BITS * self._last_trick(seat)))
        moves = hand
        if count:
            follow = hand & SUIT_BITS[led]
            if follow:
                moves = follow
        others = best
        for other in range(n):
            if other != seat:
                others |= hands[other]
        scores = self.points[seat]
        shift = TRICK_BITS * seat
        ceiling = self.ceiling[seat][((won >> shift) & TRICK_MASK) * self.width + left]
        next_seat = seat + 1 if seat + 1 < n else 0
        chosen = -1
        chosen_move = 0
        chosen_points = -(1 << 30)
        previous = 0
        rest = moves
        while rest:
            bit = rest & -rest
            rest ^= bit
            if (
                previous
                and suit_of_bit(previous) == suit_of_bit(bit)
                and not others & (bit - 1) & ~((previous << 1) - 1)
            ):
                previous = bit
                continue
            previous = bit
            hands[seat] = hand ^ bit
            if count == 0:
                result = self.value(next_seat, 1, suit_of_bit(bit), bit, seat, won, left)
            elif self._beats(bit, best):
                result = self.value(next_seat, count + 1, led, bit, seat, won, left)
            else:
                result = self.value(next_seat, count + 1, led, best, best_seat, won, left)
            hands[seat] = hand
            points = scores[(result >> shift) & TRICK_MASK]
            if points > chosen_points:
                chosen_points = points
                chosen = result
                chosen_move = bit
                if points >= ceiling:
                    break
        self.move = chosen_move
        return chosen

    def _beats(self, card: int, best: int) -> bool:
        suit = suit_of_bit(card)
        best_suit = suit_of_bit(best)
        if suit == best_suit:
            return card > best
        return suit == self.trump

    def _last_trick(self, leader: int) -> int:
        """The winner of the last trick, every seat holding one card and ``leader`` to lead."""
        n = self.players
        best = self.hands[leader]
        best_seat = leader
        for i in range(1, n):
            seat = (leader + i) % n
            card = self.hands[seat]
            if self._beats(card, best):
                best = card
                best_seat = seat
        return best_seat


def solvable(deal: Deal) -> bool:
    """Whether the rest of ``deal`` can be searched here: cards being played, none of them a Magician or Jester."""
    if deal.phase_name != "playing":
        return False
    for hand in deal.hands:
        if hand & ~STANDARD_PACK:
            return False
    return all(card < 52 for card in deal.trick)


def best_play(deal: Deal) -> Card:
    """The card the seat to act plays when every seat plays for its own score to the end (see :func:`solvable`)."""
    n = deal.players
    trump = -1 if deal.trump is None else deal.trump
    points = [[deal_points(deal.bids[s], t, deal.rules) for t in range(deal.size + 1)] for s in range(n)]
    solver = _Solver(list(deal.hands), trump, points)
    won = 0
    for seat in range(n):
        won |= deal.tricks_won[seat] << (TRICK_BITS * seat)
    seat = deal.to_act
    led = -1
    best = 0
    best_seat = -1
    for i, card in enumerate(deal.trick):
        bit = 1 << card
        if i == 0:
            led = suit_of_bit(bit)
            best = bit
            best_seat = deal.trick_leader
        elif solver._beats(bit, best):
            best = bit
            best_seat = (deal.trick_leader + i) % n
    left = deal.size - len(deal.tricks)
    solver.prepare(left)
    solver.value(seat, len(deal.trick), led, best, best_seat, won, left)
    return _bit_index(solver.move)
