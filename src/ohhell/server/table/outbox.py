"""What a table sends to one WebSocket, written in order by a task of the socket's own.

A table sends each action's messages to every socket at it while it holds its lock. If it waited on each socket's
write, one reader that stopped reading (a phone in a tunnel, a spectator's frozen tab) would hold the whole table
for as long as the write could wait, since a WebSocket's send waits while the connection's buffer is full. So the
table only queues: :meth:`Outbox.send` puts the text in the socket's queue and returns, and the socket's writer
sends the queue in order. A socket whose queue grows past :data:`OUTBOX_MESSAGES` is not reading: it is closed
(code 1013, "try again later"), and its page, which reconnects by itself, gets the whole table again.

A message sent while the socket's writer has nothing to do is written at once, in the sender's own step: a WebSocket's
send returns without waiting while the connection takes what it is given (uvicorn's ``send`` waits only while the
connection's buffer is full), so handing it to the writer would only cost it a turn of the event loop, a turn that
every move's acknowledgement waited for (docs/server-load.md, twentieth round). A write that does have to wait is
handed to the writer, which finishes it (within :data:`SEND_TIMEOUT`) before anything queued after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Coroutine, Generator
from typing import Any, Final, Protocol

log = logging.getLogger(__name__)

OUTBOX_MESSAGES: Final = 1024
"""How many messages a socket may have waiting before it counts as not reading (more than a flood's refusals
before the rate limit closes it, :class:`ohhell.web.guards.RateLimit`; about 1 MB at most)."""
SEND_TIMEOUT: Final = 10.0
"""How long one write may wait for the connection's buffer to drain before the socket counts as gone."""
FELL_BEHIND: Final = "the page fell behind the table: reconnect to see it as it is"


class TextSocket(Protocol):
    """The part of a WebSocket an outbox uses (Starlette's ``WebSocket``)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class OutboxClosedError(ConnectionError):
    """The socket is closed, or was closed for falling behind: nothing more is sent to it."""


class _Started:
    """A coroutine that was started by hand and is now waiting (on what it yielded), as an awaitable that finishes it:
    the task that awaits it waits on what the coroutine waits on, and passes on what it is sent or thrown."""

    def __init__(self, coroutine: Coroutine[Any, Any, None], waiting_on: Any) -> None:
        self.coroutine = coroutine
        self.waiting_on = waiting_on

    def __await__(self) -> Generator[Any, Any, None]:
        coroutine, waiting_on = self.coroutine, self.waiting_on
        while True:
            try:
                sent = yield waiting_on
            except BaseException as exc:  # the awaiting task cancelled: the coroutine is told, as if it were awaited
                try:
                    waiting_on = coroutine.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    waiting_on = coroutine.send(sent)
                except StopIteration:
                    return


class Outbox:
    """The messages waiting for one socket, and the task that writes them."""

    def __init__(self, socket: TextSocket, limit: int = OUTBOX_MESSAGES, timeout: float = SEND_TIMEOUT) -> None:
        self.socket = socket
        self.limit = limit
        self.timeout = timeout
        self._waiting: deque[str] = deque()
        self._ready = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._closing: asyncio.Task[None] | None = None
        self._writing = False
        self._started: _Started | None = None
        """A write begun at once (:meth:`send`) that had to wait: the writer finishes it first."""
        self.closed = False

    def __len__(self) -> int:
        return len(self._waiting)

    async def send(self, text: str) -> None:
        """Queue ``text`` for the socket; :class:`OutboxClosedError` if it is closed or has fallen too far behind."""
        if self.closed:
            raise OutboxClosedError("the connection is closed")
        if len(self._waiting) >= self.limit:
            self._close(1013, FELL_BEHIND)
            raise OutboxClosedError(FELL_BEHIND)
        if not self._waiting and not self._writing:
            self._write_now(text)
            return
        self._waiting.append(text)
        self._wake_writer()

    def _wake_writer(self) -> None:
        self._ready.set()
        if self._writer is None:
            self._writer = asyncio.create_task(self._write())

    def _write_now(self, text: str) -> None:
        """Write ``text`` in this step if the socket takes it without waiting; else the writer finishes the write."""
        coroutine = self.socket.send_text(text)
        try:
            waiting_on = coroutine.send(None)
        except StopIteration:
            return
        except Exception as exc:  # the socket is gone
            self._failed(exc)
            return
        self._writing = True
        self._started = _Started(coroutine, waiting_on)
        self._wake_writer()

    async def _write(self) -> None:
        try:
            while True:
                if self._started is not None:
                    started, self._started = self._started, None
                    async with asyncio.timeout(self.timeout):
                        await started
                    self._writing = False
                while self._waiting:
                    text = self._waiting.popleft()
                    self._writing = True
                    async with asyncio.timeout(self.timeout):
                        await self.socket.send_text(text)
                    self._writing = False
                self._ready.clear()
                await self._ready.wait()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the socket is gone, or could not take a message in time
            self._failed(exc)

    def _failed(self, exc: Exception) -> None:
        log.info("closing a socket that could not be written to: %s", type(exc).__name__)
        self._close(1011, "the connection could not take a message")

    def _close(self, code: int, reason: str) -> None:
        self.closed = True
        self._waiting.clear()
        if self._writer is not None:
            self._writer.cancel()
        self._closing = asyncio.get_running_loop().create_task(self._close_socket(code, reason))

    async def _close_socket(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.socket.close(code, reason)

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait (at most ``timeout`` seconds) until what is waiting has been written: before the server closes the
        socket itself, so that its last words (why it is closing) reach the page."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while not self.closed and (self._waiting or self._writing):
                    await asyncio.sleep(0.01)

    async def aclose(self) -> None:
        """Stop writing (the socket has closed): what was still waiting is dropped."""
        self.closed = True
        self._waiting.clear()
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        if self._started is not None:  # begun, never finished: the writer did not come to it
            self._started.coroutine.close()
            self._started = None
