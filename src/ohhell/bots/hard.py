"""The Hard player: search over worlds consistent with its view.

For each decision it samples worlds (:mod:`ohhell.bots.sampling`: known voids
respected, other seats' bids weighed as evidence). Deals of plain cards are
searched by the compiled information-set tree search of
:mod:`ohhell.bots.ismcts` (one tree over the public histories, every seat
choosing by UCB among the moves legal in each sampled world, quick play-outs);
the most visited move is played. Deals with Magicians or Jesters get the flat
search: in every world each candidate action is tried and the deal played out
(:mod:`ohhell.bots.playout`: the Normal player's bids for seats still to bid,
the fast rule of thumb for the cards with some randomness in the other seats,
the last tricks solved exactly); a candidate's value is its mean over the same
worlds for every candidate, and the best mean wins. Both value a deal by the
scoring in force: a bid by the seat's expected points, a card by the seat's
points less the other seats' mean (:data:`RIVALRY`): besides making its own bid,
the Hard player sets the others (a bid already lost still leaves theirs to
spoil). Both stop at the budget.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, NamedTuple

from ohhell.actions import BID_BASE, Action
from ohhell.bots.base import Budget, Decision, Option, dealer_forbidden, forbidden_note, playable
from ohhell.bots.intent import Intent, card_aim
from ohhell.bots.ismcts import Sampler, Search, play_likelihood
from ohhell.bots.knowledge import Knowledge, read_view
from ohhell.bots.normal import bid_chances, bid_values, choose_trump
from ohhell.bots.playout import EXACT_TRICKS, Playout
from ohhell.bots.sampling import (
    CANDIDATES,
    PLAIN_BIDS,
    BidEvidence,
    BidModel,
    PlayModel,
    deal_hidden,
    sample_world,
)
from ohhell.bots.tactics import wants_tricks
from ohhell.cards import SUIT_MASKS, SUIT_OF, Card, card_text
from ohhell.deal import Deal
from ohhell.scoring import deal_points
from ohhell.view import SeatView

DEFAULT_BUDGET: Final = Budget(seconds=0.5)
"""Half a second a decision: four times the worlds gained almost nothing against ISMCTS (``docs/bots-results.md``)."""
MIN_WORLDS: Final = 24
"""Worlds to search before the search may stop early."""
CLEAR_MARGIN: Final = 3.0
"""Stop early once the best candidate leads each other by this many standard errors of the paired difference."""
NOISE: Final = 0.15
"""How often, in the play-outs, another seat plays a random card instead of the rule of thumb's (see ``Playout``)."""
EXPLORATION: Final = 4.0
"""UCB exploration constant of the tree search, for a spread of 20 points between a deal's best and worst score."""
SKILL: Final = 0.5
"""How often a tree search's play-out plays the rule of thumb rather than a random card."""
MAX_SIMULATIONS: Final = 6000
"""Simulations a tree search stops at, whatever time is left."""
WORLDS: Final = 96
"""Sampled worlds a tree search cycles through."""
FALLBACK_WORLDS: Final = 8
"""Worlds sampled ahead for the rare simulation whose fresh world cannot be drawn quickly."""
BID_WINDOW: Final = 2
"""Bids searched: those within this many of the Normal player's bid (all of them in short deals)."""
GUIDED_VISITS: Final = 0.1
"""With :attr:`HardBot.guide`, a searched move competes when it has at least this share of the top move's visits."""
RIVALRY: Final = 1.0
"""At its cards, a deal is worth the seat's points less this share of the other seats' mean: a deal lost can still be
spoilt for them. Bids are chosen by the seat's own expected points (``rivalry_bids`` changes that)."""


class _Row(NamedTuple):
    """One searched candidate: its samples, mean value, how often its goal was met, and its own mean points."""

    move: int
    samples: int
    value: float
    rate: float
    points: float


@dataclass
class _Tally:
    """Values of one candidate, world by world, its own points summed, and how often its goal was met."""

    scores: list[float] = field(default_factory=list)
    points: float = 0.0
    hits: int = 0

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores)

    @property
    def rate(self) -> float:
        return self.hits / len(self.scores)


