"""Where several server processes meet: who owns which table (a lease), and the messages between them (Redis).

One process owns a live table at a time: it holds the table's lease, renews it while the table lives, and is
the only one that applies and stores its actions. A socket that reaches another process is relayed
(:mod:`ohhell.server.processes.relay`): its messages go to the owner's inbox, and what the owner tells that connection
comes back to the inbox of the process that holds it. When an
owner dies, its leases run out within :data:`LEASE_SECONDS`, and the next process that needs the table takes
it over from the log.

:class:`SoloHub` is the single process's hub: every lease is its own and nothing travels. :class:`RedisHub`
keeps leases as Redis keys (``SET … NX PX``, renewed by a script that only touches keys still its own) and
carries messages over Redis pub/sub, all published through one connection in order, so that a connection's
messages arrive in the order the owner sent them. What is queued for one process while the publisher is busy
leaves as one publication (a JSON list), so a busy table's messages cost one round of Redis's and the parser's
work per turn of the publisher, not one per message. The publisher and the subscription each hold a connection of
their own (:class:`~ohhell.server.processes.wire.Wire`: commands written out, replies parsed by hiredis), a fifth of
what redis-py's client costs a message; the leases, limits and announcements go through redis-py. Pub/sub keeps
nothing for a process that was not listening: a connection that comes back is sent the whole state again.

Announcements go to every process at once, this one included (:meth:`Hub.announce`, a channel every process
listens to): sessions that ended, whose sockets each process closes (:mod:`ohhell.web.accounts.sockets`). Each
process answers that it has handled one, and :meth:`Hub.announce` returns once every process that got it has
(Redis's ``PUBLISH`` says how many did), or after :data:`ANNOUNCE_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import socket
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

import orjson

from ohhell.server.processes.wire import Wire
from ohhell.web.guards import Buckets

log = logging.getLogger(__name__)

LEASE_SECONDS: Final = 2.5
"""How long a lease lasts unless renewed: an owner that died is replaced after at most this long."""
RENEW_SECONDS: Final = 0.8
"""How often an owner renews its leases."""

ANNOUNCE_SECONDS: Final = 2.0
"""How long an announcement waits for every process to say it has handled it."""

Handler = Callable[[dict[str, Any]], Awaitable[None]]
"""What receives a message addressed to this process."""

OWNERS_AT_ONCE: Final = 1000
"""Leases read in one ``MGET``."""
PUBLISH_AT_ONCE: Final = 500
"""Messages the publisher takes from its outbox in one round (one pipeline to Redis)."""


def publications(batch: Sequence[tuple[str, dict[str, Any]]]) -> list[tuple[str, bytes]]:
    """A round of the outbox as publications: one per channel, its messages in the order queued (a JSON list).

    >>> publications([("a", {"n": 1}), ("b", {"n": 2}), ("a", {"n": 3})])
    [('a', b'[{"n":1},{"n":3}]'), ('b', b'[{"n":2}]')]
    """
    by_channel: dict[str, list[dict[str, Any]]] = {}
    for channel, message in batch:
        by_channel.setdefault(channel, []).append(message)
    return [(channel, orjson.dumps(messages)) for channel, messages in by_channel.items()]


_RENEW: Final = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then
    redis.call('pexpire', key, ARGV[2])
  else
    lost[#lost + 1] = i
  end
end
return lost
"""
_TAKE: Final = """
local now = redis.call('time')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
local waits, tokens, blocked = {}, {}, false
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local held = redis.call('hmget', key, 'tokens', 'at')
  local have = math.min(burst, (tonumber(held[1]) or burst) + math.max(0, t - (tonumber(held[2]) or t)) * rate)
  tokens[i] = have
  if have < 1 then
    waits[i] = tostring((1 - have) / rate)
    blocked = true
  else
    waits[i] = '0'
  end
end
if not blocked then
  for i, key in ipairs(KEYS) do
    local rate, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
    redis.call('hset', key, 'tokens', tostring(tokens[i] - 1), 'at', tostring(t))
    redis.call('pexpire', key, math.ceil(burst / rate * 1000))
  end
end
return waits
"""
"""Token buckets in Redis, all or none, on Redis's clock: the waits, as text (Lua would round numbers)."""
_RELEASE: Final = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class Allowance:
    """A limit kept by key (a player, an address): ``burst`` at once, then ``per_second``, on every process."""

    name: str
    per_second: float
    burst: float


Spend = tuple[Allowance, str]
"""One token of one allowance, for one key."""


