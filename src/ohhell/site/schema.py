"""The site's database schema: one set of Alembic migrations for every feature's tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from alembic.config import Config

from ohhell.web import database

MIGRATIONS: Final = Path(__file__).parent / "migrations"


def alembic_config(url: str) -> Config:
    """An Alembic configuration for the site's migrations at ``url``."""
    return database.alembic_config(url, MIGRATIONS)


def upgrade(url: str, **engine_options: Any) -> None:
    """Bring the database at ``url`` to the latest schema (creating it if need be)."""
    database.upgrade(url, MIGRATIONS, **engine_options)
