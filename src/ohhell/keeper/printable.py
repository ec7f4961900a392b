"""The printable score sheet: one landscape page, A4 or US Letter, filled from a sheet or blank to fill in by hand.

A column per player (bid, tricks won, points with a check mark for a made bid, running total), a row per deal
(number, cards, trump, dealer, total of the bids), the totals and the winners. The same HTML prints from a browser
(its CSS sets the page) and becomes a PDF through WeasyPrint.

Everything is sized from the paper, the number of players and the number of deals, so the longest schedules
(33 deals for three players going up and down, seven players side by side) still fit one page: rows get lower
and the type smaller, never a second page.

>>> from ohhell.rules import Rules
>>> layout = page_layout("letter", players=3, deals=33)
>>> layout.row_mm < 5 and layout.font_pt > 7
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import jinja2

from ohhell.keeper.rows import DealRow, HistoryLine, score_text
from ohhell.keeper.sheet import ScoreSheet
from ohhell.keeper.trump import TrumpCall
from ohhell.keeper.wording import result_sentence, scoring_line
from ohhell.rules import Rules

MM_TO_PT: Final = 72 / 25.4
MARGIN_MM: Final = 8.0
TITLE_MM: Final = 10.0
FOOTER_MM: Final = 15.0
MAX_ROW_MM: Final = 11.0
"""Rows stop growing here: room to write in by hand without a sparse sheet looking empty."""
SAFETY: Final = 0.96
"""Share of the computed height the table may use: borders and rounding never push it onto a second page."""
FIXED_COLUMNS: Final = (("Deal", 9.0), ("Cards", 10.0), ("Trump", 11.0), ("Dealer", 17.0), ("Σ bids", 11.0))
PLAYER_COLUMNS: Final = (("Bid", 0.85), ("Won", 0.85), ("Points", 1.2), ("Total", 1.3))
"""Each player's sub-columns with their share of the player's width."""
RED_SUITS: Final = frozenset({1, 2})


@dataclass(frozen=True)
class Paper:
    """A paper size in landscape, in millimetres, with its name in CSS ``@page``."""

    css: str
    width_mm: float
    height_mm: float


PAPERS: Final = {"a4": Paper("A4", 297.0, 210.0), "letter": Paper("letter", 279.4, 215.9)}


@dataclass(frozen=True)
class PageLayout:
    """The measures of one page: row height and type size scaled to fit every deal and player."""

    paper: Paper
    row_mm: float
    font_pt: float
    head_pt: float
    """The column labels: smaller than the figures, so the narrow fixed columns keep their names whole."""
    fixed_mm: tuple[float, ...]
    player_mm: tuple[float, ...]

    @property
    def width_mm(self) -> float:
        """The printable width inside the margins."""
        return self.paper.width_mm - 2 * MARGIN_MM

    @property
    def height_mm(self) -> float:
        """The printable height inside the margins."""
        return self.paper.height_mm - 2 * MARGIN_MM


def page_layout(paper: str, players: int, deals: int) -> PageLayout:
    """The layout of a sheet of ``deals`` rows and ``players`` columns on ``paper`` (``a4`` or ``letter``)."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    sheet = PAPERS[paper]
    width = sheet.width_mm - 2 * MARGIN_MM
    table_height = (sheet.height_mm - 2 * MARGIN_MM - TITLE_MM - FOOTER_MM) * SAFETY
    row_mm = min(MAX_ROW_MM, table_height / (deals + 3))  # two heading rows and the totals row
    fixed = tuple(mm for _, mm in FIXED_COLUMNS)
    per_player = (width - sum(fixed)) / players
    weight = sum(share for _, share in PLAYER_COLUMNS)
    player = tuple(per_player * share / weight for _, share in PLAYER_COLUMNS)
    font_pt = min(11.0, row_mm * MM_TO_PT * 0.62, min(player) * MM_TO_PT / 2.6)
    head_pt = min(font_pt * 0.85, 7.5)
    player_mm = tuple(round(mm, 2) for mm in player)
    return PageLayout(sheet, round(row_mm, 2), round(font_pt, 2), round(head_pt, 2), fixed, player_mm)


@dataclass(frozen=True)
class Cell:
    """One printed cell: its text and CSS classes (``dealer``, ``made``, ``corrected``, ``red``, ``winner``)."""

    text: str = ""
    classes: str = ""


@dataclass(frozen=True)
class PrintedRow:
    """A deal as printed: the deal's own cells, then four cells per player."""

    deal: Cell
    cards: Cell
    trump: Cell
    dealer: Cell
    bid_total: Cell
    players: tuple[tuple[Cell, Cell, Cell, Cell], ...]


@dataclass(frozen=True)
class PrintedSheet:
    """Everything the template shows, as text: the template only lays it out."""

    title: str
    rules_line: str
    scoring_line: str
    date: str
    names: tuple[str, ...]
    """Header names; empty strings on a blank sheet (a line to write on)."""
    rows: tuple[PrintedRow, ...]
    totals: tuple[Cell, ...]
    result: str
    legend: str
    corrections: str
    layout: PageLayout


def filled_sheet(sheet: ScoreSheet, paper: str = "a4") -> PrintedSheet:
    """The printed form of ``sheet``: every deal of the schedule, those not reached left empty."""
    names = sheet.names
    rows = sheet.rows
    printed = [_filled_row(sheet, row) for row in rows]
    printed += [_blank_row(sheet.rules, i, sheet.dealer_of(i), names) for i in range(len(rows), sheet.deal_count)]
    winners = sheet.winners
    marked = set(winners) if winners is not None else set()
    totals = tuple(Cell(score_text(t), "winner" if seat in marked else "") for seat, t in enumerate(sheet.totals))
    corrections = [line for line in sheet.history if line.correction]
    return PrintedSheet(
        title="Oh Hell! score sheet",
        rules_line=sheet.rules.describe(),
        scoring_line=scoring_line(sheet.rules),
        date=sheet.created.strftime("%Y-%m-%d"),
        names=names,
        rows=tuple(printed),
        totals=totals,
        result=result_sentence(sheet),
        legend=_LEGEND + (" * corrected (listed below)." if corrections else ""),
        corrections=_corrections_text(corrections),
        layout=page_layout(paper, sheet.rules.players, sheet.deal_count),
    )


