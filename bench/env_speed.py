"""Environment speed: decisions per second of our research interfaces, OpenSpiel's ``oh_hell``, a PettingZoo game.

Everything runs in this process, driven from Python, in alternating rounds of
equal wall time so that machine noise hits every entry alike. Every loop plays
random legal actions; a *decision* is one player's action (chance outcomes and
PettingZoo's steps of finished agents are not counted, but their time is).

* ``ohhell raw_env`` / ``ohhell env``: our PettingZoo AEC environment, unwrapped
  and in PettingZoo's order-enforcing wrapper, with the default observation (665
  floats for 4 players) or the information-state encoding (2,453 floats); each
  decision reads ``env.last()`` (observation and mask) and steps a legal id.
* ``ohhell python_ohhell``: our OpenSpiel game through pyspiel, reading the
  information-state tensor at every decision.
* ``ohhell Table``: our turn structure alone (legal ids and apply), no observation.
* ``openspiel oh_hell``: OpenSpiel's C++ game from Python, with its
  information-state tensor (3,898 floats, turned into a numpy array as an RL loop
  must) or without any observation (legal actions and apply only).
* ``pettingzoo texas_holdem_v4``: PettingZoo's classic card environment (RLCard),
  the same loop as ours.

Oh Hell! is 4 players, single 10-card deals (OpenSpiel's ``num_tricks_fixed=10``;
our ``full`` rules with ``schedule=(10,)``). The ratios divide by OpenSpiel with
the observation an agent needs (its information-state tensor), and, for the
loops without one, by OpenSpiel without it.

Run: ``python bench/env_speed.py [--seconds 2] [--rounds 5] [--json FILE]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ohhell.env import Table, env, raw_env
from ohhell.game import Game
from ohhell.rules import Rules

PLAYERS = 4
CARDS = 10
Loop = Callable[[random.Random, float], int]
"""Runs for about the given seconds; returns the decisions made."""


def aec_loop(make: Callable[[], Any]) -> Loop:
    """Whole AEC episodes: ``last()`` then a random legal id from the mask (``None`` for finished agents)."""
    game = make()

    def run(rng: random.Random, seconds: float) -> int:
        decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            game.reset(seed=rng.randrange(2**31))
            for _ in game.agent_iter():
                observation, _, terminated, truncated, _ = game.last()
                if terminated or truncated:
                    game.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                game.step(int(legal[rng.randrange(len(legal))]))
                decisions += 1
        return decisions

    return run


def table_loop() -> Loop:
    """Our turn structure alone: legal ids and apply, from a deal number, no observation."""
    rules = Rules.preset("full", players=PLAYERS, schedule=(CARDS,))

    def run(rng: random.Random, seconds: float) -> int:
        decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            table = Table(Game(rules, rng.randrange(1, 10**9)))
            while not table.is_over:
                legal = table.legal_ids()
                table.apply(legal[rng.randrange(len(legal))])
                decisions += 1
        return decisions

    return run


def spiel_loop(game: Any, observe: bool) -> Loop:
    """An OpenSpiel game from Python: chance outcomes sampled; at each decision the infostate tensor if ``observe``."""

    def run(rng: random.Random, seconds: float) -> int:
        decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                if state.is_chance_node():
                    state.apply_action(legal[rng.randrange(len(legal))])
                    continue
                if observe:
                    np.asarray(state.information_state_tensor(state.current_player()), dtype=np.float32)
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        return decisions

    return run


def loops() -> dict[str, tuple[Loop, str]]:
    """Each entry's loop and what it is compared with."""
    import pyspiel

    import ohhell.openspiel  # noqa: F401  (registers python_ohhell)

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    oh_hell = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": CARDS})
    ours = pyspiel.load_game(f"python_ohhell(players={PLAYERS},hand_size={CARDS})")
    rules: dict[str, Any] = {"players": PLAYERS, "schedule": (CARDS,)}
    entries: dict[str, tuple[Loop, str]] = {
        "ohhell raw_env (observation)": (aec_loop(lambda: raw_env("full", **rules)), "observed"),
        "ohhell raw_env (information state)": (
            aec_loop(lambda: raw_env("full", encoding="information-state", **rules)),
            "observed",
        ),
        "ohhell env (wrapped, observation)": (aec_loop(lambda: env("full", **rules)), "observed"),
        "ohhell python_ohhell (OpenSpiel)": (spiel_loop(ours, observe=True), "observed"),
        "openspiel oh_hell (infostate tensor)": (spiel_loop(oh_hell, observe=True), "observed"),
        "ohhell Table (no observation)": (table_loop(), "raw"),
        "openspiel oh_hell (no observation)": (spiel_loop(oh_hell, observe=False), "raw"),
    }
    try:
        from pettingzoo.classic import texas_holdem_v4

        entries["pettingzoo texas_holdem_v4"] = (aec_loop(texas_holdem_v4.env), "observed")
    except ImportError as exc:  # rlcard or pygame missing
        print(f"(pettingzoo texas_holdem_v4 left out: {exc})")
    return entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time per entry per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    entries = loops()
    rates: dict[str, list[float]] = {name: [] for name in entries}
    rng = random.Random(0)
    for loop, _ in entries.values():
        loop(rng, 0.2)  # warm up
    for _ in range(args.rounds):
        for name, (loop, _) in entries.items():
            start = time.perf_counter()
            decisions = loop(rng, args.seconds)
            rates[name].append(decisions / (time.perf_counter() - start))
    median = {name: statistics.median(values) for name, values in rates.items()}
    reference = {
        "observed": median["openspiel oh_hell (infostate tensor)"],
        "raw": median["openspiel oh_hell (no observation)"],
    }
    print(
        f"Random legal play, decisions per second; Oh Hell! {PLAYERS} players, {CARDS}-card deals;"
        f" {args.rounds} rounds x {args.seconds:g} s"
    )
    print(f"{'entry':<40}{'median':>10}{'min':>10}{'max':>10}   ratio")
    ratios = {}
    for name, (_, kind) in entries.items():
        ratios[name] = median[name] / reference[kind]
        against = "OpenSpiel with its tensor" if kind == "observed" else "OpenSpiel, no observation"
        print(
            f"{name:<40}{median[name]:>10,.0f}{min(rates[name]):>10,.0f}{max(rates[name]):>10,.0f}"
            f"   {ratios[name]:.2f}x {against}"
        )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"decisions_per_second": median, "rounds": rates, "ratios": ratios}, fh, indent=2)


if __name__ == "__main__":
    main()
