"""Results handed back to many waiting tables a slice per turn of the event loop, not all in one.

A batch of answers (the quick computer players' decisions for hundreds of tables, the journal's commit of hundreds
of actions) resolves as many futures; every table waiting on one then runs its next step (apply, announce, send) in
the *same* turn of the loop, and every other piece of work (a person's move arriving on a socket) waits for that
whole turn: at 1,000 games, turns of about 100 ms (docs/server-load.md, fifth round). :func:`settle_in_slices`
resolves :data:`PER_TURN` of them, and the next slice once the loop has turned, so that the tables' steps are spread
over turns with the other work between them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Final, TypeVar

T = TypeVar("T")

PER_TURN: Final = 32
"""Futures resolved in one turn of the loop (each wakes a table whose next step takes a fraction of a millisecond)."""


def settle_in_slices(pairs: Sequence[tuple[asyncio.Future[T], T | BaseException]], per_turn: int = PER_TURN) -> None:
    """Give each future its result (or exception), :data:`PER_TURN` a turn, in order; a future already done (given
    up on, cancelled) is passed over."""
    if pairs:
        _settle(asyncio.get_running_loop(), pairs, 0, per_turn)


def _settle(
    loop: asyncio.AbstractEventLoop,
    pairs: Sequence[tuple[asyncio.Future[T], T | BaseException]],
    start: int,
    per_turn: int,
) -> None:
    """One slice, and the next one scheduled. A plain function, not a closure that schedules itself: such a closure
    is a reference cycle (the function, its cell, the function) holding the whole batch, futures and answers, until
    the garbage collector's oldest generation is walked, which on a running server is almost never
    (:mod:`ohhell.site.collector`): about 10 MB a 4-minute load at 1,000 games (docs/server-load.md, round twelve)."""
    for future, result in pairs[start : start + per_turn]:
        if future.done():
            continue
        if isinstance(result, BaseException):
            future.set_exception(result)
        else:
            future.set_result(result)
    if start + per_turn < len(pairs):
        loop.call_soon(_settle, loop, pairs, start + per_turn, per_turn)


__all__ = ["PER_TURN", "settle_in_slices"]
