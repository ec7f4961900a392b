"""Fixed-length tensors of one seat's view, field by field, and a line of text for people.

Everything here is computed from a :class:`~ohhell.view.SeatView` and nothing
else (plus whether the seat is at the *keep or change* decision, which is the
interface's turn order, not hidden information), so an encoding cannot reveal a
card the seat may not see.

Conventions:

* Seats are **relative** to the observing seat: position 0 is the seat itself, 1
  the player on its left (the next to play after it), and so on round the table.
* A **card vector** has 52 slots in action-id order (``rank * 4 + suit``, suits
  clubs, diamonds, spades, hearts; see :mod:`ohhell.env.actions`), and with
  Magicians and Jesters two more: the number of Magicians, then of Jesters, in
  quarters (one copy 0.25, all four 1.0).
* ``M`` is the largest hand of the schedule, ``n`` the number of players.
* Scores are points divided by :data:`SCORE_SCALE`.

The fields of both encodings, in order, with their shapes, are in
:attr:`Encoding.fields`; :meth:`Encoding.table` prints them, and
``docs/research.md`` explains each.

>>> from ohhell import Game, Rules
>>> game = Game(Rules.preset("full", players=4), number=7)
>>> encoding = ObservationEncoding(game.rules)
>>> vector = encoding.encode(game.view(game.to_act))
>>> vector.shape, vector.dtype.name, int(encoding.split(vector)["hand"].sum())
((665,), 'float32', 10)
>>> [field.name for field in encoding.fields][:5]
['phase', 'decider', 'dealer', 'leader', 'hand_size']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ohhell.cards import SUIT_NAMES, card_text
from ohhell.features import (
    PHASES,
    SCORE_SCALE,
    InformationStateWriter,
    ObservationWriter,
    Writer,
    current_totals,
)
from ohhell.rules import Rules
from ohhell.scoring import deal_points
from ohhell.view import SeatView

__all__ = ["PHASES", "SCORE_SCALE", "Encoding", "Field", "InformationStateEncoding", "ObservationEncoding", "describe"]


@dataclass(frozen=True)
class Field:
    """One named part of an encoding: ``vector[start:start + size]``, reshaped to ``shape``."""

    name: str
    start: int
    shape: tuple[int, ...]
    description: str

    @property
    def size(self) -> int:
        """How many floats the field takes."""
        return int(np.prod(self.shape))

    @property
    def stop(self) -> int:
        """One past the field's last index."""
        return self.start + self.size


def total_range(rules: Rules) -> tuple[int, int]:
    """The lowest and highest total a seat can end a game with under ``rules``."""
    low = high = 0
    for size in rules.hand_sizes:
        points = [deal_points(b, t, rules) for b in range(size + 1) for t in range(size + 1)]
        low += min(points)
        high += max(points)
    return low, high


class Encoding:
    """A float32 vector of fixed length for one seat's view under one rule set; see :attr:`fields`."""

    kind: str
    fields: tuple[Field, ...]
    size: int
    low: NDArray[np.float32]
    """Each entry's least value (0, or the lowest total for the ``totals`` field)."""
    high: NDArray[np.float32]

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.players = rules.players
        self.max_bid = max(rules.hand_sizes)
        self.card_slots = 54 if rules.special_cards else 52
        self._fields: list[Field] = []
        self._layout()
        self.fields = tuple(self._fields)
        self.size = self.fields[-1].stop
        offsets = {field.name: field.start for field in self.fields}
        self._writer = self._writer_class()(self.players, self.max_bid, self.card_slots, offsets)
        self.low = np.zeros(self.size, np.float32)
        self.high = np.ones(self.size, np.float32)
        totals = self.field("totals")
        low, high = total_range(rules)
        self.low[totals.start : totals.stop] = low / SCORE_SCALE
        self.high[totals.start : totals.stop] = high / SCORE_SCALE

    def _add(self, name: str, shape: tuple[int, ...], description: str) -> None:
        start = self._fields[-1].stop if self._fields else 0
        self._fields.append(Field(name, start, shape, description))

    def _layout(self) -> None:
        raise NotImplementedError

    def _writer_class(self) -> type[Writer]:
        raise NotImplementedError

    def field(self, name: str) -> Field:
        """The field called ``name``."""
        for field in self.fields:
            if field.name == name:
                return field
        raise KeyError(f"no field {name!r}: the fields are {', '.join(f.name for f in self.fields)}")

    def split(self, vector: NDArray[np.float32]) -> dict[str, NDArray[np.float32]]:
        """The fields of ``vector`` by name, each reshaped (views into ``vector``, not copies)."""
        return {f.name: vector[f.start : f.stop].reshape(f.shape) for f in self.fields}

    def table(self) -> str:
        """The fields as a text table: name, offset, shape, meaning."""
        lines = [f"{'field':<14}{'offset':>7}  {'shape':<10}meaning"]
        for f in self.fields:
            shape = "x".join(map(str, f.shape))
            lines.append(f"{f.name:<14}{f.start:>7}  {shape:<10}{f.description}")
        return "\n".join(lines)

    def encode(
        self, view: SeatView, confirming: bool = False, out: NDArray[np.float32] | None = None
    ) -> NDArray[np.float32]:
        """The vector of ``view`` (``confirming``: the seat is at its *keep or change* decision)."""
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        hot, values = self._writer.write(view, confirming)
        out[hot] = 1.0
        for index, value in values:
            out[index] += value
        return out

    def _common_layout(self) -> None:
        """The fields both encodings start with."""
        n, m, k = self.players, self.max_bid, self.card_slots
        add = self._add
        add(
            "phase",
            (len(PHASES),),
            "one-hot: choosing-trump, bidding, confirming (keep or change a bid), playing, finished",
        )
        add("decider", (n,), "who decides now (0 = this seat); all zero once the game is over")
        add("dealer", (n,), "the dealer")
        add("leader", (n,), "who leads the trick in progress (before the first card: who will lead)")
        add("hand_size", (m,), "the deal's hand size: one-hot over 1 ... M")
        add("deal_progress", (1,), "deal index / (deals - 1): 0 at the first deal, 1 at the last")
        add(
            "trump", (5,), "trump: one-hot over clubs, diamonds, spades, hearts, no trump (all zero while it is chosen)"
        )
        add("turn_up", (k,), "the turned card (all zero when none is turned)")
        add("hand", (k,), "this seat's cards now")


