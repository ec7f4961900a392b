"""What a spectator sees: a view of the table built from public facts only, with no hand in it.

:func:`public_view` is a :class:`~ohhell.view.SeatView` for :data:`WATCHER`, a seat that sits nowhere: it is made
field by field from what every player may see (the dealer, the turned card, trump, bids, tricks won, the cards
played, the history of public actions), never from a seat's view, and its hand is empty and it may do nothing.
The snapshot builds a spectator's messages from it exactly as a seat's are built from that seat's view, so a
spectator's table has every seat's plate, the trick, the score sheet and no cards in hand. What everyone held is
shown to a spectator, as to a player, only for a finished hand (Show All Hands).
"""

from __future__ import annotations

from typing import Final

from ohhell.cards import CardSet
from ohhell.deal import PHASE_NAMES, PLAYING, Deal
from ohhell.view import PUBLIC, CopyLabels, SeatView

WATCHER: Final = PUBLIC
"""The seat number of a spectator's connection: no seat."""


def public_view(deal: Deal, totals: tuple[int, ...]) -> SeatView:
    """The table as everyone may see it: no hand, no legal action, nothing of the cards still held.

    Magicians and Jesters are named by their public labels (:class:`~ohhell.view.CopyLabels`): the turned
    card, then the cards played in order, so that no copy number tells who holds the others.
    """
    labels = CopyLabels(deal, PUBLIC)
    return SeatView(
        rules=deal.rules,
        seat=WATCHER,
        deal_index=deal.deal_index,
        dealer=deal.dealer,
        hand_size=deal.size,
        hand=CardSet(),
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
        legal_actions=(),
        forbidden_bid=None,
        totals=totals,
    )


__all__ = ["WATCHER", "public_view"]
