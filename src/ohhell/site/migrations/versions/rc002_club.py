"""The club: series results, clubs, members, invite links, club tables (ohhell.club).

Revision ID: c0002
Revises: c0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "c0002"
down_revision: str | None = "c0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the club's tables."""
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("allow_undo", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=8), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("club_id", "account_id"),
    )
    op.create_table(
        "club_invites",
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("code"),
    )
    op.create_index("ix_club_invites_club_id", "club_invites", ["club_id"])
    op.create_table(
        "club_tables",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index("ix_club_tables_club_id", "club_tables", ["club_id"])
    op.create_table(
        "series_results",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player_key", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("preset", sa.String(length=32), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("gave_up", sa.Boolean(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("exact_bids", sa.Integer(), nullable=False),
        sa.Column("longest_exact_run", sa.Integer(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("exact", sa.JSON(), nullable=False),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.Column("shared_win", sa.Boolean(), nullable=False),
        sa.Column("against_computers", sa.Boolean(), nullable=False),
        sa.Column("opponents", sa.String(length=16), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=True),
        sa.Column("undo", sa.Boolean(), nullable=False),
        sa.Column("xp", sa.Integer(), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index("ix_series_results_player_key", "series_results", ["player_key"])
    op.create_index("ix_series_results_ended_at", "series_results", ["ended_at"])
    op.create_index("ix_series_results_club_id", "series_results", ["club_id"])


def downgrade() -> None:
    """Drop the club's tables."""
    op.drop_table("series_results")
    op.drop_table("club_tables")
    op.drop_table("club_invites")
    op.drop_table("club_members")
    op.drop_table("clubs")
