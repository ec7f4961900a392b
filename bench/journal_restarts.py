"""The journal's restarts of SQLite's write-ahead log under writes that never pause, for one ``RESTART_FRAMES``.

    .venv/bin/python bench/journal_restarts.py --frames 4096 --seconds 40
    .venv/bin/python bench/journal_restarts.py --frames 16384 --seconds 40

Two hundred simulated tables on a fresh SQLite file (in a temporary folder) each store a 40-action game through
:class:`ohhell.server.storage.store.Store`, again and again, for ``--seconds``; then the journal's figures are
printed: restarts of the log, the longest and the mean time the batches waited for one, the time spent inside the
restart's checkpoint, batches committed, and the log file's size at the end. ``LOG_LIMIT_BYTES`` is set to four
times the log a restart allows, so that cuts (``TRUNCATE``) do not mix in. Compare runs of different ``--frames``
made one after another: the disk's speed drifts.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from ohhell.actions import action_text
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.storage import journal
from ohhell.server.storage.store import NewGame, Progress, Store, StoredAction
from ohhell.site import schema

TABLES = 200
ACTIONS = 40
SEATS = [{"name": "You", "kind": "human", "player": "me"}] + [
    {"name": n, "kind": "computer", "level": "normal"} for n in ("Alice", "Bob", "Carol")
]


async def one_table(store: Store, until: float) -> None:
    """Store whole 40-action games of the ``short`` preset, as a table does, until ``until``."""
    rules = Rules.preset("short")
    while time.monotonic() < until:
        game = Game(rules, number=42)
        new = NewGame(deal_number=42, rules=rules.to_json(), first_dealer=game.first_dealer, seats=SEATS, owner="me")
        created = await store.create_game(new)
        for seq in range(ACTIONS):
            seat, action, deal_index = game.to_act, game.legal_actions()[0], game.deal_index
            game.apply(action, seat)
            stored = StoredAction(seq, deal_index, seat, action_text(action), reason=f"reason {seq}")
            await store.append_action(created.id, stored, Progress(game.is_over, list(game.totals), game.winners))


async def measure(url: str, seconds: float) -> dict[str, float]:
    inside: list[float] = []
    checkpoint = journal._Sqlite._checkpoint

    def timed(self: journal._Sqlite, mode: str) -> tuple[bool, int]:
        began = time.perf_counter()
        try:
            return checkpoint(self, mode)
        finally:
            if mode != "PASSIVE":
                inside.append(time.perf_counter() - began)

    journal._Sqlite._checkpoint = timed  # type: ignore[method-assign]
    store = Store(url)
    try:
        backend = store.journal._backend
        assert isinstance(backend, journal._Sqlite)
        until = time.monotonic() + seconds
        await asyncio.gather(*(one_table(store, until) for _ in range(TABLES)))
        restarts = backend.log_restarts
        return {
            "restarts": restarts,
            "wait_longest_ms": round(1000 * backend.longest_restart, 1),
            "wait_mean_ms": round(1000 * backend.restart_waits / max(1, restarts), 1),
            "wait_total_ms": round(1000 * backend.restart_waits),
            "checkpoint_mean_ms": round(1000 * sum(inside) / max(1, len(inside)), 1),
            "batches": store.journal.batches,
            "log_mb": round(backend.log_bytes() / 2**20, 1),
        }
    finally:
        await store.close()
        journal._Sqlite._checkpoint = checkpoint  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=journal.RESTART_FRAMES, help="RESTART_FRAMES to try")
    parser.add_argument("--seconds", type=float, default=40.0)
    args = parser.parse_args()
    if not 1 <= args.frames <= 10**6 or not 0 < args.seconds <= 600:
        parser.error("--frames 1..1000000, --seconds up to 600")
    journal.RESTART_FRAMES = args.frames  # type: ignore[misc]
    journal.LOG_LIMIT_BYTES = 4 * args.frames * 4096  # type: ignore[misc]
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'journal.sqlite3'}"
        schema.upgrade(url)
        figures = asyncio.run(measure(url, args.seconds))
    print(f"RESTART_FRAMES {args.frames}, {args.seconds:g} s, {TABLES} tables writing")
    for name, value in figures.items():
        print(f"  {name:<20} {value}")


if __name__ == "__main__":
    main()
