"""The training path: self-play samples, a fit that lowers its loss and resumes, the whole run on a tiny plan."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from ohhell.bots.learned.features import INPUT_SIZE, OUTCOMES
from ohhell.bots.learned.network import Network
from ohhell.train.fit import FitOptions, fit
from ohhell.train.run import Plan, train
from ohhell.train.selfplay import Generation, Samples, generate, play_and_record, random_deal


def test_self_play_rows_are_labelled_with_the_tricks_the_seat_went_on_to_take() -> None:
    rng = random.Random(4)
    deal = random_deal(rng)
    rows, targets, bids = play_and_record(deal, Generation().player(), rng)
    assert len(rows) == len(targets) == len(bids) > 0
    assert all(row.shape == (INPUT_SIZE,) for row in rows)
    assert all(0 <= t <= deal.size for t in targets)
    bid_targets = [t for t, b in zip(targets, bids, strict=True) if b]
    if len(bid_targets) == deal.players:  # every seat had a choice of bids: each row's target is all it took
        assert sorted(bid_targets) == sorted(deal.tricks_won)


def test_the_same_seed_gives_the_same_samples() -> None:
    one, two = generate(Generation(), 6, seed=9), generate(Generation(), 6, seed=9)
    assert np.array_equal(one.inputs, two.inputs)
    assert np.array_equal(one.targets, two.targets)
    assert not np.array_equal(generate(Generation(), 6, seed=10).targets[:20], one.targets[:20])


def test_hard_can_make_a_generation_repeatably_and_a_plan_says_from_when(tmp_path: Path) -> None:
    hard = Generation(search=60)
    assert hard.player().level == "hard"
    one, two = generate(hard, 2, seed=5), generate(hard, 2, seed=5)
    assert len(one) > 0
    assert np.array_equal(one.inputs, two.inputs)  # an iteration budget: the machine's speed does not matter
    assert np.array_equal(one.targets, two.targets)
    plan = Plan(search=60, search_from=2)
    assert plan.generation(0, tmp_path).player().level == "counting"
    assert plan.generation(1, tmp_path) == Generation(tmp_path / "bid.npz", tmp_path / "play.npz")
    assert plan.generation(2, tmp_path).search == plan.generation(3, tmp_path).search == 60


def test_a_short_fit_lowers_its_loss_and_goes_on_from_its_checkpoint(tmp_path: Path) -> None:
    samples = generate(Generation(), 60, seed=1).part(False)
    checkpoint = tmp_path / "play.ckpt"
    options = FitOptions(epochs=2, batch=128, held_out=0.2, seed=0, threads=1)
    _, history = fit(samples, options, checkpoint)
    assert len(history.train) == 2
    uniform = float(np.log(OUTCOMES))
    assert history.held_out[-1] < uniform - 0.5  # far better than knowing nothing
    assert history.train[1] < history.train[0]
    more, longer = fit(samples, FitOptions(epochs=4, batch=128, held_out=0.2, seed=0, threads=1), checkpoint)
    assert longer.train[:2] == history.train  # the first two epochs were not done again
    assert len(longer.train) == 4
    assert longer.train[3] < longer.train[0]
    assert isinstance(more, Network) and more.inputs == INPUT_SIZE


def test_the_whole_path_on_a_tiny_plan_writes_networks_a_curve_and_resumes(tmp_path: Path) -> None:
    plan = Plan(generations=2, deals=30, epochs=1, eval_deals=4, workers=1)
    lines: list[str] = []
    record = train(plan, tmp_path, lines.append)
    assert [g["generation"] for g in record["generations"]] == [0, 1]
    for name in ("bid.npz", "play.npz", "curve.png", "progress.json", "gen-1/samples.npz"):
        assert (tmp_path / name).exists()
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert Network.load(tmp_path / "play.npz").meta["generation"] == 1
    before = json.loads((tmp_path / "progress.json").read_text())
    again: list[str] = []
    train(plan, tmp_path, again.append)
    assert again == []  # every step was done: nothing again
    assert json.loads((tmp_path / "progress.json").read_text()) == before
    assert len(Samples.load(tmp_path / "gen-0" / "samples.npz")) > 0


def test_the_learning_example_trains_and_compares_on_a_smoke_plan(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).parents[2]
    command = [sys.executable, str(root / "examples/train_learned.py"), "--folder", str(tmp_path / "run")]
    command += ["--generations", "1", "--deals", "30", "--epochs", "1", "--games", "1", "--workers", "1"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True).stdout
    assert "the networks just trained:" in out
    assert "the counting player:" in out
    assert (tmp_path / "run" / "curve.png").exists()
