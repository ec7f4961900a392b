"""The examples in the docstrings run, against the package as installed (compiled or not).

Compiled modules keep no function docstrings for :mod:`doctest` to find, so the
docstrings are read from the source files with :mod:`ast` and run in the
namespace of the imported module.
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

import ohhell

SOURCE = Path(ohhell.__file__).parent
MODULES = sorted(
    {
        ".".join(("ohhell", *path.relative_to(SOURCE).with_suffix("").parts)).removesuffix(".__init__"): path
        for path in SOURCE.rglob("*.py")
        if "migrations" not in path.parts  # Alembic scripts run only inside Alembic
    }.items()
)


def docstrings(tree: ast.Module) -> list[tuple[str, int]]:
    """Every docstring of a module with the line it starts on."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text and ">>>" in text:
                found.append((text, node.body[0].lineno if node.body else 0))
    return found


@pytest.mark.parametrize(("name", "path"), MODULES, ids=[name for name, _ in MODULES])
def test_docstring_examples_run(name: str, path: Path) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    parser = doctest.DocTestParser()
    for text, line in docstrings(ast.parse(path.read_text())):
        runner.run(parser.get_doctest(text, dict(vars(module)), name, str(path), line))
    assert runner.failures == 0, f"{runner.failures} docstring example(s) of {name} failed (see the output above)"
