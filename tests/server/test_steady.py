"""The server in steady state: series end and new ones begin without holding the event loop up (issue 24).

The server measures its own loop (:mod:`ohhell.site.loopwatch`, read at ``/api/server-stats``); these tests put
a small load on a real ``ohhell serve`` (people each playing series after series at full speed, their tables let go
a second after they leave) and read how long the loop was held up meanwhile: what the server measured, not the
wall time of the test. The bound is generous for a loaded machine of two cores (what the loop's thread spent
waiting for a core is not counted, where Linux tells it); the figures themselves are in docs/server-load.md.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Final

import httpx
import pytest

from ohhell.site.loopwatch import LoopWatch
from server.seriesplay import play_series
from server.serving import RunningServer, player, run_async, start_game

BUSY_BOUND_MS: Final = 100.0
"""The longest the loop's thread may work on a core while the loop is late (a callback, a collection)."""
STUCK_BOUND_MS: Final = 150.0
"""The longest it may be held up by anything but the machine's load: its own work and its own waits (a sleep, the
disk, a lock), what the loop's thread and the process's other threads waited for a core taken off."""
HELD_BOUND_MS: Final = 150.0
"""The longest a single callback may hold the loop (its work and its own waits, its waits for a core taken off;
waits for the interpreter lock while another thread of the process waits for a core are in it, hence the room)."""
PEOPLE: Final = 10
SERIES_EACH: Final = 2


@pytest.fixture
def steady_server(tmp_path: Path) -> Any:
    """A server on a SQLite file of its own that lets a table go one second after it was last used, behind a proxy
    on this machine as far as it knows (``--trusted-proxy 127.0.0.1``: a forwarded address counts)."""
    server = RunningServer(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        animation_scale=0,
        log_path=tmp_path / "server.log",
        extra=["--idle-seconds", "1", "--trusted-proxy", "127.0.0.1"],
    ).start()
    yield server
    server.stop()


@pytest.fixture
def timed_server(tmp_path: Path) -> Any:
    """The same on asyncio's loop with each callback timed (``--time-callbacks``, :mod:`ohhell.site.callbacktimes`)."""
    server = RunningServer(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        animation_scale=0,
        log_path=tmp_path / "server.log",
        extra=["--idle-seconds", "1", "--trusted-proxy", "127.0.0.1", "--time-callbacks"],
    ).start()
    yield server
    server.stop()


def server_stats(server: RunningServer) -> dict[str, Any]:
    response = httpx.get(f"{server.url}/api/server-stats", timeout=10)
    response.raise_for_status()
    stats: dict[str, Any] = response.json()
    return stats


async def series_after_series(server: RunningServer, client: httpx.Client) -> int:
    """One person playing :data:`SERIES_EACH` series, each in a new game as the last one ends; how many ended."""
    ended = 0
    for _ in range(SERIES_EACH):
        game = await asyncio.to_thread(start_game, client)
        state = await asyncio.wait_for(play_series(server, game["id"], client), 120)
        ended += bool(state["game"]["over"])
    return ended


def series_under_a_small_load(server: RunningServer) -> tuple[dict[str, Any], dict[str, Any]]:
    """:data:`PEOPLE` people each playing :data:`SERIES_EACH` series at full speed: the server's figures before and
    after, once every series ended and began as it should."""
    clients = [player(server) for _ in range(PEOPLE)]
    before = server_stats(server)

    async def everyone() -> list[int]:
        return list(await asyncio.gather(*(series_after_series(server, c) for c in clients)))

    ended = run_async(everyone)
    after = server_stats(server)
    for client in clients:
        client.close()
    assert sum(ended) == PEOPLE * SERIES_EACH
    assert after["tables"]["ended"] - before["tables"]["ended"] == PEOPLE * SERIES_EACH
    assert after["tables"]["started"] - before["tables"]["started"] == PEOPLE * SERIES_EACH
    return before, after


