"""Accounts that stay theirs: retired guest keys, and statistics shown to club members by default.

- ``retired_player_keys``: the guest keys that became accounts' (every key in ``account_players`` so far). A player
  cookie whose key is listed acts as nobody: a copy of a guest token kept from before signing up no longer reaches
  the account's games (docs/club.md, "Sessions").
- ``accounts.public_profile``: the default becomes ``False`` (only the members of one's clubs see one's statistics),
  as docs/club.md always said. Nothing recorded whether an account's "anyone" was chosen or only the old default,
  so every account is set to members only: nobody's statistics become more visible than they chose, and whoever
  wants "anyone" chooses it again on the Account page.

Revision ID: a0001
Revises: d0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "a0001"
down_revision: str | None = "d0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``retired_player_keys`` from the linked keys; statistics to members only."""
    op.create_table(
        "retired_player_keys",
        sa.Column("player_key", sa.String(length=64), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player_key"),
    )
    op.execute(
        "INSERT INTO retired_player_keys (player_key, retired_at) SELECT player_key, linked_at FROM account_players"
    )
    op.execute(sa.text("UPDATE accounts SET public_profile = :no").bindparams(no=False))


def downgrade() -> None:
    """Drop the retired keys (their old cookies act as the accounts' keys again); the visibility stays."""
    op.drop_table("retired_player_keys")
