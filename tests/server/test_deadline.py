"""The deadline protocol (:mod:`ohhell.site.deadline`) leaves nothing in a cycle when it hands a socket on."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

import pytest
import uvicorn
from websockets.asyncio.client import connect

from ohhell.site.deadline import PROTOCOL, RequestDeadlineProtocol
from server.serving import free_port, serve_in_task


async def echo_once(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A WebSocket that answers one message and closes."""
    assert scope["type"] == "websocket"
    await receive()
    await send({"type": "websocket.accept"})
    message = await receive()
    await send({"type": "websocket.send", "text": message.get("text", "")})
    await send({"type": "websocket.close", "code": 1000})


def test_an_upgraded_connection_is_freed_by_reference_counting_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[weakref.ref[RequestDeadlineProtocol]] = []
    original = RequestDeadlineProtocol.connection_made

    def noted(self: RequestDeadlineProtocol, transport: asyncio.Transport) -> None:
        made.append(weakref.ref(self))
        original(self, transport)

    port = free_port()

    async def run() -> None:
        server = uvicorn.Server(
            uvicorn.Config(echo_once, host="127.0.0.1", port=port, http=PROTOCOL, log_level="warning", lifespan="off")
        )
        serving = await serve_in_task(server)
        for index in range(5):
            async with connect(f"ws://127.0.0.1:{port}/") as ws:
                await ws.send(f"hello {index}")
                assert await ws.recv() == f"hello {index}"
        await asyncio.sleep(0.2)
        server.should_exit = True
        await asyncio.wait_for(serving, 10)

    monkeypatch.setattr(RequestDeadlineProtocol, "connection_made", noted)
    gc.collect()
    gc.disable()
    try:
        asyncio.run(run())
        assert len(made) == 5
        assert [ref() for ref in made] == [None] * 5, "an upgraded connection's HTTP protocol outlived its socket"
    finally:
        gc.enable()
