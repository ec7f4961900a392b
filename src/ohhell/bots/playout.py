"""Play-outs: a sampled world played to its end, quickly and sensibly, for the Hard player's search.

Seats still to bid bid as the Normal player would; cards are played by the rule
of thumb of :func:`~ohhell.bots.tactics.rule_card` (a few microseconds a card),
the other seats now and then playing a random card instead; the last
:data:`ENDGAME_TRICKS` tricks are solved exactly, every seat playing for its own
score.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ohhell.actions import BID_BASE, Action
from ohhell.bots.endgame import best_play, solvable
from ohhell.bots.knowledge import at_bidding
from ohhell.bots.normal import bid_chances, bid_values, with_bids
from ohhell.bots.tactics import rule_card, trick_status, wants_tricks
from ohhell.cards import STANDARD_PACK, Card
from ohhell.deal import BIDDING, Deal
from ohhell.scoring import deal_points

ENDGAME_TRICKS: Final = 2
"""From this many tricks left, a play-out with Magicians or Jesters in play is solved exactly."""
EXACT_TRICKS: Final = 2
"""From this many tricks left (the one in progress included), a play-out of plain cards is solved exactly
by the compiled search of :mod:`ohhell.bots.endgame`. Solving four tricks (under a millisecond) made the
search over-confident and no stronger against ISMCTS (``docs/bots-results.md``)."""


@dataclass
class Playout:
    """Plays a sampled world to its end for the searching seat.

    Seats still to bid bid as the Normal player would (their card chances are
    kept per world: they do not depend on the bids before them); cards are
    played by the rule of thumb, except that the other seats, with probability
    ``noise``, play a random legal card instead: real opponents are not as
    predictable as our rule, and a plan that only works if they are should not
    look safe (against ISMCTS it gained roughly a point a deal over no noise:
    ``docs/bots-results.md``). The last :data:`ENDGAME_TRICKS` tricks are solved exactly.
    """

    seat: int
    noise: float
    rng: random.Random
    bid_chances: dict[int, dict[Card, float]] = field(default_factory=dict)
    exact_tricks: int = EXACT_TRICKS

    def finish(self, deal: Deal) -> None:
        """Play ``deal`` to its end."""
        while not deal.is_over:
            to_act = deal.to_act
            if deal.phase == BIDDING:
                deal.apply(self._normal_bid(deal, to_act), to_act)
                continue
            left = deal.size - len(deal.tricks)
            if left <= self.exact_tricks and solvable(deal):
                deal.apply(best_play(deal), to_act)
                continue
            if left <= ENDGAME_TRICKS and not deal.trick:
                _play_exactly(deal)
                return
            legal = plays(deal)
            if len(legal) == 1:
                deal.apply(legal[0], to_act)
                continue
            if to_act != self.seat and self.noise and self.rng.random() < self.noise:
                deal.apply(self.rng.choice(legal), to_act)
                continue
            deal.apply(_rule_card(deal, to_act, legal), to_act)

    def _normal_bid(self, deal: Deal, seat: int) -> Action:
        """What the Normal player would bid for ``seat`` in this world (from its hand and the bids so far)."""
        known = at_bidding(deal.rules, seat, deal.hands[seat], deal.turn_up, deal.trump)
        if seat not in self.bid_chances:
            self.bid_chances[seat] = bid_chances(known, [None] * deal.players, deal.first_leader)
        bids = [None if b < 0 else b for b in deal.bids]
        legal = [a - BID_BASE for a in deal.legal_actions()]
        return BID_BASE + bid_values(known, with_bids(known, self.bid_chances[seat], bids), legal)[0][0]


def _play_exactly(deal: Deal) -> None:
    """Play the rest of ``deal`` with every seat choosing the card best for its own score, looking to the end."""
    while not deal.is_over:
        seat = deal.to_act
        options = plays(deal)
        best_card, best_points = options[0], -math.inf
        if len(options) > 1:
            for card in options:
                deal.apply(card, seat)
                points = _solve(deal)[seat]
                deal.undo()
                if points > best_points:
                    best_card, best_points = card, points
        deal.apply(best_card, seat)


def _solve(deal: Deal) -> tuple[int, ...]:
    """The points every seat ends with if each plays for its own score from here (``deal`` is left as it was)."""
    if deal.size - len(deal.tricks) == 1:
        return _last_trick_points(deal)
    seat = deal.to_act
    best: tuple[int, ...] | None = None
    for card in plays(deal):
        deal.apply(card, seat)
        points = _solve(deal)
        deal.undo()
        if best is None or points[seat] > best[seat]:
            best = points
    assert best is not None
    return best


def _last_trick_points(deal: Deal) -> tuple[int, ...]:
    """The final points when every seat has at most one card left: the last trick plays itself."""
    n = deal.players
    leader = deal.trick_leader if deal.trick else deal.to_act
    cards = list(deal.trick)
    for i in range(len(cards), n):
        hand = deal.hands[(leader + i) % n]
        cards.append((hand & -hand).bit_length() - 1)
    best, _ = trick_status(cards, -1 if deal.trump is None else deal.trump)
    tricks = list(deal.tricks_won)
    tricks[(leader + best) % n] += 1
    rules = deal.rules
    return tuple(deal_points(b, t, rules) for b, t in zip(deal.bids, tricks, strict=True))


def plays(deal: Deal) -> list[Card]:
    """The cards the seat to act may play (bid changes left out)."""
    return [a for a in deal.legal_actions() if a < 60]


def _rule_card(deal: Deal, seat: int, legal: Sequence[Card]) -> Card:
    """The rule of thumb's card for ``seat``; the cards it counts as still out are those in the other hands."""
    n = deal.players
    trick = deal.trick
    trump = -1 if deal.trump is None else deal.trump
    best = trick[trick_status(trick, trump)[0]] if trick else -1
    others = 0
    for other, hand in enumerate(deal.hands):
        if other != seat:
            others |= hand
    want = wants_tricks(deal.bids[seat], deal.tricks_won[seat], deal.rules)
    return rule_card(legal, trick, best, trump, n - len(trick) - 1, want, others & STANDARD_PACK)[0]
