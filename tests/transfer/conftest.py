"""The transfer's tests use the game's running server (and run their browser test last, as the game's do)."""

from __future__ import annotations

from server.conftest import pytest_collection_modifyitems, server

__all__ = ["pytest_collection_modifyitems", "server"]
