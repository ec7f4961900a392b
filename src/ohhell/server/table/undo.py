"""Undo, the club aid: a person takes back their last bid or card, with the computer players' moves after it.

The log stays append-only. An undo is a row of its own, ``"undo <n>"`` (``n`` the actions taken back, the person's
own the earliest of them), written after the actions it takes back; replaying the log applies every action and,
at an undo row, takes back the last ``n`` (:func:`replay`). So a log's rows are no longer the game's actions one
for one: a row's ``seq`` is its place in the log, while the table's ``seq`` (what the browser is told, what its
moves carry) is the number of actions the game holds, as before.

An undo is allowed at a table with computer players (or one whose host allows it, like a club table), when the
person acted in the current trick (or, before the first card, in the bidding) of the hand being played and no other
person has acted since (:func:`actions_to_take_back`): never across the end of a trick or of a hand, so never after
Show All Hands, and never once the series is over: it takes back moves the person has seen answered, not more. It
is not a bid change (:mod:`ohhell.rules`' ``bid_changes`` stays what it is): the move is taken back as if not made,
and the person moves again.

>>> undo_count("undo 3"), undo_count("bid 2"), undo_text(2)
(3, None, 'undo 2')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ohhell.actions import action_text
from ohhell.deal import Deal
from ohhell.errors import OhHellError
from ohhell.game import Game
from ohhell.server.storage.journal import StoredAction

UNDO: Final = "undo"


def undo_text(count: int) -> str:
    """The log's text of an undo of ``count`` actions."""
    return f"{UNDO} {count}"


def undo_count(text: str) -> int | None:
    """How many actions a log row takes back (``None``: the row is an action)."""
    verb, _, argument = text.partition(" ")
    if verb != UNDO:
        return None
    if not argument.isascii() or not argument.isdigit() or int(argument) < 1:
        raise ValueError(f"an undo row takes back a positive number of actions, not {argument!r}")
    return int(argument)


@dataclass(frozen=True)
class Undo:
    """An undo as the replay shows it: the hand, who took back, and what went back (record lines, latest first)."""

    seq: int
    deal: int
    seat: int
    taken_back: tuple[str, ...]


def replay(game: Game, rows: Sequence[StoredAction], apply: Callable[[StoredAction], None]) -> list[Undo]:
    """Apply ``rows`` to ``game`` (actions through ``apply(row)``, undo rows taking back); the undos done."""
    undos = []
    for row in rows:
        count = undo_count(row.action)
        if count is None:
            apply(row)
            continue
        taken: list[str] = []
        for _ in range(count):
            try:
                seat, action = game.undo()
            except OhHellError as exc:
                raise ValueError(f"action {row.seq} takes back {count} actions, more than there are") from exc
            taken.append(f"{seat} {action_text(action)}")
        undos.append(Undo(row.seq, row.deal_index, row.seat, tuple(taken)))
    return undos


def actions_to_take_back(game: Game, seat: int, deal_index: int, humans: set[int]) -> int:
    """How many actions an undo by ``seat`` takes back now (0: none may be).

    Back to its last action, over computer players' actions only, and never further than the start of the current
    trick (before the first card: of the bidding, a trump choice included), so an undo shows at most the answers
    to one card or one round of bids. Only in the hand shown while it is being played (``deal_index``): never
    across the end of a hand, so never after Show All Hands, which is only for a hand that is over.
    """
    if game.is_over or deal_index != game.deal_index or game.deal.is_over:
        return 0
    deal = game.deal
    for count, (actor, _action) in enumerate(reversed(deal.actions[stage_start(deal) :]), start=1):
        if actor == seat:
            return count
        if actor in humans:
            return 0
    return 0


def stage_start(deal: Deal) -> int:
    """Where the current stage of ``deal`` begins among its actions: the trick in progress (or the one just
    finished, while the next has no card), or before the first card the bidding, which starts the deal."""
    if deal.trick:
        return len(deal.actions) - len(deal.trick)
    if deal.tricks:
        return len(deal.actions) - len(deal.tricks[-1].cards)
    return 0


def reasons_by_position(rows: Sequence[StoredAction], first: int) -> dict[int, str]:
    """The computer players' reasons of the actions still in the game from position ``first`` on, by the game's
    ``seq`` (an action's place among the game's actions, which undo rows shift)."""
    reasons: dict[int, str] = {}
    position = 0
    for row in rows:
        count = undo_count(row.action)
        if count is not None:
            position -= count
            reasons = {seq: text for seq, text in reasons.items() if seq < position}
            continue
        if row.reason and position >= first:
            reasons[position] = row.reason
        position += 1
    return reasons
