"""Fair computer players: a bot gets a view, the view holds no other hand, and hidden cards never sway a decision."""

from __future__ import annotations

import gc
import inspect
import random
import types

import pytest
from botkit import SEARCH, deal_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ohhell.bots import LEVELS, Budget, hints, make_bot
from ohhell.bots.public import why
from ohhell.cards import CardSet, cards_of
from ohhell.deal import Deal, deal_from_pack
from ohhell.dealnumbers import shuffled_pack
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.view import SeatView, seat_view
from worlds import other_worlds, positions


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through references, stopping at classes, modules and functions."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, types.FunctionType)):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
        if hasattr(obj, "__slots__") and not isinstance(obj, type):
            stack.extend(getattr(obj, name) for name in obj.__slots__ if hasattr(obj, name))
    return list(seen.values())


def mid_deal_views(number: int) -> list[tuple[Deal, SeatView]]:
    """Views of every seat at every moment of a deal played by Normal players."""
    rules = Rules.preset("full", schedule=(6,))
    deal = deal_from_pack(rules, shuffled_pack(number, 4, False, 0), number % 4, 0)
    bot = make_bot("normal")
    out = []
    while not deal.is_over:
        for seat in range(4):
            out.append((deal.copy(), seat_view(deal, seat)))
        deal.apply(bot.decide(seat_view(deal, deal.to_act), random.Random(0)).action)
    return out


def test_a_view_reaches_no_deal_game_or_hidden_hand() -> None:
    for deal, view in mid_deal_views(5)[::7]:
        objects = reachable(view)
        assert not any(isinstance(o, (Deal, Game)) for o in objects)
        # a hand of a low card or two is a small number, as counts are: only masks no count can be are looked for
        hidden = {deal.hands[s] for s in range(4) if s != view.seat and deal.hands[s] > 255}
        masks = {o.mask for o in objects if isinstance(o, CardSet)}
        assert masks <= {view.hand.mask, view.played.mask}
        assert not hidden & {o for o in objects if isinstance(o, int)}


def test_every_card_a_view_names_is_its_own_or_played() -> None:
    for deal, view in mid_deal_views(9):
        public = set(cards_of(view.played.mask)) | {deal.turn_up}
        named = set(view.hand) | set(view.trick) | {c for t in view.tricks for c in t.cards}
        named |= {a for _, a in view.history if a < 60}
        assert named <= public | set(cards_of(deal.hands[view.seat]))


def test_the_bot_door_takes_only_a_view() -> None:
    for level in LEVELS:
        parameters = inspect.signature(make_bot(level).decide).parameters
        assert list(parameters) == ["view", "rng", "budget"]


def _twin_deals() -> tuple[Deal, Deal]:
    """Two deals alike for seat 0, but seats 1 and 2 each hold a different hidden card (one left undealt)."""
    first = ["AS 7H 9D 2C 5S", "KS QH 3D 8C 4H", "JS TH 6D AC 2D", "3S 9H KD 5C 8D"]
    second = ["AS 7H 9D 2C 5S", "KS QH 3D 8C 6H", "JS TH 6D AC 7D", "3S 9H KD 5C 8D"]
    return deal_of(first, dealer=3, turn_up="4C"), deal_of(second, dealer=3, turn_up="4C")


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_never_change_a_decision(level: str) -> None:
    one, two = _twin_deals()
    bot = make_bot(level)
    compared = 0
    while not one.is_over:
        if one.to_act == 0:
            view = seat_view(one, 0)
            assert seat_view(two, 0) == view
            decision = bot.decide(view, random.Random(4), SEARCH)
            assert bot.decide(seat_view(two, 0), random.Random(4), SEARCH) == decision
            compared += 1
            action = decision.action
        else:
            common = [a for a in one.legal_actions() if a in two.legal_actions()]
            if not common:
                break
            action = common[0]
        one.apply(action)
        two.apply(action)
    assert compared >= 3


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 2**32))
def test_which_copies_of_a_magician_the_others_hold_never_changes_a_decision_its_why_or_a_hint(
    game: Game, seed: int
) -> None:
    """Each level's choice, its Why? and the Hint for the seat to act are the same in every world it cannot tell
    apart (a hidden Magician or Jester swapped between seats, the hidden cards dealt again)."""
    seat = game.to_act
    names = tuple(f"Player {s}" for s in range(game.rules.players))

    def decided(world: Game) -> list[tuple[int, str]]:
        view = world.view(seat)
        out = []
        for level in LEVELS:
            decision = make_bot(level).decide(view, random.Random(seed), Budget(iterations=4))
            out.append((decision.action, why(decision, view, names)))
        hint = hints.hint(view, "normal", random.Random(0), names=names)
        return [*out, (hint.action, " ".join((hint.reason, *hint.details)))]

    before = decided(game)
    for world in other_worlds(game, seat, random.Random(seed)):
        assert decided(world) == before
