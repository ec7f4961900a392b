"""uvicorn's WebSocket protocol, freed by reference counting when its connection ends.

uvicorn's sans-I/O WebSocket protocol holds a :class:`websockets.server.ServerProtocol`, which parses what arrives
with a generator kept in its ``parser`` attribute. That generator never finishes: it waits at a ``yield`` even after
the closing handshake or the end of the stream, and its frame holds the ``ServerProtocol``. So every WebSocket
connection, once closed, stayed alive in that reference cycle (the ``ServerProtocol``, its reader and buffers, the
close frames, the two generators) until a full walk of the garbage collector, which this server makes rare
(:mod:`ohhell.site.collector`): 4,000 connections a load of ``bench/web_load.py --games 1000 --pace 2 --seconds
300``, about 10 MB, kept until the old generation was walked (docs/server-load.md, fifteenth round).

:class:`WebSocketProtocol` closes the generator once the connection is lost (nothing drives the parser after that:
uvicorn forgets the connection and refuses to send on it), which ends the cycle.
"""

from __future__ import annotations

from typing import Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

PROTOCOL: Final = "ohhell.site.websocket:WebSocketProtocol"
"""The protocol by name, as uvicorn's ``ws`` setting takes it (also in ``--workers`` processes)."""


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, leaving nothing in a cycle once its connection is lost."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # GeneratorExit at the parser's yield ends its frame, and with it the frame's hold on the ServerProtocol.
        self.conn.parser.close()


__all__ = ["PROTOCOL", "WebSocketProtocol"]
