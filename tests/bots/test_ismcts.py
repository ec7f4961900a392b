"""The compiled information-set tree search: its worlds, its moves and its choices in clear-cut positions."""

from __future__ import annotations

import math
import random

import pytest
from botkit import act, deal_of, view_to_act
from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell.bots.base import Budget
from ohhell.bots.hard import HardBot
from ohhell.bots.ismcts import (
    PLAY_FEATURES,
    Sampler,
    Search,
    _distinct,
    play_features,
    play_likelihood,
    rule_move,
)
from ohhell.bots.knowledge import read_view
from ohhell.bots.sampling import BidModel, PlayModel
from ohhell.cards import SUIT_MASKS, card_text, parse_card
from ohhell.deal import Deal, deal_from_pack
from ohhell.rules import Rules
from ohhell.scoring import deal_points
from ohhell.view import seat_view


def _new_deal(rng: random.Random, dealer: int) -> Deal:
    """A 4-seat 10-card deal, shuffled by ``rng``."""
    pack = list(range(52))
    rng.shuffle(pack)
    return deal_from_pack(Rules.preset("full", players=4, schedule=(10,)), pack, dealer, 0)


def _midgame(seed: int) -> Deal:
    """A 4-seat 10-card deal played at random into its middle (voids likely shown)."""
    rng = random.Random(seed)
    deal = _new_deal(rng, seed % 4)
    while deal.phase_name == "bidding":
        deal.apply(rng.choice(deal.legal_actions()))
    for _ in range(rng.randrange(0, 30)):
        deal.apply(rng.choice([a for a in deal.legal_actions() if a < 60]))
    return deal


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_sampled_worlds_fit_what_the_seat_knows(seed: int) -> None:
    deal = _midgame(seed)
    seat = deal.to_act
    known = read_view(seat_view(deal, seat))
    n = deal.players
    sampler = Sampler(
        deal.hands[seat],
        seat,
        [c for c in range(52) if known.unseen >> c & 1],
        [0 if s == seat else known.held[s] for s in range(n)],
        [known.could_hold(s) for s in range(n)],
        [0.0] * 60,
        [0.0] * n,
        [-1] * n,
        False,
        1.2,
        8,
        seed,
    )
    for _ in range(20):
        hands = sampler.world()
        if hands is None:
            continue
        assert hands[seat] == deal.hands[seat]
        seen = 0
        for s in range(n):
            assert hands[s].bit_count() == deal.hands[s].bit_count()
            if s != seat:
                assert hands[s] & ~known.could_hold(s) == 0, "a card of a suit the seat is known to lack"
            assert seen & hands[s] == 0, "a card in two hands"
            seen |= hands[s]


def test_cards_in_sequence_are_one_move() -> None:
    hand = sum(1 << parse_card(c) for c in ("2S", "3S", "5S", "AH"))
    live = 1 << parse_card("4S")
    kept = _distinct(hand, live)
    assert kept == sum(1 << parse_card(c) for c in ("2S", "5S", "AH"))
    assert _distinct(hand, 0) == sum(1 << parse_card(c) for c in ("2S", "AH"))


def _search(deal: Deal, seed: int = 1) -> Search:
    """A search of ``deal`` for the seat to act, on its true hands."""
    seat = deal.to_act
    size = deal.size
    points = [deal_points(b, t, deal.rules) for b in range(size + 1) for t in range(size + 1)]
    return Search(
        seat,
        deal.players,
        size,
        -1 if deal.trump is None else deal.trump,
        deal.dealer,
        deal.rules.hook,
        points,
        [-1 if b < 0 else b for b in deal.bids],
        list(deal.tricks_won),
        list(deal.trick),
        deal.trick_leader if deal.trick else deal.to_act,
        0,
        4.0,
        0.5,
        seed,
    )


def test_the_search_ducks_a_trick_it_does_not_want() -> None:
    # Seat 0 bid 0 and holds the ace and two of spades; the king and queen are led to it.
    deal = act(
        deal_of(["AS 2S", "KS 3D", "QS 4D"], dealer=0, turn_up="9H"),
        "bid 1",
        "bid 0",
        "bid 0",
        "play KS",
        "play QS",
    )
    search = _search(deal)
    assert search.run([list(deal.hands)], [[0.0] * 3], 400, 10.0) == 400
    key, _visits, mean, hits, points = search.results()[0]
    assert card_text(key.bit_length() - 1) == "2S"
    assert mean == points == deal_points(0, 0, deal.rules)
    assert hits == 0, "the ducking card never took the trick"


