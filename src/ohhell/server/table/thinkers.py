"""Where the computer players think: off the event loop, in worker processes, many decisions per call.

A decision is asked for with one seat's :class:`~ohhell.view.SeatView` and answered with a
:class:`~ohhell.server.table.players.Move`; nothing else crosses to the workers, so a worker never holds a hidden card.

- The quick levels (Easy, Normal) and Hints decide in about a tenth of a millisecond. They go to
  ``quick_processes`` worker processes in batches, over pipes the event loop reads itself (a thread in between
  would wait for the interpreter lock behind the loop): while a batch is being decided, the requests of every
  table gather into the next one, so a busy server pays one round trip to a worker for hundreds of decisions.
- The searching level (Hard) thinks for its budget of time, one decision per call, in ``processes`` workers of
  its own, so that a search never delays a quick player.

With ``processes=0`` everything runs in a thread of the server process (the tests' default). A worker that dies
is replaced, and the decisions it held are made again; the workers end by themselves if the server is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import fcntl
import logging
import os
import pickle
import struct
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from multiprocessing.connection import Connection
from typing import Final, TypeVar

from ohhell.server.loopturns import settle_in_slices
from ohhell.server.table.players import Move, bot_for, decide_seeded, hint
from ohhell.view import SeatView

log = logging.getLogger(__name__)

T = TypeVar("T")

SEARCHING_LEVELS: Final = frozenset({"hard"})
"""Levels that search for their budget of time; the others decide in a fraction of a millisecond."""
MAX_BATCH: Final = 500
"""The most decisions one call to a quick worker takes."""
CLOSE_SECONDS: Final = 2.0
"""How long a worker process may take to finish its decision when the server stops."""

Request = tuple[str, str, SeatView, str, tuple[str, ...]]
"""``("decide", level, view, seed, names)`` or ``("hint", "", view, "", names)``; ``names`` are the seats'."""


def answer(request: Request) -> Move:
    """One request, answered (in a worker, or in the server's thread)."""
    kind, level, view, seed, names = request
    if kind == "hint":
        return hint(view, names)
    return decide_seeded(level, view, seed, names)


def _seat_names(view: SeatView) -> tuple[str, ...]:
    return tuple(f"Seat {s}" for s in range(view.players))


def answer_all(requests: Sequence[Request]) -> list[Move | Exception]:
    """A batch of requests, each answered or its error kept, so that one bad request fails alone."""
    answers: list[Move | Exception] = []
    for request in requests:
        try:
            answers.append(answer(request))
        except Exception as exc:
            answers.append(exc)
    return answers


def _warm_up() -> None:
    """Import the bots in a fresh worker, so that the first decision does not wait for it."""
    bot_for("easy")


QUICK_LEVELS: Final = ("easy", "normal")
"""The levels the quick workers play (with Hints)."""


def _warm_up_quick() -> None:
    """:func:`_warm_up`, and each quick level decides once (the learned player loads its networks and its numerical
    libraries then), so that no person's first decision waits for that."""
    from ohhell.game import Game
    from ohhell.rules import Rules

    game = Game(Rules.preset("short"), number=1)
    view = game.view(game.to_act)
    for level in QUICK_LEVELS:
        decide_seeded(level, view, "warm-up")


def _follow_parent(parent: int) -> None:
    """In a worker process: exit as soon as the server process is gone, however it went."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="ohhell-follow-server", daemon=True).start()


def _process_pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=get_context("spawn"), initializer=_follow_parent, initargs=(os.getpid(),)
    )


class _Pool:
    """A process pool that replaces itself when a worker dies."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor = _process_pool(workers)

    def submit(self, function: Callable[..., T], *args: object) -> Future[T]:
        try:
            return self.executor.submit(function, *args)
        except BrokenProcessPool:
            self.renew()
            return self.executor.submit(function, *args)

    def renew(self) -> None:
        log.warning("a computer players' worker process died: starting a new pool")
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = _process_pool(self.workers)

    async def warm(self) -> None:
        await asyncio.gather(*(asyncio.wrap_future(self.submit(_warm_up)) for _ in range(self.workers)))

    def close(self) -> None:
        running = list(getattr(self.executor, "_processes", {}).values())  # no public way before Python 3.14
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in running:
            process.join(timeout=CLOSE_SECONDS)
            if process.is_alive():
                process.terminate()


PIPE_BYTES: Final = 1 << 20
"""The pipes to a quick worker hold a whole batch (Linux's ``F_SETPIPE_SZ``), so that sending one never waits."""


def _widen(connection: Connection) -> None:
    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(connection.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)


