"""The accounts' tables: accounts, the player keys linked to them, retired guest keys, sessions and failed sign-ins."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ohhell.web.models import Base, utc_now


class AccountRow(Base):
    """A person with a name and a password (its Argon2id hash only)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(24))
    name_key: Mapped[str] = mapped_column(String(24), unique=True)
    """The name folded to lower case: two accounts may not differ only by case."""
    password_hash: Mapped[str] = mapped_column(String(200))
    """An Argon2id hash in PHC form (``$argon2id$v=19$…``); the password itself is never stored."""
    player_key: Mapped[str] = mapped_column(String(64), unique=True)
    """The player key the account plays as (:mod:`ohhell.web.identity`): the guest key of the browser that signed up."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    public_profile: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether anyone may see the statistics page; by default only the account's clubs' members do (docs/club.md)."""
    card_back: Mapped[str] = mapped_column(String(32), default="classic")
    card_faces: Mapped[str] = mapped_column(String(32), default="classic")


class AccountPlayerRow(Base):
    """A player key whose games and results are the account's (its own, and guest keys linked on sign-in)."""

    __tablename__ = "account_players"

    player_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    linked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class RetiredPlayerKeyRow(Base):
    """A guest key that became an account's: no player cookie acts as it any more, only the account's sessions.

    Kept after the account is deleted, so that an old copy of the guest token never gets the deleted account's
    games back.
    """

    __tablename__ = "retired_player_keys"

    player_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    retired_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class SessionRow(Base):
    """A signed-in browser: the hash of its session cookie (deleting the row signs it out)."""

    __tablename__ = "account_sessions"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class SignInFailureRow(Base):
    """A try to sign in whose password was wrong or is being checked, counted against its name and address for a
    while (written before the password is checked, so that tries at once count each other)."""

    __tablename__ = "sign_in_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name_key: Mapped[str] = mapped_column(String(24), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now, index=True)
