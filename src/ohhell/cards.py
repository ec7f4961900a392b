"""Cards as small ints, hands as bitmasks, and their two-character text.

A card is an ``int``: ``suit * 13 + rank`` for the 52 suited cards (suits in the
order spades, hearts, diamonds, clubs; rank 0 is the two and 12 the ace), then
the four Magicians (52-55) and the four Jesters (56-59). Within a suit a higher
int is a higher card, which keeps trick comparison a single ``>``.

A set of cards is an ``int`` bitmask (bit ``c`` set when card ``c`` is in it),
wrapped in :class:`CardSet` for readable use:

>>> hand = CardSet.parse("AS 10H 2C")
>>> str(hand), len(hand), parse_card("TH") in hand
('AS TH 2C', 3, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from ohhell.errors import RecordError

Card = int
Suit = int

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3
SUITS: Final = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS: Final = "SHDC"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_LETTERS: Final = "23456789TJQKA"
RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")

FIRST_MAGICIAN: Final = 52
FIRST_JESTER: Final = 56
MAGICIANS: Final = (52, 53, 54, 55)
JESTERS: Final = (56, 57, 58, 59)
MAGICIAN_SUIT: Final = 4
"""The pseudo-suit of a Magician: it follows no suit and no suit follows it."""
JESTER_SUIT: Final = 5

STANDARD_PACK: Final = (1 << 52) - 1
"""The 52 suited cards as a bitmask."""
MAGICIAN_MASK: Final = 0xF << FIRST_MAGICIAN
JESTER_MASK: Final = 0xF << FIRST_JESTER
SPECIAL_MASK: Final = MAGICIAN_MASK | JESTER_MASK
FULL_PACK: Final = STANDARD_PACK | SPECIAL_MASK
"""The 60-card pack with four Magicians and four Jesters."""
SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in SUITS)

SUIT_OF: Final[tuple[Suit, ...]] = tuple([c // 13 for c in range(52)] + [MAGICIAN_SUIT] * 4 + [JESTER_SUIT] * 4)
"""``SUIT_OF[card]``: the suit of a card, :data:`MAGICIAN_SUIT` or :data:`JESTER_SUIT` for the special cards."""
RANK_OF: Final[tuple[int, ...]] = tuple([c % 13 for c in range(52)] + [13] * 4 + [-1] * 4)
"""``RANK_OF[card]``: 0 (two) to 12 (ace); Magicians 13 and Jesters -1, as when drawing for the deal."""


class CardError(RecordError):
    """Text that is not a card or a suit."""


def card_text(card: Card) -> str:
    """The two-character text of a card: ``AS``, ``TH``, ``2C``, ``MG``, ``JE``."""
    if 0 <= card < 52:
        return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]
    if FIRST_MAGICIAN <= card < FIRST_JESTER:
        return "MG"
    if FIRST_JESTER <= card < 60:
        return "JE"
    raise CardError(f"{card!r} is not a card number (0-59)")


def card_name(card: Card) -> str:
    """A card in words, for people: ``ace of spades``, ``Magician``."""
    suit = SUIT_OF[card]
    if suit == MAGICIAN_SUIT:
        return "Magician"
    if suit == JESTER_SUIT:
        return "Jester"
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[suit]}"


_TEXT_TO_CARD: Final[dict[str, Card]] = {card_text(c): c for c in range(52)}
_TEXT_TO_CARD.update({"MG": FIRST_MAGICIAN, "JE": FIRST_JESTER})


def parse_card(text: str) -> Card:
    """The card named by ``text`` (``QH``, ``TS`` or ``10S``; case-insensitive).

    ``MG`` and ``JE`` give the first Magician or Jester: copies are interchangeable.

    >>> card_text(parse_card("10s"))
    'TS'
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be text such as 'AS', not {text!r}")
    key = text.strip().upper()
    if key.startswith("10") and len(key) == 3:
        key = "T" + key[2]
    try:
        return _TEXT_TO_CARD[key]
    except KeyError:
        raise CardError(
            f"{text!r} is not a card: write rank then suit, such as 'AS', 'TH' or '2C', or MG / JE"
        ) from None


