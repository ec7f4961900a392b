"""The open game sockets of this process by what signed them in, so that ending a session ends its sockets at once.

A game socket acts for whoever opened it: a session of an account, or a guest key. When sessions end (Sign out,
Sign out everywhere, a new password, deleting the account) or a guest key is retired (its browser signed up),
:meth:`OpenSockets.end` announces it to every server process (the hub's announcements,
:mod:`ohhell.server.processes.hub`, carried by Redis where several processes run). Each process marks its sockets
of those sessions or keys ended at once, so that no message of theirs reaches a table from then on, and closes
them with :data:`SIGNED_OUT_CODE`, which the game page shows as "signed out" instead of reconnecting. The request
that ended the sessions answers once every process has marked its sockets (or the hub's wait ran out).

An announcement a process missed (Redis out of reach at that moment) is made up for by :meth:`OpenSockets.check`,
which the site runs every :data:`CHECK_SECONDS`: it asks the database which of the sessions and guest keys of the
open sockets no longer act, and ends those sockets the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Final

from starlette.types import Scope

from ohhell.web.accounts.store import session_key

log = logging.getLogger(__name__)

SIGNED_OUT_CODE: Final = 4401
"""The close code of a socket whose session ended (or whose guest key was retired): the page stops reconnecting."""
SIGNED_OUT_REASON: Final = "signed out"
SIGNED_OUT: Final = "signed-out"
"""The kind of the announcement every process hears."""

CHECK_SECONDS: Final = 30.0
"""How often the open sockets' sessions are checked against the database (for an announcement missed)."""

Announce = Callable[[dict[str, Any]], Awaitable[None]]
FindEnded = Callable[[list[str], list[str]], Awaitable[tuple[list[str], list[str]]]]
"""Of these session keys and guest keys, the sessions that no longer exist and the keys that are retired."""
Close = Callable[[int, str], Awaitable[None]]


def credential_of(scope: Scope) -> str | None:
    """What a socket acts through: ``session:<key>`` when signed in, ``guest:<player key>`` for a guest."""
    state = scope.get("state", {})
    token = state.get("session_token")
    if token is not None:
        return f"session:{session_key(str(token))}"
    player = state.get("player")
    return None if player is None else f"guest:{player}"


class HeldSocket:
    """One open socket: :attr:`ended` once its session or key no longer acts (its messages must go nowhere)."""

    def __init__(self, credential: str | None, close: Close) -> None:
        self.credential = credential
        self.ended = False
        self._close = close

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._close(SIGNED_OUT_CODE, SIGNED_OUT_REASON)


class OpenSockets:
    """This process's game sockets by credential (one per process; the site hands it to the game and the accounts)."""

    def __init__(self) -> None:
        self._held: dict[str, set[HeldSocket]] = {}
        self._announce: Announce | None = None
        self._closing: set[asyncio.Task[None]] = set()

    def announce_with(self, announce: Announce) -> None:
        """Send endings through ``announce`` (which reaches every process, this one included)."""
        self._announce = announce

    def hold(self, scope: Scope, close: Close) -> HeldSocket:
        """Keep track of a socket just accepted; ``close`` closes it (with a code and a reason)."""
        held = HeldSocket(credential_of(scope), close)
        if held.credential is not None:
            self._held.setdefault(held.credential, set()).add(held)
        return held

    def release(self, held: HeldSocket) -> None:
        """Forget a socket that closed."""
        if held.credential is None:
            return
        sockets = self._held.get(held.credential)
        if sockets is not None:
            sockets.discard(held)
            if not sockets:
                del self._held[held.credential]

    def __len__(self) -> int:
        return sum(len(sockets) for sockets in self._held.values())

    async def end(self, sessions: Iterable[str] = (), guests: Iterable[str] = ()) -> None:
        """End the sockets of these sessions (their stored keys) and guest keys, on every process."""
        message = {"kind": SIGNED_OUT, "sessions": sorted(set(sessions)), "guests": sorted(set(guests))}
        if not message["sessions"] and not message["guests"]:
            return
        if self._announce is None:
            await self.heard(message)
        else:
            await self._announce(message)

    async def heard(self, message: dict[str, Any]) -> None:
        """An announcement: mark the sockets it names ended at once, and close them (not waited for)."""
        if message.get("kind") != SIGNED_OUT:
            return
        credentials = [f"session:{key}" for key in message.get("sessions", ())]
        credentials += [f"guest:{key}" for key in message.get("guests", ())]
        for credential in credentials:
            for held in self._held.pop(str(credential), set()):
                held.ended = True
                task = asyncio.create_task(held.close())
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)

    async def check(self, find_ended: FindEnded) -> None:
        """End the sockets whose session no longer exists or whose guest key is retired, as the database says."""
        sessions = sorted(c.removeprefix("session:") for c in self._held if c.startswith("session:"))
        guests = sorted(c.removeprefix("guest:") for c in self._held if c.startswith("guest:"))
        if sessions or guests:
            ended, retired = await find_ended(sessions, guests)
            await self.heard({"kind": SIGNED_OUT, "sessions": ended, "guests": retired})

    async def keep_checking(self, find_ended: FindEnded, every: float = CHECK_SECONDS) -> None:
        """:meth:`check` every ``every`` seconds, for as long as the server runs."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.check(find_ended)
            except Exception:  # the database out of reach: the next round tries again
                log.warning("the open sockets' sessions cannot be checked now", exc_info=True)
