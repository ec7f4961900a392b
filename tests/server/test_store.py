"""The action log in a real database, through SQLAlchemy and Alembic: SQLite by default, PostgreSQL the same."""

from __future__ import annotations

import asyncio
import gc
import importlib
import os
import sqlite3
import uuid
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import psycopg
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

from ohhell import commitment
from ohhell.actions import action_text
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.storage import journal
from ohhell.server.storage.journal import ConflictError
from ohhell.server.storage.store import GameNotFoundError, NewGame, Progress, Store, StoredAction
from ohhell.server.table.live import rebuild
from ohhell.site import schema
from ohhell.web import database
from ohhell.web.models import Base
from server.serving import run_async

POSTGRES: Final = "postgresql://postgres@127.0.0.1:5432/test"


@dataclass
class Database:
    """A database URL and the engine options that confine a test to it (a schema of its own on PostgreSQL)."""

    url: str
    options: dict[str, Any] = field(default_factory=dict)


def postgres_reachable() -> bool:
    try:
        with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", connect_timeout=3):
            return True
    except psycopg.OperationalError:
        return False


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A fresh, migrated database: a SQLite file, or a schema of the local PostgreSQL dropped afterwards."""
    if request.param == "sqlite":
        found = Database(f"sqlite:///{tmp_path / 'games.sqlite3'}")
        schema.upgrade(found.url)
        yield found
        return
    if not postgres_reachable():
        pytest.skip("no PostgreSQL at 127.0.0.1:5432 (user postgres, database test)")
    pg_schema = f"ohhell_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{pg_schema}"')
        try:
            found = Database(POSTGRES, {"connect_args": {"options": f"-csearch_path={pg_schema}"}})
            schema.upgrade(found.url, **found.options)
            yield found
        finally:
            admin.execute(f'DROP SCHEMA "{pg_schema}" CASCADE')


def new_game(owner: str = "me") -> NewGame:
    rules = Rules.preset("short")
    game = Game(rules, number=42)
    seats = [{"name": "You", "kind": "human", "player": owner}] + [
        {"name": n, "kind": "computer", "level": "normal"} for n in ("Alice", "Bob", "Carol")
    ]
    return NewGame(deal_number=42, rules=rules.to_json(), first_dealer=game.first_dealer, seats=seats, owner=owner)


async def log_some_actions(store: Store, game_id: int, count: int) -> Game:
    """Play ``count`` actions of game 42 and store each as the table does."""
    game = Game(Rules.preset("short"), number=42)
    for seq in range(count):
        seat, action, deal_index = game.to_act, game.legal_actions()[0], game.deal_index
        game.apply(action, seat)
        stored = StoredAction(seq, deal_index, seat, action_text(action), reason=f"reason {seq}")
        await store.append_action(game_id, stored, Progress(game.is_over, list(game.totals), game.winners))
    return game


def test_a_stored_log_rebuilds_the_game_exactly(db: Database) -> None:
    async def scenario() -> None:
        store = Store(db.url, **db.options)
        try:
            created = await store.create_game(new_game())
            played = await log_some_actions(store, created.id, 30)
            loaded = await store.load(created.id)
            assert [a.seq for a in loaded.actions] == list(range(30))
            assert loaded.action_count == 30
            rebuilt = rebuild(loaded)
            assert rebuilt.deal_index == played.deal_index
            assert [d.actions for d in rebuilt.deals] == [d.actions for d in played.deals]
            assert rebuilt.totals == played.totals
            assert loaded.totals == played.totals
            await store.set_shown_deal(created.id, 1)
            assert (await store.load(created.id)).shown_deal == 1
        finally:
            await store.close()

    run_async(scenario)


def test_a_second_writer_of_the_same_position_fails_and_writes_nothing(db: Database) -> None:
    async def scenario() -> None:
        store = Store(db.url, **db.options)
        try:
            created = await store.create_game(new_game())
            await log_some_actions(store, created.id, 1)
            with pytest.raises(ConflictError):
                await store.append_action(
                    created.id, StoredAction(0, 0, 1, "bid 3"), Progress(True, [99, 0, 0, 0], [0])
                )
            loaded = await store.load(created.id)
            assert [a.action for a in loaded.actions] != ["bid 3"]
            assert len(loaded.actions) == 1
            assert not loaded.finished
        finally:
            await store.close()

    run_async(scenario)


def test_a_batch_of_actions_alone_is_written_whole_and_a_conflict_in_it_fails_only_its_own_write(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Actions with no change to a game row go in one statement on PostgreSQL (one round trip, its own transaction):
    every row as given, reasons and all; and when one of them takes a position already written, the others are
    written all the same and only it fails, with nothing of it kept."""

    statements: list[int] = []
    alone = journal._Postgres._append_alone

    async def counted(connection: Any, actions: Any, now: Any) -> None:
        statements.append(len(actions))
        await alone(connection, actions, now)

    monkeypatch.setattr(journal._Postgres, "_append_alone", staticmethod(counted))

    async def scenario() -> None:
        store = Store(db.url, **db.options)
        try:
            games = [await store.create_game(new_game(owner=f"p{n}")) for n in range(3)]
            await store.append_action(games[1].id, StoredAction(0, 0, 1, "bid 1"))
            first = [
                store.append_action(games[0].id, StoredAction(0, 0, 1, "bid 2", "two sure tricks")),
                store.append_action(games[1].id, StoredAction(0, 0, 2, "bid 3")),  # position 0 is taken
                store.append_action(games[2].id, StoredAction(0, 0, 1, "bid 0")),
            ]
            done = await asyncio.gather(*first, return_exceptions=True)  # handed in the same turn: one batch
            assert done[0] is None and done[2] is None
            assert isinstance(done[1], ConflictError)
            await asyncio.gather(
                *(store.append_action(games[0].id, StoredAction(seq, 0, seq % 4, f"bid {seq}")) for seq in (1, 2, 3))
            )
            zero, one, two = [(await store.load(created.id)).actions for created in games]
            assert [(a.seq, a.seat, a.action, a.reason) for a in zero] == [
                (0, 1, "bid 2", "two sure tricks"),
                (1, 1, "bid 1", None),
                (2, 2, "bid 2", None),
                (3, 3, "bid 3", None),
            ]
            assert [a.action for a in one] == ["bid 1"]
            assert [a.action for a in two] == ["bid 0"]
        finally:
            await store.close()

    run_async(scenario)
    if db.url.startswith("postgresql"):  # the batch of three tried whole, then each alone, by the one statement
        assert statements[:4] == [1, 3, 1, 1]


