"""How many turns of the event loop a move's acknowledgement waits for, on a server whose loop is kept busy.

    .venv/bin/python bench/ack_turns.py --moves 200 --ballast-ms 5

At 1,000 games a turn of the server's loop takes milliseconds (every table ready at that moment runs its step),
and every hand-over on a move's way (a task woken, a future settled, a thread's answer posted back) waits for the
next turn. So the acknowledgement's wait is about the number of hand-overs on its path times the length of a turn,
and the first of those numbers is a property of the code, not of the machine's load. This benchmark measures it.
It runs ``ohhell serve``'s application in this process (uvicorn on a free loopback port, a fresh SQLite file, the
computer players in their worker process as ``ohhell serve`` has them), adds *ballast* to its loop (a callback that
works ``--ballast-ms`` milliseconds and asks to run again, so that every turn lasts at least that long, as on a busy
server), and plays games as one person at full speed over a real WebSocket in the same loop, counting the turns
between sending each move and receiving its acknowledgement (the server's announcement of it, made once the move
is stored).

Printed: turns a move waits (median, 90th percentile, max), and the milliseconds, beside the **reference run in
the same process**: the same games with no ballast (its turns then count only the loop's own hand-overs while it
spins, so they are not comparable; its milliseconds are). Compare the turns between versions of the code; the
milliseconds of the ballast run are about the turns times the ballast. The client's own hand-overs (a few turns
for the WebSocket library to read a frame) are in both. Every loop here is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Final

import uvicorn
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ohhell.server.table.snapshot import merge
from ohhell.site.app import create_app
from ohhell.web.config import ServerConfig
from web_load import UNLIMITED, choose_move, http

MESSAGE_TIMEOUT: Final = 30.0
RUN_SECONDS: Final = 300.0


class Turns:
    """Counts the loop's turns: a callback that runs once a turn (working ``ballast`` seconds) and asks again."""

    def __init__(self, ballast: float) -> None:
        self.ballast = ballast
        self.count = 0
        self._handle: asyncio.Handle | None = None
        self._stopped = False

    def start(self) -> None:
        self._handle = asyncio.get_running_loop().call_soon(self._tick)

    def _tick(self) -> None:
        self.count += 1
        if self.ballast:
            until = time.perf_counter() + self.ballast
            while time.perf_counter() < until:
                pass
        if not self._stopped:
            self._handle = asyncio.get_running_loop().call_soon(self._tick)

    def stop(self) -> None:
        self._stopped = True
        if self._handle is not None:
            self._handle.cancel()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def serving(folder: Path) -> AsyncIterator[str]:
    """``ohhell serve``'s application on a free loopback port, in this process and loop."""
    limits = {
        option.split("=")[0].removeprefix("--").replace("-", "_"): int(option.split("=")[1]) for option in UNLIMITED
    }
    config = ServerConfig(
        database_url=f"sqlite:///{folder / 'turns.sqlite3'}",
        animation_scale=0,
        computer_processes=1,
        quick_processes=1,
        **limits,  # type: ignore[arg-type]
    )
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(config, own_process=True), host="127.0.0.1", port=port, log_level="warning")
    )
    task = asyncio.create_task(server.serve())
    try:
        for _ in range(600):
            if server.started:
                break
            await asyncio.sleep(0.05)
        else:
            raise RuntimeError("the server did not start within 30 s")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)


