"""A whole request within a few seconds, or the connection is closed: uvicorn's HTTP protocol with a deadline.

uvicorn closes a connection that stays idle *after* a response (``timeout_keep_alive``), but nothing bounds the
time before the first request, or the time a request takes to arrive: a client sending one header line every few
seconds (slowloris), or connecting and sending nothing, held its connection for as long as it liked (100 such
slow connections and 300 silent ones were all still open after a minute). :class:`RequestDeadlineProtocol` gives
every request :data:`REQUEST_SECONDS` from its connection (or its first byte, on a kept-alive connection) to its
last byte, head and body; a WebSocket is handed on once its upgrade request is in, and is then kept honest by the
WebSocket pings (an unanswered ping closes it).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

log = logging.getLogger(__name__)

REQUEST_SECONDS: Final = 10.0
"""From a connection's opening (or a kept-alive connection's next request's first byte) to the request's last byte.

A page's request is a few hundred bytes, its largest body 64 KB: a slow phone sends either in well under a second."""
PROTOCOL: Final = "ohhell.site.deadline:RequestDeadlineProtocol"
"""The protocol by name, as uvicorn's ``http`` setting takes it (also in ``--workers`` processes)."""


class RequestDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request is not in whole within the deadline."""

    request_seconds: float = REQUEST_SECONDS
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # the next request of a kept-alive connection: its own deadline from now
            self._arm()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()
        # The transport now belongs to the WebSocket protocol, and this one is never told the connection is lost; its
        # parser calls back into it, so the two would stay alive in a cycle until a full walk of the collector
        # (ohhell.site.collector), which the server makes rare. Breaking the link frees it by reference counting.
        self.parser = None  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            log.info("closing a connection from %s: no whole request within %g s", self.client, self.request_seconds)
            self.transport.close()


__all__ = ["PROTOCOL", "REQUEST_SECONDS", "RequestDeadlineProtocol"]
