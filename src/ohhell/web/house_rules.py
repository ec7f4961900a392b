"""House rules as people pick them: the presets of RULES.md by title, and the Settings groups on top of them.

New game and the score keeper share these: a preset, then each option of Settings either left to the preset
(``None``) or set. The combination is checked by :class:`~ohhell.rules.Rules` itself, whose sentence is shown
when it is refused.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict

from ohhell.rules import PRESETS, Rules

PRESET_TITLES: Final = {
    "full": "Full: 10 cards down to 1 and back up",
    "down-only": "Down only: 10 cards down to 1",
    "short": "Short: 5 cards down to 1 and back up (9 hands)",
    "up-and-down": "Up and down the river: 1 card up to all the pack and back",
    "traditional": "Traditional: draw for the deal, bids may change",
    "magicians": "Magicians and Jesters: 60 cards, rising hands",
}
SCHEDULE_TITLES: Final = {
    "down-up": "Down and up: 10 (8, 7) cards down to 1 and back",
    "down": "Down only: 10 (8, 7) cards down to 1",
    "short": "Short: 5 down to 1 and back to 5",
    "up-down": "Up and down: 1 up to the whole pack and back",
    "up": "Up only: 1 up to the whole pack",
    "down-from-max": "Down from the top: the whole pack down to 1",
    "seven": "Seven: 7 down to 1 and back to 7",
    "up-down-7": "Climb to 7: 1 up to 7 and back",
    "rising": "Rising: 1, 2, 3 … until the pack runs out",
}
SCORING_TITLES: Final = {
    "tricks+10": "1 a trick, 10 more for an exact bid",
    "10+bid": "10 plus the bid for an exact bid, else nothing",
    "5+bid": "5 plus the bid for an exact bid, else nothing",
    "magicians": "20 plus 10 a trick bid; 10 off a trick missed",
}
TRUMP_TITLES: Final = {
    "turn-up": "Turn up the card after the deal",
    "rotation": "Rotate: spades, hearts, diamonds, clubs",
    "rotation-nt": "Rotate with a no-trump hand: spades, hearts, diamonds, clubs, no trump",
}
TRUMP_OPTIONS: Final[dict[str, str | tuple[str, ...]]] = {
    "turn-up": "turn-up",
    "rotation": ("S", "H", "D", "C"),
    "rotation-nt": ("S", "H", "D", "C", "NT"),
}
SETTINGS_GROUPS: Final = (
    "Hand sizes",
    "Scoring",
    "Hook",
    "Trump",
    "Bidding",
    "First lead",
    "Magicians & Jesters",
)

ScheduleName = Literal["down-up", "down", "short", "up-down", "up", "down-from-max", "seven", "up-down-7", "rising"]
"""The named schedules of :data:`ohhell.rules.SCHEDULES`."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Settings(_Model):
    """House rules on top of the preset; ``None`` keeps the preset's value."""

    schedule: ScheduleName | None = None
    scoring: Literal["tricks+10", "10+bid", "5+bid", "magicians"] | None = None
    miss_penalty: bool | None = None
    zero_bid_bonus_five: bool | None = None
    hook: bool | None = None
    trump: Literal["turn-up", "rotation", "rotation-nt"] | None = None
    bid_changes: Literal["final", "until-next"] | None = None
    first_lead: Literal["left-of-dealer", "dealer"] | None = None
    special_cards: bool | None = None

    def overrides(self) -> dict[str, Any]:
        """The options of :class:`~ohhell.rules.Rules` these settings change."""
        out: dict[str, Any] = {}
        for name in ("schedule", "scoring", "miss_penalty", "hook", "bid_changes", "first_lead", "special_cards"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.trump is not None:
            out["trump"] = TRUMP_OPTIONS[self.trump]
        if self.zero_bid_bonus_five is not None:
            out["zero_bid_bonus"] = 5 if self.zero_bid_bonus_five else None
        return out


def preset_defaults() -> dict[str, dict[str, Any]]:
    """Each preset's Settings values, for the form to show when a preset is picked."""
    out: dict[str, dict[str, Any]] = {}
    for name, rules in PRESETS.items():
        trump = next(key for key, value in TRUMP_OPTIONS.items() if value == rules.trump)
        out[name] = {
            "schedule": rules.schedule,
            "scoring": rules.scoring,
            "miss_penalty": rules.miss_penalty,
            "zero_bid_bonus_five": rules.zero_bid_bonus == 5,
            "hook": rules.hook,
            "trump": trump,
            "bid_changes": rules.bid_changes,
            "first_lead": rules.first_lead,
            "special_cards": rules.special_cards,
        }
    return out


def rules_in_words(rules: Rules) -> str:
    """The rules of a table in words for the people at it (the waiting room, the invite link's page): the preset's
    name only while its hand sizes are kept, then the hands, the scoring and the hook said out, with no jargon.

    >>> for part in rules_in_words(Rules.preset("up-and-down", players=4, schedule="seven")).split("; "):
    ...     print(part)
    House rules, 4 players: 13 hands of 7 6 … 6 7 cards
    points: 10 plus the bid for an exact bid, else nothing
    the dealer may not make the bids add up to the tricks
    >>> rules_in_words(Rules.preset("short", players=3)).split("; ")[0]
    'Short, 3 players: 9 hands of 5 4 3 2 1 2 3 4 5 cards'
    """
    sizes = rules.hand_sizes
    shape = " ".join(map(str, sizes)) if len(sizes) <= 9 else f"{sizes[0]} {sizes[1]} … {sizes[-2]} {sizes[-1]}"
    kept = rules.preset_name in PRESETS and Rules.preset(rules.preset_name, players=rules.players).hand_sizes == sizes
    name = PRESET_TITLES[rules.preset_name].split(":")[0] if kept else "House rules"
    parts = [
        f"{name}, {rules.players} players: {len(sizes)} hand{'s' if len(sizes) != 1 else ''} of {shape} cards",
        f"points: {SCORING_TITLES.get(rules.scoring, rules.scoring)}",
        "the dealer may not make the bids add up to the tricks" if rules.hook else "the bids may add up to the tricks",
    ]
    if rules.special_cards:
        parts.append("with Magicians and Jesters")
    return "; ".join(parts)
