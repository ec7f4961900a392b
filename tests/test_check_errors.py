"""``ohhell check`` on records that break the rules or are malformed: every error code of RECORD.md.

Each case runs the installed console script and expects exit status 1 and on standard output exactly one object
``{"error": {"code", "deal", "action", "message"}}`` with the code of RECORD.md's table, the 0-based ``deal`` and
``action`` positions (``null`` where they do not apply) and a message naming the rule. The broken records are
golden records (tests/golden/) with one thing changed, so everything before the fault is known to be legal.

Then the fuzzing: hypothesis feeds mutated golden records (hostile values, fields added and removed, action words
replaced), damaged bytes and random JSON through :func:`ohhell.cli.check_source`, the function the command calls,
and checks that every answer is one JSON object: a result, or an error whose code is in docs/records.md's table.
Hostile inputs found that way (a ``deal_number`` out of range printed a traceback) and files that cannot be read
are also run as real commands.
"""

from __future__ import annotations

import copy
import io
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ohhell import Game, Rules, records
from ohhell.cli import check_source

GOLDEN = Path(__file__).parent / "golden"


def ohhell_command() -> str:
    """The installed ``ohhell`` console script of the running virtualenv."""
    beside = Path(sys.executable).parent / "ohhell"
    if beside.exists():
        return str(beside)
    found = shutil.which("ohhell")
    if found is None:  # pragma: no cover - only on a broken install
        pytest.fail("the ohhell console script is not installed")
    return found


# Its console-script runs are started all at once for the whole module: under pytest-xdist it stays on one worker.
pytestmark = pytest.mark.xdist_group("check_errors")

_RUNS: dict[bytes, tuple[int, bytes, bytes]] = {}
"""``ohhell check -`` runs by standard input, done ahead in parallel by :func:`_prefetch_cli_runs`."""


