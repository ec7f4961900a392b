"""Scoring a duplicate event: 1,000 entries of the daily deal's 25 hands, matchpoints and the standings.

The points are drawn at random from the range a hand gives (-10 to 30), with a few entries given up; the figure
is the time :func:`ohhell.duplicate.scoring.score_event` takes for the whole event, the best of ``--rounds``
(the scoring runs once per event, when it closes). A pool of instances splits the field; it is timed too.

Run: ``python bench/duplicate_scoring.py [--entries 1000] [--hands 25] [--rounds 5]``
"""

from __future__ import annotations

import argparse
import random
import time

from ohhell.duplicate.scoring import Entry, score_event


def entries(count: int, hands: int, pool: int, rng: random.Random) -> list[Entry]:
    """``count`` entries, one in 50 given up, spread over ``pool`` instances."""
    return [
        Entry(
            str(index),
            rng.randrange(pool),
            None if rng.random() < 0.02 else tuple(rng.randint(-10, 30) for _ in range(hands)),
        )
        for index in range(count)
    ]


def best_time(field: list[Entry], hands: int, rounds: int, method: str) -> float:
    """The fastest of ``rounds`` scorings of the event, in seconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        score_event(field, hands, method)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=25)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(25)
    for pool in (1, 4):
        field = entries(args.entries, args.hands, pool, rng)
        for method in ("matchpoints", "mean"):
            seconds = best_time(field, args.hands, args.rounds, method)
            print(
                f"{args.entries} entries x {args.hands} hands, pool of {pool}, {method}: "
                f"scored in {seconds * 1000:.1f} ms"
            )


if __name__ == "__main__":
    main()
