"""The sentences the table shows, in the words of the rules page (seed 002).

Every function takes what one seat may know (its view, names, public facts such as the suit led) and
returns text for that seat, who is "You".

>>> plate_line(2, 1), plate_label(2, 1), plate_label(0, 0), plate_label(2, 3)
('Bid 2 · won 1', 'Needs 1 more', 'On track', '1 too many')
>>> plate_label(2, 2, over=True), plate_label(2, 1, over=True), plate_label(0, 2, over=True)
('Made it', 'Missed by 1', '2 too many')
>>> bid_bar([2, 0, 2, None], 5)
'4 bid for 5 tricks'
>>> bid_bar([2, 2, 2, 1], 5)
'7 bid for 5 tricks: more than the tricks, so someone will fall short'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ohhell.actions import Action, argument_of, verb_of
from ohhell.cards import JESTER_SUIT, MAGICIAN_SUIT, SUIT_NAMES, SUIT_OF, Card, Suit, card_name
from ohhell.errors import (
    BidChangeNotAllowedError,
    BidOutOfRangeError,
    CardNotInHandError,
    HookError,
    MustFollowSuitError,
    NotYourTurnError,
    OhHellError,
    UnexpectedActionError,
)
from ohhell.view import SeatView


def plural(n: int, word: str) -> str:
    """``1 trick``, ``2 tricks``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def who(seat: int, you: int, names: Sequence[str]) -> str:
    """The name of ``seat`` as ``you`` reads it: "You" for oneself."""
    return "You" if seat == you else names[seat]


def plate_line(bid: int | None, won: int) -> str:
    """A name plate's bid and tricks: ``Bid 2 · won 1`` (``No bid yet`` before the bid)."""
    return "No bid yet" if bid is None else f"Bid {bid} · won {won}"


def plate_label(bid: int | None, won: int, over: bool = False, abandoned: bool = False) -> str | None:
    """A name plate's label once the seat has bid, true at that moment.

    While the hand is played: ``Needs 1 more``, ``On track`` (as many tricks as the bid, a zero bid included:
    nothing is made until the hand is over) or ``1 too many``. Once the hand is ``over``: ``Made it``,
    ``Missed by 1`` or ``1 too many``. A hand ``abandoned`` when the game ended (someone gave up) has none.
    """
    if bid is None or abandoned:
        return None
    if won > bid:
        return f"{won - bid} too many"
    if won == bid:
        return "Made it" if over else "On track"
    return f"Missed by {bid - won}" if over else f"Needs {bid - won} more"


def bid_bar(bids: Sequence[int | None], tricks: int) -> str:
    """The bar above the table: the bids so far against the tricks, and once all are in, what the total means."""
    total = sum(b for b in bids if b is not None)
    text = f"{total} bid for {plural(tricks, 'trick')}"
    if any(b is None for b in bids):
        return text
    if total > tricks:
        return f"{text}: more than the tricks, so someone will fall short"
    if total < tricks:
        return f"{text}: fewer than the tricks, so someone will take tricks they did not want"
    return f"{text}: as many as the tricks, so everyone can make it"


def forbidden_reason(view: SeatView) -> str | None:
    """Why the dealer may not make the forbidden bid, for the dealer's own bidding panel."""
    forbidden = view.forbidden_bid
    if forbidden is None or view.seat != view.dealer:
        return None
    others = sum(b for seat, b in enumerate(view.bids) if seat != view.dealer and b is not None)
    return (
        f"As the dealer you bid last and may not bid {forbidden}: the others bid {others},"
        f" and {others} + {forbidden} = {view.hand_size} would make the bids add up to the"
        f" {plural(view.hand_size, 'trick')} (the hook)."
    )


def trump_text(view: SeatView) -> str:
    """What is trump this hand, and why."""
    turned = view.turn_up
    if view.phase == "choosing-trump":
        return "A Magician was turned up: the dealer chooses trump"
    if view.trump is not None:
        suit = SUIT_NAMES[view.trump]
        if turned is not None and SUIT_OF[turned] < 4:
            return f"Trump: {suit} (the {card_name(turned)} is turned up)"
        if turned is not None:
            return f"Trump: {suit} (a Magician was turned up; the dealer chose)"
        return f"Trump: {suit}"
    if turned is not None and SUIT_OF[turned] == JESTER_SUIT:
        return "No trump: a Jester was turned up"
    if view.rules.turns_up_trump:
        return "No trump: no card is left to turn up"
    return "No trump this hand"


def hand_title(deal_index: int, deals: int, size: int) -> str:
    """``Hand 3 of 25 · 3 cards``."""
    return f"Hand {deal_index + 1} of {deals} · {plural(size, 'card')}"


def status(view: SeatView, names: Sequence[str]) -> str:
    """Whose turn it is, in one sentence."""
    to_act = view.to_act
    mine = to_act == view.seat
    if view.phase == "finished":
        return f"Hand {view.deal_index + 1} is over."
    if view.phase == "choosing-trump":
        return "A Magician was turned up: choose trump." if mine else f"{names[to_act]} is choosing trump…"
    if view.phase == "bidding":
        return "Your turn to bid." if mine else f"{names[to_act]} is bidding…"
    if mine:
        return "Your lead: play any card." if not view.trick else "Your turn: play a card."
    return f"{names[to_act]} is playing…"


