"""What the keeper's page may send: a new sheet, and one entry or correction at a time.

Each is checked for shape here; whether it keeps the rules is the sheet's to say, in its own sentence.
The house rules reuse the game's Settings, so both forms offer the same options.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ohhell.keeper.sheet import DEFAULT_KEEPER, ScoreSheet
from ohhell.keeper.web.models import MAX_INTEGER
from ohhell.rules import Rules
from ohhell.web.house_rules import Settings

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=30)]
Count = Annotated[int, Field(ge=0, le=60)]
Seat = Annotated[int, Field(ge=0, le=6)]
Preset = Literal["full", "down-only", "short", "up-and-down", "traditional", "magicians"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NewSheetRequest(_Model):
    """The New score sheet form: the preset, house rules, the players in seat order and who deals first."""

    preset: Preset = "full"
    names: Annotated[list[Name], Field(min_length=3, max_length=7)]
    first_dealer: Seat = 0
    keeper: Name = DEFAULT_KEEPER
    settings: Settings = Field(default_factory=Settings)

    def rules(self) -> Rules:
        """The rules asked for (:class:`~ohhell.errors.RulesError` with a sentence if impossible)."""
        return Rules.preset(self.preset, players=len(self.names), **self.settings.overrides())


class TrumpEntry(_Model):
    """The trump turned up: ``S``, ``H``, ``D``, ``C``, ``JE``, or ``MG`` and a suit."""

    type: Literal["trump"]
    trump: Annotated[str, Field(max_length=12)]


class BidEntry(_Model):
    """The next bid; ``seat`` says whose the page thought it was."""

    type: Literal["bid"]
    bid: Count
    seat: Seat | None = None


class TricksEntry(_Model):
    """Every player's tricks, by seat."""

    type: Literal["tricks"]
    tricks: Annotated[list[Count], Field(min_length=3, max_length=7)]


class CorrectionEntry(_Model):
    """New values for deal ``deal`` (0-based): bids and tricks by seat, the trump. Unchanged values are ignored."""

    type: Literal["correct"]
    deal: Annotated[int, Field(ge=0, le=200)]
    bids: dict[Seat, Count] = Field(default_factory=dict)
    tricks: dict[Seat, Count] = Field(default_factory=dict)
    trump: Annotated[str, Field(max_length=12)] | None = None


class RenameEntry(_Model):
    """Seat ``seat`` is called ``name`` from now on."""

    type: Literal["rename"]
    seat: Seat
    name: Name


class FirstDealerEntry(_Model):
    """Seat ``seat`` dealt the first deal."""

    type: Literal["first-dealer"]
    seat: Seat


Entry = Annotated[
    TrumpEntry | BidEntry | TricksEntry | CorrectionEntry | RenameEntry | FirstDealerEntry,
    Field(discriminator="type"),
]


class EntryRequest(_Model):
    """One entry, made by ``by`` on the sheet as it stood after ``seen`` events.

    ``seen`` keeps a second tap, or a second phone, from entering against a sheet that has moved on: the
    bid meant for one player must never land on the next.
    """

    seen: Annotated[int, Field(ge=0, le=MAX_INTEGER)]
    by: Name | None = None
    entry: Entry


class ShareChangeRequest(_Model):
    """A new share link, or none: ``remove_joined`` also stops the browsers that joined from keeping the sheet."""

    remove_joined: bool = False


def apply_entry(sheet: ScoreSheet, request: EntryRequest) -> None:
    """Make the entry on ``sheet``; the sheet's error (with its sentence) if it breaks a rule."""
    entry, by = request.entry, request.by
    match entry:
        case TrumpEntry():
            sheet.enter_trump(entry.trump, by=by)
        case BidEntry():
            sheet.enter_bid(entry.bid, seat=entry.seat, by=by)
        case TricksEntry():
            sheet.enter_tricks(entry.tricks, by=by)
        case CorrectionEntry():
            sheet.correct(entry.deal, bids=entry.bids, tricks=entry.tricks, trump=entry.trump, by=by)
        case RenameEntry():
            sheet.rename(entry.seat, entry.name, by=by)
        case FirstDealerEntry():
            sheet.correct_first_dealer(entry.seat, by=by)