def test_series_end_and_begin_without_holding_up_the_loop(steady_server: RunningServer) -> None:
    """Twenty series end and twenty begin under a small load, and no callback holds the loop past the bounds.

    Shown to fail (2026-12-01, busy shared machine, load average 3.6-6): with a ``time.sleep(0.2)`` put back into
    ``Tables._series_ended`` (the code that runs on the loop when a series ends) and the wheel reinstalled, the
    test failed with the loop stuck 595 ms (series ending back to back), the stall site naming
    ``_series_ended [S hrtimer_nanosleep]``; with it taken out again it passed three times in a row, stuck 14, 18
    and 17 ms at most, and once more at 7 ms with four more processes spinning on the two cores.
    """
    before, after = series_under_a_small_load(steady_server)
    loop = after["loop"]
    assert loop["ticks"] > before["loop"]["ticks"]  # the loop was measured all along
    figures = {key: loop[key] for key in ("lag_max_ms", "held_max_ms", "busy_max_ms", "stuck_max_ms")}
    print(f"the loop at worst: {figures}")  # shown with -s, and in the report of a failure
    where = f"{figures}; where: {loop['stall_sites'][:5]}; collections: {loop['gc']}"
    assert loop["busy_max_ms"] <= BUSY_BOUND_MS, f"the event loop worked {loop['busy_max_ms']} ms at once; {where}"
    assert loop["stuck_max_ms"] <= STUCK_BOUND_MS, f"the event loop was stuck {loop['stuck_max_ms']} ms; {where}"
    # The old generation is the server's to walk (ohhell.site.collector): every collection of it while series ended
    # and began was one the server chose on memory growth, none CPython's rule of survivors set off.
    assert after["old_generation"]["on_growth"]
    walks = after["old_generation"]["walks"] - before["old_generation"]["walks"]
    assert loop["gc"]["collections"][2] - before["loop"]["gc"]["collections"][2] == walks, where


def test_no_single_callback_holds_the_loop_long_while_series_end_and_begin(timed_server: RunningServer) -> None:
    """The same small load on asyncio's loop, each callback timed on its own: the single piece of work, where the
    loop watch above times a turn of the loop. No callback works on a core past :data:`BUSY_BOUND_MS`, nor holds
    the loop past :data:`HELD_BOUND_MS` (its waits for a core taken off).

    Shown to fail (2026-12-08): with a ``time.sleep(0.2)`` put into ``Tables._series_ended`` in the installed
    package, the longest callback held the loop 201.2 ms (30.8 ms on a core, 21 callbacks of 20 ms or more); taken
    out again, 25.3 ms (23.9 on a core).
    """
    before, after = series_under_a_small_load(timed_server)
    callbacks = after["callbacks"]
    assert callbacks["callbacks"] > before["callbacks"]["callbacks"]  # every callback was timed all along
    figures = {key: callbacks[key] for key in ("held_max_ms", "wall_max_ms", "cpu_max_ms", "slow")}
    print(f"single callbacks at worst: {figures}")  # shown with -s, and in the report of a failure
    where = f"{figures}; the longest: {callbacks['longest'][:5]}"
    assert callbacks["cpu_max_ms"] <= BUSY_BOUND_MS, f"a callback worked {callbacks['cpu_max_ms']} ms; {where}"
    assert callbacks["held_max_ms"] <= HELD_BOUND_MS, f"a callback held the loop {callbacks['held_max_ms']} ms; {where}"


def test_the_stats_are_for_this_machine_only(steady_server: RunningServer) -> None:
    stats = server_stats(steady_server)
    assert {"lag_max_ms", "held_max_ms", "busy_max_ms", "stuck_max_ms", "windows", "gc", "stall_sites"} <= set(
        stats["loop"]
    )
    assert {"live", "started", "ended", "let_go"} <= set(stats["tables"])
    assert stats["callbacks"] is None  # single callbacks are timed only on asyncio's loop (--time-callbacks)
    forwarded = httpx.get(
        f"{steady_server.url}/api/server-stats", headers={"X-Forwarded-For": "203.0.113.9"}, timeout=10
    )
    assert forwarded.status_code == 404  # a request a proxy on this machine passed on from elsewhere


