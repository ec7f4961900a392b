"""Play-outs: a sampled world played to its end, quickly and sensibly, for the Hard player's search.

In a sampled world every hand is known, so each seat can play as a sharp player
would who has read the table: :func:`world_card` looks at the trick on the table
and at the cards the seats still to play actually hold, and sees which cards win
it. A seat that wants the trick takes it as cheaply as it surely can; a seat that
does not gets under, shedding its most dangerous card. Seats still to bid bid as
the Normal player would. The last :data:`ENDGAME_TRICKS` tricks are solved
exactly, every seat playing for its own score.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ohhell.actions import BID_BASE, Action
from ohhell.bots.knowledge import at_bidding
from ohhell.bots.normal import bid_chances, bid_values, with_bids
from ohhell.bots.tactics import STRENGTH, rule_card, trick_status, wants_tricks
from ohhell.cards import JESTER_MASK, MAGICIAN_MASK, STANDARD_PACK, SUIT_MASKS, SUIT_OF, Card, first_card
from ohhell.deal import BIDDING, Deal, beats
from ohhell.scoring import deal_points

import os
FAIR_SELF = os.environ.get("FAIR_SELF", "1") == "1"
ENDGAME_TRICKS: Final = 2
"""From this many tricks left, a play-out is solved exactly instead of played by :func:`world_card`."""


@dataclass
class Playout:
    """Plays a sampled world to its end for the searching seat.

    Seats still to bid bid as the Normal player would (their card chances are
    kept per world: they do not depend on the bids before them); cards are
    played by :func:`world_card`, except that the other seats, with probability
    ``noise``, play a random legal card instead: real opponents are not as
    predictable as our rule, and a plan that only works if they are should not
    look safe. The last :data:`ENDGAME_TRICKS` tricks are solved exactly.
    """

    seat: int
    noise: float
    rng: random.Random
    bid_chances: dict[int, dict[Card, float]] = field(default_factory=dict)

    def finish(self, deal: Deal) -> None:
        """Play ``deal`` to its end."""
        while not deal.is_over:
            to_act = deal.to_act
            if deal.phase == BIDDING:
                deal.apply(self.normal_bid(deal, to_act), to_act)
                continue
            if deal.size - len(deal.tricks) <= ENDGAME_TRICKS and not deal.trick:
                _play_exactly(deal)
                return
            legal = plays(deal)
            if len(legal) == 1:
                deal.apply(legal[0], to_act)
                continue
            if to_act != self.seat and self.noise and self.rng.random() < self.noise:
                deal.apply(self.rng.choice(legal), to_act)
                continue
            if to_act == self.seat and FAIR_SELF:
                card = _own_card(deal, to_act, legal)
            else:
                card = world_card(deal, to_act, legal)
            deal.apply(card, to_act)

    def normal_bid(self, deal: Deal, seat: int) -> Action:
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


def _own_card(deal: Deal, seat: int, legal: Sequence[Card]) -> Card:
    """The searching seat's own card in a play-out: the rule of thumb on what it could know, not on the world.

    Letting it read the sampled hands would credit it with plays it cannot find
    at the real table (strategy fusion), most of all when it must duck every trick.
    """
    n = deal.players
    trick = deal.trick
    trump = -1 if deal.trump is None else deal.trump
    best = trick[trick_status(trick, trump)[0]] if trick else -1
    dealt = 0
    live = 0
    for other, hand in enumerate(deal.hands):
        dealt |= deal.hands_dealt[other]
        if other != seat:
            live |= hand
    if deal.turn_up is not None:
        dealt |= 1 << deal.turn_up
    unseen = (live | (STANDARD_PACK & ~dealt)) & STANDARD_PACK
    want = wants_tricks(deal.bids[seat], deal.tricks_won[seat], deal.rules)
    return rule_card(legal, trick, best, trump, n - len(trick) - 1, want, unseen)[0]


def world_card(deal: Deal, seat: int, legal: Sequence[Card]) -> Card:
    """The card ``seat`` plays in a world where it sees every hand: it reads the rest of this trick.

    For each card it works out whether the card would end up winning the trick:
    a seat still to play beats it if it can and wants the trick, or if every card
    it may play beats it. Wanting the trick, the seat plays the cheapest card that
    surely wins it, else its lowest; not wanting it, its highest card that surely
    loses, else (every card wins) its highest when last to play, its lowest before.
    """
    n = deal.players
    trick = deal.trick
    trump = -1 if deal.trump is None else deal.trump
    rules = deal.rules
    strength = STRENGTH[trump]
    best = -1
    if trick:
        best_index, led = trick_status(trick, trump)
        best = trick[best_index]
    later = [(seat + i) % n for i in range(1, n - len(trick))]
    wants = [wants_tricks(deal.bids[p], deal.tricks_won[p], rules) for p in later]
    winners = []
    for card in legal:
        if trick:
            if not beats(card, best, trump):
                continue
            follow = led if led >= 0 or SUIT_OF[card] >= 4 else SUIT_OF[card]
        else:
            suit = SUIT_OF[card]
            follow = suit if suit < 4 else -1
        if not any(_overtakes(deal.hands[p], follow, card, trump, want) for p, want in zip(later, wants, strict=True)):
            winners.append(card)
    if wants_tricks(deal.bids[seat], deal.tricks_won[seat], rules):
        return min(winners or legal, key=strength.__getitem__)
    losers = [c for c in legal if c not in winners]
    if losers:
        return max(losers, key=strength.__getitem__)
    return max(legal, key=strength.__getitem__) if not later else min(legal, key=strength.__getitem__)


def _overtakes(hand: int, follow: int, card: Card, trump: int, wants: bool) -> bool:
    """Whether a seat holding ``hand`` takes the lead from ``card``: it can and wants to, or it cannot help it.

    ``follow`` is the suit it must follow (-1: none). Its strongest and weakest
    playable cards decide: a Magician beats all but an earlier Magician; following
    suit it has its highest and lowest card of the suit; void, its highest trump
    and any card of another suit.
    """
    specials = hand & (MAGICIAN_MASK | JESTER_MASK)
    suited = hand & ~(MAGICIAN_MASK | JESTER_MASK)
    following = follow >= 0 and bool(hand & SUIT_MASKS[follow])
    playable = hand & SUIT_MASKS[follow] if following else suited
    top = first_card(hand & MAGICIAN_MASK) if hand & MAGICIAN_MASK else -1
    if top < 0 and playable:
        trumps = playable & SUIT_MASKS[trump] if trump >= 0 and not following else 0
        top = (trumps or playable).bit_length() - 1
    if top < 0 or not beats(top, card, trump):
        return False
    if wants:
        return True
    if specials & JESTER_MASK:
        return False
    low = min((c for c in _cards(playable)), key=lambda c: (beats(c, card, trump), c), default=top)
    return beats(low, card, trump)


def _cards(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
