"""The outbox: a table's sends never wait on one socket; a socket that stops reading is closed, the others go on."""

from __future__ import annotations

import asyncio

import pytest

from ohhell.server.table.outbox import FELL_BEHIND, Outbox, OutboxClosedError


class FakeSocket:
    """A socket whose writes wait until ``reading`` is set, as a WebSocket's do while its buffer is full."""

    def __init__(self, reading: bool = True, broken: bool = False) -> None:
        self.reading = asyncio.Event()
        if reading:
            self.reading.set()
        self.broken = broken
        self.written: list[str] = []
        self.closed: tuple[int, str | None] | None = None

    async def send_text(self, data: str) -> None:
        await self.reading.wait()
        if self.broken:
            raise ConnectionResetError("gone")
        self.written.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_messages_are_written_in_the_order_they_were_sent() -> None:
    async def run() -> list[str]:
        socket = FakeSocket()
        outbox = Outbox(socket)
        for number in range(50):
            await outbox.send(f"m{number}")
        await settle()
        await outbox.aclose()
        return socket.written

    assert asyncio.run(run()) == [f"m{number}" for number in range(50)]


def test_a_socket_that_does_not_read_holds_up_no_sender_and_is_closed_once_too_far_behind() -> None:
    async def run() -> tuple[FakeSocket, FakeSocket, Outbox]:
        stuck, reading = FakeSocket(reading=False), FakeSocket()
        slow, fast = Outbox(stuck, limit=10), Outbox(reading, limit=10)
        for number in range(11):  # a table's broadcast: each send returns at once (one in the stuck write, ten waiting)
            await asyncio.wait_for(slow.send(f"m{number}"), 1)
            await asyncio.wait_for(fast.send(f"m{number}"), 1)
            await settle()
        with pytest.raises(OutboxClosedError, match="fell behind"):
            await slow.send("m11")
        await fast.send("m11")
        await settle()
        with pytest.raises(OutboxClosedError):
            await slow.send("m12")
        await fast.aclose()
        return stuck, reading, slow

    stuck, reading, slow = asyncio.run(run())
    assert reading.written == [f"m{number}" for number in range(12)]
    assert stuck.written == []
    assert stuck.closed == (1013, FELL_BEHIND)
    assert slow.closed and len(slow) == 0


def test_a_socket_whose_write_fails_is_closed_and_takes_nothing_more() -> None:
    async def run() -> tuple[FakeSocket, Outbox]:
        socket = FakeSocket(broken=True)
        outbox = Outbox(socket)
        await outbox.send("m0")
        await settle()
        with pytest.raises(OutboxClosedError):
            await outbox.send("m1")
        return socket, outbox

    socket, outbox = asyncio.run(run())
    assert outbox.closed
    assert socket.closed is not None and socket.closed[0] == 1011


def test_a_write_that_waits_too_long_closes_the_socket() -> None:
    async def run() -> FakeSocket:
        socket = FakeSocket(reading=False)
        outbox = Outbox(socket, timeout=0.05)
        await outbox.send("m0")
        for _ in range(100):
            if outbox.closed:
                break
            await asyncio.sleep(0.02)
        assert outbox.closed
        return socket

    socket = asyncio.run(run())
    assert socket.written == [] and socket.closed is not None and socket.closed[0] == 1011


def test_a_message_to_an_idle_socket_is_written_in_the_senders_own_step() -> None:
    """No turn of the event loop between a table's send and the socket's write when the socket takes it at once
    (each turn a move's acknowledgement waits for is as long as all the work ready in it: docs/server-load.md)."""

    async def run() -> list[list[str]]:
        socket = FakeSocket()
        outbox = Outbox(socket)
        seen = []
        for number in range(3):
            await outbox.send(f"m{number}")
            seen.append(list(socket.written))  # no await between the send and the look
        await outbox.aclose()
        return seen

    assert asyncio.run(run()) == [["m0"], ["m0", "m1"], ["m0", "m1", "m2"]]


def test_a_write_begun_at_once_that_has_to_wait_is_finished_before_the_messages_queued_after_it() -> None:
    async def run() -> tuple[list[str], list[str], bool]:
        socket = FakeSocket(reading=False)
        outbox = Outbox(socket)
        for number in range(4):
            await outbox.send(f"m{number}")  # m0 begun and waiting for the buffer; the others queued
        await settle()
        before = list(socket.written)
        socket.reading.set()
        await settle()
        await outbox.flush()
        after = list(socket.written)
        await outbox.aclose()
        return before, after, outbox.closed

    before, after, closed = asyncio.run(run())
    assert before == []
    assert after == ["m0", "m1", "m2", "m3"]
    assert closed  # by aclose only


def test_a_write_begun_at_once_is_dropped_cleanly_when_the_socket_closes_first() -> None:
    async def run() -> tuple[list[str], Outbox]:
        socket = FakeSocket(reading=False)
        outbox = Outbox(socket)
        await outbox.send("m0")  # begun, waiting
        await outbox.aclose()  # the socket closed before the buffer drained
        socket.reading.set()
        await settle()
        return socket.written, outbox

    written, outbox = asyncio.run(run())
    assert written == [] and outbox.closed