async def play(url: str, moves: int, turns: Turns, preset: str) -> list[tuple[int, float]]:
    """Games at full speed until ``moves`` of the person's moves are acknowledged: (turns, seconds) of each."""
    body = {"preset": preset, "computers": [{"name": n, "level": "normal"} for n in ("Ann", "Bob", "Cy")]}
    token: str | None = None
    waits: list[tuple[int, float]] = []
    deadline = time.monotonic() + RUN_SECONDS
    while len(waits) < moves and time.monotonic() < deadline:
        status, headers, payload = await http(url, "POST", "/api/games", body, token)
        if status != 201:
            raise RuntimeError(f"new game: HTTP {status}")
        if token is None:
            token = headers["set-cookie"].split(";")[0].split("=", 1)[1]
        game_id = json.loads(payload)["id"]
        headers_ = {"Cookie": f"ohhell_player={token}"}
        async with connect(url.replace("http", "ws", 1) + f"/ws/games/{game_id}", additional_headers=headers_) as ws:
            state: dict[str, Any] = {}
            sent: tuple[int, int, float] | None = None
            while len(waits) < moves and time.monotonic() < deadline:
                message = json.loads(await asyncio.wait_for(ws.recv(), MESSAGE_TIMEOUT))
                kind = message["type"]
                if kind == "error":
                    raise RuntimeError(f"the server refused a move: {message}")
                ours = kind == "action" and sent is not None and message["seq"] == sent[0]
                if ours and sent is not None and message["seat"] == state["game"]["you"]:
                    waits.append((turns.count - sent[1], time.perf_counter() - sent[2]))
                    sent = None
                if kind not in ("state", "action"):
                    continue
                state = merge(state, message)
                game, deal = state["game"], state["deal"]
                if game["over"]:
                    break
                if sent is not None:
                    continue
                if game["waiting_for_next"]:
                    await ws.send(json.dumps({"type": "next", "deal": game["next_deal"]}))
                    continue
                if not deal["my_turn"]:
                    continue
                move = choose_move(state)
                sent = (move["seq"], turns.count, time.perf_counter())
                await ws.send(json.dumps(move))
    return waits


def summary(waits: list[tuple[int, float]]) -> dict[str, float]:
    counts = sorted(t for t, _ in waits)
    millis = sorted(s * 1000 for _, s in waits)

    def at(values: list[Any], share: float) -> float:
        return float(values[min(len(values) - 1, int(share * len(values)))])

    return {
        "moves": len(waits),
        "turns_p50": statistics.median(counts),
        "turns_p90": at(counts, 0.9),
        "turns_max": counts[-1],
        "ms_p50": statistics.median(millis),
        "ms_p90": at(millis, 0.9),
        "ms_max": millis[-1],
    }


async def measure(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="ohhell-turns-") as folder:
        async with serving(Path(folder)) as url:
            await play(url, 5, Turns(0), args.preset)  # warm: the workers started, the first game's pages read
            for name, ballast in (
                ("reference (no ballast)", 0.0),
                (f"ballast {args.ballast_ms:g} ms", args.ballast_ms),
            ):
                turns = Turns(ballast / 1000)
                turns.start()
                try:
                    results[name] = summary(await play(url, args.moves, turns, args.preset))
                finally:
                    turns.stop()
    return results


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    try:
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200, help="the person's moves measured in each run")
    parser.add_argument("--ballast-ms", type=float, default=5.0, help="the least each turn of the loop takes")
    parser.add_argument("--preset", default="short")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if not 1 <= args.moves <= 10_000 or not 0 < args.ballast_ms <= 100:
        parser.error("--moves must be 1 to 10000 and --ballast-ms above 0 and at most 100")
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:  # the loop uvicorn gives ``ohhell serve``
        results = runner.run(measure(args))
    print(f"{'run':<24} {'moves':>6} {'turns p50':>10} {'p90':>5} {'max':>5} {'ms p50':>8} {'p90':>7} {'max':>7}")
    for name, r in results.items():
        print(
            f"{name:<24} {r['moves']:>6.0f} {r['turns_p50']:>10.0f} {r['turns_p90']:>5.0f} {r['turns_max']:>5.0f}"
            f" {r['ms_p50']:>8.1f} {r['ms_p90']:>7.1f} {r['ms_max']:>7.1f}"
        )
    ballast = results[f"ballast {args.ballast_ms:g} ms"]
    reference = results["reference (no ballast)"]
    print(f"ballast run / reference, ack p50: {ballast['ms_p50'] / reference['ms_p50']:.1f}x")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
