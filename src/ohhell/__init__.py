"""Oh Hell! and its Magicians-and-Jesters cousin: rules as data, a checked engine, records, deal numbers.

>>> from ohhell import Game, Rules
>>> game = Game(Rules.preset("full", players=5), number=2024)
>>> game.deal.size, game.rules.deals
(10, 19)
"""

from ohhell.actions import Action, action_text, parse_action
from ohhell.cards import Card, CardSet, card_text, parse_card
from ohhell.deal import Deal, Trick
from ohhell.errors import (
    BidChangeNotAllowedError,
    BidOutOfRangeError,
    CardNotInHandError,
    DealError,
    HookError,
    IllegalActionError,
    MustFollowSuitError,
    NotYourTurnError,
    OhHellError,
    RecordError,
    RulesError,
    TooManyDealsError,
    UnexpectedActionError,
)
from ohhell.game import DealResult, Game
from ohhell.rules import PRESETS, Rules
from ohhell.scoring import deal_points
from ohhell.view import SeatView

__all__ = [
    "PRESETS",
    "Action",
    "BidChangeNotAllowedError",
    "BidOutOfRangeError",
    "Card",
    "CardNotInHandError",
    "CardSet",
    "Deal",
    "DealError",
    "DealResult",
    "Game",
    "HookError",
    "IllegalActionError",
    "MustFollowSuitError",
    "NotYourTurnError",
    "OhHellError",
    "RecordError",
    "Rules",
    "RulesError",
    "SeatView",
    "TooManyDealsError",
    "Trick",
    "UnexpectedActionError",
    "action_text",
    "card_text",
    "deal_points",
    "parse_action",
    "parse_card",
]
__version__ = "0.1.0"
