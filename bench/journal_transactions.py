"""What one of the journal's transactions costs the server's process on PostgreSQL, by the number of actions in it.

    .venv/bin/python bench/journal_transactions.py
    .venv/bin/python bench/journal_transactions.py --sizes 1 4 16 --batches 600 --rounds 3

The journal (:mod:`ohhell.server.storage.journal`) writes the actions of many tables as one transaction (group
commit), so the number of transactions a load costs depends on how many actions arrive while the last one commits:
two server processes, each with half the moves, commit about twice as many smaller batches as one
(docs/server-load.md, twenty-second round). This measures the process's CPU (``time.process_time``, so the
database server's own work is not in it) and the wall time of one transaction of ``n`` actions spread over 40
games, written through the journal's own PostgreSQL backend on a fresh database, on uvloop as the server runs. The
reference run is the first size, in the same process; the sizes take turns, ``--rounds`` times, since the machine's
speed drifts. The fixed cost of a transaction is about the first size's; the rest grows with the actions.
"""

from __future__ import annotations

import argparse
import time
import uuid
from typing import Final

import psycopg
import uvloop

from ohhell.server.storage import journal
from ohhell.site import schema

POSTGRES: Final = "postgresql://postgres@127.0.0.1:5432"
GAMES: Final = 40


async def measure(url: str, sizes: list[int], batches: int, rounds: int) -> dict[int, list[tuple[float, float]]]:
    """For each size, each round's CPU and wall seconds a transaction."""
    backend = journal._Postgres(url, {})
    figures: dict[int, list[tuple[float, float]]] = {size: [] for size in sizes}
    try:
        ids: list[int] = []
        for number in range(GAMES):
            new = journal.NewGame(deal_number=number, rules={}, first_dealer=0, seats=[], owner="bench")
            created = await backend.write([journal.CreateGame(new)])
            ids.append(int(created[0] or 0))
        seqs = dict.fromkeys(ids, 0)
        written = 0
        for _ in range(rounds):
            for size in sizes:
                cpu, wall = time.process_time(), time.perf_counter()
                for _ in range(batches):
                    writes: list[journal.Write] = []
                    for _ in range(size):
                        game_id = ids[written % GAMES]
                        written += 1
                        action = journal.StoredAction(seq=seqs[game_id], deal_index=0, seat=0, action="b1")
                        writes.append(journal.AppendAction(game_id, action))
                        seqs[game_id] += 1
                    await backend.write(writes)
                figures[size].append(((time.process_time() - cpu) / batches, (time.perf_counter() - wall) / batches))
    finally:
        await backend.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 4, 16], help="actions a transaction")
    parser.add_argument("--batches", type=int, default=600, help="transactions of each size a round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not args.sizes or min(args.sizes) < 1 or args.batches < 1 or args.rounds < 1:
        parser.error("--sizes, --batches and --rounds must be 1 or more")
    name = f"ohhell_bench_tx_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        schema.upgrade(f"{POSTGRES}/{name}")
        figures = uvloop.run(measure(f"{POSTGRES}/{name}", args.sizes, args.batches, args.rounds))
    finally:
        with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    reference = min(cpu for cpu, _ in figures[args.sizes[0]])
    print(f"{args.batches} transactions a size a round, {args.rounds} rounds; best round of each size:")
    print("  actions   CPU a transaction (us)   wall (us)   CPU an action (us)   CPU against the reference")
    for size in args.sizes:
        cpu, wall = min(figures[size])
        print(
            f"  {size:>7}   {1e6 * cpu:>22.0f}   {1e6 * wall:>9.0f}   {1e6 * cpu / size:>18.1f}"
            f"   {cpu / reference:>8.2f}x ({args.sizes[0]} action{'s' if args.sizes[0] > 1 else ''})"
        )


if __name__ == "__main__":
    main()
