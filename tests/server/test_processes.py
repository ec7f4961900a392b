"""Several ``ohhell serve`` processes on one PostgreSQL database, meeting in Redis: any process serves any game,
one owns each table, and when the owner is killed another takes the table over with nothing acknowledged lost."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from ohhell.server.processes.hub import key_prefix
from ohhell.server.table import snapshot
from server.serving import (
    REDIS,
    RunningServer,
    fresh_postgres,
    player,
    require_services,
    run_async,
    start_game,
    token_of,
)

TAKEOVER_SECONDS = 5.0


class Seat:
    """A socket of the person's seat, holding the state as the page does, and the moves the server acknowledged."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.state: dict[str, Any] = {}
        self.acknowledged: list[tuple[int, str]] = []
        self.states = 0

    async def receive(self, timeout: float = 20.0) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        if message["type"] in ("state", "action"):
            self.state = snapshot.merge(self.state, message)
            self.states += message["type"] == "state"
        if message["type"] == "action" and message["seat"] == 0:
            self.acknowledged.append((message["seq"], message["action"]))
        return message

    async def drain(self) -> None:
        """Read until the connection ends."""
        while True:
            await self.receive(timeout=5)

    async def until_my_turn(self) -> dict[str, Any]:
        while True:
            await self.receive()
            game, deal = self.state["game"], self.state["deal"]
            if game["over"] or game["waiting_for_next"] or deal["my_turn"]:
                return self.state

    async def move(self) -> None:
        """The first legal move (or Next hand), then read until it is the person's turn again."""
        state = self.state
        deal = state["deal"]
        if state["game"]["waiting_for_next"]:
            message: dict[str, Any] = {"type": "next", "deal": state["game"]["next_deal"]}
        elif deal["bids"]:
            bid = next(o["bid"] for o in deal["bids"] if o["allowed"])
            message = {"type": "bid", "bid": bid, "seq": state["seq"], "deal": deal["index"]}
        else:
            message = {"type": "play", "card": deal["playable"][0], "seq": state["seq"], "deal": deal["index"]}
        await self.socket.send(json.dumps(message))
        await self.until_my_turn()


def socket_url(server: RunningServer, game_id: int) -> str:
    return f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"


def test_any_process_serves_any_game_and_a_killed_owner_is_replaced(
    two_servers: tuple[RunningServer, RunningServer],
) -> None:
    first, second = two_servers
    client = player(first)
    game = start_game(client)
    cookie = {"Cookie": f"ohhell_player={token_of(client)}"}

    async def scenario() -> tuple[float, list[tuple[int, str]], dict[str, Any]]:
        async with (
            connect(socket_url(first, game["id"]), additional_headers=cookie) as owned,
            connect(socket_url(second, game["id"]), additional_headers=cookie) as relayed,
        ):
            here, there = Seat(owned), Seat(relayed)
            await here.until_my_turn()
            await there.until_my_turn()
            assert here.state == there.state  # the second process shows the table the first one owns
            for _ in range(3):
                await there.move()  # moves sent to the second process are made by the owner
                while here.state["seq"] < there.state["seq"]:
                    await here.receive()
                assert here.state == there.state
            assert there.acknowledged
            first.kill()  # kill -9: the owner is gone, with its lease still in Redis
            killed_at = time.monotonic()
            with pytest.raises(ConnectionClosed):
                await here.drain()
            states_before = there.states
            while there.states == states_before:  # the second process takes over and sends the whole table
                await there.receive(timeout=TAKEOVER_SECONDS + 5)
            took = time.monotonic() - killed_at
            if not there.state["deal"]["my_turn"]:
                await there.until_my_turn()
            for _ in range(3):
                await there.move()  # and the game goes on there, moves sent during the takeover included
            return took, there.acknowledged, there.state

    took, acknowledged, state = run_async(scenario)
    print(f"taken over in {took:.2f} s; {len(acknowledged)} acknowledged moves checked")
    assert took < TAKEOVER_SECONDS
    log = stored_log(second, game["id"])
    assert sorted(log) == list(range(len(log)))
    for seq, action in acknowledged:
        assert log.get(seq) == (0, action), (seq, action)  # every acknowledged move is in the log
    assert state["seq"] == len(log)


def stored_log(server: RunningServer, game_id: int) -> dict[int, tuple[int, str]]:
    """The game's log, ``seq`` to ``(seat, action)``, read straight from the database."""
    with psycopg.connect(server.database_url) as connection:
        rows = connection.execute("SELECT seq, seat, action FROM actions WHERE game_id = %s", (game_id,)).fetchall()
    return {seq: (seat, action) for seq, seat, action in rows}


def worker_pids(parent: int) -> set[int]:
    """The uvicorn worker processes under ``parent`` (not their own computer players' workers)."""
    children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    found = set()
    for child in children:
        command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
        if b"multiprocessing" in command and b"resource_tracker" not in command:
            found.add(int(child))
    return found


