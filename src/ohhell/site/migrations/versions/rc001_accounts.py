"""Accounts: accounts, the player keys linked to them, sessions, failed sign-ins (ohhell.web.accounts).

Revision ID: c0001
Revises: f0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "c0001"
down_revision: str | None = "f0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the accounts' tables."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("name_key", sa.String(length=24), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("player_key", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("public_profile", sa.Boolean(), nullable=False),
        sa.Column("card_back", sa.String(length=32), nullable=False),
        sa.Column("card_faces", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name_key"),
        sa.UniqueConstraint("player_key"),
    )
    op.create_table(
        "account_players",
        sa.Column("player_key", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("linked_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_key"),
    )
    op.create_index("ix_account_players_account_id", "account_players", ["account_id"])
    op.create_table(
        "account_sessions",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name_key", sa.String(length=24), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_sign_in_failures_name_key", "sign_in_failures", ["name_key"])
    op.create_index("ix_sign_in_failures_address", "sign_in_failures", ["address"])
    op.create_index("ix_sign_in_failures_at", "sign_in_failures", ["at"])


def downgrade() -> None:
    """Drop the accounts' tables."""
    op.drop_table("sign_in_failures")
    op.drop_table("account_sessions")
    op.drop_table("account_players")
    op.drop_table("accounts")
