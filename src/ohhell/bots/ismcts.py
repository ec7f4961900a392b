"""Information-set Monte Carlo tree search on bitmasks, for the Hard player (compiled with mypyc: see ``setup.py``).

One tree for the whole table, its nodes the public histories seen from the
searching seat (*single-observer* ISMCTS, Cowling, Powley and Whitehouse 2012):
every simulation takes one sampled world (the hidden hands, drawn by the caller
from what the seat knows), walks down the tree choosing each move by UCB among
the moves legal in that world (a move's *availability* counts the visits in
which it could have been chosen), adds one node, and plays the rest out with a
quick rule of thumb. Every seat's choices in the tree maximize its own points
for the deal under the scoring in force; the searching seat's may instead count
its points less a share of the other seats' mean (:attr:`Search.rivalry`).

Seats still to bid after the searching seat bid from their sampled hand, by a
per-card strength (the same one the sampler weighs bids with): a bid is a
reading of a hand, not a move to be searched blind. Cards in sequence (nothing
still out lies between them) are one move. Only plain cards: deals with
Magicians or Jesters are left to the other search of the Hard player.

The search runs on ints: a hand is a 52-bit mask (bit ``13 * suit + rank``), a
bid move is keyed ``-(bid + 1)`` and a card move by its bit.
"""

from __future__ import annotations

import math
import time
from typing import Final

from ohhell.bots.endgame import SUIT_BITS
from ohhell.bots.endgame import suit_of_bit as _suit

MASK32: Final = 0xFFFFFFFF
FULL: Final = (1 << 52) - 1
"""Every card of the standard pack."""


def _xorshift(x: int) -> int:
    """The next state of a 32-bit xorshift generator (fast, and reproducible from its seed)."""
    x ^= (x << 13) & MASK32
    x ^= x >> 17
    x ^= (x << 5) & MASK32
    return x


def _highest(mask: int) -> int:
    """The one-bit mask of the highest bit of a non-empty mask."""
    while mask & (mask - 1):
        mask &= mask - 1
    return mask


def _distinct(moves: int, live: int) -> int:
    """``moves`` less the cards in sequence with a lower one (no ``live`` card between them)."""
    kept = 0
    for suit in range(4):
        rest = moves & SUIT_BITS[suit]
        previous = 0
        while rest:
            bit = rest & -rest
            rest ^= bit
            if previous and not live & (bit - 1) & ~((previous << 1) - 1):
                previous = bit
                continue
            previous = bit
            kept |= bit
    return kept


