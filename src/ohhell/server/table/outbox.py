"""What a table sends to one WebSocket, written in order by a task of the socket's own.

A table sends each action's messages to every socket at it while it holds its lock. If it waited on each socket's
write, one reader that stopped reading (a phone in a tunnel, a spectator's frozen tab) would hold the whole table
for as long as the write could wait, since a WebSocket's send waits while the connection's buffer is full. So the
table only queues: :meth:`Outbox.send` puts the text in the socket's queue and returns, and the socket's writer
sends the queue in order. A socket whose queue grows past :data:`OUTBOX_MESSAGES` is not reading: it is closed
(code 1013, "try again later"), and its page, which reconnects by itself, gets the whole table again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Final, Protocol

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
        self._waiting.append(text)
        self._ready.set()
        if self._writer is None:
            self._writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        try:
            while True:
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
            log.info("closing a socket that could not be written to: %s", type(exc).__name__)
            self.closed = True
            self._waiting.clear()
            with contextlib.suppress(Exception):
                await self.socket.close(1011, "the connection could not take a message")

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
