"""Seat bots at a game or a deal and let them play, handing each only its own view.

>>> import random
>>> from ohhell import Game, Rules
>>> from ohhell.bots import make_bot
>>> game = Game(Rules.preset("short", players=3), number=7)
>>> play_game(game, [make_bot("normal"), make_bot("easy"), make_bot("random")], random.Random(1))
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ohhell.bots.base import Bot, Budget, Decision
from ohhell.deal import Deal
from ohhell.game import Game
from ohhell.view import SeatView, seat_view

Observer = Callable[[SeatView, Decision], None]
"""Called with each view a bot was given and the decision it returned."""


def play_deal(
    deal: Deal,
    bots: Sequence[Bot],
    rng: random.Random,
    budget: Budget | None = None,
    observe: Observer | None = None,
) -> None:
    """Play ``deal`` to its end, seat ``s`` deciding with ``bots[s]``."""
    while not deal.is_over:
        view = seat_view(deal, deal.to_act)
        decision = bots[view.seat].decide(view, rng, budget)
        if observe is not None:
            observe(view, decision)
        deal.apply(decision.action, view.seat)


def play_game(
    game: Game,
    bots: Sequence[Bot],
    rng: random.Random,
    budget: Budget | None = None,
    observe: Observer | None = None,
) -> None:
    """Play ``game`` to its end, seat ``s`` deciding with ``bots[s]``."""
    while not game.is_over:
        view = game.view(game.to_act)
        decision = bots[view.seat].decide(view, rng, budget)
        if observe is not None:
            observe(view, decision)
        game.apply(decision.action, view.seat)
