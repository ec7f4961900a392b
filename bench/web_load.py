"""Load on the web game: many people playing at once, over real WebSockets, on loopback only.

    .venv/bin/python bench/web_load.py --games 200 --pace 2 --seconds 60 --json load.json
    .venv/bin/python bench/web_load.py --games 100 --pace full --seconds 30
    .venv/bin/python bench/web_load.py --games 200 --pace full --processes 2 --seconds 30

Unless ``--url`` names a running server, the benchmark starts the server processes it measures itself, on free
loopback ports: one ``ohhell serve`` on a fresh SQLite file, or with ``--processes`` above 1, that many on a fresh
database of the local PostgreSQL meeting in the local Redis (games go to the processes in turn, as a reverse proxy
would send them). Each game has one simulated person, who plays the first legal move every SECONDS (± half of it,
at random) or, with ``--pace full``, as soon as the table lets them, against computer players; when a game ends
the person starts another, until ``--seconds`` have passed. The simulated people speak the browser's protocol:
they hold the state by merging each action's changes (:func:`ohhell.server.table.snapshot.merge`).

Measured: moves acknowledged (a move is acknowledged when the server announces it, which it does only once it is
stored), every action announced per second, the time from sending a move to its acknowledgement, errors (error
messages, failed requests, lost connections), and the server processes' resident memory before, at the peak of,
and after the load (once the idle tables have been let go: ``--settle`` seconds after the last connection
closed). Also the generator's own event loop (how late it woke): an ack is timed when the generator reads it, so
its own pauses would count as the server's; its garbage collector is off during a load, and tables of several
people are scanned for leaks after it. Printed as a table; ``--json FILE`` writes the same figures. Every loop is
bounded in time and count.

The servers' CPU per action is also given against the generator's own CPU over the same load (the reference run
in the same process): the generator does nearly the same work per action whatever the servers' setup (one process
or several, sockets relayed or not: its CPU differed by about 4% between them, since its loop wakes more while one
server answers more slowly, docs/server-load.md, eighteenth round), and the machine's speed, which drifts by half
within an hour on a shared host (seventeenth round), moves both alike. Compare that ratio between runs of one
command that differ only on the server's side (``--processes``, ``--together``, ``--database``).

Only the package's own runtime dependencies are used (``websockets`` comes with uvicorn).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from websockets.asyncio.client import connect

from ohhell.cards import RANK_LETTERS, RANK_NAMES, SUIT_LETTERS, SUIT_NAMES
from ohhell.records import hidden_cards
from ohhell.server.table.snapshot import merge

POSTGRES: Final = "postgresql://postgres@127.0.0.1:5432"
REDIS: Final = "redis://127.0.0.1:6379/0"
STARTUP_SECONDS: Final = 60.0
IDLE_SECONDS: Final = 5.0
"""What the started servers are told (``--idle-seconds``): let a table go 5 s after its last use."""
MESSAGE_TIMEOUT: Final = 30.0

UNLIMITED: Final = [
    f"--{limit}={10**6}"
    for limit in (
        "sockets-per-address",
        "messages-per-person",
        "messages-per-address",
        "new-games-per-address",
        "new-games-per-player",
    )
]
"""Every simulated person shares 127.0.0.1: the limits per address and per player are lifted for the benchmark."""


# ----------------------------------------------------------------- the servers


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def process_tree(pid: int) -> tuple[list[int], float]:
    """A process and every process below it (its quick workers), and the CPU seconds (user + system) they used."""
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    tree, total, todo = [], 0.0, [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        total += times.get(current, 0.0)
        todo.extend(children.get(current, []))
    return tree, total


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by a process and every process below it (its quick workers)."""
    return process_tree(pid)[1]


def context_switches(pid: int) -> tuple[int, int]:
    """How many times the threads of a process and of every process below it gave up a core so far: of their own
    accord (waiting for something: ``voluntary``) and taken off it by the scheduler (``involuntary``)."""
    voluntary = involuntary = 0
    for process in process_tree(pid)[0]:
        try:
            threads = list(Path(f"/proc/{process}/task").iterdir())
        except OSError:
            continue
        for thread in threads:
            try:
                lines = (thread / "status").read_text().splitlines()
            except OSError:
                continue
            for line in lines:
                if line.startswith("voluntary_ctxt_switches:"):
                    voluntary += int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches:"):
                    involuntary += int(line.split()[1])
    return voluntary, involuntary


