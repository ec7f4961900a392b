"""One live game: its seats, the connections of its human seats, its computer players and its log.

A :class:`Table` holds the engine's :class:`~ohhell.game.Game`, rebuilt from the stored log when it is
first needed and let go again when nobody has used it for a while (:class:`Tables`). Every accepted action is
applied, written to the database (the :class:`~ohhell.server.storage.journal.Journal` commits many tables' actions
together) and only then announced: each connected seat is told what changed, built from its own view, and
encoded once for all that seat's connections. A refused message changes nothing and is answered with an error.
Computer players think off the event loop (:class:`~ohhell.server.table.thinkers.Thinkers`).

When the database does not take a computer player's action, the table tells its people that saving is failing
and tries again with growing pauses until it is saved; a person's move that is not saved is refused, and nothing
changes. After the last trick of a hand the table waits for a person to press Next hand (``shown_deal`` stays on
the finished hand), so that the score sheet and Show All Hands can be looked at; a move meant for a hand other than
the one shown is refused as stale.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

import orjson

from ohhell.actions import Action, action_text, bid, change, choose_trump, parse_action, play
from ohhell.cards import SUIT_LETTERS, parse_card
from ohhell.commitment import secret_deal_number
from ohhell.deal import Trick
from ohhell.errors import OhHellError, RecordError
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.party.spectator import WATCHER
from ohhell.server.processes.hub import Hub, SoloHub
from ohhell.server.storage.journal import ConflictError
from ohhell.server.storage.store import GameNotFoundError, NewGame, Progress, Store, StoredAction, StoredGame
from ohhell.server.table import snapshot, undo, wording
from ohhell.server.table.messages import (
    BadMessageError,
    BidMessage,
    ChangeMessage,
    HintMessage,
    MoveMessage,
    NextHandMessage,
    PartyMessage,
    PlayMessage,
    ResignMessage,
    ShowHandsMessage,
    SyncMessage,
    UndoMessage,
    parse_message,
)
from ohhell.server.table.players import BotSeeds
from ohhell.server.table.results import series_result
from ohhell.server.table.seats import Seat
from ohhell.server.table.secret import secret_of
from ohhell.server.table.thinkers import Thinkers
from ohhell.web.events import EventTable
from ohhell.web.models import utc_now
from ohhell.web.results import NoResults, ResultsHook

log = logging.getLogger(__name__)

CHANGE_WINDOW: Final = 3.0
"""Seconds the computer players wait, under ``until-next`` rules, while a person may still change a bid just made."""
IDLE_SECONDS: Final = 120.0
"""A table nobody is connected to, with nothing to do, is let go after this long (and rebuilt when next needed)."""
LET_GO_AT_ONCE: Final = 50
"""Idle tables let go in one go before the loop turns to other work (200 at once, the trim included, held it for
26 ms on a busy machine)."""
RESULTS_AT_ONCE: Final = 2
"""Finished series whose results (statistics, XP, the club's, an event's entry) are stored at once; more wait (a
thousand series ending within seconds would otherwise store theirs all at once, beside everyone's moves: the
openings of the next games wait their turn likewise, :mod:`ohhell.web.openings`)."""
RETRY_FIRST_SECONDS: Final = 0.25
RETRY_MAX_SECONDS: Final = 5.0
"""A computer player's action the database did not take is tried again after 0.25 s, 0.5 s, … up to 5 s apart."""


def encode(message: dict[str, Any]) -> str:
    """A message as the JSON text sent over the socket."""
    return orjson.dumps(message).decode()


class Connection(Protocol):
    """A person's connection to one seat of a table."""

    seat: int

    async def send(self, text: str) -> None:
        """Send one message (JSON text); raise if the connection is gone."""


MAX_SOCKETS_PER_SEAT: Final = 4
"""Connections one seat may hold at a table at once (tabs, windows, a phone): one more is refused, the ones open
stay (closing an old tab the person may be looking at would be worse). Every process's sockets count, as the table's
owner holds them all."""


class TableFullError(RuntimeError):
    """The table takes no more connections of this kind (a seat's sockets, spectators): the reason, in words."""


class CorruptLogError(RuntimeError):
    """A stored log that does not replay under its own rules."""


