"""The tables: one row per game, one row per action. The action log is the source of truth.

A game row holds what the engine needs to deal the same cards again (the deal number and its salt, the rules as
``Rules.to_json()``, the first dealer) and who sits where; the ``actions`` rows, in ``seq`` order,
replayed onto ``Game(rules, number=…)`` rebuild any moment of the game exactly. The other columns of
``games`` (``finished``, ``totals``, ``winners``, ``action_count``) are kept for listing games without
replaying them; ``resigned`` (the seat that gave up, if one did) is part of the game itself.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ohhell.web.models import Base, utc_now


class GameRow(Base):
    """A game: its rules, number, seats, and the state the table was left in."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    deal_number: Mapped[int] = mapped_column(BigInteger)
    """Secret until the series is over, unless it is practice (docs/deal-numbers.md); never sent while it is played."""
    deal_salt: Mapped[str] = mapped_column(String(64))
    """The salt of the commitment every seat sees: SHA-256 of ``ohhell-commit/1:<number>:<salt>``."""
    practice: Mapped[bool] = mapped_column(default=False)
    """A series whose number was chosen (New game's number, Play these cards again): it earns nothing."""
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``Rules.to_json()``."""
    first_dealer: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """By seat: ``{"name", "kind": "human", "player"}`` or ``{"name", "kind": "computer", "level"}``."""
    owner: Mapped[str] = mapped_column(String(64), index=True)
    """The player key of the person who started the game (see :mod:`ohhell.web.identity`)."""
    shown_deal: Mapped[int] = mapped_column(Integer, default=0)
    """The deal the table shows: one less than the engine's deal while a finished hand waits for Next hand."""
    action_count: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[bool] = mapped_column(default=False)
    totals: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    winners: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    replay_of: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The game whose deal number and rules this one replays, if any."""
    resigned: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat that gave up, which ended the game (it is not an action of a deal, so it is kept here)."""


class ActionRow(Base):
    """One action, stored as it happens: ``"<verb> <argument>"`` as :func:`ohhell.actions.action_text` writes it."""

    __tablename__ = "actions"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    """0-based position in the game's whole log; the primary key makes a second writer of a position fail."""
    deal_index: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    """A computer player's explanation (Why?), with the cards it still held kept out."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
