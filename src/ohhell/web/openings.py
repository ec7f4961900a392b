"""A crowd of new games waits its turn: the requests that open a table are let in a few at a time.

When a thousand series end within seconds (people who started together stay nearly in step), a thousand new games
and a thousand sockets arrive together. Unchecked, each turn of the event loop ran hundreds of their steps (the
middleware, storing the game, opening its table, its first state) and every move of every other table waited behind
them: one turn of the loop held for 180 ms (docs/server-load.md, fifth round). :class:`Openings`, the outermost
middleware, lets :data:`OPENINGS_AT_ONCE` of them through at a time, before any other middleware has worked on
them; the others wait, costing nothing, in the order they came. A person starting a series waits a moment longer
rather than everyone's moves.

What is an opening: ``POST /api/games`` (a new game), until its answer; a socket of ``/ws/games/`` (a seat at a
table), until its first message (the table's state) or its close: the socket's life after that is not held.
"""

from __future__ import annotations

import asyncio
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

OPENINGS_AT_ONCE: Final = 8
"""Tables opened at once (a new game stored, a socket seated and sent its first state); more wait their turn."""
HELD_AT_MOST_SECONDS: Final = 5.0
"""An opening gives up its turn after this long even if it is not done (a socket that is sent nothing, a slow
database): the gate then only slows the crowd down, and never stops the server opening tables."""


def is_opening(scope: Scope) -> bool:
    """Whether the request opens a table: a new game, or a seat's socket."""
    path = str(scope.get("path", ""))
    if scope["type"] == "websocket":
        return path.startswith("/ws/games/")
    return scope["type"] == "http" and scope.get("method") == "POST" and path == "/api/games"


class Openings:
    """ASGI middleware: at most ``at_once`` openings (:func:`is_opening`) are worked on at a time."""

    def __init__(
        self, app: ASGIApp, at_once: int = OPENINGS_AT_ONCE, held_at_most: float = HELD_AT_MOST_SECONDS
    ) -> None:
        if at_once < 1:
            raise ValueError("at_once: at least one opening at a time")
        self.app = app
        self.at_once = at_once
        self.held_at_most = held_at_most
        self._gate: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.waiting = 0
        """Openings waiting for their turn now."""
        self.most_at_once = 0
        """The most openings worked on at once so far (never above ``at_once``)."""
        self._inside = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_opening(scope):
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        if self._gate is None or self._loop is not loop:  # a semaphore belongs to one loop (tests start several)
            self._gate, self._loop = asyncio.Semaphore(self.at_once), loop
        gate = self._gate
        self.waiting += 1
        try:
            await gate.acquire()
        finally:
            self.waiting -= 1
        self._inside += 1
        self.most_at_once = max(self.most_at_once, self._inside)
        held = True

        def let_go() -> None:
            nonlocal held
            if held:
                held = False
                self._inside -= 1
                gate.release()
                timeout.cancel()

        timeout = loop.call_later(self.held_at_most, let_go)

        async def send_and_let_go(message: Message) -> None:
            if message["type"] in ("websocket.send", "websocket.close"):
                let_go()  # the socket is seated (its first state) or refused: its life after that is not held
            await send(message)

        try:
            await self.app(scope, receive, send_and_let_go if scope["type"] == "websocket" else send)
        finally:
            let_go()


__all__ = ["OPENINGS_AT_ONCE", "Openings", "is_opening"]
