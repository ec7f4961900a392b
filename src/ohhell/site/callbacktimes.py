"""Every callback of the event loop timed on its own: the longest single piece of work, not a turn of the loop.

The loop watch (:mod:`ohhell.site.loopwatch`) times how late its timer runs: under a heavy load that is a whole
turn of the loop, every callback that was ready in it, and uvloop has no way to time one callback. Issue 24 asks
for the single piece of work: so, as a measurement (``ohhell serve --time-callbacks``, ``bench/web_load.py
--time-callbacks``), the server runs on asyncio's own loop, whose callbacks all go through
:meth:`asyncio.Handle._run` (each step of a task, each socket read handed to its protocol, each timer), and
:class:`CallbackTimes` wraps that method to time each one that runs on the loop's thread:

- *wall*: from its start to its end;
- *CPU*: the loop thread's time on a core meanwhile (``CLOCK_THREAD_CPUTIME_ID``), the callback's own work,
  a garbage collection it set off included;
- *held*: the wall time less what the thread waited, runnable, for a core meanwhile (Linux's
  ``/proc/self/task/TID/schedstat``; the wall time where Linux does not say): the time the callback kept every
  table waiting that the server could help, its waits for the disk or a lock included.

asyncio's loop is slower than uvloop (its sockets' reads and writes are Python), so a load costs the server more
on it, but each callback of the server's own code does the same work. Timing costs about 3 µs a callback.
"""

from __future__ import annotations

import asyncio
import bisect
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from ohhell.site.loopwatch import WINDOW_SECONDS, WINDOWS_KEPT, open_schedstat, read_schedstat, window_start

SLOW_MS: Final = 20.0
"""A callback held the loop this long or more counts as slow (issue 24's bound for a single piece of work)."""
BUCKETS_MS: Final = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0)
"""Upper bounds of the histogram of held times (one more bucket counts what is above the last)."""
LONGEST_KEPT: Final = 10
"""The longest callbacks kept since the start, and :data:`LONGEST_KEPT_A_WINDOW` in each window (the loop watch's
windows of wall-clock time, the last hour kept, so that a reader can take a load's)."""
LONGEST_KEPT_A_WINDOW: Final = 3


@dataclass(frozen=True)
class Timed:
    """One long callback: what it was and how long it took."""

    name: str
    held_ms: float
    wall_ms: float
    cpu_ms: float
    at: float
    """Unix time of its end."""

    def as_json(self) -> dict[str, Any]:
        return {
            "at": round(self.at, 3),
            "name": self.name,
            "held_ms": round(self.held_ms, 2),
            "wall_ms": round(self.wall_ms, 2),
            "cpu_ms": round(self.cpu_ms, 2),
        }


@dataclass
class Window:
    """The figures of one window of wall-clock time."""

    start: int
    """Unix time (seconds) at which the window starts."""
    callbacks: int = 0
    held_max_ms: float = 0.0
    cpu_max_ms: float = 0.0
    slow: int = 0
    longest: list[Timed] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "callbacks": self.callbacks,
            "held_max_ms": round(self.held_max_ms, 2),
            "cpu_max_ms": round(self.cpu_max_ms, 2),
            "slow": self.slow,
            "longest": [timed.as_json() for timed in self.longest],
        }


def callback_name(handle: asyncio.Handle) -> str:
    """What a handle runs, in a few words: a task's coroutine and, once a step of it has run, where it waits now
    (``task LiveTable.apply, then at Journal.append:210``: the step ran up to that ``await``), else the function's
    name."""
    callback: Any = getattr(handle, "_callback", None)
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coroutine = owner.get_coro()
        task = f"task {getattr(coroutine, '__qualname__', type(coroutine).__name__)}"
        where = paused_at(coroutine)
        return f"{task}, then at {where}" if where else task
    name = getattr(callback, "__qualname__", None)
    return str(name) if name else type(callback).__name__


def paused_at(coroutine: Any) -> str:
    """Where a suspended coroutine waits, as ``function:line``: the innermost coroutine of this package that it
    awaits, then the innermost of all (``Table.receive:346 … Queue.get:158``); empty once it has finished. Read on
    the loop's own thread, of coroutines that are not running."""
    ours = innermost = ""
    depth = 0
    while coroutine is not None and depth < 100:
        frame = getattr(coroutine, "cr_frame", None) or getattr(coroutine, "gi_frame", None)
        if frame is None:
            break
        innermost = f"{frame.f_code.co_qualname}:{frame.f_lineno}"
        if f"{os.sep}ohhell{os.sep}" in frame.f_code.co_filename:
            ours = innermost
        coroutine = getattr(coroutine, "cr_await", None) or getattr(coroutine, "gi_yieldfrom", None)
        depth += 1
    return innermost if ours in ("", innermost) else f"{ours} … {innermost}"


