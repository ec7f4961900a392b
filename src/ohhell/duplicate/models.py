"""The duplicate events' tables: one row per event, one per entry."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ohhell.web.models import Base, utc_now


class EventRow(Base):
    """A duplicate event: a series dealt from numbers fixed when it opened, kept secret until it closes."""

    __tablename__ = "duplicate_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``daily`` (the daily deal) or ``club`` (a club's event)."""
    day: Mapped[str | None] = mapped_column(String(10), nullable=True, unique=True)
    """The daily deal's day (UTC), ``YYYY-MM-DD``: one event a day, whichever process opens it."""
    club_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    title: Mapped[str] = mapped_column(String(80))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``Rules.to_json()`` of the series (a preset and a number of players)."""
    level: Mapped[str] = mapped_column(String(8))
    """The computer players' level (``easy`` or ``normal``)."""
    scoring: Mapped[str] = mapped_column(String(12))
    """``matchpoints`` or ``mean`` (:mod:`ohhell.duplicate.scoring`)."""
    numbers: Mapped[list[int]] = mapped_column(JSON)
    """The deal numbers of the instances of the series (one without a pool): secret until the event closes."""
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    """SHA-256 over the numbers and the salt (:func:`ohhell.duplicate.store.commitment_of`)."""
    opens_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    closes_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    created_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The player key of the club admin who opened it (none for the daily deal)."""
    scored_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the closed event was scored and its entries handed to the results hook (once, by one process)."""
    standings: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    """The final standings, once scored."""


class EntryRow(Base):
    """One person's entry: the table they play the event's series at."""

    __tablename__ = "duplicate_entries"
    __table_args__ = (UniqueConstraint("event_id", "person", name="uq_duplicate_entries_person"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("duplicate_events.id", ondelete="CASCADE"), index=True)
    person: Mapped[str] = mapped_column(String(72))
    """``account:<id>`` for an account, ``guest:<player key>`` for a guest: one entry each."""
    player_key: Mapped[str] = mapped_column(String(64), index=True)
    """The key that holds the entry's seat."""
    name: Mapped[str] = mapped_column(String(64))
    instance: Mapped[int] = mapped_column(Integer)
    """The instance of the series it was dealt, by lot (0 without a pool)."""
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True, unique=True)
    """The entry's table (none for the moment between claiming the entry and dealing its table)."""
    state: Mapped[str] = mapped_column(String(8), default="playing")
    """``playing``, ``finished`` (played to the last hand) or ``gave-up``."""
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The series' result as the game reported it (:class:`ohhell.web.results.SeriesResult`), kept until the close."""
