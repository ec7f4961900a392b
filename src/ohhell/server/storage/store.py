"""The games and their action logs in the database: writes through the :class:`~ohhell.server.storage.journal.Journal`
(many tables' actions in one transaction), reads straight from SQLite on the event loop or through SQLAlchemy's
async engine (psycopg's asyncio connections) on PostgreSQL.

Every action is written as it happens, together with the game row's summary columns; :meth:`Store.load`
returns the log that rebuilds the game.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from ohhell.server.storage.journal import (
    AppendAction,
    ChangeGame,
    CreateGame,
    Journal,
    NewGame,
    Progress,
    StoredAction,
    progress_values,
)
from ohhell.server.storage.models import ActionRow, GameRow
from ohhell.web.database import LoopReads, LoopWrites, create_server_engine
from ohhell.web.models import utc_now

MAX_ID: Final = 2**31 - 1
"""The largest id a game can have (the databases' 32-bit integer); larger ids name no game."""


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
    deal_salt: str = ""
    practice: bool = False


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
        deal_salt=row.deal_salt,
        practice=row.practice,
    )


class GameNotFoundError(LookupError):
    """No game has that id."""


_GAME_FIELDS: Final = (
    "id, created_at, updated_at, deal_number, rules, first_dealer, seats, owner, shown_deal, action_count,"
    " finished, totals, winners, replay_of, resigned, deal_salt, practice"
)


