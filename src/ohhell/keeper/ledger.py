"""Applying a sheet's events under the rules: the one place that decides whether an entry stands.

A :class:`Ledger` knows the facts of every deal that follow from the rules and the first dealer (hand size,
dealer, bidding order, a trump the rules fix, the dealer's forbidden bid) and applies one event at a time to a
:class:`LedgerState`, raising a sentence that says why when the event breaks a rule. The sheet applies each event
to a copy of its state, so a refused event leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ohhell.errors import BidOutOfRangeError, HookError, NotYourTurnError, UnexpectedActionError
from ohhell.keeper.errors import SheetSetupError, TricksDoNotAddUpError, TricksOutOfRangeError, TrumpNotAllowedError
from ohhell.keeper.events import (
    BidEntered,
    Corrected,
    Event,
    FirstDealerCorrected,
    Renamed,
    TricksEntered,
    TrumpEntered,
)
from ohhell.keeper.rows import join_names
from ohhell.keeper.trump import JESTER, TrumpCall
from ohhell.rules import Rules, hook_forbidden_bid

MAX_NAME_LENGTH: Final = 30


@dataclass
class DealEntries:
    """What the table has entered for one deal; a rule-fixed trump is filled in when the deal is reached."""

    call: TrumpCall | None
    bids: list[int | None]
    tricks: list[int] | None = None
    corrected: set[str] = field(default_factory=set)
    """The cells a correction changed: ``"bid:2"``, ``"tricks:0"``, ``"trump"``."""


@dataclass
class LedgerState:
    """Everything the events have built: the names now, the first dealer, and every deal reached."""

    names: list[str]
    first_dealer: int
    deals: list[DealEntries]
    """The finished deals and, until the game is over, the one in progress."""

    def copy(self) -> LedgerState:
        """An independent copy, to apply an event to without touching this one."""
        deals = [
            DealEntries(d.call, d.bids.copy(), None if d.tricks is None else d.tricks.copy(), d.corrected.copy())
            for d in self.deals
        ]
        return LedgerState(self.names.copy(), self.first_dealer, deals)

    @property
    def is_over(self) -> bool:
        """Whether the last deal reached is scored; a ledger adds the next deal when a deal is scored."""
        return self.deals[-1].tricks is not None


class Ledger:
    """The rules of keeping score under ``rules``: deal facts, and every event checked and applied."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def start(self, names: Sequence[str], first_dealer: int) -> LedgerState:
        """The state of a sheet before any entry: the first deal reached."""
        return LedgerState(list(names), first_dealer, [self.fresh(0)])

    # ----------------------------------------------------------------- deal facts

    def cards_of(self, index: int) -> int:
        """The hand size of deal ``index`` (0-based)."""
        return self.rules.hand_sizes[index]

    def ruled_trump(self, index: int) -> TrumpCall | None:
        """The trump the rules give deal ``index`` (a rotation, or no card left to turn); ``None``: the table tells."""
        if not self.rules.turns_up_trump:
            return TrumpCall(self.rules.rotation_trump(index))
        if self.cards_of(index) * self.rules.players == self.rules.pack_size:
            return TrumpCall(None)
        return None

    # ----------------------------------------------------------------- applying events

    def apply(self, state: LedgerState, event: Event) -> str:
        """Change ``state`` by ``event`` and describe it, or raise without a word of it kept."""
        check_person(event.by)
        match event:
            case TrumpEntered():
                return self._apply_trump(state, event)
            case BidEntered():
                return self._apply_bid(state, event)
            case TricksEntered():
                return self._apply_tricks(state, event)
            case Corrected():
                return self._apply_correction(state, event)
            case Renamed():
                return self._apply_rename(state, event)
            case FirstDealerCorrected():
                return self._apply_first_dealer(state, event)

    def _apply_trump(self, state: LedgerState, event: TrumpEntered) -> str:
        entries = self._in_progress(state, event.deal, "enter the trump")
        self._check_call(event.deal, event.call)
        if entries.call is not None:
            raise UnexpectedActionError(
                f"the trump of deal {event.deal + 1} is already entered ({entries.call.describe()}): correct it instead"
            )
        entries.call = event.call
        return f"deal {event.deal + 1}: trump {event.call.describe()}"

    def _apply_bid(self, state: LedgerState, event: BidEntered) -> str:
        index, seat, bid = event.deal, event.seat, event.bid
        entries = self._in_progress(state, index, "enter a bid")
        if entries.call is None:
            raise UnexpectedActionError(
                f"enter the trump of deal {index + 1} first: it is turned up before anyone bids"
            )
        if None not in entries.bids:
            raise UnexpectedActionError(f"everyone has bid in deal {index + 1}: enter the tricks, or correct a bid")
        expected = self.next_bidder(state, index)
        if seat != expected:
            whose = f"{state.names[seat]}'s" if 0 <= seat < self.rules.players else f"seat {seat}'s"
            raise NotYourTurnError(
                f"it is {state.names[expected]}'s turn to bid, not {whose}: bids go in order from the dealer's left"
            )
        self._check_bid(state, index, seat, bid)
        entries.bids[seat] = bid
        if seat == self.dealer(state, index):
            self._check_hook(state, index, "bid")
        return f"deal {index + 1}: {state.names[seat]} bid {bid} (bids total {_total(entries.bids)})"

    def _apply_tricks(self, state: LedgerState, event: TricksEntered) -> str:
        index = event.deal
        entries = self._in_progress(state, index, "enter tricks")
        waiting = [state.names[s] for s in self.order(state, index) if entries.bids[s] is None]
        if waiting:
            verb = "has" if len(waiting) == 1 else "have"
            raise UnexpectedActionError(
                f"the tricks come after the bids: {join_names(waiting)} {verb} not bid in deal {index + 1}"
            )
        if len(event.tricks) != self.rules.players:
            raise TricksOutOfRangeError(
                f"{len(event.tricks)} numbers of tricks were given for {self.rules.players} players"
            )
        entries.tricks = list(event.tricks)
        for seat in range(self.rules.players):
            self._check_tricks(state, index, seat)
        self._check_trick_total(state, index)
        if index + 1 < self.rules.deals:
            state.deals.append(self.fresh(index + 1))
        taken = ", ".join(f"{name} {t}" for name, t in zip(state.names, event.tricks, strict=True))
        return f"deal {index + 1}: tricks taken: {taken}"

    def _apply_correction(self, state: LedgerState, event: Corrected) -> str:
        index = event.deal
        self.check_reached(state, index)
        entries = state.deals[index]
        if not (event.bids or event.tricks or event.trump):
            raise UnexpectedActionError(f"nothing to correct: deal {index + 1} already reads so")
        changes = []
        for seat, bid in _unique_seats(event.bids, "bid"):
            old = self._entered(state, index, seat, entries.bids, "bid")
            self._check_bid(state, index, seat, bid)
            entries.bids[seat] = bid
            entries.corrected.add(f"bid:{seat}")
            changes.append(f"{state.names[seat]}'s bid {old} → {bid}")
        for seat, taken in _unique_seats(event.tricks, "tricks"):
            old = self._entered(state, index, seat, entries.tricks, "tricks")
            assert entries.tricks is not None
            entries.tricks[seat] = taken
            self._check_tricks(state, index, seat)
            entries.corrected.add(f"tricks:{seat}")
            changes.append(f"{state.names[seat]}'s tricks {old} → {taken}")
        if event.trump is not None:
            self._check_call(index, event.trump)
            old_call = entries.call
            if old_call is None:
                raise UnexpectedActionError(f"the trump of deal {index + 1} is not entered yet: enter it instead")
            entries.call = event.trump
            entries.corrected.add("trump")
            changes.append(f"trump {old_call.describe()} → {event.trump.describe()}")
        if None not in entries.bids:
            self._check_hook(state, index, "bid", changed={s for s, _ in event.bids})
        if entries.tricks is not None:
            self._check_trick_total(state, index)
        return f"corrected deal {index + 1}: {'; '.join(changes)}"

    def _apply_rename(self, state: LedgerState, event: Renamed) -> str:
        self._check_seat(event.seat)
        old = state.names[event.seat]
        names = [event.name if s == event.seat else n for s, n in enumerate(state.names)]
        state.names = check_names(names, self.rules.players)
        if state.names[event.seat] == old:
            raise UnexpectedActionError(f"seat {event.seat + 1} is already called {old}")
        return f"renamed {old} to {state.names[event.seat]}"

    def _apply_first_dealer(self, state: LedgerState, event: FirstDealerCorrected) -> str:
        self._check_seat(event.seat)
        old = state.first_dealer
        if event.seat == old:
            raise UnexpectedActionError(f"{state.names[old]} is already the first dealer")
        state.first_dealer = event.seat
        for index, entries in enumerate(state.deals):
            order = self.order(state, index)
            entered = [s for s in order if entries.bids[s] is not None]
            if tuple(entered) != order[: len(entered)]:
                raise UnexpectedActionError(
                    f"{state.names[event.seat]} cannot have dealt first: the bids entered in deal {index + 1} would"
                    " not follow the order from the dealer's left"
                )
            if None not in entries.bids:
                self._check_hook(state, index, "bid", changed=set(range(self.rules.players)))
        return f"first dealer {state.names[old]} → {state.names[event.seat]}"

    # ----------------------------------------------------------------- checks

    def _check_call(self, index: int, call: TrumpCall) -> None:
        """Whether the rules let deal ``index`` have the trump ``call``."""
        ruled = self.ruled_trump(index)
        if ruled is not None:
            if not self.rules.turns_up_trump:
                why = f"follows the rotation: {ruled.describe()}"
            else:
                why = f"is none: every card is dealt in a {self.cards_of(index)}-card deal, so none is turned up"
            raise TrumpNotAllowedError(f"the trump of deal {index + 1} {why}")
        if call.turned is not None and not self.rules.special_cards:
            raise TrumpNotAllowedError("these rules use no Magicians or Jesters, so none can be turned up")
        if call.suit is None and call.turned != JESTER:
            why = "a Jester (JE)" if self.rules.special_cards else "every card dealt"
            raise TrumpNotAllowedError(
                f"deal {index + 1} has a trump suit: a card is turned up and its suit is trump;"
                f" only {why} means no trump"
            )

    def _check_bid(self, state: LedgerState, index: int, seat: int, bid: int) -> None:
        self._check_seat(seat)
        cards = self.cards_of(index)
        if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= cards:
            raise BidOutOfRangeError(
                f"{state.names[seat]} may not bid {bid!r}: bids run from 0 to {cards} in a {cards}-card deal"
            )

    def _check_hook(self, state: LedgerState, index: int, doing: str, changed: set[int] | None = None) -> None:
        """Under the hook, the dealer's bid may not make the bids total the tricks."""
        dealer = self.dealer(state, index)
        bid = state.deals[index].bids[dealer]
        if bid is None or bid != self.forbidden(state, index):
            return
        cards = self.cards_of(index)
        if changed is None or dealer in changed:
            raise HookError(hook_sentence(state.names[dealer], bid, cards, doing))
        raise HookError(
            f"with that correction the bids of deal {index + 1} would total {cards}, the number of tricks, which the"
            f" hook forbids: correct the bid of {state.names[dealer]}, the dealer, in the same correction"
        )

    def _check_tricks(self, state: LedgerState, index: int, seat: int) -> None:
        entries = state.deals[index]
        assert entries.tricks is not None
        taken, cards = entries.tricks[seat], self.cards_of(index)
        self._check_seat(seat)
        if isinstance(taken, bool) or not isinstance(taken, int) or not 0 <= taken <= cards:
            raise TricksOutOfRangeError(
                f"{state.names[seat]} cannot have taken {taken!r} tricks: a {cards}-card deal has {cards} tricks"
            )

    def _check_trick_total(self, state: LedgerState, index: int) -> None:
        tricks = state.deals[index].tricks
        assert tricks is not None
        cards = self.cards_of(index)
        if sum(tricks) != cards:
            raise TricksDoNotAddUpError(
                f"the tricks add up to {sum(tricks)}, but a {cards}-card deal has {cards} tricks:"
                " every trick goes to exactly one player"
            )

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise NotYourTurnError(f"there is no seat {seat!r}: seats are 0 to {self.rules.players - 1}")

    def check_reached(self, state: LedgerState, index: int) -> None:
        reached = len(state.deals)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < reached:
            shown = index + 1 if isinstance(index, int) else repr(index)
            raise UnexpectedActionError(f"cannot correct deal {shown}: the deals reached are 1 to {reached}")

    def _entered(
        self, state: LedgerState, index: int, seat: int, cells: list[int | None] | list[int] | None, what: str
    ) -> int:
        self._check_seat(seat)
        old = None if cells is None else cells[seat]
        if old is None:
            raise UnexpectedActionError(
                f"{state.names[seat]}'s {what} in deal {index + 1} is not entered yet:"
                " enter it instead of correcting it"
            )
        return old

    # ----------------------------------------------------------------- helpers

    def dealer(self, state: LedgerState, index: int) -> int:
        """The dealer of deal ``index`` under ``state``'s first dealer, which a correction may change."""
        return (state.first_dealer + index) % self.rules.players

    def order(self, state: LedgerState, index: int) -> tuple[int, ...]:
        dealer, n = self.dealer(state, index), self.rules.players
        return tuple((dealer + 1 + i) % n for i in range(n))

    def next_bidder(self, state: LedgerState, index: int) -> int:
        bids = state.deals[index].bids
        return next(s for s in self.order(state, index) if bids[s] is None)

    def forbidden(self, state: LedgerState, index: int) -> int | None:
        """The dealer's forbidden bid: the tricks less the others' bids, if the hook is on and that is not negative."""
        dealer = self.dealer(state, index)
        others = [b for s, b in enumerate(state.deals[index].bids) if s != dealer]
        if None in others:
            return None
        return hook_forbidden_bid(self.rules.hook, self.cards_of(index), _total(others))

    def fresh(self, index: int) -> DealEntries:
        return DealEntries(call=self.ruled_trump(index), bids=[None] * self.rules.players)

    def _in_progress(self, state: LedgerState, index: int, doing: str) -> DealEntries:
        reached = len(state.deals) - 1
        if state.deals[-1].tricks is not None:
            raise UnexpectedActionError(f"cannot {doing}: the game is over, all {self.rules.deals} deals are scored")
        if index != reached:
            raise UnexpectedActionError(
                f"cannot {doing} in deal {index + 1}: deal {reached + 1} is in progress"
                + (" (correct an earlier deal instead)" if 0 <= index < reached else "")
            )
        return state.deals[index]


