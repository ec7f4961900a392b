"""XP for a series and the levels it adds up to.

A finished series earns :data:`FINISH_XP`, plus :data:`EXACT_BID_XP` for every exact bid, plus :data:`WIN_XP` for a
win (a shared win too); a series the person gave up earns nothing (it is a loss). The others at a table where
someone gave up finished it (it ended for them), with the exact bids of the deals played. Level *n* takes
``100 * n * (n - 1) / 2`` XP in all: level 2 at 100 (any finished series reaches it), 3 at 300, 4 at 600, 5 at
1000, 6 at 1500.

>>> series_xp(finished=True, gave_up=False, exact_bids=7, winner=True)
220
>>> series_xp(finished=False, gave_up=True, exact_bids=7, winner=False)
0
>>> level_of(0), level_of(99), level_of(100), level_of(650), xp_for_level(5)
(1, 1, 2, 4, 1000)
"""

from __future__ import annotations

from typing import Final

FINISH_XP: Final = 100
EXACT_BID_XP: Final = 10
WIN_XP: Final = 50
LEVEL_STEP: Final = 100


def series_xp(*, finished: bool, gave_up: bool, exact_bids: int, winner: bool) -> int:
    """The XP a person earns for one series (see the module)."""
    if gave_up:
        return 0
    return (FINISH_XP if finished else 0) + EXACT_BID_XP * exact_bids + (WIN_XP if winner else 0)


def xp_for_level(level: int) -> int:
    """The XP at which ``level`` is reached."""
    return LEVEL_STEP * level * (level - 1) // 2


def level_of(xp: int) -> int:
    """The level ``xp`` in all has reached."""
    level = 1
    while xp >= xp_for_level(level + 1):
        level += 1
    return level
