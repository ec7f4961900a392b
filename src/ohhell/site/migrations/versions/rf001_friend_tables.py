"""Tables of several people: ``friend_tables``, ``table_links`` (invite and watch codes), ``seat_claims``.

Revision ID: f0001
Revises: k0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "f0001"
down_revision: str | None = "k0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "friend_tables",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("gone", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_table(
        "table_links",
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("retired", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("code"),
    )
    with op.batch_alter_table("table_links") as batch:
        batch.create_index(batch.f("ix_table_links_game_id"), ["game_id"], unique=False)
    op.create_table(
        "seat_claims",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    with op.batch_alter_table("seat_claims") as batch:
        batch.create_index(batch.f("ix_seat_claims_player"), ["player"], unique=False)


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_table("seat_claims")
    op.drop_table("table_links")
    op.drop_table("friend_tables")
