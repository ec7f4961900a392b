"""Why? for the other seats: a computer player's reasons without what would show its hand.

A bot's :class:`~ohhell.bots.base.Decision` is written for the seat that made it: it may weigh cards it
still holds ("against 6.3 for the AC"). Before the reasons reach any other seat, the values of the cards it
did not play and its per-card chances are left out, and any card it still holds is named no more.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Final

from ohhell.actions import Action, verb_of
from ohhell.bots.base import Decision
from ohhell.bots.hints import explain
from ohhell.cards import RANK_NAMES, SUIT_NAMES, SUIT_OF, Card, parse_card
from ohhell.view import SeatView


def public_explanation(decision: Decision, view: SeatView) -> str:
    """The Why? of ``decision``, made by ``view.seat``, fit to show every seat."""
    public = dataclasses.replace(
        decision, card_chances=(), options=tuple(o for o in decision.options if verb_of(o.action) != "play")
    )
    return public_reason(explain(public), view, decision.action)


_CARD_TEXT: Final = re.compile(r"\b(?:the )?(?:10|[2-9TJQKA])[SHDC]\b|\b(?:the )?(?:MG|JE)\b")
_CARD_NAME: Final = re.compile(
    r"\b(?:the )?(" + "|".join(RANK_NAMES) + r") of (" + "|".join(SUIT_NAMES) + r")\b", re.IGNORECASE
)
HIDDEN: Final = "a card it still holds"


def public_reason(summary: str, view: SeatView, action: Action) -> str:
    """``summary`` with every mention of a card the seat still holds after ``action`` replaced by a phrase.

    The card played is public once it is on the table; the rest of the hand is not.

    >>> from ohhell import Deal, Rules, CardSet, parse_card
    >>> deal = Deal(Rules.preset("full", players=3, schedule=(2,)), dealer=2, turn_up=parse_card("9H"),
    ...             hands=[CardSet.parse("AS KH"), CardSet.parse("2S 3H"), CardSet.parse("QS QD")])
    >>> from ohhell.view import seat_view
    >>> public_reason("Plays the AS, keeping the KH; the king of hearts waits.", seat_view(deal, 0), parse_card("AS"))
    'Plays the AS, keeping a card it still holds; a card it still holds waits.'
    """
    played: Card | None = action if verb_of(action) == "play" else None
    held = set(view.hand)
    if played is not None:
        held.discard(played)
    held_kinds = {_kind(c) for c in held}

    def is_hidden(card: Card) -> bool:
        if card == played:
            return False
        return (_kind(card) in held_kinds) if card >= 52 else card in held

    def replace_text(match: re.Match[str]) -> str:
        token = match.group(0).removeprefix("the ")
        return HIDDEN if is_hidden(parse_card(token)) else match.group(0)

    def replace_name(match: re.Match[str]) -> str:
        rank = RANK_NAMES.index(match.group(1).lower())
        suit = SUIT_NAMES.index(match.group(2).lower())
        return HIDDEN if is_hidden(13 * suit + rank) else match.group(0)

    return _CARD_NAME.sub(replace_name, _CARD_TEXT.sub(replace_text, summary))


def _kind(card: Card) -> int:
    """Cards of one kind: a suited card is its own kind; the Magicians are one kind, the Jesters another."""
    return card if card < 52 else 52 + SUIT_OF[card]