def action_sentence(actor: str, action: Action) -> str:
    """``Bob bid 2``, ``You played the queen of hearts``, ``Bob chose hearts as trump``."""
    verb = verb_of(action)
    value = argument_of(action)
    if verb == "play":
        return f"{actor} played the {card_name(value)}"
    if verb == "bid":
        return f"{actor} bid {value}"
    if verb == "change":
        return f"{actor} changed the bid to {value}"
    return f"{actor} chose {SUIT_NAMES[value]} as trump"


def trick_sentence(winner: str) -> str:
    """``Bob takes the trick`` / ``You take the trick``."""
    return f"{winner} take{'' if winner == 'You' else 's'} the trick"


def unplayable_reason(card: Card, view: SeatView, led_suit: Suit | None, names: Sequence[str]) -> str:
    """Why the seat may not play ``card`` of its hand now: ``You must follow hearts.``"""
    if view.phase == "bidding":
        return "Bid first: the cards are played once everyone has bid."
    if view.phase == "choosing-trump":
        return "The dealer is choosing trump; the bidding comes next."
    if view.phase == "finished":
        return "The hand is over."
    if view.to_act != view.seat:
        return f"Wait for your turn: {names[view.to_act]} is to play."
    if led_suit is not None and SUIT_OF[card] not in (led_suit, MAGICIAN_SUIT, JESTER_SUIT):
        return f"You must follow {SUIT_NAMES[led_suit]}."
    return "That card cannot be played now."


def error_message(error: OhHellError, view: SeatView, led_suit: Suit | None, names: Sequence[str]) -> str:
    """A refused action, told to the seat that tried it."""
    if isinstance(error, MustFollowSuitError) and led_suit is not None:
        return f"You must follow {SUIT_NAMES[led_suit]}."
    if isinstance(error, HookError):
        return forbidden_reason(view) or "The dealer may not make the bids add up to the tricks."
    if isinstance(error, NotYourTurnError):
        if view.phase in ("bidding", "playing"):
            doing = "bid" if view.phase == "bidding" else "play"
            return f"It is not your turn: {names[view.to_act]} is to {doing}."
        return "It is not your turn."
    if isinstance(error, BidOutOfRangeError):
        return f"Bids run from 0 to {view.hand_size} in this {plural(view.hand_size, 'card')} hand."
    if isinstance(error, CardNotInHandError):
        return "You do not hold that card."
    if isinstance(error, BidChangeNotAllowedError):
        if view.rules.bid_changes == "final":
            return "Bids are final under these rules."
        return (
            "You may not change your bid now: a bid may change only until the player on your left has bid"
            " (the dealer's, until the first card is played)."
        )
    if isinstance(error, UnexpectedActionError):
        return {
            "bidding": "It is time to bid, not to play.",
            "playing": "The bidding is over: play a card.",
            "choosing-trump": "The dealer is choosing trump.",
        }.get(view.phase, "The hand is over.")
    return str(error)


def draw_text(draws: Sequence[Mapping[int, Card]], dealer: int, you: int, names: Sequence[str]) -> str:
    """The draw for the first deal, in the order of the seats, each round of it a sentence.

    >>> draw_text([{0: 25, 1: 24}], 0, 1, ["Ann", "Bob"])
    'The draw for the first deal: Ann drew the ace of hearts, you the king of hearts. Ann deals first.'
    >>> draw_text([{0: 25, 1: 12}, {0: 26, 1: 48}], 1, 0, ["Ann", "Bob"]).split(". ")[1:]
    ['Tied, you and Bob drew again: you the 2 of diamonds, Bob the jack of clubs', 'Bob deals first.']
    """

    def name(seat: int) -> str:
        return "you" if seat == you else names[seat]

    sentences = []
    for index, drawn in enumerate(draws):
        cards = [f"{name(seat)} the {card_name(card)}" for seat, card in sorted(drawn.items())]
        if index == 0:
            cards[0] = cards[0].replace(" the ", " drew the ", 1)
            sentences.append(f"The draw for the first deal: {', '.join(cards)}.")
        else:
            tied = [name(seat) for seat in sorted(drawn)]
            sentences.append(f"Tied, {', '.join(tied[:-1])} and {tied[-1]} drew again: {', '.join(cards)}.")
    dealer_name = "You deal" if dealer == you else f"{names[dealer]} deals"
    sentences.append(f"{dealer_name} first.")
    return " ".join(sentences)


def result_text(
    winners: Sequence[int], totals: Sequence[int], you: int, names: Sequence[str], resigned: int | None = None
) -> str:
    """``You win with 123 points.`` or ``Shared win: Alice and You, 120 points each.``

    After a seat gave up: ``You gave up. Bob wins with 40 points.``
    """
    if resigned is not None:
        name = who(resigned, you, names)
        return f"{name} gave up. {result_text(winners, totals, you, names)}"
    best = totals[winners[0]]
    points = plural(best, "point")
    if len(winners) == 1:
        name = who(winners[0], you, names)
        return f"{name} win{'' if name == 'You' else 's'} with {points}."
    listed = [who(s, you, names) for s in winners]
    return f"Shared win: {', '.join(listed[:-1])} and {listed[-1]}, {points} each."
