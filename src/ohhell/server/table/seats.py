"""Who sits where: each seat is filled by a human connection or a computer player, never assumed.

>>> seat = Seat.computer("Bob", "easy")
>>> Seat.from_json(seat.to_json()) == seat, seat.public()
(True, {'name': 'Bob', 'kind': 'computer', 'level': 'easy'})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

LEVELS: Final = ("easy", "normal", "hard")
LEVEL_NAMES: Final = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}
COMPUTER_NAMES: Final = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")
OWN_SEAT: Final = "You"
"""How each page names its own seat (and the New game form's default name): never another person's name."""


@dataclass(frozen=True)
class Seat:
    """A human seat (with the key of the player it belongs to) or a computer player of a level."""

    name: str
    kind: str
    level: str | None = None
    player: str | None = None

    @classmethod
    def human(cls, name: str, player: str) -> Seat:
        """A seat for the person holding ``player``'s token."""
        return cls(name=name, kind="human", player=player)

    @classmethod
    def computer(cls, name: str, level: str) -> Seat:
        """A computer player of ``level`` (easy, normal or hard)."""
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}: use one of {', '.join(LEVELS)}")
        return cls(name=name, kind="computer", level=level)

    @classmethod
    def open_seat(cls, name: str = "Open seat") -> Seat:
        """A seat of a table of several people that waits for a friend (until the host starts the game)."""
        return cls(name=name, kind="open")

    @property
    def is_open(self) -> bool:
        """Whether the seat still waits for a friend."""
        return self.kind == "open"

    @property
    def is_human(self) -> bool:
        """Whether a person plays this seat."""
        return self.kind == "human"

    def to_json(self) -> dict[str, Any]:
        """The stored form (with the player key: never send it to a client)."""
        if self.is_human:
            return {"name": self.name, "kind": self.kind, "player": self.player}
        if self.is_open:
            return {"name": self.name, "kind": self.kind}
        return {"name": self.name, "kind": self.kind, "level": self.level}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        """The seat a stored form describes."""
        if data.get("kind") == "human":
            return cls.human(str(data["name"]), str(data["player"]))
        if data.get("kind") == "open":
            return cls.open_seat(str(data["name"]))
        return cls.computer(str(data["name"]), str(data["level"]))

    def public(self) -> dict[str, Any]:
        """What every seat may know about this one."""
        return {"name": self.name, "kind": self.kind, "level": self.level}
