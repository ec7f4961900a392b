"""The one writer of the game tables in a process: many tables' writes in one transaction (group commit).

Every write a table makes (an action with the game's progress, Next hand, giving up, a new game) is handed to
:meth:`Journal.submit`, which returns once the write is committed: an action is announced only after that, so a
crash never loses one that was acknowledged. One thread of its own holds the database connection; while it
commits a batch, the writes that arrive meanwhile gather into the next one, so a busy server commits hundreds of
actions per transaction and a quiet one commits each at once. The statements are SQLAlchemy Core (an
``executemany`` insert of the actions, one update per game), with none of the ORM's per-row work.

A batch that breaks a constraint (a second writer of the same ``seq``) is written again one write at a time, so
that only the offending write fails. Any other failure (a locked or missing database) fails every write of the
batch; the callers decide whether to try again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Connection, Table, bindparam, insert, update
from sqlalchemy.exc import IntegrityError

from ohhell.server.models import ActionRow, GameRow
from ohhell.web.database import create_sync_engine
from ohhell.web.models import utc_now

log = logging.getLogger(__name__)

MAX_BATCH: Final = 2000
"""The most writes one transaction takes."""
SQLITE_BUSY_SECONDS: Final = 2.0
"""How long a write waits for another process's lock on a SQLite file before it fails (and is tried again)."""

ACTIONS: Final[Table] = ActionRow.__table__  # type: ignore[assignment]
GAMES: Final[Table] = GameRow.__table__  # type: ignore[assignment]


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


@dataclass(frozen=True)
class AppendAction:
    """Write one action at the end of a game's log (its ``seq`` must be the next one) and the game's progress."""

    game_id: int
    action: StoredAction
    progress: Progress


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


def progress_values(progress: Progress) -> tuple[tuple[str, Any], ...]:
    """The game row's columns that :class:`Progress` sets."""
    return (("finished", progress.finished), ("totals", progress.totals), ("winners", progress.winners))


def _run(connection: Connection, writes: Sequence[Write]) -> list[int | None]:
    """Perform ``writes`` in order on ``connection`` (inside its transaction); the results by write."""
    now = utc_now()
    results: list[int | None] = []
    actions: list[dict[str, Any]] = []
    changes: dict[int, dict[str, Any]] = {}
    for write in writes:
        if isinstance(write, CreateGame):
            new = write.game
            row = {
                "created_at": now,
                "updated_at": now,
                "deal_number": new.deal_number,
                "rules": new.rules,
                "first_dealer": new.first_dealer,
                "seats": new.seats,
                "owner": new.owner,
                "shown_deal": 0,
                "action_count": 0,
                "finished": False,
                "replay_of": new.replay_of,
            }
            results.append(connection.execute(insert(GAMES).returning(GAMES.c.id), row).scalar_one())
            continue
        results.append(None)
        change = changes.setdefault(write.game_id, {})
        if isinstance(write, AppendAction):
            action = write.action
            actions.append(
                {
                    "game_id": write.game_id,
                    "seq": action.seq,
                    "deal_index": action.deal_index,
                    "seat": action.seat,
                    "action": action.action,
                    "reason": action.reason,
                    "created_at": now,
                }
            )
            change["action_count"] = action.seq + 1
            change.update(progress_values(write.progress))
        else:
            change.update(write.values)
    if actions:
        connection.execute(insert(ACTIONS), actions)
    for columns, rows in _grouped(changes, now):
        statement = (
            update(GAMES).where(GAMES.c.id == bindparam("game_id_")).values({name: bindparam(name) for name in columns})
        )
        connection.execute(statement, rows)
    return results


def _grouped(changes: dict[int, dict[str, Any]], now: Any) -> Iterable[tuple[tuple[str, ...], list[dict[str, Any]]]]:
    """The game-row updates, grouped by the columns they set (one ``executemany`` each)."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for game_id, values in changes.items():
        row = {**values, "updated_at": now}
        groups.setdefault(tuple(sorted(row)), []).append({**row, "game_id_": game_id})
    return groups.items()


class Journal:
    """Group-committing writer of one database. :meth:`submit` a write; :meth:`close` when done."""

    def __init__(self, url: str, **engine_options: Any) -> None:
        options = dict(engine_options)
        if url.startswith("sqlite"):
            options.setdefault("connect_args", {}).setdefault("timeout", SQLITE_BUSY_SECONDS)
        self.engine = create_sync_engine(url, pool_size=1, max_overflow=0, **options)
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="ohhell-journal")
        self._pending: list[tuple[Write, asyncio.Future[int | None]]] = []
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._writing = False
        self.batches = 0
        """Transactions committed so far (for benchmarks and tests)."""

    async def submit(self, write: Write) -> int | None:
        """Write ``write``; return once it is committed (its result: a new game's id, else ``None``).

        Raises what the database raised if the write was not made.
        """
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches(), name="ohhell-journal")
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._pending.append((write, future))
        self._wake.set()
        return await asyncio.shield(future)

    async def _write_batches(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
                writes = [write for write, _ in batch]
                self._writing = True
                try:
                    results: list[int | BaseException | None] = list(
                        await loop.run_in_executor(self._thread, self._write, writes)
                    )
                except Exception as exc:
                    results = [exc] * len(batch)
                finally:
                    self._writing = False
                for (_, future), result in zip(batch, results, strict=True):
                    if future.done():
                        continue
                    if isinstance(result, BaseException):
                        future.set_exception(result)
                    else:
                        future.set_result(result)

    def _write(self, writes: Sequence[Write]) -> Sequence[int | BaseException | None]:
        """In the journal's thread: the whole batch in one transaction, or each write alone after a conflict."""
        try:
            with self.engine.begin() as connection:
                results = _run(connection, writes)
            self.batches += 1
            return results
        except IntegrityError:
            if len(writes) == 1:
                raise
        alone: list[int | BaseException | None] = []
        for write in writes:
            try:
                with self.engine.begin() as connection:
                    alone.extend(_run(connection, [write]))
                self.batches += 1
            except Exception as exc:
                alone.append(exc)
        return alone

    async def reconnect(self) -> None:
        """Drop the connection (in the journal's thread, between batches); the next write opens a new one."""
        await asyncio.get_running_loop().run_in_executor(self._thread, self.engine.dispose)

    async def close(self) -> None:
        """Finish the writes already submitted, then release the connection."""
        while (self._pending or self._writing) and self._writer is not None and not self._writer.done():
            await asyncio.sleep(0.01)
        if self._writer is not None:
            self._writer.cancel()
            await asyncio.gather(self._writer, return_exceptions=True)
        await asyncio.get_running_loop().run_in_executor(self._thread, self.engine.dispose)
        self._thread.shutdown(wait=True)
