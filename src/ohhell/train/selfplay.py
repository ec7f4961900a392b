"""Training data from self-play: every choice of every seat, with the tricks that seat went on to take.

Four (or three to seven) copies of one player play whole deals; each decision with
more than one choice becomes a row: the network input for the view and the action
chosen (:mod:`ohhell.bots.learned.features`) and, once the deal is over, how many
more tricks the seat took from there. That is the target the networks learn: the
distribution of the rest of the deal, for the chooser and the play of the table
as they are. The players explore (a random legal choice now and then), so that
actions they would not choose are seen too; the next generation plays by the
networks, and so on (``ohhell train --iterations``).

The deals: :data:`BENCH_SHARE` of them under the benchmark's rules (4 players, 10
cards, :mod:`bench.bots`), the rest under a preset, a number of players and a
hand of the preset's schedule drawn at random, so that one network plays them all.

Nothing here needs torch.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray

from ohhell.actions import BID_BASE
from ohhell.bots.base import Bot, Budget, Decision, playable
from ohhell.bots.hard import HardBot
from ohhell.bots.knowledge import read_view
from ohhell.bots.learned.features import INPUT_SIZE, Reading
from ohhell.bots.learned.network import Network
from ohhell.bots.learned.player import LearnedBot
from ohhell.bots.normal import NormalBot
from ohhell.cards import cards_of
from ohhell.deal import Deal, deal_from_pack
from ohhell.rules import PRESETS, Rules
from ohhell.view import SeatView, seat_view

BENCH_RULES: Final = Rules.preset("full", players=4, schedule=(10,))
"""The rules of ``bench/bots.py``'s strength test (OpenSpiel's ``oh_hell``: 4 players, 10 cards, hook)."""
BENCH_SHARE: Final = 0.4
EXPLORE: Final = 0.1


@dataclass(frozen=True)
class Samples:
    """Rows of network input (``float16`` to halve the memory) with their targets (more tricks taken) and whether
    each row is a bid (``True``) or a card (``False``)."""

    inputs: NDArray[np.float16]
    targets: NDArray[np.int8]
    bids: NDArray[np.bool_]

    def __len__(self) -> int:
        return len(self.targets)

    def save(self, path: Path) -> None:
        """Write to an ``.npz`` file."""
        with path.open("wb") as out:
            np.savez(out, inputs=self.inputs, targets=self.targets, bids=self.bids)

    @classmethod
    def load(cls, path: Path) -> Samples:
        """Read what :meth:`save` wrote."""
        with np.load(path) as data:
            return cls(data["inputs"], data["targets"], data["bids"])

    def part(self, bids: bool) -> Samples:
        """The rows of bids, or of cards."""
        rows = self.bids == bids
        return Samples(self.inputs[rows], self.targets[rows], self.bids[rows])

    @classmethod
    def join(cls, parts: list[Samples]) -> Samples:
        """One set from several."""
        if not parts:
            return cls(np.zeros((0, INPUT_SIZE), np.float16), np.zeros(0, np.int8), np.zeros(0, np.bool_))
        return cls(
            np.concatenate([p.inputs for p in parts]),
            np.concatenate([p.targets for p in parts]),
            np.concatenate([p.bids for p in parts]),
        )


@dataclass(frozen=True)
class Generation:
    """Which player makes the data: the counting player (exploring), the networks in ``bid`` and ``play`` (paths to
    ``.npz`` files), or with ``search`` above 0 the Hard player."""

    bid: Path | None = None
    play: Path | None = None
    explore: float = EXPLORE
    search: int = 0
    """Above 0, the Hard player makes the data (a stronger player than the networks: the data then says what
    happens after a searched choice), with this many simulated deals a decision for its tree search and a
    :data:`FLAT_SHARE` of as many worlds for its flat search (Magicians and Jesters), exploring as the others do."""

    def player(self) -> Bot:
        """The player, built in the process that plays."""
        if self.search > 0:
            return Exploring(HardBot(), self.explore, self.search)
        if self.bid is None or self.play is None:
            return Exploring(NormalBot(level="counting"), self.explore)
        return LearnedBot(Network.load(self.bid), Network.load(self.play), explore=self.explore)


FLAT_SHARE: Final = 0.05
"""A world of the Hard player's flat search costs about twenty simulated deals of its tree search."""


