"""Transfer codes in the database: made from a player token, used once to get it back, expiring.

>>> code = new_code()
>>> len(code), code.count("-")
(19, 3)
>>> normal_code(code.lower().replace("-", " ")) == normal_code(code)
True
>>> token = "abcdefghijklmnopqrstuvwxyz012345"
>>> unseal(seal(token, normal_code(code)), normal_code(code)) == token
True
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from ohhell.transfer.models import TransferRow
from ohhell.web.database import create_server_engine
from ohhell.web.models import utc_now

ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: no I, L, O or U, so a code read aloud or typed is not mistaken."""
CODE_LENGTH: Final = 16
"""Characters of a code: 80 random bits, which nobody can guess in the time a code lives."""
LIFETIME: Final = timedelta(minutes=15)
"""How long a code works if it is not used."""
SIMILAR: Final = str.maketrans({"O": "0", "I": "1", "L": "1", "U": "V"})


def new_code() -> str:
    """A fresh code, grouped for reading: ``7K2M-…``."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, CODE_LENGTH, 4))


def normal_code(text: str) -> str | None:
    """The code typed or pasted, without spaces and dashes, in capitals, look-alike letters read as digits;
    ``None`` if it cannot be a code."""
    code = "".join(text.split()).replace("-", "").upper().translate(SIMILAR)
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def code_hash(code: str) -> str:
    return hashlib.sha256(f"ohhell-transfer-id:{code}".encode()).hexdigest()


def _key(code: str, length: int) -> bytes:
    return hashlib.shake_256(f"ohhell-transfer-key:{code}".encode()).digest(length)


def seal(token: str, code: str) -> str:
    """The token made unreadable without the code."""
    data = token.encode()
    return bytes(a ^ b for a, b in zip(data, _key(code, len(data)), strict=True)).hex()


def unseal(sealed: str, code: str) -> str:
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _key(code, len(data)), strict=True)).decode()


def _aware(at: datetime) -> datetime:
    """SQLite gives back times without their zone; they were written in UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


class TransferStore:
    """Transfer codes in the server's database."""

    def __init__(self, url: str, **engine_options: Any) -> None:
        self.engine: AsyncEngine = create_server_engine(url, **engine_options)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    async def close(self) -> None:
        await self.engine.dispose()

    async def reconnect(self) -> None:
        """Drop the connections (the database came back after failing)."""
        await self.engine.dispose()

    async def create(self, token: str) -> tuple[str, datetime]:
        """A new code for ``token`` and when it expires; expired codes are cleared on the way."""
        code = new_code()
        now = utc_now()
        expires = now + LIFETIME
        async with self._sessions.begin() as session:
            await session.execute(delete(TransferRow).where(TransferRow.expires_at < now))
            session.add(
                TransferRow(
                    code_hash=code_hash(normal_code(code) or ""),
                    sealed_token=seal(token, normal_code(code) or ""),
                    created_at=now,
                    expires_at=expires,
                )
            )
        return code, expires

    async def redeem(self, text: str) -> str | None:
        """The token a code was made for, once: the code is deleted; ``None`` for an unknown, used or expired code."""
        code = normal_code(text)
        if code is None:
            return None
        async with self._sessions.begin() as session:
            # one statement deletes and reads the row: of two browsers using one code at once, one gets it
            found = await session.execute(
                delete(TransferRow)
                .where(TransferRow.code_hash == code_hash(code))
                .returning(TransferRow.sealed_token, TransferRow.expires_at)
            )
            row = found.first()
        if row is None or _aware(row.expires_at) < utc_now():
            return None
        return unseal(row.sealed_token, code)
