"""Transfer codes that move a browser's games to another device (``player_transfers``).

Revision ID: u0001
Revises: c0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "u0001"
down_revision: str | None = "c0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """A row per code waiting to be used: its hash, the sealed token, when it expires."""
    op.create_table(
        "player_transfers",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("sealed_token", sa.String(length=160), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("code_hash"),
    )
    with op.batch_alter_table("player_transfers") as batch:
        batch.create_index(batch.f("ix_player_transfers_expires_at"), ["expires_at"], unique=False)


def downgrade() -> None:
    """Drop the codes (any not used yet stop working)."""
    with op.batch_alter_table("player_transfers") as batch:
        batch.drop_index(batch.f("ix_player_transfers_expires_at"))
    op.drop_table("player_transfers")
