"""Scoring against the field: each hand's points compared with everyone else's on the same deal.

Pure functions of the entries' points, so that the event page, the club's results and the benchmark agree.

- **Matchpoints**: on each deal, a result earns 2 for every result it beats and 1 for every tie; the maximum is
  ``2 * (others)``, and the hand's score is shown as a percentage of it. An entry's score is the mean of its hands'
  percentages; the event ranks by it.
- **Difference from the mean** (an option): on each deal, a result's points less the mean of the field's points;
  the event ranks by the sum.
- An entry not played to its last hand (given up, or unfinished when the event closes) scores as the field's
  worst on **every** hand: below every result played (0 matchpoints, tying only with other such entries), and
  with the lowest points played for the difference from the mean. Giving up can so never gain anything.
- With a pool of deals (several instances of the series), each hand is compared only with the entries dealt the
  same instance.

The worked example of docs/duplicate.md (four results on one deal: 23, 11, 11 and -1):

>>> matchpoints([23, 11, 11, -1])
[6, 3, 3, 0]
>>> [round(p, 1) for p in percentages([23, 11, 11, -1])]
[100.0, 50.0, 50.0, 0.0]
>>> matchpoints([23, None, 11])
[4, 0, 2]
"""

from __future__ import annotations

import bisect
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

Method = Literal["matchpoints", "mean"]
METHODS: Final[tuple[Method, ...]] = ("matchpoints", "mean")
ALONE_PERCENT: Final = 50.0
"""The percentage of a result nobody else had a result to compare with."""
_UNPLAYED: Final = float("-inf")


def _ordered(points: Sequence[int | None]) -> list[float]:
    return [_UNPLAYED if p is None else float(p) for p in points]


def matchpoints(points: Sequence[int | None]) -> list[int]:
    """Each result's matchpoints on one deal: 2 per result beaten, 1 per tie (``None``: not played, the worst)."""
    values = _ordered(points)
    ranked = sorted(values)
    counts = Counter(values)
    return [2 * bisect.bisect_left(ranked, v) + (counts[v] - 1) for v in values]


def percentages(points: Sequence[int | None]) -> list[float]:
    """Each result's matchpoints as a percentage of the most it could have had (2 per other result)."""
    most = 2 * (len(points) - 1)
    if most == 0:
        return [ALONE_PERCENT for _ in points]
    return [100.0 * mp / most for mp in matchpoints(points)]


def differences(points: Sequence[int | None]) -> list[float]:
    """Each result's points less the mean of the deal's results; a result not played counts as the lowest played."""
    played = [p for p in points if p is not None]
    if not played:
        return [0.0 for _ in points]
    worst = min(played)
    filled = [worst if p is None else p for p in points]
    mean = sum(filled) / len(filled)
    return [p - mean for p in filled]


@dataclass(frozen=True)
class Entry:
    """One person's entry as scoring sees it."""

    key: str
    """Whatever names the entry (the store uses its id)."""
    instance: int
    """The instance of the series it was dealt (0 without a pool)."""
    points: tuple[int, ...] | None
    """Points hand by hand of a series played to its end; ``None`` for one given up or unfinished."""


@dataclass(frozen=True)
class Standing:
    """An entry's place in the event and how it got there, hand by hand."""

    key: str
    place: int
    """1 for the best score; equal scores share a place."""
    score: float
    """The mean percentage (matchpoints), or the summed difference from the mean (``mean``)."""
    hands: tuple[float, ...]
    """Each hand's percentage (matchpoints) or difference from the mean."""
    matchpoints: tuple[int, ...]
    """Each hand's matchpoints (kept under either method)."""


def score_event(entries: Sequence[Entry], hands: int, method: Method = "matchpoints") -> list[Standing]:
    """Every entry's standing, best first (ties by key), for a series of ``hands`` hands."""
    if method not in METHODS:
        raise ValueError(f"scoring method must be one of {', '.join(METHODS)}, not {method!r}")
    for entry in entries:
        if entry.points is not None and len(entry.points) != hands:
            raise ValueError(f"entry {entry.key}: {len(entry.points)} hands of points, the series has {hands}")
    fields: dict[int, list[int]] = defaultdict(list)
    for index, entry in enumerate(entries):
        fields[entry.instance].append(index)
    per_hand: list[list[float]] = [[0.0] * hands for _ in entries]
    mps: list[list[int]] = [[0] * hands for _ in entries]
    for members in fields.values():
        for hand in range(hands):
            points = [entries[i].points[hand] if entries[i].points is not None else None for i in members]  # type: ignore[index]
            marks = matchpoints(points)
            shown = percentages(points) if method == "matchpoints" else differences(points)
            for i, mark, value in zip(members, marks, shown, strict=True):
                mps[i][hand] = mark
                per_hand[i][hand] = value
    scores = [
        (sum(row) / hands if hands else ALONE_PERCENT) if method == "matchpoints" else sum(row) for row in per_hand
    ]
    rounded = [round(s, 9) for s in scores]  # sums of the same fractions in another order may differ in the last bit
    ranked = sorted(rounded)
    standings = [
        Standing(
            key=entry.key,
            place=1 + len(ranked) - bisect.bisect_right(ranked, rounded[i]),
            score=scores[i],
            hands=tuple(per_hand[i]),
            matchpoints=tuple(mps[i]),
        )
        for i, entry in enumerate(entries)
    ]
    return sorted(standings, key=lambda s: (s.place, s.key))


@dataclass(frozen=True)
class Result:
    """One entry's result on one hand, for the field's summary."""

    name: str
    bid: int | None
    tricks: int | None
    points: int | None
    """``None``: not played (the entry was given up or unfinished)."""


@dataclass(frozen=True)
class Field:
    """What the field did on one deal: how many bid what, how many made it, the best result and who got it."""

    results: int
    bids: tuple[tuple[int, int], ...]
    """``(bid, how many)`` from the lowest bid up."""
    made: int
    """How many made their bid exactly."""
    best: int | None
    """The best points scored (``None`` if nobody played the hand)."""
    best_by: tuple[str, ...]
    """The names of those who scored it."""


def field_of(results: Sequence[Result]) -> Field:
    """The summary of one deal's results.

    >>> field_of([Result("Ann", 2, 2, 12), Result("Bo", 1, 2, -1), Result("Cy", 2, 2, 12)])
    Field(results=3, bids=((1, 1), (2, 2)), made=2, best=12, best_by=('Ann', 'Cy'))
    """
    played = [r for r in results if r.points is not None and r.bid is not None]
    bids = Counter(r.bid for r in played)
    best = max((r.points for r in played if r.points is not None), default=None)
    return Field(
        results=len(results),
        bids=tuple(sorted((b, n) for b, n in bids.items() if b is not None)),
        made=sum(1 for r in played if r.bid == r.tricks),
        best=best,
        best_by=tuple(r.name for r in played if best is not None and r.points == best),
    )
