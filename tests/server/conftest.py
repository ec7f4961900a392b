"""Fixtures of the web game's tests: a running server with a temporary database.

Debian's Chromium is set up for every browser test in ``tests/conftest.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.serving import RunningServer


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the browser tests last: once Playwright has started, its event loop stays in the test thread."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """One ``ohhell serve`` for the session, on a SQLite file of its own, animating fast."""
    folder = tmp_path_factory.mktemp("server")
    running = RunningServer(f"sqlite:///{folder / 'games.sqlite3'}", log_path=folder / "server.log").start()
    yield running
    running.stop()
