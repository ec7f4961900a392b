"""A game: a series of deals under one rule set, dealt from the game's number.

>>> from ohhell import Game, Rules
>>> game = Game(Rules.preset("short", players=4), number=42)
>>> game.deal.size, len(game.rules.hand_sizes)
(5, 9)
>>> import random
>>> rng = random.Random(0)
>>> while not game.is_over:
...     game.apply(rng.choice(game.legal_actions()))
>>> len(game.results), game.winners == [s for s, t in enumerate(game.totals) if t == max(game.totals)]
(9, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ohhell.actions import Action
from ohhell.cards import Card, CardSet
from ohhell.deal import Deal, deal_from_pack
from ohhell.dealnumbers import (
    check_deal_number,
    draw_for_deal,
    new_deal_number,
    random_first_dealer,
    shuffled_pack,
)
from ohhell.errors import DealError, TooManyDealsError, UnexpectedActionError
from ohhell.rules import Rules
from ohhell.scoring import winners as top_seats
from ohhell.view import SeatView, seat_view


@dataclass(frozen=True)
class DealResult:
    """The outcome of a finished deal, by seat."""

    dealer: int
    cards: int
    trump: int | None
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]


class Game:
    """A series of deals. Deals follow one another by themselves as the last trick of each is played.

    ``number`` fixes every shuffle and the first dealer (see :mod:`ohhell.dealnumbers`);
    without one a fresh number is drawn. ``first_dealer`` overrides the rules' choice,
    for replaying a record. With ``deal_cards=False`` no deal is dealt from the number:
    each deal is given with :meth:`start_deal` (records from elsewhere, the score keeper).
    """

    def __init__(
        self,
        rules: Rules,
        number: int | None = None,
        *,
        names: Sequence[str] | None = None,
        first_dealer: int | None = None,
        deal_cards: bool = True,
    ) -> None:
        self.rules = rules
        self.number: int | None = (
            check_deal_number(number) if number is not None else (new_deal_number() if deal_cards else None)
        )
        self.names = list(names) if names is not None else [f"Seat {s}" for s in range(rules.players)]
        if len(self.names) != rules.players:
            raise ValueError(f"{len(self.names)} names were given for {rules.players} players")
        self.draws: list[dict[int, Card]] = []
        """Under ``first_dealer = "draw"``: the cards each seat drew, round by round."""
        if first_dealer is not None:
            if not (isinstance(first_dealer, int) and 0 <= first_dealer < rules.players):
                raise DealError(f"the first dealer must be a seat from 0 to {rules.players - 1}, not {first_dealer!r}")
            self.first_dealer = first_dealer
        elif isinstance(rules.first_dealer, int):
            self.first_dealer = rules.first_dealer
        elif self.number is None:
            raise DealError("a game without a number needs its first dealer")
        elif rules.first_dealer == "draw":
            self.first_dealer, self.draws = draw_for_deal(self.number, rules.players)
        else:
            self.first_dealer = random_first_dealer(self.number, rules.players)
        self.deals: list[Deal] = []
        self.totals = [0] * rules.players
        self.results: list[DealResult] = []
        self.resigned: int | None = None
        self.left: dict[int, int] = {}
        """Seats whose person gave up at a table of several people while the game went on: a computer player
        played each from the action (its 0-based place in the whole game's log) given here. Each counts as a loss."""
        self.deal_cards = deal_cards and self.number is not None
        if self.deal_cards:
            self._deal_next()

    # ----------------------------------------------------------------- dealing

    def dealer_of(self, deal_index: int) -> int:
        """The seat that deals deal ``deal_index``."""
        return (self.first_dealer + deal_index) % self.rules.players

    def _deal_next(self) -> None:
        index = len(self.deals)
        assert self.number is not None
        pack = shuffled_pack(self.number, self.rules.players, self.rules.special_cards, index)
        self.deals.append(deal_from_pack(self.rules, pack, self.dealer_of(index), index))

    def start_deal(self, hands: Sequence[CardSet | int | Iterable[Card]], turn_up: Card | None) -> Deal:
        """Start the next deal with given hands (by seat) and turned card."""
        index = len(self.deals)
        if index >= self.rules.deals:
            raise TooManyDealsError(f"the schedule has {self.rules.deals} deals; there is no deal {index}")
        if self.deals and not self.deals[-1].is_over:
            raise UnexpectedActionError(f"deal {index - 1} is not finished")
        deal = Deal(self.rules, hands, self.dealer_of(index), turn_up, index)
        self.deals.append(deal)
        return deal

    # ----------------------------------------------------------------- reading

    @property
    def deal(self) -> Deal:
        """The deal in progress, or the last one when the game is over."""
        if not self.deals:
            raise UnexpectedActionError("no deal has been dealt yet")
        return self.deals[-1]

    @property
    def deal_index(self) -> int:
        """The 0-based index of the current deal."""
        return len(self.deals) - 1

    @property
    def is_over(self) -> bool:
        """Whether the last deal is finished, or a player gave up."""
        return self.resigned is not None or len(self.results) == self.rules.deals

    @property
    def winners(self) -> list[int] | None:
        """Every seat tied on the highest total once the game is over; ``None`` before."""
        if not self.is_over:
            return None
        losers = set(self.left) | ({self.resigned} if self.resigned is not None else set())
        if losers and len(losers) < self.rules.players:
            others = [t if s not in losers else min(self.totals) - 1 for s, t in enumerate(self.totals)]
            return top_seats(others)
        return top_seats(self.totals)

    @property
    def to_act(self) -> int:
        """The seat to act in the current deal."""
        return self.deal.to_act

    def totals_before(self, deal_index: int) -> tuple[int, ...]:
        """Each seat's total before deal ``deal_index``."""
        if deal_index == len(self.results):  # every finished deal: the running totals (a view's every time)
            return tuple(self.totals)
        totals = [0] * self.rules.players
        for result in self.results[:deal_index]:
            for seat, p in enumerate(result.points):
                totals[seat] += p
        return tuple(totals)

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """What ``seat`` (by default the seat to act) may do now."""
        if self.is_over or not self.deals:
            return ()
        return self.deal.legal_actions(seat)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now: the only thing to hand to a computer player or a client."""
        return seat_view(self.deal, seat, self.totals_before(self.deal_index))

    # ----------------------------------------------------------------- acting

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check and do ``action`` for ``seat`` (by default the seat to act); see :meth:`Deal.apply`."""
        if self.is_over:
            raise UnexpectedActionError("the game is over")
        deal = self.deal
        if deal.is_over:
            raise UnexpectedActionError("the deal is over and the next one has not been dealt")
        deal.apply(action, seat)
        if deal.is_over:
            self._finish(deal)

    def bid(self, n: int, seat: int | None = None) -> None:
        """Bid ``n`` tricks for ``seat`` (by default the seat to act)."""
        self._act(lambda deal: deal.bid(n, seat))

    def change_bid(self, n: int, seat: int) -> None:
        """Change ``seat``'s bid to ``n`` (``until-next`` rules only)."""
        self._act(lambda deal: deal.change_bid(n, seat))

    def choose_trump(self, suit: int, seat: int | None = None) -> None:
        """The dealer names trump after a turned Magician."""
        self._act(lambda deal: deal.choose_trump(suit, seat))

    def play(self, card: Card | str, seat: int | None = None) -> None:
        """Play ``card`` (an int or text such as ``"QH"``) for ``seat`` (by default the seat to act)."""
        self._act(lambda deal: deal.play(card, seat))

    def _act(self, do: Callable[[Deal], None]) -> None:
        if self.is_over:
            raise UnexpectedActionError("the game is over")
        deal = self.deal
        if deal.is_over:
            raise UnexpectedActionError("the deal is over and the next one has not been dealt")
        do(deal)
        if deal.is_over:
            self._finish(deal)

    def _finish(self, deal: Deal) -> None:
        assert deal.points is not None
        self.results.append(
            DealResult(
                dealer=deal.dealer,
                cards=deal.size,
                trump=deal.trump,
                bids=tuple(deal.bids),
                tricks=tuple(deal.tricks_won),
                points=tuple(deal.points),
            )
        )
        for seat, p in enumerate(deal.points):
            self.totals[seat] += p
        if self.deal_cards and len(self.deals) < self.rules.deals:
            self._deal_next()

    def resign(self, seat: int) -> None:
        """``seat`` gives up: the game ends and that seat loses."""
        if self.is_over:
            raise UnexpectedActionError("the game is over")
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"there is no seat {seat}")
        self.resigned = seat

    def undo(self) -> tuple[int, Action]:
        """Take back the last action, across the start of a deal if need be."""
        if self.resigned is not None:
            raise UnexpectedActionError(f"seat {self.resigned} gave up; a finished game cannot be taken back")
        if self.deals and not self.deals[-1].actions and len(self.deals) > 1 and self.deal_cards:
            self.deals.pop()
        deal = self.deal
        if deal.is_over:
            # A finished deal may be shared with copies of this game: take back on a copy of our own.
            deal = self.deals[-1] = deal.copy()
            result = self.results.pop()
            for seat, p in enumerate(result.points):
                self.totals[seat] -= p
        return deal.undo()

    def copy(self) -> Game:
        """An independent copy (finished deals are shared, they no longer change)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.deals = [*self.deals[:-1], self.deals[-1].copy()] if self.deals else []
        other.totals = self.totals.copy()
        other.results = self.results.copy()
        other.names = self.names.copy()
        return other

    def __repr__(self) -> str:
        return (
            f"<Game #{self.number} {self.rules.describe()}; deal {self.deal_index + 1}/{self.rules.deals},"
            f" totals {self.totals}>"
        )
