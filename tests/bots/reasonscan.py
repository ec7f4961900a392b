"""What a public reason (Why?) may not say, checked against the cards hidden when it was given.

A reason is shown to every seat. It may name the card just played and the cards on the table; it may not name a
card still hidden in any hand (the bot's own unplayed cards included), count a suit, give a number of the bot's
reckoning (points, chances, expected tricks) or say anything that holds only relative to the hand ("its highest
heart" says no higher heart is held; "it cannot win" says no winner is held).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from ohhell.cards import (
    FIRST_MAGICIAN,
    JESTER_SUIT,
    MAGICIAN_SUIT,
    RANK_LETTERS,
    RANK_NAMES,
    SUIT_LETTERS,
    SUIT_NAMES,
    SUIT_OF,
    Card,
)

_CODE: Final = re.compile(r"\b(10|[2-9TJQKA])([SHDC])\b|\b(MG|JE)\b")
_NAME: Final = re.compile(r"\b(" + "|".join(RANK_NAMES) + r") of (" + "|".join(SUIT_NAMES) + r")\b", re.IGNORECASE)
_SPECIAL: Final = re.compile(r"\b(magicians?|jesters?)\b", re.IGNORECASE)
_NUMBER: Final = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen)"
SUIT_COUNT: Final = re.compile(
    rf"\b{_NUMBER} (?:cards?|trumps?|spades|hearts|diamonds|clubs)\b|\(\d+ cards?\)|\blongest\b|\bshortest\b",
    re.IGNORECASE,
)
"""A count of the cards of a suit, or a claim about a suit's length."""
HAND_RELATIVE: Final = re.compile(
    r"\b(?:highest|lowest|strongest|weakest|best|worst|only|holds?|held|holding|keeps?|keeping|kept|cannot|can't"
    r"|could not|nobody can beat|sure|obvious|counted|misjudged|void)\b",
    re.IGNORECASE,
)
"""Words that only hold relative to the hand."""
RECKONING: Final = re.compile(
    r"\b(?:points?|expected|chances?|worlds?|simulat\w*|searched)\b|\d\.\d|\d%", re.IGNORECASE
)
"""Numbers of the bot's own reckoning: points, chances, expected tricks, what a search found."""


def cards_named(text: str) -> set[Card]:
    """The suited cards ``text`` names, as codes (``KH``) or in words (``king of hearts``)."""
    found: set[Card] = set()
    for rank, suit, _ in _CODE.findall(text):
        if rank:
            found.add(13 * SUIT_LETTERS.index(suit) + RANK_LETTERS.index(rank[0] if rank != "10" else "T"))
    for rank, suit in _NAME.findall(text):
        found.add(13 * SUIT_NAMES.index(suit.lower()) + RANK_NAMES.index(rank.lower()))
    return found


def specials_named(text: str) -> set[int]:
    """The kinds of special card ``text`` names (:data:`MAGICIAN_SUIT`, :data:`JESTER_SUIT`)."""
    kinds = {MAGICIAN_SUIT if w.lower().startswith("m") else JESTER_SUIT for w in _SPECIAL.findall(text)}
    kinds |= {MAGICIAN_SUIT if code == "MG" else JESTER_SUIT for *_, code in _CODE.findall(text) if code}
    return kinds


def problems(text: str, hidden: Iterable[Card], shown: Iterable[Card]) -> list[str]:
    """What ``text`` gives away (hidden cards named, suit counts, hand-relative claims, the bot's own numbers), and
    cards written as codes rather than names: empty when nothing.

    ``hidden`` are the cards still in some hand (the bot's own after its action included); ``shown`` the cards
    anyone can see (the card just played, the trick on the table, the turned card): a Magician or Jester may be
    mentioned only when one is shown, since copies are alike.
    """
    hidden = set(hidden)
    shown_kinds = {SUIT_OF[c] for c in shown if c >= FIRST_MAGICIAN}
    found = ["names a hidden card" for _ in cards_named(text) & hidden]
    hidden_kinds = {SUIT_OF[c] for c in hidden if c >= FIRST_MAGICIAN}
    for kind in (specials_named(text) & hidden_kinds) - shown_kinds:
        found.append(f"names a hidden {'Magician' if kind == MAGICIAN_SUIT else 'Jester'}")
    if _CODE.search(text):
        found.append("writes a card as a code")
    if SUIT_COUNT.search(text):
        found.append("counts a suit")
    found += [f"says what holds only for its hand: {m.group(0).lower()!r}" for m in HAND_RELATIVE.finditer(text)]
    if RECKONING.search(text):
        found.append("gives the numbers of its reckoning")
    return found
