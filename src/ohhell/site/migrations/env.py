"""Alembic environment: runs on the connection that :func:`ohhell.web.database.upgrade` hands over.

Every feature's models are imported, so that autogenerate sees all the site's tables.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

import ohhell.club.models
import ohhell.duplicate.models  # the duplicate events
import ohhell.keeper.web.models
import ohhell.server.party.models  # (tables of several people)
import ohhell.server.storage.models  # the games' tables
import ohhell.transfer.models  # the transfer codes
import ohhell.web.accounts.models  # noqa: F401  (the accounts'; the keeper's and the club's above)
from ohhell.web.database import create_sync_engine
from ohhell.web.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations() -> None:
    """Online migrations, on the given connection or on one opened from ``sqlalchemy.url``."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_sync_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as opened:
        _run(opened)
    engine.dispose()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations()
