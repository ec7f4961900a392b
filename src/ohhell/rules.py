"""The rules as data: one frozen, validated :class:`Rules` and the named presets of RULES.md.

Every variant is a value of :class:`Rules`, never a subclass of the engine.

>>> rules = Rules.preset("full", players=6)
>>> rules.hand_sizes[:3], len(rules.hand_sizes)
((8, 7, 6), 15)
>>> Rules.preset("magicians", players=7)
Traceback (most recent call last):
...
ohhell.errors.RulesError: the 60-card pack with Magicians and Jesters is for 3 to 6 players, not 7
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

from ohhell.cards import FULL_PACK, STANDARD_PACK, SUIT_LETTERS, Suit
from ohhell.errors import RulesError

SCHEDULES: Final[tuple[str, ...]] = (
    "down-up",
    "down",
    "short",
    "up-down",
    "up",
    "down-from-max",
    "seven",
    "up-down-7",
    "rising",
)
SCORING_SCHEMES: Final = ("tricks+10", "10+bid", "5+bid", "magicians")
FIRST_DEALER_RULES: Final = ("random", "draw")
BID_CHANGE_RULES: Final = ("final", "until-next")
FIRST_LEAD_RULES: Final = ("left-of-dealer", "dealer")
NO_TRUMP_STEP: Final = "NT"


def first_hand_size(players: int) -> int:
    """``F`` of RULES.md: 10 cards for 3-5 players, 8 for 6, 7 for 7."""
    return 10 if players <= 5 else 8 if players == 6 else 7


def _down_up(top: int) -> tuple[int, ...]:
    return (*range(top, 0, -1), *range(2, top + 1))


def _up_down(top: int) -> tuple[int, ...]:
    return (*range(1, top + 1), *range(top - 1, 0, -1))


def schedule_sizes(name: str, players: int, pack_size: int) -> tuple[int, ...]:
    """The hand size of every deal of a named schedule."""
    first = first_hand_size(players)
    most = pack_size // players
    sizes = {
        "down-up": lambda: _down_up(first),
        "down": lambda: tuple(range(first, 0, -1)),
        "short": lambda: _down_up(5),
        "up-down": lambda: _up_down(most),
        "up": lambda: tuple(range(1, most + 1)),
        "rising": lambda: tuple(range(1, most + 1)),
        "down-from-max": lambda: tuple(range(most, 0, -1)),
        "seven": lambda: _down_up(7),
        "up-down-7": lambda: _up_down(7),
    }
    if name not in sizes:
        raise RulesError(f"unknown schedule {name!r}: use one of {', '.join(SCHEDULES)} or a list of hand sizes")
    return sizes[name]()


def hook_forbidden_bid(hook: bool, tricks: int, other_bids: int) -> int | None:
    """The dealer's forbidden bid once every other seat has bid ``other_bids`` in all, or ``None``.

    Under the hook the dealer may not make the bids total the tricks; when the others
    already bid more than the tricks, every bid is allowed.

    >>> hook_forbidden_bid(True, 5, 4), hook_forbidden_bid(True, 5, 6), hook_forbidden_bid(False, 5, 4)
    (1, None, None)
    """
    if not hook or other_bids > tricks:
        return None
    return tricks - other_bids


@dataclass(frozen=True)
class Rules:
    """Every option of RULES.md. Build one with :meth:`preset`; change one with :meth:`replace`.

    Creating a ``Rules`` validates it: an impossible combination raises
    :class:`~ohhell.errors.RulesError` with a sentence that says why.
    """

    players: int = 4
    schedule: str | tuple[int, ...] = "down-up"
    """A schedule name (see :data:`SCHEDULES`) or an explicit tuple of hand sizes."""
    first_dealer: str | int = "random"
    """``"random"``, ``"draw"`` or a seat number."""
    trump: str | tuple[str, ...] = "turn-up"
    """``"turn-up"``, or a rotation such as ``("S", "H", "D", "C", "NT")`` advancing one step a deal."""
    hook: bool = True
    bid_changes: str = "final"
    first_lead: str = "left-of-dealer"
    scoring: str = "tricks+10"
    miss_penalty: bool = False
    zero_bid_bonus: int | None = None
    """The exact-bid bonus for a made bid of 0, replacing the scheme's own (seed 003: 5)."""
    special_cards: bool = False
    preset_name: str = field(default="full", compare=False)
    """The preset these options started from: a label for records and people, not a rule."""

    def __post_init__(self) -> None:
        if isinstance(self.schedule, list):
            object.__setattr__(self, "schedule", tuple(self.schedule))
        if isinstance(self.trump, list):
            object.__setattr__(self, "trump", tuple(self.trump))
        self._validate()

    def _validate(self) -> None:
        _check_type("players", self.players, int)
        low, high = (3, 6) if self.special_cards else (3, 7)
        if self.special_cards and self.players == 7:
            raise RulesError("the 60-card pack with Magicians and Jesters is for 3 to 6 players, not 7")
        if not low <= self.players <= high:
            raise RulesError(f"Oh Hell! is for {low} to {high} players, not {self.players}")
        for name in ("hook", "miss_penalty", "special_cards"):
            _check_type(name, getattr(self, name), bool)
        _check_choice("bid_changes", self.bid_changes, BID_CHANGE_RULES)
        _check_choice("first_lead", self.first_lead, FIRST_LEAD_RULES)
        _check_choice("scoring", self.scoring, SCORING_SCHEMES)
        if isinstance(self.first_dealer, bool) or not isinstance(self.first_dealer, (int, str)):
            raise RulesError(f"first_dealer must be 'random', 'draw' or a seat number, not {self.first_dealer!r}")
        if isinstance(self.first_dealer, str):
            _check_choice("first_dealer", self.first_dealer, FIRST_DEALER_RULES)
        elif not 0 <= self.first_dealer < self.players:
            raise RulesError(f"first_dealer seat {self.first_dealer} does not exist: seats are 0 to {self.players - 1}")
        if self.zero_bid_bonus is not None:
            _check_type("zero_bid_bonus", self.zero_bid_bonus, int)
        self._validate_trump()
        sizes = self.hand_sizes
        if not sizes:
            raise RulesError("the schedule must have at least one deal")
        for k in sizes:
            if isinstance(k, bool) or not isinstance(k, int) or k < 1:
                raise RulesError(f"hand sizes must be whole numbers of at least 1, not {k!r}")
            if k * self.players > self.pack_size:
                raise RulesError(
                    f"a {k}-card deal needs {k * self.players} cards for {self.players} players,"
                    f" but the pack has {self.pack_size}"
                )

    def _validate_trump(self) -> None:
        if self.trump == "turn-up":
            return
        if isinstance(self.trump, str) or not isinstance(self.trump, tuple):
            raise RulesError(f"trump must be 'turn-up' or a rotation of suits such as S H D C NT, not {self.trump!r}")
        if not self.trump:
            raise RulesError("a trump rotation needs at least one step")
        for step in self.trump:
            if step != NO_TRUMP_STEP and (not isinstance(step, str) or step not in SUIT_LETTERS):
                raise RulesError(f"trump rotation step {step!r} must be S, H, D, C or NT")

    @cached_property
    def hand_sizes(self) -> tuple[int, ...]:
        """The number of cards each player gets, deal by deal."""
        if isinstance(self.schedule, tuple):
            return self.schedule
        if not isinstance(self.schedule, str):
            raise RulesError(f"schedule must be a name or a list of hand sizes, not {self.schedule!r}")
        return schedule_sizes(self.schedule, self.players, self.pack_size)

    @property
    def deals(self) -> int:
        """How many deals the game has."""
        return len(self.hand_sizes)

    @property
    def pack_size(self) -> int:
        """52, or 60 with the Magicians and Jesters."""
        return 60 if self.special_cards else 52

    @property
    def pack(self) -> int:
        """The pack as a card bitmask."""
        return FULL_PACK if self.special_cards else STANDARD_PACK

    @property
    def turns_up_trump(self) -> bool:
        """Whether trump comes from a turned card (rather than a rotation)."""
        return self.trump == "turn-up"

    def rotation_trump(self, deal_index: int) -> Suit | None:
        """Under a rotation rule, the trump suit of deal ``deal_index`` (``None`` for a no-trump step)."""
        if isinstance(self.trump, str):
            raise RulesError("these rules turn up trump; there is no rotation")
        step = self.trump[deal_index % len(self.trump)]
        return None if step == NO_TRUMP_STEP else SUIT_LETTERS.index(step)

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """The preset ``name`` of RULES.md with any options overridden.

        >>> Rules.preset("short", players=3).deals
        9
        """
        if name not in PRESETS:
            raise RulesError(f"unknown preset {name!r}: use one of {', '.join(PRESETS)}")
        base = PRESETS[name]
        unknown = set(overrides) - OPTION_NAMES
        if unknown:
            raise RulesError(f"unknown option {sorted(unknown)[0]!r}: options are {', '.join(sorted(OPTION_NAMES))}")
        return dataclasses.replace(base, **overrides)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed, validated again."""
        unknown = set(changes) - OPTION_NAMES
        if unknown:
            raise RulesError(f"unknown option {sorted(unknown)[0]!r}: options are {', '.join(sorted(OPTION_NAMES))}")
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The record form: the preset's name and every option that differs from it."""
        base = PRESETS.get(self.preset_name, PRESETS["full"])
        out: dict[str, Any] = {"preset": self.preset_name if self.preset_name in PRESETS else "full"}
        for name in sorted(OPTION_NAMES, key=_OPTION_ORDER.index):
            value = getattr(self, name)
            if name == "players" or value != getattr(base, name):
                out[name] = _option_to_json(name, value)
        return out

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Rules from a record's ``rules`` field: a preset name, or an object with ``preset`` and overrides."""
        if isinstance(data, str):
            return cls.preset(data)
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be a preset name or an object, not {type(data).__name__}")
        options = dict(data)
        name = options.pop("preset", "full")
        if not isinstance(name, str):
            raise RulesError(f"preset must be a name, not {name!r}")
        if "zero_bonus" in options:  # RULES.md's name for the option RECORD.md calls zero_bid_bonus
            if "zero_bid_bonus" in options:
                raise RulesError("give zero_bid_bonus or zero_bonus, not both")
            options["zero_bid_bonus"] = options.pop("zero_bonus")
        overrides = {key: _option_from_json(key, value) for key, value in options.items()}
        return cls.preset(name, **overrides)

    def describe(self) -> str:
        """One line for people, such as ``full, 4 players: 19 deals (10 ... 1 ... 10), hook, tricks+10``."""
        sizes = self.hand_sizes
        shape = " ".join(map(str, sizes)) if len(sizes) <= 6 else f"{sizes[0]} {sizes[1]} ... {sizes[-1]}"
        parts = [f"{self.preset_name}, {self.players} players: {len(sizes)} deals ({shape})"]
        parts.append("hook" if self.hook else "no hook")
        parts.append(f"{self.scoring} scoring")
        if self.special_cards:
            parts.append("Magicians and Jesters")
        return ", ".join(parts)