def rss_mb(pid: int) -> float:
    """A process's resident memory in MB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


@dataclass
class Servers:
    """The ``ohhell serve`` processes the benchmark started (none when ``--url`` names them)."""

    urls: list[str]
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def rss(self) -> float:
        return sum(rss_mb(p.pid) for p in self.processes)

    def cpu(self) -> float:
        return sum(tree_cpu_seconds(p.pid) for p in self.processes)

    def switches(self) -> tuple[int, int]:
        """The servers' and their workers' context switches so far (:func:`context_switches`), added up."""
        counts = [context_switches(p.pid) for p in self.processes]
        return sum(v for v, _ in counts), sum(i for _, i in counts)


def wait_until_quiet(servers: Servers, seconds: float = 30.0) -> float:
    """Wait until the servers' start-up work is done (their workers' imports, the learned networks loaded), so that
    the first load's CPU per action is not charged with it: until a half second passes in which the servers and
    their workers use under a tenth of a core, for ``seconds`` at most. The CPU seconds the wait saw."""
    began = servers.cpu()
    before, deadline = began, time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = servers.cpu()
        if now - before < 0.05:
            break
        before = now
    return servers.cpu() - began


def wait_until_up(url: str, process: subprocess.Popen[bytes] | None) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    host, port = url.removeprefix("http://").split(":")
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"ohhell serve exited with status {process.returncode}")
        try:
            with socket.create_connection((host, int(port)), timeout=1) as probe:
                probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if probe.recv(64).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {STARTUP_SECONDS} s")


@contextmanager
def started_servers(
    count: int, log_dir: Path, postgres: bool = False, time_callbacks: bool = False
) -> Iterator[Servers]:
    """``count`` fresh servers: SQLite for one (unless ``postgres``), PostgreSQL and Redis for more; with
    ``time_callbacks``, on asyncio's loop, each callback timed (``ohhell serve --time-callbacks``)."""
    database_name = f"ohhell_bench_{uuid.uuid4().hex[:10]}"
    postgres = postgres or count > 1
    if not postgres:
        database = f"sqlite:///{log_dir / 'bench.sqlite3'}"
        extra: list[str] = []
    else:
        import psycopg

        with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{database_name}"')
        database = f"{POSTGRES}/{database_name}"
        extra = ["--redis", REDIS]
    servers = Servers([])
    try:
        for index in range(count):
            port = free_port()
            command = [
                sys.executable,
                "-c",
                "from ohhell.cli import main; main()",
                "serve",
                "--port",
                str(port),
                "--database",
                database,
                "--animation-scale",
                "0",
                "--idle-seconds",
                str(IDLE_SECONDS),
                *UNLIMITED,
                *extra,
                *(["--time-callbacks"] if time_callbacks else []),
            ]
            log = open(log_dir / f"server-{index}.log", "wb")  # noqa: SIM115
            servers.processes.append(subprocess.Popen(command, stdout=log, stderr=log))
            servers.urls.append(f"http://127.0.0.1:{port}")
            wait_until_up(servers.urls[-1], servers.processes[-1])  # one at a time: the first migrates the schema
        yield servers
    finally:
        for process in servers.processes:
            process.send_signal(signal.SIGINT)
        for process in servers.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        if postgres:
            import psycopg

            with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{database_name}" WITH (FORCE)')


# ----------------------------------------------------------------- the people


class LoadTimeoutError(TimeoutError):
    """A wait of the load that ran out, saying which: ``opening a socket``, ``a message`` or ``an HTTP answer``."""

    def __init__(self, waiting_for: str) -> None:
        super().__init__(waiting_for)
        self.waiting_for = waiting_for


def error_kind(exc: BaseException) -> str:
    """How an error is counted: its type, and for a timeout what was waited for."""
    if isinstance(exc, LoadTimeoutError):
        return f"TimeoutError ({exc.waiting_for})"
    return type(exc).__name__


