"""The seat that gave up a game (``games.resigned``).

Revision ID: 0002
Revises: k0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "k0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``games.resigned``, empty for every game so far (nobody could give up in the browser before)."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("resigned", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Drop ``games.resigned``."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("resigned")
