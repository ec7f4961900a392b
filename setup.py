"""Compile the engine's hot modules with mypyc when building the wheel.

The modules stay plain, typed Python: with ``OHHELL_PURE=1`` in the environment, or
where no C compiler is at hand, the wheel is pure Python and behaves the same, only slower.
"""

import os
import sys

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


def native_modules() -> list:  # type: ignore[type-arg]
    if os.environ.get("OHHELL_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify

        return mypycify(COMPILED, opt_level="3")
    except Exception as exc:  # no compiler, no headers: fall back to pure Python
        print(f"ohhell: building pure Python ({exc})", file=sys.stderr)
        return []


setup(ext_modules=native_modules())
