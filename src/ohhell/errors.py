"""One tree of errors under :class:`ValueError`, each with the code that game records use.

Every message names the rule or field that was broken, so that a person reading it
knows what to fix, e.g. ``the dealer (seat 3) may not bid 1: the bids would total 5,
the number of tricks``. An action that raises leaves the game as it was.
"""

from __future__ import annotations

from typing import ClassVar


class OhHellError(ValueError):
    """Base of every error this package raises on bad input."""

    code: ClassVar[str] = "error"
    deal: int | None = None
    """In a game record: the 0-based index of the deal at fault, where one applies."""
    action: int | None = None
    """In a game record: the 0-based index of the action at fault in that deal, where one applies."""

    def at(self, deal: int | None, action: int | None = None) -> OhHellError:
        """This error, placed at a deal and action of a record."""
        self.deal, self.action = deal, action
        return self


class RecordError(OhHellError):
    """Not JSON, or a field is missing or of the wrong type."""

    code = "bad-record"


class RulesError(OhHellError):
    """An unknown preset or option, or an impossible combination of options."""

    code = "bad-rules"


class DealError(OhHellError):
    """Hands of the wrong size or count, a duplicated or unknown card, a turned card held or missing."""

    code = "bad-deal"


class TooManyDealsError(OhHellError):
    """More deals than the schedule has."""

    code = "too-many-deals"


class IllegalActionError(OhHellError):
    """An action the rules do not allow at this moment (base of the rule-breach errors)."""

    code = "illegal-action"


class NotYourTurnError(IllegalActionError):
    """The seat named is not the one to act."""

    code = "not-your-turn"


class UnexpectedActionError(IllegalActionError):
    """A kind of action that does not fit the moment: a play during bidding, a bid after the game."""

    code = "unexpected-action"


class BidOutOfRangeError(IllegalActionError):
    """A bid below zero or above the hand size."""

    code = "bid-out-of-range"


class HookError(IllegalActionError):
    """The dealer's forbidden bid."""

    code = "hook"


class BidChangeNotAllowedError(IllegalActionError):
    """A bid change outside the ``until-next`` window, or under ``final``."""

    code = "bid-change-not-allowed"


class CardNotInHandError(IllegalActionError):
    """A card the seat does not hold."""

    code = "card-not-in-hand"


class MustFollowSuitError(IllegalActionError):
    """A card of another suit while the seat holds the suit led."""

    code = "must-follow-suit"


class LeftBeyondLogError(RecordError):
    """A ``left`` entry whose action lies beyond the record's log: nobody can have left at an action not played."""

    code = "left-beyond-log"


class CommitmentMismatchError(OhHellError):
    """A revealed deal number and salt whose SHA-256 is not the commitment the record carries."""

    code = "commitment-mismatch"


class DealNotFromNumberError(DealError):
    """A deal whose cards (or a first dealer) are not what the record's revealed deal number deals."""

    code = "deal-not-from-number"
