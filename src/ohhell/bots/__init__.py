"""Computer players: Easy, Normal and Hard (and a random floor), and the Hint and Why? built on them.

Every player is a :class:`~ohhell.bots.base.Bot`: it is given one seat's
:class:`~ohhell.view.SeatView`, an injected random generator and an optional
:class:`~ohhell.bots.base.Budget`, and returns a :class:`~ohhell.bots.base.Decision`.

>>> import random
>>> from ohhell import Game, Rules
>>> game = Game(Rules.preset("full"), number=12)
>>> decision = make_bot("normal").decide(game.view(game.to_act), random.Random(0))
>>> decision.action in game.legal_actions()
True
"""

from __future__ import annotations

from typing import Final

from ohhell.bots.base import Bot, Budget, Decision, NotMyTurnError, Option
from ohhell.bots.easy import EasyBot
from ohhell.bots.hard import HardBot
from ohhell.bots.normal import NormalBot
from ohhell.bots.random_player import RandomBot

LEVELS: Final = ("random", "easy", "counting", "normal", "hard")


def make_bot(level: str) -> Bot:
    """The computer player of a level: ``"easy"``, ``"normal"``, ``"hard"``, ``"counting"`` or ``"random"``.

    Normal is the learned player (:mod:`ohhell.bots.learned`); ``"counting"`` is the player Normal was before it,
    which plays from counted trick chances (:mod:`ohhell.bots.normal`), kept for comparison and research.
    """
    if level == "easy":
        return EasyBot()
    if level == "normal":
        from ohhell.bots.learned import LearnedBot  # numpy and the networks are loaded on first use

        return LearnedBot(level="normal")
    if level == "counting":
        return NormalBot(level="counting")
    if level == "hard":
        return HardBot()
    if level == "random":
        return RandomBot()
    raise ValueError(f"unknown level {level!r}: use one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Bot", "Budget", "Decision", "NotMyTurnError", "Option", "make_bot"]
