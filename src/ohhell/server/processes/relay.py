"""A socket at whichever process it reached, and its table at whichever process owns it.

Every game socket is a :class:`Link`. When this process owns the table (or can take its lease), the link joins
the live table here. Otherwise it is relayed: the link tells the owner ``attach``, forwards the socket's messages
to the owner's inbox, and the owner, which holds a :class:`RemoteConnection` in the link's place, sends back
what that connection is told (built from its seat's view, as for any connection). The owner's messages to one
process leave in order through one publisher, so a relayed socket sees the table exactly as a local one does.

A relayed link watches the lease (every :data:`WATCH_SECONDS`): when the owner is gone (its lease ran out) or
another process holds it, the link goes again, taking the table over itself if nobody holds it. A table whose
lease is lost here sends its links elsewhere the same way. A connection that comes back after any of this is
sent the whole state, so nothing a connection missed matters.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from typing import Any, Final, Protocol

from ohhell.server.processes.hub import Hub
from ohhell.server.table.live import Connection, NotOwnerError, Table, TableClosedError, TableFullError, Tables

log = logging.getLogger(__name__)

WATCH_SECONDS: Final = 0.5
"""How often a relayed link checks who holds its table's lease."""
STILL_SECONDS: Final = 5.0
"""How often a relayed link tells the owner it is still there."""
SILENT_SECONDS: Final = 15.0
"""An owner forgets a relayed connection it has not heard of for this long (its process died)."""
OPEN_ATTEMPTS: Final = 5


class Socket(Protocol):
    """The local end of a link: a browser's socket at one seat."""

    seat: int
    address: str

    async def send(self, text: str) -> None:
        """Send one message; raise if the socket is gone."""

    async def refuse(self, reason: str) -> None:
        """The table turned it away (:class:`~ohhell.server.table.live.TableFullError`): close it, saying why."""


class RemoteConnection:
    """At the owner: a connection held by another process, reached through its inbox."""

    def __init__(
        self, hub: Hub, origin: str, link_id: str, seat: int, name: str | None = None, address: str = "unknown"
    ) -> None:
        self.hub = hub
        self.name = name
        """A spectator's name, to list them as watching."""
        self.address = address
        """The browser's address, for the limits per address (chat)."""
        self.origin = origin
        self.link_id = link_id
        self.seat = seat
        self.heard_at = time.monotonic()

    async def send(self, text: str) -> None:
        self.hub.send(self.origin, {"kind": "deliver", "link": self.link_id, "text": text})


class Link:
    """One socket's way to its table, wherever the table lives."""

    def __init__(self, relay: Relay, game_id: int, socket: Socket) -> None:
        self.relay = relay
        self.game_id = game_id
        self.socket = socket
        self.id = uuid.uuid4().hex
        self.table: Table | None = None
        """The live table here, when this process owns it."""
        self.owner: str | None = None
        """The owning process, when relayed."""
        self.closed = False
        self._still_at = 0.0
        self._ready = asyncio.Event()
        """Clear while the link is (re)opening: what the socket sends meanwhile waits for it, and is not lost."""

    @property
    def seat(self) -> int:
        return self.socket.seat

    async def open(self) -> None:
        """Join here or attach to its owner (:class:`~ohhell.server.storage.store.GameNotFoundError`: no game)."""
        self._ready.clear()
        try:
            await self._open()
        finally:
            self._ready.set()

    async def _open(self) -> None:
        tables, hub = self.relay.tables, self.relay.hub
        for _ in range(OPEN_ATTEMPTS):
            try:
                table = await tables.get(self.game_id)
            except NotOwnerError as elsewhere:
                self.table, self.owner = None, elsewhere.owner
                self.relay.relayed[self.id] = self
                self._still_at = time.monotonic()
                name = getattr(self.socket, "name", None)
                hub.send(
                    elsewhere.owner, self._envelope("attach", seat=self.seat, name=name, address=self.socket.address)
                )
                return
            try:
                await table.join(self.socket)
            except TableClosedError:
                continue
            self.table, self.owner = table, None
            self.relay.relayed.pop(self.id, None)
            return
        raise TableClosedError(f"table {self.game_id} could not be reached")

    async def receive(self, text: str | bytes) -> None:
        """A message from the socket, to the table here or to its owner (once the link is open)."""
        await self._ready.wait()
        if self.table is not None:
            await self.table.receive(self.socket, text)
        elif self.owner is not None:
            data = text if isinstance(text, str) else text.decode("utf-8", "replace")
            self.relay.hub.send(self.owner, self._envelope("message", text=data))

    async def reopen(self) -> None:
        """Go again: the table moved (its owner died, or this process lost it)."""
        if self.closed:
            return
        self._ready.clear()
        self._leave()
        try:
            await self.open()
        except Exception:
            log.warning("game %s: a connection could not find its table again", self.game_id, exc_info=True)

    def close(self) -> None:
        """The socket closed."""
        self.closed = True
        self._leave()

    def _leave(self) -> None:
        if self.table is not None:
            self.table.leave(self.socket)
        elif self.owner is not None:
            self.relay.hub.send(self.owner, self._envelope("detach"))
        self.relay.relayed.pop(self.id, None)
        self.table = self.owner = None

    def _envelope(self, kind: str, **fields: Any) -> dict[str, Any]:
        return {"kind": kind, "game": self.game_id, "link": self.id, "from": self.relay.hub.process_id, **fields}


