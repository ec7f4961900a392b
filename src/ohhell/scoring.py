"""Scoring as pure functions of a bid and the tricks taken, shared by the engine and the score keeper.

>>> from ohhell.rules import Rules
>>> deal_points(2, 2, Rules.preset("up-and-down")), deal_points(3, 2, Rules.preset("up-and-down"))
(12, 0)
>>> deal_points(3, 3, Rules.preset("magicians")), deal_points(2, 4, Rules.preset("magicians"))
(50, -20)
"""

from __future__ import annotations

from collections.abc import Sequence

from ohhell.rules import Rules

_EXACT_BONUS = {"tricks+10": 10, "10+bid": 10, "5+bid": 5, "magicians": 20}


def exact_bonus(bid: int, rules: Rules) -> int:
    """The bonus for taking exactly ``bid`` tricks, before the per-trick part."""
    if bid == 0 and rules.zero_bid_bonus is not None:
        return rules.zero_bid_bonus
    return _EXACT_BONUS[rules.scoring]


def deal_points(bid: int, tricks: int, rules: Rules) -> int:
    """The points of one player for one deal, under the scoring scheme and modifiers of ``rules``.

    ===========  =================  ==================
    scheme       exact (t = b)      missed
    ===========  =================  ==================
    tricks+10    t + 10             t
    10+bid       10 + b             0
    5+bid        5 + b              0
    magicians    20 + 10 b          -10 |t - b|
    ===========  =================  ==================

    ``miss_penalty`` makes a missed bid score ``-|t - b|`` (under every scheme); ``zero_bid_bonus``
    replaces the exact-bid bonus of a made bid of 0.
    """
    scheme = rules.scoring
    if tricks == bid:
        per_trick = 10 * bid if scheme == "magicians" else bid
        return exact_bonus(bid, rules) + per_trick
    if rules.miss_penalty:
        return -abs(tricks - bid)
    if scheme == "magicians":
        return -10 * abs(tricks - bid)
    return tricks if scheme == "tricks+10" else 0


def winners(totals: Sequence[int]) -> list[int]:
    """Every seat tied on the highest total: they share the win."""
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
