"""Score sheets kept from several phones: the share code and the browsers that joined.

Revision ID: k0002
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "k0002"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``score_sheets.share_code`` and create ``score_sheet_keepers``."""
    with op.batch_alter_table("score_sheets") as batch:
        batch.add_column(sa.Column("share_code", sa.String(length=32), nullable=True))
        batch.create_unique_constraint("uq_score_sheets_share_code", ["share_code"])
    op.create_table(
        "score_sheet_keepers",
        sa.Column("sheet_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["sheet_id"], ["score_sheets.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("sheet_id", "player"),
    )
    op.create_index("ix_score_sheet_keepers_player", "score_sheet_keepers", ["player"])


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_index("ix_score_sheet_keepers_player", table_name="score_sheet_keepers")
    op.drop_table("score_sheet_keepers")
    with op.batch_alter_table("score_sheets") as batch:
        batch.drop_constraint("uq_score_sheets_share_code", type_="unique")
        batch.drop_column("share_code")
