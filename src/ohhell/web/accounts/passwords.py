"""Password hashes with Argon2id (``argon2-cffi``'s defaults: RFC 9106's low-memory profile).

>>> stored = hash_password("correct horse battery")
>>> stored.startswith("$argon2id$"), verify_password(stored, "correct horse battery"), verify_password(stored, "no")
(True, True, False)
"""

from __future__ import annotations

from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_LENGTH: Final = 8
MAX_LENGTH: Final = 256
_HASHER: Final = PasswordHasher()


def hash_password(password: str) -> str:
    """The stored form of ``password``: an Argon2id hash with its own salt."""
    return _HASHER.hash(password)


def verify_password(stored: str, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from."""
    try:
        return _HASHER.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with older parameters than the current ones (rehash on the next sign-in)."""
    return _HASHER.check_needs_rehash(stored)


def password_problem(password: str) -> str | None:
    """What is wrong with a new password, or ``None``."""
    if len(password) < MIN_LENGTH:
        return f"The password must have at least {MIN_LENGTH} characters."
    if len(password) > MAX_LENGTH:
        return f"The password may have at most {MAX_LENGTH} characters."
    return None