class Relay:
    """This process's links and the relayed connections it holds for others (one per process)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.hub = tables.hub
        self.relayed: dict[str, Link] = {}
        """This process's links whose table lives elsewhere, by link id."""
        self.remote: dict[str, tuple[Table, RemoteConnection]] = {}
        """Connections of other processes seated at tables here, by their link id."""
        self._links: dict[int, set[Link]] = {}
        self._receiving: dict[str, asyncio.Task[None]] = {}
        """The last message of each relayed link on its way into its table here (the next one waits for it)."""
        self._watcher: asyncio.Task[None] | None = None
        tables.on_gone = self._gone

    async def start(self) -> None:
        await self.hub.start(self._received, self._lost)
        if self.hub.shared:
            self._watcher = asyncio.create_task(self._watch(), name="ohhell-relay-watch")

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            await asyncio.gather(self._watcher, return_exceptions=True)
        await self.hub.close()

    async def connect(self, game_id: int, socket: Socket) -> Link:
        """A socket's link to its table, opened."""
        link = Link(self, game_id, socket)
        await link.open()
        self._links.setdefault(game_id, set()).add(link)
        return link

    def disconnect(self, link: Link) -> None:
        link.close()
        links = self._links.get(link.game_id)
        if links is not None:
            links.discard(link)
            if not links:
                del self._links[link.game_id]

    # ----------------------------------------------------------------- what other processes send

    async def _received(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "deliver":
            link = self.relayed.get(str(message.get("link")))
            if link is not None:
                try:
                    await link.socket.send(str(message["text"]))
                except Exception:
                    self.disconnect(link)
            return
        if kind == "moved":
            link = self.relayed.get(str(message.get("link")))
            if link is not None:
                await link.reopen()
            return
        if kind == "refused":  # the owner's table is full for this socket: no going again, it is closed
            link = self.relayed.pop(str(message.get("link")), None)
            if link is not None:
                link.owner = None
                await link.socket.refuse(str(message.get("reason", "")))
            return
        await self._for_owner(message)

    async def _for_owner(self, message: dict[str, Any]) -> None:
        """``attach``, ``message``, ``still`` and ``detach`` from a process relaying a socket to a table here."""
        kind, link_id, origin = message.get("kind"), str(message.get("link")), str(message.get("from"))
        game_id = int(message.get("game", 0))
        if kind == "detach":
            held = self.remote.pop(link_id, None)
            if held is not None:
                held[0].leave(held[1])
            return
        if kind == "attach":
            try:
                table = await self.tables.get(game_id)
                name = message.get("name")
                connection = RemoteConnection(
                    self.hub,
                    origin,
                    link_id,
                    int(message["seat"]),
                    None if name is None else str(name)[:24],
                    str(message.get("address", "unknown")),
                )
                await table.join(connection)
            except TableFullError as full:
                self.hub.send(origin, {"kind": "refused", "link": link_id, "reason": str(full)})
                return
            except Exception:  # not the owner any more, or the table is going: the link goes again
                self.hub.send(origin, {"kind": "moved", "link": link_id})
                return
            self.remote[link_id] = (table, connection)
            return
        held = self.remote.get(link_id)
        if held is None or held[0].closed:
            self.hub.send(origin, {"kind": "moved", "link": link_id})
            return
        table, connection = held
        connection.heard_at = time.monotonic()
        if kind == "message":
            # Not awaited here: the listener goes on to the next message (other tables' moves commit together in
            # the journal) while this link's messages still reach its table one after another, in order.
            previous = self._receiving.get(link_id)
            task = asyncio.create_task(self._receive_after(previous, table, connection, str(message.get("text", ""))))
            self._receiving[link_id] = task
            task.add_done_callback(
                lambda done: self._receiving.pop(link_id, None) if self._receiving.get(link_id) is done else None
            )

    @staticmethod
    async def _receive_after(
        previous: asyncio.Task[None] | None, table: Table, connection: RemoteConnection, text: str
    ) -> None:
        if previous is not None:
            await asyncio.gather(previous, return_exceptions=True)
        await table.receive(connection, text)

    # ----------------------------------------------------------------- when tables move

    async def _lost(self, game_id: int) -> None:
        """This process's lease of a table ran out or was taken: stop holding it."""
        await self.tables.drop(game_id)

    async def _gone(self, table: Table) -> None:
        """A table dropped here while in use: its links here go again, the relayed ones are told it moved."""
        for link_id, (held, connection) in list(self.remote.items()):
            if held is table:
                del self.remote[link_id]
                self.hub.send(connection.origin, {"kind": "moved", "link": link_id})
        for link in list(self._links.get(table.id, ())):
            await link.reopen()

    async def _watch(self) -> None:
        """Relayed links follow their table's lease; the owner forgets relayed connections gone silent."""
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                await self._check_relayed()
                self._forget_silent()
            except Exception:
                log.warning("relay: checking the leases failed", exc_info=True)

    async def _check_relayed(self) -> None:
        now = time.monotonic()
        links = list(self.relayed.values())
        owners = await self.hub.owners([link.game_id for link in links]) if links else {}
        for link in links:
            if link.closed or self.relayed.get(link.id) is not link:  # gone, or opened again, while Redis answered
                continue
            if owners.get(link.game_id) != link.owner:
                await link.reopen()
            elif link.owner is not None and now - link._still_at >= STILL_SECONDS:
                link._still_at = now
                self.hub.send(link.owner, link._envelope("still"))

    def _forget_silent(self) -> None:
        now = time.monotonic()
        for link_id, (table, connection) in list(self.remote.items()):
            if now - connection.heard_at > SILENT_SECONDS:
                del self.remote[link_id]
                with contextlib.suppress(Exception):
                    table.leave(connection)


__all__ = ["Connection", "Link", "Relay", "RemoteConnection"]