class Sampler:
    """Fresh worlds for every simulation: the unseen cards dealt at random to the seats that may hold them.

    ``room[s]`` is how many cards seat ``s`` holds (0 for the searching seat),
    ``allowed[s]`` the cards it may hold (none of a suit it is known to lack).
    A world is a uniform shuffle of the unseen cards, redrawn while some seat
    got a card it cannot hold (:meth:`world` gives up after :attr:`tries`
    shuffles). Bids are evidence when ``weigh`` is set: the world is picked
    among ``candidates`` draws in proportion to how close each seat's bid is to
    the strength of the hand the draw gave it (``values`` by card, plus the
    strength of the cards it has already played), as in
    :class:`ohhell.bots.sampling.BidEvidence`.
    """

    def __init__(
        self,
        own: int,
        seat: int,
        unseen: list[int],
        room: list[int],
        allowed: list[int],
        values: list[float],
        played_strength: list[float],
        bids: list[int],
        weigh: bool,
        spread: float,
        candidates: int,
        seed: int,
        offset: float = 0.0,
        slope: float = 1.0,
    ) -> None:
        self.own = own
        self.seat = seat
        self.unseen = list(unseen)
        self.room = room
        self.allowed = allowed
        self.values = values
        self.played_strength = played_strength
        self.bids = bids
        self.weigh = weigh
        self.spread2 = 2 * spread * spread
        self.offset = offset
        self.slope = slope
        self.candidates = candidates
        self.state = (seed & MASK32) or 0x2545F491
        self.tries = 60
        self.strengths: list[float] = [0.0] * len(room)
        self.failures = 0

    def _next(self) -> int:
        self.state = _xorshift(self.state)
        return self.state

    def _draw(self) -> list[int] | None:
        """One consistent assignment of the unseen cards (hand masks, the searching seat's own included)."""
        cards = self.unseen
        total = len(cards)
        players = len(self.room)
        for _ in range(self.tries):
            hands = [0] * players
            hands[self.seat] = self.own
            position = 0
            ok = True
            for s in range(players):
                need = self.room[s]
                allowed = self.allowed[s]
                for _k in range(need):
                    j = position + ((self._next() * (total - position)) >> 32)
                    card = cards[j]
                    cards[j] = cards[position]
                    cards[position] = card
                    position += 1
                    bit = 1 << card
                    if not allowed & bit:
                        ok = False
                        break
                    hands[s] |= bit
                if not ok:
                    break
            if ok:
                return hands
        self.failures += 1
        return None

    def strength(self, hand: int) -> float:
        """The strength (expected tricks) of a hand, by the per-card values."""
        values = self.values
        total = 0.0
        rest = hand
        while rest:
            bit = rest & -rest
            rest ^= bit
            total += values[bit.bit_length() - 1]
        return total

    def world(self) -> list[int] | None:
        """A world (hand masks), weighed by the bids when asked; :attr:`strengths` then holds each seat's strength."""
        players = len(self.room)
        if not self.weigh:
            hands = self._draw()
            if hands is not None:
                for s in range(players):
                    self.strengths[s] = self.strength(hands[s]) if s != self.seat else 0.0
            return hands
        draws: list[list[int]] = []
        weights: list[float] = []
        total = 0.0
        for _ in range(self.candidates):
            hands = self._draw()
            if hands is None:
                continue
            misfit = 0.0
            for s in range(players):
                bid = self.bids[s]
                if bid >= 0 and s != self.seat:
                    gap = bid - self.offset - self.slope * (self.strength(hands[s]) + self.played_strength[s])
                    misfit += gap * gap
            weight = math.exp(-misfit / self.spread2)
            draws.append(hands)
            weights.append(weight)
            total += weight
        if not draws:
            return None
        chosen = draws[0]
        if total > 0:
            roll = self._next() / 4294967296.0 * total
            for i in range(len(draws)):
                roll -= weights[i]
                if roll <= 0:
                    chosen = draws[i]
                    break
        for s in range(players):
            self.strengths[s] = self.strength(chosen[s]) if s != self.seat else 0.0
        return chosen


class Node:
    """A public history in the tree; its statistics are those of the move that led to it."""

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.hits = 0
        self.scored = 0.0
        """At the root's moves: the searching seat's own points summed (its value may count the others' too)."""
        self.by_hand: dict[int, Node] = {}
        """With :attr:`Search.own_hands`: an opponent's statistics at this history, by the hand it holds."""


