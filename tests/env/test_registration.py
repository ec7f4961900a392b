"""``import ohhell.env`` is enough for ``gymnasium.make("ohhell/Solo-v0")``, and imports no Gymnasium itself."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import pytest

from ohhell.env.registration import SOLO_ID, register

MAKE_AND_PLAY = """
import gymnasium
from ohhell.env.solo import SoloEnv
made = gymnasium.make("ohhell/Solo-v0", preset="short", players=4, levels="easy", seat=1)
observation, info = made.reset(seed=0)
assert isinstance(made.unwrapped, SoloEnv) and info["seat"] == 1, made
assert type(gymnasium.__loader__).__name__ == "SourceFileLoader", gymnasium.__loader__  # the hook left nothing
assert not [f for f in sys.meta_path if type(f).__module__ == "ohhell.env.registration"], sys.meta_path
"""


def run_fresh(code: str, cwd: Path) -> None:
    """``code`` in a new interpreter (this one has imported Gymnasium long ago), every warning an error."""
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "imports",
    [
        "import ohhell.env",
        "import gymnasium\nimport ohhell.env",
        "import ohhell.env\nimport pettingzoo",  # Gymnasium imported by someone else
        "import ohhell.env.solo",
    ],
)
def test_gymnasium_makes_the_solo_env_once_ohhell_env_is_imported(imports: str, tmp_path: Path) -> None:
    run_fresh(f"import sys\n{imports}\n{MAKE_AND_PLAY}", tmp_path)


def test_importing_ohhell_env_does_not_import_gymnasium(tmp_path: Path) -> None:
    run_fresh('import sys, ohhell.env\nassert "gymnasium" not in sys.modules, "gymnasium imported"', tmp_path)


def test_registering_again_changes_nothing_and_warns_nothing() -> None:
    spec = gymnasium.spec(SOLO_ID)  # registered when this process first imported ohhell.env
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register()
    assert gymnasium.spec(SOLO_ID) is spec
    assert spec.entry_point == "ohhell.env.solo:SoloEnv"
