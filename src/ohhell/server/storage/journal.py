"""The one writer of the game tables in a process: many tables' writes in one transaction (group commit).

Every write a table makes (an action with the game's progress, Next hand, giving up, a new game) is handed to
:meth:`Journal.submit`, which returns once the write is committed: an action is announced only after that, so a
crash of the server never loses one that was acknowledged (a power cut: below). While a batch is being committed,
the writes that arrive meanwhile gather into the next one, so a busy server commits hundreds of actions per
transaction and a quiet one commits each at once.

SQLite is used through its own module, and a whole batch runs on the event loop: its ``BEGIN IMMEDIATE``, which
takes the write lock or fails at once (a timeout of 0), its statements (in memory, microseconds a row: in a thread
each row would wait for the interpreter lock behind the loop) and its ``COMMIT``, which with ``synchronous=NORMAL``
writes the write-ahead log without waiting for the disk (a fraction of a millisecond). What is committed survives a
crash of the process at once (it is in the operating system's hands); every :data:`CHECKPOINT_SECONDS` a thread of
the journal's syncs the log to the disk and checkpoints it, so a power cut loses at most the moves of those last
seconds. Every hop to a thread and back waits for a turn of the busy loop, and the interpreter lock, each way:
with the commit in a thread, as before, a move waited three times as long for its acknowledgement at the median
(docs/server-load.md, ninth round). ``sync_each_commit`` (``ohhell serve --sync-each-commit``) keeps that way, for
a host who wants every acknowledged move to survive a power cut: ``synchronous=FULL``, and ``COMMIT`` in a thread
of the journal's own, since it waits for the disk (on a busy disk tens of milliseconds, during which the loop would
stand still; ``sqlite3`` lets go of the interpreter lock while it waits). A lock held by another process is never
waited for inside SQLite, but tried again a little later, up to :data:`BUSY_SECONDS`.

PostgreSQL is used through psycopg's asyncio connection. The statements are written out here,
over the tables of :mod:`ohhell.server.storage.models` (a test checks that they agree with the models, on both
databases).

A batch that breaks a constraint (a second writer of the same ``seq``: another process took the table over) is
written again one write at a time, so that only the offending write fails, with :class:`ConflictError`. Any
other failure (a locked, missing or damaged database) fails every write of the batch with the database's error;
the callers decide whether to try again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Protocol

from sqlalchemy.engine import make_url

from ohhell.commitment import new_salt
from ohhell.server.loopturns import settle_in_slices
from ohhell.web.models import utc_now

log = logging.getLogger(__name__)

MAX_BATCH: Final = 500
"""The most writes one transaction takes: about 2.5 ms of the loop's work (idle machine, SQLite), with the loop
free between two batches."""
BUSY_SECONDS: Final = 2.0
"""How long a write keeps trying while another process holds SQLite's write lock, before it fails."""
BUSY_PAUSE_SECONDS: Final = 0.02
CHECKPOINT_SECONDS: Final = 2.0
RESTART_FRAMES: Final = 16384
"""A write-ahead log longer than this many pages (64 MiB of 4 KiB pages) after a checkpoint is started again from its
beginning (:meth:`_Sqlite._checkpoints`). A restart holds the writes for about as long whatever the log's length
(25 to 46 ms on average under a thousand games), so a longer log restarts a quarter as often or less: the writes
waited 0.3 s in all over 150 s against 1.1 s at 4096 pages, and 1.3 s over ten minutes against 7.1 s
(docs/server-load.md, seventeenth round)."""
LOG_LIMIT_BYTES: Final = 256 * 1024 * 1024
"""A log file longer than this (after a burst, or readers that kept a restart from completing) is cut to nothing by
the checkpoint that starts it again (``TRUNCATE``), in the thread: SQLite's own ``journal_size_limit`` would cut it
at a commit, on the loop, and cutting 3.8 GB there held the loop for 958 ms (docs/server-load.md, sixteenth
round)."""
SQLITE_TIME: Final = "%Y-%m-%d %H:%M:%S.%f"
"""How SQLAlchemy writes a time into SQLite, so that the rows read back the same whoever wrote them."""


