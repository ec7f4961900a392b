"""Fit a :class:`~ohhell.bots.sampling.BidModel` to how OpenSpiel's ISMCTS bids.

Four ``pyspiel.ISMCTSBot`` (``uct_c`` 1.5, 1000 simulations, as in the strength
test) bid OpenSpiel ``oh_hell`` deals (4 players, 10 tricks). After the bids,
each seat's view is read as the Hard player reads it, and every other seat's
hand gets the strength its bid evidence would give it
(:class:`~ohhell.bots.sampling.BidEvidence`: the sum of per-card values). A
least-squares line ``bid = offset + slope * strength`` and the spread of the
bids around it is the model, printed with the mean bid by strength.

Fit on deals the strength test does not play (its deals are 0-599; the default
here is 5000-5999).

``--plays``: the same players play their deals out instead, and every card
played with a choice is checked against the play-outs' rule of thumb
(:func:`ohhell.bots.ismcts.rule_move`, a card in sequence with it counting as
the same): how often they agree, against the chance a uniform pick would agree,
gives the ``play_noise`` of the Hard player's play evidence.

``--learn-plays``: the same games, and a conditional-logit model of their plays is fitted
(:func:`ohhell.bots.ismcts.play_features` for every distinct legal card, Newton's method on
the log-likelihood, a light ridge): on four fifths of the plays, checked on the last fifth
against the rule-of-thumb model; the weights are printed as a ``sampling.PlayModel``.

Run: ``python bench/bid_model.py [--first-deal 5000] [--deals 1000] [--workers 2] [--plays | --learn-plays]``
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from collections.abc import Iterator
from multiprocessing import Pool
from typing import Any

from bots import PLAYERS, openspiel_deal, opponent_bot, to_openspiel, to_ours
from ohhell.bots.ismcts import FULL, PLAY_FEATURES, _distinct, play_features, rule_move, same_move
from ohhell.bots.knowledge import read_view
from ohhell.bots.sampling import BidEvidence, BidModel
from ohhell.bots.tactics import trick_status
from ohhell.deal import Deal
from ohhell.view import SeatView, seat_view


def _table(deal_seed: int) -> tuple[Any, Deal, dict[int, Any]]:
    """OpenSpiel's state of deal ``deal_seed`` after the deal, our engine's mirror of it, four ISMCTS players."""
    game, state, deal = openspiel_deal(deal_seed)
    bots = {p: opponent_bot("ismcts-1.5", game, deal_seed * 16 + p) for p in range(PLAYERS)}
    return state, deal, bots


def bids_of(deal_seed: int) -> list[tuple[int, float]]:
    """(bid, strength as another seat reads it) for every bid of one deal and every other seat reading it."""
    state, deal, bots = _table(deal_seed)
    bids: list[tuple[int, int]] = []
    while len(bids) < PLAYERS:
        player = state.current_player()
        action = bots[player].step(state)
        state.apply_action(action)
        deal.apply(to_ours(action), player)
        bids.append((player, action - 52))
    rows = []
    for reader in range(PLAYERS):
        view = seat_view(deal, reader)
        evidence = BidEvidence.from_view(read_view(view), view)
        for bidder, bid in bids:
            if bidder != reader:
                rows.append((bid, sum(evidence.card_value[c] for c in deal.hand(bidder))))
    return rows


def _plays(deal_seed: int) -> Iterator[tuple[SeatView, int]]:
    """Each card played in one deal by four ISMCTS players: the player's view before it, and the card."""
    state, deal, bots = _table(deal_seed)
    while not state.is_terminal():
        player = state.current_player()
        action = to_ours(bots[player].step(state))
        if action < 52:
            yield seat_view(deal, player), action
        state.apply_action(to_openspiel(action))
        deal.apply(action, player)


def play_matches(deal_seed: int) -> list[tuple[bool, int]]:
    """(whether the card was the rule's, the number of legal cards) for each play with a choice in one deal."""
    rows = []
    for view, card in _plays(deal_seed):
        moves = sum(1 << c for c in view.legal_actions)
        if moves.bit_count() > 1:
            rows.append((_as_rule(view, moves, card), moves.bit_count()))
    return rows


def play_choices(deal_seed: int) -> list[tuple[list[list[float]], int]]:
    """Each play with a choice in one deal: the features of every distinct legal card, and which one was played."""
    return [row for view, card in _plays(deal_seed) if (row := _choice(view, card)) is not None]


def _choice(view: SeatView, card: int) -> tuple[list[list[float]], int] | None:
    """The features of the distinct legal cards of ``view`` and the index of ``card``'s move (None without a choice)."""
    trump = -1 if view.trump is None else view.trump
    moves = sum(1 << c for c in view.legal_actions)
    hand = view.hand.mask
    played = sum(1 << c for trick in view.tricks for c in trick.cards) | sum(1 << c for c in view.trick)
    distinct = _distinct(moves, ~(hand | played) & FULL)
    if distinct.bit_count() < 2:
        return None
    count = len(view.trick)
    best = 1 << view.trick[trick_status(view.trick, trump)[0]] if view.trick else 0
    want = (view.bids[view.seat] or 0) > view.tricks_won[view.seat]
    rule = rule_move(moves, count, best, trump, want)
    features: list[list[float]] = []
    chosen = -1
    rest = distinct
    while rest:
        bit = rest & -rest
        rest ^= bit
        if same_move(bit, 1 << card, hand | played):
            chosen = len(features)
        features.append(play_features(bit, rule, hand, count, best, trump, want, played, count == view.players - 1))
    return features, chosen


