"""The migration of "accounts that stay theirs" (a0001) on a database that already has accounts: their guest keys
are retired, and every account's statistics become members-only (nothing recorded whether "anyone" was chosen)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from ohhell.site import schema
from ohhell.web import database
from server.serving import fresh_postgres, require_services


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    require_services()
    with fresh_postgres() as found:
        yield found


def test_existing_accounts_keep_their_keys_dead_and_their_statistics_for_members(url: str) -> None:
    command.upgrade(schema.alembic_config(url), "u0001")  # the schema before
    engine = database.create_sync_engine(url)
    keys = [uuid.uuid4().hex for _ in range(3)]
    try:
        with engine.begin() as connection:
            for index, key in enumerate(keys[:2]):
                connection.execute(
                    text(
                        "INSERT INTO accounts (name, name_key, password_hash, player_key, created_at, public_profile,"
                        " card_back, card_faces) VALUES (:n, :n, 'x', :k, CURRENT_TIMESTAMP, :p, 'classic', 'classic')"
                    ),
                    {"n": f"a{index}", "k": key, "p": index == 0},
                )
            ids = [row[0] for row in connection.execute(text("SELECT id FROM accounts ORDER BY name"))]
            for account_id, key in zip(ids, keys[:2], strict=True):
                connection.execute(
                    text("INSERT INTO account_players VALUES (:k, :a, CURRENT_TIMESTAMP)"), {"k": key, "a": account_id}
                )
        schema.upgrade(url)
        with engine.connect() as connection:
            retired = {row[0] for row in connection.execute(text("SELECT player_key FROM retired_player_keys"))}
            public = [row[0] for row in connection.execute(text("SELECT public_profile FROM accounts"))]
    finally:
        engine.dispose()
    assert retired == set(keys[:2])  # a guest key of no account stays a guest's
    assert public == [False, False]
