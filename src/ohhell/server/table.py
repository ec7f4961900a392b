"""One live game: its seats, the connections of its human seats, its computer players and its log.

A :class:`Table` holds the engine's :class:`~ohhell.game.Game`, rebuilt from the stored log when it is
first needed. Every accepted action is applied, written to the database and only then announced to the
seats, each of which is told what its own view allows. A refused message changes nothing and is answered
with an error. Computer players think in a worker thread, so the event loop stays free.

After the last trick of a hand the table waits for a person to press Next hand (``shown_deal`` stays
on the finished hand), so that the score sheet and Show All Hands can be looked at.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Final, Protocol

from ohhell.actions import Action, action_text, bid, change, choose_trump, parse_action, play
from ohhell.cards import SUIT_LETTERS, parse_card
from ohhell.deal import Trick
from ohhell.errors import OhHellError, RecordError
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server import players, snapshot, wording
from ohhell.server.messages import (
    BadMessageError,
    BidMessage,
    ChangeMessage,
    HintMessage,
    MoveMessage,
    NextHandMessage,
    PlayMessage,
    ResignMessage,
    ShowHandsMessage,
    SyncMessage,
    parse_message,
)
from ohhell.server.seats import Seat
from ohhell.server.store import GameNotFoundError, NewGame, Progress, Store, StoredAction, StoredGame

log = logging.getLogger(__name__)

CHANGE_WINDOW: Final = 3.0
"""Seconds the computer players wait, under ``until-next`` rules, while a person may still change a bid just made."""


class Connection(Protocol):
    """A person's connection to one seat of a table."""

    seat: int

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message; raise if the connection is gone."""


class CorruptLogError(RuntimeError):
    """A stored log that does not replay under its own rules."""


class NotSavedError(RuntimeError):
    """An action the database did not take: it was taken back, so nothing changed."""


def rebuild(stored: StoredGame) -> Game:
    """The game a stored log describes: its rules and number, then every action in order."""
    rules = Rules.from_json(stored.rules)
    names = [str(seat["name"]) for seat in stored.seats]
    game = Game(rules, stored.deal_number, names=names, first_dealer=stored.first_dealer)
    for row in stored.actions:
        if row.deal_index != game.deal_index:
            raise CorruptLogError(f"game {stored.id}: action {row.seq} belongs to deal {row.deal_index}")
        try:
            game.apply(parse_action(row.action), row.seat)
        except OhHellError as exc:
            raise CorruptLogError(f"game {stored.id}: action {row.seq} ({row.action!r}) is refused: {exc}") from exc
    if stored.resigned is not None:
        try:
            game.resign(stored.resigned)
        except (OhHellError, ValueError) as exc:
            raise CorruptLogError(f"game {stored.id}: seat {stored.resigned} cannot have given up: {exc}") from exc
    return game


def move_action(message: MoveMessage) -> Action:
    """The engine action a move message asks for (:class:`~ohhell.errors.OhHellError` if it names none)."""
    if isinstance(message, BidMessage):
        return bid(message.bid)
    if isinstance(message, ChangeMessage):
        return change(message.bid)
    if isinstance(message, PlayMessage):
        return play(parse_card(message.card))
    return choose_trump(SUIT_LETTERS.index(message.suit))


class Table:
    """A game being played. Use :meth:`Tables.get`; one per game in a server process."""

    def __init__(
        self, stored: StoredGame, store: Store, thinkers: players.Thinkers, change_window: float = CHANGE_WINDOW
    ) -> None:
        self.id = stored.id
        self.change_window = change_window
        self._person_moved_at = -float("inf")
        self.store = store
        self.thinkers = thinkers
        self.game = rebuild(stored)
        self.seats = [Seat.from_json(seat) for seat in stored.seats]
        self.shown_deal = stored.shown_deal if self._has_humans() else self.game.deal_index
        self.reasons: dict[int, str] = {row.seq: row.reason for row in stored.actions if row.reason}
        self.connections: set[Connection] = set()
        self._lock = asyncio.Lock()
        self._bots: asyncio.Task[None] | None = None

    # ----------------------------------------------------------------- reading

    @property
    def facts(self) -> snapshot.TableFacts:
        """The public facts the snapshot needs."""
        return snapshot.TableFacts(self.id, self.seats, self.shown_deal, self.reasons)

    @property
    def seq(self) -> int:
        """The number of actions so far: the ``seq`` of the next one."""
        return snapshot.action_count(self.game)

    @property
    def waiting_for_next(self) -> bool:
        """Whether a finished hand is shown and the next one waits for Next hand."""
        return self.shown_deal != self.game.deal_index

    def _has_humans(self) -> bool:
        return any(seat.is_human for seat in self.seats)

    def seat_of(self, player: str) -> int | None:
        """The human seat that belongs to ``player``'s key, if any."""
        for index, seat in enumerate(self.seats):
            if seat.is_human and seat.player == player:
                return index
        return None

    def state_for(self, seat: int) -> dict[str, Any]:
        """The table as ``seat`` sees it."""
        return snapshot.state_message(self.game, self.facts, seat)

    # ----------------------------------------------------------------- connections

    async def join(self, connection: Connection) -> None:
        """Seat a connection and send it the table; the computer players resume if it is their turn."""
        async with self._lock:
            self.connections.add(connection)
            await self._send(connection, self.state_for(connection.seat))
        self.wake_computer_players()

    def leave(self, connection: Connection) -> None:
        """Forget a closed connection."""
        self.connections.discard(connection)

    async def receive(self, connection: Connection, text: str | bytes) -> None:
        """Handle one message from ``connection``: act on it, or answer with an error and change nothing."""
        try:
            message = parse_message(text)
        except BadMessageError as exc:
            await self._refuse(connection, "bad-message", str(exc))
            return
        try:
            if isinstance(message, SyncMessage):
                async with self._lock:
                    await self._send(connection, self.state_for(connection.seat))
            elif isinstance(message, HintMessage):
                await self._hint(connection)
            elif isinstance(message, ShowHandsMessage):
                await self._show_hands(connection, message.deal)
            elif isinstance(message, NextHandMessage):
                await self._next_hand(connection, message.deal)
            elif isinstance(message, ResignMessage):
                await self._resign(connection, message.seq)
            else:
                await self._move(connection, message)
        except Exception:
            log.exception("table %s: a message of seat %s failed", self.id, connection.seat)
            await self._refuse(connection, "server-error", "Something went wrong on the server; nothing was changed.")

    async def _refuse(self, connection: Connection, code: str, message: str) -> None:
        await self._send(connection, snapshot.error_message(code, message, self.seq))

    async def _refuse_stale(self, connection: Connection) -> None:
        """Refuse a message sent on an old picture of the table, and show the table as it is."""
        await self._refuse(connection, "stale", "The table has moved on since that was sent; it is shown as it is now.")
        await self._send(connection, self.state_for(connection.seat))

    async def _send(self, connection: Connection, message: dict[str, Any]) -> None:
        try:
            await connection.send(message)
        except Exception:  # a connection that cannot take a message is gone; the others carry on
            log.info("table %s: dropping a connection of seat %s", self.id, connection.seat)
            self.connections.discard(connection)

    async def _broadcast(self, build: Callable[[int], dict[str, Any]]) -> None:
        messages: dict[int, dict[str, Any]] = {}
        for connection in list(self.connections):
            if connection.seat not in messages:
                messages[connection.seat] = build(connection.seat)
            await self._send(connection, messages[connection.seat])

    # ----------------------------------------------------------------- acting

    async def _move(self, connection: Connection, message: MoveMessage) -> None:
        async with self._lock:
            if message.seq != self.seq:
                await self._refuse_stale(connection)
                return
            if self.game.is_over or self.waiting_for_next:
                await self._refuse(connection, "unexpected-action", "The hand is over: choose Next hand.")
                return
            try:
                await self._apply(connection.seat, move_action(message))
                self._person_moved_at = time.monotonic()
            except RecordError as exc:
                await self._refuse(connection, "bad-message", f"not a valid move: {exc}")
                return
            except OhHellError as exc:
                view = self.game.view(connection.seat)
                text = wording.error_message(exc, view, self.game.deal.led_suit, [s.name for s in self.seats])
                await self._refuse(connection, exc.code, text)
                return
            except NotSavedError:
                log.exception("table %s: a move was not saved", self.id)
                await self._refuse(
                    connection, "not-saved", "The move could not be saved, so it was not made: try again."
                )
                return
        self.wake_computer_players()

    async def _apply(self, seat: int, action: Action, reason: str | None = None) -> None:
        """Apply, store, announce. Call with the lock held. Refused or unstored, it leaves everything as it was."""
        game = self.game
        seq = self.seq
        deal = game.deal
        tricks_before = len(deal.tricks)
        game.apply(action, seat)
        try:
            await self.store.append_action(
                self.id,
                StoredAction(seq=seq, deal_index=deal.deal_index, seat=seat, action=action_text(action), reason=reason),
                Progress(finished=game.is_over, totals=list(game.totals), winners=game.winners),
            )
        except Exception as exc:
            game.undo()
            raise NotSavedError(f"table {self.id}: action {seq} could not be stored") from exc
        except BaseException:
            game.undo()
            raise
        if reason:
            self.reasons[seq] = reason
        if not self._has_humans():
            self.shown_deal = game.deal_index
        trick: Trick | None = deal.tricks[-1] if len(deal.tricks) > tricks_before else None
        await self._broadcast(
            lambda viewer: snapshot.action_message(game, self.facts, viewer, seq, seat, action, trick)
        )

    async def _resign(self, connection: Connection, seq: int) -> None:
        """The connection's seat gives up: the game ends, stored before anyone is told."""
        async with self._lock:
            game = self.game
            if game.is_over:
                await self._refuse(connection, "unexpected-action", "The game is already over.")
                return
            if seq != self.seq:
                await self._refuse_stale(connection)
                return
            game.resign(connection.seat)
            try:
                await self.store.resign(
                    self.id, connection.seat, Progress(finished=True, totals=list(game.totals), winners=game.winners)
                )
            except Exception:
                game.resigned = None
                log.exception("table %s: giving up was not saved", self.id)
                await self._refuse(connection, "not-saved", "Giving up could not be saved, so the game goes on.")
                return
            await self._broadcast(self.state_for)

    async def _next_hand(self, connection: Connection, deal_index: int) -> None:
        async with self._lock:
            if deal_index == self.shown_deal:
                await self._send(connection, self.state_for(connection.seat))
                return
            if deal_index != self.shown_deal + 1 or not self.waiting_for_next:
                await self._refuse(connection, "unexpected-action", "There is no next hand to move on to now.")
                return
            await self.store.set_shown_deal(self.id, deal_index)
            self.shown_deal = deal_index
            await self._broadcast(self.state_for)
        self.wake_computer_players()

    async def _hint(self, connection: Connection) -> None:
        async with self._lock:
            view = self.game.view(connection.seat)
            if self.waiting_for_next or self.game.is_over or not view.my_turn:
                await self._refuse(connection, "not-your-turn", "A hint is given when it is your turn to act.")
                return
        move = await self.thinkers.hint(view)
        await self._send(connection, snapshot.hint_message(move.action, move.reason))

    async def _show_hands(self, connection: Connection, deal_index: int) -> None:
        async with self._lock:
            finished = 0 <= deal_index <= self.shown_deal and self.game.deals[deal_index].is_over
            if not finished:
                await self._refuse(connection, "not-allowed", "Show All Hands is for a hand that is over.")
                return
            await self._send(connection, snapshot.hands_message(self.game, self.facts, deal_index))

    # ----------------------------------------------------------------- computer players

    def _computer_to_act(self) -> int | None:
        if self.game.is_over or self.waiting_for_next:
            return None
        seat = self.game.to_act
        return None if self.seats[seat].is_human else seat

    def _change_wait(self) -> float:
        """How long the computer players still hold back so that a person can change the bid just made.

        Under ``until-next`` rules a bid may change only until the next player bids (the dealer's, until the
        first card), and a computer player would act at once and close that window: it waits
        :attr:`change_window` seconds from the person's last move while that person may still change.
        """
        deal = self.game.deal
        if not any(seat.is_human and deal.can_change_bid(index) for index, seat in enumerate(self.seats)):
            return 0.0
        return max(0.0, self._person_moved_at + self.change_window - time.monotonic())

    def wake_computer_players(self) -> None:
        """Let the computer players act until a person is to act (or the hand waits for Next hand)."""
        if self._bots is None or self._bots.done():
            self._bots = asyncio.create_task(self._run_computer_players(), name=f"table-{self.id}-computers")

    async def _run_computer_players(self) -> None:
        while True:
            async with self._lock:
                seat = self._computer_to_act()
                if seat is None:
                    return
                wait = self._change_wait()
                seq = self.seq
                view = self.game.view(seat)
                level = self.seats[seat].level or "normal"
            if wait:
                await asyncio.sleep(wait)
                continue
            move = await self.thinkers.decide(level, view, f"ohhell-table:{self.id}:{seq}")
            async with self._lock:
                if self.seq != seq:
                    continue  # a person changed a bid meanwhile: decide again on the new state
                try:
                    await self._apply(seat, move.action, move.reason)
                except Exception:
                    log.exception("table %s: seat %s could not act", self.id, seat)
                    return

    async def close(self) -> None:
        """Stop the computer players."""
        if self._bots is not None and not self._bots.done():
            self._bots.cancel()
            await asyncio.gather(self._bots, return_exceptions=True)


