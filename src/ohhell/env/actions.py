"""Action ids for the research interfaces: one fixed numbering per rule set, OpenSpiel's where the rules agree.

===========================  =====================================  ====================================
id                           action                                 present when
===========================  =====================================  ====================================
``0 … 51``                   play the card ``rank * 4 + suit``       always
                             (rank 0 the two … 12 the ace; suits
                             0 clubs, 1 diamonds, 2 spades, 3
                             hearts: OpenSpiel's ``oh_hell``)
``52 + b``                   bid ``b``, for ``b`` from 0 to the     always
                             largest hand of the schedule (``M``)
``53 + M``, ``54 + M``       play a Magician, play a Jester         Magicians and Jesters are in the pack
next 4                       name trump clubs, diamonds, spades,    a Magician can be turned up (special
                             hearts (after a turned Magician)       cards and a turned-up trump)
next 1                       keep the bid just made                 ``bid_changes = "until-next"``
next ``M + 1``               change one's bid to ``0 … M``          ``bid_changes = "until-next"``
===========================  =====================================  ====================================

Under ``until-next`` a seat may change its bid until the player on its left has
bid (the dealer: until the first card is played). Nothing is seen in between,
so one chance is as good as many: right after each bid, the seat that made it
decides once more, *keep* or *change to n*, and play moves on.

The same card has the same id as a chance outcome (dealing it) in
:mod:`ohhell.openspiel`.

>>> from ohhell.actions import parse_action
>>> from ohhell.rules import Rules
>>> layout = ActionLayout.of(Rules.preset("full"))
>>> layout.size, layout.name(layout.id_of(parse_action("play QH"))), layout.name(52 + 3)
(63, 'play QH', 'bid 3')
>>> layout.id_of(parse_action("play 2C")), layout.id_of(parse_action("play AH"))
(0, 51)
>>> magic = ActionLayout.of(Rules.preset("magicians", bid_changes="until-next"))
>>> magic.max_bid, magic.name(magic.magician), magic.name(magic.trump_ids[3]), magic.name(magic.keep)
(15, 'play MG', 'trump H', 'keep')
"""

from __future__ import annotations

from functools import cache
from typing import Final

from ohhell.actions import BID_BASE, CHANGE_BASE, TRUMP_BASE, Action, action_text
from ohhell.cards import FIRST_JESTER, FIRST_MAGICIAN, Card
from ohhell.errors import UnexpectedActionError
from ohhell.features import CARD_IDS, ID_SUITS
from ohhell.rules import Rules

BID_ID_BASE: Final = 52
_ENGINE_ACTIONS: Final = TRUMP_BASE + 4
"""Engine actions are below this (see :mod:`ohhell.actions`)."""


def card_id(card: Card) -> int:
    """The id of a suited card: ``rank * 4 + suit`` in OpenSpiel's suit order."""
    return CARD_IDS[card]


class ActionLayout:
    """The numbering of every action of one rule set, and its translation to and from engine actions.

    Build it with :meth:`of` (cached per rule set). Engine actions are the ints of
    :mod:`ohhell.actions`; every copy of a Magician (or Jester) has one id.
    """

    __slots__ = (
        "_actions",
        "_ids",
        "_names",
        "change_base",
        "jester",
        "keep",
        "magician",
        "max_bid",
        "size",
        "trump_ids",
    )

    max_bid: int
    """``M``: the largest hand of the schedule, and so the largest bid."""
    magician: int | None
    jester: int | None
    trump_ids: tuple[int, ...]
    """Name trump clubs, diamonds, spades, hearts (empty when no Magician can be turned)."""
    keep: int | None
    change_base: int | None
    size: int
    """How many ids there are (``A``): the length of an action mask."""

    def __init__(self, rules: Rules) -> None:
        self.max_bid = max(rules.hand_sizes)
        next_id = BID_ID_BASE + self.max_bid + 1
        self.magician = self.jester = None
        if rules.special_cards:
            self.magician, self.jester = next_id, next_id + 1
            next_id += 2
        self.trump_ids = ()
        if rules.special_cards and rules.turns_up_trump:
            self.trump_ids = tuple(range(next_id, next_id + 4))
            next_id += 4
        self.keep = self.change_base = None
        if rules.bid_changes == "until-next":
            self.keep, self.change_base = next_id, next_id + 1
            next_id += 2 + self.max_bid
        self.size = next_id
        ids = [-1] * _ENGINE_ACTIONS
        actions = [-1] * self.size
        for card in range(52):
            ids[card] = CARD_IDS[card]
        for n in range(self.max_bid + 1):
            ids[BID_BASE + n] = BID_ID_BASE + n
        if self.magician is not None and self.jester is not None:
            for copy in range(4):
                ids[FIRST_MAGICIAN + copy] = self.magician
                ids[FIRST_JESTER + copy] = self.jester
        for suit, trump_id in zip(ID_SUITS, self.trump_ids, strict=False):
            ids[TRUMP_BASE + suit] = trump_id
        if self.change_base is not None:
            for n in range(self.max_bid + 1):
                ids[CHANGE_BASE + n] = self.change_base + n
        for action in reversed(range(_ENGINE_ACTIONS)):  # the first copy of a special card wins
            if ids[action] >= 0:
                actions[ids[action]] = action
        self._ids = tuple(ids)
        self._actions = tuple(actions)
        self._names = tuple("keep" if i == self.keep else action_text(actions[i]) for i in range(self.size))

    @staticmethod
    @cache
    def of(rules: Rules) -> ActionLayout:
        """The layout of ``rules`` (one object per rule set)."""
        return ActionLayout(rules)

    def id_of(self, action: Action) -> int:
        """The id of an engine action."""
        if not 0 <= action < _ENGINE_ACTIONS or self._ids[action] < 0:
            raise UnexpectedActionError(f"{action_text(action)} has no id under these rules")
        return self._ids[action]

    def action_of(self, action_id: int) -> Action | None:
        """The engine action of an id (``None`` for *keep*, which the engine does not record)."""
        self._check(action_id)
        return None if action_id == self.keep else self._actions[action_id]

    def name(self, action_id: int) -> str:
        """``play QH``, ``bid 2``, ``trump H``, ``keep``, ``change 1``."""
        self._check(action_id)
        return self._names[action_id]

    @property
    def names(self) -> tuple[str, ...]:
        """Every id's name, in id order."""
        return self._names

    @property
    def engine_ids(self) -> tuple[int, ...]:
        """``engine_ids[action]``: the id of each engine action (-1 where it has none), for fast translation."""
        return self._ids

    def is_change(self, action_id: int) -> bool:
        """Whether the id is *keep* or a bid change (the decision right after a bid under ``until-next``)."""
        return self.keep is not None and self.keep <= action_id < self.size

    def _check(self, action_id: int) -> None:
        if not 0 <= action_id < self.size:
            raise UnexpectedActionError(f"{action_id!r} is not an action id: ids run from 0 to {self.size - 1}")

    def __repr__(self) -> str:
        return f"<ActionLayout {self.size} ids, bids 52-{52 + self.max_bid}>"
