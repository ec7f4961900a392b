"""A quick yardstick for training: one player against three counting players, on paired deals of the benchmark's rules.

Every deal is played once with the player in each seat (the others counting players), so
that the cards' luck cancels; the margin is the player's points less the mean of
the others', averaged over the seatings, with its standard error over deals.
This is the learning curve's measure; the strength figures of docs/bots-results.md
come from ``bench/bots.py`` (OpenSpiel's ISMCTS).
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass
from functools import cache
from multiprocessing import get_context
from pathlib import Path

from ohhell.bots.base import Bot
from ohhell.bots.learned.network import Network
from ohhell.bots.learned.player import LearnedBot
from ohhell.bots.normal import NormalBot
from ohhell.bots.table import play_deal
from ohhell.cards import cards_of
from ohhell.deal import deal_from_pack
from ohhell.scoring import deal_points
from ohhell.train.selfplay import BENCH_RULES

FIRST_DEAL = 900_000
"""Evaluation deals are shuffled from seeds far from the training data's."""


@dataclass(frozen=True)
class Margin:
    """Points a deal more than the table's other seats, ± one standard error over deals; exact bids."""

    margin: float
    error: float
    exact: float
    deals: int

    def __str__(self) -> str:
        return f"{self.margin:+.2f} ± {self.error:.2f} over {self.deals} deals (exact bids {self.exact:.1%})"


@cache
def _player(bid: Path | None, play: Path | None) -> Bot:
    return LearnedBot(Network.load(bid), Network.load(play)) if bid and play else LearnedBot()


def _one(task: tuple[Path | None, Path | None, int]) -> tuple[float, int]:
    bid, play, seed = task
    player = _player(bid, play)
    rules = BENCH_RULES
    n = rules.players
    margins = []
    exact = 0
    for seat in range(n):
        rng = random.Random(seed)
        pack = cards_of(rules.pack)
        rng.shuffle(pack)
        deal = deal_from_pack(rules, pack, seed % n, 0)
        bots: list[Bot] = [NormalBot() for _ in range(n)]
        bots[seat] = player
        play_deal(deal, bots, random.Random(seed))
        points = [deal_points(b or 0, t, rules) for b, t in zip(deal.bids, deal.tricks_won, strict=True)]
        margins.append(points[seat] - sum(p for s, p in enumerate(points) if s != seat) / (n - 1))
        exact += int(deal.bids[seat] == deal.tricks_won[seat])
    return sum(margins) / n, exact


def against_normal(bid: Path | None, play: Path | None, deals: int, workers: int = 1) -> Margin:
    """The networks in ``bid`` and ``play`` (or the shipped ones) against three counting players."""
    tasks = [(bid, play, FIRST_DEAL + i) for i in range(deals)]
    if workers > 1:
        with get_context("spawn").Pool(workers) as pool:
            results = pool.map(_one, tasks, chunksize=max(1, deals // (4 * workers)))
    else:
        results = [_one(t) for t in tasks]
    values = [m for m, _ in results]
    error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    exact = sum(e for _, e in results) / (len(results) * BENCH_RULES.players)
    return Margin(statistics.fmean(values), error, exact, len(values))
