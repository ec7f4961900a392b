"""``gymnasium.make("ohhell/Solo-v0")`` after ``import ohhell.env``, without importing Gymnasium before it is used.

Gymnasium keeps its registry in the ``gymnasium`` package, so an id can be registered only once that is
imported (about a quarter of a second, which a PettingZoo or OpenSpiel user need not pay).
:func:`register_with_gymnasium` (run by ``import ohhell.env``) therefore registers at once if Gymnasium
is already imported, and otherwise leaves a one-time import hook that registers as soon as anything imports
it: the user's ``import gymnasium``, PettingZoo, or :mod:`ohhell.env.solo`.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Final

SOLO_ID: Final = "ohhell/Solo-v0"
"""The Gymnasium id of :class:`~ohhell.env.solo.SoloEnv` (its keyword arguments go to ``gymnasium.make``)."""


def register() -> None:
    """Register our ids with Gymnasium (importing it), once: a second call changes nothing."""
    import gymnasium

    if SOLO_ID not in gymnasium.registry:
        gymnasium.register(id=SOLO_ID, entry_point="ohhell.env.solo:SoloEnv")


def register_with_gymnasium() -> None:
    """Register now if Gymnasium is imported, else as soon as it is."""
    if "gymnasium" in sys.modules:
        register()
    elif not any(isinstance(finder, _RegisterWhenImported) for finder in sys.meta_path):
        sys.meta_path.insert(0, _RegisterWhenImported())


class _RegisterWhenImported(importlib.abc.MetaPathFinder):
    """Finds ``gymnasium`` as the other finders do, with a loader that calls :func:`register` once it has run."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _ThenRegister(spec.loader)
        return spec


class _ThenRegister(importlib.abc.Loader):
    """Runs the module with its own loader, puts that loader back in the module, then registers."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self.loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self.loader
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        register()
