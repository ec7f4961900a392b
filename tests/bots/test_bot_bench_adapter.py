"""The benchmark's bridge to OpenSpiel's ``oh_hell``: cards, bids and deals mean the same in both engines."""

from __future__ import annotations

import importlib.util
import json
import random
import statistics
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ohhell.actions import BID_BASE
from ohhell.cards import card_text
from ohhell.view import seat_view

pyspiel = pytest.importorskip("pyspiel")

BENCH = Path(__file__).parents[2] / "bench" / "bots.py"


def bench() -> ModuleType:
    """``bench/bots.py``, which is a script, not part of the package."""
    spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def test_every_card_and_bid_maps_both_ways_and_reads_alike() -> None:
    b = bench()
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})
    state = game.new_initial_state()
    state.apply_action(10)
    state.apply_action(0)
    for card in range(52):
        action = b.openspiel_card(card)
        assert b.our_card(action) == card
        text = state.action_to_string(action)  # OpenSpiel writes suit then rank: "H7"
        assert card_text(card) == text[1] + text[0]
    for n in range(11):
        assert b.to_ours(b.to_openspiel(BID_BASE + n)) == BID_BASE + n


def test_the_mirrored_deal_plays_out_to_the_same_scores() -> None:
    b = bench()
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})
    rng = random.Random(0)
    for seed in range(3):
        state = game.new_initial_state()
        outcomes = b.chance_outcomes(seed)
        for action in outcomes:
            state.apply_action(action)
        deal = b.mirror_deal(outcomes)
        while not state.is_terminal():
            player = state.current_player()
            legal = sorted(b.to_ours(a) for a in state.legal_actions())
            assert legal == sorted(seat_view(deal, player).legal_actions)
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            deal.apply(b.to_ours(action), player)
        assert deal.points == [int(r) for r in state.returns()]


def test_a_reference_bot_can_take_our_seat_and_the_engines_still_agree() -> None:
    b = bench()
    result = b.play_openspiel(b.Seating(0, 2, "ismcts-1.5", b.HardSettings(worlds=2), reference="ismcts-4"))
    assert result["seat"] == 2 and len(result["times"]) == 11  # a bid and ten cards, all by the reference
    assert sum(result["tricks"]) == 10


def test_any_level_can_take_our_seat_and_every_decision_is_timed() -> None:
    b = bench()
    result = b.play_openspiel(b.Seating(0, 1, "ismcts-1.5", b.HardSettings(), player="random"))
    assert len(result["times"]) == len(result["cpu_times"]) == 11  # a bid and ten cards
    assert all(t >= 0 for t in result["times"] + result["cpu_times"])
    assert statistics.median(result["cpu_times"]) < 0.01  # the random player's microseconds, not Hard's search
    assert sum(result["tricks"]) == 10


def test_the_strength_run_names_its_player_and_reports_its_decision_times(tmp_path: Path) -> None:
    out = tmp_path / "strength.json"
    command = [sys.executable, str(BENCH), "--parts", "strength", "--player", "random", "--deals", "1"]
    command += ["--opponents", "ismcts-1.5", "--workers", "2", "--json", str(out)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    report = json.loads(out.read_text())
    assert report["player"] == "random"
    row = report["strength"]["ismcts-1.5"]
    assert row["player"] == "random" and row["games"] == 4
    assert row["our_decisions"] == 4 * 11  # every bid and card of ours, from both worker processes
    for spread in (row["our_decision_seconds"], row["our_decision_cpu_seconds"]):
        assert 0 <= spread["median"] <= spread["p95"] <= spread["max"]
    assert row["our_decision_cpu_seconds"]["median"] < 0.01  # the workers built the random player, not Hard
    assert list(row["margin_by_deal"]) == ["0"]
    printed = [line for line in run.stdout.splitlines() if line.startswith("random")]
    assert len(printed) == 1 and "ismcts-1.5" in printed[0]


def test_an_unknown_player_level_is_refused_with_the_known_ones() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH), "--player", "expert"], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 2
    assert "unknown level 'expert'" in run.stderr and "normal" in run.stderr


def test_the_inference_probe_scores_pools_against_the_true_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    bench_dir = str(Path(__file__).parents[2] / "bench")
    sys.path.insert(0, bench_dir)  # bench/inference.py imports bench/bots.py as ``bots``
    try:
        spec = importlib.util.spec_from_file_location("bench_inference", Path(bench_dir) / "inference.py")
        assert spec is not None and spec.loader is not None
        inference = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(inference)
    finally:
        sys.path.remove(bench_dir)
    # Probe every trick our seat leads; seat 1 leads the first trick of deal 100 (dealer 0), so at least that one.
    monkeypatch.setattr(inference, "PROBE_TRICKS", tuple(range(1, 11)))
    game = inference.probe_game((100, 1))
    assert game["bids"][game["seat"]] == game["predicted"]["bid"]
    assert 0.0 <= game["predicted"]["rate"] <= 1.0
    probed = {(trick, name) for trick, name, _ in game["holders"]}
    assert {name for _, name in probed} == set(inference.SCHEMES)
    assert 1 in {trick for trick, _ in probed}
    # Every share lies strictly between nothing known (0) and every hidden card placed right (1).
    for _, _, share in game["holders"]:
        assert 0.0 < share < 1.0
