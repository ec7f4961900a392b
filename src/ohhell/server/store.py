"""The games and their action logs in the database, through SQLAlchemy's async engine.

Every action is written as it happens, in its own transaction, together with the game row's
summary columns; :meth:`Store.load` returns the log that rebuilds the game.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from ohhell.server.models import ActionRow, GameRow
from ohhell.web.database import create_server_engine
from ohhell.web.models import utc_now


@dataclass(frozen=True)
class StoredAction:
    """One row of a game's log."""

    seq: int
    deal_index: int
    seat: int
    action: str
    reason: str | None = None


@dataclass(frozen=True)
class NewGame:
    """What a new game row needs."""

    deal_number: int
    rules: dict[str, Any]
    first_dealer: int
    seats: list[dict[str, Any]]
    owner: str
    replay_of: int | None = None


@dataclass(frozen=True)
class StoredGame:
    """A game row and, when loaded with :meth:`Store.load`, its whole log in order."""

    id: int
    created_at: datetime
    updated_at: datetime
    deal_number: int
    rules: dict[str, Any]
    first_dealer: int
    seats: list[dict[str, Any]]
    owner: str
    shown_deal: int
    action_count: int
    finished: bool
    totals: list[int] | None
    winners: list[int] | None
    replay_of: int | None
    resigned: int | None = None
    actions: tuple[StoredAction, ...] = ()


@dataclass(frozen=True)
class Progress:
    """The summary columns written with an action."""

    finished: bool
    totals: list[int]
    winners: list[int] | None


def _progress_values(progress: Progress) -> dict[str, Any]:
    """The game row's columns that :class:`Progress` sets."""
    return {
        "updated_at": utc_now(),
        "finished": progress.finished,
        "totals": progress.totals,
        "winners": progress.winners,
    }


def _stored(row: GameRow, actions: tuple[StoredAction, ...] = ()) -> StoredGame:
    return StoredGame(
        id=row.id,
        created_at=row.created_at,
        updated_at=row.updated_at,
        deal_number=row.deal_number,
        rules=row.rules,
        first_dealer=row.first_dealer,
        seats=row.seats,
        owner=row.owner,
        shown_deal=row.shown_deal,
        action_count=row.action_count,
        finished=row.finished,
        totals=row.totals,
        winners=row.winners,
        replay_of=row.replay_of,
        resigned=row.resigned,
        actions=actions,
    )


class GameNotFoundError(LookupError):
    """No game has that id."""


class Store:
    """Games and actions in one database. Create with a URL; :meth:`close` when done."""

    def __init__(self, url: str, **engine_options: Any) -> None:
        self.engine: AsyncEngine = create_server_engine(url, **engine_options)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._one_writer = asyncio.Lock() if self.engine.dialect.name == "sqlite" else None

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncSession]:
        """A write transaction. SQLite takes one writer at a time: writers queue here rather than poll its lock."""
        if self._one_writer is None:
            async with self._sessions.begin() as session:
                yield session
            return
        async with self._one_writer, self._sessions.begin() as session:
            yield session

    async def close(self) -> None:
        """Release the connections."""
        await self.engine.dispose()

    async def create_game(self, new: NewGame) -> StoredGame:
        """Store a new game with an empty log."""
        async with self._writing() as session:
            row = GameRow(
                deal_number=new.deal_number,
                rules=new.rules,
                first_dealer=new.first_dealer,
                seats=new.seats,
                owner=new.owner,
                shown_deal=0,
                action_count=0,
                finished=False,
                totals=None,
                winners=None,
                replay_of=new.replay_of,
            )
            session.add(row)
            await session.flush()
            return _stored(row)

    async def append_action(self, game_id: int, action: StoredAction, progress: Progress) -> None:
        """Write one action at the end of the log (its ``seq`` must be the next one) and the game's progress.

        A second writer of the same ``seq`` fails on the primary key, and nothing is written.
        """
        async with self._writing() as session:
            session.add(
                ActionRow(
                    game_id=game_id,
                    seq=action.seq,
                    deal_index=action.deal_index,
                    seat=action.seat,
                    action=action.action,
                    reason=action.reason,
                )
            )
            await session.flush()
            await session.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(action_count=action.seq + 1, **_progress_values(progress))
            )

    async def resign(self, game_id: int, seat: int, progress: Progress) -> None:
        """Record that ``seat`` gave up, which ends the game, with the final standings."""
        async with self._writing() as session:
            await session.execute(
                update(GameRow).where(GameRow.id == game_id).values(resigned=seat, **_progress_values(progress))
            )

    async def set_shown_deal(self, game_id: int, deal_index: int) -> None:
        """Record that the table moved on to deal ``deal_index`` (Next hand)."""
        async with self._writing() as session:
            await session.execute(
                update(GameRow).where(GameRow.id == game_id).values(shown_deal=deal_index, updated_at=utc_now())
            )

    async def load(self, game_id: int) -> StoredGame:
        """The game and its whole log, in order."""
        async with self._sessions() as session:
            row = await session.get(GameRow, game_id)
            if row is None:
                raise GameNotFoundError(f"there is no game {game_id}")
            result = await session.execute(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)
            )
            actions = tuple(
                StoredAction(seq=a.seq, deal_index=a.deal_index, seat=a.seat, action=a.action, reason=a.reason)
                for a in result.scalars()
            )
            return _stored(row, actions)

    async def games_of(self, owner: str, limit: int = 200) -> list[StoredGame]:
        """The games ``owner`` started, most recently played first (without their logs)."""
        async with self._sessions() as session:
            result = await session.execute(
                select(GameRow).where(GameRow.owner == owner).order_by(GameRow.updated_at.desc()).limit(limit)
            )
            return [_stored(row) for row in result.scalars()]
