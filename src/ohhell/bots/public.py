"""Why?: a computer player's reason in words every seat may read, built only from public facts and the decision.

Fairness is a matter of types here, not of filtering text. A :class:`~ohhell.bots.base.Decision` carries an
:class:`Intent`, one of a closed set ("plays to win the trick", "bids what it expects to score most with", ...),
chosen by the bot from its own computation. The public reason is that intent with the action
(:class:`PublicReason`); :func:`public_text` writes it from those and from :class:`PublicFacts`, what the whole
table knows at the moment (a :class:`~ohhell.view.SeatView` without its hand and legal actions). Neither type
holds a card of the hand, a count or a number of the bot's reckoning, so mypy itself keeps them out of every Why?;
the bot's full reasoning, numbers included, stays in the decision for the Hint (:mod:`ohhell.bots.hints`, the
person's own hand) and for debugging.

>>> from ohhell import Deal, Rules, CardSet, parse_card
>>> from ohhell.view import seat_view
>>> deal = Deal(Rules.preset("full", players=3, schedule=(2,)), dealer=2, turn_up=parse_card("9H"),
...             hands=[CardSet.parse("AS KH"), CardSet.parse("2S 3H"), CardSet.parse("QS QD")])
>>> for bid in (1, 0, 0):
...     deal.bid(bid)
>>> facts = PublicFacts.of(seat_view(deal, 0))
>>> public_text(PublicReason(Intent.WIN, parse_card("AS")), facts, ["Ann", "Bob", "Cleo"])
'Ann needed one more trick and led the ace of spades to win the trick.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ohhell.actions import TRUMP_BASE, Action, argument_of, verb_of
from ohhell.bots.intent import Intent
from ohhell.bots.tactics import wants_tricks
from ohhell.cards import JESTER_SUIT, MAGICIAN_SUIT, SUIT_NAMES, SUIT_OF, Card, Suit, card_name
from ohhell.deal import beats
from ohhell.rules import Rules
from ohhell.view import SeatView

if TYPE_CHECKING:
    from ohhell.bots.base import Decision


@dataclass(frozen=True)
class PublicReason:
    """A decision as the other seats may know it: what the bot meant (:class:`Intent`) and what it did."""

    intent: Intent
    action: Action

    @classmethod
    def of(cls, decision: Decision) -> PublicReason:
        """The public part of ``decision``: its intent and its action, nothing else."""
        return cls(decision.intent, decision.action)


@dataclass(frozen=True)
class PublicFacts:
    """What every seat knows when a seat acts: its view without the hand and the legal actions.

    The cards here are public ones: the turned card and the trick on the table.
    """

    rules: Rules
    seat: int
    dealer: int
    hand_size: int
    turn_up: Card | None
    trump: Suit | None
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    trick_leader: int
    trick: tuple[Card, ...]
    led_suit: Suit | None
    winning_seat: int | None
    forbidden_bid: int | None

    @classmethod
    def of(cls, view: SeatView) -> PublicFacts:
        """The public facts of ``view`` (taken before the seat acts)."""
        return cls(
            rules=view.rules,
            seat=view.seat,
            dealer=view.dealer,
            hand_size=view.hand_size,
            turn_up=view.turn_up,
            trump=view.trump,
            bids=view.bids,
            tricks_won=view.tricks_won,
            trick_leader=view.trick_leader,
            trick=view.trick,
            led_suit=view.led_suit,
            winning_seat=view.winning_seat,
            forbidden_bid=view.forbidden_bid,
        )

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @property
    def winning_card(self) -> Card | None:
        """The card winning the trick in progress, if a card has been played."""
        if self.winning_seat is None or not self.trick:
            return None
        return self.trick[(self.winning_seat - self.trick_leader) % self.players]


def why(decision: Decision, view: SeatView, names: Sequence[str], you: int | None = None) -> str:
    """The Why? of ``decision``, made from ``view``, fit to show every seat (see :func:`public_text`)."""
    return public_text(PublicReason.of(decision), PublicFacts.of(view), names, you)


def public_text(reason: PublicReason, facts: PublicFacts, names: Sequence[str], you: int | None = None) -> str:
    """One plain sentence for ``reason``, given by ``facts.seat`` and named ``names[facts.seat]``.

    ``names`` are the seats' names; a card on the table that belongs to seat ``you`` is "your" card. The
    sentence says what the seat needed (public: its bid and tricks), what it did, and what it meant by it.
    """
    name = names[facts.seat]
    verb = verb_of(reason.action)
    if reason.intent is Intent.FALLBACK:
        return f"{name} {_did(reason.action, facts)}: the computer player's own choice was not allowed here."
    if reason.intent is Intent.RANDOM:
        return f"{name} {_did(reason.action, facts)}, picked at random."
    if verb == "trump":
        suit = SUIT_NAMES[reason.action - TRUMP_BASE]
        return f"A Magician was turned up, so {name}, the dealer, named {suit} trump."
    if verb in ("bid", "change"):
        return _bid_text(reason, facts, name)
    return _play_text(reason, facts, names, you)


def card_words(card: Card) -> str:
    """A card as people say it: ``the king of clubs``, ``a Magician``.

    >>> card_words(11 + 3 * 13), card_words(52)
    ('the king of clubs', 'a Magician')
    """
    return f"a {card_name(card)}" if card >= 52 else f"the {card_name(card)}"


NUMBER_WORDS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def counted(n: int, word: str) -> str:
    """``one trick``, ``two more tricks``, ``12 tricks``, ``no tricks``: small numbers in words, the noun agreeing.

    >>> counted(1, "trick"), counted(2, "more trick"), counted(12, "trick"), counted(0, "trick")
    ('one trick', 'two more tricks', '12 tricks', 'no tricks')
    """
    number = NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)
    return f"{number} {word}{'' if n == 1 else 's'}"


def _did(action: Action, facts: PublicFacts) -> str:
    """An action in the past tense: ``bid 2``, ``played the king of clubs``, ``named hearts trump``."""
    verb = verb_of(action)
    if verb == "play":
        return f"{'played' if facts.trick else 'led'} {card_words(action)}"
    if verb == "trump":
        return f"named {SUIT_NAMES[argument_of(action)]} trump"
    return f"{'bid' if verb == 'bid' else 'changed the bid to'} {argument_of(action)}"


def _bid_text(reason: PublicReason, facts: PublicFacts, name: str) -> str:
    bid = argument_of(reason.action)
    forbidden = facts.forbidden_bid
    if reason.intent is Intent.HOOKED and forbidden is not None:
        tricks = counted(facts.hand_size, "trick")
        return (
            f"{name} would have bid {forbidden}, but the dealer may not make the bids add up to the {tricks},"
            f" so {name} bid {bid}."
        )
    if reason.intent is Intent.QUICK_BID:
        return f"{name} bid {bid} on a quick look at the cards."
    return f"{name} bid {bid}, expecting that bid to score the most."


def possessive(name: str) -> str:
    """``Bob's``; ``your`` for a person who kept the table's default name "You".

    >>> possessive("Bob"), possessive("You")
    ("Bob's", 'your')
    """
    return "your" if name == "You" else f"{name}'s"


def _play_text(reason: PublicReason, facts: PublicFacts, names: Sequence[str], you: int | None) -> str:
    seat = facts.seat
    name = names[seat]
    card = reason.action
    bid = facts.bids[seat]
    won = facts.tricks_won[seat]
    need = (bid or 0) - won
    if need > 0:
        situation = f"{name} needed {counted(need, 'more trick')}"
    elif bid == 0 and won == 0:
        situation = f"{name} wanted no tricks (a bid of 0)"
    elif need == 0:
        situation = f"{name} had already made the bid of {bid}"
    else:
        situation = f"{name} was already {counted(-need, 'trick')} over the bid of {bid}"
    best = facts.winning_card
    trump = -1 if facts.trump is None else facts.trump
    takes = best is None or beats(card, best, trump)
    last = len(facts.trick) == facts.players - 1
    what = _card_action(card, facts, takes)
    intent = reason.intent
    wants = wants_tricks(bid or 0, won, facts.rules)
    contrary = (intent is Intent.LOSE and need > 0) or (intent is Intent.WIN and not wants)
    aim = ""
    if intent is Intent.LAPSE:
        aim = " without much thought"
    elif intent is Intent.WIN and takes:
        aim = ", taking the trick" if last else " to win the trick"
    elif intent is Intent.LOSE:
        if best is None:
            aim = ", not playing for this trick" if need > 0 else ", hoping not to win the trick"
        elif not takes:
            owner = "your" if facts.winning_seat == you else possessive(names[facts.winning_seat or 0])
            leave = "leaving the trick to" if need > 0 else "staying under"
            aim = f", {leave} {owner} {card_name(best)}"
        elif not last:
            aim = ", expecting it to be beaten" if need > 0 else ", hoping to be beaten"
    return f"{situation} {'but' if contrary and aim else 'and'} {what}{aim}."


def _card_action(card: Card, facts: PublicFacts, takes: bool) -> str:
    """``led the king of clubs``, ``played …``, ``trumped with …`` (when the trump takes the lead), ``discarded …``."""
    suit = SUIT_OF[card]
    if not facts.trick:
        return f"led {card_words(card)}"
    if suit in (MAGICIAN_SUIT, JESTER_SUIT) or facts.led_suit is None or suit == facts.led_suit:
        return f"played {card_words(card)}"
    if suit == facts.trump:
        return f"trumped with {card_words(card)}" if takes else f"played {card_words(card)}"
    return f"discarded {card_words(card)}"
