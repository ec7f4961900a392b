"""What a score sheet shows, as frozen values: a row per deal and a line per entry in the history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from ohhell.keeper.trump import TrumpCall

MINUS: Final = "\N{MINUS SIGN}"


@dataclass(frozen=True)
class DealRow:
    """One deal of the sheet as it stands: what was entered, the points and the running totals.

    ``trump`` is ``None`` while the table has not told it; ``trump_entered`` says whether the table tells it (turn-up
    rules) or the rules do (a rotation, or no card left to turn). ``corrected`` names the cells changed by a
    correction: ``"bid:2"``, ``"tricks:0"``, ``"trump"``.
    """

    index: int
    cards: int
    dealer: int
    trump: TrumpCall | None
    trump_entered: bool
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...] | None
    points: tuple[int, ...] | None
    totals: tuple[int, ...]
    """Each seat's total after this deal; before it, while the deal is unfinished."""
    corrected: frozenset[str]

    @property
    def number(self) -> int:
        """The 1-based deal number people use."""
        return self.index + 1

    @property
    def bid_total(self) -> int:
        """The total of the bids entered so far."""
        return sum(b for b in self.bids if b is not None)

    @property
    def is_finished(self) -> bool:
        """Whether the tricks are entered and the deal scored."""
        return self.points is not None

    def made(self, seat: int) -> bool | None:
        """Whether ``seat`` took exactly its bid; ``None`` before the tricks are in."""
        if self.tricks is None:
            return None
        return self.tricks[seat] == self.bids[seat]


@dataclass(frozen=True)
class HistoryLine:
    """One event of the sheet in words: who entered or corrected what, and when."""

    at: datetime
    by: str
    text: str
    correction: bool
    """True for a correction, a renaming or a change of first dealer: anything that changes what was entered."""
    deal: int | None

    def __str__(self) -> str:
        return f"{self.at.strftime('%Y-%m-%d %H:%M')} UTC {self.by}: {self.text}"


def join_names(names: Sequence[str]) -> str:
    """Names as a sentence lists them: ``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def score_text(value: int | None) -> str:
    """A score as people print it, with a true minus sign rather than a hyphen; empty for no score."""
    if value is None:
        return ""
    return f"{MINUS}{-value}" if value < 0 else str(value)
