"""Results handed back a slice per turn of the event loop (:mod:`ohhell.server.loopturns`)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable

import pytest

from ohhell.server.loopturns import PER_TURN, settle_in_slices


def test_a_batch_of_results_is_handed_back_a_slice_per_turn_in_order() -> None:
    async def scenario() -> tuple[list[int], list[int], list[int]]:
        loop = asyncio.get_running_loop()
        futures: list[asyncio.Future[int]] = [loop.create_future() for _ in range(3 * PER_TURN + 5)]
        woken: list[int] = []

        def waker(index: int) -> Callable[[asyncio.Future[int]], None]:
            return lambda _: woken.append(index)

        for index, future in enumerate(futures):
            future.add_done_callback(waker(index))
        futures[1].cancel()  # given up on meanwhile: passed over
        settle_in_slices([(future, index) for index, future in enumerate(futures)])
        first = sum(f.done() for f in futures)
        counts = [first]
        while not all(f.done() for f in futures):
            await asyncio.sleep(0)  # one turn of the loop
            counts.append(sum(f.done() for f in futures))
        return counts, woken, [f.result() for f in futures if not f.cancelled()]

    counts, woken, results = asyncio.run(scenario())
    assert counts[0] == PER_TURN  # the cancelled one was done already, and one more of the slice was not
    assert counts[1:] == [2 * PER_TURN, 3 * PER_TURN, 3 * PER_TURN + 5]
    assert woken[0] == 1 and woken[1:] == [i for i in range(3 * PER_TURN + 5) if i != 1]  # in order
    assert results == [i for i in range(3 * PER_TURN + 5) if i != 1]


def test_an_exception_is_handed_back_as_one() -> None:
    async def scenario() -> None:
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        settle_in_slices([(future, ValueError("refused"))])
        with pytest.raises(ValueError, match="refused"):
            await future

    asyncio.run(scenario())


class Answer:
    """A result that can be watched with a weak reference."""


def test_a_settled_batch_is_freed_without_the_garbage_collector() -> None:
    """No reference cycle holds a batch once it is settled: the server's oldest generation is almost never walked
    (ohhell.site.collector), so a batch held by a cycle was memory never given back."""

    async def scenario() -> list[weakref.ref[object]]:
        loop = asyncio.get_running_loop()
        answers = [Answer() for _ in range(2 * PER_TURN + 1)]
        futures: list[asyncio.Future[Answer]] = [loop.create_future() for _ in answers]
        watched: list[weakref.ref[object]] = [weakref.ref(item) for item in [*answers, *futures]]
        settle_in_slices(list(zip(futures, answers, strict=True)))
        while not all(f.done() for f in futures):
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        del answers, futures
        return watched

    gc.disable()
    try:
        watched = asyncio.run(scenario())
        assert [ref for ref in watched if ref() is not None] == []
    finally:
        gc.enable()
