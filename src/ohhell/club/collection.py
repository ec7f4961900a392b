"""The Collection: card backs unlocked by level, card faces unlocked by achievements, all drawn here as SVG.

Every picture is made by the functions below (no outside art), so they are under the project's licence and
dedicated to the public domain besides (CC0 1.0, see docs/club.md and ``src/ohhell/club/LICENSES.md``). The
``classic`` back and faces are the CC0 pictures the game always had (``/static/cards``).

>>> [back.key for back in BACKS]
['classic', 'lattice', 'baize', 'midnight', 'chevron', 'sunburst', 'gold']
>>> face_svg("four-colour", "QD").startswith("<svg")
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final
from xml.sax.saxutils import escape

W: Final = 240
H: Final = 336
"""Every card is 240 x 336 (2.5 x 3.5 in), like the classic pictures."""


@dataclass(frozen=True)
class Back:
    """A card back and the level that unlocks it."""

    key: str
    title: str
    level: int


@dataclass(frozen=True)
class Faces:
    """A style of card faces and the achievement that unlocks it (``None``: everyone has it)."""

    key: str
    title: str
    achievement: str | None


@dataclass(frozen=True)
class Achievement:
    """Something done in a series that unlocks a face style."""

    key: str
    title: str
    how: str


BACKS: Final = (
    Back("classic", "Classic blue", 1),
    Back("lattice", "Red lattice", 1),
    Back("baize", "Green baize", 2),
    Back("midnight", "Midnight stars", 3),
    Back("chevron", "Orange chevrons", 4),
    Back("sunburst", "Sunburst", 6),
    Back("gold", "Gold leaf", 8),
)
ACHIEVEMENTS: Final = (
    Achievement("first-win", "First win", "Win a series (a shared win counts)."),
    Achievement("first-club-win", "First club win", "Win a series at a club table."),
    Achievement("ten-exact", "Ten in a row", "Make ten exact bids in a row in one series."),
)
FACES: Final = (
    Faces("classic", "Classic", None),
    Faces("four-colour", "Four colours", "first-win"),
    Faces("large-print", "Large print", "first-club-win"),
    Faces("plain", "Plain", "ten-exact"),
)
BACK_KEYS: Final = frozenset(back.key for back in BACKS)
FACE_KEYS: Final = frozenset(face.key for face in FACES)


def backs_unlocked(level: int) -> list[str]:
    """The backs a person of ``level`` may use."""
    return [back.key for back in BACKS if back.level <= level]


def faces_unlocked(achievements: set[str]) -> list[str]:
    """The face styles the achievements unlock."""
    return [face.key for face in FACES if face.achievement is None or face.achievement in achievements]


# ----------------------------------------------------------------- backs


def _frame(inner: str, defs: str = "", border: str = "#ffffff") -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
        f"<defs>{defs}</defs>"
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{H - 1}" rx="12" fill="{border}" stroke="#222"/>'
        f'<g clip-path="url(#inner)">{inner}</g></svg>'
    )


_INNER: Final = '<clipPath id="inner"><rect x="12" y="12" width="216" height="312" rx="10"/></clipPath>'


def _lattice() -> str:
    pattern = (
        '<pattern id="p" width="16" height="16" patternUnits="userSpaceOnUse">'
        '<rect width="16" height="16" fill="#a3202a"/><path d="M0 8L8 0L16 8L8 16Z" fill="none" stroke="#f2c6c9"'
        ' stroke-width="1.5"/></pattern>'
    )
    return _frame('<rect width="240" height="336" fill="url(#p)"/>', _INNER + pattern)


def _baize() -> str:
    pattern = (
        '<pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse">'
        '<rect width="10" height="10" fill="#1d6b3a"/><circle cx="5" cy="5" r="1.3" fill="#2f8a50"/></pattern>'
    )
    emblem = (
        '<circle cx="120" cy="168" r="46" fill="none" stroke="#e8d9a0" stroke-width="4"/>'
        '<text x="120" y="186" font-size="52" text-anchor="middle" fill="#e8d9a0" font-family="serif">\u2663</text>'
    )
    return _frame('<rect width="240" height="336" fill="url(#p)"/>' + emblem, _INNER + pattern)


def _midnight() -> str:
    stars = "".join(
        f'<circle cx="{(i * 53) % 216 + 12}" cy="{(i * 97) % 312 + 12}" r="{1 + (i % 3) * 0.8}" fill="#f6f0c8"/>'
        for i in range(60)
    )
    moon = '<circle cx="150" cy="110" r="34" fill="#f6f0c8"/><circle cx="164" cy="100" r="30" fill="#15204a"/>'
    return _frame('<rect width="240" height="336" fill="#15204a"/>' + stars + moon, _INNER)


def _chevron() -> str:
    pattern = (
        '<pattern id="p" width="24" height="16" patternUnits="userSpaceOnUse">'
        '<rect width="24" height="16" fill="#e0702a"/><path d="M0 12L12 4L24 12" fill="none" stroke="#fbe0c8"'
        ' stroke-width="3"/></pattern>'
    )
    return _frame('<rect width="240" height="336" fill="url(#p)"/>', _INNER + pattern)


def _sunburst() -> str:
    rays = "".join(
        f'<path d="M120 168L{120 + 400 * _cos(a)} {168 + 400 * _sin(a)}L{120 + 400 * _cos(a + 7.5)}'
        f' {168 + 400 * _sin(a + 7.5)}Z" fill="#f5b700"/>'
        for a in range(0, 360, 15)
    )
    sun = '<circle cx="120" cy="168" r="30" fill="#c2410c"/>'
    return _frame('<rect width="240" height="336" fill="#fde68a"/>' + rays + sun, _INNER)


def _gold() -> str:
    gradient = (
        '<linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#8a6a12"/>'
        '<stop offset="0.5" stop-color="#f3d36b"/><stop offset="1" stop-color="#8a6a12"/></linearGradient>'
    )
    border = '<rect x="24" y="24" width="192" height="288" rx="8" fill="none" stroke="#5a4408" stroke-width="3"/>'
    mark = '<text x="120" y="190" font-size="64" text-anchor="middle" fill="#5a4408" font-family="serif">\u2660</text>'
    return _frame('<rect width="240" height="336" fill="url(#g)"/>' + border + mark, _INNER + gradient)


def _cos(degrees: float) -> float:
    return round(math.cos(math.radians(degrees)), 4)


def _sin(degrees: float) -> float:
    return round(math.sin(math.radians(degrees)), 4)


_BACK_DRAWINGS: Final[dict[str, Callable[[], str]]] = {
    "lattice": _lattice,
    "baize": _baize,
    "midnight": _midnight,
    "chevron": _chevron,
    "sunburst": _sunburst,
    "gold": _gold,
}


def back_svg(key: str) -> str:
    """The SVG of a drawn back (``classic`` is the static file the game always had)."""
    return _BACK_DRAWINGS[key]()


# ----------------------------------------------------------------- faces

SUITS: Final = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANKS: Final = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
FOUR_COLOURS: Final = {"S": "#111111", "H": "#c8102e", "D": "#1f5fbf", "C": "#17803d"}
TWO_COLOURS: Final = {"S": "#111111", "H": "#c8102e", "D": "#c8102e", "C": "#111111"}
CARD_TEXT: Final = frozenset(f"{r}{s}" for r in "23456789TJQKA" for s in "SHDC") | {"MG", "JE"}


def _face(body: str, background: str = "#ffffff") -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}"'
        ' font-family="DejaVu Sans, Arial, sans-serif">'
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{H - 1}" rx="12" fill="{background}" stroke="#222"/>'
        f"{body}</svg>"
    )


def _special(card: str, colour: str) -> str:
    word = "Magician" if card == "MG" else "Jester"
    mark = "\u2605" if card == "MG" else "\u263a"
    return _face(
        f'<text x="120" y="190" font-size="110" text-anchor="middle" fill="{colour}">{mark}</text>'
        f'<text x="120" y="290" font-size="30" text-anchor="middle" fill="{colour}">{word}</text>'
        f'<text x="22" y="48" font-size="34" font-weight="bold" fill="{colour}">{"W" if card == "MG" else "N"}</text>'
    )


def _indexed(card: str, colours: dict[str, str], index_size: int, centre_size: int, background: str) -> str:
    rank, suit = RANKS.get(card[0], card[0]), card[1]
    colour, symbol = colours[suit], SUITS[suit]
    corner = (
        f'<text x="20" y="{18 + index_size}" font-size="{index_size}" font-weight="bold" fill="{colour}">'
        f"{escape(rank)}</text>"
        f'<text x="{20 + index_size * 0.05}" y="{30 + index_size * 1.9}" font-size="{index_size * 0.9}"'
        f' fill="{colour}">{symbol}</text>'
    )
    flipped = f'<g transform="rotate(180 120 168)">{corner}</g>'
    centre = (
        f'<text x="120" y="{168 + centre_size * 0.35}" font-size="{centre_size}" text-anchor="middle"'
        f' fill="{colour}">{symbol}</text>'
    )
    return _face(corner + flipped + centre, background)


def _large_print(card: str) -> str:
    rank, suit = RANKS.get(card[0], card[0]), card[1]
    colour, symbol = FOUR_COLOURS[suit], SUITS[suit]
    return _face(
        f'<text x="120" y="160" font-size="{120 if len(rank) == 1 else 100}" font-weight="bold" text-anchor="middle"'
        f' fill="{colour}">{escape(rank)}</text>'
        f'<text x="120" y="290" font-size="120" text-anchor="middle" fill="{colour}">{symbol}</text>'
    )


def face_svg(style: str, card: str) -> str:
    """The SVG of ``card`` (record text: ``QH``, ``TS``, ``MG``, ``JE``) in a drawn face style."""
    if card not in CARD_TEXT:
        raise ValueError(f"there is no card {card!r}: write it as rank and suit, like QH or TS, or MG / JE")
    if style not in FACE_KEYS or style == "classic":
        raise ValueError(f"there is no drawn face style {style!r}")
    if card in ("MG", "JE"):
        return _special(card, "#5b2a86")
    if style == "four-colour":
        return _indexed(card, FOUR_COLOURS, 40, 130, "#ffffff")
    if style == "large-print":
        return _large_print(card)
    return _indexed(card, TWO_COLOURS, 34, 96, "#f7f3ea")
