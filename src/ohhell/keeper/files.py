"""A score sheet as files: JSON (``ohhell-sheet/1``) that resumes exactly, and CSV for spreadsheets.

The JSON keeps what the sheet was started with and its event log, which is the truth; beside them it writes the
table those events build and the history in words, for people and programs that only read. Reading ignores those
two and replays the events, so an edited total cannot slip in: the points always come from the scoring.

The CSV has one row per deal and player (columns: deal, cards, dealer, trump, seat, player, bid, tricks, made,
points, total): the same columns for any table size, easy to filter or pivot, and a player's running total is the
``total`` of that player's last row. Deal numbers count from 1, as people do; ``seat`` is the 0-based seat of
records and events. Numbers are written as numbers; every text is quoted, and a text that a spreadsheet would run as
a formula (a player called ``=HYPERLINK(...)``) starts with a ``'``, as OWASP's CSV-injection guidance says:

>>> spreadsheet_cell("=SUM(A1:A9)"), spreadsheet_cell("-10"), spreadsheet_cell(-10)
("'=SUM(A1:A9)", "'-10", -10)
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from typing import Any, Final

from ohhell.errors import OhHellError, RecordError
from ohhell.keeper.events import event_from_json, event_to_json, parse_time, time_text
from ohhell.keeper.sheet import Clock, ScoreSheet
from ohhell.rules import Rules

FORMAT: Final = "ohhell-sheet/1"
CSV_COLUMNS: Final = ("deal", "cards", "dealer", "trump", "seat", "player", "bid", "tricks", "made", "points", "total")
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a cell as a formula (OWASP's list)."""


def sheet_to_json(sheet: ScoreSheet) -> dict[str, Any]:
    """The JSON object of ``sheet``: its start, its events, and (for readers) the table and the history."""
    names = sheet.names
    winners = sheet.winners
    return {
        "format": FORMAT,
        "rules": sheet.rules.to_json(),
        "players": list(sheet.starting_names),
        "first_dealer": sheet.starting_first_dealer,
        "keeper": sheet.keeper,
        "created": time_text(sheet.created),
        "events": [event_to_json(event) for event in sheet.events],
        "table": {
            "players": list(names),
            "deals": [
                {
                    "deal": row.number,
                    "cards": row.cards,
                    "dealer": names[row.dealer],
                    "trump": None if row.trump is None else row.trump.text(),
                    "bids": list(row.bids),
                    "tricks": None if row.tricks is None else list(row.tricks),
                    "points": None if row.points is None else list(row.points),
                    "totals": list(row.totals),
                    "corrected": sorted(row.corrected),
                }
                for row in sheet.rows
            ],
            "totals": list(sheet.totals),
            "winners": None if winners is None else [names[s] for s in winners],
        },
        "history": [
            {"at": time_text(line.at), "by": line.by, "text": line.text, "correction": line.correction}
            for line in sheet.history
        ],
    }


def dumps(sheet: ScoreSheet) -> str:
    """``sheet`` as JSON text (UTF-8, indented for people)."""
    return json.dumps(sheet_to_json(sheet), ensure_ascii=False, indent=1) + "\n"


def sheet_from_json(data: object, *, clock: Clock) -> ScoreSheet:
    """The sheet a JSON object describes, rebuilt by replaying its events; ``clock`` times entries made from now on.

    A file that is not a sheet, or whose events break the rules, raises :class:`RecordError` with the reason.
    """
    if not isinstance(data, Mapping):
        raise RecordError(f"a score sheet must be a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a score sheet: the format must be {FORMAT!r}, not {data.get('format')!r}")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("the sheet's 'players' must be a list of names")
    first_dealer = data.get("first_dealer", 0)
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
        raise RecordError(f"the sheet's 'first_dealer' must be a seat number, not {first_dealer!r}")
    keeper = data.get("keeper", "Scorekeeper")
    if not isinstance(keeper, str):
        raise RecordError(f"the sheet's 'keeper' must be a name, not {keeper!r}")
    events = data.get("events", [])
    if not isinstance(events, list):
        raise RecordError("the sheet's 'events' must be a list")
    try:
        rules = Rules.from_json(data.get("rules"))
        return ScoreSheet.replay(
            rules,
            players,
            [event_from_json(event) for event in events],
            clock=clock,
            first_dealer=first_dealer,
            keeper=keeper,
            created=parse_time(data["created"]) if "created" in data else None,
        )
    except RecordError:
        raise
    except OhHellError as exc:
        raise RecordError(f"the sheet cannot be read: {exc}") from None


def loads(text: str | bytes, *, clock: Clock) -> ScoreSheet:
    """A sheet from JSON text; see :func:`sheet_from_json`."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"a score sheet must be JSON: {exc}") from None
    return sheet_from_json(data, clock=clock)


def sheet_to_csv(sheet: ScoreSheet) -> str:
    """One row per deal and player, in seat order, for every deal reached (empty cells where nothing is entered).

    Safe to open in a spreadsheet: every cell goes through :func:`spreadsheet_cell`, and texts are quoted (so a
    name holding the separator of another locale, such as ``;``, stays one cell).
    """
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(CSV_COLUMNS)
    names = sheet.names
    for row in sheet.rows:
        trump = "" if row.trump is None else row.trump.describe()
        for seat, name in enumerate(names):
            made = row.made(seat)
            cells: list[str | int] = [
                row.number,
                row.cards,
                names[row.dealer],
                trump,
                seat,
                name,
                _cell(row.bids[seat]),
                "" if row.tricks is None else row.tricks[seat],
                "" if made is None else ("yes" if made else "no"),
                "" if row.points is None else row.points[seat],
                row.totals[seat],
            ]
            writer.writerow([spreadsheet_cell(cell) for cell in cells])
    return out.getvalue()


def spreadsheet_cell(value: str | int) -> str | int:
    """``value`` as a CSV cell that a spreadsheet shows as written: a text it would run as a formula (one that
    starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a leading single quote. Numbers, such
    as a score of -10, stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _cell(value: int | None) -> str | int:
    return "" if value is None else value
