"""The tables of people playing together: the table's settings, its invite and watch links, the seat claims.

A game of several people has a ``friend_tables`` row (a game of one person has none): who hosts it, whether it
waits in its waiting room or is being played, its settings (grace period, turn timer, chat for spectators) and the
seats given to computer players for the rest of the game (a person who gave up, or whose seat the host handed on).
``table_links`` holds the invite and watch codes (a renewed code stays, retired, so that the old link can say so);
``seat_claims`` holds which player key took which seat (the host's included).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ohhell.web.models import Base, utc_now


class FriendTableRow(Base):
    """A table of several people."""

    __tablename__ = "friend_tables"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    host: Mapped[str] = mapped_column(String(64))
    """The player key of the person who set the table (seat 0)."""
    status: Mapped[str] = mapped_column(String(16), default="waiting")
    """``waiting`` (the waiting room) or ``playing`` (started: the game row's seats are final)."""
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``{"grace_seconds", "turn_seconds", "spectator_chat"}``."""
    gone: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """By seat (as text): ``{"why": "gave-up" | "handed", "action": seq}``: a computer player plays it from then on."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class TableLinkRow(Base):
    """An invite (``join``) or ``watch`` code of a table; ``retired`` says why an old one no longer works."""

    __tablename__ = "table_links"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(8))
    retired: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class SeatClaimRow(Base):
    """A person's seat at a table: the key of the player cookie that took it, and the name they gave."""

    __tablename__ = "seat_claims"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    player: Mapped[str] = mapped_column(String(64), index=True)
    name: Mapped[str] = mapped_column(String(24))
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
