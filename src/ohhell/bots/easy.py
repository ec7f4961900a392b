"""The Easy player: plausible but beatable, and instant.

It bids the winners anyone would count (Magicians, aces, the top trumps) and
now and then misjudges by one. It plays by the rule of thumb of
:func:`~ohhell.bots.tactics.rule_card` but keeps no count of the cards gone,
so it never knows that its king has become the best card; and once in a while
it plays a card without thinking. Its reasons say all of that as it happened.
"""

from __future__ import annotations

import random
from typing import Final

from ohhell.actions import BID_BASE, TRUMP_BASE, Action
from ohhell.bots.base import Budget, Decision, dealer_forbidden, forbidden_note, playable
from ohhell.bots.intent import Intent
from ohhell.bots.tactics import rule_card, trick_status, wants_tricks
from ohhell.cards import MAGICIAN_SUIT, RANK_OF, STANDARD_PACK, SUIT_NAMES, SUIT_OF, Card, card_text
from ohhell.view import SeatView

MISJUDGE_RATE: Final = 0.3
"""How often the Easy player's bid is one off what it counted."""
LAPSE_RATE: Final = 0.1
"""How often it plays a legal card at random."""
ACE: Final = 12
KING: Final = 11
QUEEN: Final = 10


class EasyBot:
    """A casual player: counts obvious winners, forgets the cards played, sometimes slips."""

    level = "easy"

    def decide(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> Decision:
        """The Easy decision for ``view.seat``; ``rng`` drives its misjudgements and lapses."""
        actions = playable(view)
        if view.phase == "choosing-trump":
            return _choose_trump(view)
        if view.phase == "bidding":
            return _bid(view, [a - BID_BASE for a in actions], rng)
        return _play(view, actions, rng)


def obvious_winners(hand: list[Card], trump: int | None) -> list[Card]:
    """Magicians, aces, and the trump king and queen when backed by at least three trumps."""
    trumps = sum(1 for c in hand if SUIT_OF[c] == trump)
    winners = []
    for card in hand:
        suit, rank = SUIT_OF[card], RANK_OF[card]
        top_trump = suit == trump and (rank == KING or (rank == QUEEN and trumps >= 3))
        if suit == MAGICIAN_SUIT or (rank == ACE and suit < 4) or top_trump:
            winners.append(card)
    return winners


def _bid(view: SeatView, legal: list[int], rng: random.Random) -> Decision:
    winners = obvious_winners(list(view.hand), view.trump)
    counted = len(winners)
    slip = rng.choice((-1, 1)) if rng.random() < MISJUDGE_RATE else 0
    wanted = min(view.hand_size, max(0, counted + slip))
    bid = min(legal, key=lambda b: (abs(b - wanted), -b))
    listed = ", ".join(card_text(c) for c in winners) or "none"
    summary = f"Counted {counted} obvious winner{'s' if counted != 1 else ''} ({listed})"
    if slip:
        summary += f" and misjudged by {slip:+d}"
    forbidden = dealer_forbidden(view)
    hooked = bid != wanted and forbidden == wanted
    if bid != wanted:
        summary += forbidden_note(view, forbidden) if hooked else f"; {wanted} is not a legal bid here"
    facts: tuple[tuple[str, int], ...] = (("obvious_winners", counted), ("misjudged_by", slip))
    if forbidden is not None:
        facts += (("forbidden_bid", forbidden),)
    return Decision(
        action=BID_BASE + bid,
        level="easy",
        summary=f"{summary}: bids {bid}.",
        intent=Intent.HOOKED if hooked else Intent.QUICK_BID,
        card_chances=tuple((c, 1.0) for c in winners),
        chance_label="counted as a sure trick",
        facts=facts,
    )


def _choose_trump(view: SeatView) -> Decision:
    hand = list(view.hand)
    suit = max(range(4), key=lambda s: (sum(1 for c in hand if SUIT_OF[c] == s), s))
    count = sum(1 for c in hand if SUIT_OF[c] == suit)
    return Decision(
        action=TRUMP_BASE + suit,
        level="easy",
        summary=f"Chose its longest suit, {SUIT_NAMES[suit]} ({count} cards), as trump.",
        intent=Intent.NAME_TRUMP,
        facts=(("suit_length", count),),
    )


def _play(view: SeatView, legal: tuple[Action, ...], rng: random.Random) -> Decision:
    bid = view.bids[view.seat]
    assert bid is not None
    won = view.tricks_won[view.seat]
    if rng.random() < LAPSE_RATE:
        card = rng.choice(legal)
        return Decision(
            action=card,
            level="easy",
            summary=f"Played the {card_text(card)} without much thought.",
            intent=Intent.LAPSE,
            facts=(("lapse", 1),),
        )
    trump = -1 if view.trump is None else view.trump
    best_index, _ = trick_status(view.trick, trump) if view.trick else (0, -1)
    best = view.trick[best_index] if view.trick else -1
    want = wants_tricks(bid, won, view.rules)
    still_to_play = view.players - len(view.trick) - 1
    card, rule = rule_card(legal, view.trick, best, trump, still_to_play, want, STANDARD_PACK & ~view.hand.mask)
    goal = "wants a trick" if want else "wants no more tricks"
    return Decision(
        action=card,
        level="easy",
        summary=f"Bid {bid}, has {won}, {goal}: {rule.words}, the {card_text(card)}.",
        intent=rule.intent,
        facts=(("need", bid - won), ("lapse", 0)),
    )
