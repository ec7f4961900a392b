"""One deal: the hands, the trump, the bidding and the tricks, with checked actions, undo and views.

A :class:`Deal` can be set up directly from given hands, for analysis and for
tests against other engines::

    >>> from ohhell.rules import Rules, hook_forbidden_bid
    >>> from ohhell.cards import CardSet, parse_card
    >>> deal = Deal(Rules.preset("full", players=3, schedule=(2,)), dealer=2,
    ...             hands=[CardSet.parse("AS KH"), CardSet.parse("2S 3H"), CardSet.parse("QS QD")],
    ...             turn_up=parse_card("9H"))
    >>> deal.to_act, deal.forbidden_bid()
    (0, None)
    >>> deal.bid(1); deal.bid(0); deal.forbidden_bid()
    1
    >>> deal.bid(1)
    Traceback (most recent call last):
    ...
    ohhell.errors.HookError: the dealer (seat 2) may not bid 1: the bids would total 2, the number of tricks

The state is a handful of ints and lists; :meth:`Deal.copy` and :meth:`Deal.undo`
are cheap enough for tree search. An action that raises leaves the deal as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, final

from ohhell.actions import BID_BASE, CHANGE_BASE, TRUMP_BASE, Action, action_text
from ohhell.cards import (
    FIRST_JESTER,
    FIRST_MAGICIAN,
    JESTER_MASK,
    JESTER_SUIT,
    MAGICIAN_MASK,
    MAGICIAN_SUIT,
    SPECIAL_MASK,
    STANDARD_PACK,
    SUIT_CARDS,
    SUIT_LETTERS,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    Card,
    CardSet,
    Suit,
    add_card,
    card_name,
    card_text,
    cards_of,
    distinct_cards_of,
    first_card,
    parse_card,
)
from ohhell.errors import (
    BidChangeNotAllowedError,
    BidOutOfRangeError,
    CardNotInHandError,
    DealError,
    HookError,
    MustFollowSuitError,
    NotYourTurnError,
    UnexpectedActionError,
)
from ohhell.rules import Rules, hook_forbidden_bid
from ohhell.scoring import deal_points

CHOOSING_TRUMP: Final = 0
BIDDING: Final = 1
PLAYING: Final = 2
FINISHED: Final = 3
PHASE_NAMES: Final = ("choosing-trump", "bidding", "playing", "finished")

NO_TRUMP: Final = -1
_PENDING: Final = -1
"""Led suit not set yet: no card led, or only Jesters so far."""
_ANY: Final = -2
"""No led suit for the rest of the trick: a Magician set it."""

_TRUMP_ACTIONS: Final = tuple(TRUMP_BASE + s for s in range(4))


_PAIRS: Final[list[list[Any]]] = [[(seat, action) for action in range(TRUMP_BASE + 4)] for seat in range(8)]
"""Every ``(seat, action)`` a deal's log can hold, made once: a log shares them instead of holding a tuple per
action (a long game's log is a tenth of the size). ``Any`` keeps the compiled module from unboxing them."""


def _pair(seat: int, action: Action) -> Any:
    """The shared ``(seat, action)`` tuple."""
    return _PAIRS[seat][action]


@final
class Trick:
    """A finished trick: who led, the cards in play order, who won. Treat it as immutable."""

    __slots__ = ("cards", "leader", "winner")

    def __init__(self, leader: int, cards: tuple[Card, ...], winner: int) -> None:
        self.leader = leader
        self.cards = cards
        self.winner = winner

    def seat_of(self, index: int, players: int) -> int:
        """The seat that played the ``index``-th card."""
        return (self.leader + index) % players

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Trick)
            and other.leader == self.leader
            and other.cards == self.cards
            and other.winner == self.winner
        )

    def __hash__(self) -> int:
        return hash((self.leader, self.cards, self.winner))

    def __reduce__(self) -> tuple[type[Trick], tuple[int, tuple[Card, ...], int]]:
        return (Trick, (self.leader, self.cards, self.winner))

    def __repr__(self) -> str:
        return f"Trick(leader={self.leader}, cards={self.cards!r}, winner={self.winner})"