class Exploring:
    """A player (the counting player of the first generation, or Hard) with a random legal choice now and then;
    with ``search``, Hard's budget in simulated deals (so the data does not depend on the machine's speed)."""

    def __init__(self, player: Bot, explore: float, search: int = 0) -> None:
        self.player = player
        self.level = player.level
        self.explore = explore
        self.search = search

    def decide(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> Decision:
        """The player's decision, or a random legal one."""
        if self.search:
            flat = bool(view.rules.special_cards)
            budget = Budget(iterations=max(16, round(self.search * FLAT_SHARE)) if flat else self.search)
        decision = self.player.decide(view, rng, budget)
        choices = playable(view)
        if self.explore and view.phase != "choosing-trump" and len(choices) > 1 and rng.random() < self.explore:
            return dataclasses.replace(decision, action=rng.choice(choices), summary="A random choice.")
        return decision


def training_rules(rng: random.Random) -> tuple[Rules, int]:
    """The rules of one training deal and its place in the schedule."""
    if rng.random() < BENCH_SHARE:
        return BENCH_RULES, 0
    name = rng.choice(sorted(PRESETS))
    special = PRESETS[name].special_cards
    players = rng.randint(3, 6 if special else 7)
    rules = Rules.preset(name, players=players)
    return rules, rng.randrange(rules.deals)


def random_deal(rng: random.Random) -> Deal:
    """A shuffled deal under :func:`training_rules`."""
    rules, index = training_rules(rng)
    pack = cards_of(rules.pack)
    rng.shuffle(pack)
    return deal_from_pack(rules, pack, rng.randrange(rules.players), index)


def play_and_record(
    deal: Deal, player: Bot, rng: random.Random
) -> tuple[list[NDArray[np.float32]], list[int], list[bool]]:
    """Play ``deal`` out with ``player`` in every seat; each choice's input row, more tricks taken, and if a bid."""
    rows: list[NDArray[np.float32]] = []
    bids: list[bool] = []
    pending: list[tuple[int, int]] = []  # (seat, tricks won at the choice)
    while not deal.is_over:
        view = seat_view(deal, deal.to_act)
        decision = player.decide(view, rng)
        action = decision.action
        if len(playable(view)) > 1 and view.phase in ("bidding", "playing"):
            reading = Reading(view, read_view(view))
            if view.phase == "bidding":
                batch = reading.bid_block([action - BID_BASE])[0]
            else:
                batch = reading.card_block([action])[0]
            rows.append(batch[0])
            bids.append(view.phase == "bidding")
            pending.append((view.seat, view.tricks_won[view.seat]))
        deal.apply(action, view.seat)
    final = deal.tricks_won
    return rows, [final[seat] - won for seat, won in pending], bids


def generate(generation: Generation, deals: int, seed: int) -> Samples:
    """``deals`` deals of self-play, seeded (the same seed, generation and count give the same samples)."""
    rng = random.Random(seed)
    player = generation.player()
    rows: list[NDArray[np.float32]] = []
    targets: list[int] = []
    bids: list[bool] = []
    for _ in range(deals):
        deal_rows, deal_targets, deal_bids = play_and_record(random_deal(rng), player, rng)
        rows += deal_rows
        targets += deal_targets
        bids += deal_bids
    inputs = np.stack(rows).astype(np.float16) if rows else np.zeros((0, INPUT_SIZE), np.float16)
    return Samples(inputs, np.asarray(targets, dtype=np.int8), np.asarray(bids, dtype=np.bool_))


def _work(task: tuple[Generation, int, int]) -> Samples:
    return generate(*task)


def generate_parallel(
    generation: Generation,
    deals: int,
    seed: int,
    workers: int,
    chunk: int = 250,
    progress: Callable[[int], None] | None = None,
) -> Samples:
    """:func:`generate` in chunks of ``chunk`` deals over ``workers`` processes; ``progress`` hears deals done."""
    tasks = [(generation, min(chunk, deals - start), seed * 1_000_003 + start) for start in range(0, deals, chunk)]
    parts: list[Samples] = []
    for part, size in _mapped(tasks, workers):
        parts.append(part)
        if progress is not None:
            progress(size)
    return Samples.join(parts)


def _mapped(tasks: list[tuple[Generation, int, int]], workers: int) -> Iterator[tuple[Samples, int]]:
    if workers <= 1:
        for task in tasks:
            yield _work(task), task[1]
        return
    with get_context("spawn").Pool(workers) as pool:
        yield from zip(pool.imap(_work, tasks), (t[1] for t in tasks), strict=True)