class Search:
    """One decision's search: the position (as the searching seat sees it) and the tree over it.

    ``points[bid * (size + 1) + tricks]`` is a seat's score for the deal; ``bids``
    holds -1 for a seat yet to bid; ``trick`` the cards (indices) of the trick in
    progress, led by ``leader`` (before the first card of the deal: the first
    leader). ``trump`` is -1 without trumps.
    """

    def __init__(
        self,
        seat: int,
        players: int,
        size: int,
        trump: int,
        dealer: int,
        hook: bool,
        points: list[int],
        bids: list[int],
        won: list[int],
        trick: list[int],
        leader: int,
        played: int,
        exploration: float,
        skill: float,
        seed: int,
    ) -> None:
        self.seat = seat
        self.players = players
        self.size = size
        self.trump = trump
        self.dealer = dealer
        self.hook = hook
        self.points = points
        self.root_bids = list(bids)
        self.root_won = list(won)
        self.leader = leader
        self.played = played
        self.exploration = exploration
        self.skill = skill
        self.state = (seed & MASK32) or 0x9E3779B9
        self.root = Node()
        self.bidding = any(b < 0 for b in bids)
        led = -1
        best = 0
        best_seat = -1
        self.table = 0
        for i, card in enumerate(trick):
            bit = 1 << card
            if i == 0:
                led = _suit(bit)
                best = bit
                best_seat = leader
            elif self._beats(bit, best):
                best = bit
                best_seat = (leader + i) % players
            self.played |= bit
            self.table |= bit
        self.led = led
        self.best = best
        self.best_seat = best_seat
        self.count = len(trick)
        self.tricks_left = size - sum(won)
        self.root_bid_moves: list[int] = []
        self.expanded = False
        self.own_hands = False
        """Whether another seat's choices are counted by the hand it holds (as in OpenSpiel's ISMCTS) or pooled."""
        self.bid_offset = 0.0
        self.bid_slope = 1.0
        """Seats still to bid bid about ``bid_offset + bid_slope * strength`` (see ``sampling.BidModel``)."""
        self.rivalry = 0.0
        """The searching seat values a deal at its points minus this share of the other seats' mean points."""
        self.other_exploration = 1.0
        """The other seats' exploration constant at their cards, as a multiple of :attr:`exploration` (above 1: the
        search expects them to stray more from their best card)."""
        self.other_policy = 0
        """How the other seats pick their cards in the tree: 0 by UCB on their own points; 1 by the play-outs' rule
        (:meth:`_rollout_card`); 2 by a softmax of :attr:`other_weights` · :func:`play_features` over their distinct
        legal cards. With 1 or 2 their cards are chance moves of a model, chosen from the hand they hold."""
        self.other_weights: list[float] = []

    # ------------------------------------------------------------ randomness

    def _next(self) -> int:
        self.state = _xorshift(self.state)
        return self.state

    def _below(self, n: int) -> int:
        return (self._next() * n) >> 32

    def _chance(self) -> float:
        return self._next() / 4294967296.0

    def _pick(self, mask: int) -> int:
        """A uniformly random bit of a non-empty mask."""
        count = 0
        rest = mask
        while rest:
            rest &= rest - 1
            count += 1
        index = self._below(count)
        rest = mask
        while index:
            rest &= rest - 1
            index -= 1
        return rest & -rest

    # ------------------------------------------------------------ the rules

    def _beats(self, card: int, best: int) -> bool:
        return _beats_in(card, best, self.trump)

    def _forbidden(self, seat: int, bids: list[int]) -> int:
        """The bid ``seat`` may not make (the hook, for the dealer), or -1."""
        if not self.hook or seat != self.dealer:
            return -1
        others = 0
        for s in range(self.players):
            if s != seat:
                others += bids[s]
        return self.size - others if others <= self.size else -1

    def _policy_bid(self, strength: float, forbidden: int) -> int:
        """A seat's bid from its hand's strength (expected tricks), now and then one off."""
        size = self.size
        bid = int(self.bid_offset + self.bid_slope * strength + 0.5)
        roll = self._chance()
        if roll < 0.15:
            bid -= 1
        elif roll < 0.3:
            bid += 1
        bid = max(0, min(size, bid))
        if bid == forbidden:
            up = bid + 1 <= size
            down = bid - 1 >= 0
            if up and (strength >= bid or not down):
                bid += 1
            else:
                bid -= 1
        return bid

    # ------------------------------------------------------------ search

    def set_root_bids(self, bids: list[int]) -> None:
        """Search only these bids at the root (the searching seat bids now)."""
        self.root_bid_moves = [-(b + 1) for b in bids]

    def run(
        self,
        worlds: list[list[int]],
        strengths: list[list[float]],
        iterations: int,
        seconds: float,
        sampler: Sampler | None = None,
    ) -> int:
        """Simulate until a limit; returns the count.

        Each simulation takes a fresh world from ``sampler``, or, without one or
        when it fails, the next of ``worlds`` (hand masks, the seat's own
        included) with ``strengths`` (each seat's hand strength).
        """
        deadline = time.perf_counter() + seconds
        done = 0
        count = len(worlds)
        while done < iterations:
            fresh = sampler.world() if sampler is not None else None
            if fresh is not None and sampler is not None:
                self._simulate(fresh, sampler.strengths)
            else:
                index = done % count
                self._simulate(worlds[index], strengths[index])
            done += 1
            if done & 31 == 0 and time.perf_counter() >= deadline:
                break
        return done

    def _simulate(self, world: list[int], strength: list[float]) -> None:
        players = self.players
        seat = self.seat
        hands = list(world)
        bids = list(self.root_bids)
        won = list(self.root_won)
        played = self.played
        leader = self.leader
        led = self.led
        best = self.best
        best_seat = self.best_seat
        count = self.count
        left = self.tricks_left
        bidding = self.bidding
        size = self.size
        to_act = seat
        node = self.root
        path: list[Node] = []
        movers: list[int] = []
        in_tree = True
        first_winner = -1
        table = self.table
        while left > 0:
            if bidding:
                forbidden = self._forbidden(to_act, bids)
                if to_act == seat:
                    if in_tree and node is self.root:
                        key = self._select(node, self.root_bid_moves, path, movers, to_act)
                        in_tree = not self.expanded
                        node = path[-1]
                        bid = -key - 1
                    else:
                        bid = self._policy_bid(strength[to_act], forbidden)
                else:
                    bid = self._policy_bid(strength[to_act], forbidden)
                    if in_tree:
                        child = node.children.get(-(bid + 1))
                        if child is None:
                            child = Node()
                            node.children[-(bid + 1)] = child
                        node = child
                bids[to_act] = bid
                to_act = to_act + 1 if to_act + 1 < players else 0
                if bids[to_act] >= 0:
                    bidding = False
                    to_act = leader
                continue
            hand = hands[to_act]
            moves = hand
            if count:
                follow = hand & SUIT_BITS[led]
                if follow:
                    moves = follow
            if in_tree and to_act != seat and self.own_hands:
                stats = node.by_hand.get(hand)
                if stats is None:
                    node.by_hand[hand] = Node()
                    in_tree = False
                    bit = self._rollout_card(moves, count, led, best, bids[to_act] - won[to_act], hand)
                else:
                    live = (~played | table) & ~hand & FULL
                    bit = self._select_card(stats, _distinct(moves, live), path, movers, to_act)
                    if bit < 0:
                        in_tree = False
                        bit = -bit
                    child = node.children.get(bit)
                    if child is None:
                        child = Node()
                        node.children[bit] = child
                    node = child
            elif in_tree and to_act != seat and self.other_policy:
                live = (~played | table) & ~hand & FULL
                bit = self._model_card(
                    _distinct(moves, live), moves, count, led, best, bids[to_act] - won[to_act], hand, played
                )
                child = node.children.get(bit)
                if child is None:
                    child = Node()
                    node.children[bit] = child
                child.visits += 1  # a chance move: counted, its value not backed up
                node = child
            elif in_tree:
                live = (~played | table) & ~hand & FULL
                bit = self._select_card(node, _distinct(moves, live), path, movers, to_act)
                if bit < 0:
                    in_tree = False
                    bit = -bit
                node = path[-1]
            elif moves & (moves - 1) == 0:
                bit = moves
            else:
                bit = self._rollout_card(moves, count, led, best, bids[to_act] - won[to_act], hand)
            hands[to_act] = hand ^ bit
            played |= bit
            table |= bit
            if count == 0:
                led = _suit(bit)
                best = bit
                best_seat = to_act
            elif self._beats(bit, best):
                best = bit
                best_seat = to_act
            count += 1
            if count == players:
                won[best_seat] += 1
                if first_winner < 0:
                    first_winner = best_seat
                left -= 1
                count = 0
                table = 0
                to_act = best_seat
            else:
                to_act = to_act + 1 if to_act + 1 < players else 0
        points = self.points
        width = size + 1
        made = won[seat] == bids[seat]
        hit = made if self.bidding else first_winner == seat
        mine = points[bids[seat] * width + won[seat]]
        own = float(mine)
        if self.rivalry:
            others = 0
            for s in range(players):
                if s != seat:
                    others += points[bids[s] * width + won[s]]
            own -= self.rivalry * others / (players - 1)
        for i in range(len(path)):
            child = path[i]
            mover = movers[i]
            child.visits += 1
            child.total += own if mover == seat else points[bids[mover] * width + won[mover]]
        if path:
            path[0].hits += hit
            path[0].scored += mine

    def _select(self, node: Node, keys: list[int], path: list[Node], movers: list[int], mover: int) -> int:
        """UCB among ``keys`` at ``node``; returns the key (:attr:`expanded` says whether its child is new)."""
        children = node.children
        untried: list[int] = []
        chosen: Node | None = None
        chosen_key = 0
        top = -1e300
        c = self.exploration
        for key in keys:
            child = children.get(key)
            if child is None:
                untried.append(key)
                continue
            child.avail += 1
            if not untried:
                value = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if value > top:
                    top = value
                    chosen = child
                    chosen_key = key
        if untried:
            key = untried[self._below(len(untried))]
            new = Node()
            children[key] = new
            path.append(new)
            movers.append(mover)
            self.expanded = True
            return key
        assert chosen is not None
        path.append(chosen)
        movers.append(mover)
        self.expanded = False
        return chosen_key

    def _select_card(self, node: Node, moves: int, path: list[Node], movers: list[int], mover: int) -> int:
        """UCB among the cards of ``moves``; returns the card's bit, negated after adding a new child."""
        children = node.children
        untried = 0
        chosen: Node | None = None
        chosen_bit = 0
        top = -1e300
        c = self.exploration if mover == self.seat else self.exploration * self.other_exploration
        rest = moves
        while rest:
            bit = rest & -rest
            rest ^= bit
            child = children.get(bit)
            if child is None:
                untried |= bit
                continue
            child.avail += 1
            value = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if value > top:
                top = value
                chosen = child
                chosen_bit = bit
        if untried:
            bit = self._pick(untried)
            new = Node()
            children[bit] = new
            path.append(new)
            movers.append(mover)
            return -bit
        assert chosen is not None
        path.append(chosen)
        movers.append(mover)
        return chosen_bit

    def _model_card(
        self, distinct: int, moves: int, count: int, led: int, best: int, need: int, hand: int, played: int
    ) -> int:
        """Another seat's card in the tree by :attr:`other_policy` (1 or 2), one of ``distinct``."""
        if distinct & (distinct - 1) == 0:
            return distinct
        if self.other_policy == 1:
            bit = self._rollout_card(moves, count, led, best, need, hand)
            # The card standing for its sequence: the lowest of ``distinct`` in its suit at or above it.
            below = distinct & SUIT_BITS[_suit(bit)] & ((bit << 1) - 1)
            return _highest(below)
        want = need > 0
        rule = rule_move(moves, count, best, self.trump, want)
        bits, exps, total = _learned_terms(
            self.other_weights, distinct, rule, hand, count, best, self.trump, want, played, count == self.players - 1
        )
        roll = self._chance() * total
        for i in range(len(bits)):
            roll -= exps[i]
            if roll < 0.0:
                return bits[i]
        return bits[len(bits) - 1]

    def _rollout_card(self, moves: int, count: int, led: int, best: int, need: int, hand: int) -> int:
        """The play-out's card: with probability ``skill`` a rule of thumb, otherwise a random legal card.

        The rule: a seat that still needs tricks leads its highest card, or wins
        the trick with its highest winning card; one that has enough (or too many)
        leads its lowest, plays its highest card that loses, or its lowest card.
        """
        if self._chance() >= self.skill:
            return self._pick(moves)
        return rule_move(moves, count, best, self.trump, need > 0)

    # ------------------------------------------------------------ results

    def results(self) -> list[tuple[int, int, float, int, float]]:
        """The root's moves: ``(key, visits, mean value, hits, mean points)``, most visited first.

        The value is the seat's own points less :attr:`rivalry` times the other seats' mean.
        """
        rows = []
        for key, child in self.root.children.items():
            if child.visits:
                rows.append((key, child.visits, child.total / child.visits, child.hits, child.scored / child.visits))
        rows.sort(key=lambda row: (-row[1], -row[2]))
        return rows


