"""Engine throughput: random legal play of complete 4-player 10-card deals, ours against OpenSpiel's.

Both engines are driven from Python in this process, in the same loop shape
(``apply(rng.choice(legal_actions()))`` until the deal is over). OpenSpiel deals
through its chance nodes (a trick count, a dealer, 40 cards and the trump card);
ours shuffles from a deal number. Each side runs for the same wall time, in
alternating rounds so that machine noise hits both; the ratio is ours / OpenSpiel's.

Run: ``python bench/engine_speed.py [--seconds 3] [--rounds 5] [--json FILE]``
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from ohhell.deal import deal_from_pack
from ohhell.dealnumbers import shuffled_pack
from ohhell.rules import Rules

PLAYERS = 4
CARDS = 10


def ours() -> Callable[[random.Random, int], list[int]]:
    """One random deal in our engine."""
    rules = Rules.preset("full", players=PLAYERS, schedule=(CARDS,))

    def play(rng: random.Random, number: int) -> list[int]:
        deal = deal_from_pack(rules, shuffled_pack(number, PLAYERS, False, 0), number % PLAYERS, 0)
        legal = deal.legal_actions
        apply = deal.apply
        choice = rng.choice
        while deal.phase != 3:
            apply(choice(legal()))
        assert deal.points is not None
        return deal.points

    return play


def openspiel() -> Callable[[random.Random, int], list[int]]:
    """One random deal in OpenSpiel's ``oh_hell`` (chance outcomes sampled uniformly)."""
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": CARDS})

    def play(rng: random.Random, number: int) -> list[int]:
        state = game.new_initial_state()
        choice = rng.choice
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        return [int(r) for r in state.returns()]

    return play


def rate(play: Callable[[random.Random, int], list[int]], seconds: float, seed: int) -> float:
    """Deals per second over ``seconds`` of wall time."""
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            play(rng, count)
            count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    engines = {"ohhell": ours(), "openspiel": openspiel()}
    rates: dict[str, list[float]] = {name: [] for name in engines}
    for warm_up in engines.values():
        rate(warm_up, 0.3, 0)
    for r in range(args.rounds):
        for name, play in engines.items():
            rates[name].append(rate(play, args.seconds, r))
    med = {name: statistics.median(v) for name, v in rates.items()}
    ratio = med["ohhell"] / med["openspiel"]
    print(f"Random legal play, {PLAYERS} players, {CARDS}-card deals, {args.rounds} rounds x {args.seconds:g} s each")
    print(f"{'engine':<12}{'deals/s (median)':>18}{'min':>10}{'max':>10}")
    for name, values in rates.items():
        print(f"{name:<12}{med[name]:>18,.0f}{min(values):>10,.0f}{max(values):>10,.0f}")
    print(f"ratio ohhell / openspiel: {ratio:.2f}x (goal: at least 2x)")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"deals_per_second": med, "rounds": rates, "ratio": ratio}, fh, indent=2)


if __name__ == "__main__":
    main()
