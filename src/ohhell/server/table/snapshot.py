"""What the server tells one seat, built from that seat's view and public facts only.

:func:`state_message` is the whole table as ``seat`` may see it: its own hand, the turned card, bids,
tricks, the trick in progress and the last one, the score sheet, whose turn it is and the sentences to
show. Nothing in it comes from another seat's hand. The one exception is :func:`hands_message`, Show
All Hands, which is only built for a finished deal, when every card has been played.

After each action a seat is told only what changed (:func:`action_message`): the parts of the state whose
values differ from what it was last sent (:class:`Sent`), which :func:`merge` (and the page's script, the same
way) lays over the state it holds. A state message is sent when a seat joins, asks again, or the table moves
to the next hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ohhell.actions import BID_BASE, CHANGE_BASE, TRUMP_BASE, Action, action_text, argument_of, verb_of
from ohhell.cards import SUIT_LETTERS, CardSet, card_text, suit_text
from ohhell.deal import Deal, Trick
from ohhell.game import Game
from ohhell.server.party.spectator import WATCHER, public_view
from ohhell.server.table import wording
from ohhell.server.table.seats import Seat
from ohhell.server.table.secret import DealSecret
from ohhell.view import SeatView, seat_view


@dataclass(frozen=True)
class TableFacts:
    """The public facts of a table that are not in the engine: its id, seats, the deal shown, the reasons."""

    game_id: int
    seats: Sequence[Seat]
    shown_deal: int
    reasons: Mapping[int, str]
    """Computer players' explanations (Why?), by the ``seq`` of their action."""
    secret: DealSecret | None = None
    """The deal number and its commitment (:mod:`ohhell.server.table.secret`); none: nothing is told of it."""
    sealed: bool = False
    """The deal number is kept from every seat (a duplicate event's table, until the event closes)."""
    names: tuple[str, ...] = field(init=False)
    """The seats' names."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", tuple(seat.name for seat in self.seats))


def action_count(game: Game) -> int:
    """How many actions the game has had: the ``seq`` of the next one."""
    return sum(len(deal.actions) for deal in game.deals)


def first_seq(game: Game, deal_index: int) -> int:
    """The ``seq`` of the first action of deal ``deal_index``."""
    return sum(len(deal.actions) for deal in game.deals[:deal_index])


def shown_view(game: Game, facts: TableFacts, seat: int) -> SeatView:
    """``seat``'s view of the deal the table shows (a finished one while it waits for Next hand).

    A spectator (:data:`~ohhell.server.party.spectator.WATCHER`) gets the public view, which holds no hand. No view
    carries the deal number: it stays on the server (:mod:`ohhell.server.table.secret`).
    """
    if seat == WATCHER:
        return public_view(game.deals[facts.shown_deal], game.totals_before(facts.shown_deal))
    if facts.shown_deal == game.deal_index:
        return game.view(seat)
    return seat_view(game.deals[facts.shown_deal], seat, game.totals_before(facts.shown_deal))


def state_message(game: Game, facts: TableFacts, seat: int) -> dict[str, Any]:
    """The whole table as ``seat`` sees it."""
    return full_state(game, facts, seat)[0]


@dataclass
class Sent:
    """What one seat was last told, part by part: what the next :func:`action_message` compares against."""

    game: dict[str, Any]
    """The game part's keys that actions change (:func:`_game_progress`)."""
    deal: dict[str, Any]
    """The deal part, without its reasons (each action's reason is sent with it)."""
    sheet_rows: int
    sheet_current: dict[str, Any] | None


def full_state(game: Game, facts: TableFacts, seat: int) -> tuple[dict[str, Any], Sent]:
    """The whole table as ``seat`` sees it, and the record of what it was told."""
    view = shown_view(game, facts, seat)
    deal = game.deals[facts.shown_deal]
    progress = _game_progress(game, facts, seat)
    deal_part = _deal_part(game, deal, view, facts)
    sheet = score_sheet(game, facts.shown_deal)
    message = {
        "type": "state",
        "seq": action_count(game),
        "game": {**_game_setting(game, facts, seat), **progress},
        "deal": {**deal_part, "reasons": _reasons(game, view, facts)},
        "sheet": sheet,
    }
    return message, Sent(progress, deal_part, len(sheet["rows"]), sheet["current"])


def _game_setting(game: Game, facts: TableFacts, seat: int) -> dict[str, Any]:
    """The game part's keys that no action changes."""
    return {
        "id": facts.game_id,
        "preset": game.rules.preset_name,
        "rules": game.rules.describe(),
        "deals": game.rules.deals,
        "you": seat,
        "players": [s.public() for s in facts.seats],
    }


def _game_progress(game: Game, facts: TableFacts, seat: int) -> dict[str, Any]:
    """The game part's keys that actions change: the end of a hand, the end of the game."""
    winners = game.winners
    shown_finished = game.deals[facts.shown_deal].is_over
    return {
        "over": game.is_over,
        "winners": winners,
        "result": (
            None if winners is None else wording.result_text(winners, game.totals, seat, facts.names, game.resigned)
        ),
        "resigned": game.resigned,
        "waiting_for_next": shown_finished and not game.is_over,
        "next_deal": facts.shown_deal + 1 if shown_finished and not game.is_over else None,
        "commitment": None if facts.secret is None else facts.secret.part(seat, game.is_over and not facts.sealed),
    }


