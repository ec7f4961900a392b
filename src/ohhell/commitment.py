"""The commitment to a secret deal number: every seat sees it from the start, and checks it when the number is told.

A live series is dealt from a number nobody at the table may know (it fixes every hand). When the series is
created the server draws the number (:func:`secret_deal_number`, 63 random bits, too many to find by trying them
against one's own hand) and a salt (:func:`new_salt`, 128 random bits), and shows every seat and spectator

    SHA-256 of the ASCII text ``ohhell-commit/1:<number in decimal>:<salt in lowercase hex>``

as 64 lowercase hex digits. When the series is over the number and salt are told; anyone can hash them again and
compare (docs/deal-numbers.md gives a shell command), and ``ohhell check`` does it for a record that carries them.

>>> commitment(42, "00" * 16)
'a3c8b4a9d93f2a411b4be2ab0afff7fc348e887ce5f917a457a009a36659c113'
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Final

SCHEME: Final = "ohhell-commit/1"
"""The name of the byte string hashed, and its version."""
SALT_BYTES: Final = 16
"""128 bits of salt: the number cannot be found by hashing guesses, even a short chosen one."""
SECRET_NUMBER_LIMIT: Final = 2**63
"""Secret numbers run from 0 to this minus one (what the databases' 64-bit integer column holds)."""
_HEX_DIGEST: Final = re.compile(r"[0-9a-f]{64}")
_HEX_SALT: Final = re.compile(r"(?:[0-9a-f]{2}){16,64}")


def secret_deal_number() -> int:
    """A deal number for a series whose cards nobody may know: 63 bits from the operating system.

    Searching 2**63 numbers for the one that deals one's own hand takes far longer than any series.
    """
    return secrets.randbelow(SECRET_NUMBER_LIMIT)


def new_salt() -> str:
    """A fresh salt: 16 random bytes as 32 lowercase hex digits."""
    return secrets.token_hex(SALT_BYTES)


def committed_text(number: int, salt: str) -> bytes:
    """The exact bytes hashed: ``ohhell-commit/1:<number>:<salt>`` in ASCII."""
    return f"{SCHEME}:{number}:{salt}".encode("ascii")


def commitment(number: int, salt: str) -> str:
    """The commitment to ``number`` under ``salt``: SHA-256 of :func:`committed_text`, in lowercase hex."""
    return hashlib.sha256(committed_text(number, salt)).hexdigest()


def is_digest(text: object) -> bool:
    """Whether ``text`` is written as a commitment is: 64 lowercase hex digits."""
    return isinstance(text, str) and _HEX_DIGEST.fullmatch(text) is not None


def is_salt(text: object) -> bool:
    """Whether ``text`` is written as a salt is: 16 to 64 bytes in lowercase hex."""
    return isinstance(text, str) and _HEX_SALT.fullmatch(text) is not None


def check_command(number: int, salt: str) -> str:
    """A shell command that prints the commitment again, to compare by eye."""
    return f"printf '%s' '{committed_text(number, salt).decode()}' | sha256sum"