class NotSavedError(RuntimeError):
    """An action the database did not take: it was taken back, so nothing changed."""


class TableClosedError(RuntimeError):
    """The table was let go (idle, taken over, or the server is stopping): look it up again."""


class NotOwnerError(RuntimeError):
    """Another server process owns the table (holds its lease)."""

    def __init__(self, game_id: int, owner: str) -> None:
        super().__init__(f"table {game_id} is owned by process {owner}")
        self.owner = owner


def rebuild(stored: StoredGame) -> Game:
    """The game a stored log describes: its rules and number, then every action in order (undo rows taking back)."""
    return rebuild_with_undos(stored)[0]


def rebuild_with_undos(stored: StoredGame) -> tuple[Game, list[undo.Undo]]:
    """:func:`rebuild`, and the undos the log holds (:mod:`ohhell.server.table.undo`)."""
    rules = Rules.from_json(stored.rules)
    names = [str(seat["name"]) for seat in stored.seats]
    game = Game(rules, stored.deal_number, names=names, first_dealer=stored.first_dealer)

    def apply(row: StoredAction) -> None:
        if row.deal_index != game.deal_index:
            raise CorruptLogError(f"game {stored.id}: action {row.seq} belongs to deal {row.deal_index}")
        try:
            game.apply(parse_action(row.action), row.seat)
        except OhHellError as exc:
            raise CorruptLogError(f"game {stored.id}: action {row.seq} ({row.action!r}) is refused: {exc}") from exc

    try:
        undos = undo.replay(game, stored.actions, apply)
    except ValueError as exc:
        raise CorruptLogError(f"game {stored.id}: {exc}") from exc
    if stored.resigned is not None:
        try:
            game.resign(stored.resigned)
        except (OhHellError, ValueError) as exc:
            raise CorruptLogError(f"game {stored.id}: seat {stored.resigned} cannot have given up: {exc}") from exc
    return game, undos


def new_game(
    rules: Rules,
    number: int | None,
    seats: list[Seat],
    owner: str,
    replay_of: int | None = None,
    practice: bool | None = None,
) -> NewGame:
    """A new game's row: a secret number with a fresh salt, or (a number given) a practice series unless
    ``practice`` is false."""
    game = Game(rules, secret_deal_number() if number is None else number, names=[seat.name for seat in seats])
    assert game.number is not None
    return NewGame(
        deal_number=game.number,
        rules=rules.to_json(),
        first_dealer=game.first_dealer,
        seats=[seat.to_json() for seat in seats],
        owner=owner,
        replay_of=replay_of,
        practice=number is not None if practice is None else practice,
    )


def move_action(message: MoveMessage) -> Action:
    """The engine action a move message asks for (:class:`~ohhell.errors.OhHellError` if it names none)."""
    if isinstance(message, BidMessage):
        return bid(message.bid)
    if isinstance(message, ChangeMessage):
        return change(message.bid)
    if isinstance(message, PlayMessage):
        return play(parse_card(message.card))
    return choose_trump(SUIT_LETTERS.index(message.suit))


@dataclass
class _Seated:
    """A seat with connections: them, and what the seat was last told."""

    connections: list[Connection]
    sent: snapshot.Sent


