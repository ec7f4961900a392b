"""The learned player: networks trained from self-play (:mod:`ohhell.train`) forecast the tricks a seat will take.

:class:`LearnedBot` reads one seat's view (:mod:`~ohhell.bots.learned.features`), runs the networks in numpy
(:mod:`~ohhell.bots.learned.network`, no torch) and picks the bid or card with the most expected points. The
weights ship in ``weights/`` with their model card in ``docs/model-card.md``.
"""

from ohhell.bots.learned.player import LearnedBot

__all__ = ["LearnedBot"]
