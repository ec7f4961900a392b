"""Train a small agent for one seat against three Normal players, on the CPU, in a few minutes.

The agent is a linear softmax policy over the legal action ids (logits ``W @ x``
for the observation vector ``x`` of :class:`ohhell.env.SoloEnv`), trained by
REINFORCE with a learned linear baseline (an actor-critic with Monte Carlo
returns): every decision of a deal is credited with that deal's points, less the
baseline's estimate, and both are updated with Adam. Only numpy is needed to
train; matplotlib draws the learning curve. Both come with the ``rl`` extra
(``pip install '.[rl]'`` in a clone of ohhell: docs/research.md).

Afterwards the agent (playing its most likely action), a uniformly random player
and, for reference, a Normal player each play the same evaluation games from the
same seat, so the comparison is paired game by game; the script prints the mean
points per deal with a 95% confidence interval, writes the learning curve to a
PNG and the figures to JSON.

Run: ``python examples/train_solo.py [--seconds 240] [--eval-games 200] [--png learning_curve.png]``
(a smoke run: ``--games 3 --eval-games 2``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ohhell.env import SoloEnv, bot_policy

Policy = Callable[[dict[str, Any], dict[str, Any]], int]
REWARD_SCALE = 10.0
"""Deal points are divided by this for learning."""
EVALUATION_NUMBERS = 10**8
"""Evaluation games are numbered from here: never a training game's number (those are drawn below it)."""


class Adam:
    """Adam on one parameter array."""

    def __init__(self, shape: tuple[int, ...], lr: float, beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.m = np.zeros(shape)
        self.v = np.zeros(shape)
        self.lr, self.beta1, self.beta2, self.t = lr, beta1, beta2, 0

    def step(self, param: NDArray[np.float64], grad: NDArray[np.float64]) -> None:
        """Move ``param`` up ``grad`` (gradient ascent)."""
        self.t += 1
        self.m = self.beta1 * self.m + (1 - self.beta1) * grad
        self.v = self.beta2 * self.v + (1 - self.beta2) * grad * grad
        m_hat = self.m / (1 - self.beta1**self.t)
        v_hat = self.v / (1 - self.beta2**self.t)
        param += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


@dataclass
class LinearAgent:
    """A softmax policy and a value estimate, both linear in the observation."""

    inputs: int
    actions: int
    lr: float = 0.003
    seed: int = 0
    weights: NDArray[np.float64] = field(init=False)
    value: NDArray[np.float64] = field(init=False)

    def __post_init__(self) -> None:
        self.weights = np.zeros((self.actions, self.inputs + 1))
        self.value = np.zeros(self.inputs + 1)
        self._policy_opt = Adam(self.weights.shape, self.lr)
        self._value_opt = Adam(self.value.shape, self.lr)
        self.rng = np.random.default_rng(self.seed)

    def probabilities(self, x: NDArray[np.float64], mask: NDArray[np.int8]) -> NDArray[np.float64]:
        """The policy over the legal ids."""
        logits = self.weights @ x
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p: NDArray[np.float64] = np.exp(logits)
        p /= p.sum()
        return p

    def choose(self, x: NDArray[np.float64], mask: NDArray[np.int8], greedy: bool = False) -> int:
        """An action id: sampled from the policy, or its most likely one."""
        p = self.probabilities(x, mask)
        return int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))

    def learn(self, decisions: list[tuple[NDArray[np.float64], NDArray[np.int8], int]], reward: float) -> None:
        """One deal's decisions, all credited with the deal's (scaled) points less the baseline."""
        if not decisions:
            return
        policy_grad = np.zeros_like(self.weights)
        value_grad = np.zeros_like(self.value)
        for x, mask, action in decisions:
            advantage = reward - float(self.value @ x)
            p = self.probabilities(x, mask)
            p[action] -= 1.0
            policy_grad -= advantage * np.outer(p, x)
            value_grad += advantage * x
        self._policy_opt.step(self.weights, policy_grad / len(decisions))
        self._value_opt.step(self.value, value_grad / len(decisions))

    def policy(self, greedy: bool = True) -> Policy:
        """The agent as a policy ``(observation, info) -> id``."""
        return lambda observation, info: self.choose(features(observation), observation["action_mask"], greedy)


def features(observation: dict[str, Any]) -> NDArray[np.float64]:
    """The observation vector with a constant 1 (the bias) appended."""
    return np.append(observation["observation"].astype(np.float64), 1.0)