def test_the_list_of_games_is_each_players_own_most_recent_first(db: Database) -> None:
    async def scenario() -> None:
        store = Store(db.url, **db.options)
        try:
            first = await store.create_game(new_game("ann"))
            second = await store.create_game(new_game("ann"))
            await store.create_game(new_game("bob"))
            await log_some_actions(store, first.id, 1)
            assert [g.id for g in await store.games_of("ann")] == [first.id, second.id]
            assert [g.owner for g in await store.games_of("bob")] == ["bob"]
            with pytest.raises(GameNotFoundError):
                await store.load(10_000)
        finally:
            await store.close()

    run_async(scenario)


def test_the_migrations_create_exactly_the_models(db: Database) -> None:
    importlib.import_module("ohhell.site.app")  # registers every table the application uses
    engine = database.create_sync_engine(db.url, **db.options)
    try:
        with engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        assert differences == []
    finally:
        engine.dispose()


def test_migrating_twice_changes_nothing(db: Database) -> None:
    schema.upgrade(db.url, **db.options)
    engine = database.create_sync_engine(db.url, **db.options)
    try:
        with engine.connect() as connection:
            head = ScriptDirectory.from_config(schema.alembic_config(db.url)).get_current_head()
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == head
    finally:
        engine.dispose()


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'wal.sqlite3'}"
    schema.upgrade(url)

    async def journal_mode() -> str:
        store = Store(url)
        try:
            async with store.engine.connect() as connection:
                return str((await connection.execute(text("PRAGMA journal_mode"))).scalar_one())
        finally:
            await store.close()

    assert run_async(journal_mode) == "wal"


@pytest.mark.parametrize("sync_each_commit", [False, True])
def test_the_journal_commits_on_the_loop_and_syncs_the_log_every_few_seconds_unless_told_to_sync_each_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sync_each_commit: bool
) -> None:
    """By default a commit is SQLite's ``synchronous=NORMAL``, made on the loop (no thread), and the log is synced to
    the disk within the checkpoint's seconds; ``--sync-each-commit`` waits for the disk at each commit, in a thread."""
    from ohhell.server.storage import journal

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    schema.upgrade(url)
    synced: list[str] = []
    fsync = os.fsync

    def watched_fsync(descriptor: int) -> None:
        synced.append(Path(f"/proc/self/fd/{descriptor}").readlink().name)
        fsync(descriptor)

    monkeypatch.setattr(os, "fsync", watched_fsync)
    monkeypatch.setattr(journal, "CHECKPOINT_SECONDS", 0.05)

    async def scenario() -> tuple[int, bool, int]:
        store = Store(url, sync_each_commit=sync_each_commit)
        try:
            created = await store.create_game(new_game())
            await log_some_actions(store, created.id, 5)
            backend = store.journal._backend
            assert isinstance(backend, journal._Sqlite)
            connection = backend._open()
            level = int(connection.execute("PRAGMA synchronous").fetchone()[0])
            for _ in range(100):  # the checkpoints' thread syncs the log within its seconds
                if "games.sqlite3-wal" in synced:
                    break
                await asyncio.sleep(0.02)
            return level, backend._waiter is not None, len((await store.load(created.id)).actions)
        finally:
            await store.close()

    level, threaded, written = run_async(scenario)
    assert written == 5
    assert "games.sqlite3-wal" in synced
    assert (level, threaded) == ((2, True) if sync_each_commit else (1, False))  # FULL in a thread, or NORMAL