class Deal:
    """The state of one deal. Seats act through :meth:`apply` (or :meth:`bid`, :meth:`play` ...)."""

    __slots__ = (
        "_best",
        "_best_seat",
        "_hook",
        "_led",
        "_previous_bids",
        "_trump",
        "_until_next",
        "actions",
        "bids",
        "deal_index",
        "dealer",
        "first_leader",
        "hands",
        "hands_dealt",
        "phase",
        "players",
        "points",
        "rules",
        "size",
        "to_act",
        "trick",
        "trick_leader",
        "tricks",
        "tricks_won",
        "turn_up",
    )

    rules: Rules
    players: int
    size: int
    dealer: int
    deal_index: int
    turn_up: Card | None
    hands_dealt: tuple[int, ...]
    """Each seat's hand as dealt (bitmasks): for Show All Hands and records; a seat's view reads only its own."""
    hands: list[int]
    phase: int
    to_act: int
    bids: list[int]
    """By seat; -1 where no bid is made yet."""
    tricks_won: list[int]
    trick: list[Card]
    """The cards of the trick in progress, in play order."""
    trick_leader: int
    tricks: list[Trick]
    first_leader: int
    actions: list[tuple[int, Action]]
    """Every action of the deal in order, as ``(seat, action)``; a play names the copy of a special card played."""
    points: list[int] | None

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[CardSet | int | Iterable[Card]],
        dealer: int,
        turn_up: Card | None = None,
        deal_index: int = 0,
        *,
        _copy_of: Deal | None = None,
    ) -> None:
        """Set up a deal from given hands (by seat) and the turned card; see :func:`check_hands`.

        ``_copy_of`` is private to :meth:`copy` (compiled classes cannot be made without ``__init__``).
        """
        if _copy_of is not None:
            self._copy_from(_copy_of)
            return
        masks, turn_up = check_hands(rules, hands, dealer, turn_up, deal_index)
        self.rules = rules
        self.players = rules.players
        self.size = masks[0].bit_count()
        self.dealer = dealer
        self.deal_index = deal_index
        self.turn_up = turn_up
        self.hands_dealt = tuple(masks)
        self.hands = list(masks)
        self.bids = [-1] * self.players
        self.tricks_won = [0] * self.players
        self.trick = []
        self.tricks = []
        self.actions = []
        self._previous_bids: list[int] = []
        self._hook = rules.hook
        self._until_next = rules.bid_changes == "until-next"
        self.points = None
        self.first_leader = dealer if rules.first_lead == "dealer" else (dealer + 1) % self.players
        self.trick_leader = self.first_leader
        self._led = _PENDING
        self._best = -1
        self._best_seat = -1
        self.phase = BIDDING
        self.to_act = (dealer + 1) % self.players
        if not rules.turns_up_trump:
            rotation = rules.rotation_trump(deal_index)
            self._trump = NO_TRUMP if rotation is None else rotation
        elif turn_up is None or SUIT_OF[turn_up] == JESTER_SUIT:
            self._trump = NO_TRUMP
        elif SUIT_OF[turn_up] == MAGICIAN_SUIT:
            self._trump = NO_TRUMP
            self.phase = CHOOSING_TRUMP
            self.to_act = dealer
        else:
            self._trump = SUIT_OF[turn_up]

    # ----------------------------------------------------------------- reading

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or ``None`` for no trump (or while the dealer is still choosing)."""
        return None if self._trump == NO_TRUMP else self._trump

    @property
    def is_over(self) -> bool:
        """Whether every trick has been played."""
        return self.phase == FINISHED

    @property
    def phase_name(self) -> str:
        """``choosing-trump``, ``bidding``, ``playing`` or ``finished``."""
        return PHASE_NAMES[self.phase]

    @property
    def led_suit(self) -> Suit | None:
        """The suit that must be followed in the trick in progress, if any."""
        return self._led if self._led >= 0 else None

    def trick_winner_so_far(self) -> int | None:
        """The seat currently winning the trick in progress."""
        return self._best_seat if self.trick else None

    def bid_total(self) -> int:
        """The sum of the bids made so far."""
        return sum(b for b in self.bids if b >= 0)

    def forbidden_bid(self) -> int | None:
        """The dealer's forbidden bid under the hook, once every other seat has bid; else ``None``."""
        if not self._hook:
            return None
        dealer = self.dealer
        others = 0
        for seat, b in enumerate(self.bids):
            if seat != dealer:
                if b < 0:
                    return None
                others += b
        return hook_forbidden_bid(True, self.size, others)

    def can_change_bid(self, seat: int) -> bool:
        """Whether ``seat`` may change its bid now (``until-next`` rules)."""
        if not self._until_next or self.bids[seat] < 0:
            return False
        if seat == self.dealer:
            return self.phase == PLAYING and not self.trick and not self.tricks
        return self.phase == BIDDING and self.bids[(seat + 1) % self.players] < 0

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """The actions ``seat`` (by default the seat to act) may take now.

        For the seat to act: its bids, cards or trump choices. Under ``until-next``
        a seat whose change window is open also gets its ``change`` actions.
        """
        if seat is None or seat == self.to_act:
            seat = self.to_act
            phase = self.phase
            if phase == PLAYING:
                plays = self._legal_cards(seat)
                if self._until_next and self.can_change_bid(seat):
                    return plays + self._changes(seat)
                return plays
            if phase == BIDDING:
                forbidden = self.forbidden_bid() if seat == self.dealer else None
                return tuple(BID_BASE + n for n in range(self.size + 1) if n != forbidden)
            if phase == CHOOSING_TRUMP:
                return _TRUMP_ACTIONS
            return ()
        if 0 <= seat < self.players and self.can_change_bid(seat):
            return self._changes(seat)
        return ()

    def _changes(self, seat: int) -> tuple[Action, ...]:
        forbidden = self.forbidden_bid() if seat == self.dealer else None
        current = self.bids[seat]
        return tuple(CHANGE_BASE + n for n in range(self.size + 1) if n != forbidden and n != current)

    def _legal_cards(self, seat: int) -> tuple[Card, ...]:
        hand = self.hands[seat]
        led = self._led
        if led >= 0:
            follow = hand >> (13 * led) & 0x1FFF
            if follow:
                if hand & SPECIAL_MASK:
                    return (*SUIT_CARDS[led][follow], *distinct_cards_of(hand & SPECIAL_MASK))
                return SUIT_CARDS[led][follow]
        if hand & SPECIAL_MASK:
            return tuple(distinct_cards_of(hand))
        return tuple(cards_of(hand))

    def legal_cards(self, seat: int | None = None) -> CardSet:
        """The cards ``seat`` (by default the seat to act) may play now, as a set."""
        seat = self.to_act if seat is None else seat
        if self.phase != PLAYING or seat != self.to_act:
            return CardSet()
        hand = self.hands[seat]
        led = self._led
        if led >= 0 and hand & SUIT_MASKS[led]:
            return CardSet(hand & (SUIT_MASKS[led] | SPECIAL_MASK))
        return CardSet(hand)

    def hand(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now."""
        return CardSet(self.hands[seat])

    # ----------------------------------------------------------------- acting

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check ``action`` for ``seat`` (by default the seat to act) and do it.

        Raises a subclass of :class:`~ohhell.errors.IllegalActionError` naming the
        rule broken, and then leaves the deal untouched.
        """
        if seat is None:
            seat = self.to_act
        if 0 <= action < 60:
            self._play(seat, action)
        elif BID_BASE <= action < CHANGE_BASE:
            self._bid(seat, action - BID_BASE, action)
        elif CHANGE_BASE <= action < TRUMP_BASE:
            self._change(seat, action - CHANGE_BASE, action)
        elif TRUMP_BASE <= action < TRUMP_BASE + 4:
            self._choose_trump(seat, action - TRUMP_BASE, action)
        else:
            raise UnexpectedActionError(f"{action!r} is not an action")

    def bid(self, n: int, seat: int | None = None) -> None:
        """Bid ``n`` tricks."""
        self._bid(self.to_act if seat is None else seat, n, None)

    def change_bid(self, n: int, seat: int) -> None:
        """Change ``seat``'s bid to ``n`` (``until-next`` rules only)."""
        self._change(seat, n, None)

    def choose_trump(self, suit: Suit, seat: int | None = None) -> None:
        """The dealer names trump after a turned Magician."""
        self._choose_trump(self.dealer if seat is None else seat, suit, None)

    def play(self, card: Card | str, seat: int | None = None) -> None:
        """Play ``card`` (an int or text such as ``"QH"``)."""
        if isinstance(card, str):
            card = parse_card(card)
        self._play(self.to_act if seat is None else seat, card)

    def _check_seat(self, seat: int) -> None:
        if not (isinstance(seat, int) and 0 <= seat < self.players):
            raise NotYourTurnError(f"there is no seat {seat!r}: seats are 0 to {self.players - 1}")

    def _not_your_turn(self, seat: int, doing: str) -> NotYourTurnError:
        return NotYourTurnError(f"seat {seat} may not {doing}: it is seat {self.to_act}'s turn")

    def _bid(self, seat: int, n: int, action: Action | None) -> None:
        self._check_seat(seat)
        if self.phase != BIDDING:
            raise UnexpectedActionError(f"seat {seat} may not bid: the deal is {self._moment()}")
        if seat != self.to_act:
            raise self._not_your_turn(seat, "bid")
        self._check_bid_range(seat, n)
        if seat == self.dealer:
            self._check_hook(n, "bid")
        self.bids[seat] = n
        self.actions.append(_pair(seat, BID_BASE + n if action is None else action))
        if seat == self.dealer:
            self.phase = PLAYING
            self.to_act = self.first_leader
        else:
            self.to_act = (seat + 1) % self.players

    def _check_bid_range(self, seat: int, n: int, doing: str = "bid") -> None:
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= self.size:
            article = "an" if self.size in (8, 11, 18) else "a"
            raise BidOutOfRangeError(
                f"seat {seat} may not {doing} {n!r}: bids run from 0 to {self.size} in {article} {self.size}-card deal"
            )

    def _check_hook(self, n: int, doing: str) -> None:
        if n == self.forbidden_bid():
            total = self.bid_total() - max(self.bids[self.dealer], 0) + n
            raise HookError(
                f"the dealer (seat {self.dealer}) may not {doing} {n}: the bids would total {total},"
                f" the number of tricks"
            )

    def _change(self, seat: int, n: int, action: Action | None) -> None:
        self._check_seat(seat)
        if not self._until_next:
            raise BidChangeNotAllowedError(f"seat {seat} may not change its bid: bids are final under these rules")
        if self.bids[seat] < 0:
            raise BidChangeNotAllowedError(f"seat {seat} may not change its bid: it has not bid yet")
        if not self.can_change_bid(seat):
            if seat == self.dealer:
                why = "the dealer may change only until the first card is played"
            else:
                why = f"a bid may change only until the player on the left (seat {(seat + 1) % self.players}) has bid"
            raise BidChangeNotAllowedError(f"seat {seat} may not change its bid now: {why}")
        self._check_bid_range(seat, n, "change its bid to")
        if n == self.bids[seat]:
            raise BidChangeNotAllowedError(f"seat {seat} already bid {n}: a change must name another number")
        if seat == self.dealer:
            self._check_hook(n, "change to")
        self._previous_bids.append(self.bids[seat])
        self.bids[seat] = n
        self.actions.append(_pair(seat, CHANGE_BASE + n if action is None else action))

    def _choose_trump(self, seat: int, suit: Suit, action: Action | None) -> None:
        self._check_seat(seat)
        if self.phase != CHOOSING_TRUMP:
            if self.phase == FINISHED:
                why = "the deal is over"
            elif not self.rules.turns_up_trump:
                why = "these rules rotate trump"
            elif self.turn_up is not None and SUIT_OF[self.turn_up] == MAGICIAN_SUIT:
                why = f"trump is already {SUIT_NAMES[self._trump]}"
            else:
                why = "trump is chosen only after a turned Magician"
            raise UnexpectedActionError(f"seat {seat} may not choose trump: {why}")
        if seat != self.dealer:
            raise NotYourTurnError(f"seat {seat} may not choose trump: the dealer (seat {self.dealer}) chooses")
        if not (isinstance(suit, int) and 0 <= suit < 4):
            raise UnexpectedActionError(f"{suit!r} is not a suit")
        self._trump = suit
        self.phase = BIDDING
        self.to_act = (self.dealer + 1) % self.players
        self.actions.append(_pair(seat, TRUMP_BASE + suit if action is None else action))

    def _moment(self) -> str:
        return {
            CHOOSING_TRUMP: "waiting for the dealer to choose trump",
            BIDDING: "in the bidding",
            PLAYING: "in the play of the cards",
            FINISHED: "over",
        }[self.phase]

    def _play(self, seat: int, card: Card) -> None:
        if self.phase != PLAYING or seat != self.to_act:
            self._check_seat(seat)
            if self.phase != PLAYING:
                raise UnexpectedActionError(f"seat {seat} may not play a card: the deal is {self._moment()}")
            raise self._not_your_turn(seat, "play")
        hand = self.hands[seat]
        if card >= FIRST_MAGICIAN:
            # Copies are interchangeable: whichever copy is named, the lowest one held is played, so that the
            # copy named (a seat's own label for it, see ohhell.view) never changes what happens.
            copies = hand & (MAGICIAN_MASK if card < FIRST_JESTER else JESTER_MASK)
            if not copies:
                raise CardNotInHandError(f"seat {seat} does not hold a {card_name(card)} ({card_text(card)})")
            card = first_card(copies)
        elif not hand >> card & 1:
            raise CardNotInHandError(f"seat {seat} does not hold the {card_name(card)} ({card_text(card)})")
        bit = 1 << card
        led = self._led
        suit = SUIT_OF[card]
        if led >= 0 and suit != led and suit < 4 and hand & SUIT_MASKS[led]:
            raise MustFollowSuitError(
                f"seat {seat} must follow {SUIT_NAMES[led]}: it holds {SUIT_NAMES[led]}"
                f" and may not play the {card_name(card)}"
            )
        self.hands[seat] = hand ^ bit
        trick = self.trick
        self.actions.append(_pair(seat, card))
        if not trick:
            self.trick_leader = seat
            self._best = card
            self._best_seat = seat
            self._led = suit if suit < 4 else (_ANY if suit == MAGICIAN_SUIT else _PENDING)
        else:
            if led == _PENDING and suit != JESTER_SUIT:
                self._led = suit if suit < 4 else _ANY
            if beats(card, self._best, self._trump):
                self._best = card
                self._best_seat = seat
        trick.append(card)
        if len(trick) < self.players:
            self.to_act = (seat + 1) % self.players
            return
        winner = self._best_seat
        self.tricks.append(Trick(self.trick_leader, tuple(trick), winner))
        self.tricks_won[winner] += 1
        self.trick = []
        self._led = _PENDING
        self._best = -1
        self._best_seat = -1
        self.trick_leader = winner
        self.to_act = winner
        if len(self.tricks) == self.size:
            self.phase = FINISHED
            rules = self.rules
            self.points = [deal_points(b, t, rules) for b, t in zip(self.bids, self.tricks_won, strict=True)]

    def undo(self) -> tuple[int, Action]:
        """Take back the last action and return it as ``(seat, action)``."""
        if not self.actions:
            raise UnexpectedActionError("there is no action to take back in this deal")
        seat, action = self.actions.pop()
        if action < 60:
            if not self.trick:
                last = self.tricks.pop()
                self.tricks_won[last.winner] -= 1
                self.trick = list(last.cards)
                self.trick_leader = last.leader
                self.phase = PLAYING
                self.points = None
            card = self.trick.pop()
            self.hands[seat] |= 1 << card
            self._rescan_trick()
            self.to_act = seat
        elif action < CHANGE_BASE:
            self.bids[seat] = -1
            self.phase = BIDDING
            self.to_act = seat
        elif action < TRUMP_BASE:
            self.bids[seat] = self._previous_bids.pop()
        else:
            self._trump = NO_TRUMP
            self.phase = CHOOSING_TRUMP
            self.to_act = seat
        return seat, action

    def _rescan_trick(self) -> None:
        """Work out the led suit and the winning card of the trick in progress from its cards."""
        self._led = _PENDING
        self._best = -1
        self._best_seat = -1
        for i, card in enumerate(self.trick):
            suit = SUIT_OF[card]
            if i == 0:
                self._best, self._best_seat = card, self.trick_leader
            elif beats(card, self._best, self._trump):
                self._best, self._best_seat = card, (self.trick_leader + i) % self.players
            if self._led == _PENDING and suit != JESTER_SUIT:
                self._led = suit if suit < 4 else _ANY

    def copy(self) -> Deal:
        """An independent copy, for search."""
        return Deal(self.rules, self.hands_dealt, self.dealer, self.turn_up, self.deal_index, _copy_of=self)

    def _copy_from(self, other: Deal) -> None:
        self.rules = other.rules
        self.players = other.players
        self.size = other.size
        self.dealer = other.dealer
        self.deal_index = other.deal_index
        self.turn_up = other.turn_up
        self.hands_dealt = other.hands_dealt
        self.hands = other.hands.copy()
        self.bids = other.bids.copy()
        self.tricks_won = other.tricks_won.copy()
        self.trick = other.trick.copy()
        self.tricks = other.tricks.copy()
        self.actions = other.actions.copy()
        self._previous_bids = other._previous_bids.copy()
        self._hook = other._hook
        self._until_next = other._until_next
        self.points = None if other.points is None else other.points.copy()
        self.first_leader = other.first_leader
        self.trick_leader = other.trick_leader
        self._led = other._led
        self._best = other._best
        self._best_seat = other._best_seat
        self.phase = other.phase
        self.to_act = other.to_act
        self._trump = other._trump

    def action_log(self) -> list[str]:
        """The actions as record lines: ``"1 bid 2"``, ``"0 play AS"``."""
        return [f"{seat} {action_text(action)}" for seat, action in self.actions]

    def __repr__(self) -> str:
        trump = "no trump" if self.trump is None else SUIT_LETTERS[self._trump]
        return (
            f"<Deal {self.size} cards, dealer {self.dealer}, {trump}, {self.phase_name},"
            f" bids {self.bids}, tricks {self.tricks_won}>"
        )


def deal_from_pack(rules: Rules, pack: Sequence[Card], dealer: int, deal_index: int) -> Deal:
    """Deal ``pack`` (top card first) one card at a time from the dealer's left, and turn up the next card."""
    n = rules.players
    size = rules.hand_sizes[deal_index]
    hands = [0] * n
    seat = dealer
    for j in range(size * n):
        seat = seat + 1 if seat + 1 < n else 0
        hands[seat] |= 1 << pack[j]
    turn_up = pack[size * n] if rules.turns_up_trump and size * n < len(pack) else None
    return Deal(rules, hands, dealer, turn_up, deal_index)


def beats(card: Card, best: Card, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far.

    ``best`` is always of the led suit, a trump, a Magician or (in a trick of only
    Jesters so far) a Jester, so comparing with it alone decides the trick.
    """
    suit = SUIT_OF[card]
    best_suit = SUIT_OF[best]
    if suit == best_suit:
        return card > best and suit < 4
    if best_suit == MAGICIAN_SUIT or suit == JESTER_SUIT:
        return False
    if suit == MAGICIAN_SUIT or best_suit == JESTER_SUIT:
        return True
    return suit == trump


def _hand_mask(seat: int, hand: CardSet | int | Iterable[Card]) -> int:
    """A hand as a bitmask; copies of a special card take consecutive bits."""
    if isinstance(hand, CardSet):
        return hand.mask
    if isinstance(hand, int):
        if hand < 0 or hand >> 60:
            raise DealError(f"seat {seat}'s hand {hand!r} is not a set of cards")
        return hand
    mask = 0
    for card in hand:
        if not (isinstance(card, int) and 0 <= card < 60):
            raise DealError(f"seat {seat} holds {card!r}, which is not a card")
        if card < 52 and mask >> card & 1:
            raise DealError(f"the {card_name(card)} ({card_text(card)}) was dealt twice")
        mask = add_card(mask, card)
    return mask


def check_hands(
    rules: Rules,
    hands: Sequence[CardSet | int | Iterable[Card]],
    dealer: int,
    turn_up: Card | None,
    deal_index: int,
) -> tuple[list[int], Card | None]:
    """The hands as bitmasks and the turned card, if they make a valid deal under ``rules``; else :class:`DealError`.

    Copies of a Magician or Jester are renumbered so that no two are the same card:
    the hands take the first copies in seat order, a turned special card the next one.
    These numbers tell who holds how many, so no seat is shown them: a view names the
    copies by that seat's own labels (:class:`ohhell.view.CopyLabels`).

    Every seat holds the same number of cards (the schedule's size for
    ``deal_index`` when that is within the schedule), no card twice (a Magician or
    Jester at most four times in all), only cards of the pack; the turned card is
    not held, and is given exactly when trump is turned up and cards are left.
    """
    n = rules.players
    if not (isinstance(dealer, int) and 0 <= dealer < n):
        raise DealError(f"the dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
    if len(hands) != n:
        raise DealError(f"{len(hands)} hands were given for {n} players")
    masks: list[int] = []
    seen = 0
    magicians = 0
    jesters = 0
    for seat, hand in enumerate(hands):
        mask = _hand_mask(seat, hand)
        if mask >> 52 and not rules.special_cards:
            card = first_card(mask >> 52 << 52)
            raise DealError(f"seat {seat} holds a {card_name(card)}, but these rules use no special cards")
        duplicated = seen & mask & STANDARD_PACK
        if duplicated:
            card = first_card(duplicated)
            raise DealError(f"the {card_name(card)} ({card_text(card)}) was dealt twice")
        # Copies of a special card are interchangeable: give each seat the next free copies.
        held_magicians = (mask & MAGICIAN_MASK).bit_count()
        held_jesters = (mask & JESTER_MASK).bit_count()
        if magicians + held_magicians > 4 or jesters + held_jesters > 4:
            kind = "Magicians" if magicians + held_magicians > 4 else "Jesters"
            raise DealError(f"there are only four {kind}, but more were dealt")
        mask = (
            (mask & STANDARD_PACK)
            | (((1 << held_magicians) - 1) << (FIRST_MAGICIAN + magicians))
            | (((1 << held_jesters) - 1) << (FIRST_JESTER + jesters))
        )
        magicians += held_magicians
        jesters += held_jesters
        seen |= mask
        masks.append(mask)
    size = masks[0].bit_count()
    expected = rules.hand_sizes[deal_index] if 0 <= deal_index < rules.deals else size
    for seat, mask in enumerate(masks):
        if mask.bit_count() != expected:
            raise DealError(
                f"seat {seat} holds {mask.bit_count()} cards, but deal {deal_index} is a {expected}-card deal"
            )
    left = rules.pack_size - expected * n
    if turn_up is not None:
        if not rules.turns_up_trump:
            raise DealError("these rules rotate trump, so no card is turned up")
        if not (isinstance(turn_up, int) and 0 <= turn_up < 60) or (turn_up >= 52 and not rules.special_cards):
            raise DealError(f"the turned card {turn_up!r} is not a card of this pack")
        if left == 0:
            raise DealError("no card is left after this deal, so none can be turned up")
        if turn_up < 52 and seen >> turn_up & 1:
            raise DealError(f"the turned card, the {card_name(turn_up)}, is also in a hand")
        if turn_up >= 52 and (magicians if turn_up < FIRST_JESTER else jesters) == 4:
            raise DealError(f"the turned card is a {card_name(turn_up)}, but all four are in hands")
        if turn_up >= FIRST_JESTER:
            turn_up = FIRST_JESTER + jesters
        elif turn_up >= FIRST_MAGICIAN:
            turn_up = FIRST_MAGICIAN + magicians
    elif rules.turns_up_trump and left > 0:
        raise DealError(f"{left} cards are left after the deal, so a card must be turned up for trump")
    return masks, turn_up