async def http(
    url: str, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 request on a connection of its own: status, headers (lower-case names), body."""
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        data = json.dumps(body).encode() if body is not None else b""
        head = [
            f"{method} {path} HTTP/1.1",
            f"Host: {host}:{port}",
            "Connection: close",
            f"Content-Length: {len(data)}",
        ]
        if body is not None:
            head.append("Content-Type: application/json")
        if token is not None:
            head.append(f"Cookie: ohhell_player={token}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        await writer.drain()
        try:
            raw = await asyncio.wait_for(reader.read(), MESSAGE_TIMEOUT)
        except TimeoutError:
            raise LoadTimeoutError("an HTTP answer") from None
    finally:
        writer.close()
    header_part, _, payload = raw.partition(b"\r\n\r\n")
    lines = header_part.decode("latin-1").split("\r\n")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), value.strip())
    return int(lines[0].split()[1]), headers, payload


@dataclass
class Figures:
    moves: int = 0
    actions: int = 0
    games_started: int = 0
    games_finished: int = 0
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    ack: list[float] = field(default_factory=list)
    leaks: int = 0
    """Cards of a hand hidden from a person or spectator that a message to them named (``--people`` only)."""
    scanned: int = 0
    to_scan: list[tuple[dict[str, Any], list[Seated]]] = field(default_factory=list)
    """Finished tables' records and their people's messages, scanned for leaks once the load is over (the scan replays
    every record: done during the load, it held the generator's own loop for up to 0.8 s and counted in the acks of
    every table still playing)."""
    began: float = field(default_factory=time.monotonic)
    minutes: dict[int, Minute] = field(default_factory=dict)
    """The same figures minute by minute of the load (by when they happened), so that a drift shows."""

    def minute(self) -> Minute:
        index = int((time.monotonic() - self.began) // 60)
        return self.minutes.setdefault(index, Minute())

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1
        self.minute().errors += 1

    def acknowledged(self, seconds: float) -> None:
        self.moves += 1
        self.ack.append(seconds)
        self.minute().ack.append(seconds)

    def game_started(self) -> None:
        self.games_started += 1
        self.minute().games_started += 1

    def game_finished(self) -> None:
        self.games_finished += 1
        self.minute().games_finished += 1


@dataclass
class Minute:
    """What happened in one minute of the load."""

    ack: list[float] = field(default_factory=list)
    games_started: int = 0
    games_finished: int = 0
    errors: int = 0


def choose_move(state: dict[str, Any]) -> dict[str, Any]:
    deal = state["deal"]
    if deal["trumps"]:
        move: dict[str, Any] = {"type": "trump", "suit": deal["trumps"][0]}
    elif deal["bids"]:
        move = {"type": "bid", "bid": next(o["bid"] for o in deal["bids"] if o["allowed"])}
    else:
        move = {"type": "play", "card": deal["playable"][0]}
    return {**move, "seq": state["seq"], "deal": deal["index"]}


async def play_games(url: str, args: argparse.Namespace, figures: Figures, deadline: float, rng: random.Random) -> None:
    """One simulated person: game after game until the deadline."""
    body = {"preset": args.preset, "computers": [{"name": n, "level": args.level} for n in ("Ann", "Bob", "Cy")]}
    token: str | None = None
    while time.monotonic() < deadline:
        try:
            status, headers, payload = await http(url, "POST", "/api/games", body, token)
            if status != 201:
                figures.error(f"new game {status}")
                await asyncio.sleep(1)
                continue
            if token is None:
                token = headers["set-cookie"].split(";")[0].split("=", 1)[1]
            game_id = json.loads(payload)["id"]
            figures.game_started()
            if await play_one(url, game_id, token, args.pace, figures, deadline, rng):
                figures.game_finished()
        except (OSError, TimeoutError, ConnectionError) as exc:
            figures.error(error_kind(exc))
            await asyncio.sleep(1)
        except Exception as exc:  # a closed socket, a malformed answer: counted, and the person starts again
            figures.error(error_kind(exc))
            await asyncio.sleep(1)


async def play_one(
    url: str, game_id: int, token: str, pace: float | None, figures: Figures, deadline: float, rng: random.Random
) -> bool:
    """Play one game to its end (True) or until the deadline (False)."""
    socket_url = url.replace("http", "ws", 1) + f"/ws/games/{game_id}"
    opening = connect(socket_url, additional_headers={"Cookie": f"ohhell_player={token}"}, max_size=2**20)
    try:
        ws = await opening
    except TimeoutError:
        raise LoadTimeoutError("opening a socket") from None
    async with ws:
        state: dict[str, Any] = {}
        sent: tuple[int, float] | None = None
        while True:
            try:
                text = await asyncio.wait_for(ws.recv(), MESSAGE_TIMEOUT)
            except TimeoutError:
                raise LoadTimeoutError("a message") from None
            message = json.loads(text)
            kind = message["type"]
            if kind == "error":
                figures.error(f"error {message['code']}")
                sent = None
            elif kind == "action":
                figures.actions += 1
                if sent is not None and message["seq"] == sent[0] and message["seat"] == state["game"]["you"]:
                    figures.acknowledged(time.perf_counter() - sent[1])
                    sent = None
            if kind not in ("state", "action"):
                continue
            state = merge(state, message)
            game, deal = state["game"], state["deal"]
            if game["over"]:
                return True
            if time.monotonic() >= deadline:
                return False
            if sent is not None:
                continue
            if game["waiting_for_next"]:
                await ws.send(json.dumps({"type": "next", "deal": game["next_deal"]}))
                continue
            if not deal["my_turn"]:
                continue
            if pace is not None:
                await asyncio.sleep(pace * rng.uniform(0.5, 1.5))
            move = choose_move(state)
            sent = (move["seq"], time.perf_counter())
            await ws.send(json.dumps(move))


# ----------------------------------------------------------------- tables of several people (--people K)

_CARD_TEXT: Final = re.compile(r"\b([2-9TJQKA][SHDC])\b")
_CARD_NAME: Final = re.compile(r"\b(" + "|".join(RANK_NAMES) + r") of (" + "|".join(SUIT_NAMES) + r")\b", re.IGNORECASE)


def cards_named(message: Any) -> set[str]:
    """Every standard card a message names, as card text (``QH``) or in words (``queen of hearts``)."""
    text = json.dumps(message)
    found = set(_CARD_TEXT.findall(text))
    for rank, suit in _CARD_NAME.findall(text):
        found.add(RANK_LETTERS[RANK_NAMES.index(rank.lower())] + SUIT_LETTERS[SUIT_NAMES.index(suit.lower())])
    return found


def leaks_in(record: dict[str, Any], seat: int, texts: list[str]) -> int:
    """How many cards hidden from ``seat`` the messages it received named, each at the moment it came."""
    hidden = hidden_cards(record, seat)
    state: dict[str, Any] = {}
    leaked = 0
    for text in texts:
        message = json.loads(text)
        kind = message.get("type")
        if kind in ("state", "action") and (state or kind == "state"):
            state = merge(state, message)
        if kind == "chat" or not state:
            continue  # what people typed is not what the table told (and the waiting room names no card)
        moment = (state["deal"]["index"], state["seq"])
        leaked += len(cards_named(message) & hidden.get(moment, set()))
    return leaked


@dataclass
class Seated:
    """One simulated person's socket at a table of several people."""

    seat: int
    token: str | None
    url: str
    texts: list[str] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)


