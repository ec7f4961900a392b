"""Games one seat cannot tell apart: the same game with the cards that seat has not seen dealt otherwise.

A Magician (or Jester) held by another seat is swapped with another hidden card, between two other seats, or the
hidden cards of the other seats and the stock are dealt again at random; the deal in progress is rebuilt from the
new hands and its actions replayed (a world where they are no longer legal, a seat holding a suit it showed out
of, is dropped). Everything one seat is told must be the same in all of them, byte for byte: :func:`view_bytes`
writes a view with the engine's numbers, copy labels included, for that comparison.

Used by the tests of the views (``tests/test_view.py``), the computer players' decisions, Why? and Hints
(``tests/bots/test_bot_fairness.py``), the server's messages (``tests/server/test_snapshot.py``) and the research
interface (``tests/env/test_fairness.py``).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any, Final

from hypothesis import strategies as st

from conftest import random_move
from ohhell.cards import FIRST_JESTER, FIRST_MAGICIAN, JESTER_MASK, MAGICIAN_MASK, CardSet, cards_of
from ohhell.deal import Deal, Trick
from ohhell.errors import OhHellError
from ohhell.game import Game
from ohhell.rules import PRESETS, Rules
from ohhell.view import SeatView

MAGICIAN_RULES: Final = tuple(
    Rules.preset(name, players=players, special_cards=True) for name in sorted(PRESETS) for players in (3, 4, 5, 6)
)
"""Every preset with Magicians and Jesters, at three to six players."""
RANDOM_DEALS: Final = 4
"""Random deals of the hidden cards for each seat (each from at most ten tries), besides the swaps of one Magician or
Jester."""


@st.composite
def positions(draw: st.DrawFn) -> Game:
    """A game with Magicians stopped in a deal of any size, in the bidding or in the play (never at its end)."""
    rules = draw(st.sampled_from(MAGICIAN_RULES))
    rng = random.Random(draw(st.integers(0, 2**32)))
    game = Game(rules, draw(st.integers(10**6, 10**9)))  # large: a test can look for the number in what it sees
    deal_index = draw(st.integers(0, rules.deals - 1))
    while game.deal_index < deal_index:
        seat, action = random_move(game.deal, rng)
        game.apply(action, seat)
    # a deal has a trump choice, one bid a seat and one card a seat a trick; changes come on top
    steps = draw(st.integers(0, rules.players * (1 + game.deal.size)))
    deal = game.deal
    for _ in range(steps):
        if len(deal.tricks) == deal.size - 1 and len(deal.trick) == rules.players - 1:
            break  # the next card would end the deal
        seat, action = random_move(deal, rng)
        game.apply(action, seat)
    return game


def played_by(deal: Deal) -> list[list[int]]:
    """The cards each seat has played in ``deal``, in order."""
    played: list[list[int]] = [[] for _ in range(deal.players)]
    tricks = [*deal.tricks, Trick(deal.trick_leader, tuple(deal.trick), -1)]
    for trick in tricks:
        for i, card in enumerate(trick.cards):
            played[trick.seat_of(i, deal.players)].append(card)
    return played


def rebuilt(game: Game, hands: list[list[int]]) -> Game | None:
    """``game`` with its deal in progress dealt ``hands`` (the cards held now; those played are kept), replayed;
    ``None`` if its actions are not all legal with those hands."""
    deal = game.deal
    played = played_by(deal)
    dealt = [[*hands[s], *played[s]] for s in range(deal.players)]
    try:
        again = Deal(deal.rules, dealt, deal.dealer, deal.turn_up, deal.deal_index)
        for seat, action in deal.actions:
            again.apply(action, seat)
    except OhHellError:
        return None
    other = game.copy()
    other.deals[-1] = again
    return other


def stock_of(deal: Deal) -> list[int]:
    """The cards dealt to nobody and not turned up."""
    dealt = 0
    for mask in deal.hands_dealt:
        dealt |= mask
    left = deal.rules.pack & ~dealt
    if deal.turn_up is not None:
        left &= ~(1 << deal.turn_up)
    return cards_of(left)


def other_worlds(game: Game, seat: int, rng: random.Random) -> Iterator[Game]:
    """Games that ``seat`` cannot tell from ``game``: a hidden Magician or Jester swapped with another hidden card
    (of another seat, or of the stock), and a few random deals of everything it has not seen."""
    deal = game.deal
    hands = [cards_of(mask) for mask in deal.hands]
    stock = stock_of(deal)
    others = [s for s in range(deal.players) if s != seat]
    places = [*others, -1]  # -1: the stock
    held = {s: hands[s] for s in others} | {-1: stock}
    for a in places:
        for b in places:
            if a == b:
                continue
            special = next((c for c in held[a] if c >= FIRST_MAGICIAN), None)
            if special is None:
                continue
            for card in held[b]:
                if card >= FIRST_MAGICIAN and (card >= FIRST_JESTER) == (special >= FIRST_JESTER):
                    continue  # a copy of the same kind: no other world
                swapped = {s: list(cards) for s, cards in held.items()}
                swapped[a][swapped[a].index(special)] = card
                swapped[b][swapped[b].index(card)] = special
                world = rebuilt(game, [swapped.get(s, hands[s]) for s in range(deal.players)])
                if world is not None:
                    yield world
                    break
    pool = [c for s in places for c in held[s]]
    found = 0
    for _ in range(RANDOM_DEALS * 10):
        if found == RANDOM_DEALS:
            return
        rng.shuffle(pool)
        new: dict[int, list[int]] = {}
        start = 0
        for s in places:
            new[s] = pool[start : start + len(held[s])]
            start += len(held[s])
        world = rebuilt(game, [new.get(s, hands[s]) for s in range(deal.players)])
        if world is not None:
            found += 1
            yield world


def hidden_special_counts(game: Game, seat: int) -> tuple[tuple[int, int], ...]:
    """How many Magicians and Jesters each other seat holds: what the worlds change."""
    return tuple(
        ((mask & MAGICIAN_MASK).bit_count(), (mask & JESTER_MASK).bit_count())
        for s, mask in enumerate(game.deal.hands)
        if s != seat
    )


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data keeping every card number (a hand as its bitmask, a trick as its fields)."""
    if isinstance(value, CardSet):
        return ["cards", value.mask]
    if isinstance(value, Trick):
        return ["trick", value.leader, list(value.cards), value.winner]
    if isinstance(value, Rules):
        return ["rules", value.to_json()]
    if isinstance(value, SeatView):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    return value


def view_bytes(view: SeatView) -> bytes:
    """Every field of ``view`` with every card number in it, as bytes to compare."""
    return json.dumps(plain(view), sort_keys=True).encode()
