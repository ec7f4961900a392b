"""Score sheets and their event logs in the database, through SQLAlchemy's async engine.

Each accepted entry is written as it is made, in its own transaction with the sheet row's summary; the position
``seq`` is part of the key, so when two phones enter at once the second write fails and its entry is not kept
(:class:`SheetChangedError`): it is asked again against the sheet as it now stands.

A sheet's share link is made at the first *Share*; its owner can replace it (:meth:`SheetStore.renew_share_code`)
or withdraw it (:meth:`SheetStore.withdraw_share_code`), optionally removing the browsers that joined. The old code
is remembered, so that :meth:`SheetStore.join` can tell a link that was replaced or withdrawn
(:class:`LinkRetiredError`) from one that never existed (:class:`SheetNotFoundError`).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, Literal, TypeVar

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from ohhell.keeper.events import event_from_json, event_to_json, wall_clock
from ohhell.keeper.sheet import ScoreSheet
from ohhell.keeper.web.models import MAX_INTEGER, SheetEventRow, SheetKeeperRow, SheetOldLinkRow, SheetRow
from ohhell.rules import Rules
from ohhell.web.database import create_server_engine
from ohhell.web.models import utc_now

T = TypeVar("T")


class SheetNotFoundError(LookupError):
    """No sheet has that id."""


class SheetChangedError(RuntimeError):
    """Another entry took the position this one was written for."""


RetiredBecause = Literal["replaced", "withdrawn"]


class LinkRetiredError(LookupError):
    """The share code was a sheet's, but its owner replaced it with a new one or withdrew it."""

    def __init__(self, reason: RetiredBecause) -> None:
        super().__init__(f"this share link was {reason}")
        self.reason: RetiredBecause = reason


def valid_sheet_id(sheet_id: int) -> bool:
    """Whether ``sheet_id`` is one a sheet could have: from 1 to :data:`MAX_INTEGER` (beyond, the databases
    would fail rather than find nothing)."""
    return 1 <= sheet_id <= MAX_INTEGER


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
            row = await _sheet_row(session, sheet_id)
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
        if not valid_sheet_id(sheet_id):
            raise SheetNotFoundError(f"there is no score sheet {sheet_id}")
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

    async def role_of(self, sheet_id: int, player: str) -> Literal["owner", "joined"] | None:
        """How ``player`` keeps sheet ``sheet_id``: it started it, it joined through the share link, or not at all
        (:class:`SheetNotFoundError` if there is no such sheet)."""
        if not valid_sheet_id(sheet_id):
            raise SheetNotFoundError(f"there is no score sheet {sheet_id}")
        async with self._sessions() as session:
            owner = await session.scalar(select(SheetRow.owner).where(SheetRow.id == sheet_id))
            if owner is None:
                raise SheetNotFoundError(f"there is no score sheet {sheet_id}")
            if owner == player:
                return "owner"
            return "joined" if await session.get(SheetKeeperRow, (sheet_id, player)) is not None else None

    async def joined_count(self, sheet_id: int) -> int:
        """How many browsers other than the owner's keep sheet ``sheet_id``."""
        async with self._sessions() as session:
            count = await session.scalar(select(func.count()).where(SheetKeeperRow.sheet_id == sheet_id))
            return int(count or 0)

    async def share_code(self, sheet_id: int) -> str:
        """The sheet's share code, made the first time it is asked for (by one request only, if two ask at once)."""
        async with self._sessions.begin() as session:
            row = await _sheet_row(session, sheet_id)
            if row.share_code is not None:
                return row.share_code
            await session.execute(
                update(SheetRow)
                .where(SheetRow.id == sheet_id, SheetRow.share_code.is_(None))
                .values(share_code=_new_code())
            )
            code = await session.scalar(select(SheetRow.share_code).where(SheetRow.id == sheet_id))
            assert code is not None
            return code

    async def renew_share_code(self, sheet_id: int, *, remove_joined: bool = False) -> str:
        """A new share code for the sheet; the old one no longer opens it. With ``remove_joined``, the browsers
        that joined so far no longer keep the sheet either."""
        code = _new_code()
        await _once_more_if_raced(lambda: self._retire(sheet_id, code, remove_joined))
        return code

    async def withdraw_share_code(self, sheet_id: int, *, remove_joined: bool = False) -> None:
        """The sheet has no share link any more (the old one no longer opens it); with ``remove_joined``, the
        browsers that joined no longer keep the sheet."""
        await _once_more_if_raced(lambda: self._retire(sheet_id, None, remove_joined))

    async def _retire(self, sheet_id: int, new_code: str | None, remove_joined: bool) -> None:
        """Remember the sheet's code as replaced (by ``new_code``) or withdrawn (``None``), and set the new one."""
        async with self._sessions.begin() as session:
            row = await _sheet_row(session, sheet_id)
            if row.share_code is not None:
                reason = "withdrawn" if new_code is None else "replaced"
                session.add(SheetOldLinkRow(code=row.share_code, sheet_id=sheet_id, reason=reason))
            row.share_code = new_code
            if remove_joined:
                await session.execute(delete(SheetKeeperRow).where(SheetKeeperRow.sheet_id == sheet_id))

    async def join(self, code: str, player: str) -> int:
        """Let ``player`` keep the sheet whose share code is ``code``; the sheet's id.

        A code the owner replaced or withdrew raises :class:`LinkRetiredError`, unless ``player`` already keeps
        that sheet (then its id: the link still leads there); a code no sheet ever had, :class:`SheetNotFoundError`.
        """
        return await _once_more_if_raced(lambda: self._join(code, player))

    async def _join(self, code: str, player: str) -> int:
        async with self._sessions.begin() as session:
            found = await session.execute(select(SheetRow.id, SheetRow.owner).where(SheetRow.share_code == code))
            row = found.first()
            if row is None:
                old = await session.get(SheetOldLinkRow, code)
                if old is None:
                    raise SheetNotFoundError("no score sheet has that share link")
                sheet = await session.get(SheetRow, old.sheet_id)
                keeps = sheet is not None and (
                    sheet.owner == player or await session.get(SheetKeeperRow, (old.sheet_id, player)) is not None
                )
                if keeps:
                    return old.sheet_id
                raise LinkRetiredError("withdrawn" if old.reason == "withdrawn" else "replaced")
            sheet_id, owner = row
            if owner != player and await session.get(SheetKeeperRow, (sheet_id, player)) is None:
                session.add(SheetKeeperRow(sheet_id=sheet_id, player=player))
            return int(sheet_id)


async def _sheet_row(session: AsyncSession, sheet_id: int) -> SheetRow:
    row = await session.get(SheetRow, sheet_id) if valid_sheet_id(sheet_id) else None
    if row is None:
        raise SheetNotFoundError(f"there is no score sheet {sheet_id}")
    return row


def _new_code() -> str:
    return secrets.token_urlsafe(SHARE_CODE_BYTES)


async def _once_more_if_raced(attempt: Callable[[], Awaitable[T]]) -> T:
    """``attempt()``, and once more if a simultaneous request wrote the same row first (the same browser joining
    twice at once, a double tap on *New link*): the second attempt sees what the first did."""
    try:
        return await attempt()
    except IntegrityError:
        return await attempt()
