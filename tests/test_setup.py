"""Packaging: the extras install what their modules import, and an editable install runs the sources as edited."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def distribution(requirement: str) -> str:
    """The normalised distribution name of a requirement such as ``gymnasium>=1.4,<1.5``."""
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group()).lower()


def installed_by(*extras: str) -> set[str]:
    """The distributions a plain install with these extras brings (ohhell's own extras followed)."""
    names = {distribution(r) for r in PROJECT["dependencies"]}
    for extra in extras:
        for requirement in PROJECT["optional-dependencies"][extra]:
            if requirement.startswith("ohhell["):
                names |= installed_by(*requirement[len("ohhell[") : requirement.index("]")].split(","))
            else:
                names.add(distribution(requirement))
    return names


def imported_by(*files: Path) -> set[str]:
    """The distributions behind the third-party modules these files import, anywhere in them."""
    modules = set()
    for file in files:
        for node in ast.walk(ast.parse(file.read_text())):
            if isinstance(node, ast.Import):
                modules |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    modules -= {*sys.stdlib_module_names, "ohhell"}
    providers = importlib.metadata.packages_distributions()
    return {distribution(name) for module in modules for name in providers[module]}


@pytest.mark.parametrize(
    ("extras", "files"),
    [
        (("rl",), [*sorted((ROOT / "src/ohhell/env").glob("*.py")), ROOT / "examples/train_solo.py"]),
        (("openspiel",), [ROOT / "src/ohhell/openspiel.py"]),
        ((), sorted((ROOT / "src/ohhell/bots").rglob("*.py"))),  # the players need no extra
        (("train",), sorted((ROOT / "src/ohhell/train").glob("*.py"))),
        (("dev",), [*sorted((ROOT / "src/ohhell/env").glob("*.py")), ROOT / "src/ohhell/openspiel.py"]),
    ],
)
def test_an_extra_installs_everything_its_modules_import(extras: tuple[str, ...], files: list[Path]) -> None:
    assert imported_by(*files) - installed_by(*extras) == set()


def test_an_editable_install_runs_the_sources_as_edited(tmp_path: Path) -> None:
    """Compiled modules beside the sources would shadow them: an editable install compiles none, and removes any."""
    uv = shutil.which("uv", path=Path(sys.executable).parent) or shutil.which("uv")  # tools/setup-venv.sh has it
    if uv is None:
        pytest.skip("uv is not installed")
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tree / name)
    leftovers = [tree / "src/ohhell/cards.cpython-311-x86_64-linux-gnu.so", tree / "src/ab12__mypyc.cpython-311.so"]
    for leftover in leftovers:
        leftover.write_bytes(b"")  # as an earlier compiled editable install left them (an empty file cannot load)
    venv = tmp_path / "venv"
    subprocess.run([uv, "venv", "--quiet", "--python", sys.executable, venv], check=True, timeout=120)
    python = venv / "bin/python"
    install: list[str | Path] = [uv, "pip", "install", "--quiet", "--python", python, "--no-deps", "--editable", tree]
    subprocess.run(install, check=True, timeout=300, capture_output=True)
    assert sorted(tree.rglob("*.so")) == []
    with (tree / "src/ohhell/cards.py").open("a") as cards:
        cards.write("\nEDITED_AFTER_INSTALL = True\n")
    check = "import ohhell.cards as cards; print(cards.__file__, cards.EDITED_AFTER_INSTALL)"
    result = subprocess.run([python, "-c", check], capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.split() == [str(tree / "src/ohhell/cards.py"), "True"]
