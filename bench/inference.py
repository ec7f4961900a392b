"""What our Hard player knows of the hidden hands, and how well its bid search foresees its own bids.

The games are those of ``bench/bots.py --parts strength``: OpenSpiel's ``oh_hell`` (4 players, 10 tricks), our Hard
player in one seat against three ISMCTS players (``uct_c`` 1.5, 1000 simulations), each deal played with our player
in each seat. The measuring is done here, outside the ``ohhell`` package, from the mirrored deal; the player itself
still sees only its seat's view and plays as it always does.

``holders``: at the start of tricks 2, 4, 6 and 8 when our seat leads, each way of sampling worlds (see
:data:`SCHEMES`) draws Hard's pool of 96 worlds, and for every card another seat really holds we count the share of
the pool's worlds that put it in that seat's hand (the rest of the hidden cards are in the undealt stock, 11 of
them here). Perfect knowledge scores 1; the figure says how much the bids and plays narrow the hidden hands down.

``bids``: at each of our bids, the search's predicted made rate and mean points for the bid it chose, against the
deal's outcome, overall and by bid.

Run: ``python bench/inference.py [--parts holders,bids] [--first-deal 100] [--deals 60]``
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path
from typing import Any, Final

from bots import PLAY_MODELS, PLAYERS, openspiel_deal, opponent_bot, to_openspiel, to_ours
from ohhell.actions import BID_BASE
from ohhell.bots.base import Budget, Decision
from ohhell.bots.hard import HardBot
from ohhell.bots.knowledge import Knowledge, read_view
from ohhell.bots.sampling import BidEvidence
from ohhell.deal import Deal
from ohhell.view import SeatView, seat_view

PROBE_TRICKS: Final = (2, 4, 6, 8)
SCHEMES: Final = {
    "uniform (voids only)": (False, None, 0),
    "bids weighed (Hard as shipped)": (True, None, 0),
    "bids + plays, learned model, 16 draws": (True, "ismcts", 16),
    "bids + plays, learned model, 64 draws": (True, "ismcts", 64),
    "bids + plays, rule model, 64 draws": (True, "rule", 64),
}
"""A way of sampling worlds: (bids weighed, model of the plays, draws per world when plays are weighed)."""


class ProbingHard(HardBot):
    """Hard as shipped, that also scores the world pools of :data:`SCHEMES` against :attr:`deal` (benchmark only).

    The scoring runs before each probed decision, outside its time budget, so the player plays as it always does.
    """

    def __init__(self, deal: Deal) -> None:
        super().__init__()
        self.deal = deal
        self.holders: list[tuple[int, str, float]] = []
        self.bids: list[dict[str, Any]] = []

    def decide(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> Decision:
        if view.phase == "playing" and not view.trick and len(view.tricks) + 1 in PROBE_TRICKS:
            known = read_view(view)
            others_bid = any(b is not None for s, b in enumerate(view.bids) if s != view.seat)
            self._score_schemes(view, known, BidEvidence.from_view(known, view, self.bid_model) if others_bid else None)
        decision = super().decide(view, rng, budget)
        if view.phase == "bidding":
            chosen = next(o for o in decision.options if o.action == decision.action)
            rate = decision.fact("made_rate")
            assert isinstance(rate, float)
            self.bids.append({"bid": decision.action - BID_BASE, "rate": rate, "value": chosen.value})
        return decision

    def _score_schemes(self, view: SeatView, known: Knowledge, evidence: BidEvidence | None) -> None:
        assert self.deal is not None
        truth = self.deal.hands
        held = [(card, s) for s in range(view.players) if s != view.seat for card in range(52) if truth[s] >> card & 1]
        saved = (self.play_model, self.play_noise, self.play_candidates)
        for name, (weigh, model, draws) in SCHEMES.items():
            self.play_model = PLAY_MODELS["ismcts"] if model == "ismcts" else None
            self.play_noise = 0.75 if model == "rule" else None
            self.play_candidates = draws or self.play_candidates
            pool, _ = super()._world_pool(
                view, known, evidence, weigh and evidence is not None, random.Random(7), Budget(1e6), 1e18
            )
            share = statistics.mean(sum(hands[s] >> card & 1 for hands in pool) / len(pool) for card, s in held)
            self.holders.append((len(view.tricks) + 1, name, share))
        self.play_model, self.play_noise, self.play_candidates = saved


def probe_game(task: tuple[int, int]) -> dict[str, Any]:
    """One deal with our probing Hard player in one seat: what it measured, and the deal's outcome."""
    seed, our_seat = task
    game, state, deal = openspiel_deal(seed)
    base = seed * 16 + our_seat * 4
    others = {p: opponent_bot("ismcts-1.5", game, base + p) for p in range(PLAYERS) if p != our_seat}
    ours = ProbingHard(deal)
    rng = random.Random(base)
    while not state.is_terminal():
        player = state.current_player()
        if player == our_seat:
            action = to_openspiel(ours.decide(seat_view(deal, player), rng).action)
        else:
            action = others[player].step(state)
        state.apply_action(action)
        deal.apply(to_ours(action), player)
    return {
        "seed": seed,
        "seat": our_seat,
        "points": list(deal.points or ()),
        "bids": list(deal.bids),
        "tricks": list(deal.tricks_won),
        "holders": ours.holders,
        "predicted": ours.bids[0],
    }