@pytest.mark.parametrize("cut", [False, True])
def test_the_journal_starts_its_log_again_while_games_go_on_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cut: bool
) -> None:
    """Under writes that never pause, a ``PASSIVE`` checkpoint never copies the whole log and SQLite never starts it
    again (1.5 GB in a 150 s load, docs/server-load.md): past ``RESTART_FRAMES`` the journal holds its batches for a
    ``RESTART`` checkpoint (``TRUNCATE`` when the file is past ``LOG_LIMIT_BYTES``), so the log starts again, no batch
    finds the lock taken, and no write is lost."""
    from ohhell.server.storage import journal

    if cut:
        monkeypatch.setattr(journal, "LOG_LIMIT_BYTES", 0)
        truncates: list[str] = []
        checkpoint = journal._Sqlite._checkpoint

        def watched(self: journal._Sqlite, mode: str) -> tuple[bool, int]:
            if mode == "TRUNCATE":
                truncates.append(mode)
            return checkpoint(self, mode)

        monkeypatch.setattr(journal._Sqlite, "_checkpoint", watched)

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    schema.upgrade(url)
    monkeypatch.setattr(journal, "CHECKPOINT_SECONDS", 0.02)
    monkeypatch.setattr(journal, "RESTART_FRAMES", 4)

    async def scenario() -> tuple[int, int, list[list[int]]]:
        store = Store(url)
        try:
            backend = store.journal._backend
            assert isinstance(backend, journal._Sqlite)
            games: list[int] = []
            deadline = asyncio.get_running_loop().time() + 10
            while backend.log_restarts < 3 and len(games) < 400 and asyncio.get_running_loop().time() < deadline:
                created = [await store.create_game(new_game()) for _ in range(4)]
                await asyncio.gather(*(log_some_actions(store, game.id, 30) for game in created))
                games.extend(game.id for game in created)
            stored = [[a.seq for a in (await store.load(game_id)).actions] for game_id in games]
            assert backend.restart_waits >= backend.longest_restart > 0
            return backend.log_restarts, backend.busy_tries, stored
        finally:
            await store.close()

    restarts, busy, stored = run_async(scenario)
    assert restarts >= 3
    if cut:
        assert len(truncates) >= 3
    assert busy == 0  # the batches waited for the restart in the journal, not at SQLite's lock
    assert stored == [list(range(30))] * len(stored)


def test_database_urls_get_the_right_drivers() -> None:
    assert database.async_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert database.sync_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    with pytest.raises(ValueError, match="unsupported database"):
        database.async_url("mysql://u@h/d")


def test_a_game_keeps_its_salt_and_whether_it_is_practice(db: Database) -> None:
    async def scenario() -> None:
        store = Store(db.url, **db.options)
        try:
            secret = await store.create_game(new_game())
            practice = await store.create_game(replace(new_game(), practice=True, deal_salt="ab" * 16))
            again = [await store.game(secret.id), await store.load(practice.id), *await store.games_of("me")]
            assert {(g.id, g.deal_salt, g.practice) for g in again} == {
                (secret.id, secret.deal_salt, False),
                (practice.id, "ab" * 16, True),
            }
            assert commitment.is_salt(secret.deal_salt)  # drawn when the row was made
        finally:
            await store.close()

    run_async(scenario)