async def play_seat(
    ws: Any, person: Seated, args: argparse.Namespace, figures: Figures, rng: random.Random, host: bool
) -> bool:
    """Play the person's seat to the end of the game (True); the host also presses Next hand and counts actions."""
    sent: tuple[int, float] | None = None
    await ws.send(json.dumps({"type": "chat", "phrase": "good-luck"}))
    while True:
        text = str(await asyncio.wait_for(ws.recv(), MESSAGE_TIMEOUT))
        person.texts.append(text)
        message = json.loads(text)
        kind = message["type"]
        if kind == "error":
            figures.error(f"error {message['code']}")
            sent = None
        elif kind == "action":
            figures.actions += host
            if sent is not None and message["seq"] == sent[0] and message["seat"] == person.seat:
                figures.acknowledged(time.perf_counter() - sent[1])
                sent = None
        if kind not in ("state", "action") or (kind == "action" and not person.state):
            continue
        person.state = merge(person.state, message)
        game, deal = person.state["game"], person.state["deal"]
        if game["over"]:
            return True
        if sent is not None:
            continue
        if game["waiting_for_next"]:
            if host:
                await ws.send(json.dumps({"type": "next", "deal": game["next_deal"]}))
            continue
        if not deal["my_turn"]:
            continue
        if args.pace is not None:
            await asyncio.sleep(args.pace * rng.uniform(0.5, 1.5))
        move = choose_move(person.state)
        sent = (move["seq"], time.perf_counter())
        await ws.send(json.dumps(move))


async def play_table(
    urls: list[str], index: int, args: argparse.Namespace, figures: Figures, rng: random.Random
) -> None:
    """One table: the host sets it with ``--people`` - 1 seats for friends, the friends take them through the invite
    link (each its own cookie), a spectator watches, and they play one whole game; then every message each of them
    received is checked against the record for cards hidden from them."""
    people = args.people
    spread = 0 if args.together else 1  # spread over the processes (relayed to the owner), or all at the owner's
    where = [urls[(index + spread * i) % len(urls)] for i in range(people + 1)]
    body = {
        "preset": args.preset,
        "name": "Host",
        "computers": [{"name": f"Cpu{i}", "level": args.level} for i in range(1, args.players)],
        "friends": list(range(1, people)),
    }
    try:
        status, headers, payload = await http(where[0], "POST", "/api/games", body)
        if status != 201:
            figures.error(f"new game {status}")
            return
        figures.game_started()
        game_id = json.loads(payload)["id"]
        host = Seated(0, headers["set-cookie"].split(";")[0].split("=", 1)[1], where[0])
        codes: asyncio.Future[tuple[str, str]] = asyncio.get_running_loop().create_future()
        spectator = Seated(-1, None, where[people])
        seated = [host]

        async def host_plays() -> bool:
            socket_url = host.url.replace("http", "ws", 1) + f"/ws/games/{game_id}"
            cookie = {"Cookie": f"ohhell_player={host.token}"}
            async with connect(socket_url, additional_headers=cookie, max_size=2**20) as ws:
                while True:  # the waiting room: until every friend is here
                    text = str(await asyncio.wait_for(ws.recv(), MESSAGE_TIMEOUT))
                    host.texts.append(text)
                    message = json.loads(text)
                    if message["type"] != "people":
                        continue
                    if not codes.done():
                        codes.set_result((message["invite"].rsplit("/", 1)[1], message["watch"].rsplit("/", 1)[1]))
                    if all(s["connected"] for s in message["seats"][:people]) and message["watching"]:
                        break
                await ws.send(json.dumps({"type": "start"}))
                return await play_seat(ws, host, args, figures, rng, True)

        async def friend_plays(seat: int) -> bool:
            invite, _ = await codes
            url = where[seat]
            status, headers, _ = await http(url, "POST", f"/api/join/{invite}", {"name": f"P{seat}", "seat": seat})
            if status != 201:
                figures.error(f"join {status}")
                return False
            friend = Seated(seat, headers["set-cookie"].split(";")[0].split("=", 1)[1], url)
            seated.append(friend)
            cookie = {"Cookie": f"ohhell_player={friend.token}"}
            async with connect(url.replace("http", "ws", 1) + f"/ws/games/{game_id}", additional_headers=cookie) as ws:
                return await play_seat(ws, friend, args, figures, rng, False)

        async def spectator_watches() -> bool:
            _, watch = await codes
            socket_url = spectator.url.replace("http", "ws", 1) + f"/ws/watch/{watch}?name=Watcher"
            async with connect(socket_url, max_size=2**20) as ws:
                while not (spectator.state and spectator.state["game"]["over"]):
                    text = str(await asyncio.wait_for(ws.recv(), MESSAGE_TIMEOUT))
                    spectator.texts.append(text)
                    message = json.loads(text)
                    if message["type"] in ("state", "action") and (spectator.state or message["type"] == "state"):
                        spectator.state = merge(spectator.state, message)
            return True

        results = await asyncio.gather(
            host_plays(), *(friend_plays(seat) for seat in range(1, people)), spectator_watches()
        )
        if not all(results):
            return
        figures.game_finished()
        status, _, payload = await http(host.url, "GET", f"/api/games/{game_id}/record", token=host.token)
        if status != 200:
            figures.error(f"record {status}")
            return
        figures.to_scan.append((json.loads(payload), [*seated, spectator]))
    except (OSError, TimeoutError, ConnectionError) as exc:
        figures.error(error_kind(exc))
    except Exception as exc:  # a closed socket, a malformed answer: counted
        figures.error(error_kind(exc))


