"""The score keeper's sheets and their event logs (ohhell.keeper.web.models).

Revision ID: k0001
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "k0001"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``score_sheets`` and ``score_sheet_events``."""
    op.create_table(
        "score_sheets",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("keeper", sa.String(length=64), nullable=False),
        sa.Column("event_count", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("totals", sa.JSON(), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_score_sheets_owner", "score_sheets", ["owner"])
    op.create_table(
        "score_sheet_events",
        sa.Column("sheet_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("event", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["sheet_id"], ["score_sheets.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("sheet_id", "seq"),
    )


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("score_sheet_events")
    op.drop_index("ix_score_sheets_owner", table_name="score_sheets")
    op.drop_table("score_sheets")
