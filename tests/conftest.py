"""Shared helpers for the engine tests: hypothesis strategies over every rule option, random legal play, snapshots.

The strategies are plain functions (importable as ``from conftest import ...``):

* :func:`valid_rules` draws a valid :class:`~ohhell.rules.Rules` over every option of RULES.md;
* :func:`dealt_deals` draws rules, a deal number and a deal of its schedule, dealt as a game deals it;
* :func:`random_move` / :func:`play_randomly` pick random legal actions, ``change`` actions included
  under ``until-next``, from an injected :class:`random.Random` (hypothesis's ``st.randoms()``).
"""

from __future__ import annotations

import copy
import os
import random
from typing import Any, Final

import pytest
from hypothesis import strategies as st

from chromium import CHROMIUM, CHROMIUM_FLAGS
from ohhell.actions import CHANGE_BASE, Action
from ohhell.cards import FIRST_MAGICIAN, SUIT_LETTERS, CardSet, parse_card
from ohhell.deal import Deal, deal_from_pack
from ohhell.dealnumbers import MAX_DEAL_NUMBER, shuffled_pack
from ohhell.game import Game
from ohhell.rules import (
    BID_CHANGE_RULES,
    FIRST_DEALER_RULES,
    FIRST_LEAD_RULES,
    NO_TRUMP_STEP,
    PRESETS,
    SCHEDULES,
    SCORING_SCHEMES,
    Rules,
)

TRUMP_STEPS: Final = (*SUIT_LETTERS, NO_TRUMP_STEP)
MAX_CHANGES_PER_DEAL: Final = 6
"""Bid changes never advance the deal; capping them keeps random play finite."""


@st.composite
def valid_rules(
    draw: st.DrawFn,
    special_cards: bool | None = None,
    schedule: str | tuple[int, ...] | None = None,
    bid_changes: str | None = None,
    short_schedules: bool = False,
) -> Rules:
    """Any valid rule set: a preset with every option drawn on top of it.

    ``short_schedules`` keeps whole games quick: explicit lists of at most four small deals.
    """
    specials = draw(st.booleans()) if special_cards is None else special_cards
    players = draw(st.integers(3, 6 if specials else 7))
    most = (60 if specials else 52) // players
    if schedule is not None:
        chosen: str | tuple[int, ...] = schedule
    elif short_schedules:
        chosen = tuple(draw(st.lists(st.integers(1, min(most, 5)), min_size=1, max_size=4)))
    else:
        explicit = st.lists(st.integers(1, most), min_size=1, max_size=5).map(tuple)
        chosen = draw(st.one_of(st.sampled_from(SCHEDULES), explicit))
    scoring = draw(st.sampled_from(SCORING_SCHEMES))
    trump: str | tuple[str, ...] = draw(
        st.one_of(st.just("turn-up"), st.lists(st.sampled_from(TRUMP_STEPS), min_size=1, max_size=6).map(tuple))
    )
    first_dealer: str | int = draw(st.one_of(st.sampled_from(FIRST_DEALER_RULES), st.integers(0, players - 1)))
    return Rules.preset(
        draw(st.sampled_from(sorted(PRESETS))),
        players=players,
        schedule=chosen,
        first_dealer=first_dealer,
        trump=trump,
        hook=draw(st.booleans()),
        bid_changes=draw(st.sampled_from(BID_CHANGE_RULES)) if bid_changes is None else bid_changes,
        first_lead=draw(st.sampled_from(FIRST_LEAD_RULES)),
        scoring=scoring,
        miss_penalty=draw(st.booleans()),
        zero_bid_bonus=draw(st.one_of(st.none(), st.just(5), st.integers(0, 30))),
        special_cards=specials,
    )


deal_numbers: Final = st.integers(0, MAX_DEAL_NUMBER)


@st.composite
def dealt_deals(
    draw: st.DrawFn,
    special_cards: bool | None = None,
    bid_changes: str | None = None,
) -> Deal:
    """One deal of a random valid rule set, dealt from a random number exactly as a :class:`Game` deals it."""
    rules = draw(valid_rules(special_cards=special_cards, bid_changes=bid_changes))
    number = draw(deal_numbers)
    deal_index = draw(st.integers(0, rules.deals - 1))
    dealer = draw(st.integers(0, rules.players - 1))
    pack = shuffled_pack(number, rules.players, rules.special_cards, deal_index)
    return deal_from_pack(rules, pack, dealer, deal_index)


