"""A finished series as the site's results hook takes it (:class:`ohhell.web.results.SeriesResult`).

Built from the engine's game and the stored seats alone, so that the live table (when the series ends) and a
rebuild from the stored log (``ohhell club rebuild-stats``) give the same result for the same game.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from ohhell.game import Game
from ohhell.web.results import SeatResult, SeriesResult


def series_result(
    game: Game,
    seats: list[dict[str, Any]],
    game_id: int,
    ended_at: datetime,
    undos: Iterable[int] = (),
    club_id: int | None = None,
) -> SeriesResult:
    """The results of a game that is over (played out or given up), seat by seat."""
    if not game.is_over:
        raise ValueError(f"game {game_id} is not over: a series result is for a finished series")
    winners = game.winners or []
    rows = []
    for index, seat in enumerate(seats):
        rows.append(
            SeatResult(
                seat=index,
                name=str(seat.get("name", f"Seat {index}")),
                kind=str(seat.get("kind", "computer")),
                player=str(seat["player"]) if seat.get("kind") == "human" and seat.get("player") else None,
                level=str(seat["level"]) if seat.get("level") else None,
                total=game.totals[index],
                bids=tuple(result.bids[index] for result in game.results),
                tricks=tuple(result.tricks[index] for result in game.results),
                points=tuple(result.points[index] for result in game.results),
            )
        )
    return SeriesResult(
        game_id=game_id,
        preset=game.rules.preset_name,
        deals_in_series=game.rules.deals,
        ended_at=ended_at,
        seats=tuple(rows),
        winners=tuple(winners),
        resigned=game.resigned,
        left=tuple(sorted(game.left)),
        undos=tuple(sorted(set(undos))),
        club_id=club_id,
    )