def per_action(
    actions: int, transactions: int, switches_start: tuple[int, int], switches_end: tuple[int, int]
) -> dict[str, float]:
    """What the servers did per action besides running Python: the journal's transactions (group commit: a
    process with half the moves commits smaller batches, more of them), and the times their threads gave up a core
    of their own accord or were taken off one (two processes and their workers on two cores share them more).
    docs/server-load.md (twenty-second round) found these to be where two processes' extra CPU goes."""
    if not actions:
        return {"transactions": 0.0, "voluntary_switches": 0.0, "involuntary_switches": 0.0}
    return {
        "transactions": round(transactions / actions, 3),
        "voluntary_switches": round((switches_end[0] - switches_start[0]) / actions, 2),
        "involuntary_switches": round((switches_end[1] - switches_start[1]) / actions, 2),
    }


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def ack_figures(values: list[float]) -> dict[str, float]:
    """p50, p99 and max of acknowledgement times, in ms."""
    return {
        "p50": round(1000 * statistics.median(values), 1) if values else 0.0,
        "p99": round(1000 * percentile(values, 0.99), 1),
        "max": round(1000 * max(values, default=0.0), 1),
    }


async def server_stats(urls: list[str]) -> list[dict[str, Any]]:
    """Each server's ``/api/server-stats`` (its event loop's lag, its tables' counts); ``{}`` where it has none."""
    answers = []
    for url in urls:
        try:
            status, _, payload = await http(url, "GET", "/api/server-stats")
            answers.append(json.loads(payload) if status == 200 else {})
        except (OSError, TimeoutError, ValueError):
            answers.append({})
    return answers