class Table:
    """A game being played. Use :meth:`Tables.get`; one per game in a server process."""

    def __init__(
        self, stored: StoredGame, store: Store, thinkers: Thinkers, change_window: float = CHANGE_WINDOW
    ) -> None:
        self.id = stored.id
        self.change_window = change_window
        self._person_moved_at = -float("inf")
        self.store = store
        self.thinkers = thinkers
        self.game, undos = rebuild_with_undos(stored)
        self.seq = snapshot.action_count(self.game)
        """The number of actions so far: the ``seq`` of the next one."""
        self.log_length = len(stored.actions)
        """The rows of the log (actions and undos): the ``seq`` of the next row."""
        self.undone = {u.seat for u in undos}
        """The seats that took back a move (the series is marked so in the statistics)."""
        self.seats = [Seat.from_json(seat) for seat in stored.seats]
        self.names = tuple(seat.name for seat in self.seats)
        self.secret = secret_of(stored)
        """The deal number, sealed until the series is over (:mod:`ohhell.server.table.secret`)."""
        self.has_humans = any(seat.is_human for seat in self.seats)
        self.undo_by_host = False
        """Undo allowed by the table's host (a club whose admins allow it), even without computer players."""
        self.event: EventTable | None = None
        """The duplicate event whose entry this table is (:mod:`ohhell.web.events`): no Undo, Hint or Show All Hands,
        no deal number sent, and no move once the event has closed (the computer players' seeds come from the deal
        and the moves at every table, so the same moves meet the same computer moves)."""
        self.event_source: Callable[[int], Awaitable[EventTable | None]] | None = None
        """Where the event is read again before a person's move (its closing time is the database's)."""
        self.shown_deal = stored.shown_deal if self.has_humans else self.game.deal_index
        first = snapshot.first_seq(self.game, self.shown_deal)
        self.reasons: dict[int, str] = undo.reasons_by_position(stored.actions, first)
        """The computer players' reasons (Why?) of the hand shown, by ``seq``; older ones stay in the database."""
        self._seeds = BotSeeds()  # the computer players' secret seeds, hashed move by move
        self._seated: dict[int, _Seated] = {}
        self._lock = asyncio.Lock()
        self._bots: asyncio.Task[None] | None = None
        self.saving_fails = False
        self.closed = False
        self.last_used = time.monotonic()
        self.on_conflict: Callable[[Table], None] | None = None
        """Told when the log turned out to have been written by someone else (another process took the table)."""
        self.on_play_again: Callable[[int, int], Awaitable[None]] | None = None
        """Told ``(this game, the next one)`` when the people at a table of several people play again."""
        self.on_series_end: Callable[[Table], None] | None = None
        """Told once the series is over and stored (its last action, or giving up): the site's results hook."""

    # ----------------------------------------------------------------- reading

    @property
    def facts(self) -> snapshot.TableFacts:
        """The public facts the snapshot needs."""
        sealed = self.event is not None and not self.event_closed()
        return snapshot.TableFacts(self.id, self.seats, self.shown_deal, self.reasons, self.secret, sealed)

    @property
    def waiting_for_next(self) -> bool:
        """Whether a finished hand is shown and the next one waits for Next hand."""
        return self.shown_deal != self.game.deal_index

    @property
    def connections(self) -> list[Connection]:
        """Every connection, seat by seat."""
        return [c for seated in self._seated.values() for c in seated.connections]

    def seat_of(self, player: str) -> int | None:
        """The human seat that belongs to ``player``'s key, if any."""
        for index, seat in enumerate(self.seats):
            if seat.is_human and seat.player == player:
                return index
        return None

    def state_for(self, seat: int) -> dict[str, Any]:
        """The table as ``seat`` sees it."""
        return snapshot.state_message(self.game, self.facts, seat)

    def idle_for(self, now: float) -> float:
        """How long the table has had no connection and nothing to do (0 while it is in use)."""
        busy = self._seated or self._lock.locked() or (self._bots is not None and not self._bots.done())
        if busy:
            self.last_used = now
            return 0.0
        return now - self.last_used

    # ----------------------------------------------------------------- connections

    async def join(self, connection: Connection) -> None:
        """Seat a connection and send it the table; the computer players resume if it is their turn."""
        async with self._lock:
            if self.closed:
                raise TableClosedError(f"table {self.id} was let go")
            self._check_room(connection.seat)
            message, sent = snapshot.full_state(self.game, self.facts, connection.seat)
            seated = self._seated.setdefault(connection.seat, _Seated([], sent))
            seated.sent = sent  # the seat's other connections hold this same state
            seated.connections.append(connection)
            await self._send(connection, encode(self._with_undo(message, connection.seat)))
            if self.saving_fails:
                await self._send(connection, encode(_notice_saving(True)))
        self.wake_computer_players()

    def _check_room(self, seat: int) -> None:
        """Refuse one more connection of a seat that holds :data:`MAX_SOCKETS_PER_SEAT` (:class:`TableFullError`)."""
        seated = self._seated.get(seat)
        if seat >= 0 and seated is not None and len(seated.connections) >= MAX_SOCKETS_PER_SEAT:
            raise TableFullError(
                f"This game is open in {MAX_SOCKETS_PER_SEAT} tabs or windows already:"
                " close one, then reload this page."
            )

    def leave(self, connection: Connection) -> None:
        """Forget a closed connection."""
        seated = self._seated.get(connection.seat)
        if seated is not None and connection in seated.connections:
            seated.connections.remove(connection)
            if not seated.connections:
                del self._seated[connection.seat]
        self.last_used = time.monotonic()

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
                    await self._send_state(connection)
            elif isinstance(message, HintMessage):
                await self._hint(connection)
            elif isinstance(message, ShowHandsMessage):
                await self._show_hands(connection, message.deal)
            elif isinstance(message, NextHandMessage):
                await self._next_hand(connection, message.deal)
            elif isinstance(message, ResignMessage):
                await self._resign(connection, message.seq)
            elif isinstance(message, UndoMessage):
                await self._undo(connection, message.seq)
            elif isinstance(message, PartyMessage):
                await self._party_message(connection, message)
            else:
                await self._move(connection, message)
        except Exception:
            log.exception("table %s: a message of seat %s failed", self.id, connection.seat)
            await self._refuse(connection, "server-error", "Something went wrong on the server; nothing was changed.")

    async def _party_message(self, connection: Connection, message: PartyMessage) -> None:
        """Start, chat, hand over, renew, Play again: for tables of several people (:mod:`ohhell.server.party.live`)."""
        await self._refuse(connection, "not-allowed", "This is not a table of several people.")

    async def _refuse(self, connection: Connection, code: str, message: str) -> None:
        await self._send(connection, encode(snapshot.error_message(code, message, self.seq)))

    async def _refuse_stale(self, connection: Connection) -> None:
        """Refuse a message sent on an old picture of the table, and show the table as it is."""
        await self._refuse(connection, "stale", "The table has moved on since that was sent; it is shown as it is now.")
        await self._send_state(connection)

    async def _send_state(self, connection: Connection) -> None:
        """The whole table again, for the one connection that asked (under the lock).

        The seat's other connections are not sent it: every change went to all of them, so they hold what this
        state says already, and the seat's record of what it was told is this state too (as when one joins). A
        ``sync`` costs the one state, however many sockets the seat has open.
        """
        message, sent = snapshot.full_state(self.game, self.facts, connection.seat)
        seated = self._seated.get(connection.seat)
        if seated is not None:
            seated.sent = sent
        await self._send(connection, encode(self._with_undo(message, connection.seat)))

    async def _send(self, connection: Connection, text: str) -> None:
        try:
            await connection.send(text)
        except Exception:  # a connection that cannot take a message is gone; the others carry on
            log.info("table %s: dropping a connection of seat %s", self.id, connection.seat)
            self.leave(connection)

    async def _broadcast(self, build: Callable[[int, snapshot.Sent], dict[str, Any]]) -> None:
        """One message per connected seat, built and encoded once, sent to each of its connections."""
        for seat, seated in list(self._seated.items()):
            text = encode(self._with_undo(build(seat, seated.sent), seat))
            for connection in list(seated.connections):
                await self._send(connection, text)

    async def _broadcast_states(self) -> None:
        """The whole table to every connected seat."""
        for seat, seated in list(self._seated.items()):
            message, seated.sent = snapshot.full_state(self.game, self.facts, seat)
            text = encode(self._with_undo(message, seat))
            for connection in list(seated.connections):
                await self._send(connection, text)

    async def _broadcast_notice(self, message: dict[str, Any]) -> None:
        text = encode(message)
        for connection in self.connections:
            await self._send(connection, text)

    # ----------------------------------------------------------------- acting

    def event_closed(self) -> bool:
        """Whether the table is a duplicate event's entry and the event has closed (no move is taken any more)."""
        return self.event is not None and utc_now() >= self.event.closes_at

    async def _event_over(self) -> bool:
        """:meth:`event_closed`, with the event read again first (another process, or an admin, may have closed it)."""
        if self.event is None:
            return False
        if self.event_source is not None:
            self.event = await self.event_source(self.id) or self.event
        return self.event_closed()

    async def _refuse_closed(self, connection: Connection) -> None:
        await self._refuse(connection, "event-closed", "The event has closed: no more moves are taken at its tables.")

    async def _move(self, connection: Connection, message: MoveMessage) -> None:
        async with self._lock:
            if await self._event_over():
                await self._refuse_closed(connection)
                return
            if message.seq != self.seq or message.deal != self.shown_deal:
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
                text = wording.error_message(exc, view, self.game.deal.led_suit, self.names)
                await self._refuse(connection, exc.code, text)
                return
            except NotSavedError:
                log.warning("table %s: a move was not saved", self.id, exc_info=True)
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
                StoredAction(
                    seq=self.log_length,
                    deal_index=deal.deal_index,
                    seat=seat,
                    action=action_text(action),
                    reason=reason,
                ),
                Progress(finished=game.is_over, totals=list(game.totals), winners=game.winners)
                if deal.is_over
                else None,
            )
        except ConflictError as exc:  # the log has this position already: another process wrote it
            game.undo()
            self.closed = True
            if self.on_conflict is not None:
                self.on_conflict(self)
            raise NotSavedError(f"table {self.id}: action {seq} was written by another process") from exc
        except Exception as exc:
            game.undo()
            raise NotSavedError(f"table {self.id}: action {seq} could not be stored") from exc
        except BaseException:
            game.undo()
            raise
        self.seq = seq + 1
        self.log_length += 1
        if reason:
            self.reasons[seq] = reason
        if game.is_over:
            self._series_over()
        if not self.has_humans and self.shown_deal != game.deal_index:
            self._show_deal(game.deal_index)
            await self._broadcast_states()
            return
        trick: Trick | None = deal.tricks[-1] if len(deal.tricks) > tricks_before else None
        facts = self.facts
        await self._broadcast(
            lambda viewer, sent: snapshot.action_message(game, facts, viewer, seq, seat, action, trick, sent)
        )

    # ----------------------------------------------------------------- undo (the club aid)

    def _undo_size(self, seat: int) -> int:
        """How many actions an undo by ``seat`` would take back now (0: it may not undo)."""
        if not self.allow_undo or self.closed or self.event is not None:
            return 0
        humans = {index for index, s in enumerate(self.seats) if s.is_human}
        return undo.actions_to_take_back(self.game, seat, self.shown_deal, humans)

    @property
    def allow_undo(self) -> bool:
        """Undo, the club aid: in a game against computer players (one person, every other seat a computer
        player), or at a table whose host allows it (a club's). At a table of several people, taking a move back
        after seeing the computer players answer it would be an edge over the other people, so it waits for them
        to agree to it, through the club's setting."""
        people = sum(seat.kind != "computer" for seat in self.seats)  # friends' seats, open or taken, count
        if self.event is not None:  # a duplicate event: trying a move and taking it back would be an edge on the field
            return False
        return self.undo_by_host or (people == 1 and len(self.seats) > 1)

    def _with_undo(self, message: dict[str, Any], seat: int) -> dict[str, Any]:
        """A state or change for ``seat``, saying (``"undo"``) whether it may take back its last move now (never
        to a spectator, who has no move to take back)."""
        if self.allow_undo and seat != WATCHER:
            message["undo"] = self._undo_size(seat) > 0
        return message

    async def _undo(self, connection: Connection, seq: int) -> None:
        """Take back the connection's seat's last move and the computer players' moves after it: stored, then shown."""
        async with self._lock:
            if seq != self.seq:
                await self._refuse_stale(connection)
                return
            count = self._undo_size(connection.seat)
            if count == 0:
                why = (
                    "Undo is for games against computer players."
                    if not self.allow_undo
                    else "There is nothing of yours to take back: another person has acted since, or the hand or the "
                    "game is over."
                )
                await self._refuse(connection, "not-allowed", why)
                return
            game = self.game.copy()
            deal_index = game.deal_index
            for _ in range(count):
                game.undo()
            try:
                await self.store.append_action(
                    self.id,
                    StoredAction(self.log_length, deal_index, connection.seat, undo.undo_text(count)),
                    Progress(finished=False, totals=list(game.totals), winners=None),
                )
            except Exception:
                log.warning("table %s: an undo was not saved", self.id, exc_info=True)
                await self._refuse(connection, "not-saved", "The undo could not be saved, so nothing was taken back.")
                return
            self.game = game
            self.seq = snapshot.action_count(game)
            self.log_length += 1
            self.undone.add(connection.seat)
            self.reasons = {s: text for s, text in self.reasons.items() if s < self.seq}
            self._person_moved_at = time.monotonic()
            await self._broadcast_states()
            others = count - 1
            said = f" and {others} computer move{'s' if others != 1 else ''} after it" if others else ""
            await self._broadcast_notice(
                {"type": "notice", "code": "undo", "message": f"{self.names[connection.seat]} took back a move{said}."}
            )
        self.wake_computer_players()

    def _series_over(self) -> None:
        if self.on_series_end is not None and self.has_humans:
            self.on_series_end(self)

    def _show_deal(self, deal_index: int) -> None:
        self.shown_deal = deal_index
        self.reasons = {}

    async def _resign(self, connection: Connection, seq: int) -> None:
        """The connection's seat gives up: the game ends, stored before anyone is told."""
        async with self._lock:
            game = self.game
            if game.is_over:
                await self._refuse(connection, "unexpected-action", "The game is already over.")
                return
            if await self._event_over():
                await self._refuse_closed(connection)
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
                log.warning("table %s: giving up was not saved", self.id, exc_info=True)
                await self._refuse(connection, "not-saved", "Giving up could not be saved, so the game goes on.")
                return
            self._series_over()
            await self._broadcast_states()

    async def _next_hand(self, connection: Connection, deal_index: int) -> None:
        async with self._lock:
            if deal_index == self.shown_deal:
                await self._send_state(connection)
                return
            if deal_index != self.shown_deal + 1 or not self.waiting_for_next:
                await self._refuse(connection, "unexpected-action", "There is no next hand to move on to now.")
                return
            try:
                await self.store.set_shown_deal(self.id, deal_index)
            except Exception:
                log.warning("table %s: Next hand was not saved", self.id, exc_info=True)
                await self._refuse(connection, "not-saved", "Next hand could not be saved: try again.")
                return
            self._show_deal(deal_index)
            await self._broadcast_states()
        self.wake_computer_players()

    async def _hint(self, connection: Connection) -> None:
        async with self._lock:
            view = self.game.view(connection.seat)
            if self.event is not None:
                await self._refuse(connection, "not-allowed", "There are no hints in a duplicate event.")
                return
            if self.waiting_for_next or self.game.is_over or not view.my_turn:
                await self._refuse(connection, "not-your-turn", "A hint is given when it is your turn to act.")
                return
        move = await self.thinkers.hint(view, self.names)
        await self._send(connection, encode(snapshot.hint_message(move.action, move.reason, move.details)))

    async def _show_hands(self, connection: Connection, deal_index: int) -> None:
        async with self._lock:
            finished = 0 <= deal_index <= self.shown_deal and self.game.deals[deal_index].is_over
            if self.event is not None and not self.event_closed():
                await self._refuse(
                    connection, "not-allowed", "Show All Hands waits for the event to close: others play these cards."
                )
                return
            if not finished:
                await self._refuse(connection, "not-allowed", "Show All Hands is for a hand that is over.")
                return
            await self._send(connection, encode(snapshot.hands_message(self.game, self.facts, deal_index)))

    # ----------------------------------------------------------------- computer players

    def _computer_to_act(self) -> int | None:
        if self.closed or self.game.is_over or self.waiting_for_next or self.event_closed():
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
                seed = self._seeds.seed(self.game)
                level = self.seats[seat].level or "normal"
            if wait:
                await asyncio.sleep(wait)
                continue
            move = await self.thinkers.decide(level, view, seed, self.names)
            await self._act_until_saved(seat, seq, move.action, move.reason)

    async def _act_until_saved(self, seat: int, seq: int, action: Action, reason: str) -> None:
        """Apply a computer player's decision, trying again while the database refuses it.

        Returns when it is stored, or when the table moved on meanwhile (a person changed a bid), so that the
        player decides again on the new state.
        """
        pause = RETRY_FIRST_SECONDS
        while True:
            async with self._lock:
                if self.seq != seq or self.closed:
                    return
                try:
                    await self._apply(seat, action, reason)
                except NotSavedError:
                    log.warning("table %s: seat %s's action was not saved; trying again", self.id, seat, exc_info=True)
                    if not self.saving_fails:
                        self.saving_fails = True
                        await self._broadcast_notice(_notice_saving(True))
                else:
                    if self.saving_fails:
                        self.saving_fails = False
                        await self._broadcast_notice(_notice_saving(False))
                    return
            await asyncio.sleep(pause)
            pause = min(RETRY_MAX_SECONDS, 2 * pause)

    async def close(self) -> None:
        """Stop the computer players; the table takes no more connections."""
        self.closed = True
        if self._bots is not None and not self._bots.done():
            self._bots.cancel()
            await asyncio.gather(self._bots, return_exceptions=True)


