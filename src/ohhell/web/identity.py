"""Who is playing: a random token in a cookie, stored only as a hash.

The token is the browser's claim to its seats and sheets. The database keeps ``player_key(token)``, so the
stored games never hold the credential itself. :class:`PlayerCookie` gives every HTTP request a player
(``request.state.player``, the key), handing a new browser its token on the way out. A guest key that became an
account's is retired, and its token then acts as nobody (:mod:`ohhell.web.accounts.sessions`).
"""

from __future__ import annotations

import hashlib
import secrets
from http.cookies import SimpleCookie
from typing import Final

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE: Final = "ohhell_player"
COOKIE_MAX_AGE: Final = 10 * 365 * 24 * 3600


def new_token() -> str:
    """A fresh, unguessable player token."""
    return secrets.token_urlsafe(24)


def guest_cookie(token: str) -> str:
    """The Set-Cookie value that gives a browser its player token (HttpOnly: no script reads it)."""
    return f"{COOKIE}={token}; Max-Age={COOKIE_MAX_AGE}; Path=/; HttpOnly; SameSite=Lax"


def player_key(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()[:40]


def valid_token(token: str | None) -> bool:
    """Whether a cookie value looks like a token this server hands out."""
    return token is not None and 16 <= len(token) <= 64 and token.replace("-", "").replace("_", "").isalnum()


def cookie_value(scope: Scope, cookie_name: str) -> str | None:
    """The value of one cookie of the request, if it has it (and a well-formed Cookie header)."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            cookie: SimpleCookie = SimpleCookie()
            try:
                cookie.load(value.decode("latin-1"))
            except Exception:  # a malformed Cookie header carries no cookie
                return None
            morsel = cookie.get(cookie_name)
            if morsel is not None:
                return morsel.value
    return None


def cookie_token(scope: Scope) -> str | None:
    """The player token in the request's cookies, if it holds a valid one."""
    token = cookie_value(scope, COOKIE)
    return token if valid_token(token) else None


def scope_player(scope: Scope) -> str | None:
    """The player key a request or socket acts as: its account's when signed in, else its cookie's, else ``None``."""
    player = scope.get("state", {}).get("player")
    return str(player) if player is not None else None


class PlayerCookie:
    """ASGI middleware: ``scope["state"]["player"]`` is the request's player key; a new browser gets a token.

    A socket gets the key of the token it holds (none without one); a signed-in request's key is then replaced by
    its account's (:class:`ohhell.web.accounts.sessions.AccountSessions`, inside this one).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            token = cookie_token(scope)
            if token is not None:
                scope.setdefault("state", {})["player"] = player_key(token)
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = cookie_token(scope)
        fresh = token is None
        if token is None:
            token = new_token()
        scope.setdefault("state", {})["player"] = player_key(token)

        async def send_with_cookie(message: Message) -> None:
            if fresh and message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if any(value.startswith(f"{COOKIE}=") for value in headers.getlist("set-cookie")):
                    await send(message)  # the response gives the browser a token itself (a transfer)
                    return
                headers.append("set-cookie", guest_cookie(token))
            await send(message)

        await self.app(scope, receive, send_with_cookie)
