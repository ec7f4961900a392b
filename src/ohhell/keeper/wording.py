"""Sentences the keeper shows in more than one place: the terminal, the web page and the printed sheet."""

from __future__ import annotations

from ohhell.keeper.rows import MINUS, join_names, score_text
from ohhell.keeper.sheet import ScoreSheet
from ohhell.rules import Rules

TIMES = "\N{MULTIPLICATION SIGN}"


def scoring_line(rules: Rules) -> str:
    """The scoring of ``rules`` in one line, to check the arithmetic at the table."""
    made = {
        "tricks+10": "10 + tricks",
        "10+bid": "10 + bid",
        "5+bid": "5 + bid",
        "magicians": f"20 + 10 {TIMES} bid",
    }[rules.scoring]
    missed = {"tricks+10": "the tricks", "10+bid": "0", "5+bid": "0", "magicians": f"{MINUS}10 for each trick off"}[
        rules.scoring
    ]
    if rules.miss_penalty:
        missed = f"{MINUS}1 for each trick off"
    line = f"Bid made: {made}. Missed: {missed}."
    if rules.zero_bid_bonus is not None:
        line += f" A made bid of 0: {rules.zero_bid_bonus}."
    if rules.hook:
        line += " The dealer bids last and may not make the bids total the cards."
    return line


def result_sentence(sheet: ScoreSheet) -> str:
    """Who won (or shares the win), or who leads so far: the line under the sheet."""
    names, totals = sheet.names, sheet.totals
    if sheet.winners is not None:
        best = totals[sheet.winners[0]]
        who = join_names([names[s] for s in sheet.winners])
        if len(sheet.winners) == 1:
            return f"Winner: {who}, {score_text(best)} points."
        return f"Shared win: {who}, {score_text(best)} points each."
    finished = sum(1 for row in sheet.rows if row.is_finished)
    if finished == 0:
        return "No deal scored yet."
    leaders = sheet.leaders
    return (
        f"After deal {finished} of {sheet.deal_count}: {join_names([names[s] for s in leaders])}"
        f" {'leads' if len(leaders) == 1 else 'lead'} with {score_text(totals[leaders[0]])}."
    )