class ObservationEncoding(Encoding):
    """What the seat sees now: a compact summary (the order of the tricks is left out but for known voids).

    The PettingZoo and Gymnasium environments' ``observation`` by default, and OpenSpiel's observation tensor.
    """

    kind = "observation"

    def _layout(self) -> None:
        n, m, k = self.players, self.max_bid, self.card_slots
        self._common_layout()
        self._add("bids", (n, m + 2), "each seat's bid now: one-hot over [no bid, 0, 1, ..., M]")
        self._add("tricks_won", (n, m + 1), "each seat's tricks taken in this deal: one-hot over 0 ... M")
        self._add("trick", (n, k), "the trick in progress: the card each seat played to it")
        self._add("played", (n, k), "the cards each seat has played in this deal, the trick in progress included")
        self._add("voids", (n, 4), "the suits (C D S H) each seat has shown it lacks by not following")
        self._add("totals", (n,), "each seat's total score, in hundreds of points")

    def _writer_class(self) -> type[Writer]:
        return ObservationWriter


class InformationStateEncoding(Encoding):
    """Everything the seat has seen in this deal, in order: enough to tell apart any two of its histories.

    Earlier deals enter only through the totals (they do not change what can happen
    from here); OpenSpiel's information-state *string* keeps them whole.
    """

    kind = "information-state"

    def _layout(self) -> None:
        n, m, k = self.players, self.max_bid, self.card_slots
        self._common_layout()
        self._add("dealt", (k,), "this seat's hand as dealt")
        self._add("first_bids", (n, m + 2), "each seat's bid as first made: one-hot over [no bid, 0, ..., M]")
        self._add("bids", (n, m + 2), "each seat's bid now, after any change: one-hot over [no bid, 0, ..., M]")
        self._add("tricks_won", (n, m + 1), "each seat's tricks taken in this deal: one-hot over 0 ... M")
        self._add("trick_leaders", (m, n), "for each trick of the deal so far, in order: who led it")
        self._add("tricks", (m, n, k), "for each trick of the deal so far, in order: the card each seat played")
        self._add("totals", (n,), "each seat's total score, in hundreds of points")

    def _writer_class(self) -> type[Writer]:
        return InformationStateWriter


def describe(view: SeatView, confirming: bool = False) -> str:
    """One seat's view in one line for people (seats by number, not relative).

    >>> from ohhell import Game, Rules
    >>> game = Game(Rules.preset("short", players=3), number=1)
    >>> print(describe(game.view(0)))  # doctest: +NORMALIZE_WHITESPACE
    seat 0 | deal 1 of 9, 5 cards, dealer 1 | trump diamonds (turned 9D) | bidding, seat 2 to act
    | hand 9S 6S KH 7H 6C | bids - - - | won 0 0 0 | totals 0 0 0
    """
    parts = [
        f"seat {view.seat}",
        f"deal {view.deal_index + 1} of {view.rules.deals}, {view.hand_size} cards, dealer {view.dealer}",
    ]
    trump = (
        "being chosen" if view.phase == "choosing-trump" else "none" if view.trump is None else SUIT_NAMES[view.trump]
    )
    turned = "" if view.turn_up is None else f" (turned {card_text(view.turn_up)})"
    parts.append(f"trump {trump}{turned}")
    if confirming:
        parts.append("keep or change the bid")
    elif view.phase == "finished":
        parts.append("finished")
    else:
        parts.append(f"{view.phase}, seat {view.to_act} to act")
    parts.append(f"hand {view.hand or '-'}")
    parts.append("bids " + " ".join("-" if b is None else str(b) for b in view.bids))
    parts.append("won " + " ".join(map(str, view.tricks_won)))
    if view.trick:
        parts.append("trick " + " ".join(f"{seat}:{card_text(card)}" for seat, card in view.trick_seats()))
    played = view.played
    if played:
        parts.append(f"played {played}")
    parts.append("totals " + " ".join(map(str, current_totals(view))))
    return " | ".join(parts)