def parse_suit(text: str) -> Suit:
    """A suit from its letter ``S``, ``H``, ``D`` or ``C`` (case-insensitive)."""
    if isinstance(text, str) and len(text.strip()) == 1 and text.strip().upper() in SUIT_LETTERS:
        return SUIT_LETTERS.index(text.strip().upper())
    raise CardError(f"{text!r} is not a suit: use S, H, D or C")


def suit_text(suit: Suit | None) -> str | None:
    """The letter of a suit, or ``None`` for no trump."""
    return None if suit is None else SUIT_LETTERS[suit]


def _bits_table(suit: Suit) -> tuple[tuple[Card, ...], ...]:
    base = 13 * suit
    return tuple(tuple(base + r for r in range(13) if m >> r & 1) for m in range(1 << 13))


SUIT_CARDS: Final = tuple(_bits_table(s) for s in SUITS)
"""``SUIT_CARDS[suit][m]``: the cards of ``suit`` whose rank bits are ``m`` (13 bits), ascending."""


def cards_of(mask: int) -> list[Card]:
    """The cards in a bitmask, ascending, each copy of a special card listed."""
    out = [
        *SUIT_CARDS[0][mask & 0x1FFF],
        *SUIT_CARDS[1][mask >> 13 & 0x1FFF],
        *SUIT_CARDS[2][mask >> 26 & 0x1FFF],
        *SUIT_CARDS[3][mask >> 39 & 0x1FFF],
    ]
    special = mask >> 52
    while special:
        low = special & -special
        out.append(51 + low.bit_length())
        special ^= low
    return out


def distinct_cards_of(mask: int) -> list[Card]:
    """Like :func:`cards_of` but one copy per kind of special card: the plays that differ."""
    out = [
        *SUIT_CARDS[0][mask & 0x1FFF],
        *SUIT_CARDS[1][mask >> 13 & 0x1FFF],
        *SUIT_CARDS[2][mask >> 26 & 0x1FFF],
        *SUIT_CARDS[3][mask >> 39 & 0x1FFF],
    ]
    if mask & MAGICIAN_MASK:
        out.append(first_card(mask & MAGICIAN_MASK))
    if mask & JESTER_MASK:
        out.append(first_card(mask & JESTER_MASK))
    return out


def first_card(mask: int) -> Card:
    """The lowest card in a non-empty bitmask."""
    return (mask & -mask).bit_length() - 1


class CardSet:
    """An immutable set of cards over a bitmask, with card text for input and output.

    >>> CardSet.parse("KH QH") | CardSet.parse("MG")
    CardSet.parse('KH QH MG')
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, mask: int | Iterable[Card] = 0) -> None:
        if not isinstance(mask, int):
            value = 0
            for card in mask:
                value = add_card(value, card)
            mask = value
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """Cards from text separated by spaces or commas, or from a list of card texts."""
        items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        return cls([parse_card(t) for t in items])

    def __iter__(self) -> Iterator[Card]:
        return iter(self.sorted())

    def sorted(self) -> list[Card]:
        """Cards by suit (spades, hearts, diamonds, clubs), high to low, then Magicians, then Jesters."""
        cards = cards_of(self.mask)
        suited = [c for c in cards if c < 52]
        suited.sort(key=lambda c: (c // 13, -c))
        return suited + [c for c in cards if c >= 52]

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = parse_card(card)
            if SUIT_OF[card] >= MAGICIAN_SUIT:
                return bool(self.mask & (MAGICIAN_MASK if card < FIRST_JESTER else JESTER_MASK))
        return isinstance(card, int) and 0 <= card < 60 and bool(self.mask >> card & 1)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    def of_suit(self, suit: Suit) -> CardSet:
        """The cards of one suit in this set."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    def texts(self) -> list[str]:
        """Card texts in :meth:`sorted` order."""
        return [card_text(c) for c in self.sorted()]

    def __str__(self) -> str:
        return " ".join(self.texts())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


def add_card(mask: int, card: Card) -> int:
    """``mask`` with ``card`` added; a special card takes the next free copy of its kind."""
    if card < 52:
        return mask | 1 << card
    base = FIRST_MAGICIAN if card < FIRST_JESTER else FIRST_JESTER
    for copy in range(base, base + 4):
        if not mask >> copy & 1:
            return mask | 1 << copy
    raise CardError(f"there are only four {'Magicians' if base == FIRST_MAGICIAN else 'Jesters'}")