def _run_cli(stdin: bytes) -> tuple[int, bytes, bytes]:
    proc = subprocess.run([ohhell_command(), "check", "-"], input=stdin, capture_output=True, timeout=120, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def run_check_stdin(stdin: bytes) -> tuple[int, Any]:
    """Exit status and parsed output of ``ohhell check -`` fed ``stdin``."""
    if stdin not in _RUNS:
        _RUNS[stdin] = _run_cli(stdin)
    status, out, err = _RUNS[stdin]
    lines = out.decode().strip().splitlines()
    assert len(lines) == 1, f"one JSON object on one line expected, got {out!r} / {err!r}"
    return status, json.loads(lines[0])


@pytest.fixture(scope="module", autouse=True)
def _prefetch_cli_runs(request: pytest.FixtureRequest) -> None:
    """Start the console script for every selected case of this module at once (each start costs a few tenths)."""
    wanted: set[bytes] = set()
    for item in request.session.items:
        if isinstance(item, pytest.Function) and item.module is request.module and hasattr(item, "callspec"):
            record = item.callspec.params.get("record")
            if isinstance(record, (dict, bytes)):
                wanted.add(payload(record))
    todo = [p for p in wanted if p not in _RUNS]
    with ThreadPoolExecutor(max_workers=max(2, min(8, os.cpu_count() or 2))) as pool:
        for stdin, run in zip(todo, pool.map(_run_cli, todo), strict=True):
            _RUNS[stdin] = run


@cache
def _golden_text(name: str) -> str:
    return (GOLDEN / f"{name}.json").read_text()


def golden(name: str) -> dict[str, Any]:
    """A fresh copy of a golden record, to break."""
    record: dict[str, Any] = json.loads(_golden_text(name))
    return record


def actions(record: dict[str, Any], deal: int) -> list[Any]:
    result: list[Any] = record["deals"][deal]["actions"]
    return result


def replaced(name: str, deal: int, index: int, action: Any) -> dict[str, Any]:
    """Golden record ``name`` with action ``index`` of deal ``deal`` replaced."""
    record = golden(name)
    actions(record, deal)[index] = action
    return record


def inserted(name: str, deal: int, index: int, action: Any) -> dict[str, Any]:
    """Golden record ``name`` with ``action`` inserted before action ``index`` of deal ``deal``."""
    record = golden(name)
    actions(record, deal).insert(index, action)
    return record


def changed(name: str, path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """Golden record ``name`` with the field at ``path`` set to ``value``."""
    record = golden(name)
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return record


def removed(name: str, path: tuple[Any, ...]) -> dict[str, Any]:
    """Golden record ``name`` without the field at ``path``."""
    record = golden(name)
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return record


def with_rules(rules: Any) -> dict[str, Any]:
    """A record with no deals under ``rules`` (so only the rules can be at fault)."""
    return {"format": "ohhell-record/1", "rules": rules, "first_dealer": 0, "deals": []}


def extra_deal(name: str) -> dict[str, Any]:
    """Golden record ``name`` (a complete game) with a copy of its last deal added."""
    record = golden(name)
    record["deals"].append(copy.deepcopy(record["deals"][-1]))
    return record


def played_record(rules: Rules, seed: int) -> dict[str, Any]:
    """A complete game played with random legal actions, as a record."""
    rng = random.Random(seed)
    game = Game(rules, number=seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return records.to_record(game)


def schedule_overrun(rules: Rules, seed: int) -> dict[str, Any]:
    record = played_record(rules, seed)
    record["deals"].append(copy.deepcopy(record["deals"][-1]))
    return record


def unfinished_then_another() -> dict[str, Any]:
    """Two deals under a two-deal schedule where the first stops before its last card."""
    return changed("tie_winners", ("deals", 0, "actions"), golden("tie_winners")["deals"][0]["actions"][:-1])


def payload(record: dict[str, Any] | bytes) -> bytes:
    return record if isinstance(record, bytes) else json.dumps(record).encode()


# The seed 002 worked hand (tests/golden/seed002_worked_hand.json), 4 players, East (seat 3) deals, spades trump:
#   hands  0: AH 2D 4C 6C   1: 3H AD KC QC   2: 4H 3D 2C 5C   3: 5H 4D 3C 3S   turned 2S
#   0 "0 bid 1"  1 "1 bid 2"  2 "2 bid 0"  3 "3 bid 0"
#   4-7 "0 play AH" "1 play 3H" "2 play 4H" "3 play 5H"      8-11 "0 play 2D" "1 play AD" "2 play 3D" "3 play 4D"
#   12-15 "1 play KC" "2 play 2C" "3 play 3C" "0 play 4C"   16-19 "1 play QC" "2 play 5C" "3 play 3S" "0 play 6C"
W = "seed002_worked_hand"
# preset_full: deal 1 (9 cards, dealer 3): "0 bid 4" "1 bid 1" "2 bid 0" "3 bid 3", then "0 play AS" ...
F = "preset_full"
# preset_traditional (3 players, until-next): deal 0 (dealer 2): 0 "0 bid 2" 1 "0 change 3" 2 "1 bid 4"
#   3 "1 change 3" 4 "2 bid 2" 5 "2 change 3" 6 "0 play AS" ...; deal 1 (dealer 0): "1 bid 4" "1 change 5"
#   "2 bid 2" "0 bid 1" ...
T = "preset_traditional"
# magicians_specials: deal 0 (dealer 0, diamonds): bids 0-3, 4-7 "1 play MG" "2 play 5H" "3 play MG" "0 play 2C",
#   8-11 "1 play JE" "2 play 6S" "3 play 7S" "0 play 8S" (3 also holds AH, 0 also holds 3H);
#   deal 1: a Magician is turned, 0 "1 trump H" 1 "2 bid 1" ...; deal 2: four Jesters in hands.
M = "magicians_specials"

Case = Any  # a pytest.param

CASES: list[Case] = [
    # ------------------------------------------------------------------ bad-record
    pytest.param(b"not JSON at all", "bad-record", None, None, ["json"], id="bad-record-not-json"),
    pytest.param(b"", "bad-record", None, None, ["json"], id="bad-record-empty-input"),
    pytest.param(b'{"format": "ohhell-record/1", "rules": ', "bad-record", None, None, ["json"], id="bad-record-cut"),
    pytest.param(b"\xff\xfe\x00{", "bad-record", None, None, [], id="bad-record-not-utf8"),
    pytest.param(b"[1, 2, 3]", "bad-record", None, None, [], id="bad-record-array"),
    pytest.param(b'"full"', "bad-record", None, None, [], id="bad-record-string"),
    pytest.param(changed(W, ("format",), "ohhell-record/2"), "bad-record", None, None, ["format"], id="bad-format"),
    pytest.param(removed(W, ("rules",)), "bad-record", None, None, ["rules"], id="bad-record-no-rules"),
    pytest.param(removed(W, ("first_dealer",)), "bad-record", None, None, ["first_dealer"], id="no-first-dealer"),
    pytest.param(removed(W, ("deals",)), "bad-record", None, None, ["deals"], id="bad-record-no-deals"),
    pytest.param(changed(W, ("rules",), 5), "bad-record", None, None, ["rules"], id="bad-record-rules-number"),
    pytest.param(changed(W, ("first_dealer",), "3"), "bad-record", None, None, ["first_dealer"], id="dealer-text"),
    pytest.param(changed(W, ("first_dealer",), True), "bad-record", None, None, ["first_dealer"], id="dealer-bool"),
    pytest.param(changed(W, ("first_dealer",), 1.5), "bad-record", None, None, ["first_dealer"], id="dealer-float"),
    pytest.param(changed(W, ("deals",), {"0": {}}), "bad-record", None, None, ["deals"], id="deals-object"),
    pytest.param(changed(W, ("players",), "You West"), "bad-record", None, None, ["players"], id="players-text"),
    pytest.param(changed(W, ("players",), ["You", 1, "N", "E"]), "bad-record", None, None, ["players"], id="name-int"),
    pytest.param(changed(W, ("deals", 0), ["AS"]), "bad-record", 0, None, ["deal 0"], id="deal-not-object"),
    pytest.param(removed(W, ("deals", 0, "hands")), "bad-record", 0, None, ["hands"], id="deal-no-hands"),
    pytest.param(removed(W, ("deals", 0, "turn_up")), "bad-record", 0, None, ["turn_up"], id="deal-no-turn-up"),
    pytest.param(removed(W, ("deals", 0, "actions")), "bad-record", 0, None, ["actions"], id="deal-no-actions"),
    pytest.param(removed(F, ("deals", 1, "hands")), "bad-record", 1, None, ["hands"], id="deal-1-no-hands"),
    pytest.param(changed(W, ("deals", 0, "hands"), "AH 2D"), "bad-record", 0, None, ["hands"], id="hands-text"),
    pytest.param(
        changed(W, ("deals", 0, "hands", 2), "4H 3D 2C 5C"), "bad-record", 0, None, ["hand 2"], id="hand-text"
    ),
    pytest.param(changed(W, ("deals", 0, "hands", 1, 0), 3), "bad-record", 0, None, [], id="card-number"),
    pytest.param(changed(W, ("deals", 0, "turn_up"), 7), "bad-record", 0, None, ["turn_up"], id="turn-up-number"),
    pytest.param(changed(W, ("deals", 0, "actions"), "0 bid 1"), "bad-record", 0, None, ["actions"], id="acts-text"),
    pytest.param(replaced(W, 0, 2, 0), "bad-record", 0, 2, [], id="action-number"),
    pytest.param(replaced(W, 0, 0, ["0", "bid", "1"]), "bad-record", 0, 0, [], id="action-list"),
    pytest.param(replaced(W, 0, 0, "0 bid"), "bad-record", 0, 0, ["bid"], id="action-two-words"),
    pytest.param(replaced(W, 0, 0, "0 bid one"), "bad-record", 0, 0, ["one"], id="bid-not-number"),
    pytest.param(replaced(W, 0, 1, "West bid 2"), "bad-record", 0, 1, ["seat"], id="seat-not-number"),
    pytest.param(replaced(F, 1, 5, "1 play 5S now"), "bad-record", 1, 5, [], id="action-four-words-deal-1"),
    # ------------------------------------------------------------------ bad-rules
    pytest.param(with_rules("fuller"), "bad-rules", None, None, ["fuller"], id="unknown-preset-name"),
    pytest.param(with_rules({"preset": "oh-pshaw"}), "bad-rules", None, None, ["oh-pshaw"], id="unknown-preset"),
    pytest.param(with_rules({"preset": "full", "jokers": True}), "bad-rules", None, None, ["jokers"], id="unknown-opt"),
    pytest.param(
        changed(W, ("rules", "blind_bids"), True), "bad-rules", None, None, ["blind_bids"], id="unknown-option-w"
    ),
    pytest.param(
        with_rules({"preset": "magicians", "players": 7}), "bad-rules", None, None, ["7"], id="magicians-7-players"
    ),
    pytest.param(
        with_rules({"preset": "full", "players": 7, "special_cards": True}),
        "bad-rules",
        None,
        None,
        ["7"],
        id="special-cards-7-players",
    ),
    pytest.param(with_rules({"preset": "full", "players": 2}), "bad-rules", None, None, ["2"], id="two-players"),
    pytest.param(with_rules({"preset": "short", "players": 8}), "bad-rules", None, None, ["8"], id="eight-players"),
    pytest.param(
        with_rules({"preset": "full", "schedule": "zigzag"}), "bad-rules", None, None, ["zigzag"], id="schedule-name"
    ),
    pytest.param(with_rules({"preset": "full", "schedule": [2, 0]}), "bad-rules", None, None, [], id="schedule-zero"),
    pytest.param(with_rules({"preset": "full", "schedule": []}), "bad-rules", None, None, [], id="schedule-empty"),
    pytest.param(
        with_rules({"preset": "full", "players": 4, "schedule": [14]}), "bad-rules", None, None, ["14"], id="14-cards"
    ),
    pytest.param(
        with_rules({"preset": "magicians", "players": 6, "schedule": [11]}), "bad-rules", None, None, [], id="66-cards"
    ),
    pytest.param(
        with_rules({"preset": "full", "scoring": "10+tricks"}), "bad-rules", None, None, ["scoring"], id="scoring"
    ),
    pytest.param(
        with_rules({"preset": "full", "bid_changes": "always"}), "bad-rules", None, None, ["bid_changes"], id="changes"
    ),
    pytest.param(
        with_rules({"preset": "full", "first_lead": "right"}), "bad-rules", None, None, ["first_lead"], id="first-lead"
    ),
    pytest.param(with_rules({"preset": "full", "trump": "random"}), "bad-rules", None, None, ["trump"], id="trump"),
    pytest.param(
        with_rules({"preset": "full", "trump": {"rotation": ["S", "X"]}}), "bad-rules", None, None, [], id="rotation"
    ),
    # ------------------------------------------------------------------ bad-deal
    pytest.param(
        changed(W, ("deals", 0, "hands", 0), ["AH", "2D", "4C"]), "bad-deal", 0, None, ["4"], id="hand-too-small"
    ),
    pytest.param(
        changed(
            W, ("deals", 0, "hands"), [["AH", "2D", "4C"], ["3H", "AD", "KC"], ["4H", "3D", "2C"], ["5H", "4D", "3C"]]
        ),
        "bad-deal",
        0,
        None,
        ["4"],
        id="all-hands-wrong-size",
    ),
    pytest.param(
        changed(
            W, ("deals", 0, "hands"), [["AH", "2D", "4C", "6C"], ["3H", "AD", "KC", "QC"], ["4H", "3D", "2C", "5C"]]
        ),
        "bad-deal",
        0,
        None,
        ["3"],
        id="three-hands-for-four",
    ),
    pytest.param(
        changed(F, ("deals", 1, "hands"), golden(F)["deals"][0]["hands"]),
        "bad-deal",
        1,
        None,
        ["9"],
        id="deal-1-has-deal-0-size",
    ),
    pytest.param(changed(W, ("deals", 0, "hands", 1, 3), "AH"), "bad-deal", 0, None, ["twice"], id="card-in-two-hands"),
    pytest.param(
        changed(W, ("deals", 0, "hands", 0), ["AH", "AH", "4C", "6C"]), "bad-deal", 0, None, ["twice"], id="card-twice"
    ),
    pytest.param(changed(W, ("deals", 0, "hands", 0, 1), "1X"), "bad-deal", 0, None, ["1x"], id="unknown-card"),
    pytest.param(changed(W, ("deals", 0, "hands", 0, 1), "MG"), "bad-deal", 0, None, ["magician"], id="mg-no-special"),
    pytest.param(changed(W, ("deals", 0, "turn_up"), "ZZ"), "bad-deal", 0, None, ["zz"], id="unknown-turned-card"),
    pytest.param(changed(W, ("deals", 0, "turn_up"), "AH"), "bad-deal", 0, None, ["turned"], id="turned-card-held"),
    pytest.param(changed(W, ("deals", 0, "turn_up"), None), "bad-deal", 0, None, ["turn"], id="turned-card-missing"),
    pytest.param(changed(F, ("deals", 1, "turn_up"), "AD"), "bad-deal", 1, None, ["turned"], id="deal-1-turned-held"),
    pytest.param(
        changed("preset_magicians", ("deals", 0, "turn_up"), None), "bad-deal", 0, None, [], id="magicians-no-turn"
    ),
    pytest.param(
        changed("magicians_full_pack", ("deals", 1, "turn_up"), "MG"), "bad-deal", 1, None, [], id="turned-none-left"
    ),
    pytest.param(changed(M, ("deals", 2, "turn_up"), "JE"), "bad-deal", 2, None, ["jester"], id="fifth-jester"),
    pytest.param(
        changed(M, ("deals", 0, "hands", 0), ["MG", "MG", "MG"]), "bad-deal", 0, None, ["magician"], id="five-magicians"
    ),
    pytest.param(
        changed("trump_rotation", ("deals", 0, "turn_up"), "2S"), "bad-deal", 0, None, [], id="turned-under-rotation"
    ),
    pytest.param(
        changed(
            "preset_short",
            ("deals", 0, "hands"),
            [["AH", "2H", "3H", "4H"], ["AS", "2S", "3S", "4S"], ["AD", "2D", "3D", "4D"]],
        ),
        "bad-deal",
        0,
        None,
        ["5"],
        id="short-starts-at-5",
    ),
    pytest.param(
        changed("preset_magicians", ("deals", 0, "hands"), [["AS", "2S"], ["KS", "3S"], ["QS", "4S"], ["JS", "5S"]]),
        "bad-deal",
        0,
        None,
        ["1"],
        id="rising-starts-at-1",
    ),
    # ------------------------------------------------------------------ too-many-deals
    pytest.param(extra_deal("tie_winners"), "too-many-deals", 2, None, ["2"], id="schedule-of-2"),
    pytest.param(extra_deal("preset_short"), "too-many-deals", 9, None, ["9"], id="short-has-9-deals"),
    pytest.param(extra_deal(M), "too-many-deals", 3, None, ["3"], id="magicians-schedule-of-3"),
    pytest.param(
        schedule_overrun(Rules.preset("down-only", players=7), 11),
        "too-many-deals",
        7,
        None,
        ["7"],
        id="down-only-7-players-has-7",
    ),
    pytest.param(
        schedule_overrun(Rules.preset("magicians", players=6), 12),
        "too-many-deals",
        10,
        None,
        ["10"],
        id="rising-6-players-has-10",
    ),
    pytest.param(
        schedule_overrun(Rules.preset("full", players=6), 13),
        "too-many-deals",
        15,
        None,
        ["15"],
        id="full-6-players-has-15",
    ),
    # ------------------------------------------------------------------ not-your-turn
    pytest.param(replaced(W, 0, 0, "1 bid 2"), "not-your-turn", 0, 0, ["seat 1", "seat 0"], id="bid-before-turn"),
    pytest.param(replaced(W, 0, 3, "2 bid 1"), "not-your-turn", 0, 3, ["seat 2", "seat 3"], id="bid-twice"),
    pytest.param(replaced(W, 0, 0, "7 bid 1"), "not-your-turn", 0, 0, ["7"], id="no-such-seat"),
    pytest.param(replaced(W, 0, 4, "3 play 5H"), "not-your-turn", 0, 4, ["seat 3", "seat 0"], id="dealer-leads"),
    pytest.param(replaced(W, 0, 5, "2 play 4H"), "not-your-turn", 0, 5, ["seat 2", "seat 1"], id="play-skips-seat"),
    pytest.param(replaced(W, 0, 12, "2 play 2C"), "not-your-turn", 0, 12, ["seat 2", "seat 1"], id="loser-leads"),
    pytest.param(replaced(F, 1, 4, "1 play 2S"), "not-your-turn", 1, 4, ["seat 1", "seat 0"], id="deal-1-lead"),
    pytest.param(
        replaced("first_lead_dealer", 0, 3, "2 play 3S"),
        "not-your-turn",
        0,
        3,
        ["seat 2", "seat 1"],
        id="dealer-leads-first-under-first-lead-dealer",
    ),
    pytest.param(replaced(M, 1, 0, "2 trump H"), "not-your-turn", 1, 0, ["seat 2", "dealer"], id="trump-by-other"),
    # ------------------------------------------------------------------ unexpected-action
    pytest.param(replaced(W, 0, 3, "3 play 5H"), "unexpected-action", 0, 3, ["bid"], id="play-during-bidding"),
    pytest.param(inserted(W, 0, 0, "3 trump S"), "unexpected-action", 0, 0, ["magician"], id="trump-no-magician"),
    pytest.param(replaced(W, 0, 4, "0 bid 1"), "unexpected-action", 0, 4, ["play"], id="bid-during-play"),
    pytest.param(inserted(W, 0, 20, "0 play AS"), "unexpected-action", 0, 20, [], id="play-after-last-trick"),
    pytest.param(inserted(W, 0, 20, "1 bid 1"), "unexpected-action", 0, 20, [], id="bid-after-last-trick"),
    pytest.param(removed(M, ("deals", 1, "actions", 0)), "unexpected-action", 1, 0, ["trump"], id="bid-before-trump"),
    pytest.param(replaced(M, 1, 0, "1 play 2C"), "unexpected-action", 1, 0, ["trump"], id="play-before-trump"),
    pytest.param(inserted(M, 1, 1, "1 trump S"), "unexpected-action", 1, 1, ["trump"], id="trump-chosen-twice"),
    pytest.param(
        inserted("trump_rotation", 0, 0, "0 trump H"), "unexpected-action", 0, 0, ["trump"], id="trump-under-rotation"
    ),
    # ------------------------------------------------------------------ bid-out-of-range
    pytest.param(replaced(W, 0, 0, "0 bid 5"), "bid-out-of-range", 0, 0, ["5", "4"], id="bid-above-hand"),
    pytest.param(replaced(W, 0, 0, "0 bid -1"), "bid-out-of-range", 0, 0, ["-1"], id="bid-below-zero"),
    pytest.param(replaced(W, 0, 3, "3 bid 9"), "bid-out-of-range", 0, 3, ["9", "4"], id="dealer-bid-above-hand"),
    pytest.param(replaced(F, 1, 0, "0 bid 10"), "bid-out-of-range", 1, 0, ["10", "9"], id="deal-1-bid-10-of-9"),
    pytest.param(replaced(T, 0, 1, "0 change 11"), "bid-out-of-range", 0, 1, ["11", "10"], id="change-above-hand"),
    # ------------------------------------------------------------------ hook
    pytest.param(
        replaced(W, 0, 3, "3 bid 1"), "hook", 0, 3, ["dealer", "seat 3", "bid 1", "4", "tricks"], id="seed002-hook"
    ),
    pytest.param(
        replaced(F, 1, 3, "3 bid 4"), "hook", 1, 3, ["dealer", "seat 3", "bid 4", "9", "tricks"], id="deal-1-hook"
    ),
    pytest.param(
        changed(W, ("deals", 0, "actions"), ["0 bid 2", "1 bid 2", "2 bid 0", "3 bid 0"]),
        "hook",
        0,
        3,
        ["dealer", "seat 3", "bid 0", "4", "tricks"],
        id="hook-forbids-zero",
    ),
    pytest.param(
        replaced(T, 0, 5, "2 change 4"), "hook", 0, 5, ["dealer", "seat 2", "4", "10", "tricks"], id="hook-on-change"
    ),
    pytest.param(
        replaced(T, 0, 4, "2 bid 4"), "hook", 0, 4, ["dealer", "seat 2", "bid 4", "10", "tricks"], id="hook-traditional"
    ),
    # ------------------------------------------------------------------ bid-change-not-allowed
    pytest.param(inserted(W, 0, 1, "0 change 2"), "bid-change-not-allowed", 0, 1, ["change"], id="change-final"),
    pytest.param(inserted(F, 1, 4, "3 change 2"), "bid-change-not-allowed", 1, 4, ["change"], id="dealer-final"),
    pytest.param(
        inserted(T, 0, 3, "0 change 1"), "bid-change-not-allowed", 0, 3, ["change"], id="change-after-left-bid"
    ),
    pytest.param(
        inserted(T, 0, 6, "1 change 4"), "bid-change-not-allowed", 0, 6, ["change"], id="change-after-dealer-bid"
    ),
    pytest.param(
        inserted(T, 0, 7, "2 change 2"), "bid-change-not-allowed", 0, 7, ["change"], id="dealer-change-after-card"
    ),
    pytest.param(inserted(T, 0, 0, "1 change 2"), "bid-change-not-allowed", 0, 0, ["change"], id="change-before-bid"),
    pytest.param(
        inserted(T, 0, 4, "2 change 2"), "bid-change-not-allowed", 0, 4, ["change"], id="dealer-change-before-bid"
    ),
    pytest.param(inserted(T, 1, 3, "1 change 4"), "bid-change-not-allowed", 1, 3, ["change"], id="deal-1-window"),
    # ------------------------------------------------------------------ card-not-in-hand
    pytest.param(replaced(W, 0, 4, "0 play KC"), "card-not-in-hand", 0, 4, ["seat 0"], id="card-of-another-seat"),
    pytest.param(replaced(W, 0, 8, "0 play AH"), "card-not-in-hand", 0, 8, ["seat 0"], id="card-already-played"),
    pytest.param(replaced(W, 0, 4, "0 play 2S"), "card-not-in-hand", 0, 4, ["seat 0"], id="the-turned-card"),
    pytest.param(replaced(W, 0, 4, "0 play 10S"), "card-not-in-hand", 0, 4, ["seat 0"], id="card-in-nobodys-hand"),
    pytest.param(replaced(W, 0, 4, "0 play MG"), "card-not-in-hand", 0, 4, ["seat 0"], id="magician-in-plain-game"),
    pytest.param(replaced(M, 0, 5, "2 play MG"), "card-not-in-hand", 0, 5, ["seat 2"], id="magician-not-held"),
    pytest.param(replaced(M, 0, 4, "1 play 5H"), "card-not-in-hand", 0, 4, ["seat 1"], id="special-holder-suit"),
    # ------------------------------------------------------------------ must-follow-suit
    pytest.param(
        replaced(W, 0, 5, "1 play AD"), "must-follow-suit", 0, 5, ["seat 1", "follow", "hearts"], id="off-suit"
    ),
    pytest.param(
        replaced(W, 0, 7, "3 play 3S"), "must-follow-suit", 0, 7, ["seat 3", "follow", "hearts"], id="trump-not-free"
    ),
    pytest.param(
        replaced(F, 1, 9, "1 play AH"), "must-follow-suit", 1, 9, ["seat 1", "follow", "spades"], id="deal-1-follow"
    ),
    pytest.param(
        replaced(M, 0, 10, "3 play AH"),
        "must-follow-suit",
        0,
        10,
        ["seat 3", "follow", "spades"],
        id="suit-after-led-jester",
    ),
    pytest.param(
        replaced(M, 0, 11, "0 play 3H"),
        "must-follow-suit",
        0,
        11,
        ["seat 0", "follow", "spades"],
        id="suit-after-led-jester-last-seat",
    ),
    pytest.param(
        replaced(T, 0, 7, "1 play AD"), "must-follow-suit", 0, 7, ["seat 1", "follow", "spades"], id="traditional"
    ),
]


@pytest.mark.parametrize(("record", "code", "deal", "action", "words"), CASES)
def test_check_reports_the_error(
    record: dict[str, Any] | bytes, code: str, deal: int | None, action: int | None, words: list[str]
) -> None:
    status, result = run_check_stdin(payload(record))
    assert status == 1, result
    assert set(result) == {"error"}, result
    error = result["error"]
    assert set(error) == {"code", "deal", "action", "message"}, error
    assert (error["code"], error["deal"], error["action"]) == (code, deal, action), error
    message = error["message"]
    assert isinstance(message, str)
    assert message.strip(), error
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not in message {message!r}"
    # The Python function answers exactly what the command prints.
    assert records.check(payload(record)) == (1, result)


def test_hook_message_names_the_rule() -> None:
    """The dealer's forbidden bid, worded as in RECORD.md's example."""
    status, result = run_check_stdin(payload(replaced(F, 1, 3, "3 bid 4")))
    assert status == 1
    expected = "the dealer (seat 3) may not bid 4: the bids would total 9, the number of tricks"
    assert result["error"]["message"] == expected


def test_error_from_a_file(tmp_path: Path) -> None:
    """A file path argument reports the same error as standard input."""
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(replaced(W, 0, 3, "3 bid 1")))
    proc = subprocess.run([ohhell_command(), "check", str(path)], capture_output=True, timeout=60, check=False)
    assert proc.returncode == 1
    assert json.loads(proc.stdout) == {
        "error": {
            "code": "hook",
            "deal": 0,
            "action": 3,
            "message": "the dealer (seat 3) may not bid 1: the bids would total 4, the number of tricks",
        }
    }


@pytest.mark.parametrize("dealer_bid", [0, 1, 2, 3, 4])
def test_no_hook_when_the_others_already_bid_more_than_the_tricks(dealer_bid: int) -> None:
    """Others' bids total 5 > 4 tricks: every bid of the dealer is allowed (RULES.md, seed 002)."""
    record = changed(W, ("deals", 0, "actions"), ["0 bid 3", "1 bid 2", "2 bid 0", f"3 bid {dealer_bid}"])
    record["deals"][0]["actions"] += golden(W)["deals"][0]["actions"][4:]
    status, result = records.check(payload(record))
    assert status == 0, result
    assert result["deals"][0]["bids"] == [3, 2, 0, dealer_bid]


@pytest.mark.parametrize("bid", [0, 1, 2, 3, 4])
def test_hook_binds_only_the_dealer(bid: int) -> None:
    """The first three bidders may bid anything; only the dealer's last bid is checked."""
    record = changed(W, ("deals", 0, "actions"), [f"0 bid {bid}", "1 bid 2", "2 bid 0"])
    status, result = run_check_stdin(payload(record)) if bid == 0 else records.check(payload(record))
    assert status == 0, result
    assert result["deals"][0]["bids"] == [bid, 2, 0, None]


def test_records_check_matches_cli_on_every_case_without_subprocess() -> None:
    """Cheap extra: the Python function never answers status 0 for a broken record."""
    for param in CASES:
        record = param.values[0]
        status, result = records.check(payload(record))
        assert status == 1, (param.id, result)
        assert result["error"]["code"] == param.values[1], param.id


@pytest.mark.parametrize(
    "record",
    [
        pytest.param(replaced(W, 0, 0, "0 pass 1"), id="unknown-verb"),
        pytest.param(changed(W, ("rules", "hook"), "yes"), id="option-of-wrong-type"),
        pytest.param(changed(W, ("first_dealer",), 4), id="first-dealer-out-of-range"),
        pytest.param(unfinished_then_another(), id="unfinished-deal-followed-by-another"),
    ],
)
def test_errors_whose_code_record_md_leaves_open(record: dict[str, Any]) -> None:
    """RECORD.md's table does not single out a code for these; they must still fail with status 1."""
    status, result = run_check_stdin(payload(record))
    assert status == 1, result
    assert result["error"]["code"] in {"bad-record", "bad-rules", "bad-deal", "unexpected-action"}, result


def _huge_integer_record() -> bytes:
    text = _golden_text(W).replace('"first_dealer": 3', '"first_dealer": ' + "9" * 5000)
    assert "9" * 5000 in text
    return text.encode()


@pytest.mark.parametrize(
    "stdin",
    [
        pytest.param(b"[" * 100_000 + b"]" * 100_000, id="nested-too-deep"),
        pytest.param(_huge_integer_record(), id="integer-of-5000-digits"),
    ],
)
def test_unparsable_json_is_a_bad_record(stdin: bytes) -> None:
    """RECORD.md: anything that is not a usable JSON record answers bad-record, exit status 1, never a traceback."""
    status, result = run_check_stdin(stdin)
    assert status == 1
    assert result == {
        "error": {"code": "bad-record", "deal": None, "action": None, "message": result["error"]["message"]}
    }


# ---------------------------------------------------------------------------------------------------------- fuzzing
# Whatever it is fed, ``ohhell check`` prints one JSON object: a result, or an error with a code of docs/records.md.

DOCS = Path(__file__).parent.parent / "docs" / "records.md"
GOLDEN_NAMES = sorted(p.stem for p in GOLDEN.glob("*.json") if not p.stem.endswith(".expected"))
RESULT_KEYS = {"complete", "deals", "totals", "winners"}


@cache
def documented_codes() -> frozenset[str]:
    """The error codes of docs/records.md's table (its rows read ``| `code` | meaning |``)."""
    codes = frozenset(re.findall(r"^\| `([a-z-]+)` \|", DOCS.read_text(), re.MULTILINE))
    assert {"bad-record", "hook", "unreadable"} <= codes
    return codes


def assert_one_answer(status: int, result: Any) -> None:
    """``(status, result)`` is what ``ohhell check`` may answer: a result with 0, a documented error with 1."""
    line = json.dumps(result, allow_nan=False)  # standard JSON on one line, or this raises
    assert "\n" not in line
    if status == 0:
        assert RESULT_KEYS <= set(result) <= {*RESULT_KEYS, "resigned"}, result
        assert all(isinstance(t, int) for t in result["totals"]), result
        return
    assert status == 1, (status, result)
    assert set(result) == {"error"}, result
    error = result["error"]
    assert set(error) == {"code", "deal", "action", "message"}, error
    assert error["code"] in documented_codes(), error
    assert error["deal"] is None or isinstance(error["deal"], int), error
    assert error["action"] is None or isinstance(error["action"], int), error
    assert isinstance(error["message"], str) and error["message"].strip(), error


def check_bytes(data: bytes) -> tuple[int, Any]:
    """What ``ohhell check -`` answers for ``data`` on standard input, through the function the command calls."""
    return check_source("-", io.BytesIO(data))


HUGE_NUMBERS = st.sampled_from([2**31, 2**63, 2**64, 10**20, 10**30, -(2**63) - 1, 10**4000, 10**12, -1])
NUMBERS = st.one_of(
    st.integers(),
    HUGE_NUMBERS,
    HUGE_NUMBERS,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 1e400, 0.5, -0.0]),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, st.text(max_size=12), st.sampled_from(["", "9" * 5000, "NaN"]))
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
TOKENS = st.one_of(
    st.sampled_from(
        [
            "-1",
            "7",
            "99999999999999999999",
            "9" * 5000,
            "1e5",
            "nan",
            "inf",
            "\u0663",
            "1_0",
            "+1",
            "0x1",
            "-0",
            "",
            "\x00",
        ]
    ),
    st.text(max_size=6),
    st.integers().map(str),
)
RECORD_FIELDS = ["format", "rules", "players", "first_dealer", "deal_number", "deals", "resigned"]
RULES_FIELDS = ["preset", "players", "schedule", "trump", "hook", "scoring", "zero_bid_bonus", "special_cards"]
DEAL_FIELDS = ["hands", "turn_up", "actions"]


