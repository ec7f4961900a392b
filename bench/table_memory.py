"""What a live table costs in memory, and whether it all comes back when the table is let go.

    .venv/bin/python bench/table_memory.py --preset up-and-down --tables 20
    .venv/bin/python bench/table_memory.py --preset short --tables 50 --moves 20

Opens ``--tables`` tables in one process (a fresh SQLite file, Normal computer players deciding in a thread), has a
simulated person play ``--moves`` moves at each (or the whole game), and reads Python's own allocation count
(tracemalloc) before, with every table live, and after the tables were let go. Printed: KB per live table (the
engine's game with every hand so far, the seats, the Why? reasons of the hand shown, what each connected seat was
last told) and what stayed behind. The simulated people's own copies of the state are not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

from ohhell.rules import Rules
from ohhell.server.storage.store import Store
from ohhell.server.table import snapshot
from ohhell.server.table.live import Table, Tables
from ohhell.server.table.seats import Seat
from ohhell.server.table.thinkers import Thinkers
from ohhell.site import schema

SEATS = [Seat.human("You", "me")] + [Seat.computer(n, "normal") for n in ("Alice", "Bob", "Carol")]


class Person:
    """A connection that keeps the state as the page does (dropped before the measurement)."""

    def __init__(self) -> None:
        self.seat = 0
        self.state: dict[str, Any] | None = None

    async def send(self, text: str) -> None:
        message = json.loads(text)
        if message["type"] == "state" or (message["type"] == "action" and self.state is not None):
            self.state = snapshot.merge(self.state or {}, message)


async def settle(table: Table) -> None:
    for _ in range(10_000):
        task = table._bots
        if task is None or task.done():
            return
        await asyncio.sleep(0.001)


async def play(tables: Tables, rules: Rules, number: int, moves: int) -> tuple[Table, Person]:
    table = await tables.get((await tables.start(rules, number, SEATS, "me")).id)
    person = Person()
    await table.join(person)
    await settle(table)
    for _ in range(moves):
        state = person.state
        assert state is not None
        game, deal = state["game"], state["deal"]
        if game["over"]:
            break
        if game["waiting_for_next"]:
            await table.receive(person, json.dumps({"type": "next", "deal": game["next_deal"]}))
        else:
            if deal["bids"]:
                move: dict[str, Any] = {"type": "bid", "bid": next(o["bid"] for o in deal["bids"] if o["allowed"])}
            else:
                move = {"type": "play", "card": deal["playable"][0]}
            await table.receive(person, json.dumps({**move, "seq": state["seq"], "deal": deal["index"]}))
        await settle(table)
    return table, person


async def measure(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'memory.sqlite3'}"
        schema.upgrade(url)
        store = Store(url)
        tables = Tables(store, Thinkers(0), 0, idle_seconds=0.05)
        rules = Rules.preset(args.preset)
        warm_table, warm_person = await play(tables, rules, 0, 5)  # imports and caches, before counting
        warm_table.leave(warm_person)
        await asyncio.sleep(0.2)
        await tables.let_go_idle()
        gc.collect()
        tracemalloc.start()
        start = tracemalloc.get_traced_memory()[0]
        live = [await play(tables, rules, n, args.moves) for n in range(1, args.tables + 1)]
        for _, person in live:
            person.state = None
        gc.collect()
        full = tracemalloc.get_traced_memory()[0]
        for table, person in live:
            table.leave(person)
        del live
        await asyncio.sleep(0.2)
        await tables.let_go_idle()
        gc.collect()
        end = tracemalloc.get_traced_memory()[0]
        await tables.close()
        await store.close()
    print(f"{args.tables} live {args.preset} tables after {args.moves} moves each:")
    print(f"  per live table        {(full - start) / args.tables / 1024:.1f} KB")
    print(f"  left after letting go {(end - start) / 1024:.1f} KB in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="up-and-down")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=10_000, help="the person's moves at each table (default: all)")
    args = parser.parse_args()
    asyncio.run(measure(args))


if __name__ == "__main__":
    main()
