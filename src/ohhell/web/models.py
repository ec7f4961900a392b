"""The declarative base every feature's tables sit on, so that one set of migrations covers them all."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import DeclarativeBase


def utc_now() -> datetime:
    """The current time, timezone-aware."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The declarative base of the site's tables (games, score sheets, …)."""