def new_process_id() -> str:
    """A name for this process among the others: host, pid and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Hub(Protocol):
    """Leases and messages between the server processes of one database."""

    process_id: str
    shared: bool
    """Whether other processes may hold leases (``False``: this process owns every table)."""

    async def start(self, on_message: Handler, on_lost: Callable[[int], Awaitable[None]]) -> None:
        """Begin: ``on_message`` gets what is sent to this process; ``on_lost`` each lease found lost."""

    async def close(self) -> None:
        """Give up every lease and stop."""

    async def acquire(self, game_id: int) -> str:
        """Take the game's lease if nobody holds it; the owner's process id afterwards (this one's if taken)."""

    async def owner(self, game_id: int) -> str | None:
        """Who holds the game's lease now, if anyone."""

    async def owners(self, game_ids: Sequence[int]) -> dict[int, str | None]:
        """:meth:`owner` of each game, asked all at once."""

    async def release(self, game_id: int) -> None:
        """Give up the game's lease (the table was let go)."""

    def send(self, process_id: str, message: dict[str, Any]) -> None:
        """Queue a message for another process's inbox (in order, not awaited)."""

    async def take(self, spends: Sequence[Spend]) -> list[float]:
        """Spend one token of each, all or none: the seconds each must wait first (all 0.0: spent)."""

    def hear(self, handler: Handler) -> None:
        """``handler`` gets every announcement, this process's own included."""

    async def announce(self, message: dict[str, Any]) -> None:
        """Tell every process (this one too); return once each has handled it (at most :data:`ANNOUNCE_SECONDS`)."""


class SoloHub:
    """The hub of a server that runs alone: its leases are always its own, and nothing is sent."""

    shared = False

    def __init__(self) -> None:
        self.process_id = new_process_id()
        self._buckets: dict[str, Buckets] = {}
        self._hearers: list[Handler] = []

    async def take(self, spends: Sequence[Spend]) -> list[float]:
        held = [self._buckets.setdefault(a.name, Buckets(a.per_second, a.burst)) for a, _ in spends]
        waits = [buckets.wait(key) for buckets, (_, key) in zip(held, spends, strict=True)]
        if not any(waits):
            for buckets, (_, key) in zip(held, spends, strict=True):
                buckets.take(key)
        return waits

    async def start(self, on_message: Handler, on_lost: Callable[[int], Awaitable[None]]) -> None:
        return None

    async def close(self) -> None:
        return None

    async def acquire(self, game_id: int) -> str:
        return self.process_id

    async def owner(self, game_id: int) -> str | None:
        return self.process_id

    async def owners(self, game_ids: Sequence[int]) -> dict[int, str | None]:
        return dict.fromkeys(game_ids, self.process_id)

    async def release(self, game_id: int) -> None:
        return None

    def send(self, process_id: str, message: dict[str, Any]) -> None:
        raise RuntimeError("a server running alone has no other process to send to")

    def hear(self, handler: Handler) -> None:
        self._hearers.append(handler)

    async def announce(self, message: dict[str, Any]) -> None:
        for handler in self._hearers:
            await handler(message)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def key_prefix(database_url: str) -> str:
    """The Redis keys of one site (one database): processes of other sites on the same Redis never meet them."""
    return "ohhell:" + hashlib.sha256(database_url.encode()).hexdigest()[:12]


class RedisHub:
    """The hub of several processes on one database, meeting in Redis (``redis.asyncio``)."""

    shared = True

    def __init__(self, redis_url: str, database_url: str) -> None:
        from redis.asyncio import BlockingConnectionPool, Redis

        self.redis_url = redis_url
        self.process_id = new_process_id()
        self.prefix = key_prefix(database_url)
        # redis-py 8: the blocking pool waits for a free connection instead of failing under load (STACK.md)
        self._pool = BlockingConnectionPool.from_url(redis_url, max_connections=16, timeout=5)
        self.redis = Redis(connection_pool=self._pool)
        self._owned: set[int] = set()
        self._outbox: deque[tuple[str, dict[str, Any]]] = deque()
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._on_message: Handler | None = None
        self._on_lost: Callable[[int], Awaitable[None]] | None = None
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._take = self.redis.register_script(_TAKE)
        self._hearers: list[Handler] = []
        self._answers: dict[str, list[int]] = {}
        """Each announcement of this process still waited for: [processes that got it (once known), answers]."""
        self._all_answered: dict[str, asyncio.Event] = {}

    async def take(self, spends: Sequence[Spend]) -> list[float]:
        """As the others see it too; if Redis cannot be reached, nothing is refused (the limit fails open)."""
        keys = [f"{self.prefix}:limit:{allowance.name}:{key}" for allowance, key in spends]
        rates = [str(value) for allowance, _ in spends for value in (allowance.per_second, allowance.burst)]
        try:
            waits = await self._take(keys=keys, args=rates)
        except Exception:
            log.warning("the limits in Redis cannot be read: letting this through", exc_info=True)
            return [0.0] * len(spends)
        return [float(wait) for wait in waits]

    def _lease(self, game_id: int) -> str:
        return f"{self.prefix}:lease:{game_id}"

    def _inbox(self, process_id: str) -> str:
        return f"{self.prefix}:process:{process_id}"

    def _everyone(self) -> str:
        return f"{self.prefix}:everyone"

    async def start(self, on_message: Handler, on_lost: Callable[[int], Awaitable[None]]) -> None:
        self._on_message, self._on_lost = on_message, on_lost
        subscription = await self._subscribe()  # listening before this returns: nothing sent to it from now is missed
        self._tasks = [
            asyncio.create_task(self._listen(subscription), name="ohhell-hub-listen"),
            asyncio.create_task(self._publish(), name="ohhell-hub-publish"),
            asyncio.create_task(self._renew_leases(), name="ohhell-hub-renew"),
        ]

    async def close(self) -> None:
        for _ in range(100):  # what is queued goes out first (a second at most)
            if not self._outbox:
                break
            await asyncio.sleep(0.01)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            for game_id in list(self._owned):
                await self._release(keys=[self._lease(game_id)], args=[self.process_id])
        self._owned.clear()
        await self.redis.aclose()
        await self._pool.aclose()

    async def acquire(self, game_id: int) -> str:
        key = self._lease(game_id)
        if await self.redis.set(key, self.process_id, nx=True, px=int(LEASE_SECONDS * 1000)):
            self._owned.add(game_id)
            return self.process_id
        holder = await self.redis.get(key)
        if holder is None:  # it ran out just now: try once more
            return await self.acquire(game_id)
        owner = _text(holder)
        if owner == self.process_id:
            self._owned.add(game_id)
        return owner

    async def owner(self, game_id: int) -> str | None:
        return (await self.owners([game_id]))[game_id]

    async def owners(self, game_ids: Sequence[int]) -> dict[int, str | None]:
        """One ``MGET`` a thousand games (the relay asks for every relayed table twice a second)."""
        unique = list(dict.fromkeys(game_ids))
        held: dict[int, str | None] = {}
        for start in range(0, len(unique), OWNERS_AT_ONCE):
            part = unique[start : start + OWNERS_AT_ONCE]
            for game_id, holder in zip(part, await self.redis.mget([self._lease(g) for g in part]), strict=True):
                held[game_id] = None if holder is None else _text(holder)
        return held

    async def release(self, game_id: int) -> None:
        self._owned.discard(game_id)
        await self._release(keys=[self._lease(game_id)], args=[self.process_id])

    def send(self, process_id: str, message: dict[str, Any]) -> None:
        self._outbox.append((self._inbox(process_id), message))
        self._wake.set()

    def hear(self, handler: Handler) -> None:
        self._hearers.append(handler)

    async def announce(self, message: dict[str, Any]) -> None:
        announcement_id = uuid.uuid4().hex
        answers, answered = [-1, 0], asyncio.Event()
        self._answers[announcement_id], self._all_answered[announcement_id] = answers, answered
        envelope = {"id": announcement_id, "from": self.process_id, "message": message}
        try:
            answers[0] = int(await self.redis.publish(self._everyone(), orjson.dumps(envelope)))
            if answers[1] >= answers[0]:
                answered.set()
            async with asyncio.timeout(ANNOUNCE_SECONDS):
                await answered.wait()
        except TimeoutError:
            log.warning("hub: %d of %d processes answered an announcement in time", answers[1], answers[0])
        except Exception:
            log.warning("hub: an announcement could not be published: handled here only", exc_info=True)
            for handler in self._hearers:
                await handler(message)
        finally:
            del self._answers[announcement_id], self._all_answered[announcement_id]

    async def _heard(self, envelope: dict[str, Any]) -> None:
        """An announcement (of any process): handle it, then tell its process so."""
        try:
            for handler in self._hearers:
                await handler(envelope["message"])
        finally:
            self.send(str(envelope["from"]), {"kind": "announced", "id": envelope["id"]})

    def _answered(self, announcement_id: str) -> None:
        answers = self._answers.get(announcement_id)
        if answers is not None:
            answers[1] += 1
            if answers[0] >= 0 and answers[1] >= answers[0]:
                self._all_answered[announcement_id].set()

    async def _publish(self) -> None:
        """Send the outbox in order through one wire: each inbox's messages of a round as one publication."""
        wire: Wire | None = None
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._outbox:
                    batch = [self._outbox.popleft() for _ in range(min(PUBLISH_AT_ONCE, len(self._outbox)))]
                    wire = await self._publish_round(wire, batch)
        finally:
            if wire is not None:
                await wire.close()

    async def _publish_round(self, wire: Wire | None, batch: list[tuple[str, dict[str, Any]]]) -> Wire | None:
        """Publish one round on ``wire`` (or a new one); the wire to use next, None if it failed.

        A round that fails on a wire (Redis restarted, or closed it) is sent once more on a new one: a publication
        of it may then arrive twice, where otherwise every one would be lost; a round that fails again is dropped.
        """
        commands = [("PUBLISH", channel, data) for channel, data in publications(batch)]
        for attempt in (1, 2):
            try:
                if wire is None:
                    wire = await Wire.open(self.redis_url, f"ohhell-{self.process_id}-publish")
                wire.send(commands)
                for _ in commands:
                    await wire.reply()
                return wire
            except Exception:
                if wire is not None:
                    await wire.close()
                    wire = None
                if attempt == 2:
                    log.warning("hub: %d messages could not be published", len(batch), exc_info=True)
        await asyncio.sleep(0.2)
        return None

    async def _subscribe(self) -> Wire:
        """A wire subscribed to this process's inbox and to the announcements."""
        wire = await Wire.open(self.redis_url, f"ohhell-{self.process_id}-listen")
        try:
            channels = (self._inbox(self.process_id), self._everyone())
            wire.send([("SUBSCRIBE", *channels)])
            for _ in channels:  # each channel's confirmation
                await wire.reply()
        except BaseException:
            await wire.close()
            raise
        return wire

    async def _listen(self, subscription: Wire | None) -> None:
        try:
            while True:
                try:
                    if subscription is None:
                        subscription = await self._subscribe()
                    reply = await subscription.reply()
                except Exception:
                    log.warning("hub: the subscription failed; listening again", exc_info=True)
                    if subscription is not None:
                        await subscription.close()
                        subscription = None
                    await asyncio.sleep(0.5)
                    continue
                if not isinstance(reply, list) or len(reply) != 3 or reply[0] != b"message":
                    continue
                await self._heard_publication(_text(reply[1]), reply[2])
        finally:
            if subscription is not None:
                await subscription.close()

    async def _heard_publication(self, channel: str, payload: bytes) -> None:
        if self._on_message is None:
            return
        try:
            data = orjson.loads(payload)
        except orjson.JSONDecodeError:
            log.exception("hub: a publication that is not JSON")
            return
        if channel == self._everyone():
            await self._handle(self._heard, data)
            return
        for one in data if isinstance(data, list) else [data]:  # an inbox's publication: its messages in order
            if isinstance(one, dict) and one.get("kind") == "announced":
                self._answered(str(one.get("id")))
            else:
                await self._handle(self._on_message, one)

    @staticmethod
    async def _handle(handler: Handler, message: Any) -> None:
        try:
            if not isinstance(message, dict):
                raise TypeError(f"a message is a JSON object, not {type(message).__name__}")
            await handler(message)
        except Exception:
            log.exception("hub: a message could not be handled")

    async def _renew_leases(self) -> None:
        """Keep this process's leases alive; a lease found lost (taken over, or run out) is reported.

        While Redis cannot be reached the leases cannot be renewed: once they may have run out, every one is
        reported lost, so that this process stops acting for tables another may have taken over.
        """
        loop = asyncio.get_running_loop()
        renewed_at = loop.time()
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            owned = sorted(self._owned)
            if not owned:
                renewed_at = loop.time()
                continue
            try:
                lost = [
                    owned[int(i) - 1]
                    for i in await self._renew(
                        keys=[self._lease(g) for g in owned], args=[self.process_id, int(LEASE_SECONDS * 1000)]
                    )
                ]
                renewed_at = loop.time()
            except Exception:
                log.warning("hub: the leases could not be renewed", exc_info=True)
                if loop.time() - renewed_at < LEASE_SECONDS:
                    continue
                lost = owned
            for game_id in lost:
                self._owned.discard(game_id)
                if self._on_lost is not None:
                    await self._on_lost(game_id)