def blank_sheet(rules: Rules, paper: str = "a4") -> PrintedSheet:
    """A sheet to fill in by hand: deal sizes, dealers (by column, the first dealer in column 1) and any trump the
    rules fix are printed; bids, tricks and points are left to the pen."""
    seats = tuple(str(seat + 1) for seat in range(rules.players))
    return PrintedSheet(
        title="Oh Hell! score sheet",
        rules_line=rules.describe(),
        scoring_line=scoring_line(rules),
        date="",
        names=("",) * rules.players,
        rows=tuple(_blank_row(rules, i, i % rules.players, seats) for i in range(rules.deals)),
        totals=(Cell(),) * rules.players,
        result="Winner:",
        legend=_LEGEND + " Column 1 deals first; the deal passes to the left, one column on.",
        corrections="",
        layout=page_layout(paper, rules.players, rules.deals),
    )


_LEGEND: Final = "✓ bid made. Shaded: the dealer, who bids last. Σ bids: the total bid, for the dealer to see."

_ENVIRONMENT: Final = jinja2.Environment(
    loader=jinja2.PackageLoader("ohhell.keeper", "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)


def render_html(printed: PrintedSheet, *, print_button: bool = False, print_script: str | None = None) -> str:
    """The page as HTML, with its print CSS; ``print_button`` adds a Print button for the browser (never printed).

    ``print_script``: the URL of the script that wires the button, for a page the site serves (its
    Content-Security-Policy runs no inline script); without it, a file saved to disk, the button's ``onclick`` does.
    """
    template = _ENVIRONMENT.get_template("printable.html")
    return template.render(
        sheet=printed,
        layout=printed.layout,
        columns=FIXED_COLUMNS,
        player_columns=PLAYER_COLUMNS,
        print_button=print_button,
        print_script=print_script,
        margin_mm=MARGIN_MM,
        title_mm=TITLE_MM,
        footer_mm=FOOTER_MM,
    )


def render_pdf(printed: PrintedSheet) -> bytes:
    """The page as a one-page PDF."""
    import weasyprint  # slow to import, and only PDFs need it

    pdf: bytes = weasyprint.HTML(string=render_html(printed)).write_pdf()
    return pdf


def _filled_row(sheet: ScoreSheet, row: DealRow) -> PrintedRow:
    names = sheet.names
    players = []
    for seat in range(sheet.rules.players):
        bid, made = row.bids[seat], row.made(seat)
        classes = ["dealer"] if seat == row.dealer else []
        classes += ["corrected"] if f"bid:{seat}" in row.corrected else []
        bid_cell = Cell(score_text(bid), " ".join(classes))
        took = Cell(
            "" if row.tricks is None else str(row.tricks[seat]),
            "corrected" if f"tricks:{seat}" in row.corrected else "",
        )
        points = Cell(
            "" if row.points is None else ("✓ " if made else "") + score_text(row.points[seat]),
            "made" if made else "",
        )
        total = Cell(score_text(row.totals[seat]) if row.is_finished else "", "total")
        players.append((bid_cell, took, points, total))
    trump = _trump_cell(row.trump)
    if "trump" in row.corrected:
        trump = Cell(trump.text, f"{trump.classes} corrected".strip())
    return PrintedRow(
        deal=Cell(str(row.number)),
        cards=Cell(str(row.cards)),
        trump=trump,
        dealer=Cell(names[row.dealer]),
        bid_total=Cell(str(row.bid_total) if None not in row.bids else ""),
        players=tuple(players),
    )


def _blank_row(rules: Rules, index: int, dealer: int, dealer_names: Sequence[str]) -> PrintedRow:
    cards = rules.hand_sizes[index]
    if not rules.turns_up_trump:
        trump = _trump_cell(TrumpCall(rules.rotation_trump(index)))
    elif cards * rules.players == rules.pack_size:
        trump = _trump_cell(TrumpCall(None))
    else:
        trump = Cell()
    players = tuple(
        (Cell("", "dealer" if seat == dealer else ""), Cell(), Cell(), Cell("", "total"))
        for seat in range(rules.players)
    )
    return PrintedRow(Cell(str(index + 1)), Cell(str(cards)), trump, Cell(dealer_names[dealer]), Cell(), players)


def _trump_cell(call: TrumpCall | None) -> Cell:
    if call is None:
        return Cell()
    turned = f" {call.turned}" if call.turned else ""
    return Cell(call.symbol() + turned, "red" if call.suit in RED_SUITS else "")


_CORRECTIONS_BUDGET: Final = 420
"""Characters of corrections printed in the footer; the rest are counted, and all are in the sheet's history."""


def _corrections_text(lines: Sequence[HistoryLine]) -> str:
    if not lines:
        return ""
    shown: list[str] = []
    used = 0
    for line in lines:
        text = str(line)
        if used + len(text) > _CORRECTIONS_BUDGET and shown:
            break
        shown.append(text)
        used += len(text) + 3
    more = len(lines) - len(shown)
    tail = f" — and {more} more in the sheet's history." if more else ""
    return f"Corrections ({len(lines)}): " + " · ".join(shown) + tail
