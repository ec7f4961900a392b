"""The secret deal: each game's salt for the commitment to its number, and whether it is practice.

Revision ID: 0003
Revises: a0001
Create Date: 2026-12-01

``games.deal_salt`` is filled with a fresh salt for every game so far (their numbers were shown while they were
played, so their commitments promise nothing, but every game then has one). ``games.practice`` is false for them:
the series results they earned stay as they were, and ``ohhell club rebuild-stats`` agrees with them.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "a0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``games.deal_salt`` (a salt for each existing game) and ``games.practice`` (false)."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deal_salt", sa.String(length=64), nullable=False, server_default=""))
        batch.add_column(sa.Column("practice", sa.Boolean(), nullable=False, server_default=sa.false()))
    connection = op.get_bind()
    games = sa.table("games", sa.column("id", sa.Integer()), sa.column("deal_salt", sa.String()))
    for (game_id,) in connection.execute(sa.select(games.c.id)).fetchall():
        connection.execute(games.update().where(games.c.id == game_id).values(deal_salt=secrets.token_hex(16)))


def downgrade() -> None:
    """Drop both columns."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("practice")
        batch.drop_column("deal_salt")
