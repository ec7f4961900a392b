"""The Hard player: determinized search over worlds consistent with its view.

For each decision it samples worlds (:mod:`ohhell.bots.sampling`: known voids
respected, other seats' bids weighed as evidence), and in every world tries
each candidate action and plays the deal out: other seats still to bid bid as
the Normal player would, cards are played by the fast rule of thumb of
:func:`~ohhell.bots.tactics.rule_card`, and the last tricks are solved exactly
(every seat playing for its own score). A candidate's value is its mean score
for the deal, under the scoring in force, over the same worlds for every
candidate; the best mean wins. The search stops at its budget, or early once
the best candidate leads every other by a clear margin.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from ohhell.actions import BID_BASE, Action
from ohhell.bots.base import Budget, Decision, Option, playable
from ohhell.bots.chances import points_table
from ohhell.bots.knowledge import Knowledge, read_view
from ohhell.bots.normal import bid_chances, bid_values, choose_trump
from ohhell.bots.playout import ENDGAME_TRICKS, Playout, plays
from ohhell.bots.sampling import BidEvidence, sample_world
from ohhell.cards import SUIT_MASKS, SUIT_OF, Card, card_text
from ohhell.deal import BIDDING, Deal
from ohhell.view import SeatView

DEFAULT_BUDGET: Final = Budget(seconds=0.75)
"""Keeps the median decision under a second on one core for a 10-card deal (``bench/bots.py --parts timing``)."""
MIN_WORLDS: Final = 24
POOL: Final = 128
"""The tree search samples this many worlds and then cycles through them."""
"""Worlds to search before the search may stop early."""
CLEAR_MARGIN: Final = 3.0
"""Stop early once the best candidate leads each other by this many standard errors of the paired difference."""
NOISE: Final = 0.0
"""How often, in the play-outs, another seat plays a random card instead of the rule of thumb's."""
BID_FACTOR: Final = 1.0
"""A bid gets this many times the budget of a card: a missed bid costs the most, and bids are one decision in 11."""
BID_WINDOW: Final = 2
"""Bids searched: those within this many of the Normal player's bid (all of them in short deals)."""


@dataclass
class _Tally:
    """Scores of one candidate, world by world, and how often its goal was met (bid made, trick taken)."""

    scores: list[float] = field(default_factory=list)
    hits: int = 0

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else -math.inf

    @property
    def rate(self) -> float:
        return self.hits / len(self.scores) if self.scores else 0.0


