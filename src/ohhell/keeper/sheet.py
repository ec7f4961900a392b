"""The score sheet of a game played with a real deck: the table enters bids and tricks, the engine's scoring scores.

No cards pass through the keeper. For each deal it knows who deals, how many cards, and under a trump rotation
(or when no card is left to turn) the trump; the table tells it the turned trump, the bids in order from the
dealer's left, and the tricks each player took. Points come from :func:`ohhell.scoring.deal_points`, the function
the engine scores with, so a sheet and a played game can never disagree.

Every entry and every correction is an event in an append-only log (:mod:`ohhell.keeper.events`) and the sheet is
derived from that log: a refused entry raises and changes nothing, and a correction is kept beside what it
corrected, with who made it and when, for the whole table to see. The model does no input or output and reads
no clock of its own: it is given one.

>>> from datetime import UTC, datetime
>>> from ohhell.rules import Rules
>>> sheet = ScoreSheet(Rules.preset("up-and-down", schedule=(4,)), ["You", "West", "North", "East"],
...                    first_dealer=3, clock=lambda: datetime(2025, 3, 1, 20, 0, tzinfo=UTC))
>>> _ = sheet.enter_trump("S"); _ = sheet.enter_bid(1); _ = sheet.enter_bid(2); _ = sheet.enter_bid(0)
>>> sheet.forbidden_bid
1
>>> sheet.enter_bid(1)
Traceback (most recent call last):
...
ohhell.errors.HookError: East deals and may not bid 1: the bids would total 4, the number of tricks
>>> _ = sheet.enter_bid(0); _ = sheet.enter_tricks([1, 2, 0, 1])
>>> sheet.totals, sheet.winners
((11, 12, 10, 0), (1,))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Final, Literal

from ohhell.errors import OhHellError, RecordError, UnexpectedActionError
from ohhell.keeper.errors import SheetSetupError
from ohhell.keeper.events import (
    BidEntered,
    Corrected,
    Event,
    FirstDealerCorrected,
    Renamed,
    TricksEntered,
    TrumpEntered,
)
from ohhell.keeper.ledger import Ledger, check_names, check_person
from ohhell.keeper.rows import DealRow, HistoryLine
from ohhell.keeper.trump import TrumpCall
from ohhell.rules import Rules
from ohhell.scoring import deal_points
from ohhell.scoring import winners as top_seats

Clock = Callable[[], datetime]
"""Where a sheet gets the time of each entry: the wall clock in an application, a fixed one in tests."""
Phase = Literal["trump", "bids", "tricks", "over"]
DEFAULT_KEEPER: Final = "Scorekeeper"


class ScoreSheet:
    """A score sheet under ``rules`` for players ``names`` (in seat order: each deals after the one on their right).

    ``first_dealer`` is the seat that deals first (by default the rules' fixed seat, else seat 0): at a real table
    the cards or the players decide it, so the sheet is told. ``keeper`` is the name entries are made under when
    no other is given. Entries return the event they recorded; a refused one raises an
    :class:`~ohhell.errors.OhHellError` whose message says why, and leaves the sheet as it was.
    """

    def __init__(
        self,
        rules: Rules,
        names: Sequence[str],
        *,
        clock: Clock,
        first_dealer: int | None = None,
        keeper: str = DEFAULT_KEEPER,
        created: datetime | None = None,
    ) -> None:
        self.rules = rules
        self._clock = clock
        self.starting_names: tuple[str, ...] = tuple(check_names(names, rules.players))
        if first_dealer is None:
            first_dealer = rules.first_dealer if isinstance(rules.first_dealer, int) else 0
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < rules.players:
            raise SheetSetupError(
                f"the first dealer must be a seat from 0 to {rules.players - 1}, not {first_dealer!r}"
            )
        self.starting_first_dealer = first_dealer
        self.keeper = check_person(keeper)
        self.created = self._now() if created is None else created.astimezone(UTC)
        self._events: list[Event] = []
        self._history: list[HistoryLine] = []
        self._ledger = Ledger(rules)
        self._state = self._ledger.start(self.starting_names, first_dealer)

    @classmethod
    def replay(
        cls,
        rules: Rules,
        names: Sequence[str],
        events: Sequence[Event],
        *,
        clock: Clock,
        first_dealer: int | None = None,
        keeper: str = DEFAULT_KEEPER,
        created: datetime | None = None,
    ) -> ScoreSheet:
        """The sheet that ``events`` build; an event the rules refuse raises :class:`RecordError` naming it."""
        sheet = cls(rules, names, clock=clock, first_dealer=first_dealer, keeper=keeper, created=created)
        for number, event in enumerate(events, 1):
            try:
                sheet._record(event)
            except OhHellError as exc:
                raise RecordError(f"event {number} cannot be replayed: {exc}") from None
        return sheet

    # ----------------------------------------------------------------- the deals' facts

    @property
    def deal_count(self) -> int:
        """How many deals the game has."""
        return self.rules.deals

    def cards_of(self, index: int) -> int:
        """The hand size of deal ``index`` (0-based)."""
        return self._ledger.cards_of(index)

    def dealer_of(self, index: int) -> int:
        """The seat that deals deal ``index``: the deal passes to the left."""
        return self._ledger.dealer(self._state, index)

    def bid_order(self, index: int) -> tuple[int, ...]:
        """The seats in bidding order for deal ``index``: from the dealer's left round to the dealer."""
        return self._ledger.order(self._state, index)

    def ruled_trump(self, index: int) -> TrumpCall | None:
        """The trump the rules give deal ``index`` (a rotation, or no card left to turn); ``None``: the table tells."""
        return self._ledger.ruled_trump(index)

    # ----------------------------------------------------------------- reading

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names now, by seat."""
        return tuple(self._state.names)

    @property
    def first_dealer(self) -> int:
        """The seat that dealt the first deal."""
        return self._state.first_dealer

    @property
    def events(self) -> tuple[Event, ...]:
        """Every entry and correction in order: the sheet's source of truth."""
        return tuple(self._events)

    @property
    def history(self) -> tuple[HistoryLine, ...]:
        """The events in words, corrections with their old and new values."""
        return tuple(self._history)

    @property
    def is_over(self) -> bool:
        """Whether every deal of the schedule is scored."""
        return self._state.is_over

    @property
    def current(self) -> int | None:
        """The 0-based index of the deal in progress; ``None`` once the game is over."""
        return None if self.is_over else len(self._state.deals) - 1

    @property
    def phase(self) -> Phase:
        """What the table enters next: ``trump``, ``bids``, ``tricks``, or nothing (``over``)."""
        index = self.current
        if index is None:
            return "over"
        entries = self._state.deals[index]
        if entries.call is None:
            return "trump"
        return "bids" if None in entries.bids else "tricks"

    @property
    def next_bidder(self) -> int | None:
        """The seat whose bid comes next in the deal in progress; ``None`` outside the bidding."""
        if self.phase != "bids":
            return None
        index = self.current
        assert index is not None
        return self._ledger.next_bidder(self._state, index)

    @property
    def forbidden_bid(self) -> int | None:
        """The number the dealer may not bid under the hook, once the dealer is the one left to bid."""
        index = self.current
        if index is None or self.next_bidder != self.dealer_of(index):
            return None
        return self._ledger.forbidden(self._state, index)

    @property
    def allowed_bids(self) -> tuple[int, ...]:
        """The bids the next bidder may make; empty outside the bidding."""
        index = self.current
        if index is None or self.next_bidder is None:
            return ()
        forbidden = self.forbidden_bid
        return tuple(n for n in range(self.cards_of(index) + 1) if n != forbidden)

    @property
    def rows(self) -> tuple[DealRow, ...]:
        """Every deal reached, scored or in progress, with running totals."""
        totals = [0] * self.rules.players
        rows = []
        for index, entries in enumerate(self._state.deals):
            points = None
            if entries.tricks is not None:
                bids = [b for b in entries.bids if b is not None]
                points = tuple(deal_points(b, t, self.rules) for b, t in zip(bids, entries.tricks, strict=True))
                totals = [total + p for total, p in zip(totals, points, strict=True)]
            rows.append(
                DealRow(
                    index=index,
                    cards=self.cards_of(index),
                    dealer=self.dealer_of(index),
                    trump=entries.call,
                    trump_entered=self.ruled_trump(index) is None,
                    bids=tuple(entries.bids),
                    tricks=None if entries.tricks is None else tuple(entries.tricks),
                    points=points,
                    totals=tuple(totals),
                    corrected=frozenset(entries.corrected),
                )
            )
        return tuple(rows)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over the deals scored so far."""
        return self.rows[-1].totals

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats on the highest total now (every seat before the first deal is scored)."""
        return tuple(top_seats(self.totals))

    @property
    def winners(self) -> tuple[int, ...] | None:
        """Once the game is over, every seat tied on the highest total: they share the win."""
        return self.leaders if self.is_over else None

    # ----------------------------------------------------------------- entering

    def enter_trump(self, call: TrumpCall | str, *, by: str | None = None) -> TrumpEntered:
        """The trump of the deal in progress, as turned up at the table (text as :meth:`TrumpCall.parse` reads)."""
        parsed = TrumpCall.parse(call) if isinstance(call, str) else call
        event = TrumpEntered(self._deal_in_progress("enter the trump"), parsed, self._by(by), self._now())
        self._record(event)
        return event

    def enter_bid(self, bid: int, *, seat: int | None = None, by: str | None = None) -> BidEntered:
        """The next bid of the deal in progress; ``seat``, when given, must be the one whose turn it is."""
        index = self._deal_in_progress("enter a bid")
        if seat is None:
            seat = self._ledger.next_bidder(self._state, index) if self.phase == "bids" else -1
        event = BidEntered(index, seat, bid, self._by(by), self._now())
        self._record(event)
        return event

    def enter_tricks(self, tricks: Sequence[int], *, by: str | None = None) -> TricksEntered:
        """The tricks each seat took in the deal in progress (by seat); they must add up to the hand size."""
        event = TricksEntered(self._deal_in_progress("enter tricks"), tuple(tricks), self._by(by), self._now())
        self._record(event)
        return event

    def correct(
        self,
        deal: int,
        *,
        bids: Mapping[int, int] | None = None,
        tricks: Mapping[int, int] | None = None,
        trump: TrumpCall | str | None = None,
        by: str | None = None,
    ) -> Corrected:
        """Correct entries of deal ``deal`` (0-based): bids and tricks by seat, the trump. Unchanged values drop out,
        so a whole row may be passed; all changes are checked together and kept in the history as one correction."""
        self._ledger.check_reached(self._state, deal)
        entries = self._state.deals[deal]
        call = TrumpCall.parse(trump) if isinstance(trump, str) else trump
        event = Corrected(
            deal,
            tuple(sorted((s, n) for s, n in (bids or {}).items() if not _same(entries.bids, s, n))),
            tuple(sorted((s, n) for s, n in (tricks or {}).items() if not _same(entries.tricks, s, n))),
            None if call is None or call == entries.call else call,
            self._by(by),
            self._now(),
        )
        self._record(event)
        return event

    def rename(self, seat: int, name: str, *, by: str | None = None) -> Renamed:
        """Call ``seat`` by another name (a misspelling, or a player who swaps in)."""
        event = Renamed(seat, name, self._by(by), self._now())
        self._record(event)
        return event

    def correct_first_dealer(self, seat: int, *, by: str | None = None) -> FirstDealerCorrected:
        """Say another seat dealt first: every dealer moves with it, and every deal entered must still hold."""
        event = FirstDealerCorrected(seat, self._by(by), self._now())
        self._record(event)
        return event

    # ----------------------------------------------------------------- the log

    def _record(self, event: Event) -> None:
        """Apply ``event`` to a copy of the state; keep both only if every rule holds."""
        state = self._state.copy()
        text = self._ledger.apply(state, event)
        self._state = state
        self._events.append(event)
        deal = None if isinstance(event, Renamed | FirstDealerCorrected) else event.deal
        correction = not isinstance(event, TrumpEntered | BidEntered | TricksEntered)
        self._history.append(HistoryLine(event.at, event.by, text, correction, deal))

    def _deal_in_progress(self, doing: str) -> int:
        index = self.current
        if index is None:
            raise UnexpectedActionError(f"cannot {doing}: the game is over, all {self.deal_count} deals are scored")
        return index

    def _by(self, by: str | None) -> str:
        return self.keeper if by is None else check_person(by)

    def _now(self) -> datetime:
        at = self._clock()
        if at.tzinfo is None:
            raise ValueError("the sheet's clock must give times with a time zone")
        return at.astimezone(UTC)

    def __repr__(self) -> str:
        where = "over" if self.current is None else f"deal {self.current + 1}/{self.deal_count}, {self.phase}"
        return f"<ScoreSheet {self.rules.describe()}; {', '.join(self.names)}; {where}; totals {list(self.totals)}>"


def _same(cells: Sequence[int | None] | None, seat: int, value: int) -> bool:
    """Whether ``cells[seat]`` already holds ``value`` (a correction leaves such a cell out)."""
    return cells is not None and isinstance(seat, int) and 0 <= seat < len(cells) and cells[seat] == value
