"""Helpers for the score keeper's tests: a stepping clock, small sheets, and whole games taken from the engine."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from ohhell.cards import JESTER_SUIT, MAGICIAN_SUIT, SUIT_LETTERS, SUIT_OF
from ohhell.game import Game
from ohhell.keeper.sheet import ScoreSheet
from ohhell.rules import Rules

NAMES = ("Ann", "Bob", "Cy", "Di")
START = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


class StepClock:
    """A clock for tests: 2025-03-01 20:00 UTC, then one minute later at every reading."""

    def __init__(self, start: datetime = START, step: timedelta = timedelta(minutes=1)) -> None:
        self.now = start - step
        self.step = step

    def __call__(self) -> datetime:
        self.now += self.step
        return self.now


def new_sheet(preset: str = "short", names: Sequence[str] = NAMES, first_dealer: int = 0, **options: Any) -> ScoreSheet:
    """A fresh sheet under ``preset`` (with ``options`` on top) for ``names``, on a stepping clock."""
    rules = Rules.preset(preset, players=len(names), **options)
    return ScoreSheet(rules, names, clock=StepClock(), first_dealer=first_dealer)


def enter_deal(sheet: ScoreSheet, bids: Sequence[int], tricks: Sequence[int], trump: str = "S") -> None:
    """Enter one whole deal: the trump if the table tells it, the bids (by seat) in bidding order, the tricks."""
    if sheet.phase == "trump":
        sheet.enter_trump(trump)
    index = sheet.current
    assert index is not None
    for seat in sheet.bid_order(index):
        sheet.enter_bid(bids[seat], seat=seat)
    sheet.enter_tricks(tricks)


@dataclass(frozen=True)
class PlayedDeal:
    """What a score keeper hears of one deal the engine played: the trump, the bids and the tricks, by seat."""

    trump: str | None
    """The trump as typed at the keeper (``H``, ``JE``, ``MG S``), or ``None`` where the rules fix it."""
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]


def engine_game(rules: Rules, number: int, seed: int = 0) -> tuple[int, list[PlayedDeal], list[int]]:
    """A whole game played by the engine with random legal moves: first dealer, each deal as the keeper hears it,
    and the engine's totals."""
    game = Game(rules, number=number)
    rng = random.Random(seed)
    deals: list[PlayedDeal] = []
    while not game.is_over:
        deal = game.deal
        while not deal.is_over:
            game.apply(rng.choice(game.legal_actions()))
        deals.append(
            PlayedDeal(
                trump_typed(rules, deal.turn_up, deal.trump),
                tuple(deal.bids),
                tuple(deal.tricks_won),
                tuple(deal.points or ()),
            )
        )
    return game.first_dealer, deals, list(game.totals)


def trump_typed(rules: Rules, turn_up: int | None, trump: int | None) -> str | None:
    """What the table tells the keeper about a deal's trump, or ``None`` when the rules decide it."""
    if not rules.turns_up_trump or turn_up is None:
        return None
    if SUIT_OF[turn_up] == JESTER_SUIT:
        return "JE"
    letter = SUIT_LETTERS[trump] if trump is not None else "NT"
    return f"MG {letter}" if SUIT_OF[turn_up] == MAGICIAN_SUIT else letter


def keep_played(sheet: ScoreSheet, deals: Sequence[PlayedDeal]) -> ScoreSheet:
    """Enter on ``sheet`` every deal the engine played, as a table would tell it."""
    for played in deals:
        if played.trump is not None:
            sheet.enter_trump(played.trump)
        index = sheet.current
        assert index is not None
        for seat in sheet.bid_order(index):
            sheet.enter_bid(played.bids[seat])
        sheet.enter_tricks(played.tricks)
    return sheet


def kept_game(rules: Rules, names: Sequence[str], number: int = 7) -> ScoreSheet:
    """A sheet filled with a whole game the engine played under ``rules``."""
    first_dealer, deals, _ = engine_game(rules, number)
    return keep_played(ScoreSheet(rules, names, clock=StepClock(), first_dealer=first_dealer), deals)


needs_poppler = pytest.mark.skipif(
    shutil.which("pdftoppm") is None and not os.environ.get("CI"),
    reason="pdftoppm (Debian poppler-utils) is missing; .ci/run installs it",
)
"""For tests that render PDFs to PNG: skipped on a machine without poppler, never under CI."""


def pdf_to_pngs(pdf: Path, resolution: int = 150) -> list[Path]:
    """Every page of ``pdf`` rendered to PNG beside it by ``pdftoppm``, in page order."""
    prefix = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-png", "-r", str(resolution), str(pdf), str(prefix)], check=True)
    return sorted(pdf.parent.glob(f"{prefix.name}-*.png"))


def png_size(png: Path) -> tuple[int, int]:
    """Width and height of a PNG, from its header."""
    header = png.read_bytes()[16:24]
    return int.from_bytes(header[:4], "big"), int.from_bytes(header[4:], "big")
