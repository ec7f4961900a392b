"""The one door to the computer players (:mod:`ohhell.bots`): their moves, Hint and Why?.

Every call to the bots is here, so that a change of their interface touches one module. A bot is only
ever given one seat's :class:`~ohhell.view.SeatView`. Its reasons are shown to the other seats (Why?),
so :func:`ohhell.bots.public.public_explanation` takes out every card the bot still holds before they leave the server.
A Hint is a bot's decision for the human seat, from that seat's own view.

:class:`Thinkers` runs them off the event loop: in worker processes by default, so that a Hard player's
search does not hold the interpreter lock the server needs, or in threads of the server process.
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Final

from ohhell.actions import Action, action_text
from ohhell.bots import hints, make_bot
from ohhell.bots.base import Bot
from ohhell.bots.hints import explain
from ohhell.bots.public import public_explanation
from ohhell.view import SeatView

HINT_LEVEL: Final = "normal"
"""The level whose reasoning gives Hints."""
_FALLBACK: Final = {"hard": "normal", "normal": "easy", "easy": "random"}
"""A level the bots package does not offer (yet) plays as the next one down."""


@dataclass(frozen=True)
class Move:
    """A chosen action and the sentence that explains it."""

    action: Action
    reason: str


def bot_for(level: str) -> Bot:
    """The computer player of ``level``, or the nearest weaker one the bots package offers."""
    while True:
        try:
            return make_bot(level)
        except ValueError:
            if level not in _FALLBACK:
                raise
            level = _FALLBACK[level]


def decide(level: str, view: SeatView, rng: random.Random) -> Move:
    """A computer player's move for ``view.seat``, with its reason fit to show every seat (Why?).

    The reason is the bot's own explanation without what would show its hand: the values of the cards it
    did not play and its per-card chances are left out, and any card it still holds is named no more.
    Should a bot ever answer with an action the view does not allow, the seat's first legal action is
    played instead, and the reason says so: a table never stalls on a computer player.
    """
    decision = bot_for(level).decide(view, rng)
    if decision.action not in view.legal_actions:
        fallback = view.legal_actions[0]
        return Move(fallback, f"Played {action_text(fallback)}: its own choice was not allowed here.")
    return Move(decision.action, public_explanation(decision, view))


def hint(view: SeatView) -> Move:
    """The move the computer players' reasoning suggests for the human at ``view.seat``, with why.

    Computed from that seat's view only, so it knows no more than the person asking.
    """
    decision = hints.hint(view, HINT_LEVEL, random.Random(0))
    return Move(decision.action, explain(decision))


def _decide_seeded(level: str, view: SeatView, seed: str) -> Move:
    return decide(level, view, random.Random(seed))


def _warm_up() -> None:
    """Import the bots in a fresh worker, so that the first decision does not wait for it."""
    bot_for("easy")


def _follow_parent(parent: int) -> None:
    """In a worker process: exit as soon as the server process is gone, however it went."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="ohhell-follow-server", daemon=True).start()


CLOSE_SECONDS: Final = 2.0
"""How long a worker process may take to finish its decision when the server stops."""
SEARCHING_LEVELS: Final = frozenset({"hard"})
"""Levels that search for their budget of time; the others decide in a millisecond."""


class Thinkers:
    """Where the computer players think, off the event loop.

    Searching players (Hard) think in ``processes`` worker processes, so that their search never holds the
    interpreter lock the server needs; the instant ones (Easy, Normal, and Hints) in a thread. With
    ``processes=0`` everything runs in threads.
    """

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._threads = ThreadPoolExecutor(thread_name_prefix="ohhell-computer")
        self._workers: ProcessPoolExecutor | None = (
            ProcessPoolExecutor(
                max_workers=processes,
                mp_context=get_context("spawn"),
                initializer=_follow_parent,
                initargs=(os.getpid(),),
            )
            if processes
            else None
        )

    async def start(self) -> None:
        """Start the worker processes now rather than at the first searching move."""
        if self._workers is not None:
            loop = asyncio.get_running_loop()
            await asyncio.gather(*(loop.run_in_executor(self._workers, _warm_up) for _ in range(self.processes)))

    async def decide(self, level: str, view: SeatView, seed: str) -> Move:
        """:func:`decide` off the event loop; ``seed`` seeds the player's random generator."""
        loop = asyncio.get_running_loop()
        pool = self._workers if self._workers is not None and level in SEARCHING_LEVELS else self._threads
        return await loop.run_in_executor(pool, _decide_seeded, level, view, seed)

    async def hint(self, view: SeatView) -> Move:
        """:func:`hint` off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._threads, hint, view)

    def close(self) -> None:
        """Stop the workers now, dropping decisions not yet made."""
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._workers is not None:
            running = list(getattr(self._workers, "_processes", {}).values())  # no public way before Python 3.14
            self._workers.shutdown(wait=False, cancel_futures=True)
            for process in running:
                process.join(timeout=CLOSE_SECONDS)
                if process.is_alive():
                    process.terminate()
