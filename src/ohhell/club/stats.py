"""A person's statistics, from their stored series results: overall, per preset, by opponents' level; the chart.

"Won" counts shared wins (every player tied on the top total wins); a given-up series is a loss. Rates are over
series (win rate) or over deals (exact-bid rate, points per deal). The longest run of exact bids is within one series.
The opponents' level is the strongest computer player's (Easy, Normal, Hard) or, among people only, the highest
level another person at the table had when the series began (:func:`people_levels`, from the stored rows alone).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final
from xml.sax.saxutils import escape

from ohhell.club.results import PersonResult
from ohhell.club.xp import level_of, xp_for_level

OPPONENT_TITLES: Final = {"easy": "Easy computers", "normal": "Normal computers", "hard": "Hard computers"}


@dataclass(frozen=True)
class Summary:
    """The statistics of some series."""

    played: int
    finished: int
    given_up: int
    won: int
    shared_wins: int
    club_wins: int
    against_computers: int
    with_undo: int
    deals: int
    exact_bids: int
    points: int
    best_total: int | None
    longest_exact_run: int

    @property
    def win_rate(self) -> float:
        """Won over played (0 without series)."""
        return self.won / self.played if self.played else 0.0

    @property
    def exact_rate(self) -> float:
        """Exact bids over deals played."""
        return self.exact_bids / self.deals if self.deals else 0.0

    @property
    def points_per_deal(self) -> float:
        """Points over deals played."""
        return self.points / self.deals if self.deals else 0.0


def summary(results: Sequence[PersonResult]) -> Summary:
    """The statistics of ``results``."""
    finished = [r for r in results if r.finished]
    return Summary(
        played=len(results),
        finished=len(finished),
        given_up=sum(r.gave_up for r in results),
        won=sum(r.winner for r in results),
        shared_wins=sum(r.shared_win for r in results),
        club_wins=sum(r.winner and r.club_id is not None for r in results),
        against_computers=sum(r.against_computers for r in results),
        with_undo=sum(r.undo for r in results),
        deals=sum(r.deals for r in results),
        exact_bids=sum(r.exact_bids for r in results),
        points=sum(sum(r.points) for r in results),
        best_total=max((r.total for r in finished), default=None),
        longest_exact_run=max((r.longest_exact_run for r in results), default=0),
    )


@dataclass(frozen=True)
class Statistics:
    """Everything the profile page shows."""

    overall: Summary
    by_preset: dict[str, Summary]
    by_opponents: dict[str, Summary]
    xp: int
    level: int
    next_level_xp: int
    achievements: set[str]


def achievements(results: Sequence[PersonResult]) -> set[str]:
    """The achievements the results hold (they unlock face styles in the Collection)."""
    found = set()
    if any(r.winner for r in results):
        found.add("first-win")
    if any(r.winner and r.club_id is not None for r in results):
        found.add("first-club-win")
    if any(r.longest_exact_run >= 10 for r in results):
        found.add("ten-exact")
    return found


def people_levels(mine: Sequence[PersonResult], tables: Sequence[PersonResult]) -> dict[int, int]:
    """For each of ``mine`` played among people only: the highest level another person at the table had before it.

    ``tables`` holds every stored result of the people concerned (their earlier series included): a person's level
    at a moment is that of the XP of their series that ended before it.
    """
    by_key: dict[str, list[PersonResult]] = {}
    for row in sorted(tables, key=lambda r: (r.ended_at, r.game_id)):
        by_key.setdefault(row.player_key, []).append(row)
    out = {}
    for result in mine:
        if result.opponents != "people":
            continue
        others = {r.player_key for r in tables if r.game_id == result.game_id and r.player_key != result.player_key}
        levels = [
            level_of(
                sum(r.xp for r in by_key.get(key, []) if (r.ended_at, r.game_id) < (result.ended_at, result.game_id))
            )
            for key in others
        ]
        if levels:
            out[result.game_id] = max(levels)
    return out


def opponents_of(result: PersonResult, levels: dict[int, int]) -> str:
    """The row of the opponents' table a result counts in: ``easy``, ``normal``, ``hard`` or ``people-<level>``."""
    if result.opponents == "people" and result.game_id in levels:
        return f"people-{levels[result.game_id]}"
    return result.opponents


