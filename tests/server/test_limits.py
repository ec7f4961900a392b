"""Limits per person and per address, not per connection: sockets of a seat and of an address, a sync answered to
the socket that asked, socket messages and chat lines counted per person, new games per player and per address.

Against real ``ohhell serve`` processes on loopback (every test client shares 127.0.0.1); every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from ohhell.server.pages.routes import FULL_CODE
from ohhell.server.party.live import CHAT_BURST
from ohhell.server.table.live import MAX_SOCKETS_PER_SEAT
from ohhell.web import guards
from ohhell.web.config import ServerConfig
from server.partyclient import Client, cookie_of, new_table, seat_socket
from server.seriesplay import play_series
from server.serving import RunningServer, player, run_async, start_game

TIMEOUT = 20.0


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[RunningServer]:
    """A server with the default limits, but for 6 sockets per address (to reach the limit with few)."""
    running = RunningServer(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        log_path=tmp_path / "server.log",
        limits=(),
        extra=["--sockets-per-address", "6"],
    ).start()
    yield running
    running.stop()


def game_url(server: RunningServer, game_id: int) -> str:
    return f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"


async def first(socket: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
    return message


async def closed_with(socket: ClientConnection) -> tuple[int, str]:
    """Read until the server closes the socket: its close code and reason."""

    async def read_on() -> None:
        async with asyncio.timeout(TIMEOUT):
            while True:
                await socket.recv()

    with pytest.raises(ConnectionClosed) as closed:
        await read_on()
    received = closed.value.rcvd
    assert received is not None
    return received.code, received.reason


def test_buckets_spend_all_keys_or_none_and_hold_a_bounded_number() -> None:
    buckets = guards.Buckets(per_second=0.001, burst=2, keep=3)
    assert buckets.take("ann", "home") == 0.0
    assert buckets.take("bea", "home") == 0.0
    waited = buckets.take("cy", "home")  # the address is spent: Cy's own token is not
    assert waited > 0 and buckets.wait("cy") == 0.0
    assert buckets.take("ann") == 0.0 and buckets.take("ann") > 0
    for key in range(10):
        buckets.take(f"new-{key}")
    assert len(buckets) == 3  # the least recently used were forgotten


def test_buckets_forget_the_keys_that_are_full_again() -> None:
    """A server meets thousands of new guests an hour: their buckets go once refilled, not only at ``keep``."""
    now = [0.0]
    buckets = guards.Buckets(per_second=1.0, burst=4, clock=lambda: now[0])
    for key in range(100):
        assert buckets.take(f"guest-{key}") == 0.0
    assert len(buckets) == 100
    now[0] = 3.0
    assert buckets.take("guest-0") == 0.0  # used again: kept, at its count
    assert len(buckets) == 100
    now[0] = 4.0  # the others were spent at 0 and are full again; guest-0 was spent at 3
    assert buckets.take("late") == 0.0
    assert len(buckets) == 2
    for _ in range(4):  # guest-0 kept its count: 3 tokens at 3.0, 4 (its burst) at 4.0, and no more
        assert buckets.take("guest-0") == 0.0
    assert buckets.take("guest-0") > 0


def test_the_limits_are_checked_when_the_server_is_configured() -> None:
    with pytest.raises(ValueError, match="trusted proxy is an IP address or network"):
        ServerConfig("sqlite://", trusted_proxies=("nginx.local",))
    with pytest.raises(ValueError, match="sockets_per_address must be from 1"):
        ServerConfig("sqlite://", sockets_per_address=0)
    assert ServerConfig("sqlite://", trusted_proxies=("10.0.0.0/8", "::1")).trusted_proxies == ("10.0.0.0/8", "::1")


def test_a_seat_holds_at_most_four_sockets_and_a_sync_is_answered_to_the_asker_only(server: RunningServer) -> None:
    client = player(server)
    game = start_game(client)
    url, headers = game_url(server, game["id"]), cookie_of(client)

    async def scenario() -> tuple[tuple[int, str], list[str], str]:
        sockets = [Client(await connect(url, additional_headers=headers)) for _ in range(MAX_SOCKETS_PER_SEAT)]
        for socket in sockets:  # the computer players have played up to the person: the table is quiet
            while not socket.my_turn():
                await socket.receive()
        one_more = await connect(url, additional_headers=headers)
        refused = await closed_with(one_more)
        asker, other = sockets[0], sockets[1]
        for _ in range(3):
            await asker.send({"type": "sync"})
        answers = [(await asker.receive())["type"] for _ in range(3)]
        await other.send("not json")  # answered with an error: the first thing this socket is sent since it caught up
        told = (await other.receive())["type"]
        for socket in sockets:
            await socket.socket.close()
        again = await connect(url, additional_headers=headers)  # closed ones make room
        assert (await first(again))["type"] == "state"
        await again.close()
        return refused, answers, told

    refused, answers, told = run_async(scenario)
    assert refused[0] == FULL_CODE and f"open in {MAX_SOCKETS_PER_SEAT} tabs" in refused[1]
    assert answers == ["state"] * 3
    assert told == "error"


def test_a_seat_holds_at_most_four_sockets_across_two_processes(
    two_servers: tuple[RunningServer, RunningServer],
) -> None:
    one, two = two_servers
    client = player(one)
    game = start_game(client)
    headers = cookie_of(client)

    async def scenario() -> tuple[int, str]:
        sockets = [
            await connect(game_url(server, game["id"]), additional_headers=headers) for server in (one, two, one, two)
        ]
        for socket in sockets:
            assert (await first(socket))["type"] == "state"
        refused = []
        for server in (one, two):
            late = await connect(game_url(server, game["id"]), additional_headers=headers)
            refused.append(await closed_with(late))
        for socket in sockets:
            await socket.close()
        assert refused[0] == refused[1]
        return refused[0]

    code, reason = run_async(scenario)
    assert code == FULL_CODE and "tabs" in reason


def test_one_address_holds_a_bounded_number_of_sockets(strict: RunningServer) -> None:
    clients = [player(strict) for _ in range(3)]
    games = [start_game(c) for c in clients]

    async def scenario() -> tuple[int, str]:
        sockets = []
        for client, game in zip(clients, games, strict=True):  # six sockets of three people, at most four a seat
            for _ in range(2):
                socket = await connect(game_url(strict, game["id"]), additional_headers=cookie_of(client))
                assert (await first(socket))["type"] == "state"
                sockets.append(socket)
        late = await connect(game_url(strict, games[0]["id"]), additional_headers=cookie_of(clients[0]))
        refused = await closed_with(late)
        await sockets.pop().close()
        await asyncio.sleep(0.2)  # the server sees the close
        again = await connect(game_url(strict, games[0]["id"]), additional_headers=cookie_of(clients[0]))
        assert (await first(again))["type"] == "state"
        for socket in (*sockets, again):
            await socket.close()
        return refused

    code, reason = run_async(scenario)
    assert code == FULL_CODE and "your address (6)" in reason


def test_socket_messages_are_counted_per_person_not_per_socket(strict: RunningServer) -> None:
    """Four sockets of one seat, 60 messages each: 240 against the person's 100 at once, so some are refused
    (counted per socket, none would be)."""
    client = player(strict)
    game = start_game(client)

    async def scenario() -> list[str]:
        sockets = [await seat_socket(strict, game["id"], client) for _ in range(MAX_SOCKETS_PER_SEAT)]
        for socket in sockets:
            await socket.until("state")
        for _ in range(60):
            for socket in sockets:
                await socket.send({"type": "no-such-message"})
        codes = []
        for socket in sockets:
            for _ in range(60):
                message = await socket.until("error")
                codes.append(message["code"])
            await socket.socket.close()
        return codes

    codes = run_async(scenario)
    assert len(codes) == 240
    burst = 2 * ServerConfig("sqlite://").messages_per_person  # the default: twice the rate at once
    assert codes.count("too-fast") >= 240 - burst - 20  # the burst, and what trickled back meanwhile


def test_chat_is_counted_per_person_however_many_sockets(server: RunningServer) -> None:
    """Four sockets of one person, three lines each, one after another: the person's 5 at once, not 5 a socket."""
    host_client, game_id = new_table(server, friends=[1])

    async def outcome(socket: Client, text: str) -> str:
        await socket.send({"type": "chat", "text": text})
        while True:
            message = await socket.receive()
            if message["type"] == "error":
                return str(message["code"])
            if message["type"] == "chat" and any(line["text"] == text for line in message["lines"]):
                return "shown"

    async def scenario() -> list[str]:
        sockets: list[Client] = []
        for _ in range(MAX_SOCKETS_PER_SEAT):
            socket = await seat_socket(server, game_id, host_client)
            await socket.until("people")
            sockets.append(socket)
        outcomes = [await outcome(socket, f"line {n}-{i}") for n in range(3) for i, socket in enumerate(sockets)]
        for socket in sockets:
            await socket.socket.close()
        return outcomes

    outcomes = run_async(scenario)
    assert set(outcomes) == {"shown", "chat-too-fast"}
    assert outcomes.count("shown") <= CHAT_BURST + 1  # and one more if two seconds passed meanwhile


