"""A table of several people: the waiting room, who is connected, absence, spectators, chat, Play again.

:class:`PartyTable` is a :class:`~ohhell.server.table.live.Table` whose human seats belong to different people (their
player keys, claimed through the invite link: :mod:`ohhell.server.party.store`). It adds, in the owning process:

- the waiting room: until the host (seat 0) starts, nobody is dealt anything; a ``people`` message tells every
  connection who is seated, who is connected, and who is watching; the host may fill open seats with computer
  players when starting.
- presence: each connection's seat is the one its player key claimed (checked by the route before the socket is
  seated); a seat keeps its person when the tab closes, and the same browser takes it back at once.
- absence: when a disconnected person is to act, after the table's grace period a Normal computer player plays
  for them ("Computer playing for NAME") until they come back; with a turn timer, the computer player also makes
  the move of a connected person who did not act in time. Both timers live in this table, computed from the log's
  state (whose turn it is) and the connections: a table rebuilt elsewhere after a takeover starts them afresh.
- giving up (and the host handing a seat on): a computer player plays the seat to the end, the others play on,
  and the game counts as a loss for that person (``Game.left``, the record's ``left``).
- spectators: connections of :data:`~ohhell.server.party.spectator.WATCHER`, built from the public view (no hand).
- chat: plain text or quick phrases, limited in length and rate, kept in memory only (the last
  :data:`CHAT_KEEP` lines, sent to whoever joins); the host may close it for spectators.
- Play again: once every person still at the table says yes, a new game with the same seats and rules and a new
  deal number starts, and every connection is told where it is.
"""

from __future__ import annotations

import asyncio
import logging
import time
import unicodedata
from collections import deque
from typing import Any, Final

from ohhell.actions import Action
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.party.spectator import WATCHER
from ohhell.server.party.store import JOIN, PLAYING, WAITING, WATCH, PartyRow, PartyStore
from ohhell.server.storage.journal import ChangeGame, CreateGame
from ohhell.server.storage.store import Store, StoredGame
from ohhell.server.table import snapshot
from ohhell.server.table.live import (
    CHANGE_WINDOW,
    Connection,
    Table,
    TableClosedError,
    TableFullError,
    _Seated,
    encode,
    new_game,
    rebuild,
)
from ohhell.server.table.messages import (
    PHRASES,
    AgainMessage,
    ChatMessage,
    HandOverMessage,
    MoveMessage,
    PartyMessage,
    RenewMessage,
    SpectatorChatMessage,
    StartMessage,
)
from ohhell.server.table.seats import COMPUTER_NAMES, Seat
from ohhell.server.table.thinkers import Thinkers
from ohhell.web.guards import Buckets

log = logging.getLogger(__name__)

GRACE_SECONDS: Final = 30.0
"""How long a disconnected person's turn waits before a computer player plays for them (a table setting)."""
STAND_IN_LEVEL: Final = "normal"
CHAT_KEEP: Final = 50
CHAT_BURST: Final = 5
CHAT_PER_SECOND: Final = 0.5
"""A person may send 5 chat lines at once, then one every 2 seconds: whatever number of sockets they open."""
CHAT_ADDRESS_SHARE: Final = 3
"""One address (a household, a club's router) may send three people's worth."""
MAX_WATCHERS: Final = 100
"""Spectators at one table at most; one more is told so and turned away."""
TOO_MANY_WATCHERS: Final = f"This table already has {MAX_WATCHERS} spectators: try again later."
TIME_UP: Final = "Time is up: the computer player moved for you."
DEFAULT_SETTINGS: Final = {"grace_seconds": GRACE_SECONDS, "turn_seconds": None, "spectator_chat": True}
HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs"})
"""Unicode categories chat never shows: controls (Cc), invisible format characters (Cf: the direction marks and
overrides, U+061C, zero-width spaces and joiners, U+2060, the BOM, tag characters) and lone surrogates (Cs)."""


def clean_text(text: str) -> str:
    r"""Chat text (and names) as shown: no control, invisible or direction character, spaces collapsed, trimmed.

    A control character (a line break, a tab) parts words like a space; an invisible one is dropped.

    >>> clean_text("  left\u202eright \u2066x\u2069\n\tdone\ufeff\U000e0041 ")
    'leftright x done'
    """
    return " ".join("".join(map(_shown, text)).split())


