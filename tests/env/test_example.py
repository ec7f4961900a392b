"""The training example runs end to end on a tiny budget (the real run takes minutes: docs/research.md)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_solo.py"


def load_example(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_solo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "train_solo", module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_example_trains_evaluates_and_draws_its_curve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = load_example(monkeypatch)
    png, figures = tmp_path / "curve.png", tmp_path / "figures.json"
    argv = ["train_solo.py", "--games", "2", "--eval-games", "2", "--png", str(png), "--json", str(figures)]
    monkeypatch.setattr(sys, "argv", argv)
    module.main()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    result = json.loads(figures.read_text())
    assert result["training_games"] == 2 and len(result["curve"]) == 2
    assert set(result) >= {"agent", "random", "normal", "agent_minus_random"}


def test_without_matplotlib_the_example_stops_before_training_and_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = load_example(monkeypatch)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    monkeypatch.setattr(module, "train", lambda *args: pytest.fail("trained without matplotlib"))
    monkeypatch.setattr(sys, "argv", ["train_solo.py", "--games", "1"])
    with pytest.raises(SystemExit, match=r"matplotlib.*rl extra \(pip install '\.\[rl\]'"):
        module.main()