def train(env: SoloEnv, agent: LinearAgent, seconds: float, games: int | None, seed: int) -> list[float]:
    """Play and learn until the time or the game budget runs out; each game's mean points per deal."""
    rng = random.Random(seed)
    curve: list[float] = []
    start = time.perf_counter()
    while (games is None and time.perf_counter() - start < seconds) or (games is not None and len(curve) < games):
        observation, info = env.reset(options={"number": rng.randrange(1, EVALUATION_NUMBERS)})
        deal_index = info["view"].deal_index
        decisions: list[tuple[NDArray[np.float64], NDArray[np.int8], int]] = []
        points = 0.0
        terminated = False
        while not terminated:
            x = features(observation)
            mask = observation["action_mask"]
            action = agent.choose(x, mask)
            decisions.append((x, mask, action))
            observation, reward, terminated, _, info = env.step(action)
            points += reward
            if info["view"].deal_index != deal_index or terminated:  # a deal ended: learn from it
                agent.learn(decisions, reward / REWARD_SCALE)
                decisions = []
                deal_index = info["view"].deal_index
        curve.append(points / env.rules.deals)
    return curve


def evaluate(env: SoloEnv, policy: Policy, games: int) -> list[float]:
    """Mean points per deal in each of the evaluation games (the same games for every policy)."""
    results = []
    for game in range(games):
        observation, info = env.reset(seed=game, options={"number": EVALUATION_NUMBERS + game})
        points = 0.0
        terminated = False
        while not terminated:
            observation, reward, terminated, _, info = env.step(policy(observation, info))
            points += reward
        results.append(points / env.rules.deals)
    return results


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    if len(values) < 2:
        return (values[0] if values else math.nan), math.nan
    return statistics.mean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def draw(curve: list[float], baselines: dict[str, float], path: Path) -> None:
    """The learning curve (a running mean over 50 games) with the evaluated levels as lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    window = min(50, max(1, len(curve)))
    smooth = np.convolve(curve, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(np.arange(len(curve)) + 1, curve, color="#bbbbbb", linewidth=0.6, label="each training game")
    ax.plot(np.arange(window, len(curve) + 1), smooth, color="#1f5fa8", linewidth=2, label=f"mean of {window} games")
    for (name, value), colour in zip(baselines.items(), ("#2a8a3a", "#b03030", "#806020"), strict=False):
        ax.axhline(value, color=colour, linestyle="--", linewidth=1, label=f"{name} (evaluated)")
    ax.set_xlabel("training games (19 deals each)")
    ax.set_ylabel("points per deal")
    ax.set_title("Linear softmax policy against three Normal players (preset full, 4 players)")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def require_matplotlib() -> None:
    """Stop at once, not after the training, where matplotlib is missing."""
    if importlib.util.find_spec("matplotlib") is None:
        raise SystemExit(
            "examples/train_solo.py draws its learning curve with matplotlib, which is not installed: "
            "it comes with ohhell's rl extra (pip install '.[rl]' in a clone of ohhell; docs/research.md)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=240.0, help="training time (ignored with --games)")
    parser.add_argument("--games", type=int, help="train for this many games instead")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--png", type=Path, default=Path("learning_curve.png"))
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    require_matplotlib()

    env = SoloEnv("full", players=4, levels="normal", seat=0)
    agent = LinearAgent(env.encoding.size, env.layout.size, seed=args.seed)
    start = time.perf_counter()
    curve = train(env, agent, args.seconds, args.games, args.seed)
    trained_for = time.perf_counter() - start
    print(f"trained {len(curve)} games ({len(curve) * env.rules.deals} deals) in {trained_for:.0f} s")

    random_player = bot_policy("random", seed=args.seed)
    results = {
        "agent": evaluate(env, agent.policy(greedy=True), args.eval_games),
        "random": evaluate(env, random_player, args.eval_games),
        "normal": evaluate(env, bot_policy("normal", seed=args.seed), args.eval_games),
    }
    print(f"evaluation: {args.eval_games} games of 19 deals from seat 0, the same games for each player")
    summary: dict[str, Any] = {"training_games": len(curve), "training_seconds": trained_for}
    for name, values in results.items():
        mean, half = interval(values)
        summary[name] = {"mean": mean, "ci95": half}
        print(f"  {name:<8} {mean:6.2f} ± {half:.2f} points per deal")
    gain = [a - r for a, r in zip(results["agent"], results["random"], strict=True)]
    mean, half = interval(gain)
    summary["agent_minus_random"] = {"mean": mean, "ci95": half}
    print(f"  agent - random (paired by game): {mean:+.2f} ± {half:.2f} points per deal")
    draw(curve, {name: summary[name]["mean"] for name in results}, args.png)
    print(f"learning curve: {args.png}")
    if args.json:
        args.json.write_text(json.dumps({**summary, "curve": curve}, indent=2))


if __name__ == "__main__":
    main()