READ_BYTES: Final = 1 << 16
"""The most one read of a worker's answers takes from its pipe (reads go on while the pipe has more)."""


class Frames:
    """The messages of a :class:`~multiprocessing.connection.Connection` read from a pipe that does not block.

    The event loop is told when a worker's pipe has something to read, and uvloop's ``add_reader`` makes the pipe
    non-blocking. A worker's ``send_bytes`` of more than 16 KiB writes its 4-byte length and its body in two writes,
    so the loop could wake between them: ``Connection.recv_bytes`` then read the length, found the body not there
    yet and failed (``BlockingIOError``), and the server took the worker for dead, closed its pipes and started
    another, deciding its batch again (the "worker process died (exit code 0 ...)" of docs/server-load.md,
    twenty-first round). Here what has come is kept until the whole message has.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._received = bytearray()

    def read(self) -> list[bytes]:
        """The whole messages that have come (none if a message is still on its way). Raises :class:`EOFError`
        once the writer has closed its end, or the :class:`OSError` of a failed read."""
        while True:
            try:
                chunk = os.read(self.fd, READ_BYTES)
            except BlockingIOError:
                break
            if not chunk:
                raise EOFError("the worker closed its pipe")
            self._received += chunk
            if len(chunk) < READ_BYTES:
                break
        messages = []
        while (message := self._next()) is not None:
            messages.append(message)
        return messages

    def _next(self) -> bytes | None:
        received = self._received
        if len(received) < 4:
            return None
        (size,) = struct.unpack("!i", received[:4])
        start = 4
        if size == -1:  # more than 2 GiB: an 8-byte length follows (multiprocessing's framing)
            if len(received) < 12:
                return None
            (size,) = struct.unpack("!Q", received[4:12])
            start = 12
        if len(received) < start + size:
            return None
        message = bytes(received[start : start + size])
        del received[: start + size]
        return message


def _serve_pipe(requests: Connection, answers: Connection, parent: int) -> None:
    """A quick worker's life: read a batch of requests, answer it, until the pipe closes."""
    faulthandler.enable()  # a crash in native code says where, in the server's log
    _follow_parent(parent)
    _warm_up_quick()
    while True:
        try:
            batch = pickle.loads(requests.recv_bytes())
            answers.send_bytes(pickle.dumps(answer_all(batch), protocol=pickle.HIGHEST_PROTOCOL))
        except (EOFError, OSError) as exc:  # the server closed the pipes: it is stopping
            if os.getppid() == parent:
                sys.stderr.write(f"a quick worker's pipe failed while the server runs: {exc!r}\n")
            return


class _PipeWorker:
    """One quick worker process, spoken to over a pipe straight from the event loop (no thread in between)."""

    def __init__(self, on_free: Callable[[], None]) -> None:
        context = get_context("spawn")
        their_requests, self.requests = context.Pipe(duplex=False)
        self.answers, their_answers = context.Pipe(duplex=False)
        for end in (self.requests, self.answers):
            _widen(end)
        self.process = context.Process(
            target=_serve_pipe,
            args=(their_requests, their_answers, os.getpid()),
            name="ohhell-quick-worker",
            daemon=True,
        )
        self.process.start()
        their_requests.close()
        their_answers.close()
        self.batch: list[tuple[Request, asyncio.Future[Move]]] | None = None
        self.alive = True
        self.death = ""
        """What the server's end of the pipe said when the worker was taken for dead."""
        self._on_free = on_free
        self._loop = asyncio.get_running_loop()
        os.set_blocking(self.answers.fileno(), False)  # as uvloop's add_reader leaves it; asyncio's would not
        self._frames = Frames(self.answers.fileno())
        self._loop.add_reader(self.answers.fileno(), self._readable)

    def send(self, batch: list[tuple[Request, asyncio.Future[Move]]]) -> None:
        self.batch = batch
        self.requests.send_bytes(pickle.dumps([request for request, _ in batch], protocol=pickle.HIGHEST_PROTOCOL))

    def _readable(self) -> None:
        try:
            messages = self._frames.read()
        except (EOFError, OSError) as exc:
            self._died(exc)
            return
        for message in messages:  # one at most: a worker has one batch at a time
            answers: list[Move | Exception] = pickle.loads(message)
            batch, self.batch = self.batch or [], None
            self._on_free()  # the next batch goes to the worker first, while these tables go on
            # a slice of tables a turn of the loop, not hundreds in one (ohhell.server.loopturns)
            settle_in_slices([(future, result) for (_, future), result in zip(batch, answers, strict=True)])

    def _died(self, reason: BaseException) -> None:
        self.death = repr(reason)
        self.alive = False
        self._loop.remove_reader(self.answers.fileno())
        self._on_free()

    def close(self) -> None:
        if self.alive:
            self.alive = False
            self._loop.remove_reader(self.answers.fileno())
        self.requests.close()
        self.answers.close()
        self.process.join(timeout=CLOSE_SECONDS)
        if self.process.is_alive():
            self.process.terminate()