class CallbackTimes:
    """Times each callback of the running asyncio loop while installed (:meth:`install`, :meth:`uninstall`)."""

    def __init__(self, slow_ms: float = SLOW_MS) -> None:
        self.slow_ms = slow_ms
        self.count = 0
        self.held_max_ms = self.wall_max_ms = self.cpu_max_ms = 0.0
        self.slow = 0
        """Callbacks held the loop :attr:`slow_ms` or more."""
        self.histogram = [0] * (len(BUCKETS_MS) + 1)
        self.longest: list[Timed] = []
        """The :data:`LONGEST_KEPT` callbacks that held the loop longest, longest first."""
        self.slow_by_name: dict[str, int] = {}
        self.windows: deque[Window] = deque(maxlen=WINDOWS_KEPT)
        self._thread = 0
        self._schedstat: int | None = None
        self._original: Callable[[asyncio.Handle], None] | None = None

    def install(self) -> None:
        """Time every callback of the running loop (call on it); refuses a loop whose callbacks do not go through
        :meth:`asyncio.Handle._run` (asyncio's own loops do; uvloop's do not)."""
        loop = asyncio.get_running_loop()
        if not isinstance(loop, asyncio.BaseEventLoop):
            raise RuntimeError(
                f"{type(loop).__module__}.{type(loop).__name__} cannot time single callbacks: use asyncio's loop"
            )
        if self._original is not None:
            return
        self._thread = threading.get_ident()
        self._schedstat = open_schedstat()
        original: Callable[[asyncio.Handle], None] = asyncio.Handle._run
        self._original = original
        timer = self

        def _run(handle: asyncio.Handle) -> None:
            if threading.get_ident() != timer._thread:
                original(handle)
                return
            waited = read_schedstat(timer._schedstat)[1]
            cpu = time.thread_time()
            began = time.perf_counter()
            original(handle)
            wall_ms = 1000 * (time.perf_counter() - began)
            cpu_ms = 1000 * (time.thread_time() - cpu)
            timer.record(handle, wall_ms, cpu_ms, wall_ms - (read_schedstat(timer._schedstat)[1] - waited) / 1e6)

        setattr(asyncio.Handle, "_run", _run)  # noqa: B010 (a method replaced: typed as such it would not check)

    def uninstall(self) -> None:
        if self._original is not None:
            setattr(asyncio.Handle, "_run", self._original)  # noqa: B010
            self._original = None
        if self._schedstat is not None:
            os.close(self._schedstat)
            self._schedstat = None

    def record(self, handle: asyncio.Handle, wall_ms: float, cpu_ms: float, held_ms: float) -> None:
        """Count one callback that took ``wall_ms``, ``cpu_ms`` of it on a core, ``held_ms`` of it not waiting
        for one."""
        held_ms = min(wall_ms, max(0.0, held_ms, cpu_ms))
        now = time.time()
        start = window_start(now)
        if not self.windows or self.windows[-1].start != start:
            self.windows.append(Window(start))
        window = self.windows[-1]
        window.callbacks += 1
        window.held_max_ms = max(window.held_max_ms, held_ms)
        window.cpu_max_ms = max(window.cpu_max_ms, cpu_ms)
        self.count += 1
        self.wall_max_ms = max(self.wall_max_ms, wall_ms)
        self.cpu_max_ms = max(self.cpu_max_ms, cpu_ms)
        self.histogram[bisect.bisect_left(BUCKETS_MS, held_ms)] += 1
        self.held_max_ms = max(self.held_max_ms, held_ms)
        name = ""  # named once, and only for a callback that is kept or counted by name
        if held_ms >= self.slow_ms:
            self.slow += 1
            window.slow += 1
            name = callback_name(handle)
            self.slow_by_name[name] = self.slow_by_name.get(name, 0) + 1
        for kept, room in ((window.longest, LONGEST_KEPT_A_WINDOW), (self.longest, LONGEST_KEPT)):
            if len(kept) < room or held_ms > kept[-1].held_ms:
                name = name or callback_name(handle)
                kept.append(Timed(name, held_ms, wall_ms, cpu_ms, now))
                kept.sort(key=lambda timed: -timed.held_ms)
                del kept[room:]

    def stats(self) -> dict[str, Any]:
        """The figures so far, as JSON."""
        buckets = [f"<={bound:g}" for bound in BUCKETS_MS] + [f">{BUCKETS_MS[-1]:g}"]
        return {
            "callbacks": self.count,
            "held_max_ms": round(self.held_max_ms, 2),
            "wall_max_ms": round(self.wall_max_ms, 2),
            "cpu_max_ms": round(self.cpu_max_ms, 2),
            "slow_ms": self.slow_ms,
            "slow": self.slow,
            "slow_by_name": dict(sorted(self.slow_by_name.items(), key=lambda item: -item[1])),
            "held_histogram_ms": dict(zip(buckets, self.histogram, strict=True)),
            "longest": [timed.as_json() for timed in self.longest],
            "windows": [window.as_json() for window in self.windows],
            "window_seconds": WINDOW_SECONDS,
        }
