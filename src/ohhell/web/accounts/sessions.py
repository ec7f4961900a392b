"""The middleware that signs requests in: a session cookie's account, its player key, its chosen cards.

Inside :class:`~ohhell.web.identity.PlayerCookie`: a request (or socket) with a live session acts as its account's
player key in ``scope["state"]["player"]``, whichever browser it comes from; ``scope["state"]["account"]`` is the
:class:`~ohhell.web.accounts.store.Account` (``None`` for a guest), and ``card_back`` / ``card_faces`` what every
page draws cards with (``base.html`` puts them on the body). A session cookie whose row is gone (signed out
everywhere, a new password, the account deleted) is a guest's, and is cleared on the way out.

A player cookie whose key is retired (it became an account's on signing up: an old copy of the guest token) acts
as nobody: a request gets a fresh guest key and cookie in its place, a socket no key at all.
"""

from __future__ import annotations

import logging
from typing import Final

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ohhell.web import failures
from ohhell.web.accounts.store import Account, AccountStore
from ohhell.web.identity import COOKIE, cookie_value, guest_cookie, new_token, player_key

log = logging.getLogger(__name__)

SESSION_COOKIE: Final = "ohhell_session"
SESSION_MAX_AGE: Final = 180 * 24 * 3600
UNSIGNED_PATHS: Final = ("/static/", "/healthz", "/club/backs/", "/club/faces/")
"""Requests that never depend on who is signed in (files, pictures, the health check): no session lookup."""


def session_cookie(token: str, secure: bool = False) -> str:
    """The Set-Cookie value that keeps a browser signed in (HttpOnly: no script reads it)."""
    flags = "; Secure" if secure else ""
    return f"{SESSION_COOKIE}={token}; Max-Age={SESSION_MAX_AGE}; Path=/; HttpOnly; SameSite=Lax{flags}"


def cleared_session_cookie() -> str:
    """The Set-Cookie value that forgets the session cookie."""
    return f"{SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"


def _valid(token: str | None) -> bool:
    return token is not None and 20 <= len(token) <= 64 and token.replace("-", "").replace("_", "").isalnum()


class AccountSessions:
    """ASGI middleware: the signed-in account of each request and socket (see the module)."""

    def __init__(self, app: ASGIApp, store: AccountStore) -> None:
        self.app = app
        self.store = store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope.get("path", "").startswith(UNSIGNED_PATHS):
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        token = cookie_value(scope, SESSION_COOKIE)
        token = token if _valid(token) else None
        guest: str | None = state.get("player")
        account: Account | None = None
        stale = retired = False
        try:
            account, retired = await self.store.signed_in(token, guest)
        except failures.DATABASE_ERRORS:
            log.warning("the sessions cannot be read: the request goes on as a guest's")
        else:
            stale = token is not None and account is None
        replacement = new_token() if retired and scope["type"] == "http" else None
        if retired:
            guest = None if replacement is None else player_key(replacement)
            state["player"] = guest
        state["account"] = account
        state["session_token"] = token if account is not None else None
        state["guest_player"] = guest
        if account is not None:
            state["player"] = account.player_key
        state["card_back"] = account.card_back if account is not None else "classic"
        state["card_faces"] = account.card_faces if account is not None else "classic"
        if not (stale or replacement) or scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_clearing(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if stale:
                    headers.append("set-cookie", cleared_session_cookie())
                if replacement and not any(v.startswith(f"{COOKIE}=") for v in headers.getlist("set-cookie")):
                    headers.append("set-cookie", guest_cookie(replacement))
            await send(message)

        await self.app(scope, receive, send_clearing)
