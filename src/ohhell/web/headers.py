"""What every response tells the browser: where scripts may come from, who may frame the page, cookies kept to https.

:class:`SecurityHeaders` (the outermost middleware) adds to every HTTP response, page, API or static file:

- ``Content-Security-Policy`` (:data:`CONTENT_SECURITY_POLICY`): scripts only from this site's own files, never
  inline (no ``<script>`` body, no ``on…=`` attribute, no ``eval``); sockets, fetches, images and fonts from this
  site only; no plugins; forms post only here; ``frame-ancestors 'none'``: no other page may frame one of ours (a
  click-jacking page over the table). Styles may be inline (``style="…"`` attributes and the printable sheet's
  ``<style>``): a style cannot run code, and moving every one out is left for later.
- ``X-Frame-Options: DENY``, the same for browsers without ``frame-ancestors``;
- ``Referrer-Policy: same-origin``: an invite, watch or transfer link in the address bar is never sent to another
  site;
- ``X-Content-Type-Options: nosniff``: a file is only ever what its type says.

And every cookie the site sets (the guest's token, the session, the CSRF token, a transfer's) gets ``Secure`` when
the request came over https: directly, or through a proxy named in ``--trusted-proxy`` whose
``X-Forwarded-Proto`` said so (uvicorn puts that into the request's scheme; from anyone else it is ignored).
"""

from __future__ import annotations

from typing import Final

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS: Final = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "same-origin"),
    ("x-content-type-options", "nosniff"),
)


def secure_cookie(set_cookie: str) -> str:
    """A ``Set-Cookie`` value with ``Secure`` (unchanged if it has it).

    >>> secure_cookie("a=1; Path=/; HttpOnly")
    'a=1; Path=/; HttpOnly; Secure'
    >>> secure_cookie("a=1; secure")
    'a=1; secure'
    """
    if any(part.strip().lower() == "secure" for part in set_cookie.split(";")[1:]):
        return set_cookie
    return f"{set_cookie}; Secure"


class SecurityHeaders:
    """ASGI middleware: :data:`HEADERS` on every HTTP response, ``Secure`` on its cookies when over https."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        over_https = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS:
                    if name not in headers:
                        headers[name] = value
                if over_https:
                    cookies = headers.getlist("set-cookie")
                    if cookies:
                        del headers["set-cookie"]
                        for cookie in cookies:
                            headers.append("set-cookie", secure_cookie(cookie))
            await send(message)

        await self.app(scope, receive, send_with_headers)


__all__ = ["CONTENT_SECURITY_POLICY", "HEADERS", "SecurityHeaders", "secure_cookie"]
