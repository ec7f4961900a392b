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

from ohhell.actions import Action, action_text
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


def bot_seed(game: Game) -> str:
    """The seed of the computer player about to act: a secret function of the game's number and its moves so far.

    It is computed by the server and never sent; the bot is handed the seed, not the number, and its view holds no
    number either. A public seed (the table's id and move count, say) would let a person replay a computer
    player's choices for each hand it might hold and so read its cards; this one is as secret as the deal until
    the series ends. The same deal with the same moves gives the same seed, hence the same computer moves.
    """
    moves = ",".join(_move_text(seat, action) for deal in game.deals for seat, action in deal.actions)
    return hashlib.sha256(f"ohhell-bot:{game.number}:{moves}".encode()).hexdigest()


def _move_text(seat: int, action: Action) -> str:
    return f"{seat} {action_text(action)}"


class BotSeeds:
    """:func:`bot_seed` of one table's game, the same digest, kept up to date move by move.

    Hashing every move of the series again for each decision cost a table's event loop more than its computer
    players' own messages (8% of the loop at 1,000 games). This hashes each move once: the digest so far is
    copied and finished for each seed. When the moves it hashed are no longer the game's (an undo, a rebuilt
    game), it starts again from the first move, so the seed is always :func:`bot_seed` of the game as it is.
    """

    def __init__(self) -> None:
        self._game: Game | None = None
        self._hash = hashlib.sha256()
        self._index = -1
        """The deal the hashed moves reach into."""
        self._taken: list[tuple[int, Action]] = []
        """That deal's moves hashed so far."""
        self._before: tuple[int, ...] = ()
        """How many moves each earlier deal had when hashed."""
        self._any = False

    def seed(self, game: Game) -> str:
        """:func:`bot_seed` of ``game`` now."""
        if not self._holds(game):
            self._start(game)
        deals = game.deals
        for index in range(self._index, len(deals)):
            actions = deals[index].actions
            if index != self._index:
                self._before += (len(self._taken),)
                self._index, self._taken = index, []
            for seat, action in actions[len(self._taken) :]:
                text = _move_text(seat, action)
                self._hash.update((("," if self._any else "") + text).encode())
                self._any = True
                self._taken.append((seat, action))
        return self._hash.copy().hexdigest()

    def _holds(self, game: Game) -> bool:
        deals = game.deals
        if game is not self._game or self._index < 0 or self._index >= len(deals):
            return False
        if tuple(len(deal.actions) for deal in deals[: self._index]) != self._before:
            return False
        return deals[self._index].actions[: len(self._taken)] == self._taken

    def _start(self, game: Game) -> None:
        self._game = game
        self._hash = hashlib.sha256(f"ohhell-bot:{game.number}:".encode())
        self._index, self._taken, self._before, self._any = 0, [], (), False
