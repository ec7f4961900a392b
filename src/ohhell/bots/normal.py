"""The counting player: sound, fast play from counted trick chances, in one pass (well under a millisecond).

It was the Normal player until the learned player (:mod:`ohhell.bots.learned`) took that level; it is
``make_bot("counting")`` now, and its counted chances are among the learned player's inputs.

Bidding: each card gets its chance to take a trick (:mod:`ohhell.bots.chances`),
nudged by the bids already made (bids short of the tricks push spare tricks onto
middling cards); the bid is the legal one with the most expected points under
the scoring in force, so the hook and the worth of an overtrick are part of it.

Play: every legal card is scored by the points the deal can then expect: its
chance to win this trick (who is still to play, and whether they want the trick)
plus the chances of the cards kept. A seat that has made its bid, and can get
under the winning card, does: it plays its highest card that cannot win.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from ohhell.actions import BID_BASE, TRUMP_BASE, Action
from ohhell.bots.base import Budget, Decision, Option, dealer_forbidden, forbidden_note, playable
from ohhell.bots.chances import (
    PRESSURE_SHARE,
    Table,
    apply_pressure,
    card_chances,
    expected_points,
    opponent_table,
    trick_distribution,
    win_now_chance,
)
from ohhell.bots.intent import Intent, card_aim
from ohhell.bots.knowledge import Knowledge, read_view
from ohhell.bots.tactics import STRENGTH, trick_status, wants_tricks
from ohhell.cards import SUIT_NAMES, Card, card_text
from ohhell.deal import beats
from ohhell.view import SeatView


class NormalBot:
    """Plays to make its bid exactly, from per-card trick chances; deterministic and instant."""

    def __init__(self, level: str = "normal") -> None:
        self.level = level

    def decide(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> Decision:
        """The decision for ``view.seat`` (``rng`` and ``budget`` are not needed: it does not sample)."""
        actions = playable(view)
        known = read_view(view)
        if view.phase == "choosing-trump":
            decision = choose_trump(view, known)
        elif view.phase == "bidding":
            decision = choose_bid(view, known, [a - BID_BASE for a in actions])
        else:
            decision = choose_card(view, known, actions)
        return decision if decision.level == self.level else dataclasses.replace(decision, level=self.level)


def bid_chances(known: Knowledge, bids: Sequence[int | None], first_leader: int) -> dict[Card, float]:
    """The trick chances of ``known.seat``'s cards at bidding, nudged by the other seats' bids so far."""
    table = opponent_table(known)
    chances = card_chances(known, known.hand, known.held[known.seat], first_leader == known.seat, table)
    return with_bids(known, chances, bids)


def with_bids(known: Knowledge, chances: dict[Card, float], bids: Sequence[int | None]) -> dict[Card, float]:
    """Card chances nudged by the other seats' bids: bids short of the tricks push spare tricks onto middling cards."""
    made = [b for seat, b in enumerate(bids) if b is not None and seat != known.seat]
    if not made:
        return chances
    share = (known.held[known.seat] - sum(chances.values(), 0.0)) / (known.players - 1)
    slack = sum((share - b for b in made), 0.0)
    return apply_pressure(chances, PRESSURE_SHARE * slack / known.players)


def bid_values(known: Knowledge, chances: dict[Card, float], bids: Sequence[int]) -> list[tuple[int, float]]:
    """The expected points of each bid in ``bids``, best first (ties: the bid nearest the expected tricks)."""
    dist = trick_distribution(chances.values())
    mean = sum(chances.values(), 0.0)
    values = [(b, expected_points(b, 0, dist, known.rules)) for b in bids]
    return sorted(values, key=lambda bv: (-round(bv[1], 9), abs(bv[0] - mean)))


def choose_bid(view: SeatView, known: Knowledge, legal: Sequence[int]) -> Decision:
    """The legal bid with the most expected points (the hook moved it when the forbidden bid would have had more)."""
    chances = bid_chances(known, view.bids, view.first_leader)
    values = bid_values(known, chances, legal)
    bid, value = values[0]
    mean = sum(chances.values(), 0.0)
    summary = (
        f"Bid {bid}: the cards add up to {mean:.1f} expected tricks, and {bid} scores {value:.1f} points on average"
    )
    forbidden = dealer_forbidden(view)
    hooked = forbidden is not None and bid_values(known, chances, range(view.hand_size + 1))[0][0] == forbidden
    summary += forbidden_note(view, forbidden)
    if len(values) > 1:
        summary += f"; the next best, {values[1][0]}, scores {values[1][1]:.1f}"
    facts: list[tuple[str, float | int | str]] = [("expected_tricks", round(mean, 3))]
    if forbidden is not None:
        facts.append(("forbidden_bid", forbidden))
    return Decision(
        action=BID_BASE + bid,
        level="normal",
        summary=summary + ".",
        intent=Intent.HOOKED if hooked else Intent.BID,
        measure="expected points",
        options=tuple(Option(BID_BASE + b, v) for b, v in values),
        card_chances=_sorted_chances(chances),
        chance_label="chance to take a trick in this deal",
        facts=tuple(facts),
    )


