"""Each callback of an asyncio loop timed on its own (ohhell.site.callbacktimes): a measurement of issue 24's
"single piece of work", where the loop watch times a whole turn of the loop."""

from __future__ import annotations

import asyncio
import time

import pytest
import uvloop

from ohhell.site.callbacktimes import CallbackTimes, callback_name


def spin(seconds: float) -> None:
    """Work on a core for ``seconds`` of the thread's CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


async def busy_step() -> None:
    await asyncio.sleep(0)
    spin(0.03)  # one step of this task: 30 ms on a core


def test_each_callback_is_timed_with_what_it_was() -> None:
    timer = CallbackTimes()
    original = asyncio.Handle._run

    async def load() -> None:
        timer.install()
        try:
            loop = asyncio.get_running_loop()
            for _ in range(20):
                loop.call_soon(spin, 0.0001)  # short pieces of work
            loop.call_soon(time.sleep, 0.04)  # a callback that holds the loop without working: a wait of its own
            await asyncio.sleep(0.01)
            await asyncio.create_task(busy_step())
        finally:
            timer.uninstall()

    asyncio.run(load())
    assert asyncio.Handle._run is original  # uninstalled: the loop's callbacks run as before
    stats = timer.stats()
    assert stats["callbacks"] >= 22
    assert stats["slow"] == 2, stats["longest"]
    names = {timed["name"]: timed for timed in stats["longest"][:2]}
    assert set(names) == {"sleep", "task busy_step"}, stats["longest"]
    assert names["sleep"]["held_ms"] >= 35 and names["sleep"]["cpu_ms"] < 20  # held, not on a core
    assert names["task busy_step"]["cpu_ms"] >= 25 and names["task busy_step"]["held_ms"] >= 25
    assert stats["held_max_ms"] == max(timed["held_ms"] for timed in stats["longest"])
    assert sum(stats["held_histogram_ms"].values()) == stats["callbacks"]
    assert sum(window["callbacks"] for window in stats["windows"]) == stats["callbacks"]


def test_a_loop_whose_callbacks_it_cannot_see_is_refused() -> None:
    async def install() -> None:
        CallbackTimes().install()

    loop = uvloop.new_event_loop()
    try:
        with pytest.raises(RuntimeError, match="cannot time single callbacks"):
            loop.run_until_complete(install())
    finally:
        loop.close()


def test_a_callback_is_named_by_its_function_or_its_tasks_coroutine() -> None:
    async def name_of_own_step() -> str:
        await asyncio.sleep(0)
        return "done"

    async def main() -> tuple[str, str]:
        loop = asyncio.get_running_loop()
        plain = callback_name(loop.call_soon(spin, 0))
        task = asyncio.create_task(name_of_own_step())
        handles = [h for h in loop._ready if getattr(h, "_callback", None) is not None]  # type: ignore[attr-defined]
        stepped = callback_name(handles[-1])
        await task
        return plain, stepped

    plain, stepped = asyncio.run(main())
    assert plain == "spin"
    # a task not yet started waits at its first line; one that has finished (busy_step above) waits nowhere
    own = "test_a_callback_is_named_by_its_function_or_its_tasks_coroutine.<locals>.name_of_own_step"
    assert stepped.startswith(f"task {own}, then at {own}:"), stepped
