"""The examples in the server's docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "ohhell.server.database",
    "ohhell.server.messages",
    "ohhell.server.players",
    "ohhell.server.seats",
    "ohhell.server.wording",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