class HardBot:
    """Searches sampled worlds for the action with the best expected score."""

    level = "hard"

    def __init__(
        self,
        budget: Budget = DEFAULT_BUDGET,
        bid_evidence: bool = True,
        noise: float = NOISE,
        exact_tricks: int = EXACT_TRICKS,
        tree: bool = True,
        exploration: float = EXPLORATION,
        skill: float = SKILL,
        max_simulations: int = MAX_SIMULATIONS,
        worlds: int = WORLDS,
        fresh: bool = False,
        own_hands: bool = False,
        per_world: int = 0,
        bid_model: BidModel = PLAIN_BIDS,
        play_noise: float | None = None,
        play_candidates: int = CANDIDATES,
        rivalry: float = RIVALRY,
        rivalry_bids: bool = False,
        play_model: PlayModel | None = None,
        other_exploration: float = 1.0,
        other_policy: PlayModel | Literal["rule"] | None = None,
        learned_bids: bool = False,
        guide: float = 0.0,
    ) -> None:
        self.budget = budget
        self.guide = guide
        """The learned player's share in the tree search's choice: with a weight ``g`` above 0, each searched bid or
        card is valued at its search value plus ``g`` times the points the learned player's network expects from it
        (over the best of them), and the best of that sum is chosen among the well-searched ones."""
        self.learned_bids = learned_bids
        """Bid as the learned player does (its network's forecast of the tricks) instead of searching play-outs."""
        self.bid_evidence = bid_evidence
        self.noise = noise
        self.exact_tricks = exact_tricks
        self.tree = tree
        self.exploration = exploration
        self.skill = skill
        self.max_simulations = max_simulations
        self.worlds = worlds
        self.fresh = fresh
        self.own_hands = own_hands
        self.per_world = per_world
        self.bid_model = bid_model
        """How the other seats' bids are read as evidence, and how seats still to bid bid in the simulations."""
        self.play_noise = play_noise
        """Research: with a value, the tree search's worlds are also weighed by the other seats' plays so far
        (:func:`ohhell.bots.ismcts.play_likelihood`: the rule of thumb's card, or with this chance any legal one)."""
        self.play_candidates = play_candidates
        """Draws per world when plays are weighed."""
        self.play_model = play_model
        """Research: the tree search's worlds are also weighed by the other seats' plays so far under this learned
        model of their play (it takes precedence over ``play_noise``)."""
        self.other_exploration = other_exploration
        """Research: the other seats' exploration at their cards in the tree, as a multiple of ``exploration``."""
        self.other_policy = other_policy
        """Research: how the other seats pick their cards in the tree search: by UCB on their own points (None), by
        the play-outs' rule of thumb from the hand they hold ("rule"), or by a learned model of their play."""
        self.rivalry = rivalry
        """At the seat's cards (and its bids with :attr:`rivalry_bids`) both searches value a deal at its own points
        minus this share of the other seats' mean (0: its own points alone)."""
        self.rivalry_bids = rivalry_bids
        """Whether :attr:`rivalry` counts at the bids too, or only at the cards (the default: a bid is chosen by its
        expected points, so that a hooked dealer holding the ace of trumps never bids 0 with a plan to spoil)."""

    def decide(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> Decision:
        """The Hard decision for ``view.seat``; ``budget`` overrides the player's own."""
        actions = playable(view)
        known = read_view(view)
        if view.phase == "choosing-trump":
            return dataclasses.replace(choose_trump(view, known), level="hard")
        limit = budget or self.budget
        if view.phase == "bidding" and self.learned_bids:
            from ohhell.bots.learned import LearnedBot

            return dataclasses.replace(LearnedBot().decide(view, rng), level="hard")
        if view.phase == "bidding":
            return self._bid(view, known, [a - BID_BASE for a in actions], rng, limit)
        return self._play(view, known, actions, rng, limit)

    def _bid(self, view: SeatView, known: Knowledge, legal: list[int], rng: random.Random, budget: Budget) -> Decision:
        normal = bid_values(known, bid_chances(known, view.bids, view.first_leader), legal)[0][0]
        candidates = [b for b in legal if abs(b - normal) <= BID_WINDOW]
        seat = view.seat

        def made(deal: Deal, bid: int) -> bool:
            return deal.tricks_won[seat] == bid

        rows, intro, facts = self._rows(view, known, candidates, BID_BASE, made, rng, budget)
        rivalry = self._rivalry(view)
        best = rows[0]
        summary = f"{intro}: bid {best.move} {_scored(best, rivalry)} and was made in {best.rate:.0%} of them"
        if len(rows) > 1:
            summary += f"; bid {rows[1].move} {_scored(rows[1], rivalry, short=True)}"
        forbidden = dealer_forbidden(view)
        summary += forbidden_note(view, forbidden)
        facts.append(("made_rate", round(best.rate, 4)))
        if forbidden is not None:
            facts.append(("forbidden_bid", forbidden))
        return Decision(
            action=BID_BASE + best.move,
            level="hard",
            summary=summary + ".",
            intent=Intent.BID,
            measure=_measure(rivalry),
            options=tuple(Option(BID_BASE + row.move, round(row.value, 4), row.samples) for row in rows),
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
                intent=Intent.PLAY,
                facts=(("worlds", 0),),
            )
        trick_index = len(view.tricks)

        def took(deal: Deal, card: Card) -> bool:
            return deal.tricks[trick_index].winner == seat

        rows, intro, facts = self._rows(view, known, candidates, 0, took, rng, budget)
        rivalry = self._rivalry(view)
        best = rows[0]
        card = best.move
        summary = (
            f"{intro}: the {card_text(card)} {_scored(best, rivalry)} and took this trick in {best.rate:.0%} of them"
        )
        if len(rows) > 1:
            summary += f"; the next best, the {card_text(rows[1].move)}, {_scored(rows[1], rivalry, short=True)}"
        facts.append(("win_chance", round(best.rate, 4)))
        unit = "simulations" if dict(facts).get("simulations") else "worlds"
        bid = view.bids[seat]
        assert bid is not None
        return Decision(
            action=card,
            level="hard",
            summary=summary + ".",
            intent=card_aim(wants_tricks(bid, view.tricks_won[seat], view.rules), best.rate),
            measure=_measure(rivalry),
            options=tuple(Option(row.move, round(row.value, 4), row.samples) for row in rows),
            card_chances=tuple((row.move, round(row.rate, 4)) for row in rows),
            chance_label=f"share of the {unit} where it won this trick",
            facts=tuple(facts),
        )

    def _rivalry(self, view: SeatView) -> float:
        """The :attr:`rivalry` of the decision to make at ``view``."""
        return self.rivalry if self.rivalry_bids or view.phase != "bidding" else 0.0

    def _rows(
        self,
        view: SeatView,
        known: Knowledge,
        candidates: Sequence[int],
        action_base: int,
        goal: Callable[[Deal, int], bool],
        rng: random.Random,
        budget: Budget,
    ) -> tuple[list[_Row], str, list[tuple[str, float | int | str]]]:
        """The candidates searched, best first; what was searched.

        Plain-card deals get the tree search; deals with Magicians or Jesters (or a
        player built with ``tree=False``) the flat search over engine deals, where
        ``goal`` says whether a finished deal met the candidate's aim.
        """
        if self.tree and not view.rules.special_cards:
            rows, simulations, worlds = self._tree_search(view, known, candidates, rng, budget)
            intro = f"Searched {simulations} simulated deals over {worlds} sampled worlds"
            facts: list[tuple[str, float | int | str]] = [("worlds", worlds), ("simulations", simulations)]
            if self.guide > 0 and len(rows) > 1:
                rows = self._guided(view, rows, action_base, rng)
                intro += ", guided by the learned player's forecast"
                facts.append(("guide", self.guide))
            return rows, intro, facts
        tallies, worlds = self._search(view, known, candidates, action_base, goal, rng, budget)
        rows = [_Row(c, worlds, tallies[c].mean, tallies[c].rate, tallies[c].points / worlds) for c in candidates]
        rows.sort(key=lambda row: -row.value)
        return rows, f"Searched {worlds} sampled worlds", [("worlds", worlds)]

    def _guided(self, view: SeatView, rows: list[_Row], action_base: int, rng: random.Random) -> list[_Row]:
        """``rows`` valued at their search value plus :attr:`guide` times the learned player's expected points.

        Only rows searched at least :data:`GUIDED_VISITS` as often as the most searched one compete (a value from a
        handful of simulations is noise); the others follow, most visited first.
        """
        from ohhell.bots.learned import LearnedBot

        forecast = {option.action: option.value for option in LearnedBot().decide(view, rng).options}
        if any(action_base + row.move not in forecast for row in rows):
            return rows
        best = max(forecast[action_base + row.move] for row in rows)
        floor = GUIDED_VISITS * max(row.samples for row in rows)
        contenders = [row for row in rows if row.samples >= floor]
        contenders.sort(key=lambda row: -(row.value + self.guide * (forecast[action_base + row.move] - best)))
        return contenders + [row for row in rows if row.samples < floor]

    def _tree_search(
        self, view: SeatView, known: Knowledge, bids: Sequence[int], rng: random.Random, budget: Budget
    ) -> tuple[list[_Row], int, int]:
        """Tree search (:mod:`ohhell.bots.ismcts`) over sampled worlds.

        Returns the root's moves, most visited first, with the number of
        simulations and of distinct worlds.
        """
        deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else math.inf
        bidding = view.phase == "bidding"
        others_bid = any(b is not None for s, b in enumerate(view.bids) if s != view.seat)
        evidence = (
            BidEvidence.from_view(known, view, self.bid_model)
            if bidding or (self.bid_evidence and others_bid)
            else None
        )
        weigh = self.bid_evidence and others_bid
        pool = self._world_pool(view, known, evidence, weigh, rng, budget, deadline)
        sampler = self._sampler(view, known, evidence, weigh, rng) if self.fresh else None
        limit = budget.iterations if budget.iterations is not None else self.max_simulations
        if self.per_world:
            return self._per_world(view, bids, pool, sampler, rng, limit, deadline)
        search = self._new_search(view, bids, rng)
        simulations = search.run(pool[0], pool[1], limit, deadline - time.perf_counter(), sampler)
        worlds = len(pool[0])
        if sampler is not None:
            worlds = simulations - sampler.failures + min(worlds, sampler.failures)
        return _rows(search.results(), bidding), simulations, worlds

    def _new_search(self, view: SeatView, bids: Sequence[int], rng: random.Random) -> Search:
        """A search of the position of ``view``; ``bids``: the bids to search, when bidding."""
        rules = view.rules
        size = view.hand_size
        points = [deal_points(b, t, rules) for b in range(size + 1) for t in range(size + 1)]
        played = 0
        for trick in view.tricks:
            for card in trick.cards:
                played |= 1 << card
        search = Search(
            view.seat,
            view.players,
            size,
            -1 if view.trump is None else view.trump,
            view.dealer,
            rules.hook,
            points,
            [-1 if b is None else b for b in view.bids],
            list(view.tricks_won),
            list(view.trick),
            view.trick_leader,
            played,
            self.exploration * max(max(points) - min(points), 1) / 20,
            self.skill,
            rng.getrandbits(32),
        )
        search.own_hands = self.own_hands
        search.bid_offset = self.bid_model.offset
        search.bid_slope = self.bid_model.slope
        search.rivalry = self._rivalry(view)
        search.other_exploration = self.other_exploration
        if isinstance(self.other_policy, PlayModel):
            search.other_policy = 2
            search.other_weights = list(self.other_policy.weights)
        elif self.other_policy == "rule":
            search.other_policy = 1
        if view.phase == "bidding":
            search.set_root_bids(list(bids))
        return search

    def _world_pool(
        self,
        view: SeatView,
        known: Knowledge,
        evidence: BidEvidence | None,
        weigh: bool,
        rng: random.Random,
        budget: Budget,
        deadline: float,
    ) -> tuple[list[list[int]], list[list[float]]]:
        """Worlds sampled ahead (hand masks by seat) with each seat's hand strength; few when fresh ones are drawn.

        Sampling stops early (after one world at least) once a third of the time
        to ``deadline`` is gone: where voids make worlds hard to place, the
        search keeps its time.
        """
        start = time.perf_counter()
        cutoff = start + (deadline - start) / 3
        n = view.players
        seat = view.seat
        count = self.worlds if budget.iterations is None else max(1, min(self.worlds, budget.iterations))
        if self.fresh:
            count = min(count, FALLBACK_WORLDS)
        hands: list[list[int]] = []
        strengths: list[list[float]] = []
        plays = self._plays(view) if self.play_noise is not None or self.play_model is not None else None
        for _ in range(count):
            if hands and time.perf_counter() > cutoff:
                break
            if plays is not None:
                draws = [deal_hidden(known, rng) for _ in range(self.play_candidates)]
                weights = [
                    self._world_weight(view, known, hidden, evidence if weigh else None, plays) for hidden in draws
                ]
                hidden = rng.choices(draws, weights)[0] if any(weights) else draws[0]
            elif weigh and evidence is not None:
                draws = [deal_hidden(known, rng) for _ in range(CANDIDATES)]
                weights = [evidence.likelihood(_dealt_now(known, hidden)) for hidden in draws]
                hidden = rng.choices(draws, weights)[0] if any(weights) else draws[0]
            else:
                hidden = deal_hidden(known, rng)
            hands.append([view.hand.mask if s == seat else sum(1 << c for c in hidden[s]) for s in range(n)])
            values = evidence.card_value if evidence is not None else (0.0,) * 60
            strengths.append([sum(values[c] for c in hidden[s]) if s != seat else 0.0 for s in range(n)])
        return hands, strengths

    @staticmethod
    def _plays(view: SeatView) -> tuple[list[int], list[int]] | None:
        """The cards played so far as (seats, cards), or ``None`` before the first."""
        seats = [seat for seat, action in view.history if action < 52]
        if not seats:
            return None
        return seats, [action for _, action in view.history if action < 52]

    def _world_weight(
        self,
        view: SeatView,
        known: Knowledge,
        hidden: list[list[Card]],
        evidence: BidEvidence | None,
        plays: tuple[list[int], list[int]],
    ) -> float:
        """How well a sampled world explains the bids (when ``evidence``) and the plays so far."""
        dealt_now = _dealt_now(known, hidden)
        weight = evidence.likelihood(dealt_now) if evidence is not None else 1.0
        if weight <= 0.0 or (self.play_noise is None and self.play_model is None):
            return weight
        dealt = [sum(1 << c for c in cards) for cards in dealt_now]
        dealt[view.seat] = view.hand.mask | sum(1 << c for c in known.played[view.seat])
        bids = [0 if b is None else b for b in view.bids]
        trump = -1 if view.trump is None else view.trump
        if self.play_model is not None:
            model = self.play_model
            return weight * play_likelihood(
                dealt, plays[0], plays[1], bids, trump, view.seat, model.floor, list(model.weights)
            )
        assert self.play_noise is not None
        return weight * play_likelihood(dealt, plays[0], plays[1], bids, trump, view.seat, self.play_noise)

    def _sampler(
        self, view: SeatView, known: Knowledge, evidence: BidEvidence | None, weigh: bool, rng: random.Random
    ) -> Sampler:
        """A drawer of a fresh world for every simulation, bids weighed as evidence when ``weigh``."""
        n = view.players
        seat = view.seat
        values = list(evidence.card_value) if evidence is not None else [0.0] * 60
        return Sampler(
            view.hand.mask,
            seat,
            [c for c in range(52) if known.unseen >> c & 1],
            [0 if s == seat else known.held[s] for s in range(n)],
            [known.could_hold(s) for s in range(n)],
            values,
            [sum(values[c] for c in known.played[s]) for s in range(n)],
            [-1 if b is None else b for b in view.bids],
            weigh and evidence is not None,
            self.bid_model.spread,
            CANDIDATES,
            rng.getrandbits(32),
            self.bid_model.offset,
            self.bid_model.slope,
        )

    def _per_world(
        self,
        view: SeatView,
        bids: Sequence[int],
        pool: tuple[list[list[int]], list[list[float]]],
        sampler: Sampler | None,
        rng: random.Random,
        limit: int,
        deadline: float,
    ) -> tuple[list[_Row], int, int]:
        """One small tree per sampled world (each seeing that world's every hand), their root visits summed."""
        totals: dict[int, list[float]] = {}
        simulations = 0
        worlds = 0
        while simulations < limit and time.perf_counter() < deadline:
            fresh = sampler.world() if sampler is not None else None
            if fresh is not None and sampler is not None:
                world, strength = fresh, list(sampler.strengths)
            else:
                world, strength = pool[0][worlds % len(pool[0])], pool[1][worlds % len(pool[1])]
            search = self._new_search(view, bids, rng)
            runs = min(self.per_world, limit - simulations)
            simulations += search.run([world], [strength], runs, deadline - time.perf_counter())
            worlds += 1
            for key, visits, mean, hits, points in search.results():
                row = totals.setdefault(key, [0.0, 0.0, 0.0, 0.0, 0.0])
                row[0] += visits
                row[1] += mean
                row[2] += 1
                row[3] += hits
                row[4] += points
        ranked = sorted(totals.items(), key=lambda item: (-item[1][0], -item[1][1] / item[1][2]))
        merged = [(key, int(v), m / w, int(h), p / w) for key, (v, m, w, h, p) in ranked]
        return _rows(merged, view.phase == "bidding"), simulations, worlds

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
        deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else math.inf
        others_bid = any(b is not None for s, b in enumerate(view.bids) if s != view.seat)
        evidence = BidEvidence.from_view(known, view, self.bid_model) if self.bid_evidence and others_bid else None
        tallies = {c: _Tally() for c in candidates}
        rivalry = self._rivalry(view)
        worlds = 0
        while True:
            world = sample_world(view, known, rng, evidence)
            playout = Playout(view.seat, self.noise, random.Random(), exact_tricks=self.exact_tricks)
            world_seed = rng.getrandbits(64)
            for candidate in candidates:
                deal = world.copy()
                playout.rng.seed(world_seed)
                deal.apply(action_base + candidate, view.seat)
                playout.finish(deal)
                hit = goal(deal, candidate)
                assert deal.points is not None
                tally = tallies[candidate]
                own = deal.points[view.seat]
                tally.scores.append(own - rivalry * (sum(deal.points) - own) / (len(deal.points) - 1))
                tally.points += own
                tally.hits += hit
            worlds += 1
            if budget.iterations is not None and worlds >= budget.iterations:
                break
            if time.perf_counter() >= deadline or (worlds >= MIN_WORLDS and _clear_leader(tallies)):
                break
        return tallies, worlds


def _others(rivalry: float) -> str:
    """The share of the other seats' mean points a value counts against the seat's own, in words."""
    return "the other seats' mean" if rivalry == 1 else f"{rivalry:g} times the other seats' mean"


def _measure(rivalry: float) -> str:
    """What the options' values are."""
    return f"mean points less {_others(rivalry)}" if rivalry else "mean points"


def _scored(row: _Row, rivalry: float, short: bool = False) -> str:
    """A candidate's result in words: its mean points, and the value it was weighed by when that differs."""
    text = f"scored {row.points:.1f}" if short else f"scored {row.points:.1f} points on average"
    if rivalry:
        text += f" ({row.value:+.1f} against {_others(rivalry)})"
    return text


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


def _dealt_now(known: Knowledge, hidden: list[list[Card]]) -> list[list[Card]]:
    """The cards each other seat was dealt in a sampled world: held now plus played (for bid evidence)."""
    return [[*hidden[s], *known.played[s]] if s != known.seat else [] for s in range(known.players)]


def _rows(results: list[tuple[int, int, float, int, float]], bidding: bool) -> list[_Row]:
    """A search's root moves (bid or card) as rows."""
    return [
        _Row(-key - 1 if bidding else key.bit_length() - 1, visits, mean, hits / visits, points)
        for key, visits, mean, hits, points in results
    ]
