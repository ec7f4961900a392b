"""What the game and the duplicate events (:mod:`ohhell.duplicate`) ask each other, through the site.

A duplicate event deals every entrant the same series from numbers kept secret until the event closes. The
duplicate feature asks the game to deal an entry's table (:class:`EventGames`: it hands over the rules, the secret
number and the seats, and never sends the number anywhere else); the game asks the duplicate feature whether a
table is an event's entry (:class:`EventTables`), and plays such a table under the event's rules:

- the computer players draw their randomness from the deal and the moves alone, as at every table (never from the
  clock or the table's id), so that two people making the same moves on the same deal meet the same computer moves;
- no Undo, no Hint and no Show All Hands while the event is open, and no move after it has closed;
- no replay of its deal before the event closes.

The club asks for a club's events (:class:`ClubEvents`) to show them on the club's page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol


@dataclass(frozen=True)
class EventTable:
    """What the game must know of a table that is an entry of a duplicate event."""

    event_id: int
    closes_at: datetime
    """No move is taken at or after this moment."""
    url: str
    """The event's page (where its results appear once it has closed)."""


class EventTables(Protocol):
    """The duplicate feature's answer to the game: is this game an event's entry?"""

    async def event_table(self, game_id: int) -> EventTable | None:
        """The event whose entry the game is, if any."""


class EventGames(Protocol):
    """The game's service to the duplicate feature: store a new table for an entry."""

    async def start_entry(self, rules: dict[str, Any], number: int, seats: list[dict[str, Any]], owner: str) -> int:
        """A new game of ``rules`` (``Rules.to_json()``) dealt from ``number``; its id.

        ``seats`` in the game's stored form: ``{"name", "kind": "human", "player"}`` or
        ``{"name", "kind": "computer", "level"}``."""


@dataclass(frozen=True)
class ClubEvent:
    """A club's event, as the club's page lists it."""

    title: str
    url: str
    status: str
    """``open`` or ``closed``."""
    closes_at: datetime
    entries: int
    winners: tuple[str, ...]
    """The names at the top once it has closed (none before: no result is shown while it is open)."""


class ClubEvents(Protocol):
    """The duplicate feature's answer to the club: a club's events, newest first."""

    async def events_of_club(self, club_id: int) -> list[ClubEvent]:
        """The club's events, newest first."""


class NoEvents:
    """A site without duplicate events."""

    async def event_table(self, game_id: int) -> EventTable | None:
        """No game is an event's."""
        return None

    async def events_of_club(self, club_id: int) -> list[ClubEvent]:
        """No club has events."""
        return []


class ClubDirectory(Protocol):
    """The club's answers to the duplicate feature: a club's name, and a person's role in it."""

    async def club_name(self, club_id: int) -> str | None:
        """The club's name (``None``: no such club)."""

    async def club_role(self, club_id: int, player: str) -> str | None:
        """``admin`` or ``member`` for the account holding ``player``'s key; ``None`` if it is not a member."""
