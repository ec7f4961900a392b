"""What one seat may know: the only thing a computer player, a hint or a client ever receives.

A :class:`SeatView` holds the seat's own hand, the turned card, the bids, every
card played and the tricks and scores, and never another seat's hidden cards.
It is built by :func:`seat_view` from a deal; nothing in it refers back to the
deal, so holding a view gives no path to the hidden state.

The four Magicians (and the four Jesters) are interchangeable, but the engine keeps
them apart as four card numbers, and which numbers a seat holds depends on the
other hands. A view therefore never shows the engine's numbers for them: it names
each copy by :class:`CopyLabels`, in the order the seat came to know it (its own
hand as dealt first, then the turned card, then the cards played, in play order).
Two deals that one seat cannot tell apart give that seat the same view, copy labels
included. An action on a label needs no translation back: the engine plays the
lowest copy of the kind the seat holds, whichever copy is named, and the seat's
lowest label is its lowest copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ohhell.actions import Action
from ohhell.cards import FIRST_JESTER, FIRST_MAGICIAN, SPECIAL_MASK, Card, CardSet, Suit, cards_of
from ohhell.deal import PHASE_NAMES, PLAYING, Deal, Trick
from ohhell.rules import Rules

PUBLIC = -1
"""The seat of :class:`CopyLabels` for what everyone may see (no hand): a spectator's."""


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge of the game at one moment.

    Every card in it (hand, turned card, tricks, history, legal actions) that is a Magician or a Jester is named by
    the seat's :class:`CopyLabels`, not by the engine's copy number.
    """

    rules: Rules
    seat: int
    deal_index: int
    dealer: int
    hand_size: int
    hand: CardSet
    """This seat's cards now."""
    turn_up: Card | None
    trump: Suit | None
    phase: str
    to_act: int
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    first_leader: int
    trick_leader: int
    """Who leads (or led) the trick in progress; before the first card of a deal, the first leader."""
    trick: tuple[Card, ...]
    """The cards of the trick in progress, in play order from :attr:`trick_leader`."""
    led_suit: Suit | None
    """The suit to follow in the trick in progress (``None`` before a lead, after a led Magician, or over Jesters)."""
    winning_seat: int | None
    """The seat whose card is winning the trick in progress, if a card has been played."""
    tricks: tuple[Trick, ...]
    """This deal's finished tricks."""
    history: tuple[tuple[int, Action], ...]
    """Every action of this deal in order (all public: bids, trump choice, plays)."""
    legal_actions: tuple[Action, ...]
    """What this seat may do now: its turn's actions, or its bid changes while its ``until-next`` window is open."""
    forbidden_bid: int | None
    totals: tuple[int, ...]
    """Each seat's total before this deal."""

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @property
    def my_turn(self) -> bool:
        """Whether this seat is the one to act."""
        return self.to_act == self.seat and bool(self.legal_actions)

    @property
    def played(self) -> CardSet:
        """Every card played in this deal so far, the trick in progress included."""
        return CardSet([c for t in self.tricks for c in t.cards] + list(self.trick))

    def trick_seats(self) -> list[tuple[int, Card]]:
        """The trick in progress as ``(seat, card)`` pairs."""
        n = self.rules.players
        return [((self.trick_leader + i) % n, card) for i, card in enumerate(self.trick)]


