"""What keeps hostile or careless input out: socket origins, message rates.

A browser always names the page that opens a WebSocket (``Origin``); a page of another site must not open a
player's game with the player's cookie, so the socket takes only the server's own origin and the ones configured
(:func:`origin_allowed`). Programs that are not browsers send no ``Origin`` and are let through: the cookie is
what they must hold. :class:`RateLimit` caps the messages of one connection.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Final, Literal

import orjson
from starlette.types import Scope

MESSAGES_PER_SECOND: Final = 50.0
MESSAGE_BURST: Final = 100
"""A connection may send 100 messages at once and 50 a second after that: far above a person (or a program playing
as fast as the table answers), far below a flood."""
CLOSE_AFTER_REFUSED: Final = 500
"""A connection that keeps sending after this many refusals is closed."""
TOO_FAST: Final = orjson.dumps(
    {"type": "error", "code": "too-fast", "message": "Too many messages at once: that one was ignored."}
).decode()


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def own_origin(scope: Scope) -> str | None:
    """The origin the request was addressed to: ``http://host:port`` from its scheme and ``Host`` header."""
    host = _header(scope, b"host")
    if host is None:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
    return f"{scheme}://{host}".lower()


def origin_allowed(scope: Scope, allowed: Iterable[str] = ()) -> bool:
    """Whether the page that opened this connection may: no ``Origin``, the server's own, or one of ``allowed``.

    >>> scope = {"scheme": "ws", "headers": [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000")]}
    >>> origin_allowed(scope), origin_allowed({**scope, "headers": [(b"host", b"x"), (b"origin", b"http://evil")]})
    (True, False)
    """
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    origin = origin.lower()
    return origin == own_origin(scope) or origin in {a.lower() for a in allowed}


class RateLimit:
    """A token bucket per connection: :meth:`take` says whether a message may go on, is refused, or ends it."""

    def __init__(self, per_second: float = MESSAGES_PER_SECOND, burst: int = MESSAGE_BURST) -> None:
        self.per_second = per_second
        self.burst = burst
        self.tokens = float(burst)
        self.refused = 0
        self._at = time.monotonic()

    def take(self) -> Literal["ok", "refuse", "close"]:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self._at) * self.per_second)
        self._at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return "ok"
        self.refused += 1
        return "close" if self.refused > CLOSE_AFTER_REFUSED else "refuse"
