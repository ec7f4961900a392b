"""What a computer player meant by its action: the closed set of things a Why? may say (:mod:`ohhell.bots.public`)."""

from __future__ import annotations

import enum


class Intent(enum.Enum):
    """What a computer player meant by its action, in the closed set of things a Why? may say.

    The value is the intent in a few words (for logs and docs); :func:`ohhell.bots.public.public_text` writes
    the sentence.
    """

    BID = "bids what it expects to score most with"
    QUICK_BID = "bids on a quick look at its cards"
    HOOKED = "the hook moved its bid"
    NAME_TRUMP = "names trump"
    WIN = "plays to win the trick"
    LOSE = "plays not to win the trick"
    PLAY = "plays a card, with no aim for this trick"
    LAPSE = "plays a card without much thought"
    RANDOM = "picks at random"
    FALLBACK = "its own choice was not allowed, so the first legal action was taken"


def card_aim(wants: bool, chance: float) -> Intent:
    """The intent of a card from the bot's own reckoning: whether it wants tricks, and its card's chance to win.

    Wanting the trick with a card likely to take it is playing to win; a card unlikely to take it is playing not
    to win, whatever the bot wants (it lets the trick go); a card likely to take a trick the bot does not want
    has no aim to state.

    >>> card_aim(True, 0.8), card_aim(True, 0.2), card_aim(False, 0.2), card_aim(False, 0.9)
    (<Intent.WIN: 'plays to win the trick'>, <Intent.LOSE: 'plays not to win the trick'>, \
<Intent.LOSE: 'plays not to win the trick'>, <Intent.PLAY: 'plays a card, with no aim for this trick'>)
    """
    if chance < 0.5:
        return Intent.LOSE
    return Intent.WIN if wants else Intent.PLAY
