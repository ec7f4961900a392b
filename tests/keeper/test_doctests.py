"""The examples in the score keeper's docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "ohhell.keeper",
    "ohhell.keeper.sheet",
    "ohhell.keeper.trump",
    "ohhell.keeper.printable",
    "ohhell.keeper.files",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
