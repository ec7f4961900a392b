"""Duplicate events: ``duplicate_events`` and ``duplicate_entries``.

Revision ID: d0001
Revises: u0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "d0001"
down_revision: str | None = "u0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the two tables."""
    op.create_table(
        "duplicate_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=True),
        sa.Column("club_id", sa.Integer(), nullable=True),
        sa.Column("title", sa.String(length=80), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("level", sa.String(length=8), nullable=False),
        sa.Column("scoring", sa.String(length=12), nullable=False),
        sa.Column("numbers", sa.JSON(), nullable=False),
        sa.Column("salt", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("opens_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closes_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(length=64), nullable=True),
        sa.Column("scored_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("standings", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("day"),
    )
    with op.batch_alter_table("duplicate_events") as batch:
        batch.create_index(batch.f("ix_duplicate_events_club_id"), ["club_id"], unique=False)
        batch.create_index(batch.f("ix_duplicate_events_closes_at"), ["closes_at"], unique=False)
    op.create_table(
        "duplicate_entries",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("person", sa.String(length=72), nullable=False),
        sa.Column("player_key", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("instance", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(length=8), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["duplicate_events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "person", name="uq_duplicate_entries_person"),
        sa.UniqueConstraint("game_id"),
    )
    with op.batch_alter_table("duplicate_entries") as batch:
        batch.create_index(batch.f("ix_duplicate_entries_event_id"), ["event_id"], unique=False)
        batch.create_index(batch.f("ix_duplicate_entries_player_key"), ["player_key"], unique=False)


def downgrade() -> None:
    """Drop the two tables."""
    op.drop_table("duplicate_entries")
    op.drop_table("duplicate_events")