class _Batches:
    """Requests gathered into batches for the quick workers, one batch in flight per worker.

    A request is sent once the callbacks ready with it have run, so that the requests every table makes in one turn
    of the event loop leave as one batch (one write, one wake of the worker) rather than one each. While every
    worker is busy, the requests of all tables gather; a worker that answers takes the next batch at once. A worker
    that dies is replaced, and the batch it held is decided again by another.
    """

    def __init__(self, workers: int) -> None:
        self.size = workers
        self.workers: list[_PipeWorker] = []
        self.pending: list[tuple[Request, asyncio.Future[Move]]] = []
        self.closing = False
        self._flush: asyncio.Handle | None = None

    def start(self) -> None:
        while len(self.workers) < self.size and not self.closing:
            self.workers.append(_PipeWorker(self._send))

    def submit(self, request: Request) -> asyncio.Future[Move]:
        self.start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Move] = loop.create_future()
        self.pending.append((request, future))
        if self._flush is None:  # sent once the callbacks ready now have run: theirs go in the same batch
            self._flush = loop.call_soon(self._flushed)
        return future

    def _flushed(self) -> None:
        self._flush = None
        self._send()

    def _send(self) -> None:
        if self.closing:
            return
        for worker in list(self.workers):
            if not worker.alive:
                self.workers.remove(worker)
                if worker.batch:
                    self.pending[:0] = worker.batch
                worker.close()
                log.warning(
                    "a quick computer players' worker process died (exit code %s, %d decisions held; its pipe: %s):"
                    " starting another",
                    worker.process.exitcode,
                    len(worker.batch or ()),
                    worker.death,
                )
                self.workers.append(_PipeWorker(self._send))
        for worker in self.workers:
            if not self.pending:
                return
            if worker.batch is None and worker.alive:
                batch, self.pending = self.pending[:MAX_BATCH], self.pending[MAX_BATCH:]
                worker.send(batch)

    def close(self) -> None:
        self.closing = True
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        for worker in self.workers:
            worker.close()
        self.workers.clear()


class Thinkers:
    """Where the computer players think, off the event loop (see the module's docstring)."""

    def __init__(self, processes: int = 0, quick_processes: int = 1) -> None:
        self.processes = processes
        self._thread: Executor = ThreadPoolExecutor(1, thread_name_prefix="ohhell-computer")
        self._searching = _Pool(processes) if processes else None
        self._quick = _Batches(quick_processes) if processes and quick_processes else None

    async def start(self) -> None:
        """Start the worker processes now rather than at the first decision."""
        if self._quick is not None:
            self._quick.start()
        if self._searching is not None:
            await self._searching.warm()

    async def decide(self, level: str, view: SeatView, seed: str, names: Sequence[str] = ()) -> Move:
        """The move of the computer player of ``level`` for ``view.seat``; ``seed`` seeds its random generator.

        ``names`` (the seats' names) are what its Why? calls the players.
        """
        return await self._ask(("decide", level, view, seed, tuple(names) or _seat_names(view)))

    async def hint(self, view: SeatView, names: Sequence[str] = ()) -> Move:
        """The hint for the person at ``view.seat``, from that view only."""
        return await self._ask(("hint", "", view, "", tuple(names) or _seat_names(view)))

    async def _ask(self, request: Request) -> Move:
        kind, level = request[0], request[1]
        if kind == "decide" and level in SEARCHING_LEVELS and self._searching is not None:
            try:
                return await asyncio.wrap_future(self._searching.submit(answer, request))
            except BrokenProcessPool:
                self._searching.renew()
                return await asyncio.wrap_future(self._searching.submit(answer, request))
        if self._quick is not None and not (kind == "decide" and level in SEARCHING_LEVELS):
            return await self._quick.submit(request)
        return await asyncio.get_running_loop().run_in_executor(self._thread, answer, request)

    def close(self) -> None:
        """Stop the workers now, dropping decisions not yet made."""
        self._thread.shutdown(wait=False, cancel_futures=True)
        if self._searching is not None:
            self._searching.close()
        if self._quick is not None:
            self._quick.close()
