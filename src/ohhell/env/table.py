"""A game as the research interfaces see it: who decides now, which ids are legal, what an id does.

:class:`Table` wraps a :class:`~ohhell.game.Game` and adds one thing, the
*keep or change* decision of ``until-next`` rules (see :mod:`ohhell.env.actions`):
right after a seat bids, while the engine would let it change, that seat decides
once more. Every other decision is the engine's own, so the PettingZoo,
Gymnasium and OpenSpiel interfaces all play exactly the engine's rules.

>>> from ohhell import Game, Rules
>>> table = Table(Game(Rules.preset("traditional", players=3, schedule=(2,)), number=5))
>>> table.decider, [table.layout.name(i) for i in table.legal_ids()]
(1, ['bid 0', 'bid 1', 'bid 2'])
>>> table.apply(52 + 1); table.decider, [table.layout.name(i) for i in table.legal_ids()]
(1, ['keep', 'change 0', 'change 2'])
"""

from __future__ import annotations

from ohhell.actions import BID_BASE, CHANGE_BASE, TRUMP_BASE
from ohhell.env.actions import ActionLayout
from ohhell.errors import IllegalActionError, UnexpectedActionError
from ohhell.game import Game
from ohhell.view import SeatView


class Table:
    """One game played through action ids. ``log`` keeps every decision of each deal as ``(seat, id)``.

    The log is public (bids, plays, trump choices and *keep* are all seen by every
    seat); OpenSpiel's information-state strings are written from it.
    """

    __slots__ = ("_change_ids", "_play_ids", "confirming", "game", "layout", "log")

    game: Game
    layout: ActionLayout
    confirming: int | None
    """The seat at its *keep or change* decision, if any."""
    log: list[list[tuple[int, int]]]

    def __init__(self, game: Game, layout: ActionLayout | None = None) -> None:
        self.game = game
        self.layout = ActionLayout.of(game.rules) if layout is None else layout
        self.confirming = None
        self.log = [[] for _ in game.deals]
        ids = self.layout.engine_ids
        self._play_ids = tuple(-1 if CHANGE_BASE <= a < TRUMP_BASE else i for a, i in enumerate(ids))
        self._change_ids = ids

    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
        return self.game.is_over

    @property
    def waiting_for_deal(self) -> bool:
        """Whether the next deal has still to be dealt (games that are not dealt from a number)."""
        game = self.game
        return not game.is_over and (not game.deals or game.deal.is_over)

    @property
    def decider(self) -> int | None:
        """The seat that decides now, or ``None`` (the game is over or the next deal is not dealt)."""
        if self.confirming is not None:
            return self.confirming
        if self.game.is_over or self.waiting_for_deal:
            return None
        return self.game.deal.to_act

    def legal_ids(self) -> list[int]:
        """The decider's legal ids, ascending (empty when nobody decides)."""
        seat = self.confirming
        if seat is not None:
            assert self.layout.keep is not None
            changes = self._change_ids
            return [
                self.layout.keep,
                *sorted(changes[a] for a in self.game.deal.legal_actions(seat) if CHANGE_BASE <= a < TRUMP_BASE),
            ]
        if self.decider is None:
            return []
        plays = self._play_ids
        return sorted(i for i in (plays[a] for a in self.game.deal.legal_actions()) if i >= 0)

    def apply(self, action_id: int) -> tuple[int, ...] | None:
        """Do the decider's action ``action_id``; return the points of the deal it finished, if it finished one.

        An illegal id raises an :class:`~ohhell.errors.IllegalActionError` naming the
        rule broken and changes nothing.
        """
        seat = self.decider
        if seat is None:
            raise UnexpectedActionError(
                "nobody is to act: the game is over" if self.is_over else "the deal is not dealt"
            )
        layout = self.layout
        action = layout.action_of(action_id)
        game = self.game
        if self.confirming is not None:
            if action is not None:
                if not layout.is_change(action_id):
                    raise IllegalActionError(
                        f"seat {seat} has just bid and may only keep or change it now, not {layout.name(action_id)}"
                    )
                game.apply(action, seat)  # the engine checks the change: the hook, another number
            self.confirming = None
            self.log[-1].append((seat, action_id))
            return None
        if layout.is_change(action_id):
            raise IllegalActionError(
                f"seat {seat} may not {layout.name(action_id)} now: a bid is kept or changed right after it is made"
            )
        assert action is not None
        deals = len(game.deals)
        game.apply(action)
        self.log[-1].append((seat, action_id))
        if BID_BASE <= action < CHANGE_BASE and layout.keep is not None and game.deal.can_change_bid(seat):
            self.confirming = seat
        if len(game.results) == deals:  # the deal just finished (a new one may have been dealt already)
            if len(game.deals) > deals:
                self.log.append([])
            return game.results[-1].points
        return None

    def deal_started(self) -> None:
        """Note that a deal was started by :meth:`Game.start_deal` (games not dealt from a number)."""
        self.log.append([])

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now."""
        return self.game.view(seat)

    def copy(self) -> Table:
        """An independent copy (for search: cheap)."""
        other = Table.__new__(Table)
        other.game = self.game.copy()
        other.layout = self.layout
        other.confirming = self.confirming
        other.log = [*self.log[:-1], self.log[-1].copy()] if self.log else []
        other._play_ids = self._play_ids
        other._change_ids = self._change_ids
        return other