def legal_moves(deal: Deal) -> list[tuple[int, Action]]:
    """Every ``(seat, action)`` allowed now: the seat to act's actions and any open bid-change windows."""
    moves = [(deal.to_act, a) for a in deal.legal_actions()]
    for seat in range(deal.players):
        if seat != deal.to_act:
            moves.extend((seat, a) for a in deal.legal_actions(seat))
    return moves


def is_change(action: Action) -> bool:
    """Whether ``action`` is a ``change`` of bid."""
    return CHANGE_BASE <= action < CHANGE_BASE + 32


def random_move(
    deal: Deal, rng: random.Random, change_rate: float = 0.25, special_rate: float = 0.3
) -> tuple[int, Action]:
    """A random legal ``(seat, action)``.

    A bid change with probability ``change_rate`` when one is open; a Magician or Jester with probability
    ``special_rate`` when one may be played, so that the tricks they shape (a led Jester then a Magician ...)
    come up often.
    """
    moves = legal_moves(deal)
    changes = [m for m in moves if is_change(m[1])]
    progress = [m for m in moves if not is_change(m[1])]
    changes_made = sum(1 for _, a in deal.actions if is_change(a))
    if changes and changes_made < MAX_CHANGES_PER_DEAL and (not progress or rng.random() < change_rate):
        return rng.choice(changes)
    specials = [m for m in progress if FIRST_MAGICIAN <= m[1] < 60]
    if specials and rng.random() < special_rate:
        return rng.choice(specials)
    return rng.choice(progress)


def play_randomly(deal: Deal, rng: random.Random, steps: int | None = None) -> list[tuple[int, Action]]:
    """Apply random legal moves until the deal is over (or ``steps`` moves are made); return the moves."""
    moves: list[tuple[int, Action]] = []
    while not deal.is_over and (steps is None or len(moves) < steps):
        seat, action = random_move(deal, rng)
        deal.apply(action, seat)
        moves.append((seat, action))
    return moves


def play_game_randomly(game: Game, rng: random.Random) -> None:
    """Play a whole game with random legal moves, bid changes included."""
    while not game.is_over:
        seat, action = random_move(game.deal, rng)
        game.apply(action, seat)


DEAL_FIELDS: Final = tuple(
    sorted(
        name for name, value in vars(Deal).items() if type(value).__name__ in ("member_descriptor", "getset_descriptor")
    )
)
"""Every attribute of a :class:`Deal`, private ones included: its slots, or (compiled with mypyc) its native
attributes and properties."""


def deal_state(deal: Deal) -> dict[str, Any]:
    """A copy of every attribute of ``deal``, private ones included, to compare whole states.

    The attributes hold ints, frozen rules and lists of immutable items, so copying the lists copies the state.
    """
    state: dict[str, Any] = {}
    for name in DEAL_FIELDS:
        value = getattr(deal, name)
        state[name] = list(value) if isinstance(value, list) else value
    return state


def game_state(game: Game) -> dict[str, Any]:
    """A deep copy of everything in ``game``, each deal's every slot included."""
    state = {name: copy.deepcopy(value) for name, value in vars(game).items() if name not in ("deals", "rules")}
    state["rules"] = game.rules
    state["deals"] = [deal_state(deal) for deal in game.deals]
    return state


def make_deal(
    hands: list[str],
    dealer: int,
    turn_up: str | None = None,
    deal_index: int = 0,
    **options: Any,
) -> Deal:
    """A deal of the given hands (card text by seat) under ``full`` with a one-deal schedule of their size."""
    sets = [CardSet.parse(h) for h in hands]
    rules = Rules.preset("full", players=len(hands), schedule=(len(sets[0]),) * (deal_index + 1), **options)
    return Deal(rules, sets, dealer, None if turn_up is None else parse_card(turn_up), deal_index)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Playwright drives Debian's Chromium (``apt-get install chromium``; .ci/run installs it), never a download."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI needs Debian's chromium (apt-get install chromium): .ci/run installs it")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_FLAGS}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Under ``--dist loadgroup`` (./test.sh), stop at once if pytest-xdist lost the ``xdist_group`` marks.

    It groups by adding ``@group`` to the node ids of a worker's collection, which pytest 9.2 no longer lets it do
    (pytest-xdist issue 1386): the marked modules' tests would then be spread over the workers and fail by turns.
    """
    if not getattr(session.config.option, "loadgroup", False):
        return
    lost = [item.nodeid for item in session.items if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
    if lost:
        raise pytest.UsageError(
            f"pytest-xdist's --dist loadgroup lost the xdist_group mark of {len(lost)} tests ({lost[0]}, ...): "
            "this pytest and pytest-xdist do not work together (pyproject.toml pins pytest below 9.2)"
        )
