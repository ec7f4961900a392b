"""The one door to the computer players (:mod:`ohhell.bots`): their moves, Hint and Why?.

Every call to the bots is here, so that a change of their interface touches one module. A bot is only
ever given one seat's :class:`~ohhell.view.SeatView`. Its reason is shown to every seat (Why?), so it is
written by :func:`ohhell.bots.public.why` from the public facts and the decision's intent alone: nothing of the
bot's hand can reach it. A Hint is a bot's decision for the human seat, from that seat's own view, in words to
that person, with its numbers apart (:attr:`Move.details`).
:mod:`ohhell.server.table.thinkers` runs these functions off the event loop.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ohhell.actions import Action
from ohhell.bots import hints, make_bot
from ohhell.bots.base import Bot
from ohhell.bots.intent import Intent
from ohhell.bots.public import PublicFacts, PublicReason, public_text, why
from ohhell.game import Game
from ohhell.view import SeatView

HINT_LEVEL: Final = "normal"
"""The level whose reasoning gives Hints."""
_FALLBACK: Final = {"hard": "normal", "normal": "easy", "easy": "random"}
"""A level the bots package does not offer (yet) plays as the next one down."""


@dataclass(frozen=True)
class Move:
    """A chosen action and the sentence that explains it: to every seat (Why?), or to the person asking (Hint)."""

    action: Action
    reason: str
    details: tuple[str, ...] = ()
    """A Hint's numbers, one line each, for a part of the page folded away (none for a Why?: they are the bot's)."""


def bot_for(level: str) -> Bot:
    """The computer player of ``level``, or the nearest weaker one the bots package offers."""
    while True:
        try:
            return make_bot(level)
        except ValueError:
            if level not in _FALLBACK:
                raise
            level = _FALLBACK[level]


def decide(level: str, view: SeatView, rng: random.Random, names: Sequence[str] | None = None) -> Move:
    """A computer player's move for ``view.seat``, with its reason fit to show every seat (Why?).

    ``names`` are the seats' names (``Seat 0``, ``Seat 1``, … when not given); the reason calls the player by
    its name. It is written from the public facts of ``view`` and what the bot meant alone, so it cannot tell
    what the bot holds. Should a bot ever answer with an action the view does not allow, the seat's first legal
    action is played instead, and the reason says so: a table never stalls on a computer player.
    """
    names = names if names is not None else [f"Seat {s}" for s in range(view.players)]
    decision = bot_for(level).decide(view, rng)
    if decision.action not in view.legal_actions:
        fallback = view.legal_actions[0]
        return Move(fallback, public_text(PublicReason(Intent.FALLBACK, fallback), PublicFacts.of(view), names))
    return Move(decision.action, why(decision, view, names))


def hint(view: SeatView, names: Sequence[str] | None = None) -> Move:
    """What the computer players' reasoning suggests to the person at ``view.seat``, in words to them.

    Computed from that seat's view only, so it knows no more than the person asking; ``names`` (the seats'
    names) say whose card is on the table. The numbers behind it are in :attr:`Move.details`.
    """
    advice = hints.hint(view, HINT_LEVEL, random.Random(0), names=names)
    return Move(advice.action, advice.reason, advice.details)


def decide_seeded(level: str, view: SeatView, seed: str, names: Sequence[str] | None = None) -> Move:
    """:func:`decide` with a random generator seeded by ``seed`` (what a worker process is asked)."""
    return decide(level, view, random.Random(seed), names)


def deal_seed(game: Game) -> str:
    """A computer player's seed drawn from the deal and the moves alone: the game's number and every action so far.

    Two tables dealt from the same number where the same moves were made give the same seed, so their computer
    players make the same moves (a duplicate event's tables: :mod:`ohhell.web.events`); nothing of the clock or the
    table's id goes in. The number is secret while the series is played, so a seat cannot work the seed out.
    """
    moves = ";".join(f"{deal.deal_index}:{seat}:{action}" for deal in game.deals for seat, action in deal.actions)
    return hashlib.sha256(f"ohhell-deal-seed/1:{game.number}:{moves}".encode("ascii")).hexdigest()
