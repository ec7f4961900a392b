"""Cross-check the engine against OpenSpiel's independent ``oh_hell`` on random single deals.

The rules both implement: a turned-up trump card, the hook, and 1 point a trick
plus 10 for an exact bid (our preset ``full`` with ``tricks+10`` scoring;
OpenSpiel's defaults ``off_bid_penalty=False, points_per_trick=1``).

For every deal the trick count, dealer and shuffle come from a seeded
:class:`random.Random`; the same chance actions go to OpenSpiel and the same
hands, turned card and dealer set up our :class:`~ohhell.deal.Deal`. At every
decision both engines must agree on the seat to act and on the *set* of legal
actions; one is then picked at random and applied to both. At the end every
seat's score must agree.

Encodings:

* OpenSpiel card action ``rank * 4 + suit`` with suits C, D, S, H (0-3);
  ours ``suit * 13 + rank`` with suits S, H, D, C (0-3); rank 0 is the two in both.
* OpenSpiel bid action ``52 + bid``; ours ``64 + bid``.
* OpenSpiel deals the first ``n * k`` card actions to players 0, 1, 2, ... in
  rotation whoever deals, then one card that is turned up for trump.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any, Final, Protocol

import pytest

from ohhell.actions import BID_BASE
from ohhell.cards import CLUBS, DIAMONDS, HEARTS, SPADES, Card, card_text
from ohhell.deal import Deal
from ohhell.rules import Rules

pyspiel = pytest.importorskip("pyspiel")

PLAYER_COUNTS: Final = (3, 4, 5, 6, 7)
DEALS_PER_TABLE: Final = 1000
"""Random deals per table size: 5,000 in all (about a second)."""
HOOK_DEALS_PER_TABLE: Final = 200
SEED: Final = 20_251_130

OS_BID_BASE: Final = 52
OS_SUIT_TO_OURS: Final = (CLUBS, DIAMONDS, SPADES, HEARTS)
"""OpenSpiel suit index (C, D, S, H) to our suit number."""
OURS_SUIT_TO_OS: Final = tuple(OS_SUIT_TO_OURS.index(s) for s in range(4))


class SpielState(Protocol):
    """The part of ``pyspiel.State`` these tests use."""

    def is_chance_node(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def apply_action(self, action: int) -> None: ...
    def returns(self) -> list[float]: ...


def os_card_to_ours(action: int) -> Card:
    """Our card for an OpenSpiel card action."""
    rank, suit = divmod(action, 4)
    return OS_SUIT_TO_OURS[suit] * 13 + rank


def our_card_to_os(card: Card) -> int:
    """The OpenSpiel card action of one of our cards."""
    suit, rank = divmod(card, 13)
    return rank * 4 + OURS_SUIT_TO_OS[suit]


def os_action_to_ours(action: int) -> int:
    """Our action for an OpenSpiel decision action (a card or a bid)."""
    if action < OS_BID_BASE:
        return os_card_to_ours(action)
    return BID_BASE + action - OS_BID_BASE


def our_action_to_os(action: int) -> int:
    """The OpenSpiel decision action for one of ours (a card or a bid)."""
    if action < 52:
        return our_card_to_os(action)
    assert BID_BASE <= action < BID_BASE + 32, f"unexpected action {action}"
    return OS_BID_BASE + action - BID_BASE


def test_encodings_match() -> None:
    """The card maps are inverse bijections and agree with the documented examples."""
    assert sorted(os_card_to_ours(a) for a in range(52)) == list(range(52))
    assert all(our_card_to_os(os_card_to_ours(a)) == a for a in range(52))
    assert card_text(os_card_to_ours(50)) == "AS"
    assert card_text(os_card_to_ours(51)) == "AH"
    assert card_text(os_card_to_ours(0)) == "2C"
    assert card_text(os_card_to_ours(5)) == "3D"
    assert os_action_to_ours(52 + 3) == BID_BASE + 3
    assert our_action_to_os(BID_BASE + 3) == 52 + 3


@cache
def os_game(players: int, tricks: int) -> Any:
    """OpenSpiel's oh_hell with a fixed number of tricks (and its default scoring)."""
    return pyspiel.load_game(
        "oh_hell",
        {"players": players, "num_tricks_fixed": tricks, "off_bid_penalty": False, "points_per_trick": 1},
    )


@cache
def our_rules(players: int, tricks: int) -> Rules:
    """Our preset ``full`` (hook on, ``tricks+10``) cut down to one deal of ``tricks`` cards."""
    rules = Rules.preset("full", players=players, schedule=(tricks,))
    assert rules.hook
    assert rules.scoring == "tricks+10"
    assert not rules.miss_penalty
    assert rules.zero_bid_bonus is None
    return rules