class CopyLabels:
    """The card numbers one seat (or :data:`PUBLIC`) knows the copies of a Magician or Jester by.

    Copies of a kind are labelled from its first number (52 for Magicians, 56 for Jesters) in the order
    the seat came to know them: its own hand as dealt, lowest copy first; then the turned card; then each
    card played, in play order. The labels depend only on what the seat has seen, never on which copies
    the engine gave the other hands. Suited cards keep their numbers.

    >>> from ohhell.rules import Rules
    >>> from ohhell.cards import parse_card
    >>> deal = Deal(Rules.preset("magicians", players=3, schedule=(1,)), [[52], [53], [54]], 0, 55)
    >>> [CopyLabels(deal, seat).card(c) for seat in range(3) for c in (52 + seat, 55)]
    [52, 53, 52, 53, 52, 53]
    """

    __slots__ = ("_labels",)

    def __init__(self, deal: Deal, seat: int) -> None:
        labels: dict[Card, Card] = {}
        if deal.rules.special_cards:
            following = [FIRST_MAGICIAN, FIRST_JESTER]
            known = cards_of(deal.hands_dealt[seat] & SPECIAL_MASK) if seat != PUBLIC else []
            if deal.turn_up is not None:
                known.append(deal.turn_up)
            known.extend(c for trick in deal.tricks for c in trick.cards)
            known.extend(deal.trick)
            for card in known:
                if card >= FIRST_MAGICIAN and card not in labels:
                    kind = 1 if card >= FIRST_JESTER else 0
                    labels[card] = following[kind]
                    following[kind] += 1
        self._labels = labels

    def card(self, card: Card) -> Card:
        """The label of ``card`` (a suited card is its own)."""
        return self._labels.get(card, card)

    def cards(self, cards: Iterable[Card]) -> tuple[Card, ...]:
        """The labels of ``cards``, in their order."""
        labels = self._labels
        if not labels:  # no Magician or Jester known: every card is its own label
            return tuple(cards)
        return tuple(labels.get(c, c) for c in cards)

    def hand(self, mask: int) -> CardSet:
        """A hand of the seat's, by label."""
        if not mask & SPECIAL_MASK or not self._labels:
            return CardSet(mask)
        labelled = mask & ~SPECIAL_MASK
        for card in cards_of(mask & SPECIAL_MASK):
            labelled |= 1 << self._labels[card]
        return CardSet(labelled)

    def tricks(self, tricks: Iterable[Trick]) -> tuple[Trick, ...]:
        """Finished tricks, their cards by label."""
        if not self._labels:
            return tuple(tricks)
        return tuple(Trick(t.leader, self.cards(t.cards), t.winner) for t in tricks)

    def actions(self, actions: Iterable[tuple[int, Action]]) -> tuple[tuple[int, Action], ...]:
        """``(seat, action)`` pairs, a play of a special card by label (every other action is its own)."""
        labels = self._labels
        if not labels:  # the pairs are tuples already: the same pairs
            return tuple(actions)
        return tuple((seat, labels.get(action, action)) for seat, action in actions)


def seat_view(deal: Deal, seat: int, totals: tuple[int, ...] | None = None) -> SeatView:
    """The view of ``seat`` of ``deal``; ``totals`` are the scores before the deal."""
    if not 0 <= seat < deal.players:
        raise ValueError(f"there is no seat {seat}: seats are 0 to {deal.players - 1}")
    labels = CopyLabels(deal, seat)
    return SeatView(
        rules=deal.rules,
        seat=seat,
        deal_index=deal.deal_index,
        dealer=deal.dealer,
        hand_size=deal.size,
        hand=labels.hand(deal.hands[seat]),
        turn_up=None if deal.turn_up is None else labels.card(deal.turn_up),
        trump=deal.trump,
        phase=PHASE_NAMES[deal.phase],
        to_act=deal.to_act,
        bids=tuple(None if b < 0 else b for b in deal.bids),
        tricks_won=tuple(deal.tricks_won),
        first_leader=deal.first_leader,
        trick_leader=deal.trick_leader if deal.trick or deal.phase != PLAYING else deal.to_act,
        trick=labels.cards(deal.trick),
        led_suit=deal.led_suit,
        winning_seat=deal.trick_winner_so_far(),
        tricks=labels.tricks(deal.tricks),
        history=labels.actions(deal.actions),
        legal_actions=labels.cards(deal.legal_actions(seat)),
        forbidden_bid=deal.forbidden_bid(),
        totals=totals if totals is not None else (0,) * deal.players,
    )
