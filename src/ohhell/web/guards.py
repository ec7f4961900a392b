"""What keeps hostile or careless input out: request bodies, socket origins, message rates.

A browser always names the page that opens a WebSocket (``Origin``); a page of another site must not open a
player's game with the player's cookie, so the socket takes only the server's own origin and the ones configured
(:func:`origin_allowed`). Programs that are not browsers send no ``Origin`` and are let through: the cookie is
what they must hold. :class:`Buckets` bound what one person or one address may do however many connections it
opens: socket messages (:class:`RateLimit`), chat lines, new games.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Final, Literal

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


class Buckets:
    """Token buckets by key (a person, an address): ``burst`` at once, then ``per_second``, whatever the connection.

    :meth:`take` spends one token of every key given, or none if any is empty, and says how long until it would
    succeed. Keys unused long enough to be full again are forgotten, and at most ``keep`` are held (the least
    recently used go first: a flood of new keys forgets old ones, it cannot grow the memory).
    """

    def __init__(
        self, per_second: float, burst: float, keep: int = 100_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_second = per_second
        self.burst = burst
        self.keep = keep
        self.clock = clock
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()
        """key -> (tokens, when counted), least recently used first, so also the oldest count first."""

    def _tokens(self, key: Hashable, now: float) -> float:
        tokens, at = self._buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - at) * self.per_second)

    def wait(self, *keys: Hashable) -> float:
        """The seconds until every key has a token (0.0: they have now)."""
        now = self.clock()
        return max((max(0.0, 1 - self._tokens(key, now)) / self.per_second for key in keys), default=0.0)

    def take(self, *keys: Hashable) -> float:
        """Spend one token of each key: 0.0 if done, else the seconds until each key has one (nothing spent)."""
        waiting = self.wait(*keys)
        if waiting:
            return waiting
        now = self.clock()
        for key in keys:
            self._buckets[key] = (self._tokens(key, now) - 1, now)
            self._buckets.move_to_end(key)
        self._forget(now)
        return 0.0

    def _forget(self, now: float) -> None:
        """Keys full again (a bucket refills from empty in ``burst / per_second`` seconds: as if never used), and
        the least recently used beyond ``keep``. The oldest count is first, so this stops at the first kept key."""
        full_since = now - self.burst / self.per_second
        buckets = self._buckets
        while buckets and (len(buckets) > self.keep or next(iter(buckets.values()))[1] <= full_since):
            buckets.popitem(last=False)

    def __len__(self) -> int:
        return len(self._buckets)


class RateLimit:
    """One connection's messages against the buckets of its person and its address: go on, refuse, or close.

    The tokens are shared by every connection of the same person (and of the same address), so opening more
    sockets buys no more messages; the refusals are the connection's own, and one that keeps sending after
    :data:`CLOSE_AFTER_REFUSED` of them is closed.
    """

    def __init__(self, people: Buckets, addresses: Buckets, person: Hashable, address: Hashable) -> None:
        self.people, self.addresses = people, addresses
        self.person, self.address = person, address
        self.refused = 0

    def take(self) -> Literal["ok", "refuse", "close"]:
        if self.people.wait(self.person) == 0.0 and self.addresses.wait(self.address) == 0.0:
            self.people.take(self.person)
            self.addresses.take(self.address)
            return "ok"
        self.refused += 1
        return "close" if self.refused > CLOSE_AFTER_REFUSED else "refuse"


def client_address(scope: Scope) -> str:
    """The client's address, as the server sees it (a trusted proxy's ``X-Forwarded-For`` already applied)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


MAX_BODY_BYTES: Final = 64 * 1024
"""The largest request body any page or API takes (a New game form is under 2 KB)."""
JSON_TYPES: Final = (b"application/json",)


def _refusal(status: int, detail: str) -> tuple[dict[str, Any], list[tuple[bytes, bytes]], bytes]:
    body = orjson.dumps({"detail": detail})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    return {"type": "http.response.start", "status": status, "headers": headers}, [], body


class BodyGuard:
    """ASGI middleware: every request body is bounded before anything parses it, and JSON must be strict JSON.

    A body longer than :data:`MAX_BODY_BYTES` is refused with 413, from its ``Content-Length`` before a byte is
    read, or as soon as the bytes read pass the limit. A JSON body (by its content type) must parse as RFC 8259
    JSON, which has no ``NaN`` or ``Infinity``: anything else is refused with 400 and a sentence that says what is
    wrong without repeating the body. The body is then handed on to the application unchanged.
    """

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            await self._refuse(send, 413, f"The request body is larger than {self.max_bytes // 1024} KB.")
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send, 413, f"The request body is larger than {self.max_bytes // 1024} KB.")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        content_type = (_header(scope, b"content-type") or "").split(";")[0].strip().lower().encode()
        if body and content_type in JSON_TYPES:
            try:
                orjson.loads(body)
            except orjson.JSONDecodeError as exc:
                await self._refuse(send, 400, f"The request body is not valid JSON ({_json_problem(exc, body)}).")
                return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send, status: int, detail: str) -> None:
        start, _, body = _refusal(status, detail)
        await send(start)
        await send({"type": "http.response.body", "body": body})


def _json_problem(error: orjson.JSONDecodeError, body: bytes) -> str:
    """Where and what, in words: never the body itself."""
    at = body[error.pos : error.pos + 4]
    if at.startswith((b"NaN", b"Inf", b"-Inf")) or "infinity" in str(error.msg):
        return f"at character {error.pos}: NaN and Infinity are not JSON numbers"
    return f"at character {error.pos}: {error.msg}"
