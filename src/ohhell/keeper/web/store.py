"""Score sheets and their event logs in the database, through SQLAlchemy's async engine.

Each accepted entry is written as it is made, in its own transaction with the sheet row's summary; the position
``seq`` is part of the key, so when two phones enter at once the second write fails and its entry is not kept
(:class:`SheetChangedError`): it is asked again against the sheet as it now stands.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from ohhell.keeper.events import event_from_json, event_to_json, wall_clock
from ohhell.keeper.sheet import ScoreSheet
from ohhell.keeper.web.models import SheetEventRow, SheetKeeperRow, SheetRow
from ohhell.rules import Rules
from ohhell.web.database import create_server_engine
from ohhell.web.models import utc_now


class SheetNotFoundError(LookupError):
    """No sheet has that id."""


class SheetChangedError(RuntimeError):
    """Another entry took the position this one was written for."""


SHARE_CODE_BYTES: Final = 12
"""Random bytes in a share code (16 URL-safe characters): a link nobody can guess."""


@dataclass(frozen=True)
class SheetSummary:
    """A sheet row, for the list of sheets: no events read."""

    id: int
    owner: str
    created_at: datetime
    updated_at: datetime
    rules: dict[str, Any]
    names: list[str]
    totals: list[int]
    winners: list[int] | None
    finished: bool
    event_count: int


def _aware(at: datetime) -> datetime:
    """SQLite gives back times without their zone; they were written in UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _summary(row: SheetRow) -> SheetSummary:
    return SheetSummary(
        id=row.id,
        owner=row.owner,
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
        rules=row.rules,
        names=row.names,
        totals=row.totals,
        winners=row.winners,
        finished=row.finished,
        event_count=row.event_count,
    )


def _progress(sheet: ScoreSheet) -> dict[str, Any]:
    winners = sheet.winners
    return {
        "event_count": len(sheet.events),
        "finished": sheet.is_over,
        "names": list(sheet.names),
        "totals": list(sheet.totals),
        "winners": None if winners is None else list(winners),
    }


class SheetStore:
    """Sheets in one database (the server's). Create with a URL or an engine; :meth:`close` when done."""

    def __init__(self, url: str, **engine_options: Any) -> None:
        self.engine: AsyncEngine = create_server_engine(url, **engine_options)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    async def close(self) -> None:
        """Release the connections."""
        await self.engine.dispose()

    async def create(self, owner: str, sheet: ScoreSheet) -> int:
        """Store a new sheet (and any events it already has); its id."""
        async with self._sessions.begin() as session:
            row = SheetRow(
                owner=owner,
                created_at=sheet.created,
                updated_at=sheet.created,
                rules=sheet.rules.to_json(),
                players=list(sheet.starting_names),
                first_dealer=sheet.starting_first_dealer,
                keeper=sheet.keeper,
                **_progress(sheet),
            )
            session.add(row)
            await session.flush()
            for seq, event in enumerate(sheet.events):
                session.add(SheetEventRow(sheet_id=row.id, seq=seq, event=event_to_json(event)))
            return row.id

    async def load(self, sheet_id: int) -> tuple[SheetSummary, ScoreSheet]:
        """The sheet row and the sheet its events rebuild (later entries timed by the wall clock)."""
        async with self._sessions() as session:
            row = await session.get(SheetRow, sheet_id)
            if row is None:
                raise SheetNotFoundError(f"there is no score sheet {sheet_id}")
            result = await session.execute(
                select(SheetEventRow.event).where(SheetEventRow.sheet_id == sheet_id).order_by(SheetEventRow.seq)
            )
            events = [event_from_json(event) for event in result.scalars()]
            sheet = ScoreSheet.replay(
                Rules.from_json(row.rules),
                row.players,
                events,
                clock=wall_clock,
                first_dealer=row.first_dealer,
                keeper=row.keeper,
                created=_aware(row.created_at),
            )
            return _summary(row), sheet

    async def append(self, sheet_id: int, sheet: ScoreSheet, seen: int) -> None:
        """Write the events ``sheet`` has beyond the ``seen`` stored ones, and its summary.

        If another writer stored an event at one of those positions first, nothing is written and
        :class:`SheetChangedError` is raised.
        """
        try:
            async with self._sessions.begin() as session:
                for seq, event in enumerate(sheet.events[seen:], seen):
                    session.add(SheetEventRow(sheet_id=sheet_id, seq=seq, event=event_to_json(event)))
                await session.flush()
                await session.execute(
                    update(SheetRow).where(SheetRow.id == sheet_id).values(updated_at=utc_now(), **_progress(sheet))
                )
        except IntegrityError:
            raise SheetChangedError("another entry was made on this sheet at the same moment") from None

    async def event_count(self, sheet_id: int) -> int:
        """How many events sheet ``sheet_id`` has stored (one small query: no events read)."""
        async with self._sessions() as session:
            count = await session.scalar(select(SheetRow.event_count).where(SheetRow.id == sheet_id))
            if count is None:
                raise SheetNotFoundError(f"there is no score sheet {sheet_id}")
            return int(count)

    async def sheets_of(self, player: str, limit: int = 200) -> list[SheetSummary]:
        """The sheets ``player`` started or joined, most recently changed first."""
        joined = select(SheetKeeperRow.sheet_id).where(SheetKeeperRow.player == player)
        async with self._sessions() as session:
            result = await session.execute(
                select(SheetRow)
                .where(or_(SheetRow.owner == player, SheetRow.id.in_(joined)))
                .order_by(SheetRow.updated_at.desc())
                .limit(limit)
            )
            return [_summary(row) for row in result.scalars()]

    async def joined(self, sheet_id: int, player: str) -> bool:
        """Whether ``player`` joined sheet ``sheet_id`` through its share link."""
        async with self._sessions() as session:
            return await session.get(SheetKeeperRow, (sheet_id, player)) is not None

    async def share_code(self, sheet_id: int) -> str:
        """The sheet's share code, made the first time it is asked for."""
        async with self._sessions.begin() as session:
            row = await session.get(SheetRow, sheet_id)
            if row is None:
                raise SheetNotFoundError(f"there is no score sheet {sheet_id}")
            if row.share_code is None:
                row.share_code = secrets.token_urlsafe(SHARE_CODE_BYTES)
            return row.share_code

    async def join(self, code: str, player: str) -> int:
        """Let ``player`` keep the sheet whose share code is ``code``; the sheet's id."""
        try:
            return await self._join(code, player)
        except IntegrityError:  # the same browser joined twice at once: the first one did it
            return await self._join(code, player)

    async def _join(self, code: str, player: str) -> int:
        async with self._sessions.begin() as session:
            found = await session.execute(select(SheetRow.id, SheetRow.owner).where(SheetRow.share_code == code))
            row = found.first()
            if row is None:
                raise SheetNotFoundError("no score sheet has that share link")
            sheet_id, owner = row
            if owner != player and await session.get(SheetKeeperRow, (sheet_id, player)) is None:
                session.add(SheetKeeperRow(sheet_id=sheet_id, player=player))
            return int(sheet_id)
