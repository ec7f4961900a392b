"""Sheets as files: JSON that resumes exactly (events are the truth), CSV with a row per deal and player."""

from __future__ import annotations

import csv
import io
import json

import pytest

from ohhell.errors import RecordError
from ohhell.keeper.files import (
    CSV_COLUMNS,
    dumps,
    loads,
    sheet_from_json,
    sheet_to_csv,
    sheet_to_json,
    spreadsheet_cell,
)
from ohhell.keeper.sheet import ScoreSheet

from .helpers import StepClock, enter_deal, new_sheet


def a_sheet_with_a_correction() -> ScoreSheet:
    sheet = new_sheet("short", first_dealer=1)
    enter_deal(sheet, bids=[2, 1, 1, 0], tricks=[2, 1, 1, 1], trump="H")
    enter_deal(sheet, bids=[0, 1, 1, 1], tricks=[0, 1, 2, 1], trump="C")
    sheet.correct(0, tricks={0: 1, 3: 2}, by="Di")
    sheet.rename(2, "Cyrus")
    sheet.enter_trump("S")
    sheet.enter_bid(1)
    return sheet


def test_json_round_trip_resumes_the_same_sheet_with_its_history() -> None:
    sheet = a_sheet_with_a_correction()
    again = loads(dumps(sheet), clock=StepClock())
    assert again.events == sheet.events
    assert (again.rows, again.history, again.names, again.created) == (
        sheet.rows,
        sheet.history,
        sheet.names,
        sheet.created,
    )
    assert (again.phase, again.next_bidder) == ("bids", 1)
    assert sheet_to_json(again) == sheet_to_json(sheet)


def test_the_json_shows_the_table_and_history_for_readers_but_reads_only_the_events() -> None:
    data = sheet_to_json(a_sheet_with_a_correction())
    assert data["format"] == "ohhell-sheet/1"
    assert data["rules"] == {"preset": "short", "players": 4}
    assert data["events"][0] == {
        "type": "trump",
        "deal": 0,
        "trump": "H",
        "by": "Scorekeeper",
        "at": "2025-03-01T20:01:00Z",
    }
    assert data["table"]["deals"][0]["points"] == [1, 11, 11, 2]
    assert data["table"]["deals"][0]["corrected"] == ["tricks:0", "tricks:3"]
    assert data["history"][-4]["text"] == "corrected deal 1: Ann's tricks 2 → 1; Di's tricks 1 → 2"
    data["table"]["totals"] = [999, 0, 0, 0]
    assert sheet_from_json(data, clock=StepClock()).totals == (11, 22, 13, 13)


def test_a_file_whose_events_break_the_rules_is_refused_with_the_event_named() -> None:
    data = sheet_to_json(a_sheet_with_a_correction())
    data["events"][2]["bid"] = 7
    with pytest.raises(RecordError, match=r"^event 3 cannot be replayed: Di may not bid 7"):
        sheet_from_json(data, clock=StepClock())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[]", "must be a JSON object"),
        ("{", "must be JSON"),
        ('{"format": "ohhell-record/1"}', "not a score sheet"),
        ('{"format": "ohhell-sheet/1", "rules": "short", "players": ["A", "B"]}', "2 names were given for 4 players"),
        ('{"format": "ohhell-sheet/1", "rules": "nope", "players": []}', "unknown preset 'nope'"),
        (
            '{"format": "ohhell-sheet/1", "rules": "short", "players": ["A","B","C","D"], "events": [{"type": "x"}]}',
            "text",
        ),
    ],
)
def test_what_is_not_a_sheet_is_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(text, clock=StepClock())


def test_csv_has_a_row_per_deal_and_player_with_points_and_running_totals() -> None:
    sheet = a_sheet_with_a_correction()
    rows = list(csv.DictReader(io.StringIO(sheet_to_csv(sheet))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 3 * 4
    assert rows[0] == {
        "deal": "1",
        "cards": "5",
        "dealer": "Bob",
        "trump": "hearts",
        "seat": "0",
        "player": "Ann",
        "bid": "2",
        "tricks": "1",
        "made": "no",
        "points": "1",
        "total": "1",
    }
    assert [r["total"] for r in rows[4:8]] == ["11", "22", "13", "13"]
    in_progress = rows[8:]
    assert [(r["bid"], r["tricks"], r["points"]) for r in in_progress] == [("1", "", "")] + [("", "", "")] * 3
    assert json.loads(dumps(sheet))["table"]["players"][2] == "Cyrus"


FORMULAS = ['=HYPERLINK("http://e.x","hi")', "+1+1", "-2+3", "@SUM(A1:A2)"]


def test_csv_cells_a_spreadsheet_would_run_as_formulas_start_with_a_quote() -> None:
    """OWASP's CSV-injection guidance: text starting with = + - @ (or a tab or carriage return) gets a leading '."""
    sheet = new_sheet("magicians", names=FORMULAS, first_dealer=0)
    sheet.enter_trump("H")
    for _ in range(4):
        sheet.enter_bid(1)
    sheet.enter_tricks([1, 0, 0, 0])  # a 1-card deal: three missed bids, negative scores
    sheet.rename(3, "=cmd|' /C calc'!A0")
    text = sheet_to_csv(sheet)
    rows = list(csv.DictReader(io.StringIO(text)))
    order = [int(r["seat"]) for r in rows]
    assert [r["player"] for r in rows] == [f"'{FORMULAS[s]}" if s < 3 else "'=cmd|' /C calc'!A0" for s in order]
    assert [r["dealer"] for r in rows if r["deal"] == "1"] == [f"'{FORMULAS[0]}"] * 4
    for line in text.splitlines()[1:]:  # texts quoted; numbers, negative scores included, written bare
        cells = next(csv.reader([line], quoting=csv.QUOTE_NONNUMERIC))
        assert all(isinstance(c, float) or not c or c[0] not in "=+-@\t\r" for c in cells), cells
    assert [r["points"] for r in rows if r["deal"] == "1"] == ["30", "-10", "-10", "-10"]
    assert ",-10," in text and "'-10" not in text


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-10", "'-10"),
        ("@A1", "'@A1"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Ann", "Ann"),
        ("a=b", "a=b"),
        ("", ""),
        (-10, -10),
        (0, 0),
    ],
)
def test_spreadsheet_cell(value: str | int, cell: str | int) -> None:
    assert spreadsheet_cell(value) == cell
