"""The messages a browser may send over the WebSocket, validated before anything reads them.

Each is a JSON object with a ``type``; one :class:`~pydantic.TypeAdapter` over the discriminated union
parses them, refusing unknown types, missing or extra fields and values of the wrong type. The seat is
never part of a message: it is the seat the connection belongs to.

Moves carry ``seq``, the number of actions the sender had seen, and ``deal``, the hand it was shown: a move made
on a stale picture of the table (another tab, a double click, a hand that ended as Next hand was pressed) is
refused instead of being applied to a state nobody saw. Numbers are bounded, so that no message can carry a
value the table would choke on.

>>> parse_message('{"type": "bid", "bid": 2, "seq": 7, "deal": 0}')
BidMessage(type='bid', bid=2, seq=7, deal=0)
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

MAX_MESSAGE_BYTES: Final = 2048

Count = Annotated[int, Field(ge=0, le=100_000)]
"""A ``seq``, a bid or a deal index: far above any game's, far below any integer limit."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class BidMessage(_Message):
    """Bid a number of tricks."""

    type: Literal["bid"]
    bid: Count
    seq: Count
    deal: Count


class ChangeMessage(_Message):
    """Change one's bid (``until-next`` rules)."""

    type: Literal["change"]
    bid: Count
    seq: Count
    deal: Count


class PlayMessage(_Message):
    """Play a card, written as record text (``QH``)."""

    type: Literal["play"]
    card: Annotated[str, Field(min_length=2, max_length=3)]
    seq: Count
    deal: Count


class TrumpMessage(_Message):
    """The dealer names trump after a turned Magician."""

    type: Literal["trump"]
    suit: Literal["S", "H", "D", "C"]
    seq: Count
    deal: Count


class ResignMessage(_Message):
    """Give up the game: it ends now, and counts as a loss for the seat that gave up."""

    type: Literal["resign"]
    seq: Count


class UndoMessage(_Message):
    """Take back one's last move and the computer players' after it (the club aid: see ohhell.server.table.undo)."""

    type: Literal["undo"]
    seq: Count


class NextHandMessage(_Message):
    """Move on from a finished hand to deal ``deal`` (0-based)."""

    type: Literal["next"]
    deal: Count


class HintMessage(_Message):
    """Ask for a suggested bid or card."""

    type: Literal["hint"]


class ShowHandsMessage(_Message):
    """Ask what everyone held in a finished hand."""

    type: Literal["show_hands"]
    deal: Count


class SyncMessage(_Message):
    """Ask for the whole state again."""

    type: Literal["sync"]


# ----------------------------------------------------------------- tables of several people (ohhell.server.party.live)

CHAT_LENGTH: Final = 200
PHRASES: Final = {"good-luck": "Good luck!", "well-played": "Well played!", "oops": "Oops!"}


class StartMessage(_Message):
    """The host starts the game from the waiting room; ``fill`` gives every open seat to a computer player."""

    type: Literal["start"]
    fill: bool = False


class ChatMessage(_Message):
    """A line of table chat: ``text`` (plain text, up to :data:`CHAT_LENGTH` characters) or a quick ``phrase``."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=CHAT_LENGTH)] | None = None
    phrase: Literal["good-luck", "well-played", "oops"] | None = None


class HandOverMessage(_Message):
    """The host gives a person's seat to a computer player for the rest of the game."""

    type: Literal["hand_over"]
    seat: Annotated[int, Field(ge=0, le=6)]


class RenewMessage(_Message):
    """The host renews the invite (``join``) or ``watch`` link: the old one stops working."""

    type: Literal["renew"]
    link: Literal["join", "watch"]


class SpectatorChatMessage(_Message):
    """The host opens or closes chat for spectators."""

    type: Literal["spectator_chat"]
    open: bool


class AgainMessage(_Message):
    """After the game: this person would play again (same seats and rules, a new deal number)."""

    type: Literal["again"]


PartyMessage = StartMessage | ChatMessage | HandOverMessage | RenewMessage | SpectatorChatMessage | AgainMessage


ClientMessage = Annotated[
    BidMessage
    | ChangeMessage
    | PlayMessage
    | TrumpMessage
    | ResignMessage
    | UndoMessage
    | NextHandMessage
    | HintMessage
    | ShowHandsMessage
    | SyncMessage
    | StartMessage
    | ChatMessage
    | HandOverMessage
    | RenewMessage
    | SpectatorChatMessage
    | AgainMessage,
    Field(discriminator="type"),
]
MoveMessage = BidMessage | ChangeMessage | PlayMessage | TrumpMessage

_ADAPTER: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)


class BadMessageError(ValueError):
    """A message that is not one of the :data:`ClientMessage` types, with a sentence saying what is wrong."""


def parse_message(text: str | bytes) -> ClientMessage:
    """The message ``text`` holds, or :class:`BadMessageError`."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise BadMessageError(f"the message is longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        return _ADAPTER.validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "message"
        raise BadMessageError(f"not a valid message ({where}: {first['msg']})") from None
