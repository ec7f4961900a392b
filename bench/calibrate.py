"""Fit ``ohhell.bots.chances.CALIBRATION``: how often cards with a given counted chance really take a trick.

Normal players play each other over a mix of presets, table sizes and hand
sizes. At every decision, each card in the deciding seat's hand is recorded
with its counted chance (:func:`~ohhell.bots.chances.raw_chances`), its kind
(trump, side suit, no-trump deal) and the tricks left; when the deal ends we
know whether it took a trick. The winning rate per counted-chance bin, kept
monotone and shrunk toward the counted chance where data are thin, is printed
as the Python table to paste into ``chances.py``. Run it twice: the second fit
sees play that already uses the first.

Run: ``python bench/calibrate.py [--deals 3000] [--workers 2]``
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from multiprocessing import Pool

from ohhell.bots import make_bot
from ohhell.bots.base import Decision
from ohhell.bots.chances import CALIBRATION, SIZE_GROUPS, card_kind, opponent_table, raw_chances, size_group
from ohhell.bots.knowledge import read_view
from ohhell.bots.table import play_deal
from ohhell.cards import SUIT_OF
from ohhell.deal import deal_from_pack
from ohhell.dealnumbers import shuffled_pack
from ohhell.rules import Rules
from ohhell.view import SeatView

BINS = 11
PRIOR_WEIGHT = 20.0
"""Pseudo-observations at the counted chance itself, for bins with few cards."""

Counts = dict[tuple[int, int, int], list[float]]


def _setups(seed: int) -> Iterator[Rules]:
    rng = random.Random(seed)
    while True:
        preset = rng.choice(("full", "up-and-down", "magicians"))
        players = rng.randint(3, 6)
        pack = 60 if preset == "magicians" else 52
        size = rng.randint(1, min(12, (pack - 1) // players))
        yield Rules.preset(preset, players=players, schedule=(size,))


class Recorder:
    """Notes, at every decision, each card of the deciding seat with its kind, size group and counted chance."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int, int, float]] = []

    def observe(self, view: SeatView, decision: Decision) -> None:
        """Record the deciding seat's cards (not at a trump choice, where trump is not known yet)."""
        if view.phase == "choosing-trump":
            return
        known = read_view(view)
        left = known.held[view.seat]
        leading = view.trick_leader == view.seat and not view.trick
        for card, p in raw_chances(known, known.hand, left, leading, opponent_table(known)).items():
            if SUIT_OF[card] < 4:
                self.seen.append((card, card_kind(card, view.trump), size_group(left), p))


def collect(args: tuple[int, int]) -> Counts:
    """Play ``count`` deals from ``start`` and count cards by (kind, size group, bin): [cards, wins, sum of raw]."""
    start, count = args
    bot = make_bot("normal")
    counts: Counts = {}
    setups = _setups(start)
    for number in range(start, start + count):
        rules = next(setups)
        deal = deal_from_pack(
            rules, shuffled_pack(number, rules.players, rules.special_cards, 0), number % rules.players, 0
        )
        recorder = Recorder()
        play_deal(deal, [bot] * rules.players, random.Random(number), observe=recorder.observe)
        winners = {t.cards[(t.winner - t.leader) % rules.players] for t in deal.tricks}
        for card, kind, group, p in recorder.seen:
            entry = counts.setdefault((kind, group, round(p * (BINS - 1))), [0.0, 0.0, 0.0])
            entry[0] += 1
            entry[1] += card in winners
            entry[2] += p
    return counts


def fit(counts: Counts) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """The calibration table from the counts: shrunk bin means, made non-decreasing."""
    table = []
    for kind in range(3):
        rows = []
        for group in range(len(SIZE_GROUPS)):
            row = []
            for b in range(BINS):
                cards, wins, _ = counts.get((kind, group, b), [0.0, 0.0, 0.0])
                row.append((wins + PRIOR_WEIGHT * b / (BINS - 1)) / (cards + PRIOR_WEIGHT))
            for b in range(1, BINS):
                row[b] = max(row[b], row[b - 1])
            rows.append(tuple(round(v, 3) for v in row))
        table.append(tuple(rows))
    return tuple(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    chunk = -(-args.deals // args.workers)
    with Pool(args.workers) as pool:
        parts = pool.map(collect, [(i * chunk, chunk) for i in range(args.workers)])
    counts: Counts = {}
    for part in parts:
        for key, (cards, wins, raw) in part.items():
            entry = counts.setdefault(key, [0.0, 0.0, 0.0])
            entry[0] += cards
            entry[1] += wins
            entry[2] += raw
    table = fit(counts)
    drift = max(
        abs(a - b)
        for k, g in zip(table, CALIBRATION, strict=True)
        for r, s in zip(k, g, strict=True)
        for a, b in zip(r, s, strict=True)
    )
    print(f"# {args.deals} deals; largest change from the table in use: {drift:.3f}")
    print("CALIBRATION: tuple[tuple[tuple[float, ...], ...], ...] = (")
    for kind, name in zip(table, ("side suit", "trump", "no-trump deal"), strict=True):
        print(f"    (  # {name}")
        for row in kind:
            print(f"        {row},")
        print("    ),")
    print(")")


if __name__ == "__main__":
    main()
