"""Where the computer players think: worker processes that decide as the server would, in batches, and end with it."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import subprocess
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import pytest
import uvloop

from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.table import players
from ohhell.server.table.thinkers import Frames, Thinkers
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


def test_a_worker_answer_read_while_its_body_is_still_on_the_way_is_kept_until_it_has_come() -> None:
    """A worker's ``send_bytes`` of more than 16 KiB writes its length and its body in two writes, and uvloop's
    ``add_reader`` makes the server's end of the pipe non-blocking: woken between the two, ``recv_bytes`` failed
    and the server took a live worker for dead (docs/server-load.md, twenty-first round)."""
    answers = [f"answer {index} " * 8 for index in range(400)]
    body = pickle.dumps(answers)
    assert len(body) > 16384  # multiprocessing writes such a message in two writes
    reading, writing = get_context("spawn").Pipe(duplex=False)

    async def woken_between_the_two_writes() -> tuple[bool, list[list[bytes]], type[BaseException] | None]:
        loop = asyncio.get_running_loop()
        loop.add_reader(reading.fileno(), lambda: None)  # what the server's worker does with the pipe
        loop.remove_reader(reading.fileno())
        nonblocking = not os.get_blocking(reading.fileno())
        frames = Frames(reading.fileno())
        os.write(writing.fileno(), len(body).to_bytes(4, "big"))  # the first of send_bytes's two writes
        read: list[list[bytes]] = [frames.read()]  # the loop woke here: the length, no body yet
        os.write(writing.fileno(), body[:1000])
        read.append(frames.read())
        os.write(writing.fileno(), body[1000:])
        read.append(frames.read())
        # the old way: Connection.recv_bytes on the same non-blocking pipe, woken between the two writes
        os.write(writing.fileno(), len(body).to_bytes(4, "big"))
        failed: type[BaseException] | None = None
        try:
            reading.recv_bytes()
        except BlockingIOError as exc:
            failed = type(exc)
        return nonblocking, read, failed

    nonblocking, read, failed = uvloop.run(woken_between_the_two_writes())
    assert nonblocking  # uvloop's add_reader leaves the pipe so
    assert read[:2] == [[], []]  # nothing yet, and no failure
    assert [pickle.loads(message) for message in read[2]] == [answers]
    assert failed is BlockingIOError  # what the server's worker did before
    writing.close()
    frames = Frames(reading.fileno())
    with pytest.raises(EOFError):
        frames.read()  # the worker gone: its end closed
    reading.close()


def test_two_answers_in_one_read_are_both_given() -> None:
    reading, writing = get_context("spawn").Pipe(duplex=False)
    os.set_blocking(reading.fileno(), False)
    writing.send_bytes(b"first")
    writing.send_bytes(b"x" * 20000)
    assert Frames(reading.fileno()).read() == [b"first", b"x" * 20000]
    writing.close()
    reading.close()