def _trick_cards(trick: Trick, players: int) -> list[dict[str, Any]]:
    return [{"seat": trick.seat_of(i, players), "card": card_text(c)} for i, c in enumerate(trick.cards)]


def trick_part(trick: Trick, players: int, seat: int, names: Sequence[str]) -> dict[str, Any]:
    """A finished trick: who led, the cards by seat, who won."""
    return {
        "leader": trick.leader,
        "winner": trick.winner,
        "cards": _trick_cards(trick, players),
        "sentence": wording.trick_sentence(wording.who(trick.winner, seat, names)),
    }


def _cards_left(view: SeatView) -> list[int]:
    played = [0] * view.players
    for seat, action in view.history:
        if action < 60:
            played[seat] += 1
    return [view.hand_size - n for n in played]


def _deal_part(game: Game, deal: Deal, view: SeatView, facts: TableFacts) -> dict[str, Any]:
    names = facts.names
    seat = view.seat
    led = deal.led_suit
    left = _cards_left(view)
    finished = view.phase == "finished"
    plates = [
        {
            "bid": bid,
            "won": won,
            "line": wording.plate_line(bid, won),
            "label": wording.plate_label(bid, won, over=finished, abandoned=game.is_over and not finished),
            "cards_left": left[s],
        }
        for s, (bid, won) in enumerate(zip(view.bids, view.tricks_won, strict=True))
    ]
    legal = view.legal_actions
    playable = [card_text(a) for a in legal if verb_of(a) == "play"]
    hand = view.hand.texts()
    return {
        "index": view.deal_index,
        "title": wording.hand_title(view.deal_index, game.rules.deals, view.hand_size),
        "size": view.hand_size,
        "dealer": view.dealer,
        "turn_up": None if view.turn_up is None else card_text(view.turn_up),
        "trump": suit_text(view.trump),
        "trump_text": wording.trump_text(view),
        "phase": view.phase,
        "to_act": view.to_act,
        "my_turn": view.my_turn,
        "status": wording.status(view, names),
        "bar": wording.bid_bar(view.bids, view.hand_size),
        "plates": plates,
        "hand": hand,
        "playable": playable,
        "unplayable": {
            text: wording.unplayable_reason(card, view, led, names)
            for card, text in zip(view.hand.sorted(), hand, strict=True)
            if text not in playable
        },
        "bids": _bid_options(view, legal),
        "changes": [argument_of(a) for a in legal if verb_of(a) == "change"],
        "trumps": [SUIT_LETTERS[a - TRUMP_BASE] for a in legal if verb_of(a) == "trump"],
        "forbidden_reason": wording.forbidden_reason(view) if view.my_turn and view.phase == "bidding" else None,
        "trick": [{"seat": s, "card": card_text(c)} for s, c in view.trick_seats()],
        "winning": deal.trick_winner_so_far() if view.trick else None,
        "last_trick": trick_part(view.tricks[-1], view.players, seat, names) if view.tricks else None,
        "tricks_played": len(view.tricks),
        "finished": view.phase == "finished",
    }


def _reasons(game: Game, view: SeatView, facts: TableFacts) -> list[dict[str, Any]]:
    """The computer players' explanations (Why?) of the deal shown, in order."""
    first = first_seq(game, view.deal_index)
    return [
        why_entry(first + i, actor, action, facts)
        for i, (actor, action) in enumerate(view.history)
        if first + i in facts.reasons
    ]


def why_entry(seq: int, actor: int, action: Action, facts: TableFacts) -> dict[str, Any]:
    """One line of Why?: who did what, and the reason the computer player gave."""
    return {
        "seq": seq,
        "seat": actor,
        "sentence": wording.action_sentence(facts.names[actor], action),
        "reason": facts.reasons[seq],
    }


def _bid_options(view: SeatView, legal: Sequence[Action]) -> list[dict[str, Any]]:
    """Every number from 0 to the hand size, each allowed or not, when the seat is to bid."""
    allowed = {argument_of(a) for a in legal if verb_of(a) == "bid"}
    if not allowed:
        return []
    return [{"bid": n, "allowed": n in allowed} for n in range(view.hand_size + 1)]


def score_sheet(game: Game, shown_deal: int) -> dict[str, Any]:
    """Every finished hand (bids, tricks, points, running totals), the bids of the hand shown, the totals."""
    rows = []
    running = [0] * game.rules.players
    for index, result in enumerate(game.results):
        cells = []
        for seat, (bid, won, points) in enumerate(zip(result.bids, result.tricks, result.points, strict=True)):
            running[seat] += points
            cells.append({"bid": bid, "won": won, "points": points, "made": bid == won, "total": running[seat]})
        rows.append(
            {
                "hand": index + 1,
                "cards": result.cards,
                "dealer": result.dealer,
                "trump": suit_text(result.trump),
                "cells": cells,
            }
        )
    return {"rows": rows, "current": current_row(game, shown_deal), "totals": running}


