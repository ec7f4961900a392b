"""The one door into a computer player: a seat's view in, a decision with its reasons out.

A bot never sees a :class:`~ohhell.deal.Deal` or a :class:`~ohhell.game.Game`:
:meth:`Bot.decide` takes a :class:`~ohhell.view.SeatView` (what one seat may
know), an injected :class:`random.Random` and an optional :class:`Budget`.
What comes back is a :class:`Decision`: the action and the numbers that chose
it, so a Why? or a Hint can be written from the very computation that decided,
never from canned text that could disagree with it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from ohhell.actions import CHANGE_BASE, TRUMP_BASE, Action
from ohhell.bots.intent import Intent
from ohhell.cards import Card
from ohhell.view import SeatView


@dataclass(frozen=True)
class Budget:
    """How long a searching bot may think: a wall-time limit, an iteration count, or both (whichever ends first).

    Only the Hard player searches; the others decide in one pass and ignore the budget.
    ``iterations`` counts the Hard player's simulated deals (its tree search) or
    sampled worlds (its flat search, used with Magicians and Jesters).
    """

    seconds: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a time budget must be positive, not {self.seconds!r} seconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"an iteration budget must be at least 1, not {self.iterations!r}")


@dataclass(frozen=True)
class Option:
    """One alternative the bot weighed, with its value on the decision's :attr:`Decision.measure`.

    ``samples`` is how many sampled worlds stand behind a searched value (0 for a calculated one).
    """

    action: Action
    value: float
    samples: int = 0


@dataclass(frozen=True)
class Decision:
    """An action and the reasons that chose it.

    ``summary`` is one sentence built from the numbers below it, for the bot's own seat and for debugging (it may
    name any card of the hand); ``intent`` is what the bot meant, the only part of its reasoning that a Why?
    shows the other seats (:mod:`ohhell.bots.public`); ``options`` lists
    every alternative weighed, best first, with its value on the scale named by
    ``measure`` (for example ``"expected points"``); ``card_chances`` gives cards
    a chance, in the sense named by ``chance_label`` (at a bid: to take a trick
    in the deal; at a play: to win this trick); ``facts`` holds the other figures
    the decision used, by name.
    """

    action: Action
    level: str
    summary: str
    intent: Intent
    measure: str = ""
    options: tuple[Option, ...] = ()
    card_chances: tuple[tuple[Card, float], ...] = ()
    chance_label: str = ""
    facts: tuple[tuple[str, float | int | str], ...] = ()

    def fact(self, name: str) -> float | int | str | None:
        """The figure called ``name``, or ``None`` if this decision did not use one."""
        for key, value in self.facts:
            if key == name:
                return value
        return None


class Bot(Protocol):
    """A computer player. Implementations hold no game state between calls: everything comes from the view."""

    level: str

    def decide(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> Decision:
        """The action for ``view.seat``, which must be the seat to act, with the reasons for it."""
        ...


class NotMyTurnError(ValueError):
    """A bot was asked to act for a seat that has nothing to do."""


def playable(view: SeatView) -> tuple[Action, ...]:
    """The actions a bot picks from: the legal ones, with bid changes left out.

    Under ``until-next`` a seat may change its bid until the next seat bids (the
    dealer: until the first card). Nothing new is learnt between a seat's bid and
    that moment, so a bot never changes; it is still asked to act as the dealer who
    leads, and then it plays.
    """
    if view.to_act != view.seat or not view.legal_actions:
        raise NotMyTurnError(f"seat {view.seat} has nothing to do: it is seat {view.to_act}'s turn")
    return tuple(a for a in view.legal_actions if not CHANGE_BASE <= a < TRUMP_BASE)


def dealer_forbidden(view: SeatView) -> int | None:
    """The bid the hook forbids ``view.seat`` as the dealer (``None`` when it is not the dealer or none is)."""
    return view.forbidden_bid if view.seat == view.dealer else None


def forbidden_note(view: SeatView, forbidden: int | None) -> str:
    """The clause a bid's summary adds when the hook forbids the dealer a bid it could otherwise make."""
    if forbidden is None or not 0 <= forbidden <= view.hand_size:
        return ""
    return f"; {forbidden} is forbidden to the dealer (the bids would total {view.hand_size})"