@dataclass(frozen=True)
class StoredAction:
    """One row of a game's log."""

    seq: int
    deal_index: int
    seat: int
    action: str
    reason: str | None = None


@dataclass(frozen=True)
class Progress:
    """The summary columns of the game row written with an action."""

    finished: bool
    totals: list[int]
    winners: list[int] | None


@dataclass(frozen=True)
class NewGame:
    """What a new game row needs."""

    deal_number: int
    rules: dict[str, Any]
    first_dealer: int
    seats: list[dict[str, Any]]
    owner: str
    replay_of: int | None = None
    practice: bool = False
    """The number was chosen (New game's number, Play these cards again): the series earns nothing."""
    deal_salt: str = field(default_factory=new_salt)
    """The salt of the number's commitment (:mod:`ohhell.commitment`)."""


@dataclass(frozen=True)
class AppendAction:
    """Write one action at the end of a game's log (its ``seq`` must be the next one), with the game's progress
    when it changes what the list of games shows (the end of a hand, of the game); ``action_count`` goes with it."""

    game_id: int
    action: StoredAction
    progress: Progress | None = None


@dataclass(frozen=True)
class ChangeGame:
    """Set some columns of a game row (Next hand's ``shown_deal``, giving up's ``resigned`` and progress)."""

    game_id: int
    values: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class CreateGame:
    """Insert a game row; the write's result is its id."""

    game: NewGame


Write = AppendAction | ChangeGame | CreateGame

GAME_COLUMNS: Final = frozenset({"shown_deal", "action_count", "finished", "totals", "winners", "resigned", "seats"})
"""The game row's columns a write may change (besides ``updated_at``)."""
JSON_COLUMNS: Final = frozenset({"rules", "seats", "totals", "winners"})


class ConflictError(RuntimeError):
    """The write breaks a constraint: the log already has that position (another process wrote it)."""


def progress_values(progress: Progress) -> tuple[tuple[str, Any], ...]:
    """The game row's columns that :class:`Progress` sets."""
    return (("finished", progress.finished), ("totals", progress.totals), ("winners", progress.winners))


@dataclass
class _Plan:
    """A batch as statements: the new games (in order), the action rows, each game's changed columns."""

    creates: list[tuple[int, NewGame]]
    actions: list[AppendAction]
    changes: dict[int, dict[str, Any]]


def _plan(writes: Sequence[Write]) -> _Plan:
    plan = _Plan([], [], {})
    for index, write in enumerate(writes):
        if isinstance(write, CreateGame):
            plan.creates.append((index, write.game))
            continue
        if isinstance(write, AppendAction):
            plan.actions.append(write)
            if write.progress is None:
                continue
            change = plan.changes.setdefault(write.game_id, {})
            change["action_count"] = write.action.seq + 1
            change.update(progress_values(write.progress))
        else:
            change = plan.changes.setdefault(write.game_id, {})
            change.update(write.values)
        if not GAME_COLUMNS.issuperset(change):
            raise ValueError(f"a game row has no columns {sorted(set(change) - GAME_COLUMNS)}")
    return plan


_INSERT_GAME: Final = (
    "INSERT INTO games (created_at, updated_at, deal_number, deal_salt, practice, rules, first_dealer, seats, owner,"
    " shown_deal, action_count, finished, totals, winners, replay_of) VALUES ({}) RETURNING id"
)
_INSERT_ACTION: Final = "INSERT INTO actions (game_id, seq, deal_index, seat, action, reason, created_at) VALUES ({})"


_APPEND_ACTIONS: Final = (
    "INSERT INTO actions (game_id, seq, deal_index, seat, action, reason, created_at)"
    " SELECT g, s, d, t, a, r, %s FROM unnest(%s::integer[], %s::integer[], %s::integer[], %s::integer[], %s::text[],"
    " %s::text[]) AS u(g, s, d, t, a, r)"
)
"""Every row of a batch of actions in one statement (PostgreSQL), its text the same for any number of rows, so that
psycopg prepares it once (after its fifth use) and the server plans it once."""