def test_new_games_are_limited_per_player_and_per_address_with_retry_after(strict: RunningServer) -> None:
    client = player(strict)
    started = [client.post("/api/games", json={"preset": "short"}).status_code for _ in range(11)]
    assert started == [201] * 10 + [429]
    refused = client.post("/api/games", json={"preset": "short"})
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) > 0
    assert "Too many new games from your browser or account" in refused.json()["detail"]
    game_id = client.get("/api/games").json()[0]["id"]
    run_async(lambda: play_series(strict, game_id, client, give_up_at_deal=0))  # over: its deal may be replayed
    assert client.post(f"/api/games/{game_id}/replay-deal").status_code == 429  # a replay is a new game too
    others = [player(strict) for _ in range(3)]  # new browsers at the same address: 30 in all
    codes = [other.post("/api/games", json={"preset": "short"}).status_code for other in others for _ in range(8)]
    assert codes.count(201) == 20 and codes[-1] == 429
    last = others[-1].post("/api/games", json={"preset": "short"})
    assert last.status_code == 429 and "your address" in last.json()["detail"]
    forwarded = httpx.post(  # X-Forwarded-For from a proxy nobody named changes nothing
        f"{strict.url}/api/games", json={"preset": "short"}, headers={"X-Forwarded-For": "198.51.100.7"}
    )
    assert forwarded.status_code == 429


def test_new_games_are_counted_across_two_processes(two_strict_servers: tuple[RunningServer, RunningServer]) -> None:
    """One player alternating between two processes still has 10 new games at once, not 10 a process."""
    one, two = two_strict_servers
    client = player(one)
    token = client.cookies.get("ohhell_player")
    assert token is not None
    clients = [client, httpx.Client(base_url=two.url, cookies={"ohhell_player": token}, timeout=10)]
    codes = [clients[n % 2].post("/api/games", json={"preset": "short"}).status_code for n in range(12)]
    assert codes == [201] * 10 + [429, 429]
    refused = clients[1].post("/api/games", json={"preset": "short"})
    assert int(refused.headers["retry-after"]) > 0