def current_row(game: Game, shown_deal: int) -> dict[str, Any] | None:
    """The score sheet's line for the hand being played: its bids and tricks so far (``None`` once it is over)."""
    deal = game.deals[shown_deal]
    if deal.is_over:
        return None
    return {
        "hand": shown_deal + 1,
        "cards": deal.size,
        "dealer": deal.dealer,
        "trump": suit_text(deal.trump),
        "cells": [{"bid": None if b < 0 else b, "won": w} for b, w in zip(deal.bids, deal.tricks_won, strict=True)],
    }


def action_message(
    game: Game, facts: TableFacts, seat: int, seq: int, actor: int, action: Action, trick: Trick | None, sent: Sent
) -> dict[str, Any]:
    """One action as it happened, for ``seat``: who did what, and what changed since ``sent`` (which it updates).

    ``changes`` holds, for each part of the state (``game``, ``deal``, ``sheet``), the keys whose values are new;
    ``why`` is the line the action adds to the Why? list, if a computer player explained it. Laid over the state
    the seat holds (:func:`merge`), they give exactly :func:`state_message` after the action.
    """
    changes: dict[str, Any] = {}
    progress = _game_progress(game, facts, seat)
    changed_game = {key: value for key, value in progress.items() if sent.game.get(key) != value}
    if changed_game:
        changes["game"] = changed_game
        sent.game = progress
    deal_part = _deal_part(game, game.deals[facts.shown_deal], shown_view(game, facts, seat), facts)
    changed_deal = {key: value for key, value in deal_part.items() if sent.deal.get(key, _MISSING) != value}
    if changed_deal:
        changes["deal"] = changed_deal
        sent.deal = deal_part
    if len(game.results) != sent.sheet_rows:
        sheet = score_sheet(game, facts.shown_deal)
        changes["sheet"] = sheet
        sent.sheet_rows, sent.sheet_current = len(sheet["rows"]), sheet["current"]
    else:
        current = current_row(game, facts.shown_deal)
        if current != sent.sheet_current:
            changes["sheet"] = {"current": current}
            sent.sheet_current = current
    return {
        "type": "action",
        "seq": seq,
        "seat": actor,
        "action": action_text(action),
        "sentence": wording.action_sentence(wording.who(actor, seat, facts.names), action),
        "reason": facts.reasons.get(seq),
        "trick": None if trick is None else trick_part(trick, game.rules.players, seat, facts.names),
        "why": why_entry(seq, actor, action, facts) if seq in facts.reasons else None,
        "changes": changes,
    }


_MISSING: Any = object()


def merge(state: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """The state a seat holds after ``message`` (a state or an action message): what the page's script does.

    >>> merge({"seq": 3, "game": {"over": False}, "deal": {"bar": "x", "reasons": []}, "sheet": {"current": 1}},
    ...       {"type": "action", "seq": 3, "why": None, "changes": {"deal": {"bar": "y"}}})["deal"]
    {'bar': 'y', 'reasons': []}
    """
    if message["type"] == "state":
        return message
    changes = message["changes"]
    merged = {
        **state,
        "seq": message["seq"] + 1,
        "game": {**state["game"], **changes.get("game", {})},
        "deal": {**state["deal"], **changes.get("deal", {})},
        "sheet": {**state["sheet"], **changes.get("sheet", {})},
    }
    if message.get("why") is not None:
        merged["deal"]["reasons"] = [*state["deal"]["reasons"], message["why"]]
    return merged


def hands_message(game: Game, facts: TableFacts, deal_index: int) -> dict[str, Any]:
    """Show All Hands: what everyone held in a finished deal. Refuses a deal still being played."""
    deal = game.deals[deal_index]
    if not deal.is_over or deal.points is None:
        raise ValueError(f"hand {deal_index + 1} is still being played: its cards are shown once it is over")
    return {
        "type": "hands",
        "deal": deal_index,
        "title": wording.hand_title(deal_index, game.rules.deals, deal.size),
        "turn_up": None if deal.turn_up is None else card_text(deal.turn_up),
        "trump": suit_text(deal.trump),
        "players": [
            {
                "name": facts.names[s],
                "hand": CardSet(mask).texts(),
                "bid": deal.bids[s],
                "won": deal.tricks_won[s],
                "points": deal.points[s],
            }
            for s, mask in enumerate(deal.hands_dealt)
        ],
    }


def hint_message(action: Action, reason: str, details: Sequence[str] = ()) -> dict[str, Any]:
    """A suggested action with its reason, and the numbers behind it (shown folded away)."""
    verb = verb_of(action)
    return {
        "type": "hint",
        "action": action_text(action),
        "card": card_text(action) if verb == "play" else None,
        "bid": action - BID_BASE if verb == "bid" else action - CHANGE_BASE if verb == "change" else None,
        "text": reason,
        "details": list(details),
    }


def error_message(code: str, message: str, seq: int) -> dict[str, Any]:
    """A refused message: nothing changed."""
    return {"type": "error", "code": code, "message": message, "seq": seq}
