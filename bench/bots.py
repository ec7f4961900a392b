"""Computer-player benchmark: strength against OpenSpiel's ISMCTS, the level ladder, decision times.

``strength``: OpenSpiel's own ``oh_hell`` (4 players, 10 tricks; its engine and
rules) with our player in one seat (Hard, or any level ``make_bot`` builds, chosen
by ``--player``) and three ``pyspiel.ISMCTSBot`` (random rollouts, 1000
simulations, unlimited worlds, max visit count) in the others.
Every deal is played four times, our player in each seat in turn (deal ``i``:
OpenSpiel's chance outcomes from seed ``i``), and the same deals serve every
opponent: ISMCTS with ``uct_c`` 1.5, ISMCTS with ``uct_c`` 4, and ``pyspiel.MCTSBot``
searching the true state (a perfect-information player, the ceiling reference).
Our player sees OpenSpiel's deal only through an adapter that mirrors every
action into our engine and hands the bot ``seat_view(deal, our_seat)``. The
margin is our points per deal minus the opponents' mean, averaged over the four
seatings of a deal; its standard error is over deals. The deals and the
opponents' seeds do not depend on the player, so the figures of two players are
paired deal by deal (``margin_by_deal`` in the JSON); ISMCTS itself does not
repeat its choices from run to run even with the same seed, so pairing removes
the luck of the cards but not the opponents' noise. Every decision of our
player, bids and cards, is timed in the same run (the ``decide`` call alone):
median, 95th percentile and maximum beside the margin, in wall-clock time and in
the CPU time of the process's thread (which leaves out waits for a busy core).

``ladder``: in our engine, one Hard, Normal, Easy and random player at a table of
four, each game played four times with the levels rotated over the seats, under
the ``full``, ``up-and-down`` and ``magicians`` presets: mean points per deal,
games won (ties share), and each level's margin over the next with its standard
error over game numbers.

``timing``: each level (Easy, Normal, Hard and the ``--player``) in one seat of
4-player 10-card ``full`` deals (Normal in the others): median, 95th percentile
and maximum decision time.

Run: ``python bench/bots.py [--parts strength,ladder,timing] [--player hard] [--deals 600] [--games 20] [--quick]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any, Final, Literal

from ohhell.actions import BID_BASE, Action
from ohhell.bots import LEVELS, make_bot
from ohhell.bots.base import Bot, Budget, Decision
from ohhell.bots.hard import DEFAULT_BUDGET, EXPLORATION, MAX_SIMULATIONS, NOISE, RIVALRY, SKILL, HardBot
from ohhell.bots.knowledge import Knowledge
from ohhell.bots.playout import EXACT_TRICKS
from ohhell.bots.sampling import BidEvidence, BidModel, PlayModel
from ohhell.bots.table import play_deal, play_game
from ohhell.cards import cards_of
from ohhell.deal import Deal, deal_from_pack
from ohhell.dealnumbers import shuffled_pack
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.view import SeatView, seat_view

PLAYERS: Final = 4
TRICKS: Final = 10
OPENSPIEL_SUITS: Final = (3, 2, 0, 1)
"""Our suit for each OpenSpiel suit: OpenSpiel orders clubs, diamonds, spades, hearts; we order S, H, D, C."""
OPPONENTS: Final = ("ismcts-1.5", "ismcts-4", "perfect-info")
LADDER: Final = ("hard", "normal", "easy", "random")
LADDER_PRESETS: Final = ("full", "up-and-down", "magicians")
SIMULATIONS: Final = 1000
BID_MODELS: Final = {
    "default": BidModel(),
    # Fitted to 12,000 bids of ISMCTS (uct_c 1.5, 1000 simulations) on deals 5000-5999, none of the test deals:
    # bid = -1.40 + 1.36 * strength, residual standard deviation 0.90 (see docs/bots-results.md).
    "ismcts": BidModel(offset=-1.40, slope=1.36, spread=0.90),
}
PLAY_MODELS: Final = {
    # Fitted to 16,377 plays of ISMCTS (uct_c 1.5, 1000 simulations) on deals 7000-7799, none of the test deals
    # (`bench/bid_model.py --learn-plays --first-deal 7000 --deals 800`); see docs/bots-results.md.
    "ismcts": PlayModel(
        weights=(
            0.157,
            -2.054,
            2.366,
            0.838,
            -0.989,
            1.542,
            -1.492,
            -1.805,
            2.149,
            -0.141,
            0.291,
            -0.188,
            0.026,
            1.970,
            0.095,
            -0.878,
        ),
    ),
}
"""Bid models ``--hard-bid-model`` can give the Hard player."""


def openspiel_card(card: int) -> int:
    """Our card int (suit * 13 + rank, S H D C) as OpenSpiel's card action (rank * 4 + suit, C D S H)."""
    return card % 13 * 4 + OPENSPIEL_SUITS.index(card // 13)


def our_card(action: int) -> int:
    """OpenSpiel's card action as our card int."""
    return OPENSPIEL_SUITS[action % 4] * 13 + action // 4


def chance_outcomes(deal_seed: int) -> list[int]:
    """OpenSpiel's chance actions for deal ``deal_seed``: the trick count, the dealer, 40 cards, the trump card."""
    rng = random.Random(deal_seed)
    return [TRICKS, deal_seed % PLAYERS, *rng.sample(range(52), PLAYERS * TRICKS + 1)]


def mirror_deal(outcomes: Sequence[int]) -> Deal:
    """Our engine's deal for OpenSpiel's chance outcomes: cards go to players 0, 1, 2, 3, 0, ... whoever deals."""
    rules = Rules.preset("full", players=PLAYERS, schedule=(TRICKS,))
    cards = outcomes[2:]
    hands = [[our_card(c) for c in cards[p : PLAYERS * TRICKS : PLAYERS]] for p in range(PLAYERS)]
    return Deal(rules, hands, dealer=outcomes[1], turn_up=our_card(cards[-1]))


def to_openspiel(action: Action) -> int:
    """Our action as OpenSpiel's: a card, or a bid (``52 + n``)."""
    return 52 + action - BID_BASE if action >= BID_BASE else openspiel_card(action)


def to_ours(action: int) -> Action:
    """OpenSpiel's action as ours."""
    return BID_BASE + action - 52 if action >= 52 else our_card(action)


REFERENCES: Final = ("ismcts-4", "ismcts-4x5", "ismcts-4x25", "perfect-info", "perfect-info-x5")
"""OpenSpiel bots that can take our player's seat (``--reference``), to see what the goal asks of a player."""


def opponent_bot(kind: str, game: Any, seed: int) -> Any:
    """An OpenSpiel bot: ISMCTS at ``uct_c`` 1.5 or 4 (``ismcts-4x5``, ``ismcts-4x25``: with 5 or 25 times the
    simulations), or MCTS on the true state (it sees every hand; ``perfect-info-x5``: with 5 times the simulations)."""
    import pyspiel

    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    if kind in ("perfect-info", "perfect-info-x5"):
        simulations = SIMULATIONS * (5 if kind.endswith("x5") else 1)
        return pyspiel.MCTSBot(game, evaluator, 1.5, simulations, 1000, False, seed, False)
    uct_c, simulations = {
        "ismcts-1.5": (1.5, SIMULATIONS),
        "ismcts-4": (4.0, SIMULATIONS),
        "ismcts-4x5": (4.0, 5 * SIMULATIONS),
        "ismcts-4x25": (4.0, 25 * SIMULATIONS),
    }[kind]
    final = pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT
    return pyspiel.ISMCTSBot(seed, evaluator, uct_c, simulations, -1, final, False, False)


class CheatingHard(HardBot):
    """A benchmark-only Hard player whose tree search is handed the true hands (from :attr:`deal`) as its only world.

    Not a player of the product: it measures what our search would score with perfect information, the ceiling of
    better inference. It lives here, outside ``ohhell``, so no code path of the package gives a bot hidden cards.
    """

    deal: Deal | None = None
    phases: tuple[str, ...] = ("bidding", "playing")
    """The decisions it cheats at; at the others it samples worlds like the fair player."""
    from_trick: int = 0
    """With a value: it cheats at its cards only from this trick (1 the first) on."""
    until_trick: int = 0
    """With a value: it cheats at its cards only before this trick."""

    def _world_pool(
        self,
        view: SeatView,
        known: Knowledge,
        evidence: BidEvidence | None,
        weigh: bool,
        rng: random.Random,
        budget: Budget,
        deadline: float,
    ) -> tuple[list[list[int]], list[list[float]]]:
        trick = len(view.tricks) + 1
        late = (self.from_trick and trick < self.from_trick) or (self.until_trick and trick >= self.until_trick)
        if view.phase not in self.phases or late:
            return super()._world_pool(view, known, evidence, weigh, rng, budget, deadline)
        assert self.deal is not None, "the benchmark sets the true deal"
        hands = list(self.deal.hands)
        values = evidence.card_value if evidence is not None else (0.0,) * 60
        strengths = [0.0 if s == view.seat else sum(values[c] for c in cards_of(hands[s])) for s in range(view.players)]
        return [hands], [strengths]


CHEATS: Final = {
    "all": ("bidding", "playing"),
    "bids": ("bidding",),
    "plays": ("playing",),
    "early": ("playing",),
    "late": ("playing",),
}
CHEAT_FROM: Final = {"late": 6}
"""``--hard-cheat late``: the true deal at the cards of tricks 6-10 only; ``early``: of tricks 1-5 only."""
CHEAT_UNTIL: Final = {"early": 6}
"""What ``--hard-cheat`` hands the true deal to: the decisions (phases) of each choice."""


@dataclass(frozen=True)
class HardSettings:
    """How the Hard player runs in a benchmark: its time or world budget (default: its own) and play-out noise."""

    seconds: float | None = None
    worlds: int | None = None
    noise: float = NOISE
    exact_tricks: int = EXACT_TRICKS
    tree: bool = True
    simulations: int = MAX_SIMULATIONS
    skill: float = SKILL
    exploration: float = EXPLORATION
    fresh: bool = False
    own_hands: bool = False
    per_world: int = 0
    cheat: str | None = None
    """Research only: at these decisions (a key of :data:`CHEATS`) the tree search gets the true deal as its one
    world (:class:`CheatingHard`)."""
    bid_model: str = "default"
    """How Hard reads the other seats' bids: one of :data:`BID_MODELS`."""
    play_noise: float | None = None
    play_candidates: int = 8
    rivalry: float = RIVALRY
    rivalry_bids: bool = False
    play_model: str | None = None
    other_exploration: float = 1.0
    """A learned model of the other seats' play (a key of :data:`PLAY_MODELS`) to weigh worlds by."""
    other_policy: str | None = None
    """How the other seats pick their cards in Hard's tree: "rule", a key of :data:`PLAY_MODELS`, or None (UCB)."""
    learned_bids: bool = False
    """Hard bids as the learned player does (the bid network's forecast) instead of by its search."""
    guide: float = 0.0
    """Hard's tree search's choice adds this share of the learned player's expected points (``HardBot.guide``)."""

    def bot(self) -> HardBot:
        """A Hard player with these settings."""
        budget = Budget(self.seconds, self.worlds) if self.seconds or self.worlds else DEFAULT_BUDGET
        policy: PlayModel | Literal["rule"] | None = None
        if self.other_policy == "rule":
            policy = "rule"
        elif self.other_policy is not None:
            policy = PLAY_MODELS[self.other_policy]
        bot = (CheatingHard if self.cheat else HardBot)(
            budget,
            noise=self.noise,
            exact_tricks=self.exact_tricks,
            tree=self.tree,
            max_simulations=self.simulations,
            skill=self.skill,
            exploration=self.exploration,
            fresh=self.fresh,
            own_hands=self.own_hands,
            per_world=self.per_world,
            bid_model=BID_MODELS[self.bid_model],
            play_noise=self.play_noise,
            play_candidates=self.play_candidates,
            rivalry=self.rivalry,
            rivalry_bids=self.rivalry_bids,
            play_model=None if self.play_model is None else PLAY_MODELS[self.play_model],
            other_exploration=self.other_exploration,
            other_policy=policy,
            learned_bids=self.learned_bids,
            guide=self.guide,
        )
        if isinstance(bot, CheatingHard) and self.cheat is not None:
            bot.phases = CHEATS[self.cheat]
            bot.from_trick = CHEAT_FROM.get(self.cheat, 0)
            bot.until_trick = CHEAT_UNTIL.get(self.cheat, 0)
        return bot


def level_bot(level: str, hard: HardSettings) -> Bot:
    """The player of ``level`` (any level :func:`~ohhell.bots.make_bot` knows); Hard with the benchmark's settings."""
    return hard.bot() if level == "hard" else make_bot(level)


@dataclass(frozen=True)
class Seating:
    """One game of the strength test: deal seed, our seat, the opponents and our player's level and settings.

    Only names and settings, so a worker process builds the player itself.
    """

    deal_seed: int
    our_seat: int
    opponent: str
    hard: HardSettings
    reference: str | None = None
    """An OpenSpiel bot (one of :data:`REFERENCES`) in our seat instead of our player."""
    player: str = "hard"
    """Our player's level, built by :func:`level_bot`."""


def openspiel_deal(deal_seed: int) -> tuple[Any, Any, Deal]:
    """OpenSpiel's ``oh_hell`` game, its state once deal ``deal_seed`` is dealt, and our engine's mirror of it."""
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": TRICKS})
    state = game.new_initial_state()
    outcomes = chance_outcomes(deal_seed)
    for action in outcomes:
        state.apply_action(action)
    return game, state, mirror_deal(outcomes)


class Stopwatch:
    """The wall-clock and CPU time of each call it times.

    The CPU time is this thread's, so it leaves out the time the process waited for a core: on a machine shared with
    other jobs (or with ``--workers`` above the free cores) the wall-clock tail grows, the CPU figures do not.
    """

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    @contextmanager
    def timing(self) -> Iterator[None]:
        """Time the body of a ``with`` block."""
        wall, cpu = time.perf_counter(), time.thread_time()
        yield
        self.cpu.append(time.thread_time() - cpu)
        self.wall.append(time.perf_counter() - wall)


def play_openspiel(seating: Seating) -> dict[str, Any]:
    """Play one OpenSpiel deal with our player in ``our_seat``; check both engines score it alike.

    ``times`` and ``cpu_times`` hold how long each of our decisions took (wall-clock and CPU seconds): the bot's
    ``decide`` (or the reference's ``step``) alone.
    """
    game, state, deal = openspiel_deal(seating.deal_seed)
    base = seating.deal_seed * 16 + seating.our_seat * 4
    bots = {p: opponent_bot(seating.opponent, game, base + p) for p in range(PLAYERS) if p != seating.our_seat}
    ours = level_bot(seating.player, seating.hard)
    if isinstance(ours, CheatingHard):
        ours.deal = deal
    reference = None if seating.reference is None else opponent_bot(seating.reference, game, base + 99)
    rng = random.Random(base)
    clock = Stopwatch()
    while not state.is_terminal():
        player = state.current_player()
        if player == seating.our_seat and reference is not None:
            with clock.timing():
                action = reference.step(state)
        elif player == seating.our_seat:
            view = seat_view(deal, player)
            with clock.timing():
                decision = ours.decide(view, rng)
            action = to_openspiel(decision.action)
        else:
            action = bots[player].step(state)
        state.apply_action(action)
        deal.apply(to_ours(action), player)
    returns = [int(r) for r in state.returns()]
    if deal.points != returns:
        raise AssertionError(f"deal {seating.deal_seed}: OpenSpiel scored {returns}, our engine {deal.points}")
    return {
        "seed": seating.deal_seed,
        "seat": seating.our_seat,
        "points": returns,
        "bids": deal.bids,
        "tricks": deal.tricks_won,
        "times": clock.wall,
        "cpu_times": clock.cpu,
    }


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    if len(values) < 2:
        return (values[0] if values else math.nan), math.nan
    return statistics.mean(values), statistics.stdev(values) / math.sqrt(len(values))


def strength(
    deals: range,
    opponents: Iterable[str],
    hard: HardSettings,
    workers: int,
    reference: str | None = None,
    player: str = "hard",
) -> dict[str, Any]:
    """Our ``player`` (or ``reference``) against each opponent kind, every deal played with it in each seat."""
    seated = reference or player
    results: dict[str, Any] = {}
    for opponent in opponents:
        seatings = [Seating(d, seat, opponent, hard, reference, player) for d in deals for seat in range(PLAYERS)]
        started = time.perf_counter()
        games = _map(play_openspiel, seatings, workers)
        by_deal: dict[int, list[float]] = {}
        times = sorted(t for g in games for t in g["times"])
        cpu_times = sorted(t for g in games for t in g["cpu_times"])
        ours_exact: list[bool] = []
        theirs_exact: list[bool] = []
        ours_points: list[int] = []
        theirs_points: list[int] = []
        for g in games:
            me = g["seat"]
            others = [g["points"][p] for p in range(PLAYERS) if p != me]
            by_deal.setdefault(g["seed"], []).append(g["points"][me] - statistics.mean(others))
            ours_points.append(g["points"][me])
            theirs_points.extend(others)
            ours_exact.append(g["bids"][me] == g["tricks"][me])
            theirs_exact.extend(g["bids"][p] == g["tricks"][p] for p in range(PLAYERS) if p != me)
        margin, se = mean_se([statistics.mean(v) for v in by_deal.values()])
        results[opponent] = {
            "player": seated,
            "deals": len(deals),
            "first_deal": deals.start,
            "games": len(games),
            "margin": margin,
            "margin_se": se,
            "our_mean": statistics.mean(ours_points),
            "their_mean": statistics.mean(theirs_points),
            "our_exact_rate": statistics.mean(ours_exact),
            "their_exact_rate": statistics.mean(theirs_exact),
            "wall_seconds": time.perf_counter() - started,
            "our_decisions": len(times),
            "our_decision_seconds": _spread(times),
            "our_decision_cpu_seconds": _spread(cpu_times),
            "margin_by_deal": {str(d): statistics.mean(v) for d, v in sorted(by_deal.items())},
        }
        _print_strength(opponent, results[opponent])
    return results


def _spread(ordered: list[float]) -> dict[str, float]:
    """Median, 95th percentile and maximum of sorted durations."""
    return {
        "median": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "max": ordered[-1],
    }


def _milliseconds(spread: dict[str, float]) -> str:
    """A spread of durations as ``median/p95/max`` in milliseconds."""
    return "/".join(f"{1000 * spread[k]:.2f}" for k in ("median", "p95", "max"))


def _print_strength(opponent: str, r: dict[str, Any]) -> None:
    print(
        f"{r['player']:<12}{opponent:<14}{r['deals']:>7}{r['games']:>7}{r['margin']:>+9.2f} ± {r['margin_se']:<6.2f}"
        f"{r['our_mean']:>8.2f}{r['their_mean']:>8.2f}{r['our_exact_rate']:>9.1%}{r['their_exact_rate']:>9.1%}"
        f"  {_milliseconds(r['our_decision_seconds']):<22}{_milliseconds(r['our_decision_cpu_seconds'])}",
        flush=True,
    )


def _strength_header(seated: str, reference: bool) -> None:
    who = f"the reference {seated}" if reference else f"our {seated}"
    print(f"\nStrength in OpenSpiel oh_hell ({PLAYERS} players, {TRICKS} tricks): {who} in one seat")
    print(f"{'':<94}our decision times, ms: median/p95/max")
    print(
        f"{'player':<12}{'opponents':<14}{'deals':>7}{'games':>7}{'margin':>9}{'':<9}{'ours':>8}{'theirs':>8}"
        f"{'exact':>9}{'(them)':>9}  {'wall-clock':<22}CPU"
    )


@dataclass(frozen=True)
class LadderGame:
    """One ladder game: preset, game number, rotation of the levels over the seats, Hard's settings."""

    preset: str
    number: int
    rotation: int
    hard: HardSettings


def play_ladder(task: LadderGame) -> dict[str, Any]:
    """One full game of the four levels; returns each level's total, deals and whether it won (ties share)."""
    rules = Rules.preset(task.preset, players=PLAYERS)
    levels = [LADDER[(seat + task.rotation) % PLAYERS] for seat in range(PLAYERS)]
    bots: list[Bot] = [level_bot(level, task.hard) for level in levels]
    game = Game(rules, number=task.number)
    play_game(game, bots, random.Random(task.number * 4 + task.rotation))
    winners = game.winners or []
    return {
        "preset": task.preset,
        "number": task.number,
        "totals": {level: game.totals[seat] for seat, level in enumerate(levels)},
        "wins": {level: (1 / len(winners) if seat in winners else 0.0) for seat, level in enumerate(levels)},
        "deals": rules.deals,
    }


def ladder(games: range, hard: HardSettings, workers: int, presets: Sequence[str]) -> dict[str, Any]:
    """The four levels against each other in whole games (game numbers ``games``), rotated over the seats."""
    tasks = [LadderGame(p, g, r, hard) for p in presets for g in games for r in range(PLAYERS)]
    played = _map(play_ladder, tasks, workers)
    results: dict[str, Any] = {}
    print(f"\nLadder in our engine: one of each level at a table of {PLAYERS}, {len(games)} games x {PLAYERS} seatings")
    print(f"{'preset':<13}{'level':<8}{'pts/deal':>9}{'win rate':>10}{'margin over next':>22}")
    for preset in presets:
        mine = [g for g in played if g["preset"] == preset]
        deals = mine[0]["deals"]
        entry: dict[str, Any] = {"games": len(mine), "deals_per_game": deals, "levels": {}}
        for i, level in enumerate(LADDER):
            per_deal = statistics.mean(g["totals"][level] / deals for g in mine)
            wins = statistics.mean(g["wins"][level] for g in mine)
            row: dict[str, Any] = {"points_per_deal": per_deal, "win_rate": wins}
            text = ""
            if i + 1 < len(LADDER):
                nxt = LADDER[i + 1]
                by_number: dict[int, list[float]] = {}
                for g in mine:
                    by_number.setdefault(g["number"], []).append((g["totals"][level] - g["totals"][nxt]) / deals)
                margin, se = mean_se([statistics.mean(v) for v in by_number.values()])
                row.update({"margin_over_next": margin, "margin_se": se, "z": margin / se if se else math.inf})
                row["margin_by_number"] = {str(n): statistics.mean(v) for n, v in sorted(by_number.items())}
                text = f"{margin:+.2f} ± {se:.2f} (z {margin / se if se else math.inf:.1f})"
            entry["levels"][level] = row
            print(f"{preset:<13}{level:<8}{per_deal:>9.2f}{wins:>10.1%}   {text}")
        results[preset] = entry
    return results


class Timed:
    """A bot wrapped to record how long each of its decisions takes, and only its own."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.level = inner.level
        self.clock = Stopwatch()

    def decide(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> Decision:
        """The inner bot's decision, timed."""
        with self.clock.timing():
            return self.inner.decide(view, rng, budget)


def timing(deals: int, levels: Sequence[str], hard: HardSettings) -> dict[str, Any]:
    """Decision times of each level in one seat of 4-player 10-card deals, on this core."""
    rules = Rules.preset("full", players=PLAYERS, schedule=(TRICKS,))
    normal = make_bot("normal")
    results: dict[str, Any] = {}
    print(f"\nDecision times, {PLAYERS} players, {TRICKS}-card deals, {deals} deals per level (one process)")
    print(f"{'level':<8}{'decisions':>10}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}")
    for level in levels:
        timed = Timed(level_bot(level, hard))
        for d in range(deals):
            deal = deal_from_pack(rules, shuffled_pack(d, PLAYERS, False, 0), d % PLAYERS, 0)
            bots: list[Bot] = [normal] * PLAYERS
            bots[d % PLAYERS] = timed
            play_deal(deal, bots, random.Random(d))
        spread = _spread(sorted(timed.clock.wall))
        row = {"decisions": len(timed.clock.wall), **{f"{k}_ms": 1000 * v for k, v in spread.items()}}
        results[level] = row
        print(f"{level:<8}{row['decisions']:>10}{row['median_ms']:>11.2f}{row['p95_ms']:>9.2f}{row['max_ms']:>9.2f}")
    return results


def _map(function: Callable[[Any], dict[str, Any]], tasks: list[Any], workers: int) -> list[dict[str, Any]]:
    """``function`` over ``tasks`` in ``workers`` processes, in order, with a progress line on stderr now and then."""
    started = time.perf_counter()
    step = max(1, len(tasks) // 20)
    results: list[dict[str, Any]] = []

    def progress() -> None:
        done = len(results)
        if done % step == 0 or done == len(tasks):
            elapsed = time.perf_counter() - started
            left = elapsed / done * (len(tasks) - done)
            line = f"  {done}/{len(tasks)} games, {elapsed / 60:.1f} min, about {left / 60:.1f} min to go"
            print(line, file=sys.stderr)

    if workers <= 1:
        for task in tasks:
            results.append(function(task))
            progress()
        return results
    with Pool(workers) as pool:
        for result in pool.imap(function, tasks, chunksize=1):
            results.append(result)
            progress()
    return results


def player_level(text: str) -> str:
    """``--player``: a level :func:`~ohhell.bots.make_bot` builds (asked at run time, so new levels count)."""
    try:
        make_bot(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="strength,ladder,timing", help="comma-separated: strength, ladder, timing")
    parser.add_argument(
        "--player",
        type=player_level,
        default="hard",
        help=f"strength: the level in our seat ({', '.join(LEVELS)}; the --hard-* options set Hard wherever it plays)"
        "; timing: measured beside Easy, Normal and Hard",
    )
    parser.add_argument("--deals", type=int, default=600, help="strength: deals per opponent (each played 4 times)")
    parser.add_argument("--first-deal", type=int, default=0, help="strength: the first deal's seed (to split runs)")
    parser.add_argument("--opponents", default=",".join(OPPONENTS), help=f"strength: any of {', '.join(OPPONENTS)}")
    parser.add_argument("--games", type=int, default=20, help="ladder: game numbers per preset (each played 4 times)")
    parser.add_argument("--first-game", type=int, default=1000, help="ladder: the first game number")
    parser.add_argument("--presets", default=",".join(LADDER_PRESETS), help="ladder: presets")
    parser.add_argument("--timing-deals", type=int, default=30, help="timing: deals per level")
    parser.add_argument(
        "--hard-seconds", type=float, help=f"Hard's time per decision (default {DEFAULT_BUDGET.seconds})"
    )
    parser.add_argument("--hard-worlds", type=int, help="Hard's worlds per decision instead (load-independent)")
    parser.add_argument("--hard-noise", type=float, default=NOISE, help="Hard's play-out noise (design experiments)")
    parser.add_argument(
        "--hard-exact", type=int, default=EXACT_TRICKS, help="tricks Hard's play-outs solve exactly (experiments)"
    )
    parser.add_argument(
        "--hard-flat", action="store_true", help="Hard without its tree search: the flat search over worlds"
    )
    parser.add_argument(
        "--hard-sims", type=int, default=MAX_SIMULATIONS, help="most simulations a Hard tree search runs"
    )
    parser.add_argument("--hard-skill", type=float, default=SKILL, help="Hard's tree play-outs: share of rule moves")
    parser.add_argument("--hard-c", type=float, default=EXPLORATION, help="Hard's tree search exploration constant")
    parser.add_argument("--hard-fresh", action="store_true", help="Hard's tree search: a fresh world every simulation")
    parser.add_argument(
        "--hard-own-hands", action="store_true", help="Hard's tree search: other seats' choices counted by their hand"
    )
    parser.add_argument(
        "--hard-per-world", type=int, default=0, help="Hard: one tree per sampled world, this many simulations each"
    )
    parser.add_argument(
        "--hard-cheat",
        nargs="?",
        const="all",
        choices=tuple(CHEATS),
        help="strength, research only: Hard's tree search is handed the true deal (perfect inference)"
        " at its bids, its plays (early: tricks 1-5, late: 6-10) or all its decisions (the default)",
    )
    parser.add_argument(
        "--hard-bid-model", choices=tuple(BID_MODELS), default="default", help="how Hard reads the other seats' bids"
    )
    parser.add_argument(
        "--hard-play-noise", type=float, help="Hard's tree search: weigh worlds by the plays, this noise in the model"
    )
    parser.add_argument("--hard-play-candidates", type=int, default=8, help="draws per world when plays are weighed")
    parser.add_argument(
        "--hard-rivalry",
        type=float,
        default=RIVALRY,
        help="Hard: value a deal at its points minus this share of the other seats' mean (0: its own points alone)",
    )
    parser.add_argument(
        "--hard-rivalry-bids", action="store_true", help="Hard's rivalry counts at its bids too, not only its cards"
    )
    parser.add_argument(
        "--hard-play-model",
        choices=tuple(PLAY_MODELS),
        help="Hard's tree search: weigh worlds by the plays under this learned model of them",
    )
    parser.add_argument(
        "--hard-other-c",
        type=float,
        default=1.0,
        help="Hard's tree search: the other seats' exploration at their cards, as a multiple of ours",
    )
    parser.add_argument(
        "--hard-other-policy",
        choices=("rule", *PLAY_MODELS),
        help="Hard's tree search: the other seats pick their cards by this model of their play instead of by UCB",
    )
    parser.add_argument(
        "--hard-learned-bids",
        action="store_true",
        help="Hard bids by the learned player's bid network instead of by its search (issue 23)",
    )
    parser.add_argument(
        "--hard-guide",
        type=float,
        default=0.0,
        help="Hard's tree search: its choice adds this share of the learned player's expected points (issue 23)",
    )
    parser.add_argument(
        "--reference",
        choices=REFERENCES,
        help="strength: this OpenSpiel bot takes our seat instead of our player (what the goal asks of a player)",
    )
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--quick", action="store_true", help="a smoke run: 4 deals, 1 ladder game, 3 timing deals")
    parser.add_argument("--json", default="bench/results/bots.json", help="where to write the figures")
    args = parser.parse_args()
    if unknown := set(args.opponents.split(",")) - set(OPPONENTS):
        parser.error(f"unknown opponents {', '.join(sorted(unknown))}: use any of {', '.join(OPPONENTS)}")
    if args.reference and args.player != "hard":
        parser.error(f"--reference takes our seat, so it cannot be played with --player {args.player}")
    if args.quick:
        args.deals, args.games, args.timing_deals = 4, 1, 3
    parts = set(args.parts.split(","))
    hard = HardSettings(
        args.hard_seconds,
        args.hard_worlds,
        args.hard_noise,
        args.hard_exact,
        not args.hard_flat,
        args.hard_sims,
        args.hard_skill,
        args.hard_c,
        args.hard_fresh,
        args.hard_own_hands,
        args.hard_per_world,
        args.hard_cheat,
        args.hard_bid_model,
        args.hard_play_noise,
        args.hard_play_candidates,
        args.hard_rivalry,
        args.hard_rivalry_bids,
        args.hard_play_model,
        args.hard_other_c,
        args.hard_other_policy,
        args.hard_learned_bids,
        args.hard_guide,
    )
    report: dict[str, Any] = {
        "command": " ".join(sys.argv),
        "hard": {
            "seconds": args.hard_seconds,
            "worlds": args.hard_worlds,
            "noise": args.hard_noise,
            "tree": not args.hard_flat,
            "simulations": args.hard_sims,
            "skill": args.hard_skill,
            "exploration": args.hard_c,
            "fresh": args.hard_fresh,
            "own_hands": args.hard_own_hands,
            "per_world": args.hard_per_world,
            "cheat": args.hard_cheat,
            "bid_model": args.hard_bid_model,
            "play_noise": args.hard_play_noise,
            "play_candidates": args.hard_play_candidates,
            "rivalry": args.hard_rivalry,
            "rivalry_bids": args.hard_rivalry_bids,
            "play_model": args.hard_play_model,
            "other_exploration": args.hard_other_c,
            "other_policy": args.hard_other_policy,
            "learned_bids": args.hard_learned_bids,
            "guide": args.hard_guide,
        },
        "player": args.player,
        "reference": args.reference,
    }
    if "strength" in parts:
        _strength_header(args.reference or args.player, args.reference is not None)
        deals = range(args.first_deal, args.first_deal + args.deals)
        opponents = args.opponents.split(",")
        report["strength"] = strength(deals, opponents, hard, args.workers, args.reference, args.player)
    if "ladder" in parts:
        games = range(args.first_game, args.first_game + args.games)
        report["ladder"] = ladder(games, hard, args.workers, args.presets.split(","))
    if "timing" in parts:
        levels = tuple(dict.fromkeys(("easy", "normal", "hard", args.player)))
        report["timing"] = timing(args.timing_deals, levels, hard)
    path = Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
