"""The rows of tables of several people (:mod:`ohhell.server.party.models`), over the game store's engine.

These writes are rare (a table set, a seat claimed, a link renewed, the game started, a seat given to a computer
player), so they go through SQLAlchemy sessions rather than the journal, which carries the actions: each one small
transaction of :class:`~ohhell.web.database.LoopWrites` (on a SQLite file, on the loop, so that it never holds the
write lock while the journal's batches wait for it).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.orm import Session

from ohhell.server.party.models import FriendTableRow, SeatClaimRow, TableLinkRow
from ohhell.server.storage.store import Store

JOIN: Final = "join"
WATCH: Final = "watch"
WAITING: Final = "waiting"
PLAYING: Final = "playing"


def new_code() -> str:
    """An unguessable link code (128 bits)."""
    return secrets.token_urlsafe(16)


@dataclass
class PartyRow:
    """A table of several people as stored: host, status, settings, the seats gone to computer players, claims."""

    game_id: int
    host: str
    status: str
    settings: dict[str, Any]
    gone: dict[int, dict[str, Any]]
    claims: dict[int, tuple[str, str]] = field(default_factory=dict)
    """By seat: ``(player key, name)``."""


class SeatTakenError(RuntimeError):
    """Someone else took that seat first."""


class PartyStore:
    """Reads and writes of the tables of several people."""

    def __init__(self, store: Store) -> None:
        self._sessions = async_sessionmaker(store.engine, expire_on_commit=False)
        self._reads = store.reads
        self._writes = store.writes

    async def create(self, game_id: int, host: str, host_name: str, settings: dict[str, Any]) -> dict[str, str]:
        """A new table's row, the host's claim of seat 0, its invite and watch codes (returned by kind)."""
        codes = {JOIN: new_code(), WATCH: new_code()}

        def write(session: Session) -> None:
            session.add(FriendTableRow(game_id=game_id, host=host, status=WAITING, settings=settings, gone={}))
            session.add(SeatClaimRow(game_id=game_id, seat=0, player=host, name=host_name))
            for kind, code in codes.items():
                session.add(TableLinkRow(code=code, game_id=game_id, kind=kind))

        await self._writes(write)
        return codes

    async def party(self, game_id: int) -> PartyRow | None:
        """The table's row and claims, or ``None`` for a game of one person (asked whenever a table opens: a read
        of :class:`~ohhell.web.database.LoopReads`)."""

        def read(session: Session) -> PartyRow | None:
            row = session.get(FriendTableRow, game_id)
            if row is None:
                return None
            claims = session.execute(select(SeatClaimRow).where(SeatClaimRow.game_id == game_id))
            return PartyRow(
                game_id=game_id,
                host=row.host,
                status=row.status,
                settings=dict(row.settings),
                gone={int(seat): dict(value) for seat, value in (row.gone or {}).items()},
                claims={c.seat: (c.player, c.name) for c in claims.scalars()},
            )

        return await self._reads(read)

    async def claim(self, game_id: int, seat: int, player: str, name: str) -> None:
        """``player`` takes ``seat`` (:class:`SeatTakenError` if someone has it)."""

        def write(session: Session) -> None:
            session.add(SeatClaimRow(game_id=game_id, seat=seat, player=player, name=name))

        try:
            await self._writes(write)
        except IntegrityError:
            raise SeatTakenError(f"seat {seat} of game {game_id} is taken") from None

    async def seat_of(self, game_id: int, player: str) -> int | None:
        """The seat ``player`` claimed at the table, if any."""

        def read(session: Session) -> int | None:
            seat: int | None = session.execute(
                select(SeatClaimRow.seat).where(SeatClaimRow.game_id == game_id, SeatClaimRow.player == player)
            ).scalar()
            return seat

        return await self._reads(read)

    async def games_of(self, player: str, limit: int = 200) -> list[int]:
        """The games whose seats ``player`` claimed (the host's included)."""
        async with self._sessions() as session:
            result = await session.execute(
                select(SeatClaimRow.game_id).where(SeatClaimRow.player == player).limit(limit)
            )
            return list(result.scalars())

    async def link(self, code: str) -> tuple[int, str, str | None] | None:
        """``(game id, kind, retired)`` of a code, or ``None``."""
        if not 8 <= len(code) <= 32:
            return None
        async with self._sessions() as session:
            row = await session.get(TableLinkRow, code)
            return None if row is None else (row.game_id, row.kind, row.retired)

    async def links(self, game_id: int) -> dict[str, str]:
        """The table's live codes, by kind."""
        async with self._sessions() as session:
            result = await session.execute(
                select(TableLinkRow).where(TableLinkRow.game_id == game_id, TableLinkRow.retired.is_(None))
            )
            return {row.kind: row.code for row in result.scalars()}

    async def renew(self, game_id: int, kind: str) -> str:
        """A new code of ``kind``; the old one is retired as ``replaced``."""
        code = new_code()

        def write(session: Session) -> None:
            session.execute(
                update(TableLinkRow)
                .where(TableLinkRow.game_id == game_id, TableLinkRow.kind == kind, TableLinkRow.retired.is_(None))
                .values(retired="replaced")
            )
            session.add(TableLinkRow(code=code, game_id=game_id, kind=kind))

        await self._writes(write)
        return code

    async def set_status(self, game_id: int, status: str) -> None:
        await self._change(game_id, status=status)

    async def set_settings(self, game_id: int, settings: dict[str, Any]) -> None:
        await self._change(game_id, settings=settings)

    async def set_gone(self, game_id: int, gone: dict[int, dict[str, Any]]) -> None:
        await self._change(game_id, gone={str(seat): value for seat, value in gone.items()})

    async def _change(self, game_id: int, **values: Any) -> None:
        change = update(FriendTableRow).where(FriendTableRow.game_id == game_id).values(**values)

        def write(session: Session) -> None:
            session.execute(change)

        await self._writes(write)


__all__ = ["JOIN", "PLAYING", "WAITING", "WATCH", "PartyRow", "PartyStore", "SeatTakenError", "new_code"]
