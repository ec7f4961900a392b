"""Fixtures of the keeper's browser test: a real ``ohhell serve`` on a free port and a temporary database, and
Debian's Chromium (never a downloaded browser)."""

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


@pytest.fixture(scope="module")
def keeper_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """``ohhell serve`` on a SQLite file of its own, for this module's tests."""
    folder = tmp_path_factory.mktemp("keeper-server")
    running = RunningServer(f"sqlite:///{folder / 'sheets.sqlite3'}", log_path=folder / "server.log").start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium with the flags a container needs."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI needs Debian's chromium (apt-get install chromium): .ci/run installs it")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_FLAGS}
