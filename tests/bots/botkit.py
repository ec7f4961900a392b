"""Helpers for the computer-player tests: deals from card text, scripted actions, quick budgets."""

from __future__ import annotations

import random
from typing import Any, Final

from ohhell.actions import parse_action
from ohhell.bots import Budget, Decision, make_bot
from ohhell.cards import CardSet, parse_card
from ohhell.deal import Deal
from ohhell.rules import Rules
from ohhell.view import SeatView, seat_view

SEARCH: Final = Budget(iterations=1500)
"""A Hard budget (simulated deals of its tree search) small enough for tests, large enough for clear-cut positions."""
FLAT_SEARCH: Final = Budget(iterations=24)
"""The same for the flat search Hard runs with Magicians and Jesters in play (sampled worlds)."""


def deal_of(hands: list[str], dealer: int, turn_up: str | None = None, preset: str = "full", **options: Any) -> Deal:
    """A one-deal game of the given hands (card text by seat) under ``preset`` with ``options`` on top."""
    sets = [CardSet.parse(h) for h in hands]
    rules = Rules.preset(preset, players=len(hands), schedule=(len(sets[0]),), **options)
    return Deal(rules, sets, dealer, None if turn_up is None else parse_card(turn_up))


def act(deal: Deal, *actions: str) -> Deal:
    """Apply actions written as text (``"bid 1"``, ``"play AS"``), each by the seat to act."""
    for text in actions:
        deal.apply(parse_action(text))
    return deal


def decide(level: str, view: SeatView, seed: int = 0) -> Decision:
    """The decision of a ``level`` player, Hard with the small :data:`SEARCH` budget."""
    budget = (FLAT_SEARCH if view.rules.special_cards else SEARCH) if level == "hard" else None
    return make_bot(level).decide(view, random.Random(seed), budget)


def view_to_act(deal: Deal) -> SeatView:
    """The view of the seat to act."""
    return seat_view(deal, deal.to_act)


def hooked_dealer() -> SeatView:
    """The dealer's view of a 3-card deal where the ace of trumps is one trick and the hook forbids a bid of 1."""
    deal = deal_of(["KS QS JS", "KD QD JD", "KC QC JC", "AH 2C 3D"], dealer=3, turn_up="9H")
    return seat_view(act(deal, "bid 1", "bid 1", "bid 0"), 3)
