"""What one seat may know: the only thing a computer player, a hint or a client ever receives.

A :class:`SeatView` holds the seat's own hand, the turned card, the bids, every
card played and the tricks and scores, and never another seat's hidden cards.
It is built by :func:`seat_view` from a deal; nothing in it refers back to the
deal, so holding a view gives no path to the hidden state.
"""

from __future__ import annotations

from dataclasses import dataclass

from ohhell.actions import Action
from ohhell.cards import Card, CardSet, Suit
from ohhell.deal import PHASE_NAMES, PLAYING, Deal, Trick
from ohhell.rules import Rules


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge of the game at one moment."""

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
    deal_number: int | None = None

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


def seat_view(deal: Deal, seat: int, totals: tuple[int, ...] | None = None, deal_number: int | None = None) -> SeatView:
    """The view of ``seat`` of ``deal``; ``totals`` are the scores before the deal."""
    if not 0 <= seat < deal.players:
        raise ValueError(f"there is no seat {seat}: seats are 0 to {deal.players - 1}")
    return SeatView(
        rules=deal.rules,
        seat=seat,
        deal_index=deal.deal_index,
        dealer=deal.dealer,
        hand_size=deal.size,
        hand=CardSet(deal.hands[seat]),
        turn_up=deal.turn_up,
        trump=deal.trump,
        phase=PHASE_NAMES[deal.phase],
        to_act=deal.to_act,
        bids=tuple(None if b < 0 else b for b in deal.bids),
        tricks_won=tuple(deal.tricks_won),
        first_leader=deal.first_leader,
        trick_leader=deal.trick_leader if deal.trick or deal.phase != PLAYING else deal.to_act,
        trick=tuple(deal.trick),
        led_suit=deal.led_suit,
        winning_seat=deal.trick_winner_so_far(),
        tricks=tuple(deal.tricks),
        history=tuple(deal.actions),
        legal_actions=deal.legal_actions(seat),
        forbidden_bid=deal.forbidden_bid(),
        totals=totals if totals is not None else (0,) * deal.players,
        deal_number=deal_number,
    )
