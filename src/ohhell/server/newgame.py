"""New game: a preset of RULES.md, the house rules of Settings (:mod:`ohhell.web.house_rules`), the seats and an
optional deal number."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ohhell.dealnumbers import MAX_DEAL_NUMBER
from ohhell.rules import Rules
from ohhell.server.seats import COMPUTER_NAMES, Seat
from ohhell.web.house_rules import Settings

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=24)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ComputerChoice(_Model):
    """A computer seat: its name and level."""

    name: Name
    level: Literal["easy", "normal", "hard"] = "normal"


class NewGameRequest(_Model):
    """The New game form."""

    preset: Literal["full", "down-only", "short", "up-and-down", "traditional", "magicians"] = "up-and-down"
    name: Name = "You"
    computers: Annotated[list[ComputerChoice], Field(min_length=2, max_length=6)] = Field(
        default_factory=lambda: [ComputerChoice(name=n) for n in COMPUTER_NAMES[:3]]
    )
    settings: Settings = Field(default_factory=Settings)
    number: Annotated[int, Field(ge=0, le=MAX_DEAL_NUMBER)] | None = None

    def rules(self) -> Rules:
        """The rules asked for (:class:`~ohhell.errors.RulesError` with a sentence if impossible)."""
        return Rules.preset(self.preset, players=1 + len(self.computers), **self.settings.overrides())

    def seats(self, player: str) -> list[Seat]:
        """You in seat 0, then the computer players in play order (to your left first)."""
        return [Seat.human(self.name, player), *(Seat.computer(c.name, c.level) for c in self.computers)]


__all__ = ["ComputerChoice", "NewGameRequest"]
