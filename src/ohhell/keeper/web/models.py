"""The score keeper's tables: one row per sheet, one row per event. The events are the sheet.

A sheet row holds what the sheet was started with (rules, names, first dealer, keeper) and who owns it; its
``score_sheet_events`` rows, in ``seq`` order, replay into the sheet exactly as its JSON export does. The other
columns (``names``, ``totals``, ``winners``, ``finished``, ``event_count``) are kept for the list of sheets.
A sheet is kept from the browser that started it and from every browser that joined it through its share link
(``score_sheet_keepers``); links its owner replaced or withdrew are remembered (``score_sheet_old_links``), so that
a visit to one can say so.
The tables sit on the site's declarative base (:mod:`ohhell.web.models`), in the same database as the games.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ohhell.web.models import Base, utc_now

MAX_INTEGER: Final = 2**31 - 1
"""The largest value an ``Integer`` column holds on every database (PostgreSQL's ``integer``; SQLite's is larger):
the bound of sheet ids and event positions that the keeper accepts."""


class SheetRow(Base):
    """A score sheet: how it started, whose it is, and where it stands."""

    __tablename__ = "score_sheets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    """The player key of the browser that started the sheet (see :mod:`ohhell.web.identity`)."""
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
    share_code: Mapped[str | None] = mapped_column(String(32), nullable=True, unique=True)
    """The secret in the sheet's share link (``/keeper/join/{code}``), made when the sheet is first shared."""


class SheetKeeperRow(Base):
    """Another browser (a second phone at the table) that joined a sheet through its share link."""

    __tablename__ = "score_sheet_keepers"

    sheet_id: Mapped[int] = mapped_column(ForeignKey("score_sheets.id", ondelete="CASCADE"), primary_key=True)
    player: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    """The player key of the browser that joined (see :mod:`ohhell.web.identity`)."""
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class SheetOldLinkRow(Base):
    """A share code that no longer opens its sheet: replaced by a new one, or withdrawn by the sheet's owner."""

    __tablename__ = "score_sheet_old_links"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    sheet_id: Mapped[int] = mapped_column(ForeignKey("score_sheets.id", ondelete="CASCADE"))
    reason: Mapped[str] = mapped_column(String(16))
    """``replaced`` or ``withdrawn``."""
    retired_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class SheetEventRow(Base):
    """One entry or correction, as :func:`ohhell.keeper.events.event_to_json` writes it."""

    __tablename__ = "score_sheet_events"

    sheet_id: Mapped[int] = mapped_column(ForeignKey("score_sheets.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    """0-based position in the sheet's log; the primary key makes a second writer of a position fail."""
    event: Mapped[dict[str, Any]] = mapped_column(JSON)
