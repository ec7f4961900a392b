"""The garbage collector's old generation, walked only when memory says there may be garbage in it.

CPython's cyclic collector walks its oldest generation whenever a quarter more objects have survived two young
collections since the last full walk. On a busy server that rule fires every few seconds, and each full walk holds
the event loop, and so every table of the process, for as long as it takes to visit everything alive: measured at
1,000 games with a move every 2 s, about 370,000 objects (the tables, their sockets, the coroutines serving
them) and 1.7 million references, 115 to 500 ms a walk (docs/server-load.md). Yet almost nothing it walks is
garbage: a table, its seats and its sockets are freed by reference counting when the table is let go, and a full
walk after 900 series found 154 objects in cycles (a few HTTP connections), none of them tables.

So, once the server has started (:meth:`OldGeneration.start`):

- what the started server holds is collected once and frozen out of every later walk (``gc.freeze()``: modules,
  routes, the ORM's tables);
- the young generations are walked in smaller pieces: the youngest after :data:`YOUNG_OBJECTS` new objects instead
  of CPython's 700, the middle one at every other walk of the youngest (:data:`MIDDLE_COLLECTIONS`) instead of every
  eleventh. Every object is walked about as often as before (once young, once in the middle, then it is old), but each
  walk holds the loop for less: at 1,000 games the middle generation held 30,000 to 38,000 objects at CPython's
  rule, 15 to 30 ms of CPU a walk (docs/server-load.md, sixteenth round), and the youngest up to 9,500 (freeing old
  objects, as a table let go does, counts against CPython's count of new ones), up to 16 ms (twenty-first round);
  the old one is never walked on CPython's rule (its threshold is set out of reach);
- every :data:`CHECK_SECONDS` the number of memory blocks the interpreter holds (``sys.getallocatedblocks()``, a
  counter read in nanoseconds) is compared with what it held after the last full walk: only when it has grown
  :data:`GROWTH` times over, and by at least :data:`FLOOR_BLOCKS`, is the old generation walked, since only
  then could cyclic garbage be a real share of memory. A server whose load holds steady never reaches that; one
  that leaked cycles would be walked once per doubling, so memory stays within about twice what is live.

The walks made and their times are in :meth:`OldGeneration.stats`, beside the loop's own figures
(``/api/server-stats``).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections.abc import Callable
from typing import Any, Final

log = logging.getLogger(__name__)

CHECK_SECONDS: Final = 10.0
"""How often the memory blocks are counted."""
GROWTH: Final = 2.0
"""How many times over the blocks held after the last full walk must have grown for the next one."""
FLOOR_BLOCKS: Final = 3_000_000
"""The least growth (in blocks) that calls for a full walk: about five times what a started server holds (590,000),
and twice what 1,000 games at once add to it, so that a server's own load never sets a walk off."""
YOUNG_OBJECTS: Final = 350
"""The youngest generation is walked once this many more objects have been made than freed (CPython's default:
700). Half the count, half the walk: at 1,000 games its longest walk went from 13 to 16 ms of CPU to 7 to 9 ms
(docs/server-load.md, twenty-first round)."""
MIDDLE_COLLECTIONS: Final = 1
"""The middle generation is walked once the youngest has been walked more than this many times since (CPython's
default: 10; 3 before the twenty-first round). Each walk visits what survived the youngest walks since the last one,
so two of them instead of four is half the walk: at 1,000 games its longest went from 21 to 23 ms of CPU to 10 to
12 ms. What survives it goes to the old generation, which is never walked on CPython's rule here, and is freed by
reference counting like the rest."""
OUT_OF_REACH: Final = 2**31 - 1
"""The old generation's threshold once :meth:`OldGeneration.start` has run: CPython's rule never reaches it."""


class OldGeneration:
    """When the old generation is walked: on memory growth, not on CPython's count of survivors.

    ``blocks`` and ``collect`` are :func:`sys.getallocatedblocks` and a full :func:`gc.collect` unless a test
    hands others.
    """

    def __init__(
        self,
        *,
        growth: float = GROWTH,
        floor_blocks: int = FLOOR_BLOCKS,
        check_seconds: float = CHECK_SECONDS,
        blocks: Callable[[], int] = sys.getallocatedblocks,
        collect: Callable[[], int] = lambda: gc.collect(2),
    ) -> None:
        self.growth = growth
        self.floor_blocks = floor_blocks
        self.check_seconds = check_seconds
        self._blocks = blocks
        self._collect = collect
        self.baseline = 0
        """The blocks held after the last full walk."""
        self.walks = 0
        self.walk_max_ms = 0.0
        self.collected = 0
        self.started = False
        self._threshold: tuple[int, int, int] | None = None
        self._timer: asyncio.TimerHandle | None = None

    @property
    def limit(self) -> int:
        """The blocks held from which the next check walks the old generation."""
        return max(int(self.growth * self.baseline), self.baseline + self.floor_blocks)

    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Collect and freeze what the started process holds, take the old generation off CPython's rule, and
        check the memory every :attr:`check_seconds` on ``loop`` (the running one by default)."""
        gc.collect()
        gc.freeze()
        self._threshold = gc.get_threshold()
        young, middle, _ = self._threshold
        gc.set_threshold(min(young, YOUNG_OBJECTS), min(middle, MIDDLE_COLLECTIONS), OUT_OF_REACH)
        self.baseline = self._blocks()
        self.started = True
        self._timer = (loop or asyncio.get_running_loop()).call_later(self.check_seconds, self._tick)

    def stop(self) -> None:
        """Give the old generation back to CPython's rule (what :meth:`start` froze stays frozen)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._threshold is not None:
            gc.set_threshold(*self._threshold)
            self._threshold = None
        self.started = False

    def _tick(self) -> None:
        self.check()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.check_seconds, self._tick)

    def check(self) -> bool:
        """Walk the old generation if the memory held has grown past :attr:`limit`; whether it was walked."""
        held, limit = self._blocks(), self.limit
        if held < limit:
            return False
        started = time.perf_counter()
        found = self._collect()
        took = 1000 * (time.perf_counter() - started)
        self.walks += 1
        self.collected += found
        self.walk_max_ms = max(self.walk_max_ms, took)
        self.baseline = self._blocks()
        log.info(
            "the old generation was walked: %d blocks held (over %d), %d objects collected, %.0f ms; now %d blocks",
            held,
            limit,
            found,
            took,
            self.baseline,
        )
        return True

    def stats(self) -> dict[str, Any]:
        """The walks made and what the next one waits for, as JSON."""
        return {
            "on_growth": self.started,
            "blocks": self._blocks(),
            "baseline_blocks": self.baseline,
            "walk_at_blocks": self.limit,
            "walks": self.walks,
            "walk_max_ms": round(self.walk_max_ms, 2),
            "collected": self.collected,
        }
