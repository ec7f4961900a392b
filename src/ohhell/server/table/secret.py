"""The deal number of a table as its seats and spectators may know it: sealed until the series is over.

The number fixes every hand, so while a series is played nobody at the table is told it: every seat and spectator
is shown only its commitment (:mod:`ohhell.commitment`). When the series is over (played out, or given up) the
number and salt are told to everyone at once, in the messages, the pages and the record, and the page checks them
against the commitment. A practice series (its number chosen: New game's number, Play these cards again) shows its
number from the start to the person who chose it, and to nobody else until it is over: the others could otherwise
see every hand (docs/deal-numbers.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ohhell import commitment
from ohhell.server.storage.store import StoredGame


@dataclass(frozen=True)
class DealSecret:
    """A game's number, its salt, whether it is practice, and the seat of the person who chose it, if any."""

    number: int
    salt: str
    practice: bool
    chooser: int | None
    """At a practice series: the seat of the person who chose the number (who may see it all along)."""

    @property
    def sealed(self) -> str:
        """The commitment every seat and spectator sees from the start."""
        return commitment.commitment(self.number, self.salt)

    def told_to(self, seat: int, over: bool) -> bool:
        """Whether ``seat`` (-1: a spectator) may be told the number now."""
        return over or (self.practice and seat == self.chooser and seat >= 0)

    def part(self, seat: int, over: bool) -> dict[str, Any]:
        """The ``commitment`` key of the state's game part for ``seat``.

        The number is text (JavaScript numbers are exact only to 2**53); ``salt`` and ``check`` (a shell command
        that hashes them again) come only once the series is over.
        """
        told = self.told_to(seat, over)
        return {
            "scheme": commitment.SCHEME,
            "sha256": self.sealed,
            "practice": self.practice,
            "chooser": self.chooser,
            "number": str(self.number) if told else None,
            "salt": self.salt if over else None,
            "check": commitment.check_command(self.number, self.salt) if over else None,
        }

    def record_extension(self, over: bool) -> dict[str, Any]:
        """The record's ``deal_commitment`` (docs/records.md): with the salt once the series is over."""
        out: dict[str, Any] = {"scheme": commitment.SCHEME, "sha256": self.sealed}
        if over:
            out["salt"] = self.salt
        return out


def secret_of(stored: StoredGame) -> DealSecret:
    """The secret of a stored game (the chooser of a practice series is the seat of the person who started it)."""
    chooser = None
    if stored.practice:
        chooser = next(
            (i for i, s in enumerate(stored.seats) if s.get("kind") == "human" and s.get("player") == stored.owner),
            None,
        )
    return DealSecret(stored.deal_number, stored.deal_salt, stored.practice, chooser)