def test_every_root_move_is_legal_and_visits_add_up() -> None:
    deal = _midgame(7)
    search = _search(deal)
    seat = deal.to_act
    world = list(deal.hands)
    done = search.run([world], [[0.0] * deal.players], 500, 10.0)
    legal = {1 << a for a in deal.legal_actions() if a < 60}
    rows = search.results()
    assert {key for key, *_ in rows} <= legal
    assert sum(row[1] for row in rows) == done
    assert deal.hands[seat] == world[seat], "the search leaves the world it was given as it was"


def test_hard_tree_decisions_explain_the_search() -> None:
    view = view_to_act(_bidding(4))  # a bid: always several candidates, so always a search
    decision = HardBot().decide(view, random.Random(3), Budget(iterations=300))
    assert decision.action in view.legal_actions
    assert decision.fact("simulations") == 300
    assert "300 simulated deals" in decision.summary
    assert sum(option.samples for option in decision.options) == 300


@pytest.mark.parametrize("tree", [True, False])
def test_hard_says_what_it_weighed(tree: bool) -> None:
    view = view_to_act(_bidding(4))
    own = HardBot(tree=tree).decide(view, random.Random(3), Budget(iterations=300))
    assert own.measure == "mean points", "bids are chosen by the seat's own points"
    assert f"scored {own.options[0].value:.1f} points on average and" in own.summary
    decision = HardBot(tree=tree, rivalry_bids=True).decide(view, random.Random(3), Budget(iterations=300))
    assert decision.measure == "mean points less the other seats' mean"
    chosen = decision.options[0]
    assert chosen.action == decision.action
    # The summary gives the chosen bid's own mean points and, in brackets, the value it was chosen by.
    assert f"({chosen.value:+.1f} against the other seats' mean)" in decision.summary
    alone = HardBot(tree=tree, rivalry=0.0).decide(view, random.Random(3), Budget(iterations=300))
    assert alone.measure == "mean points"
    assert f"scored {alone.options[0].value:.1f} points on average and" in alone.summary
    half = HardBot(tree=tree, rivalry=0.5, rivalry_bids=True).decide(view, random.Random(3), Budget(iterations=300))
    assert half.measure == "mean points less 0.5 times the other seats' mean"


@pytest.mark.parametrize("seed", [4, 11])
def test_a_guided_search_takes_the_learned_players_choice_among_its_searched_moves(seed: int) -> None:
    from ohhell.bots.learned import LearnedBot

    for deal in (_bidding(seed), _midgame(seed)):
        view = view_to_act(deal)
        plain = HardBot().decide(view, random.Random(3), Budget(iterations=400))
        guided = HardBot(guide=1000.0).decide(view, random.Random(3), Budget(iterations=400))
        learned = {o.action: o.value for o in LearnedBot().decide(view, random.Random(0)).options}
        if len(plain.options) < 2:
            continue
        assert guided.fact("guide") == 1000.0
        assert "guided by the learned player's forecast" in guided.summary
        # The same search (same seed): the same moves and visits, in another order.
        searched = sorted((o.action, o.samples) for o in plain.options)
        assert sorted((o.action, o.samples) for o in guided.options) == searched
        top = max(o.samples for o in plain.options)
        contenders = [o.action for o in plain.options if o.samples >= 0.1 * top]
        assert guided.action == max(contenders, key=lambda a: learned[a])
        assert HardBot(guide=0.0).decide(view, random.Random(3), Budget(iterations=400)).action == plain.action


def test_hard_bids_by_tree_within_the_hook() -> None:
    # The dealer (seat 2) may not bid 1 here: the others bid 0 + 0 of 1 trick.
    deal = act(deal_of(["KS", "QS", "AS"], dealer=2, turn_up="2H"), "bid 0", "bid 0")
    view = view_to_act(deal)
    decision = HardBot().decide(view, random.Random(0), Budget(iterations=500))
    assert decision.action in view.legal_actions
    assert decision.action != 64 + 1
    assert "forbidden" in decision.summary or "may not" in decision.summary


def test_suit_masks_match_the_search_layout() -> None:
    from ohhell.bots.endgame import SUIT_BITS

    assert tuple(SUIT_MASKS[s] for s in range(4)) == SUIT_BITS


