"""What a game tells the site when a series ends: the results of every seat, through a hook the site wires.

The game (:mod:`ohhell.server`) builds a :class:`SeriesResult` when a series is over (played to its last deal, or
given up through the menu) and hands it to the :class:`ResultsHook` it was given; the club
(:mod:`ohhell.club`) is that hook on the site. Neither feature imports the other: both meet here.

A table of several people calls the same hook; a club table is one made for a club (:class:`ClubTables`: the game
asks it whether a person may take a seat, and the club counts the table's series).
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
    left: tuple[int, ...] = ()
    """At a table of several people: the seats whose person gave up or left, played on by a computer player."""
    undos: tuple[int, ...] = ()
    """The seats that took back a move (the club aid) during the series."""
    club_id: int | None = None
    """The club of a club table (or of a club's duplicate event); ``None`` elsewhere."""
    event_id: int | None = None
    """The duplicate event (:mod:`ohhell.web.events`) the series was an entry of, handed on when the event closed:
    its ``winners`` are the event's, and a club's event counts for the club though played against computers."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def against_computers(self) -> bool:
        """Whether any seat was a computer player (such a series counts for personal statistics only)."""
        return any(seat.kind == "computer" for seat in self.seats)


class ResultsHook(Protocol):
    """Told of every series that ends, once the game's last action is stored."""

    async def series_ended(self, result: SeriesResult) -> None:
        """Store the series' results (called once per series; a second call for the same game changes nothing)."""


class ClubTables(Protocol):
    """What the game asks about club tables: a table of several people made for a club, whose seats only the club's
    members take and whose finished series count for the club."""

    async def may_take_seat(self, club_id: int, player: str) -> bool:
        """Whether the person with ``player``'s key is a member of the club ``club_id``."""

    async def make_club_table(self, game_id: int, club_id: int) -> None:
        """Record that game ``game_id`` is a table of club ``club_id``."""

    async def club_of_game(self, game_id: int) -> int | None:
        """The club whose table the game is, if any."""

    async def allows_undo(self, game_id: int) -> bool:
        """Whether the game is a table of a club whose admins allow Undo."""

    async def play_again(self, game_id: int, next_game_id: int) -> None:
        """The people of game ``game_id`` play again at ``next_game_id``: a club table's next game is the club's."""


class NoResults:
    """The hook of a site without the club: results are not kept, and there are no clubs."""

    async def series_ended(self, result: SeriesResult) -> None:
        """Nothing to do."""

    async def may_take_seat(self, club_id: int, player: str) -> bool:
        """No club has members."""
        return False

    async def make_club_table(self, game_id: int, club_id: int) -> None:
        """There is no club to make a table for."""
        raise ValueError(f"there is no club {club_id}")

    async def club_of_game(self, game_id: int) -> int | None:
        """No game is a club's."""
        return None

    async def allows_undo(self, game_id: int) -> bool:
        """No club allows anything."""
        return False

    async def play_again(self, game_id: int, next_game_id: int) -> None:
        """No game is a club's."""
