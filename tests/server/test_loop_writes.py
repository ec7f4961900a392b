"""The small writes of every series' end (:class:`ohhell.web.database.LoopWrites`): on a SQLite file straight on the
event loop in one transaction, so that the game's journal never finds SQLite's write lock taken by them; tried again
while another process holds the lock, without holding up the loop; in an async session on PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.orm import Session

from ohhell.actions import action_text
from ohhell.club.results import PersonResult, person_results
from ohhell.club.store import ClubStore
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.storage.store import NewGame, Progress, Store, StoredAction
from ohhell.server.table.results import series_result
from ohhell.site import schema
from ohhell.web.database import LoopWrites, create_server_engine
from server.serving import POSTGRES, run_async

NOW = datetime(2026, 12, 4, tzinfo=UTC)
SEATS: list[dict[str, Any]] = [{"name": "You", "kind": "human", "player": "key-0"}] + [
    {"name": name, "kind": "computer", "level": "normal"} for name in ("Alice", "Bob", "Carol")
]


def checkouts_of(engine: Any) -> list[int]:
    """A list that grows by one at every connection the async engine hands out."""
    counted: list[int] = []
    event.listen(engine.sync_engine, "checkout", lambda *_: counted.append(1))
    return counted


def results_of_game(game_id: int, number: int) -> list[PersonResult]:
    """The person's result of a series of ``short`` played out at random from deal ``number``."""
    game = Game(Rules.preset("short"), number)
    chooser = random.Random(number)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()))
    return person_results(series_result(game, SEATS, game_id, NOW))


def stored_results(path: Path) -> int:
    with sqlite3.connect(path) as connection:
        return int(connection.execute("SELECT count(*) FROM series_results").fetchone()[0])


def test_a_series_result_is_stored_on_the_loop_without_the_async_engine_and_only_once(tmp_path: Path) -> None:
    path = tmp_path / "site.sqlite3"
    schema.upgrade(f"sqlite:///{path}")

    async def scenario() -> tuple[bool, int, int, int]:
        club = ClubStore(f"sqlite:///{path}")
        counted = checkouts_of(club.engine)
        try:
            first = await club.store_results(results_of_game(1, 11))
            again = await club.store_results(results_of_game(1, 11))  # a second call for the same game: nothing new
            return club._writes.on_loop, first, again, len(counted)
        finally:
            await club.close()

    on_loop, first, again, checkouts = run_async(scenario)
    assert on_loop
    assert (first, again) == (1, 0)
    assert checkouts == 0  # no connection of aiosqlite's was used
    assert stored_results(path) == 1


def test_a_write_that_fails_leaves_nothing_behind(tmp_path: Path) -> None:
    path = tmp_path / "site.sqlite3"
    url = f"sqlite:///{path}"
    schema.upgrade(url)

    async def scenario() -> None:
        engine = create_server_engine(url)
        writes = LoopWrites(url, async_sessionmaker(engine))

        def half_then_fail(session: Session) -> None:
            session.execute(text("INSERT INTO retired_player_keys (player_key, retired_at) VALUES ('k', '2026-12-04')"))
            raise ValueError("the second half of the write is refused")

        try:
            with pytest.raises(ValueError, match="second half"):
                await writes(half_then_fail)
        finally:
            writes.close()
            await engine.dispose()

    run_async(scenario)
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT count(*) FROM retired_player_keys").fetchone()[0] == 0


def test_a_write_waits_off_the_loop_while_another_process_holds_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "site.sqlite3"
    schema.upgrade(f"sqlite:///{path}")

    async def scenario() -> tuple[int, float, int, float]:
        club = ClubStore(f"sqlite:///{path}")
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process's write lock, held for 0.3 s
        ticks = 0
        longest = 0.0

        async def ticker() -> None:
            nonlocal ticks, longest
            last = time.monotonic()
            while True:
                await asyncio.sleep(0.005)
                now = time.monotonic()
                longest, last, ticks = max(longest, now - last), now, ticks + 1

        async def let_go() -> None:
            await asyncio.sleep(0.3)
            holder.execute("COMMIT")
            holder.close()

        watching = asyncio.create_task(ticker())
        releasing = asyncio.create_task(let_go())
        started = time.monotonic()
        try:
            added = await club.store_results(results_of_game(2, 12))
            waited = time.monotonic() - started
            await releasing
            return added, waited, ticks, longest
        finally:
            watching.cancel()
            await club.close()

    added, waited, ticks, longest = run_async(scenario)
    assert added == 1
    assert waited >= 0.25  # it waited for the lock to be let go
    assert ticks >= 10  # and the loop went on meanwhile: the write never waited inside SQLite
    assert longest < 0.25


