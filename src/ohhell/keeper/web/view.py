"""What the keeper's page is sent: the sheet as plain JSON, with every sentence it shows already written.

The browser only lays this out. Whose deal, the cards, the trump, who bids next, which bids are allowed and why one
is not, the rows with points and running totals, the history: all come from the same
:class:`~ohhell.keeper.sheet.ScoreSheet` the terminal and the printed sheet use.
"""

from __future__ import annotations

from typing import Any

from ohhell.keeper.events import time_text
from ohhell.keeper.ledger import hook_sentence
from ohhell.keeper.rows import DealRow, score_text
from ohhell.keeper.sheet import ScoreSheet
from ohhell.keeper.trump import TrumpCall
from ohhell.keeper.web.store import SheetSummary
from ohhell.keeper.wording import result_sentence, scoring_line
from ohhell.rules import Rules


def sheet_state(sheet_id: int, sheet: ScoreSheet) -> dict[str, Any]:
    """Everything the page shows about sheet ``sheet_id``; ``seq`` is the number of events it has seen."""
    return {
        "id": sheet_id,
        "seq": len(sheet.events),
        "rules": sheet.rules.describe(),
        "scoring": scoring_line(sheet.rules),
        "special_cards": sheet.rules.special_cards,
        "names": list(sheet.names),
        "first_dealer": sheet.first_dealer,
        "deal_count": sheet.deal_count,
        "phase": sheet.phase,
        "now": _now(sheet),
        "rows": [_row(row) for row in sheet.rows],
        "totals": [score_text(t) for t in sheet.totals],
        "winners": None if sheet.winners is None else list(sheet.winners),
        "leaders": list(sheet.leaders),
        "result": result_sentence(sheet),
        "history": [
            {"at": time_text(line.at), "by": line.by, "text": line.text, "correction": line.correction}
            for line in sheet.history
        ],
    }


def _now(sheet: ScoreSheet) -> dict[str, Any] | None:
    """The deal in progress and the question the table answers next."""
    index = sheet.current
    if index is None:
        return None
    row = sheet.rows[index]
    dealer = sheet.dealer_of(index)
    forbidden = sheet.forbidden_bid
    return {
        "deal": index + 1,
        "cards": row.cards,
        "dealer": dealer,
        "trump": None if row.trump is None else _trump(row.trump),
        "trump_ruled": not row.trump_entered,
        "bid_order": list(sheet.bid_order(index)),
        "bids": list(row.bids),
        "bid_total": row.bid_total,
        "next_bidder": sheet.next_bidder,
        "allowed_bids": list(sheet.allowed_bids),
        "forbidden_bid": forbidden,
        "forbidden_reason": None
        if forbidden is None
        else hook_sentence(sheet.names[dealer], forbidden, row.cards) + ".",
    }


def _row(row: DealRow) -> dict[str, Any]:
    return {
        "deal": row.number,
        "cards": row.cards,
        "dealer": row.dealer,
        "trump": None if row.trump is None else _trump(row.trump),
        "trump_entered": row.trump_entered,
        "bids": list(row.bids),
        "tricks": None if row.tricks is None else list(row.tricks),
        "points": None if row.points is None else [score_text(p) for p in row.points],
        "made": [row.made(seat) for seat in range(len(row.bids))],
        "totals": [score_text(t) for t in row.totals] if row.is_finished else None,
        "corrected": sorted(row.corrected),
    }


def _trump(call: TrumpCall) -> dict[str, Any]:
    return {
        "code": call.text(),
        "symbol": call.symbol(),
        "text": call.describe(),
        "red": call.suit in (1, 2),
    }


def sheet_summary(summary: SheetSummary) -> dict[str, Any]:
    """One line of the list of sheets, from the sheet row alone."""
    rules = Rules.from_json(summary.rules)
    names = summary.names
    if summary.finished and summary.winners:
        who = " and ".join(names[s] for s in summary.winners)
        status = f"{'Winner' if len(summary.winners) == 1 else 'Shared win'}: {who}"
    else:
        status = f"{summary.event_count} entries so far"
    return {
        "id": summary.id,
        "preset": rules.preset_name,
        "rules": rules.describe(),
        "players": names,
        "totals": [score_text(t) for t in summary.totals],
        "finished": summary.finished,
        "status": status,
        "updated": time_text(summary.updated_at),
        "url": f"/keeper/{summary.id}",
    }
