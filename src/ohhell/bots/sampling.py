"""Sampled worlds: hidden hands consistent with what a seat knows, rebuilt into engine deals for search.

A world gives every other seat as many cards as it holds, none of a suit it is
known to lack, and leaves the rest undealt. Bids are evidence: a seat that bid 4
probably holds a strong hand, so each world is picked among a few draws, in
proportion to how close each bid is to the strength of the hand the draw gave
that seat (:class:`BidEvidence`).

A world becomes a :class:`~ohhell.deal.Deal` by giving each seat its cards as
dealt (the ones it holds plus the ones it has played) and replaying the deal's
public history, so the search runs on the real rules.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ohhell.bots.chances import calibrated, card_kind, opponent_table, raw_chances
from ohhell.bots.knowledge import Knowledge, at_bidding
from ohhell.cards import FIRST_JESTER, FIRST_MAGICIAN, MAGICIANS, SUIT_CARDS, Card, cards_of
from ohhell.deal import Deal
from ohhell.view import SeatView

MAX_TRIES = 200
"""Attempts at placing the cards before falling back to the slower, always-successful placement."""
CANDIDATES = 8
"""Draws per world when bids are weighed: the world is picked among them by likelihood."""
BID_SPREAD = 1.2
"""How far (in tricks) a bid typically strays from the hand strength we estimate; wider means weaker evidence."""


def deal_hidden(known: Knowledge, rng: random.Random) -> list[list[Card]]:
    """Random current hands for the other seats (``[]`` for ``known.seat``), consistent with known voids.

    Cards are placed suit by suit, the most constrained suits first, each to a
    seat (or the undealt stock) chosen in proportion to the room it has left; the
    cards any seat may hold are then shuffled into the room that is left, which
    is the same thing done at once.
    """
    for _ in range(MAX_TRIES):
        hands = _try_place(known, rng, check=False)
        if hands is not None:
            return hands
    hands = _try_place(known, rng, check=True)
    assert hands is not None, "a consistent world exists: the real one"
    return hands


def _groups(known: Knowledge) -> list[tuple[list[Card], list[int]]]:
    """The unseen cards in groups that may go to the same places, each with the seats (and -1: stock) allowed."""
    others = [s for s in range(known.players) if s != known.seat and known.held[s]]
    groups = []
    for suit in range(4):
        cards = list(SUIT_CARDS[suit][known.unseen >> (13 * suit) & 0x1FFF])
        if cards:
            allowed = [s for s in others if not known.voids[s] >> suit & 1]
            groups.append((cards, [*allowed, -1]))
    specials = [FIRST_MAGICIAN] * known.unseen_magicians + [FIRST_JESTER] * known.unseen_jesters
    if specials:
        groups.append((specials, [*others, -1]))
    groups.sort(key=lambda g: len(g[1]))
    return groups


def _try_place(known: Knowledge, rng: random.Random, check: bool) -> list[list[Card]] | None:
    """One attempt; with ``check``, a card only goes where the cards after it still fit, so it cannot fail."""
    room = {s: known.held[s] for s in range(known.players) if s != known.seat}
    room[-1] = known.stock
    hands: list[list[Card]] = [[] for _ in range(known.players)]
    groups = _groups(known)
    free: list[Card] = []
    if not check:
        everywhere = len(room)
        while groups and len(groups[-1][1]) == everywhere:
            free.extend(groups.pop()[0])
    remaining = [len(cards) for cards, _ in groups]
    for index, (cards, allowed) in enumerate(groups):
        rng.shuffle(cards)
        for card in cards:
            remaining[index] -= 1
            choices = [s for s in allowed if room[s] > 0]
            if check:
                choices = [s for s in choices if _fits(groups, remaining, room, s)]
            if not choices:
                return None
            seat = choices[0] if len(choices) == 1 else rng.choices(choices, [room[s] for s in choices])[0]
            room[seat] -= 1
            if seat >= 0:
                hands[seat].append(card)
    rng.shuffle(free)
    start = 0
    for seat, left in room.items():
        if seat >= 0:
            hands[seat].extend(free[start : start + left])
        start += left
    return hands


def _fits(groups: list[tuple[list[Card], list[int]]], remaining: list[int], room: dict[int, int], place: int) -> bool:
    """Whether the cards still to place fit once one card goes to ``place``: Hall's condition over the groups."""
    left = dict(room)
    left[place] -= 1
    open_groups = [(count, seats) for count, (_, seats) in zip(remaining, groups, strict=True) if count > 0]
    for mask in range(1, 1 << len(open_groups)):
        chosen = [open_groups[i] for i in range(len(open_groups)) if mask >> i & 1]
        reachable = {s for _, seats in chosen for s in seats}
        if sum(count for count, _ in chosen) > sum(left[s] for s in reachable):
            return False
    return True


