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

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

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