_OPTION_ORDER: Final = [
    "players",
    "schedule",
    "first_dealer",
    "trump",
    "hook",
    "bid_changes",
    "first_lead",
    "scoring",
    "miss_penalty",
    "zero_bid_bonus",
    "special_cards",
]
OPTION_NAMES: Final = frozenset(_OPTION_ORDER)


def _check_type(name: str, value: object, kind: type) -> None:
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        raise RulesError(f"{name} must be {'true or false' if kind is bool else 'a whole number'}, not {value!r}")


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise RulesError(f"{name} must be one of {', '.join(choices)}, not {value!r}")


def _option_to_json(name: str, value: Any) -> Any:
    if name == "schedule" and isinstance(value, tuple):
        return list(value)
    if name == "trump" and isinstance(value, tuple):
        return {"rotation": list(value)}
    return value


def _option_from_json(name: str, value: Any) -> Any:
    if name not in OPTION_NAMES:
        raise RulesError(f"unknown option {name!r}: options are {', '.join(sorted(OPTION_NAMES))}")
    if name == "trump" and isinstance(value, Mapping):
        if set(value) != {"rotation"} or not isinstance(value["rotation"], list):
            raise RulesError('trump must be "turn-up" or {"rotation": ["S", "H", "D", "C", "NT"]}')
        return tuple(value["rotation"])
    if name == "schedule" and isinstance(value, list):
        return tuple(value)
    if name in ("schedule", "trump") and not isinstance(value, str):
        raise RulesError(f"{name} has the wrong type: {value!r}")
    return value


PRESETS: Final[dict[str, Rules]] = {
    "full": Rules(preset_name="full"),
    "down-only": Rules(schedule="down", preset_name="down-only"),
    "short": Rules(schedule="short", preset_name="short"),
    "up-and-down": Rules(schedule="up-down", scoring="10+bid", preset_name="up-and-down"),
    "traditional": Rules(first_dealer="draw", bid_changes="until-next", preset_name="traditional"),
    "magicians": Rules(schedule="rising", hook=False, scoring="magicians", special_cards=True, preset_name="magicians"),
}
"""The presets of RULES.md, by name, each for 4 players."""
