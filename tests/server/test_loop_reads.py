"""The small reads every request and every table opening makes (:class:`ohhell.web.database.LoopReads`): on a
SQLite file straight on the event loop, with no hop to aiosqlite's threads; through the async engine when the
file is busy, and on PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.orm import Session

from ohhell.site import schema
from ohhell.web.accounts.store import AccountStore
from ohhell.web.database import LoopReads, create_server_engine
from server.serving import POSTGRES, run_async


def checkouts_of(engine: Any) -> list[int]:
    """A list that grows by one at every connection the async engine hands out."""
    counted: list[int] = []
    event.listen(engine.sync_engine, "checkout", lambda *_: counted.append(1))
    return counted


def test_a_read_of_a_sqlite_file_runs_on_the_loop_without_the_async_engine(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    schema.upgrade(url)

    async def scenario() -> tuple[bool, tuple[Any, bool], tuple[Any, bool], int]:
        accounts = AccountStore(url)
        counted = checkouts_of(accounts.engine)
        try:
            guest = await accounts.signed_in(None, "a-guest-key")
            with sqlite3.connect(tmp_path / "site.sqlite3") as other:  # another process retires the key
                other.execute(
                    "INSERT INTO retired_player_keys (player_key, retired_at) VALUES (?, ?)",
                    ("a-guest-key", "2026-12-02 00:00:00"),
                )
            retired = await accounts.signed_in(None, "a-guest-key")
            return accounts._reads.on_loop, guest, retired, len(counted)
        finally:
            await accounts.close()

    on_loop, guest, retired, checkouts = run_async(scenario)
    assert on_loop
    assert guest == (None, False)
    assert retired == (None, True)  # a row committed by another connection is seen at once
    assert checkouts == 0  # no connection of aiosqlite's was used


def test_a_read_that_finds_the_file_busy_goes_the_async_way_and_waits_for_it(tmp_path: Path) -> None:
    path = tmp_path / "site.sqlite3"
    url = f"sqlite:///{path}"
    schema.upgrade(url)

    async def scenario() -> tuple[int, int]:
        engine = create_server_engine(url)
        counted = checkouts_of(engine)
        reads = LoopReads(url, async_sessionmaker(engine))
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("PRAGMA locking_mode=EXCLUSIVE")  # readers of a WAL file get SQLITE_BUSY meanwhile
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("INSERT INTO retired_player_keys (player_key, retired_at) VALUES ('k', '2026-12-02 00:00:00')")

        async def let_go() -> None:
            await asyncio.sleep(0.3)
            holder.execute("COMMIT")
            holder.close()

        releasing = asyncio.create_task(let_go())
        try:
            found = await reads(
                lambda session: session.execute(text("SELECT count(*) FROM retired_player_keys")).scalar_one()
            )
            await releasing
            return int(found), len(counted)
        finally:
            reads.close()
            await engine.dispose()

    found, checkouts = run_async(scenario)
    assert found == 1  # read once the lock was let go, off the loop
    assert checkouts >= 1


def test_on_postgresql_a_read_runs_in_an_async_session() -> None:
    url = f"{POSTGRES}/test"

    async def scenario() -> tuple[bool, int, int]:
        engine = create_server_engine(url)
        counted = checkouts_of(engine)
        reads = LoopReads(url, async_sessionmaker(engine))

        def read(session: Session) -> int:
            return int(session.execute(text("SELECT 41 + 1")).scalar_one())

        try:
            return reads.on_loop, await reads(read), len(counted)
        finally:
            reads.close()
            await engine.dispose()

    on_loop, answer, checkouts = run_async(scenario)
    assert not on_loop and answer == 42 and checkouts == 1
