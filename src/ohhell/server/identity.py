"""Who is playing: a random token in a cookie, stored only as a hash.

The token is the browser's claim to its human seats. The database keeps ``player_key(token)``, so the
stored games never hold the credential itself. Several people at one table (the next step) each
bring their own token.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Final

COOKIE: Final = "ohhell_player"
COOKIE_MAX_AGE: Final = 10 * 365 * 24 * 3600


def new_token() -> str:
    """A fresh, unguessable player token."""
    return secrets.token_urlsafe(24)


def player_key(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()[:40]


def valid_token(token: str | None) -> bool:
    """Whether a cookie value looks like a token this server hands out."""
    return token is not None and 16 <= len(token) <= 64 and token.replace("-", "").replace("_", "").isalnum()