def choose_trump(view: SeatView, known: Knowledge) -> Decision:
    """After a turned Magician, the dealer names the suit under which its hand expects the most points."""
    size = view.hand_size
    scored = []
    for suit in range(4):
        as_trump = dataclasses.replace(known, trump=suit)
        chances = bid_chances(as_trump, view.bids, view.first_leader)
        scored.append((bid_values(as_trump, chances, range(size + 1))[0][1], suit, chances))
    scored.sort(key=lambda entry: -entry[0])
    value, suit, chances = scored[0]
    runner_up = scored[1]
    summary = (
        f"Chose {SUIT_NAMES[suit]} as trump: the hand expects {sum(chances.values()):.1f} tricks and"
        f" {value:.1f} points at its best bid, against {runner_up[0]:.1f} with {SUIT_NAMES[runner_up[1]]}."
    )
    return Decision(
        action=TRUMP_BASE + suit,
        level="normal",
        summary=summary,
        intent=Intent.NAME_TRUMP,
        measure="expected points at the best bid",
        options=tuple(Option(TRUMP_BASE + s, v) for v, s, _ in scored),
        card_chances=_sorted_chances(chances),
        chance_label=f"chance to take a trick with {SUIT_NAMES[suit]} as trump",
    )


def choose_card(view: SeatView, known: Knowledge, legal: Sequence[Action]) -> Decision:
    """The card with the most expected points for the deal; under the winning card once the bid is made."""
    rules = view.rules
    seat, n = view.seat, view.players
    trump = -1 if view.trump is None else view.trump
    bid = view.bids[seat]
    assert bid is not None
    won = view.tricks_won[seat]
    table = opponent_table(known)
    best_index, led = trick_status(view.trick, trump) if view.trick else (0, -1)
    best = view.trick[best_index] if view.trick else None
    later = [
        ((view.trick_leader + i) % n, _wants(view, (view.trick_leader + i) % n)) for i in range(len(view.trick) + 1, n)
    ]
    tricks_left = known.held[seat]
    want = wants_tricks(bid, won, rules)
    candidates = list(legal)
    ducking = best is not None and not want and any(not beats(c, best, trump) for c in candidates)
    if ducking:
        assert best is not None
        candidates = [c for c in candidates if not beats(c, best, trump)]
    shift = _play_pressure(view, known, table)
    scored = []
    now_chances = {}
    for card in candidates:
        now = win_now_chance(card, best, known, table, led, later)
        now_chances[card] = now
        rest = card_chances(known, known.hand & ~(1 << card), tricks_left - 1, now >= 0.5, table)
        dist = trick_distribution([now, *apply_pressure(rest, shift).values()])
        scored.append((expected_points(bid, won, dist, rules), card))
    strength = STRENGTH[trump]
    scored.sort(key=lambda vc: (-round(vc[0], 9), -strength[vc[1]] if not want else strength[vc[1]]))
    value, card = scored[0]
    summary = _card_summary(view, bid, won, want, card, now_chances[card], value, scored, best if ducking else None)
    return Decision(
        action=card,
        level="normal",
        summary=summary,
        intent=card_aim(want, now_chances[card]),
        measure="expected points",
        options=tuple(Option(c, v) for v, c in scored),
        card_chances=tuple((c, round(now_chances[c], 4)) for _, c in scored),
        chance_label="chance to win this trick",
        facts=(("need", bid - won), ("tricks_left", tricks_left), ("win_chance", round(now_chances[card], 4))),
    )


def _wants(view: SeatView, seat: int) -> bool:
    bid = view.bids[seat]
    return bid is not None and wants_tricks(bid, view.tricks_won[seat], view.rules)


def _play_pressure(view: SeatView, known: Knowledge, table: Table) -> float:
    """How many more tricks than its cards' chances say this seat should expect, from what the others still need."""
    seat = view.seat
    left = known.held[seat]
    others_need = sum(max(0, (b or 0) - view.tricks_won[s]) for s, b in enumerate(view.bids) if s != seat)
    mine = sum(card_chances(known, known.hand, left, view.trick_leader == seat, table).values(), 0.0)
    slack = left - mine - others_need
    return PRESSURE_SHARE * slack / view.players


def _card_summary(
    view: SeatView,
    bid: int,
    won: int,
    want: bool,
    card: Card,
    now: float,
    value: float,
    scored: Sequence[tuple[float, Card]],
    under: Card | None,
) -> str:
    situation = bid_situation(bid, won)
    if won > bid:
        situation += f" and {'wants' if want else 'avoids'} more"
    if under is not None:
        action = f"plays under the winning {card_text(under)} with the {card_text(card)}, which cannot win this trick"
    else:
        action = win_clause(card, now)
    summary = f"{situation}: {action}; expected points {value:.1f}"
    if len(scored) > 1:
        runner_value, runner = scored[1]
        summary += f", against {runner_value:.1f} for the {card_text(runner)}"
    return summary + "."


def bid_situation(bid: int, won: int) -> str:
    """Where a seat stands against its bid, for a card's summary: "Needs 2 more tricks (bid 3, won 1)"."""
    need = bid - won
    if need > 0:
        return f"Needs {need} more trick{'s' if need != 1 else ''} (bid {bid}, won {won})"
    if need == 0:
        return f"Has made its bid ({won} of {bid})"
    return f"Is {-need} over its bid ({won} taken, bid {bid})"


def win_clause(card: Card, now: float) -> str:
    """A card's counted chance to win the trick in words: "the AS takes this trick 93% of the time"."""
    if now:
        return f"the {card_text(card)} takes this trick {now:.0%} of the time"
    return f"the {card_text(card)} cannot win this trick"


def _sorted_chances(chances: dict[Card, float]) -> tuple[tuple[Card, float], ...]:
    return tuple(sorted(((c, round(p, 4)) for c, p in chances.items()), key=lambda cp: -cp[1]))