@dataclass(frozen=True)
class BidModel:
    """How a seat's bid relates to the strength we estimate for its hand: ``offset + slope * strength``, give or
    take ``spread`` tricks (the standard deviation). The default reads a bid as the strength itself."""

    offset: float = 0.0
    slope: float = 1.0
    spread: float = BID_SPREAD

    def expected(self, strength: float) -> float:
        """The bid a hand of this strength is expected to make."""
        return self.offset + self.slope * strength


PLAIN_BIDS = BidModel()
"""The default bid model: a bid is read as the strength of the hand, give or take :data:`BID_SPREAD` tricks."""


@dataclass(frozen=True)
class PlayModel:
    """How another seat picks its card: a softmax over its distinct legal cards of ``weights`` · the card's
    :func:`ohhell.bots.ismcts.play_features`, mixed with a uniform pick at ``floor`` (so that no world is ruled out
    by one surprising play). Fitted to recorded games by ``bench/bid_model.py --learn-plays``."""

    weights: tuple[float, ...]
    floor: float = 0.1


@dataclass(frozen=True)
class BidEvidence:
    """How likely each seat's bid is given the cards a world dealt it, from a quick per-card strength."""

    card_value: tuple[float, ...]
    """By card: its chance to take a trick as a lone card at bidding, as the Normal player counts it."""
    bids: tuple[int | None, ...]
    seat: int
    model: BidModel = PLAIN_BIDS

    @classmethod
    def from_view(cls, known: Knowledge, view: SeatView, model: BidModel | None = None) -> BidEvidence:
        """Card values from what ``known.seat`` knew at bidding: its hand as dealt and the turned card."""
        dealt = known.hand
        for card in known.played[known.seat]:
            dealt |= 1 << card
        at_start = at_bidding(view.rules, known.seat, dealt, view.turn_up, view.trump)
        table = opponent_table(at_start)
        size = view.hand_size
        values = [0.0] * 60
        for card in range(52):
            if not dealt >> card & 1:
                raw = raw_chances(at_start, 1 << card, size, False, table)[card]
                values[card] = calibrated(raw, card_kind(card, view.trump), size)
        for card in MAGICIANS:
            values[card] = 1.0
        return cls(tuple(values), view.bids, known.seat, model or PLAIN_BIDS)

    def likelihood(self, dealt: list[list[Card]]) -> float:
        """The relative chance of the bids made, had the seats been dealt ``dealt``."""
        misfit = 0.0
        for seat, bid in enumerate(self.bids):
            if bid is None or seat == self.seat:
                continue
            strength = sum(self.card_value[c] for c in dealt[seat])
            misfit += (bid - self.model.expected(strength)) ** 2
        return math.exp(-misfit / (2 * self.model.spread**2))


def rebuild(view: SeatView, known: Knowledge, hidden: list[list[Card]]) -> Deal:
    """The engine deal of a sampled world, replayed to the moment of ``view``."""
    dealt = _dealt(view, known, hidden)
    deal = Deal(view.rules, dealt, view.dealer, view.turn_up, view.deal_index)
    for seat, action in view.history:
        deal.apply(action, seat)
    return deal


def _dealt(view: SeatView, known: Knowledge, hidden: list[list[Card]]) -> list[list[Card]]:
    dealt = []
    for seat in range(view.players):
        now = cards_of(view.hand.mask) if seat == view.seat else hidden[seat]
        dealt.append([*now, *known.played[seat]])
    return dealt


def sample_world(
    view: SeatView, known: Knowledge, rng: random.Random, evidence: BidEvidence | None, candidates: int = CANDIDATES
) -> Deal:
    """One world consistent with ``view``: with bid evidence, the pick of ``candidates`` draws by their likelihood.

    Picking among a few draws in proportion to how well each explains the bids
    (sampling-importance-resampling) always uses the evidence, however unlikely
    the bids, at a fixed cost.
    """
    if evidence is None:
        return rebuild(view, known, deal_hidden(known, rng))
    draws = [deal_hidden(known, rng) for _ in range(candidates)]
    weights = [evidence.likelihood(_dealt(view, known, hidden)) for hidden in draws]
    if not any(weights):
        return rebuild(view, known, draws[0])
    return rebuild(view, known, rng.choices(draws, weights)[0])