def _top_rank(mask: int) -> int:
    """The card of ``mask`` with the highest rank (of equal ranks, the higher suit)."""
    chosen = 0
    chosen_rank = -1
    for suit in range(4):
        sub = (mask >> (13 * suit)) & 0x1FFF
        if sub:
            top = _highest(sub)
            rank = top.bit_length()
            if rank > chosen_rank:
                chosen_rank = rank
                chosen = top << (13 * suit)
    return chosen


def _bottom_rank(mask: int) -> int:
    """The card of ``mask`` with the lowest rank."""
    chosen = 0
    chosen_rank = 99
    for suit in range(4):
        sub = (mask >> (13 * suit)) & 0x1FFF
        if sub:
            low = sub & -sub
            rank = low.bit_length()
            if rank < chosen_rank:
                chosen_rank = rank
                chosen = low << (13 * suit)
    return chosen


def _beats_in(card: int, best: int, trump: int) -> bool:
    suit = _suit(card)
    if suit == _suit(best):
        return card > best
    return suit == trump


def same_move(card: int, other: int, seen: int) -> bool:
    """Whether two card bits are one move: the same card, or in one suit with nothing between them outside ``seen``."""
    if card == other:
        return True
    if _suit(card) != _suit(other):
        return False
    low = card if card < other else other
    high = other if card < other else card
    return not (high - 1) & ~((low << 1) - 1) & ~seen


