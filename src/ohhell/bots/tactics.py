"""Card-play rules of thumb shared by the Easy player and the Hard player's simulations.

:func:`rule_card` is a fast, fixed policy: take a trick when the seat still
needs one, otherwise get under the winning card and shed the most dangerous
card. It works on bare ints so that the Hard player can run it thousands of
times a second inside sampled worlds; the Easy player runs it on what it
remembers (its hand and the trick on the table).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from ohhell.bots.intent import Intent
from ohhell.cards import JESTER_SUIT, MAGICIAN_SUIT, SUIT_MASKS, SUIT_OF, Card
from ohhell.deal import beats
from ohhell.rules import Rules

NO_TRUMP: Final = -1


def _strength_table(trump: int) -> tuple[int, ...]:
    table = []
    for card in range(60):
        suit = SUIT_OF[card]
        if suit == MAGICIAN_SUIT:
            table.append(100)
        elif suit == JESTER_SUIT:
            table.append(-1)
        else:
            table.append(card % 13 + (50 if suit == trump else 0))
    return tuple(table)


STRENGTH: Final = tuple(_strength_table(t) for t in (0, 1, 2, 3, NO_TRUMP))
"""``STRENGTH[trump][card]``: how dangerous a card is to hold, Magicians highest, then trumps, by rank.

Index ``NO_TRUMP`` (-1) is the last row, for deals without trump.
"""


def wants_tricks(bid: int, won: int, rules: Rules) -> bool:
    """Whether one more trick helps a seat that bid ``bid`` and has taken ``won``.

    Below the bid, always. At the bid, never: the exact-bid bonus is at stake. Past
    it, the scoring decides: under ``tricks+10`` every trick is a point, under
    ``magicians`` or ``miss_penalty`` every extra trick costs, and under ``10+bid``
    or ``5+bid`` nothing is left to win, so the seat keeps out of the way.
    """
    if won < bid:
        return True
    if won == bid:
        return False
    return rules.scoring == "tricks+10" and not rules.miss_penalty


def is_master(card: Card, others: int) -> bool:
    """Whether no card in ``others`` (a mask of cards other seats may hold) is higher in ``card``'s suit."""
    suit = SUIT_OF[card]
    if suit >= 4:
        return suit == MAGICIAN_SUIT
    return not others & SUIT_MASKS[suit] & ~((2 << card) - 1)


class Rule(NamedTuple):
    """A branch of :func:`rule_card`: its words (for the seat's own reasons) and what it means by the card."""

    words: str
    intent: Intent


LEAD_MASTER: Final = Rule("leads a card nobody can beat", Intent.WIN)
LEAD_LOW_AND_WAIT: Final = Rule("has no sure winner, so leads low and waits", Intent.LOSE)
LEAD_TO_LOSE: Final = Rule("leads the card most likely to lose", Intent.LOSE)
THROW_LOWEST: Final = Rule("cannot beat the winning card, so throws its lowest", Intent.LOSE)
WIN_LAST: Final = Rule("plays last and wins as cheaply as it can", Intent.WIN)
WIN_SAFE: Final = Rule("wins with the lowest card nobody can beat", Intent.WIN)
WIN_HIGH: Final = Rule("wins with its highest card", Intent.WIN)
DUCK: Final = Rule("plays its highest card that cannot win", Intent.LOSE)
MUST_WIN: Final = Rule("must win, so gets rid of its highest card", Intent.PLAY)
HOPE_BEATEN: Final = Rule("must beat the winning card, so plays low and hopes to be beaten", Intent.LOSE)


def rule_card(
    legal: Sequence[Card],
    trick: Sequence[Card],
    best: Card,
    trump: int,
    still_to_play: int,
    want: bool,
    others: int,
) -> tuple[Card, Rule]:
    """The card the rule of thumb plays, and the rule that chose it.

    ``best`` is the card winning the trick so far (ignored when leading),
    ``still_to_play`` how many seats play after this one, ``want`` whether the seat
    wants this trick (see :func:`wants_tricks`), ``others`` the suited cards it
    thinks other seats may still hold (for spotting masters: cards nobody can beat).
    """
    strength = STRENGTH[trump]
    if not trick:
        if want:
            masters = [c for c in legal if is_master(c, others)]
            if masters:
                side = [c for c in masters if SUIT_OF[c] != trump]
                return max(side or masters, key=strength.__getitem__), LEAD_MASTER
            side = [c for c in legal if SUIT_OF[c] != trump and SUIT_OF[c] != JESTER_SUIT]
            return min(side or legal, key=strength.__getitem__), LEAD_LOW_AND_WAIT
        lead = min(legal, key=lambda c: (strength[c] >= 50, _higher_outside(c, others), strength[c]))
        return lead, LEAD_TO_LOSE
    winners = [c for c in legal if beats(c, best, trump)]
    if want:
        if not winners:
            return min(legal, key=strength.__getitem__), THROW_LOWEST
        if not still_to_play:
            return min(winners, key=strength.__getitem__), WIN_LAST
        safe = [c for c in winners if is_master(c, others)]
        if safe:
            return min(safe, key=strength.__getitem__), WIN_SAFE
        return max(winners, key=strength.__getitem__), WIN_HIGH
    losers = [c for c in legal if c not in winners]
    if losers:
        return max(losers, key=strength.__getitem__), DUCK
    if not still_to_play:
        return max(winners, key=strength.__getitem__), MUST_WIN
    return min(winners, key=strength.__getitem__), HOPE_BEATEN


def _higher_outside(card: Card, others: int) -> int:
    """Minus the number of cards in ``others`` above ``card`` in its suit: the lower, the safer a lead to lose."""
    suit = SUIT_OF[card]
    if suit >= 4:
        return -99 if suit == JESTER_SUIT else 99
    return -(others & SUIT_MASKS[suit] & ~((2 << card) - 1)).bit_count()


def trick_status(cards: Sequence[Card], trump: int) -> tuple[int, int]:
    """For a trick in progress: the index of the card winning it so far and the suit to follow (-1: none yet, or none).

    The suit to follow is set by the first card that is not a Jester; a Magician sets none.
    """
    best = 0
    led = -1
    for index, card in enumerate(cards):
        suit = SUIT_OF[card]
        if index and beats(card, cards[best], trump):
            best = index
        if led == -1 and suit != JESTER_SUIT:
            led = suit if suit < 4 else MAGICIAN_SUIT
    return best, led if led < 4 else -1
