"""The printable sheet: exactly one landscape page on A4 and US Letter, filled or blank, for the longest games."""

from __future__ import annotations

from pathlib import Path

import pytest
import weasyprint

from ohhell.keeper.printable import PAPERS, PrintedSheet, blank_sheet, filled_sheet, render_html, render_pdf
from ohhell.keeper.sheet import ScoreSheet
from ohhell.rules import Rules

from .helpers import StepClock, enter_deal, kept_game, needs_poppler, new_sheet, pdf_to_pngs, png_size

LONG_NAMES = [f"Player with a very long name {seat}" for seat in range(7)]

EXTREMES = {
    "up-and-down, 3 players: 33 deals": Rules.preset("up-and-down", players=3),
    "full, 7 players side by side": Rules.preset("full", players=7),
    "magicians, 3 players: 20 deals, scores below zero": Rules.preset("magicians", players=3),
    "magicians, 6 players": Rules.preset("magicians", players=6),
}


def pages(printed: PrintedSheet) -> int:
    return len(weasyprint.HTML(string=render_html(printed)).render().pages)


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("rules", EXTREMES.values(), ids=list(EXTREMES))
def test_a_whole_game_prints_on_exactly_one_page(rules: Rules, paper: str) -> None:
    sheet = kept_game(rules, LONG_NAMES[: rules.players])
    assert sheet.is_over
    assert pages(filled_sheet(sheet, paper)) == 1


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("rules", EXTREMES.values(), ids=list(EXTREMES))
def test_a_blank_sheet_prints_on_exactly_one_page(rules: Rules, paper: str) -> None:
    assert pages(blank_sheet(rules, paper)) == 1


def test_even_a_60_deal_schedule_and_50_corrections_stay_on_one_page() -> None:
    sheet = new_sheet("full", names=["Ann", "Bob", "Cy"], schedule=(1,) * 60)
    for _ in range(60):
        enter_deal(sheet, bids=[0, 0, 0], tricks=[1, 0, 0])
    for _ in range(25):
        sheet.correct(0, tricks={0: 0, 1: 1})
        sheet.correct(0, tricks={0: 1, 1: 0})
    printed = filled_sheet(sheet, "letter")
    assert "and 4" in printed.corrections or "more in the sheet's history" in printed.corrections
    assert pages(printed) == 1


def test_the_filled_sheet_shows_checks_running_totals_corrections_and_the_winner() -> None:
    sheet = new_sheet("up-and-down", names=["You", "West", "North", "East"], first_dealer=3, schedule=(4, 1))
    enter_deal(sheet, bids=[1, 2, 0, 0], tricks=[1, 2, 0, 1])
    enter_deal(sheet, bids=[1, 1, 0, 1], tricks=[1, 0, 0, 0])
    sheet.correct(1, bids={3: 0}, by="North")
    printed = filled_sheet(sheet)
    first, second = printed.rows
    assert [cells[2].text for cells in first.players] == ["✓ 11", "✓ 12", "✓ 10", "0"]
    assert [cells[3].text for cells in second.players] == ["22", "12", "20", "10"]
    assert (first.dealer.text, second.dealer.text, first.trump.text) == ("East", "You", "♠")
    assert second.players[3][0].classes == "corrected"
    assert [cell.classes for cell in printed.totals] == ["winner", "", "", ""]
    assert printed.result == "Winner: You, 22 points."
    assert "North: corrected deal 2: East's bid 1 → 0" in printed.corrections
    html = render_html(printed)
    assert "@page { size: A4 landscape;" in html
    assert "Bid made: 10 + bid. Missed: 0." in html


def test_a_blank_sheet_prefills_deal_sizes_dealers_and_fixed_trumps() -> None:
    printed = blank_sheet(Rules.preset("full", players=5, trump=("S", "H", "D", "C", "NT")), "letter")
    assert [row.cards.text for row in printed.rows] == [str(n) for n in (*range(10, 0, -1), *range(2, 11))]
    assert [row.dealer.text for row in printed.rows[:6]] == ["1", "2", "3", "4", "5", "1"]
    assert [row.trump.text for row in printed.rows[:5]] == ["♠", "♥", "♦", "♣", "NT"]
    assert all(cell.text == "" for row in printed.rows for cells in row.players for cell in cells)
    assert [cells[0].classes for cells in printed.rows[1].players] == ["", "dealer", "", "", ""]
    assert "@page { size: letter landscape;" in render_html(printed)
    turned = blank_sheet(Rules.preset("up-and-down"))
    assert [row.trump.text for row in turned.rows[11:14]] == ["", "NT", ""]


def test_a_shared_win_says_so() -> None:
    sheet = new_sheet("full", names=["Ann", "Bob", "Cy"], schedule=(1,))
    enter_deal(sheet, bids=[0, 0, 0], tricks=[0, 0, 1])
    assert filled_sheet(sheet).result == "Shared win: Ann and Bob, 10 points each."


@needs_poppler
@pytest.mark.parametrize(("paper", "size"), [("a4", (1754, 1240)), ("letter", (1650, 1275))])
def test_pdftoppm_renders_the_pdf_to_a_single_landscape_png(tmp_path: Path, paper: str, size: tuple[int, int]) -> None:
    sheet = kept_game(Rules.preset("up-and-down", players=3), ["Ann", "Bob", "Cy"])
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(render_pdf(filled_sheet(sheet, paper)))
    images = pdf_to_pngs(pdf)
    assert [image.name for image in images] == ["sheet-1.png"]
    width, height = png_size(images[0])
    assert abs(width - size[0]) <= 1
    assert abs(height - size[1]) <= 1


def test_a_sheet_in_progress_prints_the_deals_not_reached_empty() -> None:
    sheet = ScoreSheet(Rules.preset("short"), ["A", "B", "C", "D"], clock=StepClock())
    enter_deal(sheet, bids=[1, 1, 1, 1], tricks=[2, 1, 1, 1])
    printed = filled_sheet(sheet)
    assert len(printed.rows) == 9
    assert printed.rows[1].players[0][0].text == ""
    assert printed.rows[4].cards.text == "1"
    assert printed.result == "After deal 1 of 9: B, C and D lead with 11."
