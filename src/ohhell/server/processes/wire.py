"""One connection to Redis for the hub's messages between processes: commands packed and replies parsed by hiredis.

The relay's messages are the hub's busiest traffic: every message a relayed socket is sent crosses Redis once,
published by the owner and heard by the process that holds the socket. Through redis-py each publication and each
message heard went through its client's machinery (a connection taken from the pool and given back, a pipeline,
retries, metrics, a timeout per read): about 250 µs of a core for one message, both ends together, where writing
the command and letting hiredis parse what comes back takes about 50 (docs/server-load.md, eighteenth round). So
the hub's publisher and its subscription each hold one :class:`Wire`, while everything else (leases, limits,
announcements) stays with redis-py.

A wire speaks RESP2, the protocol every Redis speaks: after ``AUTH`` and ``SELECT`` where the URL asks for them, a
subscribed connection receives ``["message", channel, data]`` for each publication. The URL is read by redis-py
(``redis://``, ``rediss://`` and ``unix://``, with a user, a password and a database). A wire that fails is not
mended: its owner closes it and opens another.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Iterable, Sequence
from typing import Any, Final

import hiredis
from redis.asyncio.connection import SSLConnection, parse_url

READ_BYTES: Final = 1 << 16
"""The most read from the socket at once: every publication already there is parsed from one read."""
OPEN_SECONDS: Final = 5.0
"""How long opening a wire (the connection and its ``AUTH`` and ``SELECT``) may take."""


class Wire:
    """A connection to Redis of the hub's own: :meth:`send` commands, read each :meth:`reply` in order."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._parser = hiredis.Reader()

    @classmethod
    async def open(cls, url: str, name: str) -> Wire:
        """A wire to the Redis of ``url``, authenticated, on its database, named ``name`` where Redis lets clients be
        named (``CLIENT LIST`` shows it)."""
        settings: dict[str, Any] = dict(parse_url(url))
        async with asyncio.timeout(OPEN_SECONDS):
            if "path" in settings:
                reader, writer = await asyncio.open_unix_connection(settings["path"])
            else:
                context = None
                if settings.get("connection_class") is SSLConnection:
                    context = ssl.create_default_context()
                    if str(settings.get("ssl_cert_reqs", "required")).lower() == "none":
                        context.check_hostname = False
                        context.verify_mode = ssl.CERT_NONE
                reader, writer = await asyncio.open_connection(
                    settings.get("host", "localhost"), int(settings.get("port", 6379)), ssl=context
                )
            wire = cls(reader, writer)
            try:
                first: list[tuple[str | bytes | int, ...]] = []
                if settings.get("password") is not None:
                    user = settings.get("username")
                    first.append(("AUTH", user, settings["password"]) if user else ("AUTH", settings["password"]))
                if settings.get("db"):
                    first.append(("SELECT", int(settings["db"])))
                wire.send([*first, ("CLIENT", "SETNAME", name)])
                for _ in first:
                    await wire.reply()
                with contextlib.suppress(hiredis.ReplyError):  # a Redis that forbids naming clients still serves
                    await wire.reply()
            except BaseException:
                await wire.close()
                raise
        return wire

    def send(self, commands: Iterable[Sequence[str | bytes | int]]) -> None:
        """Write commands (in one write, packed by hiredis); their replies come in order."""
        # hiredis's stub types the tuple as of one element (``tuple[X]``, not ``tuple[X, ...]``); it takes any length
        self._writer.write(b"".join(hiredis.pack_command(tuple(parts)) for parts in commands))  # type: ignore[arg-type]

    async def reply(self) -> Any:
        """The next reply, or the next message of a subscription (read from the socket only when none is parsed
        yet). An error reply is raised; so is a connection that Redis closed."""
        reply = self._parser.gets()
        while reply is False:
            data = await self._reader.read(READ_BYTES)
            if not data:
                raise ConnectionError("Redis closed the connection")
            self._parser.feed(data)
            reply = self._parser.gets()
        if isinstance(reply, hiredis.ReplyError):
            raise reply
        return reply

    async def close(self) -> None:
        self._writer.close()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()