class Setup:
    """One random deal: trick count, dealer, shuffled pack (our card ints), hands and turned card."""

    def __init__(self, rng: random.Random, players: int) -> None:
        self.players = players
        self.tricks = rng.randint(1, 51 // players)
        self.dealer = rng.randrange(players)
        pack = list(range(52))
        rng.shuffle(pack)
        dealt = players * self.tricks
        self.order: list[Card] = pack[: dealt + 1]
        """The cards in OpenSpiel's dealing order: card ``j`` to player ``j % n``, the last one turned up."""
        self.hands: list[list[Card]] = [self.order[seat:dealt:players] for seat in range(players)]
        self.turn_up: Card = self.order[dealt]
        self.log: list[str] = []
        """The decisions so far, as ``"<seat> <action text>"``."""

    def describe(self) -> str:
        """Everything needed to replay the deal by hand."""
        hands = "; ".join(f"seat {s}: {' '.join(card_text(c) for c in h)}" for s, h in enumerate(self.hands))
        return (
            f"{self.players} players, {self.tricks} tricks, dealer {self.dealer}, turned up {card_text(self.turn_up)}"
            f"\nhands: {hands}\nactions: {', '.join(self.log)}"
        )

    def start(self) -> tuple[SpielState, Deal]:
        """Both engines at the first bid of this deal."""
        state: SpielState = os_game(self.players, self.tricks).new_initial_state()
        chance = [self.tricks, self.dealer, *(our_card_to_os(c) for c in self.order)]
        for action in chance:
            # OpenSpiel does not reject an illegal chance action: check it first.
            assert state.is_chance_node(), self.describe()
            assert action in state.legal_actions(), f"chance action {action} not legal\n{self.describe()}"
            state.apply_action(action)
        assert not state.is_chance_node(), self.describe()
        deal = Deal(our_rules(self.players, self.tricks), hands=self.hands, dealer=self.dealer, turn_up=self.turn_up)
        return state, deal

    def step(
        self, state: SpielState, deal: Deal, rng: random.Random, pick: Callable[[list[int]], int] | None = None
    ) -> list[int]:
        """Check both engines agree on who acts and what is legal; apply a random legal action to both.

        ``pick`` chooses from the sorted legal actions (default: uniformly). Returns them.
        """
        seat = deal.to_act
        assert state.current_player() == seat, f"OpenSpiel has seat {state.current_player()} to act\n{self.describe()}"
        ours = sorted(deal.legal_actions())
        theirs = sorted(os_action_to_ours(a) for a in state.legal_actions())
        assert ours == theirs, f"seat {seat}: legal actions ours {ours} vs OpenSpiel {theirs}\n{self.describe()}"
        action = rng.choice(ours) if pick is None else pick(ours)
        assert action in ours
        self.log.append(f"{seat} {'play ' + card_text(action) if action < 52 else f'bid {action - BID_BASE}'}")
        deal.apply(action)
        state.apply_action(our_action_to_os(action))
        return ours


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_deals_agree_with_openspiel(players: int) -> None:
    rng = random.Random(SEED * 10 + players)
    sizes_seen: set[int] = set()
    dealers_seen: set[int] = set()
    exact_bids = 0
    for _ in range(DEALS_PER_TABLE):
        setup = Setup(rng, players)
        sizes_seen.add(setup.tricks)
        dealers_seen.add(setup.dealer)
        state, deal = setup.start()
        while not deal.is_over:
            assert not state.is_terminal(), f"OpenSpiel ended early\n{setup.describe()}"
            setup.step(state, deal, rng)
        assert state.is_terminal(), f"our deal ended but OpenSpiel's did not\n{setup.describe()}"
        assert deal.points is not None
        theirs = [float(r) for r in state.returns()]
        assert [float(p) for p in deal.points] == theirs, (
            f"scores ours {deal.points} vs OpenSpiel {theirs} (bids {deal.bids}, tricks {deal.tricks_won})"
            f"\n{setup.describe()}"
        )
        exact_bids += sum(b == t for b, t in zip(deal.bids, deal.tricks_won, strict=True))
    # The random draws must reach every legal trick count and every dealer, and score some exact bids.
    assert sizes_seen == set(range(1, 51 // players + 1))
    assert dealers_seen == set(range(players))
    assert exact_bids > 0


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_hook_forbids_the_same_dealer_bid(players: int) -> None:
    """When the dealer bids, the bid that would make the total equal the tricks is missing from both engines.

    Bidding only, then the dealer's bid. The other seats mostly bid low, so the forbidden bid is in range,
    and sometimes uniformly, so the others' total may exceed the tricks and then every bid is allowed.
    """
    rng = random.Random(SEED * 10 + 100 + players)
    forbidden_cases = 0
    open_cases = 0
    for _ in range(HOOK_DEALS_PER_TABLE):
        setup = Setup(rng, players)
        state, deal = setup.start()
        k = setup.tricks
        # Low bids keep the others' total within the tricks; uniform bids often pass it.
        low = k // (players - 1) + 1 if rng.random() < 0.7 else k + 1

        def pick(bids: list[int], low: int = low) -> int:
            return rng.choice(bids[:low])

        for _ in range(players - 1):
            assert deal.to_act != setup.dealer
            ours = setup.step(state, deal, rng, pick)
            assert ours == [BID_BASE + b for b in range(k + 1)], f"a non-dealer bid was restricted\n{setup.describe()}"
        assert deal.to_act == setup.dealer
        assert state.current_player() == setup.dealer
        others = sum(b for s, b in enumerate(deal.bids) if s != setup.dealer)
        expected = [b for b in range(k + 1) if b != k - others]
        ours_bids = sorted(a - BID_BASE for a in deal.legal_actions())
        theirs_bids = sorted(a - OS_BID_BASE for a in state.legal_actions())
        assert ours_bids == expected, f"ours {ours_bids}, expected {expected}\n{setup.describe()}"
        assert theirs_bids == expected, f"OpenSpiel {theirs_bids}, expected {expected}\n{setup.describe()}"
        if others <= k:
            forbidden_cases += 1
            assert deal.forbidden_bid() == k - others
        else:
            open_cases += 1
            assert deal.forbidden_bid() is None
        setup.step(state, deal, rng)
        assert not deal.is_over
        assert sum(deal.bids) != k, f"the hook let the bids total the tricks\n{setup.describe()}"
    assert forbidden_cases > HOOK_DEALS_PER_TABLE // 2
    assert open_cases > 0
