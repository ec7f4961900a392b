"""What one seat can infer from its view: the cards it has not seen, who may hold them, and known voids.

Inference is deliberately limited to certainties: a seat that played a suited
card off the led suit holds none of that suit. Magicians and Jesters may always
be played, so playing one proves nothing; after a led Jester the suit to follow
is set by the first card that is not a Jester, and after a Magician there is none.

>>> from ohhell.deal import Deal
>>> from ohhell.rules import Rules
>>> from ohhell.cards import CardSet, parse_card
>>> from ohhell.view import seat_view
>>> deal = Deal(Rules.preset("full", players=3, schedule=(2,)), dealer=2,
...             hands=[CardSet.parse("AS KH"), CardSet.parse("2S 3H"), CardSet.parse("QD QC")],
...             turn_up=parse_card("9H"))
>>> for action in (64 + 1, 64 + 0, 64 + 0, parse_card("AS"), parse_card("2S"), parse_card("QD")):
...     deal.apply(action)
>>> known = read_view(seat_view(deal, 0))
>>> known.voids[2] == 1 << 0, known.held, known.stock
(True, (1, 1, 1), 45)
"""

from __future__ import annotations

from dataclasses import dataclass

from ohhell.cards import JESTER_SUIT, MAGICIAN_SUIT, STANDARD_PACK, SUIT_MASKS, SUIT_OF, Card, Suit, cards_of
from ohhell.rules import Rules
from ohhell.view import SeatView

SPECIAL_COPIES = 4
"""Magicians and Jesters come four of a kind."""


@dataclass(frozen=True)
class Knowledge:
    """One seat's picture of the hidden cards.

    ``unseen`` holds the suited cards this seat has not seen: in another hand or
    left undealt. ``stock`` is how many unseen cards (specials included) are in no
    hand. ``voids[s]`` has bit ``suit`` set when seat ``s`` is known to hold no
    card of that suit.
    """

    rules: Rules
    seat: int
    trump: Suit | None
    hand: int
    unseen: int
    unseen_magicians: int
    unseen_jesters: int
    held: tuple[int, ...]
    """How many cards each seat holds now."""
    voids: tuple[int, ...]
    played: tuple[tuple[Card, ...], ...]
    """The cards each seat has played in this deal, in order."""
    stock: int

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @property
    def unseen_count(self) -> int:
        """How many cards, specials included, this seat has not seen."""
        return self.unseen.bit_count() + self.unseen_magicians + self.unseen_jesters

    def could_hold(self, seat: int) -> int:
        """The unseen suited cards ``seat`` may hold, given its known voids."""
        allowed = self.unseen
        for suit in range(4):
            if self.voids[seat] >> suit & 1:
                allowed &= ~SUIT_MASKS[suit]
        return allowed


def _specials_seen(cards: list[Card]) -> tuple[int, int]:
    """How many Magicians and Jesters are among ``cards``.

    Counted card by card, not by bits: the turned card's copy number may repeat one in a hand.
    """
    magicians = sum(1 for c in cards if SUIT_OF[c] == MAGICIAN_SUIT)
    jesters = sum(1 for c in cards if SUIT_OF[c] == JESTER_SUIT)
    return magicians, jesters


def voids_from_tricks(players: int, tricks: list[tuple[int, tuple[Card, ...]]]) -> list[int]:
    """Each seat's known voids (suit bits) from tricks given as ``(leader, cards)``, the last maybe unfinished."""
    voids = [0] * players
    for leader, cards in tricks:
        led = -1
        for index, card in enumerate(cards):
            suit = SUIT_OF[card]
            if 0 <= led < 4 and suit < 4 and suit != led:
                voids[(leader + index) % players] |= 1 << led
            if led == -1 and suit != JESTER_SUIT:
                led = suit if suit < 4 else MAGICIAN_SUIT
    return voids


def read_view(view: SeatView) -> Knowledge:
    """Everything ``view.seat`` can infer about the hidden cards from its view."""
    n = view.players
    rules = view.rules
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick_leader, view.trick))
    played: list[list[Card]] = [[] for _ in range(n)]
    seen = [*view.hand]
    for leader, cards in tricks:
        for index, card in enumerate(cards):
            played[(leader + index) % n].append(card)
            seen.append(card)
    if view.turn_up is not None:
        seen.append(view.turn_up)
    held = tuple(view.hand_size - len(cards) for cards in played)
    return _knowledge(rules, view.seat, view.trump, view.hand.mask, seen, held, voids_from_tricks(n, tricks), played)


def at_bidding(rules: Rules, seat: int, hand: int, turn_up: Card | None, trump: Suit | None) -> Knowledge:
    """What ``seat`` knows before any card is played: its hand and the turned card.

    Used to read other seats' minds in a sampled world, where building a full view would cost too much.
    """
    seen = cards_of(hand) if turn_up is None else [*cards_of(hand), turn_up]
    size = hand.bit_count()
    n = rules.players
    return _knowledge(rules, seat, trump, hand, seen, (size,) * n, [0] * n, [[] for _ in range(n)])


def _knowledge(
    rules: Rules,
    seat: int,
    trump: Suit | None,
    hand: int,
    seen: list[Card],
    held: tuple[int, ...],
    voids: list[int],
    played: list[list[Card]],
) -> Knowledge:
    if rules.special_cards:
        seen_magicians, seen_jesters = _specials_seen(seen)
        magicians, jesters = SPECIAL_COPIES - seen_magicians, SPECIAL_COPIES - seen_jesters
    else:
        magicians = jesters = 0
    unseen = STANDARD_PACK
    for card in seen:
        if card < 52:
            unseen &= ~(1 << card)
    in_other_hands = sum(held) - held[seat]
    return Knowledge(
        rules=rules,
        seat=seat,
        trump=trump,
        hand=hand,
        unseen=unseen,
        unseen_magicians=magicians,
        unseen_jesters=jesters,
        held=held,
        voids=tuple(voids),
        played=tuple(tuple(cards) for cards in played),
        stock=unseen.bit_count() + magicians + jesters - in_other_hands,
    )