VARIANTS = {
    "shipped": HardBot(),
    "fresh worlds": HardBot(fresh=True),
    "own hands": HardBot(own_hands=True, fresh=True),
    "tree per world": HardBot(per_world=50, fresh=True),
    "flat": HardBot(tree=False),
    "fitted bid model": HardBot(bid_model=BidModel(offset=-1.4, slope=1.36, spread=0.9)),
    "fitted bid model, fresh worlds": HardBot(bid_model=BidModel(offset=-1.4, slope=1.36, spread=0.9), fresh=True),
    "plays weighed": HardBot(play_noise=0.75, play_candidates=4),
    "own points only": HardBot(rivalry=0.0),
    "flat, own points only": HardBot(tree=False, rivalry=0.0),
    "rivalry at the bids too": HardBot(rivalry_bids=True),
    "other seats exploring more": HardBot(other_exploration=2.0),
    "other seats by the rule of thumb": HardBot(other_policy="rule"),
    "other seats by a learned model": HardBot(other_policy=PlayModel(weights=(1.0,) + (0.5,) * (PLAY_FEATURES - 1))),
    "guided by the learned player": HardBot(guide=1.0),
}


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(sorted(VARIANTS)))
def test_every_variant_of_the_search_plays_legally(seed: int, variant: str) -> None:
    deal = _midgame(seed)
    view = view_to_act(deal)
    decision = VARIANTS[variant].decide(view, random.Random(seed), Budget(iterations=200))
    assert decision.action in view.legal_actions
    assert decision.summary.startswith(("Searched", "The "))


def test_bids_are_searched_in_every_variant() -> None:
    deal = _bidding(4)
    assert deal.phase_name == "bidding"
    view = view_to_act(deal)
    for name, bot in VARIANTS.items():
        decision = bot.decide(view, random.Random(1), Budget(iterations=300))
        assert decision.action in view.legal_actions, name
        assert decision.fact("made_rate") is not None, name


def _bidding(seed: int) -> Deal:
    """A 4-seat 10-card deal with two bids made."""
    rng = random.Random(seed)
    deal = _new_deal(rng, seed % 4)
    for _ in range(2):
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def _mask(text: str) -> int:
    return sum(1 << parse_card(c) for c in text.split())


def _under_the_ace() -> tuple[tuple[list[int], list[int]], list[int], list[list[int]]]:
    """Spades led by seat 0 (no trump); seat 1, bid 0, played the 9S under the AS; seats 0 and 3 had no choice.

    The plays, the bids, and three deals: seat 1 holding 4S 9S (the rule of thumb plays the highest card that
    loses: the 9S), holding 9S QS (it would have been the QS), and without the 9S (it cannot have made the play).
    """
    plays = ([0, 1, 2, 3], [parse_card(c) for c in ("AS", "9S", "2S", "3S")])
    dealt = [_mask("AS"), _mask("4S 9S 2H"), _mask("2S 2C 3C"), _mask("3S 2D 3D")]
    worse = [dealt[0], _mask("9S QS 2H"), dealt[2], dealt[3]]
    impossible = [dealt[0], _mask("TS QS 2H"), dealt[2], dealt[3]]
    return plays, [1, 0, 0, 0], [dealt, worse, impossible]


def test_plays_are_likelier_where_the_rule_of_thumb_would_have_made_them() -> None:
    plays, bids, (dealt, worse, impossible) = _under_the_ace()  # seat 2 is the reader
    assert play_likelihood(dealt, *plays, bids, -1, 2, 0.75) == pytest.approx(0.25 + 0.75 / 2)
    assert play_likelihood(worse, *plays, bids, -1, 2, 0.75) == pytest.approx(0.75 / 2)
    assert play_likelihood(impossible, *plays, bids, -1, 2, 0.75) == 0.0


def test_a_learned_model_that_only_knows_the_rule_is_the_rule_model() -> None:
    # Weights on the first feature alone (the rule's card) make a softmax: e^w against 1 for the other card.
    plays, bids, (dealt, worse, impossible) = _under_the_ace()
    weights = [2.0] + [0.0] * (PLAY_FEATURES - 1)
    rule = math.exp(2.0) / (math.exp(2.0) + 1.0)
    assert play_likelihood(dealt, *plays, bids, -1, 2, 0.1, weights) == pytest.approx(0.9 * rule + 0.1 / 2)
    assert play_likelihood(worse, *plays, bids, -1, 2, 0.1, weights) == pytest.approx(0.9 * (1 - rule) + 0.1 / 2)
    assert play_likelihood(impossible, *plays, bids, -1, 2, 0.1, weights) == 0.0


def test_play_features_describe_the_card() -> None:
    # Hearts trump; the KS leads the trick; seat holds AS 3S 5H and needs tricks; the QS is already played.
    hand = _mask("AS 3S 5H")
    played = _mask("KS QS")
    best = 1 << parse_card("KS")
    rule = rule_move(_mask("AS 3S"), 1, best, 1, True)
    ace = play_features(1 << parse_card("AS"), rule, hand, 1, best, 1, True, played, False)
    three = play_features(1 << parse_card("3S"), rule, hand, 1, best, 1, True, played, False)
    assert len(ace) == PLAY_FEATURES
    names = ["rule", "wins", "wins_want", "trump", "trump_want", "rank", "rank_want", "lead_rank"]
    assert dict(zip(names, ace, strict=False)) == {
        "rule": 1.0,
        "wins": 1.0,
        "wins_want": 1.0,
        "trump": 0.0,
        "trump_want": 0.0,
        "rank": 1.0,
        "rank_want": 1.0,
        "lead_rank": 0.0,
    }
    assert three[:3] == [0.0, 0.0, 0.0], "the three of spades neither is the rule's card nor wins"
    assert ace[9] == 1.0 and ace[11] == 1.0, "the ace is the top live spade and the top of the seat's spades"
    assert three[12] == 1.0 and three[11] == 0.0, "the three is the seat's lowest spade"


