"""The score keeper's own refusals, in the engine's error tree (every one a :class:`ValueError`).

Bids out of range, the hook and bids out of turn reuse the engine's :class:`~ohhell.errors.BidOutOfRangeError`,
:class:`~ohhell.errors.HookError` and :class:`~ohhell.errors.NotYourTurnError`; these cover what only a sheet
can get wrong. Like the engine's, each message says what rule the entry breaks.
"""

from __future__ import annotations

from ohhell.errors import IllegalActionError, OhHellError


class SheetSetupError(OhHellError):
    """Player names missing, repeated or too many for the rules; a first dealer who is not at the table."""

    code = "bad-sheet"


class TricksOutOfRangeError(IllegalActionError):
    """A player credited with fewer than 0 tricks or more than the hand has."""

    code = "tricks-out-of-range"


class TricksDoNotAddUpError(IllegalActionError):
    """Tricks whose total is not the hand size: every trick is taken by exactly one player."""

    code = "tricks-do-not-add-up"


class TrumpNotAllowedError(IllegalActionError):
    """A trump the rules of the deal cannot give, or one entered where the rules decide it."""

    code = "trump-not-allowed"