def opponents_title(key: str) -> str:
    """How the opponents' table names its row."""
    if key.startswith("people-"):
        return f"people of level {key.removeprefix('people-')}"
    return OPPONENT_TITLES.get(key, "people")


def statistics(results: Sequence[PersonResult], levels: dict[int, int] | None = None) -> Statistics:
    """A person's statistics from all their results (``levels``: :func:`people_levels` of them)."""
    presets = sorted({r.preset for r in results})
    known = levels or {}
    labels = {r.game_id: opponents_of(r, known) for r in results}
    order = ["easy", "normal", "hard", *sorted({v for v in labels.values() if v.startswith("people-")}), "people"]
    opponents = [o for o in order if o in labels.values()]
    xp = sum(r.xp for r in results)
    level = level_of(xp)
    return Statistics(
        overall=summary(results),
        by_preset={p: summary([r for r in results if r.preset == p]) for p in presets},
        by_opponents={o: summary([r for r in results if labels[r.game_id] == o]) for o in opponents},
        xp=xp,
        level=level,
        next_level_xp=xp_for_level(level + 1),
        achievements=achievements(results),
    )


def xp_line(gained: int, level: int) -> str:
    """What is shown after a series: ``+120 XP · level 4``."""
    return f"+{gained} XP · level {level}"


def chart_svg(results: Sequence[PersonResult], width: int = 640, height: int = 220) -> str:
    """Results over time as an SVG picture: each series' total (a win in gold, a given-up series as a cross)."""
    if not results:
        return ""
    left, right, top, bottom = 44, 12, 14, 30
    totals = [r.total for r in results]
    high, low = max(max(totals), 1), min(0, min(totals))
    span = high - low or 1
    step = (width - left - right) / max(1, len(results) - 1)

    def x(i: int) -> float:
        return round(left + (i * step if len(results) > 1 else (width - left - right) / 2), 1)

    def y(total: int) -> float:
        return round(top + (high - total) * (height - top - bottom) / span, 1)

    line = " ".join(f"{x(i)},{y(r.total)}" for i, r in enumerate(results))
    marks = []
    for i, r in enumerate(results):
        label = escape(f"Series {i + 1} ({r.ended_at:%Y-%m-%d}): {r.total} points, place {r.rank}")
        if r.gave_up:
            marks.append(
                f'<path d="M{x(i) - 5} {y(r.total) - 5}l10 10m0 -10l-10 10" stroke="#b3261e" stroke-width="2.5">'
                f"<title>{label}, given up</title></path>"
            )
        else:
            fill = "#d4a017" if r.winner else "#2f6f4f"
            marks.append(
                f'<circle cx="{x(i)}" cy="{y(r.total)}" r="5" fill="{fill}"><title>{label}'
                f"{', won' if r.winner else ''}</title></circle>"
            )
    axis = (
        f'<line x1="{left}" y1="{y(low)}" x2="{width - right}" y2="{y(low)}" stroke="#888"/>'
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{y(low)}" stroke="#888"/>'
        f'<text x="{left - 6}" y="{y(high) + 4}" font-size="11" text-anchor="end">{high}</text>'
        f'<text x="{left - 6}" y="{y(low) + 4}" font-size="11" text-anchor="end">{low}</text>'
        f'<text x="{left}" y="{height - 8}" font-size="11">first series</text>'
        f'<text x="{width - right}" y="{height - 8}" font-size="11" text-anchor="end">latest</text>'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="results-chart" viewBox="0 0 {width} {height}"'
        f' width="{width}" height="{height}" role="img" aria-label="Totals of your series over time, '
        f'{len(results)} series">{axis}<polyline points="{line}" fill="none" stroke="#2f6f4f" stroke-width="2"/>'
        f"{''.join(marks)}</svg>"
    )