def test_the_watch_measures_work_that_holds_the_loop_and_says_where() -> None:
    watch = LoopWatch()

    async def held_up() -> dict[str, Any]:
        watch.start()
        try:
            await asyncio.sleep(0.05)
            time.sleep(0.15)  # a callback that holds the loop: no tick can run meanwhile
            gc.collect()
            await asyncio.sleep(0.05)
        finally:
            watch.stop()
        return watch.stats()

    stats = asyncio.run(held_up())
    assert stats["held_max_ms"] >= 100.0  # the loop's thread slept: no wait for a core to take away
    assert stats["busy_max_ms"] < stats["held_max_ms"] or not stats["core_wait_known"]  # and worked little
    assert stats["lag_max_ms"] >= stats["held_max_ms"]
    assert stats["stuck_max_ms"] >= 100.0  # no other thread of the process waited for a core meanwhile
    assert stats["windows"] and max(w["held_max_ms"] for w in stats["windows"]) == stats["held_max_ms"]
    assert any("held_up" in site["stack"] for site in stats["stall_sites"]), stats["stall_sites"]
    assert stats["gc"]["collections"][2] >= 1
    gc.collect()
    assert watch.stats()["gc"]["collections"] == stats["gc"]["collections"]  # stopped: no longer told


def test_the_watch_never_reads_the_frames_of_the_loops_thread_from_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """On CPython 3.11 a thread walking another's frames (``sys._current_frames()``, ``f_back``) can crash the
    interpreter (``PyFrame_GetBack``: a server crashed so in a soak): the loop's thread notes its own stack."""

    def forbidden() -> dict[int, Any]:
        raise AssertionError("the watching thread read the frames of another thread")

    monkeypatch.setattr(sys, "_current_frames", forbidden)
    watch = LoopWatch()

    def works_in_python(seconds: float) -> int:
        until, turns = time.perf_counter() + seconds, 0
        while time.perf_counter() < until:  # Python code holding the loop, not a call into C
            turns += 1
        return turns

    async def held_up() -> dict[str, Any]:
        watch.start()
        try:
            await asyncio.sleep(0.05)
            works_in_python(0.15)
            await asyncio.sleep(0.05)
        finally:
            watch.stop()
        return watch.stats()

    stats = asyncio.run(held_up())
    assert watch.stacks_noted is False  # stopped: the signal's handler given back
    assert any("works_in_python" in site["stack"] for site in stats["stall_sites"]), stats["stall_sites"]


def test_the_watch_tells_the_loops_own_work_from_its_waits() -> None:
    watch = LoopWatch()

    async def works() -> dict[str, Any]:
        watch.start()
        try:
            await asyncio.sleep(0.05)
            until = time.thread_time() + 0.15
            while time.thread_time() < until:  # a callback that works 150 ms on a core, however long that takes
                pass
            await asyncio.sleep(0.05)
        finally:
            watch.stop()
        return watch.stats()

    stats = asyncio.run(works())
    if not stats["core_wait_known"]:
        pytest.skip("this system does not say how long a thread waited for a core")
    assert stats["busy_max_ms"] >= 100.0
    assert stats["held_max_ms"] >= stats["busy_max_ms"] and stats["lag_max_ms"] >= stats["held_max_ms"]


def test_the_watching_thread_wakes_only_when_a_stall_could_be_due(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the loop keeps up, the watching thread sleeps until the timer could be a stall overdue (the tick plus
    :data:`~ohhell.site.loopwatch.STALL_MS` after its last run), not at every tick: each wake takes the interpreter
    lock from the loop, and an idle server's watch cost 35 ms of a core a second with a wake every 10 ms."""
    watch = LoopWatch()
    sleeps: list[float] = []
    wait = watch._stopping.wait

    def counted(timeout: float | None = None) -> bool:
        sleeps.append(timeout or 0.0)
        return wait(timeout)

    monkeypatch.setattr(watch._stopping, "wait", counted)

    async def idle() -> float:
        watch.start()
        try:
            began = time.monotonic()
            await asyncio.sleep(1.0)
            return time.monotonic() - began
        finally:
            watch.stop()

    seconds = asyncio.run(idle())
    slept = sleeps[:-1]  # the last sleep is cut short by stop()
    # a sleep lasts until the stall could be due: 20 to 30 ms after a tick that ran on time (a late tick, on a busy
    # machine, makes one shorter), where a wake at every tick would sleep 10 ms, a hundred times a second
    assert statistics.median(slept) >= 0.75 * watch.stall_ms / 1000, slept
    assert len(sleeps) <= 80 * seconds, (len(sleeps), seconds)
