"""What leaves the table as a whole: the game record (``ohhell-record/1``) and the trick-by-trick replay.

Both hold the finished hands only. A hand still being played keeps its cards hidden, so the record of
an unfinished game stops at its last finished hand (records may stop early; ``ohhell check`` accepts
them) and the replay shows the hands that are over. Neither tells the deal number before the series is over (it
would give every hand still to come): the record carries its commitment, and the number and salt once it is over
(``deal_commitment``, docs/records.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ohhell.cards import CardSet, card_text, suit_text
from ohhell.game import Game
from ohhell.records import to_record
from ohhell.server.table import wording
from ohhell.server.table.secret import DealSecret
from ohhell.server.table.undo import Undo


def finished_deals(game: Game) -> int:
    """How many deals are over."""
    return len(game.results)


def public_record(game: Game, secret: DealSecret | None, undos: Sequence[Undo] = ()) -> dict[str, Any]:
    """The game record of every finished deal (with the ``undos`` extension of those deals, if any).

    ``deal_number`` only once the series is over, with the commitment's salt; before, the commitment alone. A seat
    that left during the hand under way is listed once that hand is in the record (``left`` names an action of it).
    """
    record = to_record(game)
    record["deals"] = record["deals"][: finished_deals(game)]
    if not game.is_over:
        record.pop("deal_number", None)
    if secret is not None:
        record["deal_commitment"] = secret.record_extension(game.is_over)
    if "left" in record:
        played = sum(len(deal["actions"]) for deal in record["deals"])
        record["left"] = [entry for entry in record["left"] if entry["action"] <= played]
        if not record["left"]:
            del record["left"]
    entries = undo_entries(undos, finished_deals(game))
    if entries:
        record["undos"] = entries
    return record


def undo_entries(undos: Sequence[Undo], deals: int) -> list[dict[str, Any]]:
    """The undos of the first ``deals`` deals, as the record's ``undos`` extension and the replay write them."""
    return [{"deal": u.deal, "seat": u.seat, "taken_back": list(u.taken_back)} for u in undos if u.deal < deals]


def replay_data(
    game: Game, names: Sequence[str], undos: Sequence[Undo] = (), secret: DealSecret | None = None
) -> dict[str, Any]:
    """Every finished deal, trick by trick, with the hands as dealt, and what Undo took back in them: what the
    replay page steps through. ``number`` (as text) and ``salt`` once the series is over, ``null`` before."""
    deals = []
    totals = [0] * game.rules.players
    for deal, result in zip(game.deals, game.results, strict=False):
        totals = [t + p for t, p in zip(totals, result.points, strict=True)]
        deals.append(
            {
                "index": deal.deal_index,
                "title": wording.hand_title(deal.deal_index, game.rules.deals, deal.size),
                "dealer": deal.dealer,
                "first_leader": deal.first_leader,
                "turn_up": None if deal.turn_up is None else card_text(deal.turn_up),
                "trump": suit_text(deal.trump),
                "hands": [CardSet(mask).texts() for mask in deal.hands_dealt],
                "bids": list(result.bids),
                "won": list(result.tricks),
                "points": list(result.points),
                "totals": totals,
                "tricks": [
                    {
                        "leader": trick.leader,
                        "winner": trick.winner,
                        "cards": [
                            {"seat": trick.seat_of(i, game.rules.players), "card": card_text(c)}
                            for i, c in enumerate(trick.cards)
                        ],
                    }
                    for trick in deal.tricks
                ],
            }
        )
    return {
        "number": str(game.number) if game.is_over else None,
        "commitment": None if secret is None else secret.part(-1, game.is_over),
        "rules": game.rules.describe(),
        "players": list(names),
        "deals": deals,
        "complete": game.is_over,
        "undos": undo_entries(undos, finished_deals(game)),
    }
