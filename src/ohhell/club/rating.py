"""A club's ratings: OpenSkill's Plackett-Luce model over the club's finished series, in the order they ended.

Each series is a ranking of its people (ties share a place; one who gave up is last). Ratings start at OpenSkill's
defaults (mu 25, sigma 25/3) and are computed afresh from the stored results, so they always agree with them; the
leaderboard orders by the ordinal ``mu - 3sigma`` (a rating one is fairly sure of), and shows it with the number of
series behind it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from ohhell.club.results import PersonResult


@dataclass(frozen=True)
class Rating:
    """One person's rating in a club."""

    player_key: str
    mu: float
    sigma: float
    series: int

    @property
    def ordinal(self) -> float:
        """``mu - 3sigma``: what the leaderboard orders by."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The rating as shown: the ordinal, scaled like the common displays (x40 + 1000, whole numbers)."""
        return round(1000 + 40 * self.ordinal)


def club_ratings(results: Sequence[PersonResult], identity: dict[str, str] | None = None) -> list[Rating]:
    """The ratings after every series of ``results`` (a club's), best first.

    ``identity`` maps player keys to one person's key (an account's several keys count as one person).
    """
    model = PlackettLuce()
    same = identity or {}
    ratings: dict[str, object] = {}
    counts: dict[str, int] = defaultdict(int)
    by_game: dict[int, list[PersonResult]] = defaultdict(list)
    order: list[int] = []
    for result in results:
        if result.game_id not in by_game:
            order.append(result.game_id)
        by_game[result.game_id].append(result)
    for game_id in order:
        people = by_game[game_id]
        if len(people) < 2:
            continue
        keys = [same.get(r.player_key, r.player_key) for r in people]
        teams = [[ratings.get(key) or model.rating(name=key)] for key in keys]
        rated = model.rate(teams, ranks=[r.rank for r in people])  # type: ignore[arg-type]
        for key, team in zip(keys, rated, strict=True):
            ratings[key] = team[0]
            counts[key] += 1
    out = [
        Rating(key, float(rating.mu), float(rating.sigma), counts[key])  # type: ignore[attr-defined]
        for key, rating in ratings.items()
    ]
    return sorted(out, key=lambda r: (-r.ordinal, r.player_key))


def places(values: Sequence[int]) -> list[int]:
    """Places for values shown best first: equal values share a place (1, 2, 2, 4).

    >>> places([1120, 1080, 1080, 990])
    [1, 2, 2, 4]
    """
    return [1 + sum(1 for other in values if other > value) for value in values]
