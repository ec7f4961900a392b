"""A crowd of new games waits its turn (:mod:`ohhell.web.openings`): at most so many openings are worked on at once,
a socket gives up its turn once seated, nothing else waits, and a stuck opening cannot stop the server."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from starlette.types import Message, Receive, Scope, Send

from ohhell.web.openings import OPENINGS_AT_ONCE, Openings, is_opening


def http_scope(method: str, path: str) -> Scope:
    return {"type": "http", "method": method, "path": path}


def socket_scope(path: str) -> Scope:
    return {"type": "websocket", "path": path}


async def nothing_received() -> Message:
    await asyncio.sleep(3600)
    raise AssertionError("unreachable")


async def call(app: Any, scope: Scope, sent: list[Message] | None = None) -> None:
    async def send(message: Message) -> None:
        if sent is not None:
            sent.append(message)

    await app(scope, nothing_received, send)


def test_what_opens_a_table() -> None:
    assert is_opening(http_scope("POST", "/api/games"))
    assert is_opening(socket_scope("/ws/games/12"))
    assert not is_opening(http_scope("GET", "/api/games"))
    assert not is_opening(http_scope("POST", "/api/games/12/replay-deal"))
    assert not is_opening(socket_scope("/ws/watch/abc"))
    assert not is_opening({"type": "lifespan"})


def test_at_most_so_many_new_games_are_worked_on_at_once() -> None:
    inside = 0
    most = 0

    async def new_game(scope: Scope, receive: Receive, send: Send) -> None:
        nonlocal inside, most
        inside += 1
        most = max(most, inside)
        await asyncio.sleep(0.01)  # storing the game
        inside -= 1

    gate = Openings(new_game)

    async def crowd() -> None:
        await asyncio.gather(*(call(gate, http_scope("POST", "/api/games")) for _ in range(5 * OPENINGS_AT_ONCE)))

    asyncio.run(crowd())
    assert most == OPENINGS_AT_ONCE == gate.most_at_once  # the crowd filled the gate, and no more got in
    assert gate.waiting == 0


def test_a_socket_gives_up_its_turn_once_it_is_sent_its_first_state() -> None:
    seated: list[float] = []

    async def seat(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "state"})
        seated.append(time.monotonic())
        await asyncio.sleep(0.5)  # the socket's life at the table: not held

    gate = Openings(seat)

    async def crowd() -> float:
        started = time.monotonic()
        await asyncio.gather(*(call(gate, socket_scope(f"/ws/games/{n}")) for n in range(3 * OPENINGS_AT_ONCE)))
        return started

    started = asyncio.run(crowd())
    assert len(seated) == 3 * OPENINGS_AT_ONCE
    assert max(seated) - started < 0.4  # all were seated while the first ones still played


def test_other_requests_do_not_wait_behind_the_crowd() -> None:
    async def slow(scope: Scope, receive: Receive, send: Send) -> None:
        await asyncio.sleep(0.3 if is_opening(scope) else 0)

    gate = Openings(slow)

    async def crowd() -> float:
        openings = [
            asyncio.create_task(call(gate, http_scope("POST", "/api/games"))) for _ in range(2 * OPENINGS_AT_ONCE)
        ]
        await asyncio.sleep(0.01)
        started = time.monotonic()
        await call(gate, http_scope("GET", "/games/1"))
        took = time.monotonic() - started
        await asyncio.gather(*openings)
        return took

    assert asyncio.run(crowd()) < 0.1


def test_a_stuck_opening_gives_up_its_turn_after_a_while() -> None:
    async def never_sends(scope: Scope, receive: Receive, send: Send) -> None:
        await asyncio.sleep(3600)

    gate = Openings(never_sends, at_once=2, held_at_most=0.05)
    seated: list[Message] = []

    async def seat(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "websocket.send", "text": "state"})

    async def scenario() -> None:
        stuck = [asyncio.create_task(call(gate, socket_scope("/ws/games/1"))) for _ in range(2)]
        await asyncio.sleep(0.01)
        gate.app = seat
        await asyncio.wait_for(call(gate, socket_scope("/ws/games/2"), seated), 1.0)
        for task in stuck:
            task.cancel()
        await asyncio.gather(*stuck, return_exceptions=True)

    asyncio.run(scenario())
    assert seated == [{"type": "websocket.send", "text": "state"}]
    with pytest.raises(ValueError, match="at least one"):
        Openings(never_sends, at_once=0)
