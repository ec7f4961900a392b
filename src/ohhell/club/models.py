"""The club's tables: one row per person per finished series, the clubs, their members, invites and tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ohhell.web.models import Base, utc_now


class SeriesResultRow(Base):
    """One person's finished (or given-up) series: stored when the series ends, and only then."""

    __tablename__ = "series_results"

    game_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    player_key: Mapped[str] = mapped_column(String(64), index=True)
    name: Mapped[str] = mapped_column(String(64))
    """The name the person played under."""
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now, index=True)
    preset: Mapped[str] = mapped_column(String(32))
    finished: Mapped[bool] = mapped_column(Boolean)
    """Played to the last deal; false if anyone gave up."""
    gave_up: Mapped[bool] = mapped_column(Boolean)
    """This person gave up through the menu: a loss, with no XP."""
    rank: Mapped[int] = mapped_column(Integer)
    """1 for the top total (ties share a rank); a seat that gave up is ranked last."""
    total: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    """Deals played (fewer than the series' if it was given up)."""
    exact_bids: Mapped[int] = mapped_column(Integer)
    longest_exact_run: Mapped[int] = mapped_column(Integer)
    points: Mapped[list[int]] = mapped_column(JSON)
    """Points per deal."""
    exact: Mapped[list[bool]] = mapped_column(JSON)
    """Per deal, whether the bid was made exactly."""
    winner: Mapped[bool] = mapped_column(Boolean)
    shared_win: Mapped[bool] = mapped_column(Boolean)
    against_computers: Mapped[bool] = mapped_column(Boolean)
    opponents: Mapped[str] = mapped_column(String(16))
    """The opponents' level: the strongest computer player's (easy, normal, hard), or ``people``."""
    club_id: Mapped[int | None] = mapped_column(ForeignKey("clubs.id", ondelete="SET NULL"), nullable=True, index=True)
    """The club of a club table (its series count for the club); never set against computer players."""
    undo: Mapped[bool] = mapped_column(Boolean, default=False)
    """This person took back a move during the series (the club aid)."""
    xp: Mapped[int] = mapped_column(Integer)
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """Bids and tricks per deal, and the other seats' totals, for the rebuild's comparison."""


class ClubRow(Base):
    """A club: a name and its members."""

    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    allow_undo: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the club's tables allow the club aid (Undo)."""


class ClubMemberRow(Base):
    """A member of a club: an account, a member or an admin."""

    __tablename__ = "club_members"

    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    role: Mapped[str] = mapped_column(String(8))
    """``admin`` or ``member``."""
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class ClubInviteRow(Base):
    """An invite link of a club, until an admin revokes it."""

    __tablename__ = "club_invites"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ClubTableRow(Base):
    """A game played as a club table: only the club's members take its seats, and its series count for the club."""

    __tablename__ = "club_tables"

    game_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
