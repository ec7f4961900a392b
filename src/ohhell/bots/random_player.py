"""The random player: a uniformly random legal action, the floor of the strength ladder."""

from __future__ import annotations

import random

from ohhell.actions import action_text
from ohhell.bots.base import Budget, Decision, playable
from ohhell.bots.intent import Intent
from ohhell.view import SeatView


class RandomBot:
    """Picks any legal action (never a bid change) with equal chance."""

    level = "random"

    def decide(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> Decision:
        """A random legal action for ``view.seat``."""
        actions = playable(view)
        action = rng.choice(actions)
        return Decision(
            action=action,
            level="random",
            summary=f"Picked {action_text(action)} at random from {len(actions)} legal actions.",
            intent=Intent.RANDOM,
            facts=(("choices", len(actions)),),
        )