def test_the_journal_never_finds_the_lock_taken_by_the_results_of_series_ending_beside_its_moves(
    tmp_path: Path,
) -> None:
    """Forty series end while a game's moves are written: through aiosqlite, each result held SQLite's write lock
    across hops to a thread, and the journal's batches found it taken and waited 20 ms."""
    path = tmp_path / "site.sqlite3"
    url = f"sqlite:///{path}"
    schema.upgrade(url)

    async def scenario() -> tuple[int, int, int]:
        store = Store(url)
        club = ClubStore(url)
        try:
            rules = Rules.preset("short")
            games = []
            for index in range(4):
                seats = [{**SEATS[0], "player": f"key-{index}"}, *SEATS[1:]]
                new = NewGame(deal_number=42, rules=rules.to_json(), first_dealer=0, seats=seats, owner=f"key-{index}")
                games.append((await store.create_game(new)).id)

            async def moves(game_id: int) -> None:
                game = Game(rules, number=42)
                seq = 0
                while not game.is_over and seq < 60:
                    seat, action, deal_index = game.to_act, game.legal_actions()[0], game.deal_index
                    game.apply(action, seat)
                    stored = StoredAction(seq, deal_index, seat, action_text(action))
                    await store.append_action(game_id, stored, Progress(game.is_over, list(game.totals), game.winners))
                    seq += 1

            async def series_ending() -> int:
                added = 0
                for number in range(40):
                    added += await club.store_results(results_of_game(1000 + number, 100 + number))
                    await asyncio.sleep(0)
                return added

            ending = asyncio.create_task(series_ending())
            await asyncio.gather(*(moves(g) for g in games))
            return await ending, store.journal.busy_tries, store.journal.batches
        finally:
            await club.close()
            await store.close()

    added, busy, batches = run_async(scenario)
    assert added == 40 and stored_results(path) == 40
    assert batches > 0
    assert busy == 0, f"the journal found the lock taken {busy} times in {batches} batches"


def test_on_postgresql_a_write_runs_in_an_async_session_and_is_committed() -> None:
    url = f"{POSTGRES}/test"

    async def scenario() -> tuple[bool, int, int]:
        engine = create_server_engine(url)
        counted = checkouts_of(engine)
        writes = LoopWrites(url, async_sessionmaker(engine))

        def write(session: Session) -> int:
            session.execute(text("CREATE TEMPORARY TABLE loop_writes_check (n integer) ON COMMIT DROP"))
            session.execute(text("INSERT INTO loop_writes_check VALUES (41)"))
            return int(session.execute(text("SELECT n + 1 FROM loop_writes_check")).scalar_one())

        try:
            return writes.on_loop, await writes(write), len(counted)
        finally:
            writes.close()
            await engine.dispose()

    on_loop, answer, checkouts = run_async(scenario)
    assert not on_loop and answer == 42 and checkouts == 1


def test_with_each_commit_synced_a_write_goes_the_async_way_and_is_on_disk(tmp_path: Path) -> None:
    """``ohhell serve --sync-each-commit``: no commit waits for the disk on the loop, so the writes take aiosqlite's
    thread, whose connections sync every commit (``synchronous=FULL``, SQLite's own default)."""
    path = tmp_path / "site.sqlite3"
    schema.upgrade(f"sqlite:///{path}")

    async def scenario() -> tuple[bool, int, int]:
        club = ClubStore(f"sqlite:///{path}", sync_each_commit=True)
        counted = checkouts_of(club.engine)
        try:
            return club._writes.on_loop, await club.store_results(results_of_game(3, 13)), len(counted)
        finally:
            await club.close()

    on_loop, added, checkouts = run_async(scenario)
    assert not on_loop and added == 1 and checkouts >= 1
    assert stored_results(path) == 1