def _c_library() -> Any:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None


_LIBC: Final = _c_library()


def give_back_memory() -> None:
    """Return the C heap's free memory to the system (glibc's ``malloc_trim``; nothing elsewhere)."""
    trim = getattr(_LIBC, "malloc_trim", None)
    if trim is not None:
        trim(0)


def _notice_saving(failing: bool) -> dict[str, Any]:
    """Tell the table that its actions are not being saved (and that they are again)."""
    if failing:
        return {
            "type": "notice",
            "code": "saving-failed",
            "message": "The game cannot be saved right now: the computer players wait and keep trying.",
        }
    return {"type": "notice", "code": "saved", "message": "Saving works again."}


class Tables:
    """The live tables of one server process, loaded from the store on first use and let go when idle."""

    def __init__(
        self,
        store: Store,
        thinkers: Thinkers,
        change_window: float = CHANGE_WINDOW,
        idle_seconds: float = IDLE_SECONDS,
        hub: Hub | None = None,
        results: ResultsHook | None = None,
    ) -> None:
        self.store = store
        self.results: ResultsHook = results if results is not None else NoResults()
        self._reporting: set[asyncio.Task[None]] = set()
        self._results_at_once = asyncio.Semaphore(RESULTS_AT_ONCE)
        self.thinkers = thinkers
        self.change_window = change_window
        self.idle_seconds = idle_seconds
        self.hub: Hub = hub if hub is not None else SoloHub()
        self._tables: dict[int, Table] = {}
        self._loading: dict[int, asyncio.Future[Table]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.opener: Callable[[StoredGame], Awaitable[Table]] | None = None
        """Builds the table of a loaded game, when set (tables of several people, :mod:`ohhell.server.party.live`)."""
        self.on_gone: Callable[[Table], Awaitable[None]] | None = None
        """Told when a table is dropped while in use (its lease lost, or taken over), so its sockets go elsewhere."""
        self.started = 0
        """Games stored by :meth:`start` in this process (for ``/api/server-stats``)."""
        self.ended = 0
        """Series of people that ended at this process's tables."""
        self.let_go = 0
        """Tables let go when idle."""

    def counts(self) -> dict[str, float]:
        """The live tables, and the games started, series ended and tables let go so far; the journal's batches,
        those that found SQLite's write lock taken by another connection and tried again, and its log
        (:meth:`ohhell.server.storage.journal.Journal.log_figures`)."""
        return {
            "live": len(self._tables),
            "started": self.started,
            "ended": self.ended,
            "let_go": self.let_go,
            "journal_batches": self.store.journal.batches,
            "journal_busy": self.store.journal.busy_tries,
            **self.store.journal.log_figures(),
        }

    def __len__(self) -> int:
        return len(self._tables)

    def live(self, game_id: int) -> Table | None:
        """The game's table if this process holds it live."""
        return self._tables.get(game_id)

    async def get(self, game_id: int) -> Table:
        """The table of game ``game_id``, loaded if need be and owned by this process.

        :class:`~ohhell.server.storage.store.GameNotFoundError` if there is no such game; :class:`NotOwnerError` if
        another process holds its lease.
        """
        table = self._tables.get(game_id)
        if table is not None:
            table.last_used = time.monotonic()
            return table
        loading = self._loading.get(game_id)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[Table] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            if self.hub.shared:
                await self.store.game(game_id)  # a missing game is refused before any lease is taken
                owner = await self.hub.acquire(game_id)
                if owner != self.hub.process_id:
                    raise NotOwnerError(game_id, owner)
            stored = await self.store.load(game_id)
            if self.opener is not None:
                table = await self.opener(stored)
            else:
                table = Table(stored, self.store, self.thinkers, self.change_window)
            table.on_conflict = self._conflicted
            table.on_series_end = self._series_ended
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: the waiters, if any, get it too
            raise
        finally:
            del self._loading[game_id]
        self._tables[game_id] = table
        future.set_result(table)
        self._start_sweeping()
        return table

    async def start(
        self,
        rules: Rules,
        number: int | None,
        seats: list[Seat],
        owner: str,
        replay_of: int | None = None,
        practice: bool | None = None,
    ) -> StoredGame:
        """Store a new game; its table opens when it is first needed.

        Without a number a secret one is drawn (:func:`~ohhell.commitment.secret_deal_number`); a number given (New
        game's, Play these cards again) makes the series practice, which earns nothing (docs/deal-numbers.md), unless
        ``practice`` says otherwise (a duplicate event's secret number, which nobody chose).
        """
        self.started += 1
        return await self.store.create_game(new_game(rules, number, seats, owner, replay_of, practice))

    def _start_sweeping(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep(), name="ohhell-tables-sweeper")

    async def _sweep(self) -> None:
        """Let go of idle tables every few seconds, while there are tables."""
        while self._tables:
            await asyncio.sleep(min(5.0, max(0.05, self.idle_seconds / 4)))
            await self.let_go_idle()

    async def let_go_idle(self) -> int:
        """Let go of the tables idle for :attr:`idle_seconds`; how many went.

        When some went, the memory they held goes back to the system (``malloc_trim``, where the C library has it, in
        a thread), so that a process returns to its size after a crowd has left. Many idle tables go a slice at a
        time (:data:`LET_GO_AT_ONCE`), so that no table waits behind the letting go of all the others.
        """
        now = time.monotonic()
        idle = [game_id for game_id, table in self._tables.items() if table.idle_for(now) >= self.idle_seconds]
        gone = 0
        for index, game_id in enumerate(idle):
            if index and index % LET_GO_AT_ONCE == 0:
                await asyncio.sleep(0)  # the other tables move on between slices (each table is freed as it goes)
            table = self._tables.get(game_id)
            if table is None or table.idle_for(time.monotonic()) < self.idle_seconds:
                continue  # in use again meanwhile
            del self._tables[game_id]
            await table.close()
            await self.hub.release(game_id)
            gone += 1
        if gone:
            await asyncio.to_thread(give_back_memory)  # it walks the whole C heap: in a thread, not on the loop
        self.let_go += gone
        return gone

    async def drop(self, game_id: int) -> None:
        """Stop holding a table that is still in use: its lease was lost, or another process wrote its log."""
        table = self._tables.pop(game_id, None)
        if table is None:
            return
        log.warning("table %s: no longer owned here; its connections go to its owner", game_id)
        await table.close()
        if self.on_gone is not None:
            await self.on_gone(table)

    def _series_ended(self, table: Table) -> None:
        """Hand the finished series to the results hook, off the table's lock (a failure is logged, not raised:
        ``ohhell club rebuild-stats`` finds and stores what was missed). A practice series is not handed on: it
        earns no XP, statistics, rating or club win."""
        self.ended += 1
        if table.secret.practice:
            return
        seats = [seat.to_json() for seat in table.seats]
        result = series_result(table.game, seats, table.id, utc_now(), undos=table.undone)

        async def report() -> None:
            try:
                async with self._results_at_once:
                    await self.results.series_ended(result)
            except Exception:
                log.exception("table %s: the series' results were not stored", table.id)

        task = asyncio.get_running_loop().create_task(report(), name=f"table-{table.id}-results")
        self._reporting.add(task)
        task.add_done_callback(self._reporting.discard)

    def _conflicted(self, table: Table) -> None:
        if self._tables.get(table.id) is table:
            asyncio.get_running_loop().create_task(self.drop(table.id), name=f"table-{table.id}-drop")

    async def close(self) -> None:
        """Stop every table's computer players."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        for table in list(self._tables.values()):
            await table.close()
            await self.hub.release(table.id)
        self._tables.clear()
        if self._reporting:
            await asyncio.gather(*self._reporting, return_exceptions=True)


__all__ = [
    "Connection",
    "CorruptLogError",
    "GameNotFoundError",
    "NotOwnerError",
    "NotSavedError",
    "Table",
    "TableClosedError",
    "Tables",
    "encode",
    "move_action",
    "rebuild",
]
