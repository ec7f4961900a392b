"""The transfer codes waiting to be used: one row each, deleted when used, useless once expired."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from ohhell.web.models import Base, utc_now


class TransferRow(Base):
    """A transfer code: its hash, the player token sealed with it, and when it stops working."""

    __tablename__ = "player_transfers"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the code (the code itself is never stored)."""
    sealed_token: Mapped[str] = mapped_column(String(160))
    """The player token XOR a key drawn from the code (SHAKE-256), in hex: unreadable without the code."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