def test_cards_in_sequence_with_the_rule_card_fit_as_well() -> None:
    # Seat 1 holds 9S and TS: the rule plays the TS (its highest loser), the 9S is the same card in effect.
    plays = ([0, 1], [parse_card("AS"), parse_card("9S")])
    dealt = [_mask("AS"), _mask("9S TS"), _mask("2D"), _mask("3D")]
    assert play_likelihood(dealt, *plays, [1, 0, 0, 0], -1, 2, 0.75) == pytest.approx(0.25 + 0.75 / 2)


def _spoiler_deal() -> Deal:
    """Seat 0 bid 0 and took the first trick: under 10+bid its deal is lost whatever it leads now.

    Leading the king of diamonds lets seat 2 take both tricks left, so seats 1 and 2
    (bid 1 each) both miss; leading the two of spades lets each take one and make it.
    """
    return act(
        deal_of(["2C 2S KD", "7H 3S QD", "8H AD 4H"], dealer=2, turn_up="9C", scoring="10+bid"),
        "bid 0",
        "bid 1",
        "bid 1",
        "play 2C",
        "play 7H",
        "play 8H",
    )


def test_without_rivalry_a_lost_deal_leaves_the_search_indifferent() -> None:
    deal = _spoiler_deal()
    search = _search(deal)
    search.run([list(deal.hands)], [[0.0] * 3], 600, 10.0)
    assert {round(row[2], 6) for row in search.results()} == {0.0}


def test_rivalry_spoils_the_other_seats_bids_when_its_own_is_lost() -> None:
    deal = _spoiler_deal()
    search = _search(deal)
    search.rivalry = 1.0
    search.run([list(deal.hands)], [[0.0] * 3], 600, 10.0)
    rows = {card_text(key.bit_length() - 1): (mean, points) for key, _, mean, _, points in search.results()}
    assert card_text(search.results()[0][0].bit_length() - 1) == "KD"
    assert rows["KD"] == (0.0, 0.0), "both other seats miss: no points to anyone"
    assert rows["2S"][1] == 0.0 and rows["2S"][0] < -5.0, "the two of spades lets them make 11 each"


def test_other_seats_exploring_more_spread_their_choices() -> None:
    # In this position the next seat has six cards and one clearly best: at the usual exploration it plays that
    # card in 95% of the visits below our most searched card; exploring eight times as much, in well under half.
    deal = _midgame(4)
    seat = deal.to_act
    shares = []
    for factor in (1.0, 8.0):
        search = _search(deal)
        search.other_exploration = factor
        search.run([list(deal.hands)], [[0.0] * deal.players], 3000, 10.0)
        ours = max(search.root.children.values(), key=lambda child: child.visits)
        theirs = [child.visits for child in ours.children.values()]
        assert len(theirs) > 1, f"seat {(seat + 1) % deal.players} has a choice in this position"
        shares.append(max(theirs) / sum(theirs))
    assert shares[0] > 0.9 > 0.5 > shares[1], "the next seat's best card takes a smaller share of its visits"


def _next_seat_shares(deal: Deal, policy: int, weights: list[float], skill: float = 0.5) -> list[float]:
    """The next seat's cards below our most searched card, each as a share of its visits there."""
    search = _search(deal)
    search.skill = skill
    search.other_policy = policy
    search.other_weights = weights
    search.run([list(deal.hands)], [[0.0] * deal.players], 3000, 10.0)
    ours = max(search.root.children.values(), key=lambda child: child.visits)
    theirs = [child.visits for child in ours.children.values()]
    return sorted((v / sum(theirs) for v in theirs), reverse=True)


def test_other_seats_can_play_by_a_model_of_their_hand() -> None:
    deal = _midgame(4)
    # By the rule of thumb alone (skill 1) the next seat always plays the rule's card.
    assert _next_seat_shares(deal, 1, [], skill=1.0) == [1.0]
    # A learned model that all but always picks the rule's card does the same; a flat one spreads the choice.
    assert _next_seat_shares(deal, 2, [30.0] + [0.0] * (PLAY_FEATURES - 1)) == [1.0]
    flat = _next_seat_shares(deal, 2, [0.0] * PLAY_FEATURES)
    assert len(flat) > 1 and flat[0] < 0.75, "a uniform model picks among the distinct cards"
