"""What ``ohhell keep`` and ``ohhell sheet`` do, apart from reading their options: files, clock and output.

The command line (:mod:`ohhell.cli`) only declares the options; the work is here so that it can be called and
tested without Typer, and so that ``cli.py`` stays a list of commands.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from rich.console import Console

from ohhell.errors import RecordError
from ohhell.keeper.events import wall_clock
from ohhell.keeper.files import dumps, loads
from ohhell.keeper.ledger import seat_named
from ohhell.keeper.printable import blank_sheet, filled_sheet, render_html, render_pdf
from ohhell.keeper.sheet import DEFAULT_KEEPER, ScoreSheet
from ohhell.keeper.terminal import KeeperSession
from ohhell.rules import Rules


def default_sheet_path(now: datetime) -> Path:
    """Where a new sheet is saved when no file is named: ``ohhell-sheet-20250301-2015.json`` here."""
    return Path(f"ohhell-sheet-{now.astimezone().strftime('%Y%m%d-%H%M')}.json")


def save_sheet(path: Path, sheet: ScoreSheet) -> None:
    """Write ``sheet`` to ``path`` whole or not at all (a new file renamed over the old one)."""
    directory = path.parent if str(path.parent) else Path()
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(dumps(sheet))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def open_sheet(path: Path) -> ScoreSheet:
    """A saved sheet, ready to go on; :class:`RecordError` if it cannot be read."""
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    return loads(text, clock=wall_clock)


def new_sheet(rules: Rules, names: Sequence[str], first_dealer: str | None, keeper: str) -> ScoreSheet:
    """A new sheet; ``first_dealer`` is a name or a 1-based column number (by default the first name)."""
    seat = None if first_dealer is None else seat_named(first_dealer, names)
    return ScoreSheet(rules, names, clock=wall_clock, first_dealer=seat, keeper=keeper or DEFAULT_KEEPER)


def keep(sheet: ScoreSheet, path: Path, console: Console, read_line: Callable[[str], str | None]) -> int:
    """Keep score on ``sheet`` at the terminal, saving it to ``path`` now and after every entry."""
    save_sheet(path, sheet)
    console.print(f"Saving to [bold]{path}[/] as you go.")
    session = KeeperSession(sheet, console, read_line, lambda kept: save_sheet(path, kept))
    session.resume_hint = f"ohhell keep --resume {path}"
    return session.run()


def write_printable(
    output: Path, *, sheet: ScoreSheet | None = None, rules: Rules | None = None, paper: str = "a4", html: bool = False
) -> None:
    """Write the printable page of ``sheet`` (or a blank one for ``rules``) as a PDF, or as HTML to print."""
    if sheet is not None:
        printed = filled_sheet(sheet, paper)
    elif rules is not None:
        printed = blank_sheet(rules, paper)
    else:
        raise ValueError("a printable sheet needs a sheet or rules")
    if html:
        output.write_text(render_html(printed, print_button=True), encoding="utf-8")
    else:
        output.write_bytes(render_pdf(printed))
