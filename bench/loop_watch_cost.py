"""What the loop watch (:mod:`ohhell.site.loopwatch`) costs a server process, idle and under a light steady load.

    .venv/bin/python bench/loop_watch_cost.py
    .venv/bin/python bench/loop_watch_cost.py --seconds 10 --rounds 3

Every server process measures its own event loop: a timer every 10 ms notes how late it ran, and a thread watches for
stalls. Its callback is a few microseconds, but each tick also wakes a loop that would otherwise sleep, and on a
virtual machine a wake-up costs far more than the callback. This runs a uvloop event loop on this process for
``--seconds``, idle or with a light steady load (a timer every 5 ms doing about 0.2 ms of Python work, about 4% of a
core), without the watch (the reference, in the same process) and with it as ``ohhell serve`` starts it, the modes
taking turns ``--rounds`` times since the machine's speed drifts, and prints the process's CPU per second of each
(``time.process_time``: every thread, the kernel's work for them included) and what the watch adds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Final

import uvloop

from ohhell.site.loopwatch import LoopWatch

LOAD_EVERY: Final = 0.005
"""How often the light load's timer runs (seconds)."""
LOAD_WORK: Final = 0.0002
"""About how long each of its runs works (seconds of a busy Python loop)."""


def _work() -> None:
    end = time.perf_counter() + LOAD_WORK
    total = 0
    while time.perf_counter() < end:
        total += 1


async def _measure(seconds: float, watch: bool, load: bool) -> float:
    """Milliseconds of the process's CPU a second over ``seconds``."""
    loop = asyncio.get_running_loop()
    watcher = LoopWatch() if watch else None
    if watcher is not None:
        watcher.start()
    stopped = False

    def tick() -> None:
        if not stopped:
            _work()
            loop.call_later(LOAD_EVERY, tick)

    if load:
        loop.call_later(LOAD_EVERY, tick)
    await asyncio.sleep(0.5)  # the watch's thread started, the first ticks past
    began, cpu = time.monotonic(), time.process_time()
    await asyncio.sleep(seconds)
    used = (time.process_time() - cpu) / (time.monotonic() - began)
    stopped = True
    if watcher is not None:
        watcher.stop()
    return 1000 * used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each mode is measured")
    parser.add_argument("--rounds", type=int, default=3, help="how many times the modes take turns")
    args = parser.parse_args()
    modes = [(load, watch) for load in (False, True) for watch in (False, True)]
    figures: dict[tuple[bool, bool], list[float]] = {mode: [] for mode in modes}
    for _ in range(args.rounds):
        for load, watch in modes:
            figures[(load, watch)].append(uvloop.run(_measure(args.seconds, watch, load)))
    print(f"{args.seconds:g} s a mode, {args.rounds} rounds; the process's CPU, ms a second (median of the rounds)")
    print("  load            no watch (reference)   with the watch   the watch adds")
    for load in (False, True):
        without = statistics.median(figures[(load, False)])
        with_watch = statistics.median(figures[(load, True)])
        name = "light steady" if load else "idle"
        print(f"  {name:<14}  {without:20.2f}   {with_watch:14.2f}   {with_watch - without:+.2f} ms/s")


if __name__ == "__main__":
    main()
