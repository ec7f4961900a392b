"""Each person's part of a finished series, as stored: rank, total, exact bids, winners, XP.

A pure function of the :class:`~ohhell.web.results.SeriesResult` the game hands over, so that the live hook and
``ohhell club rebuild-stats`` (which rebuilds the series from the game's log) store and compare the same thing.

>>> longest_run([True, True, False, True, True, True])
3
>>> ranks([57, 61, 61, 40], quitters=set()), ranks([57, 61, 61, 40], quitters={1})
([3, 1, 1, 4], [2, 4, 1, 3])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ohhell.club.xp import series_xp
from ohhell.web.results import SeriesResult

LEVEL_ORDER = ("easy", "normal", "hard")


def longest_run(flags: Sequence[bool]) -> int:
    """The longest run of ``True`` in a row."""
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


def ranks(totals: Sequence[int], quitters: set[int]) -> list[int]:
    """Each seat's place: 1 + the number of seats ahead of it (ties share a place); seats that gave up are last."""
    playing = [t for s, t in enumerate(totals) if s not in quitters]
    out = []
    for seat, total in enumerate(totals):
        out.append(len(totals) if seat in quitters else 1 + sum(1 for other in playing if other > total))
    return out


@dataclass(frozen=True)
class PersonResult:
    """One person's series, as the ``series_results`` table holds it."""

    game_id: int
    seat: int
    player_key: str
    name: str
    ended_at: datetime
    preset: str
    finished: bool
    gave_up: bool
    rank: int
    total: int
    deals: int
    exact_bids: int
    longest_exact_run: int
    points: list[int]
    exact: list[bool]
    winner: bool
    shared_win: bool
    against_computers: bool
    opponents: str
    club_id: int | None
    undo: bool
    xp: int
    details: dict[str, Any] = field(default_factory=dict)

    def compared(self) -> dict[str, Any]:
        """What a rebuild must find the same (everything but the moment it was stored)."""
        values = dict(self.__dict__)
        del values["ended_at"]
        return values


def opponents_label(result: SeriesResult, seat: int) -> str:
    """The strongest computer player's level among the others, or ``people`` when all were people."""
    levels = [s.level for s in result.seats if s.seat != seat and s.kind == "computer" and s.level]
    if not levels:
        return "people"
    return max(levels, key=lambda level: LEVEL_ORDER.index(level) if level in LEVEL_ORDER else -1)


def person_results(result: SeriesResult, club_id: int | None = None) -> list[PersonResult]:
    """The rows of every person (not the computer players) at a finished series.

    ``club_id`` counts the series for that club (a club table's), never when a computer player sat at it, unless
    it was an entry of the club's duplicate event (its winners are the event's).
    """
    totals = [s.total for s in result.seats]
    quitters = set(result.left) | ({result.resigned} if result.resigned is not None else set())
    places = ranks(totals, quitters)
    shared = len(result.winners) > 1
    counts_for_club = not result.against_computers or result.event_id is not None  # a club's duplicate event
    club = (club_id if club_id is not None else result.club_id) if counts_for_club else None
    out = []
    for seat in result.seats:
        if seat.kind != "human" or seat.player is None:
            continue
        exact = list(seat.exact)
        gave_up = seat.seat in quitters
        winner = seat.seat in result.winners and not gave_up
        out.append(
            PersonResult(
                game_id=result.game_id,
                seat=seat.seat,
                player_key=seat.player,
                name=seat.name,
                ended_at=result.ended_at,
                preset=result.preset or "custom",
                finished=not gave_up,
                gave_up=gave_up,
                rank=places[seat.seat],
                total=seat.total,
                deals=len(seat.points),
                exact_bids=sum(exact),
                longest_exact_run=longest_run(exact),
                points=list(seat.points),
                exact=exact,
                winner=winner,
                shared_win=winner and shared,
                against_computers=result.against_computers,
                opponents=opponents_label(result, seat.seat),
                club_id=club,
                undo=seat.seat in result.undos,
                xp=series_xp(finished=not gave_up, gave_up=gave_up, exact_bids=sum(exact), winner=winner),
                details={
                    "bids": list(seat.bids),
                    "tricks": list(seat.tricks),
                    "totals": totals,
                    "played_out": result.resigned is None,
                },
            )
        )
    return out