def _shown(character: str) -> str:
    category = unicodedata.category(character)
    if category not in HIDDEN_CATEGORIES:
        return character
    return " " if category == "Cc" else ""


class PartyTable(Table):
    """A table whose seats belong to several people, with its waiting room, spectators and chat."""

    def __init__(
        self,
        stored: StoredGame,
        store: Store,
        thinkers: Thinkers,
        party: PartyRow,
        parties: PartyStore,
        links: dict[str, str],
        change_window: float = CHANGE_WINDOW,
    ) -> None:
        super().__init__(stored, store, thinkers, change_window)
        self.parties = parties
        self.status = party.status
        self.host = party.host
        self.settings: dict[str, Any] = {**DEFAULT_SETTINGS, **party.settings}
        self.claims = dict(party.claims)
        self.gone = dict(party.gone)
        self.links = dict(links)
        self.rules_json = stored.rules
        self.deal_number = stored.deal_number
        self.first_dealer = stored.first_dealer
        self.game.left = {seat: int(g["action"]) for seat, g in self.gone.items()}
        self.has_humans = True
        now = time.monotonic()
        self.away_since: dict[int, float] = {seat: now for seat, s in enumerate(self.seats) if s.is_human}
        """When each person's last connection closed (when the table was built, for those not connected yet)."""
        self.standing_in: set[int] = set()
        """Seats of disconnected people a computer player plays for now (after the grace period)."""
        self._turn: tuple[int, int, int] = (-1, -1, -1)
        """``(seq, deal shown, seat to act)``: a new turn whenever one of them changes."""
        self.turn_began = now
        self._timed_out: tuple[int, int, int] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._timer: asyncio.Task[None] | None = None
        self._chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEEP)
        self._chat_people = Buckets(CHAT_PER_SECOND, CHAT_BURST)
        """Chat tokens per person: a seat (whatever its sockets), or a spectator by their address."""
        self._chat_addresses = Buckets(CHAT_PER_SECOND * CHAT_ADDRESS_SHARE, CHAT_BURST * CHAT_ADDRESS_SHARE)
        self.again: set[int] = set()
        self.moved_to: int | None = None
        """The game Play again started, once everyone said yes."""
        self.moved_watch: str | None = None
        """That game's watch code: where this table's spectators follow it."""
        self._note_turn()
        if self.status == WAITING:
            self._refresh_waiting_seats()

    # ----------------------------------------------------------------- who is where

    @property
    def people(self) -> list[int]:
        """The seats of people (not of computer players), gone or not."""
        return [seat for seat, s in enumerate(self.seats) if s.is_human]

    def played_by_computer(self, seat: int) -> bool:
        """Whether a computer player plays this person's seat now (gone, or standing in while they are away)."""
        return seat in self.gone or seat in self.standing_in

    def _connected(self, seat: int) -> bool:
        seated = self._seated.get(seat)
        return seated is not None and bool(seated.connections)

    def _watchers(self) -> list[Connection]:
        seated = self._seated.get(WATCHER)
        return list(seated.connections) if seated is not None else []

    def _refresh_waiting_seats(self) -> None:
        """In the waiting room: each claimed seat shows its person's name."""
        seats = []
        for index, seat in enumerate(self.seats):
            claim = self.claims.get(index)
            seats.append(seat if claim is None else Seat.human(claim[1], claim[0]))
        self.seats = seats
        self.names = tuple(s.name for s in seats)

    def people_message(self, viewer: int) -> dict[str, Any]:
        """Who sits where, who is connected and who watches, as ``viewer`` may know it."""
        game = self.game
        live = self.status == PLAYING and not game.is_over and not self.waiting_for_next
        to_act = game.to_act if live else None
        seats = []
        for index, seat in enumerate(self.seats):
            person = seat.is_human
            seats.append(
                {
                    "seat": index,
                    "name": seat.name,
                    "kind": "person" if person else "open" if seat.is_open else "computer",
                    "level": seat.level,
                    "connected": person and self._connected(index),
                    "computer_playing": person and self.played_by_computer(index),
                    "gone": self.gone[index]["why"] if index in self.gone else None,
                    "again": index in self.again,
                }
            )
        host = viewer == 0
        return {
            "type": "people",
            "status": self.status,
            "you": viewer,
            "host": 0,
            "seats": seats,
            "watching": [str(getattr(c, "name", None) or "Spectator") for c in self._watchers()],
            "to_act": to_act,
            "thinking_for": round(time.monotonic() - self.turn_began, 1) if to_act is not None else None,
            "settings": dict(self.settings),
            "rules": Rules.from_json(self.rules_json).describe(),
            "invite": f"/join/{self.links[JOIN]}" if host and JOIN in self.links else None,
            "watch": f"/watch/{self.links[WATCH]}" if viewer != WATCHER and WATCH in self.links else None,
            "over": game.is_over,
            "moved_to": self.moved_url(viewer),
        }

    def moved_url(self, viewer: int) -> str | None:
        """Where Play again took the table, for ``viewer``: the new game, or for a spectator its watch link."""
        if self.moved_to is None:
            return None
        return f"/watch/{self.moved_watch}" if viewer == WATCHER else f"/games/{self.moved_to}"

    async def _broadcast_people(self) -> None:
        for seat, seated in list(self._seated.items()):
            text = encode(self.people_message(seat))
            for connection in list(seated.connections):
                await self._send(connection, text)

    # ----------------------------------------------------------------- connections

    async def join(self, connection: Connection) -> None:
        seat = connection.seat
        if self.status == WAITING and seat >= 0 and seat not in self.claims:
            party = await self.parties.party(self.id)  # a friend who just took a seat
            if party is not None:
                self.claims = dict(party.claims)
                self._refresh_waiting_seats()
        async with self._lock:
            if self.closed:
                raise TableClosedError(f"table {self.id} was let go")
            if seat == WATCHER and len(self._watchers()) >= MAX_WATCHERS:
                await self._refuse(connection, "too-many-watchers", TOO_MANY_WATCHERS)
                raise TableFullError(TOO_MANY_WATCHERS)
            self._check_room(seat)
            message, sent = snapshot.full_state(self.game, self.facts, seat)
            seated = self._seated.setdefault(seat, _Seated([], sent))
            seated.sent = sent
            seated.connections.append(connection)
            if self.status == PLAYING:
                await self._send(connection, encode(message))
            if self._chat:
                await self._send(connection, encode({"type": "chat", "lines": list(self._chat)}))
            if seat >= 0:
                self.standing_in.discard(seat)  # back: the person plays their own seat again
                self.away_since.pop(seat, None)
            await self._broadcast_people()
            self._arm()
        self.wake_computer_players()

    def leave(self, connection: Connection) -> None:
        super().leave(connection)
        seat = connection.seat
        if seat >= 0 and not self._connected(seat):
            self.away_since[seat] = time.monotonic()
        if not self.closed:
            task = asyncio.get_running_loop().create_task(self._after_leave(), name=f"table-{self.id}-left")
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _after_leave(self) -> None:
        async with self._lock:
            if self.closed:
                return
            await self._broadcast_people()
            self._arm()

    # ----------------------------------------------------------------- messages

    async def _move(self, connection: Connection, message: MoveMessage) -> None:
        seat = connection.seat
        if seat == WATCHER:
            await self._refuse(connection, "not-allowed", "Spectators watch the game; they do not play.")
            return
        if self.status == WAITING:
            await self._refuse(connection, "not-started", "The game has not started yet: the host starts it.")
            return
        if seat in self.gone:
            await self._refuse(connection, "not-allowed", "A computer player plays this seat for the rest of the game.")
            return
        await super()._move(connection, message)

    async def _next_hand(self, connection: Connection, deal_index: int) -> None:
        if connection.seat == WATCHER:
            await self._refuse(connection, "not-allowed", "The players move on to the next hand.")
            return
        await super()._next_hand(connection, deal_index)
        async with self._lock:
            self._note_turn()
            self._arm()

    async def _hint(self, connection: Connection) -> None:
        if connection.seat == WATCHER or self.status == WAITING:
            await self._refuse(connection, "not-your-turn", "A hint is given when it is your turn to act.")
            return
        await super()._hint(connection)

    async def _resign(self, connection: Connection, seq: int) -> None:
        """At a table of several people, giving up hands the seat to a computer player; the others play on."""
        seat = connection.seat
        if seat == WATCHER or self.status == WAITING:
            await self._refuse(connection, "not-allowed", "There is no game of yours to give up here.")
            return
        async with self._lock:
            if self.game.is_over:
                await self._refuse(connection, "unexpected-action", "The game is already over.")
                return
            if seat in self.gone:
                await self._refuse(connection, "unexpected-action", "You have already left this game.")
                return
            if not await self._give_to_computer(seat, "gave-up"):
                await self._refuse(connection, "not-saved", "Giving up could not be saved, so you still play.")
                return
        self.wake_computer_players()

    async def _give_to_computer(self, seat: int, why: str) -> bool:
        """A computer player plays ``seat`` to the end (stored first); the game counts as a loss for its person."""
        gone = {**self.gone, seat: {"why": why, "action": self.seq}}
        try:
            await self.parties.set_gone(self.id, gone)
        except Exception:
            log.warning("table %s: giving seat %s to a computer player was not saved", self.id, seat, exc_info=True)
            return False
        self.gone = gone
        self.game.left = {s: int(g["action"]) for s, g in gone.items()}
        self.standing_in.discard(seat)
        await self._broadcast_states()
        await self._broadcast_people()
        self._arm()
        return True

    async def _party_message(self, connection: Connection, message: PartyMessage) -> None:
        if isinstance(message, ChatMessage):
            await self._chat_line(connection, message)
            return
        if isinstance(message, AgainMessage):
            await self._play_again(connection)
            return
        if connection.seat != 0:
            await self._refuse(connection, "not-allowed", "Only the host can do that.")
            return
        if isinstance(message, StartMessage):
            await self._start(connection, message.fill)
        elif isinstance(message, HandOverMessage):
            await self._hand_over(connection, message.seat)
        elif isinstance(message, RenewMessage):
            await self._renew(connection, message.link)
        elif isinstance(message, SpectatorChatMessage):
            async with self._lock:
                settings = {**self.settings, "spectator_chat": message.open}
                await self.parties.set_settings(self.id, settings)
                self.settings = settings
                await self._broadcast_people()

    async def _start(self, connection: Connection, fill: bool) -> None:
        async with self._lock:
            if self.status != WAITING:
                await self._refuse(connection, "unexpected-action", "The game has already started.")
                return
            party = await self.parties.party(self.id)
            if party is not None:
                self.claims = dict(party.claims)
                self._refresh_waiting_seats()
            open_seats = [i for i, s in enumerate(self.seats) if s.is_open]
            if open_seats and not fill:
                await self._refuse(
                    connection,
                    "seats-open",
                    "Some seats are still open: wait for your friends, or fill them with computer players.",
                )
                return
            taken = {s.name for s in self.seats}
            spare = iter([n for n in COMPUTER_NAMES if n not in taken] + [f"Computer {i}" for i in range(1, 8)])
            seats = [Seat.computer(next(spare), STAND_IN_LEVEL) if s.is_open else s for s in self.seats]
            try:
                await self.store.journal.submit(ChangeGame(self.id, (("seats", [s.to_json() for s in seats]),)))
                await self.parties.set_status(self.id, PLAYING)
            except Exception:
                log.warning("table %s: starting was not saved", self.id, exc_info=True)
                await self._refuse(connection, "not-saved", "The game could not be started: try again.")
                return
            self.status = PLAYING
            self.seats = seats
            self.names = tuple(s.name for s in seats)
            rules = Rules.from_json(self.rules_json)
            self.game = Game(rules, self.deal_number, names=list(self.names), first_dealer=self.first_dealer)
            self.game.left = {}
            now = time.monotonic()
            for seat in self.people:
                if not self._connected(seat):
                    self.away_since[seat] = now
            self._turn = (-1, -1, -1)  # the first turn begins now, not when the waiting room opened
            self._note_turn()
            await self._broadcast_states()
            await self._broadcast_people()
            self._arm()
        self.wake_computer_players()

    async def _hand_over(self, connection: Connection, seat: int) -> None:
        async with self._lock:
            if self.status != PLAYING or self.game.is_over:
                await self._refuse(connection, "unexpected-action", "A seat is handed on during the game.")
                return
            if seat >= len(self.seats) or not self.seats[seat].is_human or seat in self.gone:
                await self._refuse(connection, "not-allowed", "That seat is not a person's.")
                return
            if not await self._give_to_computer(seat, "handed"):
                await self._refuse(connection, "not-saved", "The seat could not be handed on: try again.")
                return
        self.wake_computer_players()

    async def _renew(self, connection: Connection, kind: str) -> None:
        async with self._lock:
            try:
                self.links[kind] = await self.parties.renew(self.id, kind)
            except Exception:
                log.warning("table %s: renewing the %s link failed", self.id, kind, exc_info=True)
                await self._refuse(connection, "not-saved", "The link could not be renewed: try again.")
                return
            await self._broadcast_people()

    async def _chat_line(self, connection: Connection, message: ChatMessage) -> None:
        seat = connection.seat
        if seat == WATCHER and not self.settings.get("spectator_chat", True):
            await self._refuse(connection, "chat-closed", "The host has closed chat for spectators.")
            return
        if (message.text is None) == (message.phrase is None):
            await self._refuse(connection, "bad-message", "A chat line is either a text or a phrase.")
            return
        text = PHRASES[message.phrase] if message.phrase is not None else clean_text(message.text or "")
        if not text:
            await self._refuse(connection, "bad-message", "That chat line is empty.")
            return
        address = str(getattr(connection, "address", None))
        person: tuple[str, object] = ("seat", seat) if seat != WATCHER else ("watching", address)
        if self._chat_people.wait(person) or self._chat_addresses.wait(address):
            await self._refuse(connection, "chat-too-fast", "Too many chat lines at once: wait a few seconds.")
            return
        self._chat_people.take(person)
        self._chat_addresses.take(address)
        name = str(getattr(connection, "name", None) or "Spectator") if seat == WATCHER else self.seats[seat].name
        line = {
            "from": name,
            "seat": None if seat == WATCHER else seat,
            "watching": seat == WATCHER,
            "text": text,
            "phrase": message.phrase,
        }
        self._chat.append(line)
        await self._broadcast_notice({"type": "chat", "lines": [line]})

    async def _play_again(self, connection: Connection) -> None:
        seat = connection.seat
        async with self._lock:
            if seat == WATCHER or not self.game.is_over or seat in self.gone:
                await self._refuse(connection, "not-allowed", "Play again is for the people at a finished game.")
                return
            if self.moved_to is not None:
                await self._broadcast_people()
                return
            self.again.add(seat)
            staying = [s for s in self.people if s not in self.gone]
            if set(staying) <= self.again:
                try:
                    self.moved_to, self.moved_watch = await self._new_game_again()
                    if self.on_play_again is not None:  # a club table's next game is the club's too
                        await self.on_play_again(self.id, self.moved_to)
                except Exception:
                    log.warning("table %s: Play again failed", self.id, exc_info=True)
                    self.again.discard(seat)
                    await self._refuse(connection, "not-saved", "The new game could not be started: try again.")
                    return
                for viewer, seated in list(self._seated.items()):
                    text = encode({"type": "moved", "url": self.moved_url(viewer)})
                    for moved in list(seated.connections):
                        await self._send(moved, text)
            await self._broadcast_people()

    async def _new_game_again(self) -> tuple[int, str]:
        """The same seats and rules with a new secret deal number and salt (not practice, whatever this one was;
        those who left are computer players now): its id and its watch code."""
        rules = Rules.from_json(self.rules_json)
        seats = [Seat.computer(s.name, STAND_IN_LEVEL) if i in self.gone else s for i, s in enumerate(self.seats)]
        game_id = await self.store.journal.submit(CreateGame(new_game(rules, None, seats, self.host)))
        assert game_id is not None
        host_name = seats[0].name
        links = await self.parties.create(game_id, self.host, host_name, dict(self.settings))
        for index, seat in enumerate(seats):
            if index and seat.is_human and seat.player is not None:
                await self.parties.claim(game_id, index, seat.player, seat.name)
        await self.parties.set_status(game_id, PLAYING)
        return game_id, links[WATCH]

    # ----------------------------------------------------------------- the computer players and the timers

    def _computer_to_act(self) -> int | None:
        if self.closed or self.status != PLAYING or self.game.is_over or self.waiting_for_next:
            return None
        seat = self.game.to_act
        if not self.seats[seat].is_human or self.played_by_computer(seat):
            return seat
        if self._timed_out == self._turn and self._turn[2] == seat:
            return seat
        return None

    async def _apply(self, seat: int, action: Action, reason: str | None = None) -> None:
        if reason is not None and self._computer_to_act() != seat:
            return  # the person came back while the computer player was thinking: their move, not its
        await super()._apply(seat, action, reason)
        self._note_turn()
        self._arm()
        if self.game.is_over:
            await self._broadcast_people()  # Play again

    def _note_turn(self) -> None:
        turn = (self.seq, self.shown_deal, self.game.to_act)
        if turn != self._turn:
            self._turn = turn
            self.turn_began = time.monotonic()

    def _arm(self) -> None:
        """(Re)start the timer of the person to act: the grace period if they are away, else the turn timer."""
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        self._timer = None
        if self.closed or self.status != PLAYING or self.game.is_over or self.waiting_for_next:
            return
        seat = self.game.to_act
        if not self.seats[seat].is_human or self.played_by_computer(seat):
            return
        now = time.monotonic()
        if not self._connected(seat):
            start = max(self.away_since.get(seat, now), self.turn_began)
            delay = start + float(self.settings["grace_seconds"]) - now
            self._timer = asyncio.get_running_loop().create_task(self._stand_in_after(seat, self._turn, delay))
        elif self.settings.get("turn_seconds"):
            delay = self.turn_began + float(self.settings["turn_seconds"]) - now
            self._timer = asyncio.get_running_loop().create_task(self._time_up_after(seat, self._turn, delay))

    async def _stand_in_after(self, seat: int, turn: tuple[int, int, int], delay: float) -> None:
        await asyncio.sleep(max(0.0, delay))
        async with self._lock:
            if self.closed or self._turn != turn or self._connected(seat) or seat in self.standing_in:
                return
            self.standing_in.add(seat)
            await self._broadcast_people()
        self.wake_computer_players()

    async def _time_up_after(self, seat: int, turn: tuple[int, int, int], delay: float) -> None:
        await asyncio.sleep(max(0.0, delay))
        async with self._lock:
            if self.closed or self._turn != turn:
                return
            self._timed_out = turn
            for connection in self._seated[seat].connections if seat in self._seated else []:
                await self._send(
                    connection,
                    encode(
                        {
                            "type": "notice",
                            "code": "time-up",
                            "message": "Time is up: the computer player moved for you.",
                        }
                    ),
                )
        self.wake_computer_players()

    async def close(self) -> None:
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        await super().close()


async def open_table(
    stored: StoredGame, store: Store, thinkers: Thinkers, parties: PartyStore, change_window: float
) -> Table:
    """The table of a loaded game: a :class:`PartyTable` when it has a ``friend_tables`` row, else a plain one."""
    party = await parties.party(stored.id)
    if party is None:
        return Table(stored, store, thinkers, change_window)
    links = await parties.links(stored.id)
    return PartyTable(stored, store, thinkers, party, parties, links, change_window)


def left_of(party: PartyRow | None) -> dict[int, int]:
    """The seats given to computer players, with the action each was given at (for ``Game.left``)."""
    return {} if party is None else {seat: int(g["action"]) for seat, g in party.gone.items()}


def rebuild_with_party(stored: StoredGame, party: PartyRow | None) -> Game:
    """The game a stored log describes, with the seats that left."""
    game = rebuild(stored)
    game.left = left_of(party)
    return game


__all__ = ["GRACE_SECONDS", "PartyTable", "clean_text", "left_of", "open_table", "rebuild_with_party"]