def fit_plays(rows: list[tuple[list[list[float]], int]], ridge: float = 1e-2, steps: int = 25) -> list[float]:
    """Conditional-logit weights maximizing the log-likelihood of the chosen moves (Newton's method)."""
    import numpy as np

    data = [(np.array(x), c) for x, c in rows]
    w = np.zeros(PLAY_FEATURES)
    for _ in range(steps):
        grad = -ridge * w
        hess = -ridge * np.eye(PLAY_FEATURES)
        for x, c in data:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ x
            grad += x[c] - mean
            hess -= (x.T * p) @ x - np.outer(mean, mean)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-6:
            break
    return [float(v) for v in w]


def _log_likelihoods(rows: list[tuple[list[list[float]], int]], weights: list[float]) -> tuple[float, float, float]:
    """Mean log-likelihood of the chosen moves under ``weights``, under the rule model (P = 0.75), and the learned
    model's top-choice agreement."""
    import math

    learned = rule = agree = 0.0
    for x, c in rows:
        z = [sum(w * f for w, f in zip(weights, row, strict=True)) for row in x]
        top = max(z)
        e = [math.exp(v - top) for v in z]
        learned += math.log(e[c] / sum(e))
        n = len(x)
        rule += math.log(0.25 + 0.75 / n if x[c][0] else 0.75 / n)
        agree += z[c] == top
    return learned / len(rows), rule / len(rows), agree / len(rows)


def _as_rule(view: SeatView, moves: int, card: int) -> bool:
    """Whether ``card`` is the rule of thumb's card from ``view``, or in sequence with it."""
    trump = -1 if view.trump is None else view.trump
    best = 1 << view.trick[trick_status(view.trick, trump)[0]] if view.trick else 0
    want = (view.bids[view.seat] or 0) > view.tricks_won[view.seat]
    rule = rule_move(moves, len(view.trick), best, trump, want)
    seen = view.hand.mask | sum(1 << c for trick in view.tricks for c in trick.cards) | sum(1 << c for c in view.trick)
    return same_move(rule, 1 << card, seen)


def fit(rows: list[tuple[int, float]]) -> BidModel:
    """The least-squares line through (strength, bid) and the spread of the bids around it."""
    bids = [float(b) for b, _ in rows]
    strengths = [s for _, s in rows]
    slope, offset = statistics.linear_regression(strengths, bids)
    spread = statistics.stdev(b - (offset + slope * s) for b, s in rows)
    return BidModel(offset=round(offset, 2), slope=round(slope, 2), spread=round(spread, 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-deal", type=int, default=5000)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--plays", action="store_true", help="how often ISMCTS plays the rule of thumb's card")
    parser.add_argument("--learn-plays", action="store_true", help="fit a model of ISMCTS's plays")
    args = parser.parse_args()
    seeds = range(args.first_deal, args.first_deal + args.deals)
    if args.learn_plays:
        with Pool(args.workers) as pool:
            choices = [row for rows in pool.map(play_choices, seeds, chunksize=5) for row in rows]
        cut = len(choices) * 4 // 5
        weights = fit_plays(choices[:cut])
        learned, rule, agree = _log_likelihoods(choices[cut:], weights)
        print(f"{len(choices)} plays with a choice of distinct cards, deals {seeds.start}-{seeds.stop - 1}")
        print(f"fitted on {cut}, checked on {len(choices) - cut}: mean log-likelihood of the play")
        print(f"  learned model {learned:.3f}, rule model (P 0.75) {rule:.3f}; learned top choice agrees {agree:.1%}")
        print(f"PlayModel(weights=({', '.join(f'{w:.3f}' for w in weights)}))")
        return
    if args.plays:
        with Pool(args.workers) as pool:
            plays = [row for rows in pool.map(play_matches, seeds, chunksize=5) for row in rows]
        agree = statistics.mean(same for same, _ in plays)
        uniform = statistics.mean(1 / n for _, n in plays)
        print(f"{len(plays)} plays with a choice, deals {seeds.start}-{seeds.stop - 1}")
        print(f"the rule's card (or one in sequence): {agree:.1%}; a uniform pick would agree {uniform:.1%}")
        print(f"play_noise P from agree = 1 - P + P * uniform: {(1 - agree) / (1 - uniform):.2f}")
        return
    with Pool(args.workers) as pool:
        rows = [row for rows in pool.map(bids_of, seeds, chunksize=20) for row in rows]
    model = fit(rows)
    by_strength: dict[int, list[int]] = defaultdict(list)
    for bid, strength in rows:
        by_strength[round(strength)].append(bid)
    print(f"{len(rows)} readings of {len(rows) // (PLAYERS - 1)} bids, deals {seeds.start}-{seeds.stop - 1}")
    print("strength  readings  mean bid")
    for strength in sorted(by_strength):
        print(f"{strength:>8}  {len(by_strength[strength]):>8}  {statistics.mean(by_strength[strength]):>8.2f}")
    residuals = [b - s for b, s in rows]
    bias, spread = statistics.mean(residuals), statistics.stdev(residuals)
    print(f"plain model (bid = strength): bias {bias:+.2f}, spread {spread:.2f}")
    correlation = statistics.correlation([float(b) for b, _ in rows], [s for _, s in rows])
    print(f"fitted: {model}  (correlation {correlation:.2f})")


if __name__ == "__main__":
    main()
