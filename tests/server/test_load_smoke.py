"""The load benchmark runs, as CI's smoke test: a few games for a few seconds, on one process and on two.

No figure is asserted but that nothing failed: the figures themselves belong in the benchmark's notes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.serving import require_services

BENCH = Path(__file__).parents[2] / "bench" / "web_load.py"
KEYS = {"games", "processes", "moves_acknowledged", "actions_per_second", "ack_ms", "errors", "rss_mb", "cpu_seconds"}


@pytest.mark.parametrize("processes", [1, 2])
def test_the_load_benchmark_plays_its_games_without_errors(tmp_path: Path, processes: int) -> None:
    if processes > 1:
        require_services(redis_too=True)
    out = tmp_path / "load.json"
    command = [
        sys.executable,
        str(BENCH),
        "--games",
        "12",
        "--pace",
        "full",
        "--seconds",
        "6",
        "--settle",
        "1",
        "--processes",
        str(processes),
        "--json",
        str(out),
    ]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=240, check=False)
    assert finished.returncode == 0, finished.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert set(figures) >= KEYS
    assert figures["errors"] == 0, figures["error_kinds"]
    assert figures["processes"] == processes
    assert figures["moves_acknowledged"] > 0
    assert set(figures["ack_ms"]) == {"p50", "p99", "max"}
    assert set(figures["rss_mb"]) == {"start", "peak", "end"}
    assert set(figures["generator_loop_ms"]) == {"p99", "max", "late_20ms"}  # is a figure the generator's own?
    assert figures["cpu_seconds"]["servers"] > 0  # the servers and their quick workers were found and measured
    per_action = figures["per_action"]  # the journal's transactions and the threads' context switches, per action
    assert 0 < per_action["transactions"] <= 1 and per_action["voluntary_switches"] > 0
    assert "traceback" not in finished.stderr.lower()
    # what the servers logged is read and counted; no worker process died
    assert set(figures["server_log"]) == {str(index) for index in range(processes)}
    assert not [line for said in figures["server_log"].values() for line in said if "died" in line]


@pytest.mark.parametrize("processes", [1, 2])
def test_the_load_benchmark_plays_tables_of_several_people_with_no_leak(tmp_path: Path, processes: int) -> None:
    if processes > 1:
        require_services(redis_too=True)
    out = tmp_path / "people.json"
    command = [sys.executable, str(BENCH), "--people", "3", "--games", "4", "--pace", "full", "--seconds", "30"]
    command += ["--settle", "1", "--processes", str(processes), "--json", str(out)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=240, check=False)
    assert finished.returncode == 0, finished.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["errors"] == 0, figures["error_kinds"]
    assert figures["games_finished"] == 4 and figures["leaks"] == 0
    assert figures["sockets_scanned"] == 4 * 4  # three people and a spectator at each table


def test_the_journal_transactions_benchmark_measures_each_size() -> None:
    """bench/journal_transactions.py (what one transaction costs on PostgreSQL) runs and prints a row a size."""
    require_services()
    bench = BENCH.parent / "journal_transactions.py"
    command = [sys.executable, str(bench), "--sizes", "1", "3", "--batches", "5", "--rounds", "1"]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert finished.returncode == 0, finished.stderr[-3000:]
    rows = [row for row in (line.split() for line in finished.stdout.splitlines()) if row[4:5] and row[4][-1] == "x"]
    assert [row[0] for row in rows] == ["1", "3"]
    assert rows[0][4] == "1.00x"  # the first size is the reference


def test_the_loop_watch_cost_benchmark_measures_each_load() -> None:
    """bench/loop_watch_cost.py (what the loop watch costs a process) runs and prints a row for each load."""
    bench = BENCH.parent / "loop_watch_cost.py"
    command = [sys.executable, str(bench), "--seconds", "0.3", "--rounds", "1"]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert finished.returncode == 0, finished.stderr[-3000:]
    rows = [line.split() for line in finished.stdout.splitlines() if line.rstrip().endswith("ms/s")]
    assert [row[0] for row in rows] == ["idle", "light"]


def test_the_load_benchmark_times_single_callbacks_on_asyncios_loop(tmp_path: Path) -> None:
    """``--time-callbacks``: the server runs on asyncio's loop (``ohhell serve --time-callbacks``) and the figures
    hold its single callbacks, the longest of them by name (ohhell.site.callbacktimes)."""
    out = tmp_path / "callbacks.json"
    command = [sys.executable, str(BENCH), "--games", "6", "--pace", "full", "--seconds", "4", "--settle", "0"]
    command += ["--time-callbacks", "--json", str(out)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=240, check=False)
    assert finished.returncode == 0, finished.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["errors"] == 0, figures["error_kinds"]
    callbacks = figures["loop"]["callbacks"]
    assert callbacks["callbacks"] > figures["moves_acknowledged"]  # each move takes several callbacks
    assert callbacks["held_max_ms"] >= callbacks["longest"][0]["held_ms"] > 0
    assert callbacks["held_max_ms_by_minute"] and figures["minutes"][0]["callback_held_max_ms"] is not None
    assert "single callbacks (asyncio loop)" in finished.stdout