def loop_figures(
    before: list[dict[str, Any]], after: list[dict[str, Any]], began: float, ended: float
) -> tuple[dict[str, Any], dict[int, tuple[float, float]]]:
    """The servers' own measures over the load (unix times ``began`` to ``ended``): the longest loop lag and
    hold-up (:mod:`ohhell.site.loopwatch`), where the loop was held up, the longest collection, the series ended and
    started; and the lag and hold-up minute by minute."""
    lag_max = held_max = busy_max = stuck_max = gc_max = 0.0
    stalls = 0
    by_minute: dict[int, tuple[float, float]] = {}
    table_counts = (
        ("started", "series_started"),
        ("ended", "series_ended"),
        ("let_go", "tables_let_go"),
        ("journal_batches", "journal_batches"),
        ("journal_busy", "journal_busy"),
        ("journal_log_restarts", "journal_log_restarts"),
        ("journal_restart_total_ms", "journal_restart_total_ms"),
    )
    counts = {name: 0 for _, name in table_counts} | {"old_generation_walks": 0}
    walk_max = log_mb = restart_max = 0.0
    sites: dict[str, int] = {}
    for first, last in zip(before, after, strict=True):
        loop = last.get("loop")
        if not loop:
            continue
        size = loop["window_seconds"]
        for window in loop["windows"]:
            if window["start"] + size <= began or window["start"] >= ended:
                continue
            lag_max = max(lag_max, window["lag_max_ms"])
            held_max = max(held_max, window["held_max_ms"])
            busy_max = max(busy_max, window.get("busy_max_ms", 0.0))
            stuck_max = max(stuck_max, window.get("stuck_max_ms", 0.0))
            gc_max = max(gc_max, window["gc_max_ms"])
            stalls += window["stalls"]
            minute = int(max(0.0, window["start"] - began) // 60)
            lag, held = by_minute.get(minute, (0.0, 0.0))
            by_minute[minute] = (max(lag, window["lag_max_ms"]), max(held, window["held_max_ms"]))
        earlier = {site["stack"]: site["seen"] for site in first.get("loop", {}).get("stall_sites", [])}
        for site in loop["stall_sites"]:
            seen = site["seen"] - earlier.get(site["stack"], 0)
            if seen > 0:
                sites[site["stack"]] = sites.get(site["stack"], 0) + seen
        tables_then, tables_now = first.get("tables", {}), last.get("tables", {})
        for key, name in table_counts:
            counts[name] += tables_now.get(key, 0) - tables_then.get(key, 0)
        log_mb = max(log_mb, tables_now.get("journal_log_bytes", 0) / 2**20)  # SQLite's log file at the end
        restart_max = max(restart_max, tables_now.get("journal_restart_max_ms", 0.0))
        old_then, old_now = first.get("old_generation", {}), last.get("old_generation", {})
        if old_now.get("walks", 0) > old_then.get("walks", 0):  # full walks of the collector (ohhell.site.collector)
            counts["old_generation_walks"] += old_now["walks"] - old_then.get("walks", 0)
            walk_max = max(walk_max, old_now.get("walk_max_ms", 0.0))
    counts["journal_restart_total_ms"] = round(counts["journal_restart_total_ms"], 1)
    figures = {
        "lag_max_ms": round(lag_max, 1),
        "held_max_ms": round(held_max, 1),
        "busy_max_ms": round(busy_max, 1),
        "stuck_max_ms": round(stuck_max, 1),
        "stalls": stalls,
        "gc_max_ms": round(gc_max, 1),
        "old_generation_walk_max_ms": round(walk_max, 1),
        **counts,
        "journal_log_mb": round(log_mb, 1),
        "journal_restart_max_ms": round(restart_max, 1),
        "stall_sites": [{"seen": n, "stack": site} for site, n in sorted(sites.items(), key=lambda kv: -kv[1])[:5]],
        "callbacks": callback_figures(after, began, ended),
    }
    return figures, by_minute


def callback_figures(after: list[dict[str, Any]], began: float, ended: float) -> dict[str, Any] | None:
    """The single callbacks' figures over the load (servers started with ``--time-callbacks``,
    :mod:`ohhell.site.callbacktimes`): how many ran, the longest held and on a core, how many held the loop 20 ms or
    more, and the longest few by name; ``None`` where no server timed them."""
    timed = [stats["callbacks"] for stats in after if stats.get("callbacks")]
    if not timed:
        return None
    count = slow = 0
    held_max = cpu_max = 0.0
    longest: list[dict[str, Any]] = []
    by_minute: dict[int, float] = {}
    for callbacks in timed:
        size = callbacks["window_seconds"]
        for window in callbacks["windows"]:
            if window["start"] + size <= began or window["start"] >= ended:
                continue
            count += window["callbacks"]
            slow += window["slow"]
            held_max = max(held_max, window["held_max_ms"])
            cpu_max = max(cpu_max, window["cpu_max_ms"])
            longest += window["longest"]
            minute = int(max(0.0, window["start"] - began) // 60)
            by_minute[minute] = max(by_minute.get(minute, 0.0), window["held_max_ms"])
    longest.sort(key=lambda timed: -timed["held_ms"])
    return {
        "callbacks": count,
        "held_max_ms": held_max,  # as the servers rounded it, as each of the longest is
        "cpu_max_ms": cpu_max,
        "slow": slow,
        "longest": longest[:5],
        "held_max_ms_by_minute": [round(by_minute.get(m, 0.0), 1) for m in range(max(by_minute, default=-1) + 1)],
    }


PROBE_SECONDS: Final = 0.005


async def watch_own_loop(lags: list[float]) -> None:
    """The load generator's own event loop: how late each 5 ms sleep woke (ms), until cancelled. An acknowledgement
    is timed when the generator reads it, so a generator that holds its loop adds that much to the acks it times:
    this says whether a figure is the server's or the generator's."""
    while True:
        began = time.perf_counter()
        await asyncio.sleep(PROBE_SECONDS)
        lags.append(1000 * (time.perf_counter() - began - PROBE_SECONDS))


def own_loop_figures(lags: list[float]) -> dict[str, float]:
    return {
        "p99": round(percentile(lags, 0.99), 1),
        "max": round(max(lags, default=0.0), 1),
        "late_20ms": sum(lag >= 20 for lag in lags),
    }


async def run_load(urls: list[str], args: argparse.Namespace, servers: Servers | None) -> dict[str, Any]:
    stats_before = await server_stats(urls)
    figures = Figures()
    own_lags: list[float] = []
    own_watch = asyncio.create_task(watch_own_loop(own_lags))
    began = time.time()
    rss_start = servers.rss() if servers else 0.0
    cpu_start = servers.cpu() if servers else 0.0
    switches_start = servers.switches() if servers else (0, 0)
    own_cpu_start = time.process_time()
    peak = rss_start
    started = time.monotonic()
    deadline = started + args.seconds
    rng = random.Random(args.seed)
    people = []
    for index in range(args.games):
        if args.people:  # a table of several people playing one game
            task = play_table(urls, index, args, figures, random.Random(rng.random()))
        else:
            task = play_games(urls[index % len(urls)], args, figures, deadline, random.Random(rng.random()))
        people.append(asyncio.create_task(task))
        if index % 50 == 49:
            await asyncio.sleep(0.05)  # a crowd arrives over a moment, not in one instant
    while not all(p.done() for p in people) and time.monotonic() < deadline + MESSAGE_TIMEOUT:
        await asyncio.sleep(0.5)
        if servers:
            peak = max(peak, servers.rss())
    elapsed = min(time.monotonic(), deadline) - started
    if args.people and all(p.done() for p in people):
        elapsed = time.monotonic() - started
    server_cpu = servers.cpu() - cpu_start if servers else 0.0
    switches_end = servers.switches() if servers else (0, 0)
    own_cpu = time.process_time() - own_cpu_start
    own_watch.cancel()
    loop, lag_by_minute = loop_figures(stats_before, await server_stats(urls), began, began + elapsed)
    callback_minutes = loop["callbacks"]["held_max_ms_by_minute"] if loop["callbacks"] else []
    for person in people:
        person.cancel()
    await asyncio.gather(*people, return_exceptions=True)
    for record, seated in figures.to_scan:  # after the load: the scan's work is not in any ack
        for seat in seated:
            figures.leaks += leaks_in(record, seat.seat, seat.texts)
            figures.scanned += 1
    end = 0.0
    if servers:
        await asyncio.sleep(args.settle)
        end = servers.rss()
    return {
        "games": args.games,
        "processes": len(urls),
        "pace": "full" if args.pace is None else args.pace,
        "preset": args.preset,
        "level": args.level,
        "seconds": round(elapsed, 1),
        "games_started": figures.games_started,
        "games_finished": figures.games_finished,
        "people": args.people,
        "leaks": figures.leaks if args.people else None,
        "sockets_scanned": figures.scanned,
        "moves_acknowledged": figures.moves,
        "actions": figures.actions,
        "actions_per_second": round(figures.actions / elapsed, 1) if elapsed else 0.0,
        "ack_ms": ack_figures(figures.ack),
        "errors": figures.errors,
        "error_kinds": figures.error_kinds,
        "rss_mb": {"start": round(rss_start, 1), "peak": round(peak, 1), "end": round(end, 1)},
        "cpu_seconds": {"servers": round(server_cpu, 1), "load": round(own_cpu, 1), "cores": os.cpu_count()},
        "server_cpu_ms_per_action": round(1000 * server_cpu / figures.actions, 3) if figures.actions else 0.0,
        "server_cpu_per_load_cpu": round(server_cpu / own_cpu, 3) if own_cpu else 0.0,
        "per_action": per_action(figures.actions, loop["journal_batches"], switches_start, switches_end),
        "loop": loop,
        "generator_loop_ms": own_loop_figures(own_lags),
        "minutes": [
            {
                "minute": index + 1,
                "ack_ms": ack_figures(minute.ack),
                "games_started": minute.games_started,
                "games_finished": minute.games_finished,
                "errors": minute.errors,
                "loop_lag_max_ms": lag_by_minute.get(index, (0.0, 0.0))[0],
                "loop_held_max_ms": lag_by_minute.get(index, (0.0, 0.0))[1],
                "callback_held_max_ms": callback_minutes[index] if index < len(callback_minutes) else None,
            }
            for index, minute in sorted(figures.minutes.items())
        ],
    }


def measured(urls: list[str], args: argparse.Namespace, servers: Servers | None) -> dict[str, Any]:
    """One load, with the generator's own garbage collector off while it runs.

    An acknowledgement is timed when the generator reads it, so the generator's own pauses count in the acks: with
    the collector on, a thousand people's states made it pause up to 179 ms (its oldest generation) and 57 ms (the
    middle one) in a 60 s load. Off, a 120 s load of a thousand games left 91 objects for it to collect and the
    generator's peak memory at 129 MB; they are collected before the next load, outside what is measured.
    """
    gc.collect()  # what earlier loads left, before this one is measured
    gc.disable()
    try:
        return asyncio.run(run_load(urls, args, servers))
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games at once (one simulated person each)")
    parser.add_argument("--pace", default="2", help="seconds between a person's moves, or 'full'")
    parser.add_argument("--processes", type=int, default=1, help="server processes to start (PostgreSQL+Redis if >1)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the load lasts")
    parser.add_argument(
        "--settle", type=float, default=2 * IDLE_SECONDS + 5, help="wait before the last memory reading"
    )
    parser.add_argument("--preset", default="short")
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument(
        "--database", choices=("sqlite", "postgres"), help="one process on PostgreSQL too (more always are)"
    )
    parser.add_argument(
        "--people", type=int, default=0, help="tables of this many people (1 to --players), each with a spectator"
    )
    parser.add_argument("--players", type=int, default=4, help="seats at a table of several people")
    parser.add_argument(
        "--together", action="store_true", help="a table's people on one process (else spread: relayed sockets)"
    )
    parser.add_argument(
        "--time-callbacks",
        action="store_true",
        help="start the servers on asyncio's loop with each callback timed (the longest single piece of work)",
    )
    parser.add_argument("--url", action="append", help="a running server to load instead (repeatable)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="loads one after another on the same servers")
    args = parser.parse_args()
    args.pace = None if args.pace == "full" else float(args.pace)
    if not 1 <= args.games <= 5000 or not 1 <= args.processes <= 8 or not 0 < args.seconds <= 3600:
        parser.error("--games 1..5000, --processes 1..8, --seconds up to 3600")
    if not 1 <= args.repeat <= 10:
        parser.error("--repeat from 1 to 10")
    if (args.people and not 1 <= args.people <= args.players) or not 3 <= args.players <= 7:
        parser.error("--people from 1 to --players, --players from 3 to 7")
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    results: list[dict[str, Any]] = []
    if args.url:
        results = [measured(args.url, args, None) for _ in range(args.repeat)]
    else:
        with (
            tempfile.TemporaryDirectory(prefix="ohhell-load-") as folder,
            started_servers(args.processes, Path(folder), args.database == "postgres", args.time_callbacks) as servers,
        ):
            wait_until_quiet(servers)
            for _ in range(args.repeat):  # one after another on the same servers: does memory come back?
                results.append(measured(servers.urls, args, servers))
                report(results[-1], args)
            for index in range(len(servers.urls)):
                log = (Path(folder) / f"server-{index}.log").read_text(errors="replace")
                said = logged(log)
                results[-1].setdefault("server_log", {})[str(index)] = said
                for line, count in list(said.items())[:12]:
                    print(f"  server {index} logged {count}x: {line}")
                if "Traceback" in log:
                    print(f"server {index} logged a traceback:\n{log[-3000:]}", file=sys.stderr)
    if args.url:
        for result in results:
            report(result, args)
    if args.json:
        written: Any = results[0] if args.repeat == 1 else results
        args.json.write_text(json.dumps(written, indent=2) + "\n")
    sys.stdout.flush()


STARTED_LINE: Final = re.compile(r"^Oh Hell! is at ")


def logged(log: str) -> dict[str, int]:
    """What a server wrote to its log besides its start line (warnings, errors: a worker process that died, a
    traceback's lines), each line with its numbers as N, counted, most often first."""
    lines = (line.strip() for line in log.splitlines())
    counts = Counter(re.sub(r"\d+", "N", line)[:200] for line in lines if line and not STARTED_LINE.match(line))
    return dict(counts.most_common())


def report(result: dict[str, Any], args: argparse.Namespace) -> None:
    """The figures of one load, printed as a table, then minute by minute."""
    pace = "full speed" if args.pace is None else f"a move every {args.pace:g} s"
    setting = f"{args.preset}, {args.level} computer players"
    if args.people:
        setting += f", tables of {args.people} people of {args.players} seats with a spectator each"
    print(f"{result['games']} games ({setting}), {pace}, {result['processes']} process(es), {result['seconds']} s")
    loop = result["loop"]
    rows = [
        ("moves acknowledged", result["moves_acknowledged"]),
        ("actions per second", result["actions_per_second"]),
        (
            "ack p50 / p99 / max (ms)",
            f"{result['ack_ms']['p50']} / {result['ack_ms']['p99']} / {result['ack_ms']['max']}",
        ),
        ("games started / finished", f"{result['games_started']} / {result['games_finished']}"),
        (
            "server: series started / ended, let go",
            f"{loop['series_started']} / {loop['series_ended']}, {loop['tables_let_go']}",
        ),
        (
            "server loop: lag / held up max, stalls, gc",
            f"{loop['lag_max_ms']} / {loop['held_max_ms']} ms (busy {loop['busy_max_ms']},"
            f" stuck {loop['stuck_max_ms']}), {loop['stalls']} held 20 ms+, gc {loop['gc_max_ms']} ms",
        ),
        (
            "collector: full walks of the old generation",
            f"{loop['old_generation_walks']} (longest {loop['old_generation_walk_max_ms']} ms)",
        ),
        (
            "journal: SQLite log at the end, restarts (wait longest / mean)",
            f"{loop['journal_log_mb']} MB, {loop['journal_log_restarts']} ({loop['journal_restart_max_ms']}"
            f" / {loop['journal_restart_total_ms'] / max(1, loop['journal_log_restarts']):.1f} ms)",
        ),
        (
            "load generator's own loop: late p99 / max",
            f"{result['generator_loop_ms']['p99']} / {result['generator_loop_ms']['max']} ms,"
            f" {result['generator_loop_ms']['late_20ms']} times 20 ms+ (in every ack it timed then)",
        ),
        ("hidden cards seen (leaks)", "not scanned" if result["leaks"] is None else result["leaks"]),
        ("errors", f"{result['errors']} {result['error_kinds'] or ''}"),
        (
            "server RSS start / peak / end (MB)",
            f"{result['rss_mb']['start']} / {result['rss_mb']['peak']} / {result['rss_mb']['end']}",
        ),
        (
            "CPU s: servers / load generator",
            f"{result['cpu_seconds']['servers']} / {result['cpu_seconds']['load']} "
            f"({result['server_cpu_ms_per_action']} ms of server per action, {result['server_cpu_per_load_cpu']}x the"
            f" generator's CPU, {result['cpu_seconds']['cores']} cores)",
        ),
        (
            "per action: transactions, switches",
            f"{result['per_action']['transactions']} journal transactions, context switches"
            f" {result['per_action']['voluntary_switches']} waiting / {result['per_action']['involuntary_switches']}"
            " taken off a core (servers and workers)",
        ),
    ]
    for name, value in rows:
        print(f"  {name:<40} {value}")
    for site in loop["stall_sites"][:3]:
        print(f"  stalled {site['seen']}x at {site['stack']}")
    callbacks = loop.get("callbacks")
    if callbacks:  # --time-callbacks: the servers ran on asyncio's loop, each callback timed on its own
        print(
            f"  {'single callbacks (asyncio loop): held / CPU max':<40} {callbacks['held_max_ms']} /"
            f" {callbacks['cpu_max_ms']} ms, {callbacks['slow']} of {callbacks['callbacks']} held 20 ms+"
        )
        for timed in callbacks["longest"][:3]:
            print(f"    {timed['held_ms']} ms held ({timed['cpu_ms']} ms CPU): {timed['name']}")
    print(
        "  minute  ack p50 / p99 / max (ms)   started  finished  errors  loop lag / held max (ms)"
        + ("  single callback held max (ms)" if callbacks else "")
    )
    for minute in result["minutes"]:
        ack = minute["ack_ms"]
        print(
            f"  {minute['minute']:>6}  {ack['p50']:>6} / {ack['p99']:>6} / {ack['max']:>6}"
            f"   {minute['games_started']:>7}  {minute['games_finished']:>8}"
            f"  {minute['errors']:>6}  {minute['loop_lag_max_ms']:>10} / {minute['loop_held_max_ms']:<8}"
            + (f"  {minute.get('callback_held_max_ms')}" if callbacks else "")
        )


if __name__ == "__main__":
    main()
