"""When the garbage collector walks its old generation (:mod:`ohhell.site.collector`): on memory growth only."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from ohhell.site.collector import MIDDLE_COLLECTIONS, OUT_OF_REACH, YOUNG_OBJECTS, OldGeneration


def full_walks_while(make: Any) -> int:
    """How many collections of the old generation ran while ``make()`` ran."""
    walks = 0

    def count(phase: str, info: dict[str, int]) -> None:
        nonlocal walks
        walks += phase == "start" and info["generation"] == 2

    gc.callbacks.append(count)
    try:
        make()
    finally:
        gc.callbacks.remove(count)
    return walks


def long_lived(tables: int) -> list[dict[str, Any]]:
    """Objects that outlive the young collections, as tables do (each a few containers)."""
    return [{"seats": [[] for _ in range(4)], "moves": [(i, i)], "id": i} for i in range(tables)]


def test_the_old_generation_is_walked_only_when_the_blocks_held_have_grown_past_the_limit() -> None:
    held = [1_000]
    walked: list[int] = []

    def collect() -> int:
        walked.append(held[0])
        held[0] = 1_500  # what the walk freed
        return 42

    old = OldGeneration(growth=2.0, floor_blocks=500, blocks=lambda: held[0], collect=collect)
    old.baseline = 1_000
    assert old.limit == 2_000  # twice the baseline, and at least the floor above it
    held[0] = 1_999
    assert not old.check() and not walked
    held[0] = 2_000
    assert old.check() and walked == [2_000]
    assert old.baseline == 1_500 and old.limit == 3_000 and old.collected == 42 and old.walks == 1
    stats = old.stats()
    assert stats["walks"] == 1 and stats["walk_at_blocks"] == 3_000 and stats["baseline_blocks"] == 1_500
    small = OldGeneration(growth=2.0, floor_blocks=500, blocks=lambda: 0, collect=lambda: 0)
    small.baseline = 100
    assert small.limit == 600  # the floor: a small process is not walked for every few blocks it gains


def test_once_started_a_growing_heap_sets_off_no_walk_of_its_own_and_stop_gives_the_rule_back() -> None:
    before = gc.get_threshold()
    assert full_walks_while(lambda: long_lived(100_000)) >= 1  # CPython's own rule: a walk as survivors pile up

    async def started() -> tuple[int, tuple[int, int, int], dict[str, Any]]:
        old = OldGeneration(check_seconds=3600)
        old.start()
        try:
            threshold = gc.get_threshold()
            kept: list[Any] = []
            walks = full_walks_while(lambda: kept.append(long_lived(100_000)))
            return walks, threshold, old.stats()
        finally:
            old.stop()

    try:
        walks, threshold, stats = asyncio.run(started())
        assert threshold == (min(before[0], YOUNG_OBJECTS), min(before[1], MIDDLE_COLLECTIONS), OUT_OF_REACH)
        assert walks == 0  # the same growth, no walk: the young generations only
        assert stats["on_growth"] and stats["walks"] == 0
        assert gc.get_threshold() == before
    finally:
        gc.unfreeze()  # start() froze what this test process held; give it back to the collector