class Tables:
    """The live tables of one server process, loaded from the store on first use."""

    def __init__(self, store: Store, thinkers: players.Thinkers, change_window: float = CHANGE_WINDOW) -> None:
        self.store = store
        self.thinkers = thinkers
        self.change_window = change_window
        self._tables: dict[int, Table] = {}
        self._lock = asyncio.Lock()

    async def get(self, game_id: int) -> Table:
        """The table of game ``game_id`` (:class:`~ohhell.server.store.GameNotFoundError` if none)."""
        async with self._lock:
            table = self._tables.get(game_id)
            if table is None:
                table = Table(await self.store.load(game_id), self.store, self.thinkers, self.change_window)
                self._tables[game_id] = table
            return table

    async def start(
        self, rules: Rules, number: int | None, seats: list[Seat], owner: str, replay_of: int | None = None
    ) -> Table:
        """Store a new game (the number drawn if not given) and open its table."""
        game = Game(rules, number, names=[seat.name for seat in seats])
        assert game.number is not None
        stored = await self.store.create_game(
            NewGame(
                deal_number=game.number,
                rules=rules.to_json(),
                first_dealer=game.first_dealer,
                seats=[seat.to_json() for seat in seats],
                owner=owner,
                replay_of=replay_of,
            )
        )
        return await self.get(stored.id)

    async def close(self) -> None:
        """Stop every table's computer players."""
        for table in list(self._tables.values()):
            await table.close()


__all__ = [
    "Connection",
    "CorruptLogError",
    "GameNotFoundError",
    "NotSavedError",
    "Table",
    "Tables",
    "move_action",
    "rebuild",
]
