"""Faults a real server survives: a crash mid-play, a database locked by another process, a damaged database file.

Each runs ``ohhell serve`` as a process of its own on a SQLite file of its own, talks to it over real sockets on
loopback, and bounds every wait.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.table import snapshot
from server.serving import RunningServer, player, run_async, start_game, token_of

TIMEOUT = 20.0


def first_move(state: dict[str, Any]) -> dict[str, Any]:
    deal = state["deal"]
    if state["game"]["waiting_for_next"]:
        return {"type": "next", "deal": state["game"]["next_deal"]}
    if deal["bids"]:
        move: dict[str, Any] = {"type": "bid", "bid": next(o["bid"] for o in deal["bids"] if o["allowed"])}
    else:
        move = {"type": "play", "card": deal["playable"][0]}
    return {**move, "seq": state["seq"], "deal": deal["index"]}


async def play_fast(url: str, game_id: int, token: str, acknowledged: list[tuple[int, int, str]]) -> None:
    """Play as fast as the table answers until the connection ends, keeping every acknowledged person's move."""
    socket_url = url.replace("http", "ws", 1) + f"/ws/games/{game_id}"
    state: dict[str, Any] = {}
    async with connect(socket_url, additional_headers={"Cookie": f"ohhell_player={token}"}) as socket:
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
            if message["type"] not in ("state", "action"):
                continue
            if message["type"] == "action" and message["seat"] == 0:
                acknowledged.append((game_id, message["seq"], message["action"]))
            state = snapshot.merge(state, message)
            game, deal = state["game"], state["deal"]
            if game["over"]:
                return
            if game["waiting_for_next"] or deal["my_turn"]:
                await socket.send(json.dumps(first_move(state)))


def stored(path: Path) -> dict[tuple[int, int], tuple[int, str]]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT game_id, seq, seat, action FROM actions").fetchall()
    return {(game, seq): (seat, action) for game, seq, seat, action in rows}


def test_a_crash_loses_no_acknowledged_move(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    server = RunningServer(f"sqlite:///{database}", animation_scale=0).start()
    client = player(server)
    games = [start_game(client)["id"] for _ in range(8)]
    acknowledged: list[tuple[int, int, str]] = []

    async def crowd() -> None:
        players = [asyncio.create_task(play_fast(server.url, g, token_of(client), acknowledged)) for g in games]
        await asyncio.sleep(3)
        server.kill()  # kill -9 in the middle of play: nothing gets to finish
        await asyncio.gather(*players, return_exceptions=True)

    run_async(crowd)
    assert len(acknowledged) > 50
    log = stored(database)
    for game_id, seq, action in acknowledged:
        assert log.get((game_id, seq)) == (0, action)
    for game_id in games:  # every log is whole: no gap left by a batch half written
        seqs = sorted(seq for g, seq in log if g == game_id)
        assert seqs == list(range(len(seqs)))
    restarted = RunningServer(f"sqlite:///{database}").start()
    try:
        again = httpx.get(f"{restarted.url}/api/games", cookies={"ohhell_player": token_of(client)}, timeout=10)
        assert {g["id"] for g in again.json()} == set(games)
    finally:
        restarted.stop()


def computers_first() -> int:
    """A deal number whose first bidder is a computer player (you are seat 0; the seat after the dealer bids)."""
    return next(n for n in range(100) if Game(Rules.preset("short"), n).first_dealer != 3)


def hold_lock(database: Path, seconds: float, taken: threading.Event) -> None:
    """Another process's writer: holds SQLite's write lock for ``seconds``."""
    connection = sqlite3.connect(database, timeout=10)
    try:
        connection.execute("BEGIN IMMEDIATE")
        taken.set()
        time.sleep(seconds)
        connection.rollback()
    finally:
        connection.close()


def test_a_database_locked_for_seconds_delays_the_computer_players_and_says_so(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    server = RunningServer(f"sqlite:///{database}").start()
    try:
        client = player(server)
        game = start_game(client, number=computers_first())
        taken = threading.Event()
        locker = threading.Thread(target=hold_lock, args=(database, 4.0, taken))
        locker.start()
        taken.wait(5)

        async def watch() -> list[dict[str, Any]]:
            seen: list[dict[str, Any]] = []
            url = f"ws://127.0.0.1:{server.port}/ws/games/{game['id']}"
            async with connect(url, additional_headers={"Cookie": f"ohhell_player={token_of(client)}"}) as socket:
                state: dict[str, Any] = {}
                while not (state and state["deal"]["my_turn"] and seen[-1]["type"] == "notice"):
                    message = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
                    seen.append(message)
                    if message["type"] in ("state", "action"):
                        state = snapshot.merge(state, message)
                return seen

        messages = run_async(watch)
        locker.join()
        notices = [m["code"] for m in messages if m["type"] == "notice"]
        assert notices == ["saving-failed", "saved"]
        assert [m["type"] for m in messages].count("action") >= 1  # the computer players went on once it was free
        blocked = threading.Event()
        locker = threading.Thread(target=hold_lock, args=(database, 3.0, blocked))
        locker.start()
        blocked.wait(5)
        refused = client.post("/api/games", json={"preset": "short"})
        locker.join()
        assert refused.status_code == 503
        assert refused.headers["retry-after"] == "5"
        assert "Traceback" not in refused.text
        assert client.post("/api/games", json={"preset": "short"}).status_code == 201  # and then it works again
    finally:
        server.stop()


def test_a_damaged_database_file_does_not_kill_the_server(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    database.write_bytes(b"this is not a database, it is a note someone left here\n" * 200)
    server = RunningServer(f"sqlite:///{database}", log_path=tmp_path / "server.log")
    server.start(healthy=False)
    try:
        health = httpx.get(f"{server.url}/healthz", timeout=10)
        assert health.status_code == 503
        assert "DatabaseError" in health.json()["database"]
        page = httpx.get(f"{server.url}/", headers={"Accept": "text/html"}, timeout=10)
        assert page.status_code == 503
        assert "try again in a moment" in page.text.lower()
        api = httpx.post(f"{server.url}/api/games", json={"preset": "short"}, timeout=10)
        assert api.status_code == 503
        assert api.json()["detail"].startswith("The game database cannot be used")
        database.unlink()  # someone moves the damaged file away: the server takes a fresh one by itself
        deadline = time.monotonic() + 15
        while httpx.get(f"{server.url}/healthz", timeout=10).status_code != 200:
            assert time.monotonic() < deadline, "the server did not use the database again"
            time.sleep(0.5)
        client = player(server)
        assert start_game(client)["id"] == 1
        assert server.process is not None and server.process.poll() is None
    finally:
        server.stop()
