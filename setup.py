"""Compile the engine's hot modules with mypyc when building the wheel.

The modules stay plain, typed Python: with ``OHHELL_PURE=1`` in the environment, or
where no C compiler is at hand, the wheel is pure Python and behaves the same, only slower.

An editable install (``pip install -e .``) is always pure Python. Compiled, it would put
the extension modules beside their sources in ``src/ohhell/``, where Python prefers them
to the ``.py`` files, so later edits of those files would be silently ignored. Such
leftovers of an earlier compiled editable install are deleted when one is made.
"""

import os
import sys
from pathlib import Path

from setuptools import setup

COMPILED = [
    "src/ohhell/cards.py",
    "src/ohhell/actions.py",
    "src/ohhell/deal.py",
    "src/ohhell/dealnumbers.py",
    "src/ohhell/scoring.py",
    "src/ohhell/bots/endgame.py",
    "src/ohhell/bots/ismcts.py",
    "src/ohhell/features.py",
]
EDITABLE_COMMANDS = {"editable_wheel", "develop"}
"""The setuptools commands of an editable install: PEP 660's (pip, uv) and the legacy one."""


def compiled_leftovers(root: Path) -> list[Path]:
    """The extension modules a compiled build in place left in the source tree: one per module, and mypyc's library."""
    shadows = [path for module in COMPILED for path in (root / module).parent.glob(f"{Path(module).stem}.*.so")]
    return shadows + sorted((root / "src").glob("*__mypyc.*.so"))


def native_modules(argv: list[str]) -> list:  # type: ignore[type-arg]
    if os.environ.get("OHHELL_PURE") == "1":
        return []
    if EDITABLE_COMMANDS & set(argv):
        for leftover in compiled_leftovers(Path(__file__).parent):
            leftover.unlink()
        print("ohhell: an editable install is pure Python, so that edits of the sources take effect", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify

        return mypycify(COMPILED, opt_level="3")
    except Exception as exc:  # no compiler, no headers: fall back to pure Python
        print(f"ohhell: building pure Python ({exc})", file=sys.stderr)
        return []


setup(ext_modules=native_modules(sys.argv))