def report(games: list[dict[str, Any]], parts: set[str]) -> dict[str, Any]:
    """Print and return the figures."""
    out: dict[str, Any] = {"games": len(games)}
    if "holders" in parts:
        shares: dict[tuple[int, str], list[float]] = defaultdict(list)
        for g in games:
            for trick, name, share in g["holders"]:
                shares[(trick, name)].append(share)
        print("\nShare of a pool's worlds that put a hidden card in its true holder's hand (perfect knowledge: 1)")
        print(f"{'scheme':40s}" + "".join(f"  trick {t:<3d}" for t in PROBE_TRICKS))
        for name in SCHEMES:
            cells = [statistics.mean(shares[(t, name)]) if shares[(t, name)] else float("nan") for t in PROBE_TRICKS]
            print(f"{name:40s}" + "".join(f"  {c:9.3f}" for c in cells))
            out.setdefault("holders", {})[name] = dict(zip(map(str, PROBE_TRICKS), cells, strict=True))
        print("decisions: " + ", ".join(f"trick {t}: {len(shares[(t, 'uniform (voids only)')])}" for t in PROBE_TRICKS))
    if "bids" in parts:
        rows: dict[Any, list[tuple[float, bool, float, int]]] = defaultdict(list)
        for g in games:
            p, seat = g["predicted"], g["seat"]
            row = (p["rate"], g["tricks"][seat] == p["bid"], p["value"], g["points"][seat])
            rows["all"].append(row)
            rows[p["bid"]].append(row)
        print("\nOur bids: the search's prediction for the bid it chose, against the outcome")
        print(f"{'bid':>4s} {'n':>5s} {'made: predicted':>16s} {'made':>6s} {'points: predicted':>18s} {'points':>7s}")
        for key in ["all", *sorted(k for k in rows if k != "all")]:
            r = rows[key]
            figures = [statistics.mean(x[i]) for x in [list(zip(*r, strict=True))] for i in range(4)]
            print(f"{key!s:>4s} {len(r):5d} {figures[0]:16.1%} {figures[1]:6.1%} {figures[2]:18.2f} {figures[3]:7.2f}")
            out.setdefault("bids", {})[str(key)] = {
                "n": len(r),
                "predicted_rate": figures[0],
                "made": figures[1],
                "predicted_points": figures[2],
                "points": figures[3],
            }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="holders,bids")
    parser.add_argument("--first-deal", type=int, default=100)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", default="bench/results/inference.json")
    args = parser.parse_args()
    tasks = [(d, s) for d in range(args.first_deal, args.first_deal + args.deals) for s in range(PLAYERS)]
    with Pool(args.workers) as pool:
        games = pool.map(probe_game, tasks, chunksize=1)
    figures = report(games, set(args.parts.split(",")))
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps({"args": vars(args), **figures}, indent=1))
    print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
