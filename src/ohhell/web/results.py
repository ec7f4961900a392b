"""What a game tells the site when a series ends: the results of every seat, through a hook the site wires.

The game (:mod:`ohhell.server`) builds a :class:`SeriesResult` when a series is over (played to its last deal, or
given up through the menu) and hands it to the :class:`ResultsHook` it was given; the club
(:mod:`ohhell.club`) is that hook on the site. Neither feature imports the other: both meet here.

A multi-person table (tables of friends, club tables) calls the same hook; :attr:`SeriesResult.club_id` names the
club a club table belongs to, and :class:`SeatPolicy` is the question such a table asks before a person takes a seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol


@dataclass(frozen=True)
class SeatResult:
    """One seat's series: who sat there and how it went, deal by deal."""

    seat: int
    name: str
    kind: str
    """``"human"`` or ``"computer"``."""
    player: str | None
    """The person's player key (:mod:`ohhell.web.identity`); ``None`` for a computer player."""
    level: str | None
    """A computer player's level (easy, normal, hard)."""
    total: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    """Points per deal played (all deals, or those before the series was given up)."""

    @property
    def exact(self) -> tuple[bool, ...]:
        """Deal by deal, whether the bid was made exactly."""
        return tuple(b == t for b, t in zip(self.bids, self.tricks, strict=True))


@dataclass(frozen=True)
class SeriesResult:
    """A series that ended: its game, its rules' preset, every seat, who won and who gave up."""

    game_id: int
    preset: str | None
    deals_in_series: int
    ended_at: datetime
    seats: tuple[SeatResult, ...]
    winners: tuple[int, ...]
    """Every seat tied on the top total (of those that did not give up)."""
    resigned: int | None = None
    """The seat that gave up through the menu, which ended the series."""
    undos: tuple[int, ...] = ()
    """The seats that took back a move (the club aid) during the series."""
    club_id: int | None = None
    """The club of a club table; ``None`` elsewhere."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def against_computers(self) -> bool:
        """Whether any seat was a computer player (such a series counts for personal statistics only)."""
        return any(seat.kind == "computer" for seat in self.seats)


class ResultsHook(Protocol):
    """Told of every series that ends, once the game's last action is stored."""

    async def series_ended(self, result: SeriesResult) -> None:
        """Store the series' results (called once per series; a second call for the same game changes nothing)."""


class SeatPolicy(Protocol):
    """Asked by a table that restricts its seats (a club table) whether a person may take one."""

    async def may_take_seat(self, club_id: int, player: str) -> bool:
        """Whether the person with ``player``'s key is a member of the club ``club_id``."""


class NoResults:
    """The hook of a site without the club: results are not kept."""

    async def series_ended(self, result: SeriesResult) -> None:
        """Nothing to do."""
