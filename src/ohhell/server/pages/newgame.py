"""New game: a preset of RULES.md, the house rules of Settings (:mod:`ohhell.web.house_rules`), the seats and an
optional deal number."""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from ohhell.dealnumbers import MAX_DEAL_NUMBER
from ohhell.rules import Rules
from ohhell.server.table.seats import COMPUTER_NAMES, OWN_SEAT, Seat
from ohhell.web.house_rules import Settings

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=24)]


HOST_NAME: Final = "Host"
"""The name of a host who kept "You" at a table of several people."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ComputerChoice(_Model):
    """A computer seat: its name and level."""

    name: Name
    level: Literal["easy", "normal", "hard"] = "normal"


class TableSettings(_Model):
    """A table of several people: how long a disconnected person's turn waits, the turn timer, spectators' chat."""

    grace_seconds: Annotated[float, Field(ge=1, le=300)] = 30.0
    """A disconnected person's turn waits this long before a computer player plays for them."""
    turn_seconds: Annotated[int, Field(ge=15, le=120)] | None = None
    """Off unless set: a connected person who has not acted in this many seconds has the computer player's move."""
    spectator_chat: bool = True


class NewGameRequest(_Model):
    """The New game form."""

    preset: Literal["full", "down-only", "short", "up-and-down", "traditional", "magicians"] = "up-and-down"
    name: Name = OWN_SEAT
    computers: Annotated[list[ComputerChoice], Field(min_length=2, max_length=6)] = Field(
        default_factory=lambda: [ComputerChoice(name=n) for n in COMPUTER_NAMES[:3]]
    )
    settings: Settings = Field(default_factory=Settings)
    number: Annotated[int, Field(ge=0, le=MAX_DEAL_NUMBER)] | None = None
    friends: Annotated[list[Annotated[int, Field(ge=1, le=6)]], Field(max_length=6)] = Field(default_factory=list)
    """Seats (1 = the first to your left) that wait for a friend instead of their computer player."""
    table: TableSettings = Field(default_factory=TableSettings)
    club: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = None
    """A club table: only the club's members take its seats (every seat is a friend's), and it counts for the club."""

    @model_validator(mode="after")
    def _friends_are_seats(self) -> NewGameRequest:
        if len(set(self.friends)) != len(self.friends) or any(s > len(self.computers) for s in self.friends):
            raise ValueError(f"friends: each a different seat from 1 to {len(self.computers)}")
        if self.club is not None and len(self.friends) != len(self.computers):
            raise ValueError("club: every seat of a club table is for a member: make each other seat a friend's")
        return self

    def rules(self) -> Rules:
        """The rules asked for (:class:`~ohhell.errors.RulesError` with a sentence if impossible)."""
        return Rules.preset(self.preset, players=1 + len(self.computers), **self.settings.overrides())

    @property
    def host_name(self) -> str:
        """Your name at the table. "You" (the form's default) is how every page names its own seat, so at a table
        of several people it would name you to your friends as themselves: there, kept unchanged, it is "Host"."""
        return HOST_NAME if self.friends and self.name.casefold() == OWN_SEAT.casefold() else self.name

    def seats(self, player: str) -> list[Seat]:
        """You in seat 0, then the computer players in play order (to your left first), and open seats for friends."""
        others = [
            Seat.open_seat() if index in self.friends else Seat.computer(c.name, c.level)
            for index, c in enumerate(self.computers, start=1)
        ]
        return [Seat.human(self.host_name, player), *others]


__all__ = ["HOST_NAME", "ComputerChoice", "NewGameRequest", "TableSettings"]