def rule_move(moves: int, count: int, best: int, trump: int, want: bool) -> int:
    """The play-outs' rule of thumb (:meth:`Search._rollout_card`), as a card bit: a seat that wants tricks (``want``)
    leads its highest card or wins with its highest winner; one that does not leads low, plays its highest loser, or
    its lowest card."""
    if count == 0:
        return _top_rank(moves) if want else _bottom_rank(moves)
    winners = 0
    rest = moves
    while rest:
        bit = rest & -rest
        rest ^= bit
        if _beats_in(bit, best, trump):
            winners |= bit
    if want:
        return _highest(winners) if winners else _bottom_rank(moves)
    losers = moves & ~winners
    return _top_rank(losers) if losers else _bottom_rank(moves)


PLAY_FEATURES: Final = 16
"""Length of :func:`play_features`' vector."""


def play_features(
    bit: int, rule: int, hand: int, count: int, best: int, trump: int, want: bool, played: int, last: bool
) -> list[float]:
    """What a learned model of another seat's play (:func:`play_likelihood`'s ``weights``) sees of one legal card.

    ``bit`` is the card, ``rule`` the rule of thumb's card (:func:`rule_move` of the seat's legal cards), ``hand``
    all its cards before playing, ``count`` the
    cards already in the trick (``best`` the winning one), ``want`` whether the seat
    still needs tricks, ``played`` every card played in the deal so far (the trick's
    included) and ``last`` whether the seat plays the trick's last card.
    """
    suit = _suit(bit)
    rank = (bit.bit_length() - 1 - 13 * suit) / 12.0
    w = 1.0 if want else 0.0
    lead = 1.0 if count == 0 else 0.0
    wins = 1.0 if count and _beats_in(bit, best, trump) else 0.0
    is_trump = 1.0 if suit == trump else 0.0
    own = hand & SUIT_BITS[suit]
    above = SUIT_BITS[suit] & ~((bit << 1) - 1)
    boss = 0.0 if above & ~played & ~hand else 1.0
    top = 0.0 if own & above else 1.0
    bottom = 0.0 if own & (bit - 1) else 1.0
    length = own.bit_count() / 10.0
    return [
        1.0 if same_move(rule, bit, hand | played) else 0.0,
        wins,
        wins * w,
        is_trump,
        is_trump * w,
        rank,
        rank * w,
        lead * rank,
        lead * rank * w,
        boss,
        boss * w,
        top,
        bottom,
        lead * length,
        wins * (1.0 if last else 0.0),
        lead * length * w,
    ]


