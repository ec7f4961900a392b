"""The WebSocket protocol (:mod:`ohhell.site.websocket`) leaves nothing in a cycle once its connection ends."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

import pytest
import uvicorn
from uvicorn.importer import import_from_string
from websockets.asyncio.client import ClientConnection, connect
from websockets.server import ServerProtocol

from ohhell.site import deadline, websocket
from ohhell.site.serve import _uvicorn_options
from ohhell.site.websocket import WebSocketProtocol
from ohhell.web.config import ServerConfig
from server.serving import free_port, serve_in_task


async def echo_until_closed(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A WebSocket that answers each message; one saying ``bye`` is answered by closing it."""
    assert scope["type"] == "websocket"
    await receive()
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("text") == "bye":
            await send({"type": "websocket.close", "code": 1000})
            return
        await send({"type": "websocket.send", "text": message.get("text", "")})


async def echoed(client: ClientConnection, index: int) -> None:
    """One message there and back, so the connection is open on both sides."""
    await client.send(f"hello {index}")
    assert await client.recv() == f"hello {index}"


async def serve_and_connect(port: int, ws: str) -> None:
    """Three connections closed by the server, three by the client, three dropped without a closing handshake."""
    server = uvicorn.Server(
        uvicorn.Config(
            echo_until_closed,
            host="127.0.0.1",
            port=port,
            http=deadline.PROTOCOL,
            ws=ws,
            log_level="warning",
            lifespan="off",
        )
    )
    serving = await serve_in_task(server)
    for index in range(3):
        async with connect(f"ws://127.0.0.1:{port}/") as client:
            await echoed(client, index)
            await client.send("bye")
            await client.wait_closed()
        async with connect(f"ws://127.0.0.1:{port}/") as client:
            await echoed(client, index)
        client = await connect(f"ws://127.0.0.1:{port}/")
        await echoed(client, index)
        client.transport.abort()  # the network goes: no closing handshake
    await asyncio.sleep(0.3)
    server.should_exit = True
    await asyncio.wait_for(serving, 10)


def parsers_left(monkeypatch: pytest.MonkeyPatch, ws: str) -> int:
    """How many of the server's WebSocket parsers (``ServerProtocol``) outlive their connections without a
    collection of cycles."""
    made: list[weakref.ref[ServerProtocol]] = []
    original = ServerProtocol.__init__

    def noted(self: ServerProtocol, *args: Any, **kwargs: Any) -> None:
        made.append(weakref.ref(self))
        original(self, *args, **kwargs)

    monkeypatch.setattr(ServerProtocol, "__init__", noted)
    gc.collect()
    gc.disable()
    try:
        asyncio.run(serve_and_connect(free_port(), ws))
        assert len(made) == 9
        return sum(ref() is not None for ref in made)
    finally:
        gc.enable()
        monkeypatch.undo()
        gc.collect()


def test_a_closed_connection_is_freed_by_reference_counting_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parsers_left(monkeypatch, websocket.PROTOCOL) == 0, "a closed WebSocket outlived its connection"


def test_uvicorns_own_protocol_still_keeps_them_in_a_cycle(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the protocol is for: when this fails, uvicorn or websockets no longer needs it."""
    assert parsers_left(monkeypatch, "websockets-sansio") == 9


def test_the_server_uses_it() -> None:
    options = _uvicorn_options("127.0.0.1", 8000, ServerConfig(database_url="sqlite://"))
    assert options["ws"] == websocket.PROTOCOL
    assert import_from_string(options["ws"]) is WebSocketProtocol
