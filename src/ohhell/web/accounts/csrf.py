"""Cross-site request forgery: every form carries a token, and no state-changing request comes from another site.

Two layers, both on every request that changes something (any method but GET, HEAD and OPTIONS):

1. :class:`OriginCheck` refuses (403) a request whose ``Origin`` names another site than the server's own or the
   configured ones, and one a browser marks ``Sec-Fetch-Site: cross-site``. Browsers send ``Origin`` on every
   ``POST`` (forms and ``fetch`` alike), so this covers the JSON API the game page and the keeper use; programs that
   are not browsers send neither header and are let through (they hold no victim's cookies). The cookies are
   ``SameSite=Lax`` besides, so a cross-site ``POST`` carries none of them.
2. The double-submit token: every browser gets a random ``ohhell_csrf`` cookie, and every HTML form posts it back
   in a hidden ``csrf`` field (:func:`form_token_ok`); a form posted without the matching value is refused. This
   holds even where a browser sent no ``Origin``.
"""

from __future__ import annotations

import secrets
from typing import Final

import orjson
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ohhell.web.guards import origin_allowed
from ohhell.web.identity import cookie_value

CSRF_COOKIE: Final = "ohhell_csrf"
CSRF_FIELD: Final = "csrf"
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
CROSS_SITE: Final = "This request came from a page of another site, so it was refused."


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _valid(token: str | None) -> bool:
    return token is not None and len(token) == 43 and token.replace("-", "").replace("_", "").isalnum()


def form_token_ok(scope: Scope, submitted: str | None) -> bool:
    """Whether a form's ``csrf`` field matches the browser's token cookie."""
    token = scope.get("state", {}).get("csrf")
    return bool(token) and submitted is not None and secrets.compare_digest(str(token), submitted)


class OriginCheck:
    """ASGI middleware: the origin check of every state-changing request, and the token cookie of every browser."""

    def __init__(self, app: ASGIApp, allowed_origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed_origins = allowed_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS:
            if _header(scope, b"origin") is not None:
                refused = not origin_allowed(scope, self.allowed_origins)
            else:
                refused = (_header(scope, b"sec-fetch-site") or "").lower() == "cross-site"
            if refused:
                body = orjson.dumps({"detail": CROSS_SITE})
                await send(
                    {
                        "type": "http.response.start",
                        "status": 403,
                        "headers": [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        token = cookie_value(scope, CSRF_COOKIE)
        fresh = not _valid(token)
        if fresh:
            token = secrets.token_urlsafe(32)
        scope.setdefault("state", {})["csrf"] = token

        async def send_with_cookie(message: Message) -> None:
            if fresh and message["type"] == "http.response.start":
                MutableHeaders(scope=message).append(
                    "set-cookie", f"{CSRF_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax"
                )
            await send(message)

        await self.app(scope, receive, send_with_cookie)