def test_the_migration_of_the_commitment_gives_every_older_game_a_salt_and_no_practice(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    command.upgrade(schema.alembic_config(url), "a0001")  # the schema before the commitment
    with sqlite3.connect(tmp_path / "old.sqlite3") as connection:
        for number in (7, 8):
            connection.execute(
                "INSERT INTO games (created_at, updated_at, deal_number, rules, first_dealer, seats, owner, shown_deal,"
                " action_count, finished) VALUES ('2026-11-30 10:00:00', '2026-11-30 10:00:00', ?, '\"short\"', 0,"
                " '[]', 'me', 0, 0, 0)",
                (number,),
            )
    schema.upgrade(url)
    with sqlite3.connect(tmp_path / "old.sqlite3") as connection:
        rows = connection.execute("SELECT deal_salt, practice FROM games").fetchall()
    assert len(rows) == 2 and all(commitment.is_salt(salt) and practice == 0 for salt, practice in rows)
    assert rows[0][0] != rows[1][0]  # a salt of its own each


@pytest.mark.parametrize("sync_each_commit", [False, True], ids=["commit-on-the-loop", "sync-each-commit"])
def test_a_write_tried_again_while_another_connection_holds_the_lock_leaves_no_cycle_behind(
    tmp_path: Path, sync_each_commit: bool
) -> None:
    """The journal tries a write again while another connection holds SQLite's write lock; the failed try's
    exception must not keep the batch alive in a cycle. The server never lets the collector walk the old generation
    on CPython's rule (ohhell.site.collector), so such a cycle held every retried batch until memory doubled (found
    in a 30-minute soak: 765 actions of 19 retried batches in 100 s)."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    schema.upgrade(url)

    async def scenario() -> tuple[int, int]:
        store = Store(url, sync_each_commit=sync_each_commit)
        try:
            created = await store.create_game(new_game())
            holder = sqlite3.connect(tmp_path / "games.sqlite3", isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")  # SQLite's write lock, held by someone else for a moment

            async def let_go() -> None:
                await asyncio.sleep(0.2)
                holder.execute("COMMIT")
                holder.close()

            releasing = asyncio.create_task(let_go())
            action = StoredAction(0, 0, 1, "bid 1", reason="a reason")
            finder = weakref.ref(action)
            gc.disable()  # reference counting alone, as for a batch that outlived the young collections
            try:
                await store.append_action(created.id, action, Progress(False, [0, 0, 0, 0], None))
                await releasing
                del action
                # the journal's writer keeps its last batch until the next one: write another
                await store.append_action(created.id, StoredAction(1, 0, 2, "bid 0"), Progress(False, [0] * 4, None))
                alive = finder() is not None
            finally:
                gc.enable()
            stored = await store.load(created.id)
            return int(alive), len(stored.actions)
        finally:
            await store.close()

    alive, written = run_async(scenario)
    assert written == 2  # the write waited for the lock and was made
    assert not alive, "the retried write is still held after its caller let go of it: a reference cycle"


def test_a_write_on_sqlite_is_committed_and_its_writer_woken_within_two_turns_of_the_loop(tmp_path: Path) -> None:
    """A move's acknowledgement waits for its write, and on a busy loop each turn it waits for is as long as all
    the work that was ready (docs/server-load.md, twentieth round): the journal's writer takes the write in the
    next turn and commits it there, and the writer of it goes on in the turn after."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    schema.upgrade(url)

    async def scenario() -> list[int]:
        store = Store(url)
        try:
            created = await store.create_game(new_game())
            game = Game(Rules.preset("short"), number=42)
            counts = []
            for seq in range(5):
                seat, action, deal_index = game.to_act, game.legal_actions()[0], game.deal_index
                game.apply(action, seat)
                write = asyncio.ensure_future(
                    store.append_action(created.id, StoredAction(seq, deal_index, seat, action_text(action)))
                )
                turns = 0
                while not write.done():
                    await asyncio.sleep(0)  # one turn of the loop
                    turns += 1
                await write
                counts.append(turns)
            assert len((await store.load(created.id)).actions) == 5
            return counts
        finally:
            await store.close()

    # the ensure_future's own first step is a turn too: three in all (five before the twentieth round)
    assert run_async(scenario) == [3] * 5


def test_a_writer_cancelled_while_its_write_waits_leaves_the_batch_whole(db: Database) -> None:
    """A table cancelled while its write waits for the batch gives up only its own wait: the batch is written, and
    every other writer in it is told."""

    async def scenario() -> tuple[int, int]:
        store = Store(db.url, **db.options)
        try:
            games = [await store.create_game(new_game(owner=f"p{n}")) for n in range(3)]
            writes = [
                asyncio.ensure_future(store.append_action(created.id, StoredAction(0, 0, 1, "bid 0")))
                for created in games
            ]
            await asyncio.sleep(0)  # each write handed to the journal
            writes[1].cancel()
            done = await asyncio.gather(*writes, return_exceptions=True)
            assert isinstance(done[1], asyncio.CancelledError)
            assert done[0] is None and done[2] is None
            stored = [len((await store.load(created.id)).actions) for created in games]
            return sum(stored), len(stored)
        finally:
            await store.close()

    assert run_async(scenario) == (3, 3)