def _learned_terms(
    weights: list[float],
    distinct: int,
    rule: int,
    hand: int,
    count: int,
    best: int,
    trump: int,
    want: bool,
    played: int,
    last: bool,
) -> tuple[list[int], list[float], float]:
    """The moves of ``distinct`` (lowest first), the exponential of ``weights`` · :func:`play_features` of each, and
    their sum: a learned model's softmax before it is normalized."""
    bits: list[int] = []
    exps: list[float] = []
    total = 0.0
    rest = distinct
    while rest:
        move = rest & -rest
        rest ^= move
        features = play_features(move, rule, hand, count, best, trump, want, played, last)
        z = 0.0
        for i in range(len(features)):
            z += weights[i] * features[i]
        e = math.exp(z)
        total += e
        bits.append(move)
        exps.append(e)
    return bits, exps, total


def _learned_chance(
    weights: list[float],
    noise: float,
    bit: int,
    moves: int,
    hand: int,
    count: int,
    best: int,
    trump: int,
    want: bool,
    played: int,
    last: bool,
) -> float:
    """The chance the learned model, mixed with a uniform pick at ``noise``, gives the move of ``bit`` among the
    distinct legal moves."""
    seen = hand | played
    distinct = _distinct(moves, ~seen & FULL)
    rule = rule_move(moves, count, best, trump, want)
    bits, exps, total = _learned_terms(weights, distinct, rule, hand, count, best, trump, want, played, last)
    chosen = 0.0
    for i in range(len(bits)):
        if same_move(bits[i], bit, seen):
            chosen = exps[i]
    return chosen / total * (1.0 - noise) + noise / distinct.bit_count()