def _containers(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every object and list in ``data`` with its path, the whole first."""
    if isinstance(data, (dict, list)):
        yield path, data
        items = data.items() if isinstance(data, dict) else enumerate(data)
        for key, value in items:
            yield from _containers(value, (*path, key))


@st.composite
def mutated_records(draw: st.DrawFn) -> bytes:
    """A golden record with a few of its values, fields or action words replaced by hostile ones, as JSON text
    (``NaN`` and ``Infinity`` included, as Python's json writes them)."""
    record = golden(draw(st.sampled_from(GOLDEN_NAMES)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["field", "field", "replace", "add", "delete", "action"]))
        if kind == "field":  # a field of the format where it belongs: the record's (most often), its rules', a deal's
            place, names = record, RECORD_FIELDS
            deals = record.get("deals")
            deals = [d for d in deals if isinstance(d, dict)] if isinstance(deals, list) else []
            where = draw(st.sampled_from(["record", "record", "rules", "deal"]))
            if where == "rules" and isinstance(record.get("rules"), dict):
                place, names = record["rules"], RULES_FIELDS
            elif where == "deal" and deals:
                place, names = draw(st.sampled_from(deals)), DEAL_FIELDS
            place[draw(st.sampled_from(names))] = draw(st.one_of(NUMBERS, JSON_VALUES))
            continue
        _, container = draw(st.sampled_from(list(_containers(record))))
        if kind == "add" and isinstance(container, dict):
            container[draw(st.sampled_from(RECORD_FIELDS + RULES_FIELDS + DEAL_FIELDS))] = draw(JSON_VALUES)
        elif kind == "add":
            container.insert(draw(st.integers(0, len(container))), draw(JSON_VALUES))
        elif not container:
            continue
        else:
            key = draw(st.sampled_from(list(container) if isinstance(container, dict) else range(len(container))))
            value = container[key]
            if kind == "delete":
                del container[key]
            elif kind == "action" and isinstance(value, str) and len(words := value.split()) == 3:
                words[draw(st.integers(0, 2))] = draw(TOKENS)
                container[key] = " ".join(words)
            else:
                container[key] = draw(JSON_VALUES)
    return json.dumps(record).encode()


@st.composite
def damaged_texts(draw: st.DrawFn) -> bytes:
    """A golden record's text cut short, with bytes changed, or with bytes put in."""
    text = bytearray(_golden_text(draw(st.sampled_from(GOLDEN_NAMES))).encode())
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        match draw(st.sampled_from(["cut", "flip", "insert"])):
            case "cut":
                del text[at:]
            case "flip" if at < len(text):
                text[at] = draw(st.integers(0, 255))
            case _:
                text[at:at] = draw(st.binary(min_size=1, max_size=8))
    return bytes(text)


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(mutated_records())
@example(json.dumps({**golden(W), "deal_number": 10**20}).encode())  # found by this test: once a traceback
@example(json.dumps({**golden(F), "deal_number": 2**63}).encode())
def test_check_answers_every_mutated_record_with_one_json_object(data: bytes) -> None:
    assert_one_answer(*check_bytes(data))


@FUZZ
@given(st.one_of(damaged_texts(), st.binary(max_size=200), JSON_VALUES.map(lambda v: json.dumps(v).encode())))
def test_check_answers_any_bytes_with_one_json_object(data: bytes) -> None:
    assert_one_answer(*check_bytes(data))


def _with_field(path: tuple[Any, ...], value: Any) -> bytes:
    return json.dumps(changed(W, path, value)).encode()


def replaced_bytes(name: str, deal: int, index: int, action: str) -> bytes:
    return json.dumps(replaced(name, deal, index, action)).encode()


HOSTILE_CASES = [
    pytest.param(_with_field(("deal_number",), 10**20), "bad-record", ["deal_number"], id="deal-number-too-large"),
    pytest.param(_with_field(("deal_number",), 2**63), "bad-record", ["deal_number"], id="deal-number-just-over"),
    pytest.param(_with_field(("deal_number",), math.nan), "bad-record", ["NaN"], id="deal-number-nan"),
    pytest.param(_with_field(("first_dealer",), math.inf), "bad-record", ["Infinity"], id="first-dealer-infinity"),
    pytest.param(_with_field(("rules", "zero_bid_bonus"), -math.inf), "bad-record", ["Infinity"], id="rules-infinity"),
    pytest.param(_with_field(("resigned",), 2**64), "bad-record", ["resigned"], id="resigned-huge"),
    pytest.param(_with_field(("rules", "players"), 10**30), "bad-rules", ["players"], id="players-huge"),
    pytest.param(replaced_bytes(W, 0, 0, "0 bid 99999999999999999999"), "bid-out-of-range", [], id="bid-huge"),
    pytest.param(replaced_bytes(W, 0, 0, "0 bid " + "9" * 5000), "bad-record", ["whole number"], id="bid-5000-digits"),
    pytest.param(replaced_bytes(W, 0, 0, "0 bid \u0661"), "bad-record", ["whole number"], id="bid-arabic-digit"),
    pytest.param(replaced_bytes(W, 0, 0, "0 bid 1_0"), "bad-record", ["whole number"], id="bid-underscore"),
    pytest.param(replaced_bytes(W, 0, 0, "99999999999999999999 bid 1"), "not-your-turn", [], id="seat-huge"),
    pytest.param(b"[" * 1_000_000, "bad-record", ["json"], id="a-million-brackets"),
    pytest.param(b" " * (16 * 1024 * 1024 + 1), "bad-record", ["16 MiB"], id="over-16-mib"),
]


@pytest.mark.parametrize(("data", "code", "words"), HOSTILE_CASES)
def test_hostile_records_answer_their_error(data: bytes, code: str, words: list[str]) -> None:
    """Out-of-range and non-finite numbers anywhere, numbers that are not plain digits, nesting, size."""
    status, result = check_bytes(data)
    assert_one_answer(status, result)
    assert (status, result["error"]["code"]) == (1, code), result
    for word in words:
        assert word.lower() in result["error"]["message"].lower(), result
    assert len(result["error"]["message"]) < 300, "a message quotes the faulty value, never all of it"


def test_an_endless_input_is_read_no_further_than_the_limit() -> None:
    status, result = check_source("/dev/zero", None)
    assert (status, result["error"]["code"]) == (1, "bad-record"), result


def run_check(*arguments: str, stdin: bytes = b"") -> tuple[int, Any]:
    """``ohhell check`` run as a command: its exit status and its one line of JSON, with nothing on stderr."""
    proc = subprocess.run(
        [ohhell_command(), "check", *arguments], input=stdin, capture_output=True, timeout=120, check=False
    )
    assert proc.stderr == b"", proc.stderr.decode(errors="replace")
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == 1, proc.stdout
    return proc.returncode, json.loads(lines[0])


def test_the_command_answers_files_it_cannot_read_with_json(tmp_path: Path) -> None:
    """A directory, a missing file, a path through a file: code ``unreadable``, exit status 1, no traceback."""
    (tmp_path / "a-file").write_text("{}")
    for path, reason in [
        (tmp_path, "directory"),
        (tmp_path / "missing.json", "no such file"),
        (tmp_path / "a-file" / "x.json", "not a directory"),
    ]:
        status, result = run_check(str(path))
        assert_one_answer(status, result)
        assert (status, result["error"]["code"]) == (1, "unreadable"), result
        assert reason in result["error"]["message"].lower() and str(path) in result["error"]["message"]


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(_with_field(("deal_number",), 10**20), id="deal-number-too-large"),
        pytest.param(_with_field(("deal_number",), math.nan), id="nan"),
        pytest.param(b"\xc3\x28" + _golden_text(W).encode(), id="not-utf8"),
        pytest.param(b" " * (16 * 1024 * 1024 + 1), id="over-16-mib"),
    ],
)
def test_the_command_answers_hostile_records_with_json(data: bytes, tmp_path: Path) -> None:
    """The same answers as the function, from the installed command, by standard input and from a file."""
    path = tmp_path / "record.json"
    path.write_bytes(data)
    expected = check_bytes(data)
    assert run_check("-", stdin=data) == expected
    assert run_check(str(path)) == expected
    assert expected[0] == 1
