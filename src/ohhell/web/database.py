"""Database URLs, engines and migrations: async engines for the web features, sync ones for Alembic.

One URL names the database everywhere; the driver is chosen here. SQLite files run in WAL mode
(readers never wait for the writer) with foreign keys on, and a page cache of 1 MB per connection (SQLite's
default is 2 MB); the server's async engine keeps few SQLite connections (each is a thread of aiosqlite's),
so that a crowd that loaded many games leaves no large caches behind.

>>> async_url("sqlite:///data/ohhell.sqlite3"), sync_url("sqlite+aiosqlite:///data/ohhell.sqlite3")
('sqlite+aiosqlite:///data/ohhell.sqlite3', 'sqlite:///data/ohhell.sqlite3')
>>> async_url("postgresql://me@localhost/ohhell")
'postgresql+psycopg://me@localhost/ohhell'
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

log = logging.getLogger(__name__)
T = TypeVar("T")

_ASYNC_DRIVERS: Final = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+psycopg"}
_SYNC_DRIVERS: Final = {"sqlite": "sqlite", "postgresql": "postgresql+psycopg"}


def _with_driver(url: str, drivers: dict[str, str]) -> str:
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend not in drivers:
        raise ValueError(f"unsupported database {backend!r}: use a sqlite:/// or postgresql:// URL")
    return parsed.set(drivername=drivers[backend]).render_as_string(hide_password=False)


def async_url(url: str) -> str:
    """``url`` with the async driver the server uses (aiosqlite, psycopg)."""
    return _with_driver(url, _ASYNC_DRIVERS)


def sync_url(url: str) -> str:
    """``url`` with the sync driver that migrations use (sqlite3, psycopg)."""
    return _with_driver(url, _SYNC_DRIVERS)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA cache_size=-{SQLITE_CACHE_KB}")
    cursor.close()


SQLITE_CACHE_KB: Final = 1024
SQLITE_POOL: Final = {"pool_size": 4, "max_overflow": 0}
"""The server's SQLite connections for reading (writes go through one connection of their own): four kept open, no
more made for a moment's crowd. Each is a thread of aiosqlite's, and starting one waits on the event loop for the
thread to run: connections opened and closed over and over (SQLAlchemy's overflow) held the loop up, a little each
time, on a busy machine."""


def create_server_engine(url: str, **options: Any) -> AsyncEngine:
    """The async engine of the server; SQLite files get WAL and foreign keys on every connection."""
    if make_url(url).get_backend_name() == "sqlite" and ":memory:" not in url:
        options = {**SQLITE_POOL, **options}
    engine = create_async_engine(async_url(url), **options)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


class LoopReads:
    """Small reads (a row by its key, a short join) that every request or table makes, run where they cost least.

    On a SQLite file they run straight on the event loop, through a sync engine of one connection of their own
    (``query_only``, and never waiting for a lock: WAL readers do not wait for the writer, and a read that finds the
    file busy anyway goes the async way). Through aiosqlite each step of such a read (check out, execute, fetch,
    close, roll back) is a hop to a thread and back, and each hop waits for the interpreter lock behind a busy loop:
    with the loop's thread at work most of the time, about 5 ms a hop, so that a read of microseconds took tens of
    milliseconds and four pooled connections served a few hundred a second. When a thousand series ended at once
    (docs/server-load.md, fifth round), the reads of every request's session check queued for seconds, and sockets
    timed out before they opened. Elsewhere (PostgreSQL) the same function runs in an async session
    (``run_sync``): its driver has no thread to hop to.

    A read is a sync function of a :class:`~sqlalchemy.orm.Session` that returns plain values (no row objects:
    the session is closed when it returns) and does not write.
    """

    def __init__(self, url: str, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions
        self._engine = _loop_engine(url, _read_only_pragmas)

    @property
    def on_loop(self) -> bool:
        """Whether reads run on the event loop (a SQLite file)."""
        return self._engine is not None

    async def __call__(self, read: Callable[[Session], T]) -> T:
        """``read`` run in a session: on the loop for a SQLite file, else (or when the file is busy) in an async one."""
        if self._engine is not None:
            try:
                with Session(self._engine) as session:
                    return read(session)
            except OperationalError as exc:  # locked or busy: the async way waits for it off the loop
                log.debug("a read on the loop found the database busy (%s): it goes the async way", exc.orig)
        async with self._sessions() as session:
            return await session.run_sync(read)

    def close(self) -> None:
        """Close the connection (the next read opens it again)."""
        if self._engine is not None:
            self._engine.dispose()


class LoopWrites:
    """Small writes (a few rows: a series' results, a duplicate entry's end) run where they hold SQLite's lock least.

    A SQLite file has one write lock for every connection. Through aiosqlite a write holds it across several hops to
    a thread and back (the ``INSERT``, a turn of the loop, the ``COMMIT``), each waiting for a turn of the busy loop
    and for the interpreter lock; meanwhile the game's journal (:mod:`ohhell.server.storage.journal`), which never
    waits inside SQLite, finds the lock taken and tries again 20 ms later, and every move of the batch waits with
    it. So on a SQLite file a write runs straight on the event loop, as the journal's batches do, in one synchronous
    transaction: ``BEGIN IMMEDIATE`` takes the lock or fails at once (a timeout of 0), the statements take
    microseconds, and the ``COMMIT`` (``synchronous=NORMAL``) writes the write-ahead log without waiting for the disk,
    which the journal's checkpoint thread syncs every 2 s. A lock held by another process is tried again a little
    later, up to :data:`WRITE_BUSY_SECONDS`. Elsewhere (PostgreSQL), or with ``sync_each_commit`` (``ohhell serve
    --sync-each-commit``: every commit waits for the disk, which it must not do on the loop), the same function runs
    in an async session (``run_sync``) and is committed there.

    A write is a sync function of a :class:`~sqlalchemy.orm.Session` that returns plain values; it is committed when
    it returns, and rolled back if it raises (an :class:`~sqlalchemy.exc.IntegrityError` reaches the caller).
    """

    def __init__(self, url: str, sessions: async_sessionmaker[AsyncSession], *, sync_each_commit: bool = False) -> None:
        self._sessions = sessions
        self._engine = None if sync_each_commit else _loop_engine(url, _loop_write_pragmas)
        if self._engine is not None:
            event.listen(self._engine, "begin", _begin_immediate)

    @property
    def on_loop(self) -> bool:
        """Whether writes run on the event loop (a SQLite file)."""
        return self._engine is not None

    async def __call__(self, write: Callable[[Session], T]) -> T:
        """``write`` run and committed in one transaction: on the loop for a SQLite file, else in an async session."""
        if self._engine is None:
            async with self._sessions() as async_session:
                result = await async_session.run_sync(write)
                await async_session.commit()
                return result
        deadline = asyncio.get_running_loop().time() + WRITE_BUSY_SECONDS
        while True:
            try:
                with Session(self._engine) as session:
                    result = write(session)
                    session.commit()
                    return result
            except OperationalError as exc:
                busy = "locked" in str(exc.orig) or "busy" in str(exc.orig)
                if not busy or asyncio.get_running_loop().time() >= deadline:
                    raise
            await asyncio.sleep(WRITE_BUSY_PAUSE_SECONDS)

    def close(self) -> None:
        """Close the connection (the next write opens it again)."""
        if self._engine is not None:
            self._engine.dispose()


WRITE_BUSY_SECONDS: Final = 5.0
"""How long a write of :class:`LoopWrites` keeps trying while another process holds SQLite's write lock."""
WRITE_BUSY_PAUSE_SECONDS: Final = 0.02


def _loop_engine(url: str, pragmas: Callable[[Any, Any], None]) -> Engine | None:
    """A sync engine of one connection that never waits inside SQLite (a timeout of 0), for work on the event loop;
    ``None`` unless ``url`` names a SQLite file."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    engine = create_engine(sync_url(url), poolclass=StaticPool, connect_args={"timeout": 0, "check_same_thread": False})
    event.listen(engine, "connect", pragmas)
    return engine


def _loop_write_pragmas(dbapi_connection: Any, record: Any) -> None:
    _sqlite_pragmas(dbapi_connection, record)
    dbapi_connection.isolation_level = None  # the "begin" event (_begin_immediate) starts each transaction
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA synchronous=NORMAL")  # the commit does not wait for the disk (on the loop)
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # nor copies the log into the file: the journal's thread does
    cursor.close()


def _begin_immediate(connection: Any) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _read_only_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA cache_size=-{SQLITE_CACHE_KB}")
    cursor.execute("PRAGMA query_only=ON")
    cursor.close()


def create_sync_engine(url: str, **options: Any) -> Engine:
    """A sync engine for migrations and scripts."""
    engine = create_engine(sync_url(url), **options)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def database_back(app: Any) -> list[Callable[[], Awaitable[None]]]:
    """What to call once the database can be used again after failing (each feature drops its connections).

    The site calls these when its schema check succeeds after a failure: a connection opened on a damaged or
    missing file would otherwise keep failing after the file was replaced.
    """
    hooks: list[Callable[[], Awaitable[None]]] | None = getattr(app.state, "database_back", None)
    if hooks is None:
        hooks = []
        app.state.database_back = hooks
    return hooks


def alembic_config(url: str, migrations: Path) -> Config:
    """An Alembic configuration for the migrations in ``migrations`` (no alembic.ini needed)."""
    config = Config()
    config.set_main_option("script_location", str(migrations))
    config.set_main_option("sqlalchemy.url", sync_url(url).replace("%", "%%"))
    return config


def upgrade(url: str, migrations: Path, **engine_options: Any) -> None:
    """Bring the database at ``url`` to the latest schema of ``migrations`` (creating it if need be)."""
    engine = create_sync_engine(url, **engine_options)
    try:
        with engine.begin() as connection:
            config = alembic_config(url, migrations)
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    finally:
        engine.dispose()
