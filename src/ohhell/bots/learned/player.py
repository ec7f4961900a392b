"""The learned player: every bid and card valued by a network's forecast of the tricks the seat will take.

For each legal bid (or card) the network of that phase reads the seat's view and
the action (:mod:`ohhell.bots.learned.features`) and gives the chance of taking
0, 1, 2 ... more tricks in the deal; the points each number of tricks would
score under the rules in force turn that into expected points, and the action
with the most is chosen. One pass, no sampling: deterministic, about a
millisecond. The scoring, the hook and the worth of an overtrick are thus the
rules', not the network's; what the network learnt is how the deal will go.

After a turned Magician the dealer names trump as the Normal player does (a rare
decision the networks were not trained on).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ohhell.actions import BID_BASE, Action
from ohhell.bots.base import Budget, Decision, Option, dealer_forbidden, forbidden_note, playable
from ohhell.bots.chances import points_table
from ohhell.bots.intent import Intent, card_aim
from ohhell.bots.knowledge import Knowledge, read_view
from ohhell.bots.learned.features import OUTCOMES, Reading
from ohhell.bots.learned.network import Network, shipped
from ohhell.bots.normal import bid_situation, choose_trump, win_clause
from ohhell.bots.tactics import STRENGTH, wants_tricks
from ohhell.cards import Card, card_text
from ohhell.rules import Rules
from ohhell.view import SeatView


class LearnedBot:
    """Chooses the bid or card whose forecast tricks score the most points.

    ``bid_network`` and ``play_network`` default to the ones shipped in the
    package; ``explore`` (for making training data) is the chance of a uniformly
    random legal choice instead, drawn from the ``rng`` handed to :meth:`decide`.
    """

    def __init__(
        self,
        bid_network: Network | None = None,
        play_network: Network | None = None,
        *,
        level: str = "learned",
        explore: float = 0.0,
    ) -> None:
        self.level = level
        self.bid_network = bid_network if bid_network is not None else shipped("bid")
        self.play_network = play_network if play_network is not None else shipped("play")
        self.explore = explore

    def decide(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> Decision:
        """The decision for ``view.seat`` (``budget`` is not needed: one pass of the networks)."""
        actions = playable(view)
        known = read_view(view)
        if view.phase == "choosing-trump":
            return _relabel(choose_trump(view, known), self.level)
        reading = Reading(view, known)
        if view.phase == "bidding":
            return self._bid(view, reading, [a - BID_BASE for a in actions], rng)
        return self._card(view, reading, actions, rng)

    def _explored(self, count: int, rng: random.Random) -> int | None:
        if self.explore and count > 1 and rng.random() < self.explore:
            return rng.randrange(count)
        return None

    # ----------------------------------------------------------------- bids

    def _bid(self, view: SeatView, reading: Reading, legal: Sequence[int], rng: random.Random) -> Decision:
        batch, chances, _ = reading.bid_block(legal)
        forecast = at_least(self.bid_network.forward(batch), sure_tricks(reading.known, reading.known.hand))
        values = [_expected(forecast[row], bid, 0, view.rules) for row, bid in enumerate(legal)]
        means = forecast @ np.arange(OUTCOMES, dtype=np.float32)
        order = sorted(range(len(legal)), key=lambda r: (-round(values[r], 9), abs(legal[r] - float(means[r]))))
        explored = self._explored(len(legal), rng)
        chosen = order[0] if explored is None else explored
        bid = legal[chosen]
        made = float(forecast[chosen][bid]) if bid < OUTCOMES else 0.0
        mean = float(means[chosen])
        forbidden = dealer_forbidden(view)
        hooked = forbidden is not None and self._best_bid(view, reading) == forbidden
        counted = sum(chances.values(), 0.0)
        summary = (
            f"Bid {bid}: the cards add up to {counted:.1f} expected tricks as counted; the network expects"
            f" {mean:.1f} tricks with this bid and the bid made {made:.0%} of the time, and {bid} scores"
            f" {values[chosen]:.1f} points on average"
        )
        summary += forbidden_note(view, forbidden)
        runner = next((r for r in order if r != chosen), None)
        if runner is not None:
            summary += f"; the next best, {legal[runner]}, scores {values[runner]:.1f}"
        facts: list[tuple[str, float | int | str]] = [
            ("expected_tricks", round(counted, 3)),
            ("forecast_tricks", round(mean, 3)),
            ("made_chance", round(made, 4)),
        ]
        if forbidden is not None:
            facts.append(("forbidden_bid", forbidden))
        return Decision(
            action=BID_BASE + bid,
            level=self.level,
            summary=summary + ".",
            intent=Intent.HOOKED if hooked else Intent.BID,
            measure="expected points",
            options=tuple(Option(BID_BASE + legal[r], values[r]) for r in order),
            card_chances=tuple(sorted(((c, round(p, 4)) for c, p in chances.items()), key=lambda cp: -cp[1])),
            chance_label="chance to take a trick in this deal, as counted",
            facts=tuple(facts),
        )

    def _best_bid(self, view: SeatView, reading: Reading) -> int:
        """The bid this player would choose if every bid were allowed (to tell when the hook moved it)."""
        every = list(range(view.hand_size + 1))
        batch, _, _ = reading.bid_block(every)
        forecast = at_least(self.bid_network.forward(batch), sure_tricks(reading.known, reading.known.hand))
        values = [_expected(forecast[row], bid, 0, view.rules) for row, bid in enumerate(every)]
        return every[int(np.argmax(values))]

    # ----------------------------------------------------------------- cards

    def _card(self, view: SeatView, reading: Reading, legal: Sequence[Action], rng: random.Random) -> Decision:
        seat = view.seat
        bid = view.bids[seat]
        assert bid is not None
        won = view.tricks_won[seat]
        batch, nows, _ = reading.card_block(legal)
        forecast = self.play_network.forward(batch)
        hand = reading.known.hand
        for row, card in enumerate(legal):
            sure = sure_tricks(reading.known, hand & ~(1 << card)) + (nows[row] >= 1.0)
            forecast[row] = at_least(forecast[row : row + 1], sure)[0]
        values = [_expected(forecast[row], bid, won, view.rules) for row in range(len(legal))]
        want = wants_tricks(bid, won, view.rules)
        strength = STRENGTH[reading.trump]
        order = sorted(
            range(len(legal)),
            key=lambda r: (-round(values[r], 9), -strength[legal[r]] if not want else strength[legal[r]]),
        )
        explored = self._explored(len(legal), rng)
        chosen = order[0] if explored is None else explored
        card = legal[chosen]
        need = bid - won
        made = float(forecast[chosen][need]) if 0 <= need < OUTCOMES else 0.0
        runners = [(values[r], legal[r]) for r in order if r != chosen]
        summary = _card_summary(bid, won, card, nows[chosen], made, values[chosen], runners)
        return Decision(
            action=card,
            level=self.level,
            summary=summary,
            intent=card_aim(want, nows[chosen]),
            measure="expected points",
            options=tuple(Option(legal[r], values[r]) for r in order),
            card_chances=tuple((legal[r], round(nows[r], 4)) for r in order),
            chance_label="chance to win this trick",
            facts=(
                ("need", need),
                ("tricks_left", reading.known.held[seat]),
                ("win_chance", round(nows[chosen], 4)),
                ("made_chance", round(made, 4)),
            ),
        )


def sure_tricks(known: Knowledge, hand: int) -> int:
    """Tricks ``hand`` is certain to take: its trumps that no unseen card can beat, counted from the top.

    With Magicians unseen nothing is certain (any trump may meet one); without trump neither (a suit may never be
    led). The networks' forecasts are cut to at least this many: a sure trick is the rules' arithmetic, like the hook.
    """
    trump = known.trump
    if trump is None or known.unseen_magicians:
        return 0
    sure = 0
    for card in range(trump * 13 + 12, trump * 13 - 1, -1):
        if hand >> card & 1:
            sure += 1
        elif known.unseen >> card & 1:
            break
    return sure


def at_least(forecast: NDArray[np.float32], tricks: int) -> NDArray[np.float32]:
    """``forecast`` (rows of chances of 0, 1, ... more tricks) with fewer than ``tricks`` ruled out."""
    if tricks <= 0:
        return forecast
    cut = forecast.copy()
    cut[:, :tricks] = 0.0
    total = cut.sum(axis=1, keepdims=True)
    return np.where(total > 0, cut / np.maximum(total, 1e-12), forecast).astype(np.float32)


def _expected(forecast: NDArray[np.float32], bid: int, won: int, rules: Rules) -> float:
    """The points to expect from ``forecast`` (chances of 0, 1, ... more tricks) for a seat at ``won`` of ``bid``."""
    row = points_table(rules, won + OUTCOMES - 1, bid)
    return float(np.dot(forecast, np.asarray(row[won:], dtype=np.float32)))


def _card_summary(
    bid: int, won: int, card: Card, now: float, made: float, value: float, others: Sequence[tuple[float, Card]]
) -> str:
    summary = (
        f"{bid_situation(bid, won)}: {win_clause(card, now)}, as counted; with it the network expects the bid made"
        f" {made:.0%} of the time and {value:.1f} points"
    )
    if others:
        runner_value, runner = others[0]
        summary += f", against {runner_value:.1f} for the {card_text(runner)}"
    return summary + "."


def _relabel(decision: Decision, level: str) -> Decision:
    return dataclasses.replace(decision, level=level)
