"""The score keeper's tables: one row per sheet, one row per event. The events are the sheet.

A sheet row holds what the sheet was started with (rules, names, first dealer, keeper) and who owns it; its
``score_sheet_events`` rows, in ``seq`` order, replay into the sheet exactly as its JSON export does. The other
columns (``names``, ``totals``, ``winners``, ``finished``, ``event_count``) are kept for the list of sheets.
The tables sit on the server's declarative base, in the same database as the games.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ohhell.server.models import Base, utc_now


class SheetRow(Base):
    """A score sheet: how it started, whose it is, and where it stands."""

    __tablename__ = "score_sheets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    """The player key of the browser that started the sheet (see :mod:`ohhell.server.identity`)."""
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``Rules.to_json()``."""
    players: Mapped[list[str]] = mapped_column(JSON)
    """The names the sheet was started with; renamings are events."""
    first_dealer: Mapped[int] = mapped_column(Integer)
    keeper: Mapped[str] = mapped_column(String(64))
    event_count: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[bool] = mapped_column(default=False)
    names: Mapped[list[str]] = mapped_column(JSON)
    totals: Mapped[list[int]] = mapped_column(JSON)
    winners: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)


class SheetEventRow(Base):
    """One entry or correction, as :func:`ohhell.keeper.events.event_to_json` writes it."""

    __tablename__ = "score_sheet_events"

    sheet_id: Mapped[int] = mapped_column(ForeignKey("score_sheets.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    """0-based position in the sheet's log; the primary key makes a second writer of a position fail."""
    event: Mapped[dict[str, Any]] = mapped_column(JSON)
