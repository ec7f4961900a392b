"""Debian's Chromium for the browser tests (never a downloaded browser), with the flags a container needs."""

from __future__ import annotations

from pathlib import Path
from typing import Final

CHROMIUM: Final = Path("/usr/bin/chromium")
CHROMIUM_FLAGS: Final = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