def test_workers_on_one_port_share_the_games_and_a_killed_worker_is_replaced(tmp_path: Path) -> None:
    require_services(redis_too=True)
    with fresh_postgres() as url:
        server = RunningServer(
            url,
            log_path=tmp_path / "server.log",
            extra=["--redis", REDIS, "--workers", "2", "--computer-processes", "0"],
        ).start()
        try:
            assert server.process is not None
            before = worker_pids(server.process.pid)
            assert len(before) == 2
            client = player(server)
            game = start_game(client)
            cookie = {"Cookie": f"ohhell_player={token_of(client)}"}

            async def play(moves: int) -> list[tuple[int, str]]:
                async with connect(socket_url(server, game["id"]), additional_headers=cookie) as socket:
                    seat = Seat(socket)
                    await seat.until_my_turn()
                    for _ in range(moves):
                        await seat.move()
                    return seat.acknowledged

            acknowledged = run_async(lambda: play(3))
            lease = redis.Redis.from_url(REDIS).get(f"{key_prefix(url)}:lease:{game['id']}")
            assert lease is not None
            owner = int((lease.decode() if isinstance(lease, bytes) else str(lease)).split(":")[1])
            assert owner in before  # one of the two workers owns the table
            os.kill(owner, signal.SIGKILL)
            acknowledged += run_async(lambda: play(3))  # a new connection: the table is taken over, play goes on
            log = stored_log(server, game["id"])
            for seq, action in acknowledged:
                assert log.get(seq) == (0, action)
            deadline = time.monotonic() + 20
            while len(worker_pids(server.process.pid)) < 2:  # uvicorn starts a worker in place of the dead one
                assert time.monotonic() < deadline, "no worker replaced the killed one"
                time.sleep(0.5)
        finally:
            server.stop()


def test_the_hub_carries_a_burst_in_order_as_few_publications_and_reads_leases_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Messages queued while the publisher is busy leave as one publication per inbox, and arrive in order; the
    relay's watch reads every relayed table's lease in one round trip."""
    from ohhell.server.processes import hub

    published: list[int] = []
    publications = hub.publications

    def counted(batch: Any) -> list[tuple[str, bytes]]:
        out = publications(batch)
        published.append(len(out))
        return out

    monkeypatch.setattr(hub, "publications", counted)

    async def scenario() -> tuple[list[int], dict[int, str | None], str, str]:
        database = f"sqlite:///hub-test-{time.monotonic_ns()}"
        sender, receiver = hub.RedisHub(REDIS, database), hub.RedisHub(REDIS, database)
        heard: list[int] = []
        everything = asyncio.Event()

        async def on_message(message: dict[str, Any]) -> None:
            heard.append(int(message["n"]))
            if len(heard) == 600:
                everything.set()

        async def nothing_lost(game_id: int) -> None:
            return None

        await sender.start(on_message, nothing_lost)
        await receiver.start(on_message, nothing_lost)
        try:
            for n in range(600):  # queued in one turn: the publisher takes them in rounds of PUBLISH_AT_ONCE
                sender.send(receiver.process_id, {"kind": "deliver", "n": n})
            async with asyncio.timeout(30):
                await everything.wait()
            await sender.acquire(7)
            await receiver.acquire(8)
            return heard, await receiver.owners([7, 8, 9, 7]), sender.process_id, receiver.process_id
        finally:
            await sender.close()
            await receiver.close()

    heard, owners, sender_id, receiver_id = asyncio.run(scenario())
    assert heard == list(range(600))
    assert published == [1, 1]  # 600 messages to one inbox: two rounds of the publisher, one publication each
    assert owners == {7: sender_id, 8: receiver_id, 9: None}


def test_the_hub_listens_and_publishes_again_when_redis_drops_its_connections() -> None:
    """The hub's two wires (:mod:`ohhell.server.processes.wire`) closed by Redis: the subscription is made again and
    the messages flow, in order; the publisher sends the round that found its wire closed again on a new one."""
    from ohhell.server.processes import hub

    async def scenario() -> tuple[list[int], int]:
        database = f"sqlite:///hub-drop-{time.monotonic_ns()}"
        sender, receiver = hub.RedisHub(REDIS, database), hub.RedisHub(REDIS, database)
        heard: list[int] = []

        async def on_message(message: dict[str, Any]) -> None:
            heard.append(int(message["n"]))

        async def nothing_lost(game_id: int) -> None:
            return None

        async def until(condition: Any) -> None:
            async with asyncio.timeout(15):
                while not condition():
                    await asyncio.sleep(0.02)

        await sender.start(on_message, nothing_lost)
        await receiver.start(on_message, nothing_lost)
        admin = redis.asyncio.Redis.from_url(REDIS)
        try:
            sender.send(receiver.process_id, {"kind": "deliver", "n": 0})
            await until(lambda: heard == [0])
            names = {f"ohhell-{receiver.process_id}-listen", f"ohhell-{sender.process_id}-publish"}
            clients = [c for c in await admin.client_list() if c.get("name") in names]
            assert len(clients) == 2, clients
            for client in clients:
                await admin.client_kill_filter(_id=client["id"])
            sent = 0
            while not heard[1:]:  # what is published before the subscription is made again is lost (pub/sub)
                sent += 1
                sender.send(receiver.process_id, {"kind": "deliver", "n": sent})
                await until(lambda: not sender._outbox)
                await asyncio.sleep(0.1)
                assert sent < 150, "the subscription was not made again"
            renamed = [c for c in await admin.client_list() if c.get("name") in names]
            return heard, len(renamed)
        finally:
            await admin.aclose()
            await sender.close()
            await receiver.close()

    heard, wires = asyncio.run(scenario())
    assert heard == sorted(set(heard)) and heard[0] == 0 and len(heard) >= 2, heard
    assert wires == 2  # a new wire each, named again


def test_a_wire_selects_its_database_names_itself_and_says_what_redis_refused() -> None:
    from ohhell.server.processes.wire import Wire

    async def scenario() -> bytes:
        wire = await Wire.open(REDIS.rsplit("/", 1)[0] + "/3", "ohhell-test-wire")
        try:
            wire.send([("CLIENT", "INFO")])
            info: bytes = await wire.reply()
        finally:
            await wire.close()
        with pytest.raises(Exception, match="AUTH"):  # this Redis has no password: Redis's own words come back
            await Wire.open(REDIS.replace("redis://", "redis://:not-the-password@"), "ohhell-test-wire")
        return info

    info = asyncio.run(scenario())
    assert b" db=3 " in info and b" name=ohhell-test-wire " in info, info
