"""Share links that the sheet's owner replaced or withdrew, so that a visit to one can say so.

Revision ID: k0003
Revises: k0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "k0003"
down_revision: str | None = "k0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``score_sheet_old_links``."""
    op.create_table(
        "score_sheet_old_links",
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("sheet_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["sheet_id"], ["score_sheets.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("code"),
    )


def downgrade() -> None:
    """Drop ``score_sheet_old_links``."""
    op.drop_table("score_sheet_old_links")
