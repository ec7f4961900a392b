"""Load on the web game: several people playing at once, over real WebSockets, on loopback.

Start a server first (``.venv/bin/ohhell serve --port 8765 --database sqlite:////tmp/load.sqlite3``), then::

    .venv/bin/python bench/web_load.py --url http://127.0.0.1:8765 --games 20 --level normal

Each simulated person starts a ``short`` game and plays it out by the first legal move; meanwhile a probe asks
``/healthz`` every 50 ms. Printed: how long the server took to answer a move with its own action, how long until the
person was to act again (the computer players' turns included), and the probe's answer times, which show whether the
event loop stayed free while the computer players thought. Bounded: one connection per game, loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect


def percentiles(values: list[float]) -> str:
    """Median, 95th percentile and maximum, in milliseconds."""
    if not values:
        return "no samples"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"median {1000 * statistics.median(ordered):.1f} ms, p95 {1000 * p95:.1f} ms, max {1000 * ordered[-1]:.1f} ms"
    )


async def play_one_game(url: str, level: str, answers: list[float], turns: list[float]) -> None:
    """Start a short game and play it to the end by the first legal move, timing each answer."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        (await client.get("/")).raise_for_status()
        body = {"preset": "short", "computers": [{"name": n, "level": level} for n in ("A", "B", "C")]}
        game = (await client.post("/api/games", json=body)).json()
        token = client.cookies.get("ohhell_player")
    socket_url = url.replace("http", "ws", 1) + f"/ws/games/{game['id']}"
    async with connect(socket_url, additional_headers={"Cookie": f"ohhell_player={token}"}) as socket:
        state: dict[str, Any] = {}
        sent_at: float | None = None
        while True:
            message = json.loads(await socket.recv())
            if message["type"] == "action" and sent_at is not None and message["seat"] == 0:
                answers.append(time.perf_counter() - sent_at)
            if message["type"] not in ("state", "action"):
                continue
            state = message if message["type"] == "state" else message["state"]
            game_part, deal = state["game"], state["deal"]
            if game_part["over"]:
                return
            if game_part["waiting_for_next"]:
                await socket.send(json.dumps({"type": "next", "deal": game_part["next_deal"]}))
                sent_at = None
                continue
            if not deal["my_turn"]:
                continue
            if sent_at is not None:
                turns.append(time.perf_counter() - sent_at)
            if deal["bids"]:
                move = {"type": "bid", "bid": next(o["bid"] for o in deal["bids"] if o["allowed"])}
            else:
                move = {"type": "play", "card": deal["playable"][0]}
            sent_at = time.perf_counter()
            await socket.send(json.dumps({**move, "seq": state["seq"]}))


async def probe(url: str, samples: list[float], stop: asyncio.Event) -> None:
    """Ask /healthz every 50 ms until told to stop."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        while not stop.is_set():
            started = time.perf_counter()
            (await client.get("/healthz")).raise_for_status()
            samples.append(time.perf_counter() - started)
            await asyncio.sleep(0.05)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8765")
    parser.add_argument("--games", type=int, default=10, help="people playing at once")
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    args = parser.parse_args()
    answers: list[float] = []
    turns: list[float] = []
    health: list[float] = []
    stop = asyncio.Event()
    prober = asyncio.create_task(probe(args.url, health, stop))
    started = time.perf_counter()
    await asyncio.gather(*(play_one_game(args.url, args.level, answers, turns) for _ in range(args.games)))
    elapsed = time.perf_counter() - started
    stop.set()
    await prober
    print(f"{args.games} short games at once, {args.level} computer players: {elapsed:.1f} s in all")
    print(f"your move answered:          {percentiles(answers)} ({len(answers)} moves)")
    print(f"your turn again:             {percentiles(turns)}")
    print(f"/healthz while they played:  {percentiles(health)} ({len(health)} probes)")


if __name__ == "__main__":
    asyncio.run(main())
