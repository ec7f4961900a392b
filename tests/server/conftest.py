"""Fixtures of the web game's tests: a running server with a temporary database, and Debian's Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from server.serving import RunningServer

CHROMIUM: Final = Path("/usr/bin/chromium")
CHROMIUM_FLAGS: Final = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


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


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, never a downloaded browser."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI needs Debian's chromium (apt-get install chromium): .ci/run installs it")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_FLAGS}