class HardBot:
    """Searches sampled worlds for the action with the best expected score."""

    level = "hard"

    def __init__(
        self,
        budget: Budget = DEFAULT_BUDGET,
        bid_evidence: bool = True,
        margin: bool = False,
        noise: float = NOISE,
        bid_factor: float = BID_FACTOR,
        tree: bool = False,
        exploration: float = 0.7,
    ) -> None:
        self.budget = budget
        self.bid_evidence = bid_evidence
        self.margin = margin
        self.noise = noise
        self.bid_factor = bid_factor
        self.tree = tree
        self.exploration = exploration

    def decide(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> Decision:
        """The Hard decision for ``view.seat``; ``budget`` overrides the player's own."""
        actions = playable(view)
        known = read_view(view)
        if view.phase == "choosing-trump":
            return dataclasses.replace(choose_trump(view, known), level="hard")
        limit = budget or self.budget
        if view.phase == "bidding":
            return self._bid(view, known, [a - BID_BASE for a in actions], rng, _scaled(limit, self.bid_factor))
        return self._play(view, known, actions, rng, limit)

    def _bid(self, view: SeatView, known: Knowledge, legal: list[int], rng: random.Random, budget: Budget) -> Decision:
        normal = bid_values(known, bid_chances(known, view.bids, view.first_leader), legal)[0][0]
        candidates = [b for b in legal if abs(b - normal) <= BID_WINDOW]
        seat = view.seat

        def made(deal: Deal, bid: int) -> bool:
            return deal.tricks_won[seat] == bid

        tallies, worlds = self._search(view, known, candidates, BID_BASE, made, rng, budget)
        ranked = self._ranked(candidates, tallies)
        bid = ranked[0]
        best = tallies[bid]
        summary = (
            f"Searched {worlds} sampled worlds: bid {bid} scored {best.mean:.1f} points on average"
            f" and was made in {best.rate:.0%} of them"
        )
        if len(ranked) > 1:
            summary += f"; bid {ranked[1]} scored {tallies[ranked[1]].mean:.1f}"
        forbidden = view.forbidden_bid if seat == view.dealer else None
        if forbidden is not None and 0 <= forbidden <= view.hand_size:
            summary += f"; {forbidden} is forbidden to the dealer (the bids would total {view.hand_size})"
        facts: list[tuple[str, float | int | str]] = [
            ("worlds", worlds),
            ("made_rate", round(best.rate, 4)),
        ]
        if forbidden is not None:
            facts.append(("forbidden_bid", forbidden))
        return Decision(
            action=BID_BASE + bid,
            level="hard",
            summary=summary + ".",
            measure="mean points over sampled worlds",
            options=tuple(Option(BID_BASE + b, round(tallies[b].mean, 4), len(tallies[b].scores)) for b in ranked),
            facts=tuple(facts),
        )

    def _play(
        self, view: SeatView, known: Knowledge, legal: Sequence[Action], rng: random.Random, budget: Budget
    ) -> Decision:
        live = known.unseen
        for played in view.trick:
            live |= 1 << played
        candidates = distinct_plays(legal, live)
        seat = view.seat
        if len(candidates) == 1:
            card = candidates[0]
            return Decision(
                action=card,
                level="hard",
                summary=f"The {card_text(card)} is the only card that makes a difference here.",
                facts=(("worlds", 0),),
            )
        trick_index = len(view.tricks)

        def took(deal: Deal, card: Card) -> bool:
            return deal.tricks[trick_index].winner == seat

        tallies, worlds = self._search(view, known, candidates, 0, took, rng, budget)
        ranked = self._ranked(candidates, tallies)
        card = ranked[0]
        best = tallies[card]
        summary = (
            f"Searched {worlds} sampled worlds: the {card_text(card)} scored {best.mean:.1f} points on average"
            f" and took this trick in {best.rate:.0%} of them"
        )
        runner = ranked[1]
        summary += f"; the next best, the {card_text(runner)}, scored {tallies[runner].mean:.1f}."
        return Decision(
            action=card,
            level="hard",
            summary=summary,
            measure="mean points over sampled worlds",
            options=tuple(Option(c, round(tallies[c].mean, 4), len(tallies[c].scores)) for c in ranked),
            card_chances=tuple((c, round(tallies[c].rate, 4)) for c in ranked),
            chance_label="share of the worlds where it won this trick",
            facts=(("worlds", worlds), ("win_chance", round(best.rate, 4))),
        )

    def _ranked(self, candidates: Sequence[int], tallies: dict[int, _Tally]) -> list[int]:
        """Best first: by mean score, or for the tree search by visits (the most tried is the most trusted)."""
        if self.tree:
            return sorted(candidates, key=lambda c: (-len(tallies[c].scores), -tallies[c].mean))
        return sorted(candidates, key=lambda c: -tallies[c].mean)

    def _search(
        self,
        view: SeatView,
        known: Knowledge,
        candidates: Sequence[int],
        action_base: int,
        goal: Callable[[Deal, int], bool],
        rng: random.Random,
        budget: Budget,
    ) -> tuple[dict[int, _Tally], int]:
        """Try every candidate (action ``action_base + candidate``) in the same sampled worlds.

        The search runs until the budget runs out or one candidate clearly leads;
        ``goal`` says whether a finished deal met the candidate's aim.
        """
        if self.tree:
            return _tree_search(self, view, known, candidates, action_base, goal, rng, budget)
        deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else math.inf
        others_bid = any(b is not None for s, b in enumerate(view.bids) if s != view.seat)
        evidence = BidEvidence.from_view(known, view) if self.bid_evidence and others_bid else None
        tallies = {c: _Tally() for c in candidates}
        worlds = 0
        while True:
            world = sample_world(view, known, rng, evidence)
            playout = Playout(view.seat, self.noise, random.Random())
            world_seed = rng.getrandbits(64)
            for candidate in candidates:
                deal = world.copy()
                playout.rng.seed(world_seed)
                deal.apply(action_base + candidate, view.seat)
                playout.finish(deal)
                hit = goal(deal, candidate)
                assert deal.points is not None
                tally = tallies[candidate]
                score: float = deal.points[view.seat]
                if self.margin:
                    score -= (sum(deal.points) - score) / (view.players - 1)
                tally.scores.append(score)
                tally.hits += hit
            worlds += 1
            if budget.iterations is not None and worlds >= budget.iterations:
                break
            if time.perf_counter() >= deadline or (worlds >= MIN_WORLDS and _clear_leader(tallies)):
                break
        return tallies, worlds


class _Node:
    """A node of the information-set tree: the action sequence from the root, as seen by every world."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


def _tree_search(
    bot: HardBot,
    view: SeatView,
    known: Knowledge,
    candidates: Sequence[int],
    action_base: int,
    goal: Callable[[Deal, int], bool],
    rng: random.Random,
    budget: Budget,
) -> tuple[dict[int, _Tally], int]:
    """Single-observer information-set MCTS: a tree over actions shared by all sampled worlds, rule play-outs."""
    deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else math.inf
    others_bid = any(b is not None for s, b in enumerate(view.bids) if s != view.seat)
    evidence = BidEvidence.from_view(known, view) if bot.bid_evidence and others_bid else None
    tallies = {c: _Tally() for c in candidates}
    root = {c: _Node() for c in candidates}
    size = view.hand_size
    lowest = min(min(points_table(view.rules, size, b)) for b in range(size + 1))
    highest = max(max(points_table(view.rules, size, b)) for b in range(size + 1))
    scale = 1.0 / max(1, highest - lowest)
    pool: list[Deal] = []
    iterations = 0
    limit = budget.iterations if budget.iterations is not None else math.inf
    while iterations < limit and (iterations < MIN_WORLDS or time.perf_counter() < deadline):
        if len(pool) < POOL:
            pool.append(sample_world(view, known, rng, evidence))
        deal = pool[iterations % len(pool)].copy()
        playout = Playout(view.seat, bot.noise, rng)
        for node in root.values():
            node.available += 1
        candidate = _ucb(root, bot.exploration)
        path = [(view.seat, root[candidate])]
        deal.apply(action_base + candidate, view.seat)
        node_children = root[candidate].children
        expanded = False
        while not deal.is_over and not expanded:
            mover = deal.to_act
            if deal.phase == BIDDING:
                deal.apply(playout.normal_bid(deal, mover), mover)
                continue
            if deal.size - len(deal.tricks) <= ENDGAME_TRICKS and not deal.trick:
                break
            legal = plays(deal)
            for action in legal:
                child = node_children.get(action)
                if child is not None:
                    child.available += 1
            untried = [a for a in legal if a not in node_children]
            if untried:
                action = rng.choice(untried)
                child = node_children[action] = _Node()
                child.available = 1
                expanded = True
            else:
                options = {a: node_children[a] for a in legal}
                action = _ucb(options, bot.exploration)
                child = options[action]
            deal.apply(action, mover)
            path.append((mover, child))
            node_children = child.children
        playout.finish(deal)
        assert deal.points is not None
        for mover, node in path:
            node.visits += 1
            node.total += (deal.points[mover] - lowest) * scale
        tally = tallies[candidate]
        tally.scores.append(deal.points[view.seat])
        tally.hits += goal(deal, candidate)
        iterations += 1
    return tallies, iterations


def _ucb(nodes: dict[int, _Node], exploration: float) -> int:
    best_action, best_value = -1, -math.inf
    for action, node in nodes.items():
        if not node.visits:
            return action
        value = node.total / node.visits + exploration * math.sqrt(math.log(node.available) / node.visits)
        if value > best_value:
            best_action, best_value = action, value
    return best_action


def _scaled(budget: Budget, factor: float) -> Budget:
    """``budget`` with its time and iterations multiplied by ``factor``."""
    return Budget(
        None if budget.seconds is None else budget.seconds * factor,
        None if budget.iterations is None else max(1, round(budget.iterations * factor)),
    )


def _clear_leader(tallies: dict[int, _Tally]) -> bool:
    """Whether the best candidate beats each other one by :data:`CLEAR_MARGIN` standard errors, world for world."""
    best = max(tallies.values(), key=lambda t: t.mean)
    for tally in tallies.values():
        if tally is best:
            continue
        diffs = [a - b for a, b in zip(best.scores, tally.scores, strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean <= CLEAR_MARGIN * math.sqrt(var / n):
            return False
    return True


def distinct_plays(legal: Sequence[Action], live: int) -> list[Card]:
    """The legal cards that can lead to different outcomes: of cards in sequence, only the lowest.

    Two cards of one suit are in sequence when no ``live`` card (one still to be
    played by another seat, or on the table in this trick) lies between them, so
    no world can tell them apart.
    """
    plays = sorted(a for a in legal if a < 60)
    kept: list[Card] = []
    for card in plays:
        if kept and card < 52 and SUIT_OF[kept[-1]] == SUIT_OF[card] and kept[-1] < 52:
            between = SUIT_MASKS[SUIT_OF[card]] & ((1 << card) - 1) & ~((2 << kept[-1]) - 1)
            if not between & live:
                continue
        kept.append(card)
    return kept
