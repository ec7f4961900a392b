"""The trump of a deal as the score keeper knows it: a suit, or no trump, and what card was turned.

No cards pass through the keeper, so the table tells it the trump. The text form is short enough to type at a
prompt and is the exact inverse of :meth:`TrumpCall.text`:

>>> TrumpCall.parse("h"), TrumpCall.parse("MG S").describe(), TrumpCall.parse("JE").text()
(TrumpCall(suit=1, turned=None), 'spades (a Magician was turned; the dealer named trump)', 'JE')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ohhell.cards import SUIT_LETTERS, SUIT_NAMES, Suit
from ohhell.errors import OhHellError

MAGICIAN: Final = "MG"
JESTER: Final = "JE"
NO_TRUMP: Final = "NT"
SUIT_SYMBOLS: Final = "♠♥♦♣"

_SUIT_WORDS: Final[dict[str, Suit]] = {
    **{letter: suit for suit, letter in enumerate(SUIT_LETTERS)},
    **{name.upper(): suit for suit, name in enumerate(SUIT_NAMES)},
    **{symbol: suit for suit, symbol in enumerate(SUIT_SYMBOLS)},
}
_NO_TRUMP_WORDS: Final = frozenset({NO_TRUMP, "NO TRUMP", "NONE", "-"})


class TrumpCallError(OhHellError):
    """Text that names no trump suit, or a turned card that cannot give that trump."""

    code = "bad-trump"


@dataclass(frozen=True)
class TrumpCall:
    """A deal's trump: ``suit`` (``None`` for no trump) and the special card turned up, if one was.

    ``turned`` is ``"MG"`` when a Magician was turned and the dealer named ``suit``, ``"JE"`` when a Jester was
    turned (no trump), and ``None`` when an ordinary card (or nothing) decided it.
    """

    suit: Suit | None
    turned: str | None = None

    def __post_init__(self) -> None:
        if self.suit is not None and not (isinstance(self.suit, int) and 0 <= self.suit < 4):
            raise TrumpCallError(f"{self.suit!r} is not a suit")
        if self.turned == MAGICIAN and self.suit is None:
            raise TrumpCallError("after a turned Magician the dealer names a suit, so there is a trump suit")
        if self.turned == JESTER and self.suit is not None:
            raise TrumpCallError("a turned Jester means no trump, so no suit can be trump")
        if self.turned not in (None, MAGICIAN, JESTER):
            raise TrumpCallError(f"the turned card must be MG, JE or none, not {self.turned!r}")

    @classmethod
    def parse(cls, text: str) -> TrumpCall:
        """``S``, ``spades`` or ``♠``: a suit; ``NT``: no trump; ``JE``: a Jester turned; ``MG H``: a Magician."""
        words = text.strip().upper().replace(",", " ").split()
        if not words:
            raise TrumpCallError("no trump was given: type a suit (S, H, D, C), NT, JE, or MG and a suit")
        first, rest = words[0], " ".join(words[1:])
        if first in (MAGICIAN, "MAGICIAN"):
            if rest not in _SUIT_WORDS:
                raise TrumpCallError(
                    f"after a turned Magician the dealer names a suit: write MG and a suit, not {text!r}"
                )
            return cls(_SUIT_WORDS[rest], MAGICIAN)
        if first in (JESTER, "JESTER") and not rest:
            return cls(None, JESTER)
        whole = " ".join(words)
        if whole in _NO_TRUMP_WORDS:
            return cls(None)
        if whole in _SUIT_WORDS:
            return cls(_SUIT_WORDS[whole])
        raise TrumpCallError(f"{text!r} is not a trump: type a suit (S, H, D, C), NT, JE, or MG and a suit")

    def text(self) -> str:
        """The short form :meth:`parse` reads back: ``H``, ``NT``, ``JE``, ``MG H``."""
        if self.turned == JESTER:
            return JESTER
        letter = NO_TRUMP if self.suit is None else SUIT_LETTERS[self.suit]
        return f"{MAGICIAN} {letter}" if self.turned == MAGICIAN else letter

    def symbol(self) -> str:
        """``♥`` or ``NT``, for a narrow column."""
        return NO_TRUMP if self.suit is None else SUIT_SYMBOLS[self.suit]

    def describe(self) -> str:
        """The trump in words, saying which special card decided it."""
        name = "no trump" if self.suit is None else SUIT_NAMES[self.suit]
        if self.turned == MAGICIAN:
            return f"{name} (a Magician was turned; the dealer named trump)"
        if self.turned == JESTER:
            return f"{name} (a Jester was turned)"
        return name
