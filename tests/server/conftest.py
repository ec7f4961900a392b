"""Fixtures of the web game's tests: a running server with a temporary database.

Debian's Chromium is set up for every browser test in ``tests/conftest.py``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from server.serving import REDIS, RELAXED_LIMITS, RunningServer, fresh_postgres, require_services


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


@contextmanager
def two_processes(
    tmp_path: Path, limits: tuple[str, ...] = RELAXED_LIMITS
) -> Iterator[tuple[RunningServer, RunningServer]]:
    """Two processes on a fresh PostgreSQL database (dropped afterwards) and the local Redis."""
    require_services(redis_too=True)
    with fresh_postgres() as url:
        servers: list[RunningServer] = []
        try:
            for index in range(2):
                server = RunningServer(
                    url,
                    log_path=tmp_path / f"server-{index}.log",
                    extra=["--redis", REDIS, "--computer-processes", "0"],
                    limits=limits,
                )
                servers.append(server.start())
            yield servers[0], servers[1]
        finally:
            for server in servers:
                server.stop()


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[RunningServer, RunningServer]]:
    """Two processes on a fresh PostgreSQL database (dropped afterwards) and the local Redis."""
    with two_processes(tmp_path) as servers:
        yield servers


@pytest.fixture
def two_strict_servers(tmp_path: Path) -> Iterator[tuple[RunningServer, RunningServer]]:
    """The same, with the default limits per address and per player."""
    with two_processes(tmp_path, limits=()) as servers:
        yield servers