def play_likelihood(
    dealt: list[int],
    seats: list[int],
    cards: list[int],
    bids: list[int],
    trump: int,
    me: int,
    noise: float,
    weights: list[float] | None = None,
) -> float:
    """How likely the cards the other seats played are, had they been dealt ``dealt`` (hand masks, every seat).

    The model of a seat's play: without ``weights``, the rule of thumb's card (or
    one in sequence with it) with probability ``1 - noise``, otherwise any legal
    card; with ``weights`` (:data:`PLAY_FEATURES` of them), a softmax over the
    distinct legal cards of ``weights`` · :func:`play_features`, mixed with a
    uniform pick at ``noise``. ``seats`` and ``cards`` (indices) are the plays of
    the deal so far, in order; the plays of ``me`` carry no evidence. 0 when a
    world could not have made the plays.
    """
    players = len(dealt)
    hands = list(dealt)
    won = [0] * players
    played = 0
    likelihood = 1.0
    count = 0
    led = -1
    best = 0
    best_seat = -1
    for i in range(len(cards)):
        seat = seats[i]
        bit = 1 << cards[i]
        hand = hands[seat]
        if not hand & bit:
            return 0.0
        if seat != me:
            moves = hand
            if count:
                follow = hand & SUIT_BITS[led]
                if follow:
                    moves = follow
            n = moves.bit_count()
            if n > 1 and weights is not None:
                want = bids[seat] > won[seat]
                likelihood *= _learned_chance(
                    weights, noise, bit, moves, hand, count, best, trump, want, played, count == players - 1
                )
            elif n > 1:
                rule = rule_move(moves, count, best, trump, bids[seat] > won[seat])
                same = same_move(rule, bit, hand | played)
                likelihood *= (1.0 - noise) + noise / n if same else noise / n
        hands[seat] = hand ^ bit
        played |= bit
        if count == 0:
            led = _suit(bit)
            best = bit
            best_seat = seat
        elif _beats_in(bit, best, trump):
            best = bit
            best_seat = seat
        count += 1
        if count == players:
            won[best_seat] += 1
            count = 0
    return likelihood
