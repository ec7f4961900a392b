"""Where the computer players think: worker processes that decide as the server would, in batches, and end with it."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path

from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.table import players
from ohhell.server.table.thinkers import Thinkers
from server.serving import run_async


def test_worker_processes_decide_as_the_server_process_would() -> None:
    game = Game(Rules.preset("short", first_dealer=3), number=99)
    while len(game.deal.tricks) < 2:
        game.apply(game.legal_actions()[0])
    view = game.view(game.to_act)

    async def in_a_worker() -> tuple[players.Move, players.Move]:
        thinkers = Thinkers(1)
        try:
            await thinkers.start()
            return await thinkers.decide("hard", view, "seed"), await thinkers.hint(view)
        finally:
            thinkers.close()

    decided, hinted = run_async(in_a_worker)
    assert decided.action in view.legal_actions
    assert decided.reason
    assert hinted == players.hint(view)


def test_worker_processes_end_with_the_server_however_it_ends(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(
        "import asyncio, time\n"
        "from ohhell.server.table.thinkers import Thinkers\n"
        "async def main() -> None:\n"
        "    await Thinkers(2).start()\n"
        "    print('ready', flush=True)\n"
        "    time.sleep(60)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE)
    assert server.stdout is not None
    assert server.stdout.readline().strip() == b"ready"
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    assert len(children) >= 2  # the workers (and multiprocessing's resource tracker)
    server.send_signal(signal.SIGKILL)
    server.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in children):
        time.sleep(0.2)
    assert not [pid for pid in children if Path(f"/proc/{pid}").exists()]


def test_many_quick_decisions_at_once_go_to_the_worker_in_batches() -> None:
    views = []
    for number in range(40):
        game = Game(Rules.preset("short"), number=number)
        views.append(game.view(game.to_act))

    async def in_workers() -> list[players.Move]:
        thinkers = Thinkers(1, quick_processes=1)
        try:
            await thinkers.start()
            return await asyncio.gather(*(thinkers.decide("normal", v, f"s{i}") for i, v in enumerate(views)))
        finally:
            thinkers.close()

    moves = run_async(in_workers)
    assert moves == [players.decide_seeded("normal", v, f"s{i}") for i, v in enumerate(views)]
