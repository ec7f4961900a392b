"""Golden game records: hand-built records whose results were worked out by hand from the seeds and RULES.md.

Each ``tests/golden/<name>.json`` is an ``ohhell-record/1`` record and ``<name>.expected.json`` is exactly the
JSON object ``ohhell check`` must print for it (RECORD.md). The expected files were computed by hand, never by
running the engine, so these tests can fail. Every record is checked through the installed console script, with
a file path and with ``-`` on standard input, and through :func:`ohhell.records.check`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from ohhell import records

GOLDEN = Path(__file__).parent / "golden"
RECORD_KEYS = {"format", "rules", "players", "first_dealer", "deals"}
DEAL_KEYS = {"hands", "turn_up", "actions"}
RESULT_KEYS = {"complete", "deals", "totals", "winners"}
DEAL_RESULT_KEYS = {"dealer", "cards", "trump", "bids", "tricks", "points"}

# Every scenario the golden set must keep (more may be added).
REQUIRED = {
    "seed002_worked_hand",
    "seed002_trick_example",
    "preset_full",
    "preset_down_only",
    "preset_short",
    "preset_up_and_down",
    "preset_traditional",
    "preset_magicians",
    "magicians_specials",
    "magicians_full_pack",
    "scoring_tricks_plus_10",
    "scoring_5_plus_bid",
    "scoring_magicians",
    "scoring_miss_penalty",
    "scoring_tricks_plus_10_miss_penalty",
    "scoring_zero_bid_bonus_tricks_plus_10",
    "scoring_zero_bid_bonus_10_plus_bid",
    "tie_winners",
    "trump_rotation",
    "first_lead_dealer",
    "hook_off",
    "card_text_ten",
    "partial_no_deals",
    "partial_mid_bidding",
    "partial_mid_play",
    "partial_magician_trump_pending",
}


def ohhell_command() -> str:
    """The installed ``ohhell`` console script of the running virtualenv."""
    beside = Path(sys.executable).parent / "ohhell"
    if beside.exists():
        return str(beside)
    found = shutil.which("ohhell")
    if found is None:  # pragma: no cover - only on a broken install
        pytest.fail("the ohhell console script is not installed")
    return found


def golden_names() -> list[str]:
    return sorted(p.name.removesuffix(".json") for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


def expected_of(name: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    return result


RunKey = tuple[str, str]
"""A run of ``ohhell check``: (golden name, "file" or "stdin")."""

# Its console-script runs are started all at once for the whole module: under pytest-xdist it stays on one worker.
pytestmark = pytest.mark.xdist_group("golden_records")

_RUNS: dict[RunKey, tuple[int, bytes, bytes]] = {}
"""Console script runs, done ahead in parallel by :func:`_prefetch_cli_runs`."""


def _run_cli(key: RunKey) -> tuple[int, bytes, bytes]:
    name, how = key
    path = GOLDEN / f"{name}.json"
    if how == "file":
        command, stdin = [ohhell_command(), "check", str(path)], None
    else:
        command, stdin = [ohhell_command(), "check", "-"], path.read_bytes()
    proc = subprocess.run(command, input=stdin, capture_output=True, timeout=120, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def run_check(name: str, how: str) -> tuple[int, Any]:
    """Exit status and parsed output of ``ohhell check`` on golden record ``name`` (``how``: file or stdin)."""
    key = (name, how)
    if key not in _RUNS:
        _RUNS[key] = _run_cli(key)
    status, out, err = _RUNS[key]
    lines = out.decode().strip().splitlines()
    assert len(lines) == 1, f"ohhell check must print one JSON object on one line, got {out!r} / {err!r}"
    return status, json.loads(lines[0])


@pytest.fixture(scope="module", autouse=True)
def _prefetch_cli_runs(request: pytest.FixtureRequest) -> None:
    """Start the console script for every selected run of this module at once (each start costs a few tenths)."""
    wanted: set[RunKey] = set()
    for item in request.session.items:
        if isinstance(item, pytest.Function) and item.module is request.module and hasattr(item, "callspec"):
            how = {"test_check_file": "file", "test_check_stdin": "stdin"}.get(item.originalname)
            name = item.callspec.params.get("name")
            if how is not None and isinstance(name, str):
                wanted.add((name, how))
    todo = sorted(wanted - set(_RUNS))
    with ThreadPoolExecutor(max_workers=max(2, min(8, os.cpu_count() or 2))) as pool:
        for key, run in zip(todo, pool.map(_run_cli, todo), strict=True):
            _RUNS[key] = run


def test_golden_set_is_complete() -> None:
    names = set(golden_names())
    assert names >= REQUIRED, f"missing golden records: {sorted(REQUIRED - names)}"
    for name in names:
        assert (GOLDEN / f"{name}.expected.json").exists(), f"{name} has no expected result"


@pytest.mark.parametrize("name", golden_names())
def test_golden_record_shape(name: str) -> None:
    """The records hold only the fields of RECORD.md (no notes inside a record); results only those of the output."""
    record = json.loads((GOLDEN / f"{name}.json").read_text())
    assert record["format"] == "ohhell-record/1"
    assert set(record) <= RECORD_KEYS
    for deal in record["deals"]:
        assert set(deal) == DEAL_KEYS
    expected = expected_of(name)
    assert set(expected) == RESULT_KEYS
    for deal in expected["deals"]:
        assert set(deal) == DEAL_RESULT_KEYS


@pytest.mark.parametrize("name", golden_names())
def test_check_file(name: str) -> None:
    status, result = run_check(name, "file")
    assert status == 0, result
    assert result == expected_of(name)


@pytest.mark.parametrize("name", golden_names())
def test_check_stdin(name: str) -> None:
    status, result = run_check(name, "stdin")
    assert status == 0, result
    assert result == expected_of(name)


@pytest.mark.parametrize("name", golden_names())
def test_check_function(name: str) -> None:
    text = (GOLDEN / f"{name}.json").read_text()
    expected = expected_of(name)
    assert records.check(text) == (0, expected)
    assert records.check(text.encode()) == (0, expected)
    assert records.check(json.loads(text)) == (0, expected)


@pytest.mark.parametrize("name", golden_names())
def test_golden_record_survives_a_round_trip(name: str) -> None:
    """Read back and written again with :func:`records.dumps`, a record still checks to the same result."""
    game = records.loads((GOLDEN / f"{name}.json").read_text())
    assert records.check(records.dumps(game)) == (0, expected_of(name))


def test_complete_results_are_consistent() -> None:
    """Sanity of the hand computations themselves: totals add up, winners are every seat on the top total."""
    for name in golden_names():
        expected = expected_of(name)
        finished = [d for d in expected["deals"] if d["points"] is not None]
        players = len(expected["totals"])
        assert expected["totals"] == [sum(d["points"][s] for d in finished) for s in range(players)], name
        if expected["complete"]:
            top = max(expected["totals"])
            assert expected["winners"] == [s for s, t in enumerate(expected["totals"]) if t == top], name
        else:
            assert expected["winners"] is None, name
        for deal in finished:
            assert sum(deal["tricks"]) == deal["cards"], name