def _action_arrays(actions: Sequence[AppendAction], now: datetime) -> tuple[Any, ...]:
    """:data:`_APPEND_ACTIONS`'s parameters: the time, then each column's values as one array."""
    return (
        now,
        [w.game_id for w in actions],
        [w.action.seq for w in actions],
        [w.action.deal_index for w in actions],
        [w.action.seat for w in actions],
        [w.action.action for w in actions],
        [w.action.reason for w in actions],
    )


def _update_game(columns: Sequence[str], mark: str) -> str:
    sets = ", ".join(f"{name} = {mark}" for name in (*columns, "updated_at"))
    return f"UPDATE games SET {sets} WHERE id = {mark}"


class _Backend(Protocol):
    busy_tries: int
    log_restarts: int
    longest_restart: float
    restart_waits: float

    def log_bytes(self) -> int: ...

    async def write(self, writes: Sequence[Write]) -> list[int | None]: ...

    async def close(self) -> None: ...


class _Sqlite:
    """SQLite: the batch on the event loop, synced to the disk every few seconds in a thread (or, with
    ``sync_each_commit``, each ``COMMIT`` waiting for the disk in a thread); never a wait inside SQLite for another's
    lock."""

    def __init__(self, path: str, sync_each_commit: bool = False) -> None:
        self.path = path
        self.sync_each_commit = sync_each_commit
        self._connection: sqlite3.Connection | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._written = False
        self._waiter: ThreadPoolExecutor | None = None
        self.busy_tries = 0
        """Batches that found the write lock taken (by another connection) and tried again a little later."""
        self._gate = asyncio.Lock()
        """Held by a batch while it writes, and by a checkpoint that starts the log again while it does."""
        self.log_restarts = 0
        """Times the log was started again from its beginning (for benchmarks)."""
        self.longest_restart = 0.0
        """The longest time, in seconds, the journal's writes waited for the log to start again (for benchmarks)."""
        self.restart_waits = 0.0
        """All the time, in seconds, the journal's writes waited for the log to start again (for benchmarks)."""

    async def _execute_off_loop(self, connection: sqlite3.Connection, statement: str) -> None:
        """Run one statement in the journal's thread; if the caller is cancelled meanwhile, it still ends first."""
        if self._waiter is None:
            self._waiter = ThreadPoolExecutor(1, thread_name_prefix="ohhell-journal")
        future = asyncio.get_running_loop().run_in_executor(self._waiter, connection.execute, statement)
        try:
            await asyncio.shield(future)
        except asyncio.CancelledError:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(future), BUSY_SECONDS)
            raise
        finally:
            # A failed statement's exception holds this frame in its traceback, and the future holds the exception:
            # without this, a cycle kept the whole batch (its actions, their reasons) alive until the collector's next
            # full walk of the old generation (ohhell.site.collector), when a locked database made a write try again.
            del future

    def _open(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA foreign_keys=ON")
            # FULL: a commit is on disk before its moves are announced; NORMAL: in the operating system's hands
            connection.execute(f"PRAGMA synchronous={'FULL' if self.sync_each_commit else 'NORMAL'}")
            connection.execute("PRAGMA cache_size=-1024")
            connection.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run in a thread (_checkpoints), not here
            self._connection = connection
        return self._connection

    async def write(self, writes: Sequence[Write]) -> list[int | None]:
        if self._checkpointer is None or self._checkpointer.done():
            self._checkpointer = asyncio.create_task(self._checkpoints(), name="ohhell-journal-checkpoints")
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            try:
                async with self._gate:
                    results = await self._write_now(writes)
                self._written = True
                return results
            except sqlite3.OperationalError as exc:
                if ("locked" not in str(exc) and "busy" not in str(exc)) or time.monotonic() >= deadline:
                    raise
            self.busy_tries += 1
            await asyncio.sleep(BUSY_PAUSE_SECONDS)

    async def _write_now(self, writes: Sequence[Write]) -> list[int | None]:
        connection = self._open()
        plan = _plan(writes)
        now = utc_now().strftime(SQLITE_TIME)
        results: list[int | None] = [None] * len(writes)
        connection.execute("BEGIN IMMEDIATE")  # timeout 0: it takes the write lock or raises at once, never waits
        try:
            for index, new in plan.creates:
                row = connection.execute(
                    _INSERT_GAME.format(", ".join("?" * 15)),
                    (
                        now,
                        now,
                        new.deal_number,
                        new.deal_salt,
                        new.practice,
                        json.dumps(new.rules),
                        new.first_dealer,
                        json.dumps(new.seats),
                        new.owner,
                        0,
                        0,
                        False,
                        "null",
                        "null",
                        new.replay_of,
                    ),
                ).fetchone()
                results[index] = int(row[0])
            connection.executemany(
                _INSERT_ACTION.format(", ".join("?" * 7)),
                [
                    (w.game_id, w.action.seq, w.action.deal_index, w.action.seat, w.action.action, w.action.reason, now)
                    for w in plan.actions
                ],
            )
            for game_id, values in plan.changes.items():
                columns = sorted(values)
                connection.execute(
                    _update_game(columns, "?"),
                    [*(json.dumps(values[c]) if c in JSON_COLUMNS else values[c] for c in columns), now, game_id],
                )
            if self.sync_each_commit:
                await self._execute_off_loop(connection, "COMMIT")
            else:
                connection.execute("COMMIT")
        except sqlite3.IntegrityError as exc:
            connection.execute("ROLLBACK")
            raise ConflictError(str(exc)) from exc
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        return results

    def log_bytes(self) -> int:
        """The size of the write-ahead log's file now (0 if there is none)."""
        try:
            return os.path.getsize(f"{self.path}-wal")
        except OSError:
            return 0

    async def _checkpoints(self) -> None:
        """Every few seconds after writes, sync the write-ahead log to the disk and move it into the database file,
        in a thread; when the log has grown long, start it again from its beginning.

        A checkpoint copies pages and syncs the file: done by the committing connection (SQLite's default), it
        would hold up the event loop for as long. A ``PASSIVE`` checkpoint copies what was committed when it began,
        while the journal goes on writing; on a busy server there are always new pages by the time it ends, so the
        log never starts again from its beginning (SQLite restarts it only at a write that finds every page of it
        copied) and grows for as long as the load lasts: 1.5 GB in two and a half minutes of a thousand games
        (docs/server-load.md, sixteenth round), each new page a block the file system must find. So when the log
        is longer than :data:`RESTART_FRAMES` after the ``PASSIVE`` checkpoint, the journal's batches wait (they
        gather meanwhile) while a ``RESTART`` checkpoint copies the few pages written since and makes the next
        write start the log again, over the same file (a file longer than :data:`LOG_LIMIT_BYTES` is cut to nothing
        instead, ``TRUNCATE``).
        """
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            if not self._written:
                continue
            self._written = False
            try:
                _, frames = await asyncio.to_thread(self._checkpoint, "PASSIVE")
                if frames > RESTART_FRAMES:
                    async with self._gate:
                        began = time.monotonic()
                        mode = "TRUNCATE" if self.log_bytes() > LOG_LIMIT_BYTES else "RESTART"
                        restarted, _ = await asyncio.to_thread(self._checkpoint, mode)
                        waited = time.monotonic() - began
                    self.longest_restart = max(self.longest_restart, waited)
                    self.restart_waits += waited
                    self.log_restarts += restarted
            except sqlite3.Error:
                log.warning("journal: a checkpoint of %s failed; the next one tries again", self.path, exc_info=True)

    def _checkpoint(self, mode: str) -> tuple[bool, int]:
        """Checkpoint the log (``PASSIVE``, ``RESTART`` or ``TRUNCATE``): whether it ran to its end, and the pages the
        log holds."""
        if mode == "PASSIVE":  # first: what was committed is on the disk even if the checkpoint cannot copy it yet
            sync_log(self.path)
        connection = sqlite3.connect(self.path, timeout=BUSY_SECONDS)
        try:
            busy, frames, _copied = connection.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        finally:
            connection.close()
        return not busy, int(frames)

    async def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            await asyncio.gather(self._checkpointer, return_exceptions=True)
            self._checkpointer = None
        if self._connection is not None:
            if self._written:
                with contextlib.suppress(sqlite3.Error, OSError):
                    sync_log(self.path)
                    self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self._connection.close()
            self._connection = None
        if self._waiter is not None:
            self._waiter.shutdown(wait=True)
            self._waiter = None


def sync_log(path: str) -> None:
    """Wait until the database's write-ahead log is on the disk (the commits of ``synchronous=NORMAL`` so far)."""
    try:
        descriptor = os.open(f"{path}-wal", os.O_RDONLY)
    except FileNotFoundError:  # no log yet, or the last connection closed and folded it in
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class _Postgres:
    """PostgreSQL through psycopg's asyncio connection: one transaction per batch; a batch of actions alone is a
    single ``INSERT`` committed by itself (:meth:`_append_alone`)."""

    def __init__(self, conninfo: str, connect_args: dict[str, Any]) -> None:
        self.conninfo = conninfo
        self.connect_args = connect_args
        self._connection: Any = None
        self.busy_tries = 0
        """Always 0: a PostgreSQL transaction waits for the rows it needs inside the server."""
        self.log_restarts = 0
        self.longest_restart = self.restart_waits = 0.0
        """Always 0: PostgreSQL keeps its own log."""

    def log_bytes(self) -> int:
        return 0

    async def _open(self) -> Any:
        import psycopg

        if self._connection is None or self._connection.closed:
            # autocommit: a batch of actions alone is one statement, committed by itself in one round trip; any other
            # batch opens its transaction explicitly (``connection.transaction()``: BEGIN ... COMMIT)
            self._connection = await psycopg.AsyncConnection.connect(
                self.conninfo, **{**self.connect_args, "autocommit": True}
            )
        return self._connection

    async def write(self, writes: Sequence[Write]) -> list[int | None]:
        import psycopg
        from psycopg.types.json import Json

        connection = await self._open()
        plan = _plan(writes)
        now: datetime = utc_now()
        results: list[int | None] = [None] * len(writes)
        try:
            if not plan.creates and not plan.changes:
                await self._append_alone(connection, plan.actions, now)
                return results
            async with connection.transaction(), connection.cursor() as cursor:
                for index, new in plan.creates:
                    await cursor.execute(
                        _INSERT_GAME.format(", ".join(["%s"] * 15)),
                        (
                            now,
                            now,
                            new.deal_number,
                            new.deal_salt,
                            new.practice,
                            Json(new.rules),
                            new.first_dealer,
                            Json(new.seats),
                            new.owner,
                            0,
                            0,
                            False,
                            None,
                            None,
                            new.replay_of,
                        ),
                    )
                    row = await cursor.fetchone()
                    results[index] = int(row[0])
                if plan.actions:
                    await cursor.execute(_APPEND_ACTIONS, _action_arrays(plan.actions, now))
                for game_id, values in plan.changes.items():
                    columns = sorted(values)
                    await cursor.execute(
                        _update_game(columns, "%s"),
                        [*(Json(values[c]) if c in JSON_COLUMNS else values[c] for c in columns), now, game_id],
                    )
        except psycopg.errors.IntegrityError as exc:
            raise ConflictError(str(exc)) from exc
        except psycopg.OperationalError:
            await self.close()  # a broken connection is opened afresh by the next write
            raise
        return results

    @staticmethod
    async def _append_alone(connection: Any, actions: Sequence[AppendAction], now: datetime) -> None:
        """A batch of actions and nothing else: one ``INSERT`` of every row, its own transaction (autocommit), so one
        round trip to the server where ``BEGIN``, the rows and ``COMMIT`` took three (about 2% of two processes'
        CPU an action, docs/server-load.md, twenty-third round). A statement is atomic: all its rows or none."""
        await connection.execute(_APPEND_ACTIONS, _action_arrays(actions, now))

    async def close(self) -> None:
        if self._connection is not None:
            try:
                await self._connection.close()
            finally:
                self._connection = None


def _backend(url: str, connect_args: dict[str, Any], sync_each_commit: bool = False) -> _Backend:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _Sqlite(parsed.database or ":memory:", sync_each_commit)
    if parsed.get_backend_name() == "postgresql":
        return _Postgres(parsed.set(drivername="postgresql").render_as_string(hide_password=False), connect_args)
    raise ValueError(f"unsupported database {parsed.get_backend_name()!r}: use a sqlite:/// or postgresql:// URL")


class Journal:
    """Group-committing writer of one database. :meth:`submit` a write; :meth:`close` when done.

    ``connect_args`` go to the PostgreSQL connection (the tests confine themselves to a schema with ``options``).
    """

    def __init__(self, url: str, connect_args: dict[str, Any] | None = None, *, sync_each_commit: bool = False) -> None:
        self._backend = _backend(url, dict(connect_args or {}), sync_each_commit)
        self._pending: list[tuple[Write, asyncio.Future[int | None]]] = []
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._writing = False
        self.batches = 0
        """Transactions committed so far (for benchmarks and tests)."""

    @property
    def busy_tries(self) -> int:
        """Batches that found SQLite's write lock held by another connection and tried again (for benchmarks)."""
        return self._backend.busy_tries

    def log_figures(self) -> dict[str, float]:
        """SQLite's write-ahead log (for benchmarks): its file's size now, how many times it started again from its
        beginning, and the longest and the total time the writes waited for that (0 on PostgreSQL)."""
        backend = self._backend
        return {
            "journal_log_bytes": backend.log_bytes(),
            "journal_log_restarts": backend.log_restarts,
            "journal_restart_max_ms": round(1000 * backend.longest_restart, 1),
            "journal_restart_total_ms": round(1000 * backend.restart_waits, 1),
        }

    async def submit(self, write: Write) -> int | None:
        """Write ``write``; return once it is committed (its result: a new game's id, else ``None``).

        Raises :class:`ConflictError`, or what the database raised, if the write was not made.
        """
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches(), name="ohhell-journal")
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._pending.append((write, future))
        self._wake.set()
        # Awaited bare, not through a shield: a shield's second future costs the waiting table a turn of the loop
        # (docs/server-load.md, twentieth round). A caller cancelled meanwhile cancels only this future, which the
        # writer passes over (settle_in_slices); its write is made or not with its batch all the same.
        return await future

    async def _write_batches(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            # No turn of the loop more for later writes to join: the batch holds what the turn before handed in, and
            # a turn more cost every write that turn, for batches only a little larger (docs/server-load.md, twentieth
            # round: 4.1-5.0 actions a batch with it, 3.2-6.1 without, and no more of the server's CPU per action).
            while self._pending:
                batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
                self._writing = True
                try:
                    results = await self._write([write for write, _ in batch])
                finally:
                    self._writing = False
                # the tables waiting on this batch go on a slice per turn of the loop, not all in one
                settle_in_slices([(future, result) for (_, future), result in zip(batch, results, strict=True)])
                if self._pending:  # a batch's work is the loop's (SQLite): other work runs before the next one
                    await asyncio.sleep(0)

    async def _write(self, writes: Sequence[Write]) -> Sequence[int | BaseException | None]:
        """The whole batch in one transaction, or each write alone after a conflict; a failure fails them all."""
        try:
            results: Sequence[int | BaseException | None] = await self._backend.write(writes)
            self.batches += 1
            return results
        except ConflictError as conflict:
            if len(writes) == 1:
                return [conflict]
        except Exception as exc:
            return [exc] * len(writes)
        alone: list[int | BaseException | None] = []
        for write in writes:
            try:
                alone.extend(await self._backend.write([write]))
                self.batches += 1
            except Exception as exc:
                alone.append(exc)
        return alone

    async def reconnect(self) -> None:
        """Drop the connection (between batches); the next write opens a new one."""
        while self._writing:
            await asyncio.sleep(0.01)
        await self._backend.close()

    async def close(self) -> None:
        """Finish the writes already submitted, then release the connection."""
        while (self._pending or self._writing) and self._writer is not None and not self._writer.done():
            await asyncio.sleep(0.01)
        if self._writer is not None:
            self._writer.cancel()
            await asyncio.gather(self._writer, return_exceptions=True)
        await self._backend.close()
