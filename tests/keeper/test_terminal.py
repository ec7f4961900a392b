"""``ohhell keep`` and ``ohhell sheet``: a whole game kept from typed lines, corrections, refusals, files."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from ohhell.cli import app
from ohhell.keeper.files import loads
from ohhell.keeper.sheet import ScoreSheet
from ohhell.keeper.terminal import KeeperSession
from ohhell.rules import Rules

from .helpers import StepClock, engine_game, new_sheet, pdf_to_pngs

runner = CliRunner()


def session_over(sheet: ScoreSheet, lines: list[str]) -> tuple[KeeperSession, str, list[int]]:
    """Run a session on ``lines``; what it printed, and the number of events at every save."""
    out = io.StringIO()
    feed: Iterator[str] = iter(lines)
    saves: list[int] = []
    session = KeeperSession(
        sheet,
        Console(file=out, width=120, color_system=None),
        lambda prompt: next(feed, None),
        lambda kept: saves.append(len(kept.events)),
    )
    session.run()
    return session, out.getvalue(), saves


def typed_game(rules: Rules, number: int) -> tuple[int, list[str], list[int]]:
    """The first dealer, the lines a keeper types for a whole game the engine played, and the engine's totals."""
    first_dealer, deals, totals = engine_game(rules, number)
    lines: list[str] = []
    for index, played in enumerate(deals):
        if played.trump is not None:
            lines.append(played.trump)
        dealer = (first_dealer + index) % rules.players
        order = [(dealer + 1 + i) % rules.players for i in range(rules.players)]
        lines += [str(played.bids[seat]) for seat in order]
        lines.append(" ".join(str(played.tricks[seat]) for seat in order))
    return first_dealer, lines, totals


def test_keep_a_whole_short_game_from_the_command_line_then_print_it(tmp_path: Path) -> None:
    first_dealer, lines, totals = typed_game(Rules.preset("short"), number=2024)
    path = tmp_path / "game.json"
    args = ["keep", "Ann", "Bob", "Cy", "Di", "--preset", "short", "--first-dealer", str(first_dealer + 1)]
    result = runner.invoke(app, [*args, "--file", str(path), "--keeper", "Eve"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    sheet = loads(path.read_bytes(), clock=StepClock())
    assert sheet.is_over
    assert list(sheet.totals) == totals
    assert {line.by for line in sheet.history} == {"Eve"}
    winners = " and ".join(sheet.names[s] for s in sheet.winners or ())
    assert winners in result.output.splitlines()[-1]
    pdf = tmp_path / "game.pdf"
    printed = runner.invoke(app, ["sheet", str(path), "-o", str(pdf), "--paper", "letter"])
    assert printed.exit_code == 0, printed.output
    assert pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftoppm"):
        assert len(pdf_to_pngs(pdf, resolution=30)) == 1


def test_sheet_writes_a_blank_pdf_or_html_and_refuses_both_or_neither(tmp_path: Path) -> None:
    out = tmp_path / "blank.html"
    result = runner.invoke(app, ["sheet", "--blank", "--preset", "full", "--players", "5", "--html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "window.print()" in out.read_text(encoding="utf-8")
    refused = runner.invoke(app, ["sheet", "-o", str(out)])
    assert refused.exit_code == 2
    assert "give a saved sheet, or --blank" in refused.output


def test_a_bad_answer_is_refused_with_why_and_asked_again_nothing_lost() -> None:
    sheet = new_sheet()
    _, output, saves = session_over(
        sheet, ["S", "1", "7", "x", "2", "0", "2", "1", "1 1 1 3", "1", "9", "1", "1", "", "quit"]
    )
    assert "Not entered: Cy may not bid 7: bids run from 0 to 5 in a 5-card deal." in output
    assert "Not entered: 'x' is not a bid: type a whole number such as 2." in output
    assert "Not entered: Ann deals and may not bid 2: the bids would total 5, the number of tricks." in output
    assert "Not entered: that makes 6 tricks, but a 5-card deal has 5." in output
    assert "Not entered: that makes 10 tricks, but a 5-card deal has 5." in output
    assert "Tricks won by Bob? [2]" not in output
    row = sheet.rows[0]
    assert (row.bids, row.tricks) == ((1, 1, 2, 0), (2, 1, 1, 1))
    assert saves == [1, 2, 3, 4, 5, 6]


def test_fix_corrects_earlier_deals_and_history_shows_who_and_what() -> None:
    sheet = new_sheet()
    lines = ["S", "1", "1", "1", "1", "2 1 1 1"]
    lines += ["by Di", "fix 1 bid Bob 2", "fix 1 bids 2 1 1 0 tricks 1 2 1 1", "fix 1 trump H", "fix name Cy Cyrus"]
    lines += ["fix dealer 2", "fix 1 bid Zed 1", "fix 9 bid Bob 1", "fix", "history", "quit"]
    _, output, _ = session_over(sheet, lines)
    assert "Di: corrected deal 1: Ann's bid 1 → 2; Di's bid 1 → 0\n" in output
    assert "Not entered: with that correction the bids of deal 1 would total 5" in output
    assert "Di: corrected deal 1: trump spades → hearts" in output
    assert "Di: renamed Cy to Cyrus" in output
    assert "Di: first dealer Ann → Bob" in output
    assert "Not entered: no player is called 'Zed'" in output
    assert "Not entered: cannot correct deal 9: the deals reached are 1 to 2." in output
    assert "Not entered: fix what?" in output
    assert sheet.names == ("Ann", "Bob", "Cyrus", "Di")
    assert [line.by for line in sheet.history if line.correction] == ["Di"] * 4


def test_the_end_of_the_input_saves_and_says_how_to_resume(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    result = runner.invoke(app, ["keep", "Ann", "Bob", "Cy", "--preset", "short", "-f", str(path)], input="D\n1\n")
    assert result.exit_code == 0, result.output
    assert f"resume it with ohhell keep --resume {path}" in " ".join(result.output.split())
    assert json.loads(path.read_text(encoding="utf-8"))["events"][1]["bid"] == 1
    resumed = runner.invoke(app, ["keep", "--resume", str(path)], input="1\nhistory\n")
    assert "Cy bids? [bids so far 1 for 5 tricks]" in resumed.output
    assert len(loads(path.read_bytes(), clock=StepClock()).events) == 3