def check_names(names: Sequence[str], players: int) -> list[str]:
    """The players' names, trimmed; refused if one is missing, too long, or two are the same."""
    if isinstance(names, str) or len(names) != players:
        count = "a single text" if isinstance(names, str) else f"{len(names)} names"
        raise SheetSetupError(f"{count} were given for {players} players: give one name for each")
    cleaned: list[str] = []
    for seat, name in enumerate(names, 1):
        text = name.strip() if isinstance(name, str) else ""
        if not text:
            raise SheetSetupError(f"player {seat} has no name")
        if len(text) > MAX_NAME_LENGTH:
            raise SheetSetupError(f"the name {text[:12]!r}… is too long: keep names to {MAX_NAME_LENGTH} letters")
        if text.casefold() in {c.casefold() for c in cleaned}:
            raise SheetSetupError(f"two players are called {text}: give each a different name, such as {text} B")
        cleaned.append(text)
    return cleaned


def hook_sentence(dealer: str, bid: int, cards: int, doing: str = "bid") -> str:
    """Why the dealer may not bid ``bid``: the sentence of the refusal, and of the greyed-out button."""
    return f"{dealer} deals and may not {doing} {bid}: the bids would total {cards}, the number of tricks"


def seat_named(word: str, names: Sequence[str]) -> int:
    """The seat of the player called ``word`` (any case), or of column number ``word`` counted from 1."""
    folded = [name.strip().casefold() for name in names]
    if word.strip().casefold() in folded:
        return folded.index(word.strip().casefold())
    if word.strip().isdigit() and 1 <= int(word) <= len(names):
        return int(word) - 1
    raise SheetSetupError(f"no player is called {word!r}: name one of {', '.join(names)} or a number 1 to {len(names)}")


def check_person(by: str) -> str:
    """The name of whoever makes an entry: any short, non-empty text."""
    text = by.strip() if isinstance(by, str) else ""
    if not text or len(text) > MAX_NAME_LENGTH:
        raise SheetSetupError(f"say who makes the entry in 1 to {MAX_NAME_LENGTH} letters, not {by!r}")
    return text


def _total(bids: Sequence[int | None]) -> int:
    return sum(b for b in bids if b is not None)


def _unique_seats(pairs: tuple[tuple[int, int], ...], what: str) -> tuple[tuple[int, int], ...]:
    seats = [seat for seat, _ in pairs]
    if len(set(seats)) != len(seats):
        raise UnexpectedActionError(f"a correction names a seat's {what} twice")
    return pairs