def _time(text: str) -> datetime:
    """A time as SQLite holds it (UTC, as SQLAlchemy and the journal write it)."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class _SqliteReads:
    """Reads of a SQLite file straight on the event loop: a game is a lookup by key and a scan of its log.

    A thread in between (aiosqlite's) would wait for the interpreter lock behind the event loop at every step of
    every read; these queries take a fraction of a millisecond in SQLite itself, and WAL readers never wait for
    the writer.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._connection: sqlite3.Connection | None = None

    def _open(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
            connection.execute("PRAGMA cache_size=-1024")
            connection.execute("PRAGMA query_only=ON")
            self._connection = connection
        return self._connection

    def _row(self, row: tuple[Any, ...]) -> StoredGame:
        (
            game_id,
            created,
            updated,
            number,
            rules,
            first,
            seats,
            owner,
            shown,
            count,
            finished,
            totals,
            winners,
            replay_of,
            resigned,
            salt,
            practice,
        ) = row
        return StoredGame(
            id=game_id,
            created_at=_time(created),
            updated_at=_time(updated),
            deal_number=number,
            rules=_json(rules),
            first_dealer=first,
            seats=_json(seats),
            owner=owner,
            shown_deal=shown,
            action_count=count,
            finished=bool(finished),
            totals=_json(totals),
            winners=_json(winners),
            replay_of=replay_of,
            resigned=resigned,
            deal_salt=salt,
            practice=bool(practice),
        )

    def game(self, game_id: int) -> StoredGame:
        row = self._open().execute(f"SELECT {_GAME_FIELDS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"there is no game {game_id}")
        return self._row(row)

    def load(self, game_id: int) -> StoredGame:
        connection = self._open()
        connection.execute("BEGIN")  # the row and the log from one moment
        try:
            stored = self.game(game_id)
            rows = connection.execute(
                "SELECT seq, deal_index, seat, action, reason FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        finally:
            connection.execute("COMMIT")
        return replace(stored, actions=tuple(StoredAction(*fields) for fields in rows))

    def games_of(self, owner: str, limit: int) -> list[StoredGame]:
        rows = (
            self._open()
            .execute(
                f"SELECT {_GAME_FIELDS} FROM games WHERE owner = ? ORDER BY updated_at DESC LIMIT ?", (owner, limit)
            )
            .fetchall()
        )
        return [self._row(row) for row in rows]

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


class Store:
    """Games and actions in one database. Create with a URL; :meth:`close` when done."""

    def __init__(self, url: str, *, sync_each_commit: bool = False, **engine_options: Any) -> None:
        self.engine: AsyncEngine = create_server_engine(url, **engine_options)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self.journal = Journal(url, engine_options.get("connect_args"), sync_each_commit=sync_each_commit)
        parsed = make_url(url)
        self._sqlite = _SqliteReads(parsed.database or ":memory:") if parsed.get_backend_name() == "sqlite" else None
        self.reads = LoopReads(url, self._sessions)
        """Small reads of the features over this engine (the tables of several people's rows)."""
        self.writes = LoopWrites(url, self._sessions, sync_each_commit=sync_each_commit)
        """Small writes of the features over this engine (the same rows), outside the journal."""

    async def reconnect(self) -> None:
        """Drop every connection, so that the next ones open the database afresh (it was replaced or repaired)."""
        await self.engine.dispose()
        await self.journal.reconnect()
        self.reads.close()
        self.writes.close()
        if self._sqlite is not None:
            self._sqlite.close()

    async def close(self) -> None:
        """Finish the writes under way and release the connections."""
        await self.journal.close()
        await self.engine.dispose()
        self.reads.close()
        self.writes.close()
        if self._sqlite is not None:
            self._sqlite.close()

    # ----------------------------------------------------------------- writes (through the journal)

    async def create_game(self, new: NewGame) -> StoredGame:
        """Store a new game with an empty log."""
        game_id = await self.journal.submit(CreateGame(new))
        assert game_id is not None
        now = utc_now()
        return StoredGame(
            id=game_id,
            created_at=now,
            updated_at=now,
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
            deal_salt=new.deal_salt,
            practice=new.practice,
        )

    async def append_action(self, game_id: int, action: StoredAction, progress: Progress | None = None) -> None:
        """Write one action at the end of the log (its ``seq`` must be the next one), and the game's progress
        with the action that ends a hand (the list of games shows it; the actions between change nothing it shows).

        A second writer of the same ``seq`` fails on the primary key, and nothing is written.
        """
        await self.journal.submit(AppendAction(game_id, action, progress))

    async def resign(self, game_id: int, seat: int, progress: Progress) -> None:
        """Record that ``seat`` gave up, which ends the game, with the final standings."""
        await self.journal.submit(ChangeGame(game_id, (("resigned", seat), *progress_values(progress))))

    async def set_shown_deal(self, game_id: int, deal_index: int) -> None:
        """Record that the table moved on to deal ``deal_index`` (Next hand)."""
        await self.journal.submit(ChangeGame(game_id, (("shown_deal", deal_index),)))

    # ----------------------------------------------------------------- reads

    async def game(self, game_id: int) -> StoredGame:
        """The game row alone (:class:`GameNotFoundError` if there is none)."""
        if not 1 <= game_id <= MAX_ID:
            raise GameNotFoundError(f"there is no game {game_id}")
        if self._sqlite is not None:
            return self._sqlite.game(game_id)
        async with self._sessions() as session:
            row = await session.get(GameRow, game_id)
            if row is None:
                raise GameNotFoundError(f"there is no game {game_id}")
            return _stored(row)

    async def load(self, game_id: int) -> StoredGame:
        """The game and its whole log, in order."""
        if not 1 <= game_id <= MAX_ID:
            raise GameNotFoundError(f"there is no game {game_id}")
        if self._sqlite is not None:
            return self._sqlite.load(game_id)
        async with self._sessions() as session:
            row = await session.get(GameRow, game_id)
            if row is None:
                raise GameNotFoundError(f"there is no game {game_id}")
            result = await session.execute(
                select(ActionRow.seq, ActionRow.deal_index, ActionRow.seat, ActionRow.action, ActionRow.reason)
                .where(ActionRow.game_id == game_id)
                .order_by(ActionRow.seq)
            )
            actions = tuple(StoredAction(*fields) for fields in result)
            return _stored(row, actions)

    async def games_of(self, owner: str, limit: int = 200) -> list[StoredGame]:
        """The games ``owner`` started, most recently played first (without their logs)."""
        if self._sqlite is not None:
            return self._sqlite.games_of(owner, limit)
        async with self._sessions() as session:
            result = await session.execute(
                select(GameRow).where(GameRow.owner == owner).order_by(GameRow.updated_at.desc()).limit(limit)
            )
            return [_stored(row) for row in result.scalars()]


__all__ = ["MAX_ID", "GameNotFoundError", "NewGame", "Progress", "Store", "StoredAction", "StoredGame"]
