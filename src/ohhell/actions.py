"""Actions as small ints, with a text form and its exact inverse.

======================  ===============  ===========
action                  int              text
======================  ===============  ===========
play a card ``c``       ``c`` (0-59)     ``play AS``
bid ``n``               ``64 + n``       ``bid 2``
change the bid to ``n`` ``96 + n``       ``change 1``
choose trump suit ``s`` ``128 + s``      ``trump H``
======================  ===============  ===========

>>> action_text(parse_action("play 10H")), action_text(bid(3))
('play TH', 'bid 3')
"""

from __future__ import annotations

from typing import Final

from ohhell.cards import SUIT_LETTERS, Card, Suit, card_text, parse_card, parse_suit
from ohhell.errors import BidOutOfRangeError, RecordError

Action = int

BID_BASE: Final = 64
CHANGE_BASE: Final = 96
TRUMP_BASE: Final = 128
MAX_BID: Final = 31
"""Bids are encoded up to this; a hand never has more than 20 cards."""
VERBS: Final = ("bid", "change", "trump", "play")


def bid(n: int) -> Action:
    """The action of bidding ``n`` tricks."""
    return BID_BASE + _bid_number(n)


def change(n: int) -> Action:
    """The action of changing one's bid to ``n`` (``until-next`` rules only)."""
    return CHANGE_BASE + _bid_number(n)


def choose_trump(suit: Suit) -> Action:
    """The dealer's choice of trump suit after a turned Magician."""
    return TRUMP_BASE + suit


def play(card: Card) -> Action:
    """The action of playing ``card``."""
    return card


def _bid_number(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise RecordError(f"a bid must be a whole number, not {n!r}")
    if not 0 <= n <= MAX_BID:
        raise BidOutOfRangeError(f"a bid of {n} is out of range: bids run from 0 to the hand size")
    return n


def verb_of(action: Action) -> str:
    """``"play"``, ``"bid"``, ``"change"`` or ``"trump"``."""
    if 0 <= action < 60:
        return "play"
    if BID_BASE <= action <= BID_BASE + MAX_BID:
        return "bid"
    if CHANGE_BASE <= action <= CHANGE_BASE + MAX_BID:
        return "change"
    if TRUMP_BASE <= action < TRUMP_BASE + 4:
        return "trump"
    raise RecordError(f"{action!r} is not an action number")


def argument_of(action: Action) -> int:
    """The card, bid or suit of an action."""
    verb = verb_of(action)
    if verb == "play":
        return action
    return action - {"bid": BID_BASE, "change": CHANGE_BASE, "trump": TRUMP_BASE}[verb]


def action_text(action: Action) -> str:
    """``play AS``, ``bid 2``, ``change 1`` or ``trump H``."""
    verb = verb_of(action)
    if verb == "play":
        return f"play {card_text(action)}"
    if verb == "trump":
        return f"trump {SUIT_LETTERS[action - TRUMP_BASE]}"
    base = BID_BASE if verb == "bid" else CHANGE_BASE
    return f"{verb} {action - base}"


def parse_action(text: str) -> Action:
    """The action written as ``<verb> <argument>`` (see :func:`action_text`)."""
    parts = text.split() if isinstance(text, str) else []
    if len(parts) != 2:
        raise RecordError(f"{text!r} is not an action: write a verb and its argument, such as 'bid 2' or 'play AS'")
    verb, argument = parts
    if verb == "play":
        return parse_card(argument)
    if verb == "trump":
        return choose_trump(parse_suit(argument))
    if verb in ("bid", "change"):
        try:
            n = int(argument)
        except ValueError:
            raise RecordError(f"{text!r}: a {verb} needs a whole number, not {argument!r}") from None
        if n < 0:
            raise BidOutOfRangeError(f"a bid of {n} is out of range: bids run from 0 to the hand size")
        return bid(n) if verb == "bid" else change(n)
    raise RecordError(f"{text!r}: unknown verb {verb!r}; the verbs are {', '.join(VERBS)}")
