"""The event loop measuring itself: how late it runs, what held it up, and how long the garbage collector took.

Every table of a process shares one event loop, so a piece of work that holds the loop for 100 ms delays every
move of every table by as much. :class:`LoopWatch` is cheap enough to leave on in production:

- a timer every :data:`TICK_SECONDS` notes how late it ran (its *lag*): the time the loop spent on other work
  after the timer was due. Under a small load that is the longest single callback that ran meanwhile; under a
  heavy one it also counts the callbacks queued before the timer. On a machine whose cores are shared, part of
  the lag is the loop's thread waiting for a core, which no code of the server can help: where Linux tells it
  (``/proc/self/task/TID/schedstat``), the lag less that wait is counted too, as the loop's *hold-up* (the
  server's own work, or a wait for the disk or the interpreter lock, while every table stood still). What the
  process's other threads waited for a core meanwhile is taken off too, as the loop's *stuck* time: the loop's
  thread waiting for the interpreter lock while the thread holding it waits for a core is the machine's load, not
  the server's work; what is left is the loop's own work and its own waits (a sleep, the disk, a lock held by a
  thread that runs), the figure that a test can bound on a loaded machine;
- a thread wakes when the timer would be overdue by :data:`STALL_MS` if it had not run since (so about every
  30 ms while the loop keeps up, not at every tick: each wake takes the interpreter lock from the loop and, on a
  virtual machine, tens of microseconds of a core), and when it is overdue so, asks the loop's thread for its
  stack once for that stall (where the loop was held up, without a profiler). It asks with a
  signal (:data:`STACK_SIGNAL`), whose Python handler runs *on the loop's thread* with the frame it was at: on
  CPython 3.11 another thread walking the loop thread's frames (``sys._current_frames()`` and ``f_back``) can crash
  the interpreter in ``PyFrame_GetBack`` while those frames come and go (a server crashed so in a soak of issue 24;
  the same crash as in the samplers of sentry-python and ddtrace). Python runs signal handlers on the main thread
  only, so stacks are noted where the loop runs there (``ohhell serve``), and not otherwise;
- :data:`gc.callbacks` time every collection, by generation.

The figures go by windows of :data:`WINDOW_SECONDS` of wall-clock time (the last hour is kept), so that a reader
sees a slow drift as well as the worst moment; ``/api/server-stats`` (loopback only, :mod:`ohhell.site.app`)
returns :meth:`LoopWatch.stats`. A stall of :data:`LOG_STALL_MS` or more is also logged with its stack.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import logging
import os
import signal
import threading
import time
import traceback
from collections import Counter, deque
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, Final

log = logging.getLogger(__name__)

TICK_SECONDS: Final = 0.01
"""How often the timer runs: 100 callbacks a second, a few microseconds each."""
WATCH_SECONDS: Final = 0.001
"""The shortest sleep of the watching thread (it sleeps until the timer's last run is :data:`STALL_MS` past due)."""
STACK_SIGNAL: Final = getattr(signal, "SIGUSR2", None)
"""The signal by which the watching thread asks the loop's thread where it is (``None`` where there is none)."""
STALL_MS: Final = 20.0
"""Lag from which the loop counts as stalled, and the watching thread notes where it was held up."""
LOG_STALL_MS: Final = 250.0
"""Lag from which a stall is also logged (a warning, with the stack)."""
THREADS_LISTED_EVERY: Final = 1.0
"""Seconds between two listings of the process's threads (for the waits of the others; a tick reads each one)."""
WINDOW_SECONDS: Final = 10
WINDOWS_KEPT: Final = 360
STALL_SITES_KEPT: Final = 20
LAG_BUCKETS_MS: Final = (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 250.0, 500.0, 1000.0)
"""Upper bounds of the lag histogram's buckets (one more bucket counts what is above the last)."""


def window_start(now: float) -> int:
    """The start (unix seconds) of the window of :data:`WINDOW_SECONDS` that unix time ``now`` falls in."""
    return int(now) // WINDOW_SECONDS * WINDOW_SECONDS


def open_schedstat() -> int | None:
    """The calling thread's ``/proc/self/task/TID/schedstat``, open for reading (None where Linux has none)."""
    try:
        return os.open(f"/proc/self/task/{threading.get_native_id()}/schedstat", os.O_RDONLY)
    except (OSError, AttributeError):
        return None


def read_schedstat(fd: int | None) -> tuple[int, int]:
    """Nanoseconds a thread has run on a core, and waited, runnable, for one, from its open ``schedstat`` (0 where
    there is none; a wait still going on is counted once it is over)."""
    if fd is None:
        return 0, 0
    try:
        ran, waited = os.pread(fd, 128, 0).split()[:2]
        return int(ran), int(waited)
    except (OSError, ValueError):
        return 0, 0


@dataclass
class Window:
    """The figures of one window of wall-clock time."""

    start: int
    """Unix time (seconds) at which the window starts."""
    ticks: int = 0
    lag_max_ms: float = 0.0
    held_max_ms: float = 0.0
    busy_max_ms: float = 0.0
    stuck_max_ms: float = 0.0
    stalls: int = 0
    """Ticks held up :data:`STALL_MS` or more."""
    gc_max_ms: float = 0.0
    """The longest collection on the loop's thread, in its CPU time (the collector's own work)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "ticks": self.ticks,
            "lag_max_ms": round(self.lag_max_ms, 2),
            "held_max_ms": round(self.held_max_ms, 2),
            "busy_max_ms": round(self.busy_max_ms, 2),
            "stuck_max_ms": round(self.stuck_max_ms, 2),
            "stalls": self.stalls,
            "gc_max_ms": round(self.gc_max_ms, 2),
        }


@dataclass
class _Collections:
    count: list[int] = field(default_factory=lambda: [0, 0, 0])
    max_ms: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])
    """The longest collection of each generation, in wall-clock time (a wait for a core included)."""
    cpu_max_ms: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])
    """The same in the thread's CPU time: the collector's own work."""
    collected: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Objects found unreachable (cyclic garbage), by generation."""
    total_ms: float = 0.0


class LoopWatch:
    """Measures the running event loop; :meth:`start` on it, :meth:`stop` when done, :meth:`stats` to read."""

    def __init__(self, tick_seconds: float = TICK_SECONDS, stall_ms: float = STALL_MS) -> None:
        self.tick_seconds = tick_seconds
        self.stall_ms = stall_ms
        self.started_at = time.time()
        self.ticks = 0
        self.lag_max_ms = 0.0
        self.held_max_ms = 0.0
        self.busy_max_ms = 0.0
        """The most the loop's thread ran on a core while a tick was late (its own work, no wait of any kind)."""
        self.stuck_max_ms = 0.0
        """The longest hold-up less what the process's other threads waited for a core meanwhile (a thread that
        holds the interpreter lock while it waits for a core holds up the loop as well)."""
        self.lag_histogram = [0] * (len(LAG_BUCKETS_MS) + 1)
        self.held_histogram = [0] * (len(LAG_BUCKETS_MS) + 1)
        self.windows: deque[Window] = deque(maxlen=WINDOWS_KEPT)
        self.stall_sites: Counter[str] = Counter()
        """Where the loop thread was when it was found stalled: a short stack, counted."""
        self.collections = _Collections()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handle: asyncio.TimerHandle | None = None
        self._due = 0.0
        self._beat = time.monotonic()
        """When the timer last ran (monotonic seconds), read by the watching thread."""
        self._gc_started = self._gc_cpu_started = 0.0
        self._thread: threading.Thread | None = None
        self._loop_thread = 0
        self._loop_native_id = 0
        self._watcher_native_id: int | None = 0
        self._stopping = threading.Event()
        self.core_wait_known = False
        """Whether Linux says how long the loop's thread waited for a core (else held and busy are the lag)."""
        self._schedstat: int | None = None
        """The loop thread's ``schedstat`` file, open (None where there is none)."""
        self._ran = self._waited = 0
        """Nanoseconds the loop thread had run on a core, and waited for one, at the last tick."""
        self._others: dict[int, tuple[int, int]] = {}
        """The process's other threads (native id: their ``schedstat`` file, open, and the nanoseconds they had
        waited for a core at the last tick); the watching thread is not one (it holds the interpreter lock for
        microseconds at a time)."""
        self._others_listed_at = 0.0
        self.stacks_noted = False
        """Whether stalls' stacks are noted: the loop runs on the main thread, where the signal's handler runs."""
        self._previous_handler: Any = None
        self._asked: tuple[float, str, float] | None = None
        """What the watching thread asked the loop's thread to note with its stack: the stalled tick's beat, the
        thread's state and how long the loop had been held up (set before the signal is sent, taken by the
        handler)."""
        self._noted: deque[str] = deque(maxlen=1000)
        """Stacks the handler noted, not yet counted in :attr:`stall_sites` (the handler may run in the middle of any
        code of the loop's thread, :meth:`stats` included, so it only appends here)."""

    # ----------------------------------------------------------------- starting and stopping

    def start(self) -> None:
        """Start measuring the running loop (call from a coroutine on it)."""
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._loop_native_id = threading.get_native_id()
        self._schedstat = open_schedstat()
        self.core_wait_known = self._schedstat is not None
        self._ran, self._waited = self._sched()
        self._others_listed_at = 0.0
        self._due = self._loop.time() + self.tick_seconds
        self._beat = time.monotonic()
        self._handle = self._loop.call_at(self._due, self._tick)
        gc.callbacks.append(self._on_collection)
        self._start_noting_stacks()
        self._stopping.clear()
        self._thread = threading.Thread(target=self._watch, name="ohhell-loopwatch", daemon=True)
        self._thread.start()
        self._watcher_native_id = self._thread.native_id

    def stop(self) -> None:
        """Stop the timer, the thread and the collector's callback."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self._on_collection in gc.callbacks:
            gc.callbacks.remove(self._on_collection)
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
            self._thread = None
        if self.stacks_noted:
            assert STACK_SIGNAL is not None
            signal.signal(STACK_SIGNAL, self._previous_handler)
            self.stacks_noted = False
        if self._schedstat is not None:
            os.close(self._schedstat)
            self._schedstat = None
        for fd, _ in self._others.values():
            os.close(fd)
        self._others.clear()

    def _start_noting_stacks(self) -> None:
        """Install the signal's handler where it will run on the loop's thread (the main thread), else note none."""
        if STACK_SIGNAL is None or threading.current_thread() is not threading.main_thread():
            return
        try:
            self._previous_handler = signal.signal(STACK_SIGNAL, self._note_stack)
            signal.siginterrupt(STACK_SIGNAL, False)  # the loop's system calls go on where they can
        except (ValueError, OSError):
            return
        self.stacks_noted = True

    def _note_stack(self, signum: int, frame: FrameType | None) -> None:
        """The signal's handler, on the loop's thread: note where it was, if the watching thread asked."""
        asked, self._asked = self._asked, None
        if asked is None or frame is None:
            return
        beat, state, overdue_ms = asked
        if beat != self._beat:
            return  # the stall was over before the handler ran: this is the next piece of work, not the stalled one
        # No source lines: linecache would keep every file a stall reached (7 MB in a soak's first loads).
        stack = traceback.StackSummary.extract(traceback.walk_stack(frame), lookup_lines=False)
        stack.reverse()  # outermost first, as extract_stack gives it
        site = stack_summary(stack) + state
        self._noted.append(site)
        if overdue_ms >= LOG_STALL_MS:
            log.warning("the event loop is held up (%.0f ms so far) at %s", overdue_ms, site)

    def _count_noted(self) -> None:
        while self._noted:
            self.stall_sites[self._noted.popleft()] += 1
        if len(self.stall_sites) > 4 * STALL_SITES_KEPT:
            self.stall_sites = Counter(dict(self.stall_sites.most_common(STALL_SITES_KEPT)))

    def _thread_state(self) -> str:
        """What the kernel says the loop's thread is doing: `` [S futex_wait_queue]`` (waiting for a lock, such as
        the interpreter's), `` [D ...]`` (for the disk), `` [R]`` (running); empty where Linux does not say."""
        task = f"/proc/self/task/{self._loop_native_id}"
        try:
            with open(f"{task}/stat") as stat, open(f"{task}/wchan") as wchan:
                state = stat.read().rsplit(")", 1)[1].split()[0]
                waiting = wchan.read().strip()
        except (OSError, IndexError):
            return ""
        return f" [{state} {waiting}]" if waiting not in ("", "0") else f" [{state}]"

    def _sched(self) -> tuple[int, int]:
        """Nanoseconds the loop thread has run on a core, and waited, runnable, for one (:func:`read_schedstat`)."""
        return read_schedstat(self._schedstat)

    def _others_waited(self) -> int:
        """Nanoseconds the process's other threads waited for a core since the last tick (a thread seen for the
        first time counts from now on; the threads are listed again every :data:`THREADS_LISTED_EVERY` seconds)."""
        if self._schedstat is None:
            return 0
        now = time.monotonic()
        if now - self._others_listed_at >= THREADS_LISTED_EVERY:
            self._others_listed_at = now
            self._list_others()
        waited = 0
        for tid, (fd, before) in list(self._others.items()):
            try:
                total = int(os.pread(fd, 128, 0).split()[1])
            except (OSError, ValueError, IndexError):  # the thread ended
                os.close(fd)
                del self._others[tid]
                continue
            waited += total - before
            self._others[tid] = fd, total
        return waited

    def _list_others(self) -> None:
        try:
            tids = {int(name) for name in os.listdir("/proc/self/task")}
        except OSError:
            return
        tids -= {self._loop_native_id, self._watcher_native_id or 0}
        for tid in set(self._others) - tids:
            os.close(self._others.pop(tid)[0])
        for tid in tids - set(self._others):
            try:
                fd = os.open(f"/proc/self/task/{tid}/schedstat", os.O_RDONLY)
            except OSError:
                continue
            try:
                self._others[tid] = fd, int(os.pread(fd, 128, 0).split()[1])
            except (OSError, ValueError, IndexError):
                os.close(fd)

    # ----------------------------------------------------------------- measuring

    def _window(self) -> Window:
        start = window_start(time.time())
        if not self.windows or self.windows[-1].start != start:
            self.windows.append(Window(start))
        return self.windows[-1]

    def _tick(self) -> None:
        assert self._loop is not None
        now = self._loop.time()
        ran, waited = self._sched()
        lag_ms = 1000 * (now - self._due)
        busy_ms = (ran - self._ran) / 1e6 - 1000 * self.tick_seconds if self._schedstat is not None else lag_ms
        held_ms = lag_ms - (waited - self._waited) / 1e6
        self.record_lag(lag_ms, held_ms, busy_ms, held_ms - self._others_waited() / 1e6)
        self._ran, self._waited = ran, waited
        self._beat = time.monotonic()
        self._due = now + self.tick_seconds
        self._handle = self._loop.call_at(self._due, self._tick)

    def record_lag(self, lag_ms: float, held_ms: float, busy_ms: float, stuck_ms: float | None = None) -> None:
        """Count one tick that ran ``lag_ms`` late: ``held_ms`` of it not waiting for a core, ``busy_ms`` of it
        running on one, ``stuck_ms`` of it with no other thread of the process waiting for one either (the busy
        part at least; ``held_ms`` unless told)."""
        lag_ms = max(0.0, lag_ms)
        held_ms = min(lag_ms, max(0.0, held_ms))
        busy_ms = min(held_ms, max(0.0, busy_ms))
        stuck_ms = held_ms if stuck_ms is None else min(held_ms, max(busy_ms, stuck_ms))
        self.busy_max_ms = max(self.busy_max_ms, busy_ms)
        self.stuck_max_ms = max(self.stuck_max_ms, stuck_ms)
        self.ticks += 1
        self.lag_max_ms = max(self.lag_max_ms, lag_ms)
        self.held_max_ms = max(self.held_max_ms, held_ms)
        self.lag_histogram[bisect.bisect_left(LAG_BUCKETS_MS, lag_ms)] += 1
        self.held_histogram[bisect.bisect_left(LAG_BUCKETS_MS, held_ms)] += 1
        window = self._window()
        window.ticks += 1
        window.lag_max_ms = max(window.lag_max_ms, lag_ms)
        window.held_max_ms = max(window.held_max_ms, held_ms)
        window.busy_max_ms = max(window.busy_max_ms, busy_ms)
        window.stuck_max_ms = max(window.stuck_max_ms, stuck_ms)
        if held_ms >= self.stall_ms:
            window.stalls += 1
            if held_ms >= LOG_STALL_MS:
                log.warning("the event loop was held up for %.0f ms (%.0f ms late in all)", held_ms, lag_ms)

    def _on_collection(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started, self._gc_cpu_started = time.perf_counter(), time.thread_time()
            return
        took = 1000 * (time.perf_counter() - self._gc_started)
        worked = 1000 * (time.thread_time() - self._gc_cpu_started)
        generation = info["generation"]
        self.collections.cpu_max_ms[generation] = max(self.collections.cpu_max_ms[generation], worked)
        self.collections.count[generation] += 1
        self.collections.max_ms[generation] = max(self.collections.max_ms[generation], took)
        self.collections.collected[generation] += info.get("collected", 0)
        self.collections.total_ms += took
        if threading.get_ident() == self._loop_thread:
            window = self._window()
            window.gc_max_ms = max(window.gc_max_ms, worked)

    def _watch(self) -> None:
        """The watching thread: ask the loop's thread for its stack once per stall."""
        noted = 0.0
        pause = self.tick_seconds + self.stall_ms / 1000
        while not self._stopping.wait(pause):
            beat, ran, waited = self._beat, self._ran, self._waited
            overdue_ms = 1000 * (time.monotonic() - beat) - 1000 * self.tick_seconds
            if beat == noted:  # this stall is noted: look again once the timer could have run
                pause = self.tick_seconds
                continue
            if overdue_ms >= self.stall_ms:
                ran_now, waited_now = self._sched()
                overdue_ms -= (waited_now - waited) / 1e6  # the loop's thread waiting for a core holds nothing
            # Sleep until the timer, if it does not run meanwhile, is overdue by a stall: the earliest it can be noted.
            pause = max(WATCH_SECONDS, (self.stall_ms - overdue_ms) / 1000)
            if overdue_ms < self.stall_ms:
                continue
            state = self._thread_state()
            if state.startswith(" [R") and self._schedstat is not None and (ran_now - ran) / 1e6 < overdue_ms / 2:
                pause = self.tick_seconds
                continue  # runnable but it has hardly run: waiting for a core (a wait not counted until it ends)
            noted = beat
            if not self.stacks_noted or STACK_SIGNAL is None:
                continue
            # The loop's thread notes its own stack, in the signal's handler: this thread never reads its frames.
            self._asked = beat, state, overdue_ms
            with contextlib.suppress(OSError, ProcessLookupError):
                signal.pthread_kill(self._loop_thread, STACK_SIGNAL)

    # ----------------------------------------------------------------- reading

    def stats(self) -> dict[str, Any]:
        """Everything measured so far, as JSON."""
        self._count_noted()
        buckets = [f"<={bound:g}" for bound in LAG_BUCKETS_MS] + [f">{LAG_BUCKETS_MS[-1]:g}"]
        return {
            "started_at": round(self.started_at, 3),
            "tick_ms": 1000 * self.tick_seconds,
            "stall_ms": self.stall_ms,
            "ticks": self.ticks,
            "lag_max_ms": round(self.lag_max_ms, 2),
            "held_max_ms": round(self.held_max_ms, 2),
            "busy_max_ms": round(self.busy_max_ms, 2),
            "stuck_max_ms": round(self.stuck_max_ms, 2),
            "core_wait_known": self.core_wait_known,
            "lag_histogram_ms": dict(zip(buckets, self.lag_histogram, strict=True)),
            "held_histogram_ms": dict(zip(buckets, self.held_histogram, strict=True)),
            "windows": [window.as_json() for window in self.windows],
            "window_seconds": WINDOW_SECONDS,
            "stall_sites": [{"seen": n, "stack": site} for site, n in self.stall_sites.most_common(STALL_SITES_KEPT)],
            "gc": {
                "collections": list(self.collections.count),
                "max_ms": [round(ms, 2) for ms in self.collections.max_ms],
                "cpu_max_ms": [round(ms, 2) for ms in self.collections.cpu_max_ms],
                "collected": list(self.collections.collected),
                "total_ms": round(self.collections.total_ms, 1),
            },
        }


def stack_summary(frames: traceback.StackSummary, keep: int = 6) -> str:
    """The innermost frames of a stack, one ``file:line function`` each, innermost last, packages shortened."""
    parts = []
    for frame in frames[-keep:]:
        path = frame.filename
        for marker in ("site-packages/", "lib/python"):
            if marker in path:
                path = path.split(marker, 1)[1]
                break
        parts.append(f"{path}:{frame.lineno} {frame.name}")
    return " > ".join(parts)
