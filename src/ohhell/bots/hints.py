"""Hint and Why?: what the Normal or Hard player would do from a seat's view, and the reasons in words.

A hint is simply that player's :class:`~ohhell.bots.base.Decision` for the
human's own view, so it can never know more than the human does. :func:`explain`
turns any decision into text from its own numbers: the sentence the bot built
while deciding, the value of every option it weighed, and the per-card chances
it used. Nothing is written that the computation did not produce.

>>> import random
>>> from ohhell import Game, Rules
>>> game = Game(Rules.preset("full"), number=5)
>>> decision = hint(game.view(game.to_act), "normal", random.Random(0))
>>> explain(decision).splitlines()[0].startswith("Bid ")
True
"""

from __future__ import annotations

import random
from typing import Final

from ohhell.actions import action_text
from ohhell.bots import make_bot
from ohhell.bots.base import Budget, Decision
from ohhell.cards import card_text
from ohhell.view import SeatView

HINT_LEVELS: Final = ("normal", "hard")
SHOWN_OPTIONS: Final = 6
"""Options listed in a Why?; the rest are summed up by their count."""


def hint(
    view: SeatView, level: str = "normal", rng: random.Random | None = None, budget: Budget | None = None
) -> Decision:
    """The bid, card or trump the ``level`` player would choose from ``view``, with its reasons."""
    if level not in HINT_LEVELS:
        raise ValueError(f"hints come from the {' or '.join(HINT_LEVELS)} player, not {level!r}")
    return make_bot(level).decide(view, rng if rng is not None else random.Random(), budget)


def explain(decision: Decision) -> str:
    """The Why? of a decision: its sentence, then the options weighed and the card chances, as numbers."""
    lines = [decision.summary]
    if decision.options:
        shown = decision.options[:SHOWN_OPTIONS]
        more = len(decision.options) - len(shown)
        extra = f" (and {more} more)" if more else ""
        if len({o.samples for o in decision.options}) > 1:
            # A tree search tries the better moves more often: each value has its own count behind it.
            listed = ", ".join(f"{action_text(o.action)} {o.value:.1f} ({o.samples})" for o in shown)
            lines.append(f"{decision.measure.capitalize()}, with the simulated deals behind each: {listed}{extra}.")
        else:
            listed = ", ".join(f"{action_text(o.action)} {o.value:.1f}" for o in shown)
            samples = f" over {shown[0].samples} sampled worlds" if shown[0].samples else ""
            lines.append(f"{decision.measure.capitalize()}{samples}: {listed}{extra}.")
    if decision.card_chances:
        listed = ", ".join(f"{card_text(c)} {p:.0%}" for c, p in decision.card_chances)
        lines.append(f"{decision.chance_label.capitalize()}: {listed}.")
    return "\n".join(lines)
