"""Fixtures of the keeper's browser test: a real ``ohhell serve`` on a free port and a temporary database.

Debian's Chromium is set up for every browser test in ``tests/conftest.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.serving import RunningServer


@pytest.fixture(scope="module")
def keeper_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """``ohhell serve`` on a SQLite file of its own, for this module's tests."""
    folder = tmp_path_factory.mktemp("keeper-server")
    running = RunningServer(f"sqlite:///{folder / 'sheets.sqlite3'}", log_path=folder / "server.log").start()
    yield running
    running.stop()
