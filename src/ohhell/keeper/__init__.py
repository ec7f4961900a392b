"""The score keeper: Oh Hell! at a real table, with the table's own cards; see docs/keeper.md.

The table enters the trump, the bids and the tricks; the sheet scores them with the engine's own scoring and keeps
every entry and correction in a log. Its faces: :mod:`~ohhell.keeper.terminal` (``ohhell keep``),
:mod:`~ohhell.keeper.printable` (one printed page, ``ohhell sheet``), :mod:`~ohhell.keeper.files` (JSON and CSV)
and :mod:`ohhell.keeper.web` (a page of the web app). Imports point inward: trump and events, then the ledger and
the sheet, then the faces; the sheet does no input or output.

>>> from ohhell.rules import Rules
>>> from ohhell.keeper.events import wall_clock
>>> sheet = ScoreSheet(Rules.preset("short"), ["Ann", "Bob", "Cy", "Di"], clock=wall_clock)
>>> sheet.phase, sheet.names[sheet.dealer_of(0)], sheet.cards_of(0)
('trump', 'Ann', 5)
"""

from ohhell.keeper.errors import SheetSetupError, TricksDoNotAddUpError, TricksOutOfRangeError, TrumpNotAllowedError
from ohhell.keeper.rows import DealRow, HistoryLine
from ohhell.keeper.sheet import ScoreSheet
from ohhell.keeper.trump import TrumpCall

__all__ = [
    "DealRow",
    "HistoryLine",
    "ScoreSheet",
    "SheetSetupError",
    "TricksDoNotAddUpError",
    "TricksOutOfRangeError",
    "TrumpCall",
    "TrumpNotAllowedError",
]
