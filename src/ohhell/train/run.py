"""The whole training path: generations of self-play, each fitted and measured, resumable at every step.

Generation 0 is played by the counting player (exploring; Normal before the learned player); generation ``g`` by
the networks fitted after generation ``g - 1`` (or, with ``--search N``, by the Hard player searching N simulated
deals a decision, from generation ``--search-from`` on). After each generation both
networks are fitted again, from the last weights, on the samples of the last
:attr:`Plan.window` generations, and measured against three counting players
(the counting players of :mod:`ohhell.train.match`). Everything is written under one folder::

    gen-0/samples.npz   gen-0/bid.npz  gen-0/play.npz  gen-0/bid.ckpt  gen-0/play.ckpt  gen-0/done.json
    gen-1/...
    progress.json       the losses and margins so far
    curve.png           the learning curve (matplotlib)
    bid.npz  play.npz   the last generation's networks

A step whose file exists is not done again, and a fit goes on from its last
epoch's checkpoint, so an interrupted run started again with the same command
picks up where it stopped. ``--install`` copies the final networks into the
package (``src/ohhell/bots/learned/weights/``).
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ohhell.bots.learned.network import Network
from ohhell.train.fit import FitOptions, History, fit
from ohhell.train.match import against_normal
from ohhell.train.selfplay import Generation, Samples, generate_parallel

WEIGHTS = Path(__file__).resolve().parent.parent / "bots" / "learned" / "weights"


@dataclass(frozen=True)
class Plan:
    """What to train: generations, deals per generation, epochs, the window of generations fitted on, and so on."""

    generations: int = 4
    deals: int = 40_000
    epochs: int = 4
    window: int = 2
    explore: float = 0.1
    eval_deals: int = 400
    workers: int = 2
    seed: int = 0
    batch: int = 512
    learning_rate: float = 1e-3
    search: int = 0
    """Above 0, the generations from :attr:`search_from` on are played by the Hard player with this many simulated
    deals a decision instead of by the last networks (:attr:`Generation.search`)."""
    search_from: int = 1

    def generation(self, g: int, before: Path) -> Generation:
        """Who plays generation ``g``, the folder of generation ``g - 1`` being ``before``."""
        if self.search > 0 and g >= self.search_from:
            return Generation(explore=self.explore, search=self.search)
        if g == 0:
            return Generation(explore=self.explore)
        return Generation(before / "bid.npz", before / "play.npz", explore=self.explore)


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )


def train(plan: Plan, folder: Path, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run (or go on with) ``plan`` in ``folder``; the progress record."""
    folder.mkdir(parents=True, exist_ok=True)
    record_path = folder / "progress.json"
    record: dict[str, Any] = {"plan": asdict(plan), "generations": []}
    if record_path.exists():
        old = json.loads(record_path.read_text())
        record["generations"] = old.get("generations", [])
    started = time.perf_counter()
    for g in range(plan.generations):
        here = folder / f"gen-{g}"
        done = here / "done.json"
        if done.exists():
            continue
        here.mkdir(exist_ok=True)
        before = folder / f"gen-{g - 1}"
        generation = plan.generation(g, before)
        samples_path = here / "samples.npz"
        if not samples_path.exists():
            t0 = time.perf_counter()
            with _progress() as bar:
                task = bar.add_task(f"generation {g}: self-play", total=plan.deals)
                samples = generate_parallel(
                    generation,
                    plan.deals,
                    plan.seed * 1000 + g,
                    plan.workers,
                    progress=_advancer(bar, task),
                )
            samples.save(samples_path)
            log(f"generation {g}: {len(samples)} samples from {plan.deals} deals in {time.perf_counter() - t0:.0f} s")
        window = [folder / f"gen-{k}" / "samples.npz" for k in range(max(0, g - plan.window + 1), g + 1)]
        data = Samples.join([Samples.load(p) for p in window])
        entry: dict[str, Any] = {"generation": g, "samples": len(data), "deals": plan.deals}
        options = FitOptions(epochs=plan.epochs, batch=plan.batch, learning_rate=plan.learning_rate, seed=plan.seed + g)
        for name, bids in (("bid", True), ("play", False)):
            start = Network.load(before / f"{name}.npz") if g > 0 else None
            t0 = time.perf_counter()
            with _progress() as bar:
                task = bar.add_task(f"generation {g}: fitting the {name} network", total=None)
                network, history = fit(
                    data.part(bids),
                    options,
                    here / f"{name}.ckpt",
                    start,
                    progress=_updater(bar, task),
                )
            meta = {"generation": g, "samples": int((data.bids == bids).sum()), "plan": asdict(plan)}
            Network(network.weights, network.biases, meta).save(here / f"{name}.npz")
            entry[name] = _losses(history)
            log(
                f"generation {g}: {name} network held-out loss {history.held_out[-1]:.4f}"
                f" ({time.perf_counter() - t0:.0f} s)"
            )
        t0 = time.perf_counter()
        margin = against_normal(here / "bid.npz", here / "play.npz", plan.eval_deals, plan.workers)
        entry["against_normal"] = {"margin": margin.margin, "error": margin.error, "exact": margin.exact}
        log(f"generation {g}: against three counting players {margin} ({time.perf_counter() - t0:.0f} s)")
        entry["seconds"] = round(time.perf_counter() - started, 1)
        record["generations"] = [e for e in record["generations"] if e["generation"] != g] + [entry]
        record_path.write_text(json.dumps(record, indent=2))
        draw_curve(record, folder / "curve.png")
        done.write_text(json.dumps(entry))
    last = folder / f"gen-{plan.generations - 1}"
    for name in ("bid", "play"):
        shutil.copyfile(last / f"{name}.npz", folder / f"{name}.npz")
    return record


def _advancer(bar: Progress, task: TaskID) -> Callable[[int], None]:
    def advance(done: int) -> None:
        bar.advance(task, done)

    return advance


def _updater(bar: Progress, task: TaskID) -> Callable[[int, int], None]:
    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return update


def _losses(history: History) -> dict[str, list[float]]:
    return {"train": [round(x, 5) for x in history.train], "held_out": [round(x, 5) for x in history.held_out]}


def install(folder: Path, weights: Path = WEIGHTS) -> None:
    """Copy the trained networks into the package."""
    weights.mkdir(parents=True, exist_ok=True)
    for name in ("bid", "play"):
        shutil.copyfile(folder / f"{name}.npz", weights / f"{name}.npz")


def draw_curve(record: dict[str, Any], path: Path) -> None:
    """The learning curve as a PNG: each network's losses epoch by epoch, and the margin against the counting player."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    generations = record["generations"]
    figure, (losses, margins) = plt.subplots(1, 2, figsize=(11, 4))
    for name, colour in (("bid", "tab:blue"), ("play", "tab:orange")):
        xs: list[float] = []
        train: list[float] = []
        held: list[float] = []
        for entry in generations:
            epochs = len(entry[name]["train"])
            xs += [entry["generation"] + (k + 1) / epochs for k in range(epochs)]
            train += entry[name]["train"]
            held += entry[name]["held_out"]
        losses.plot(xs, train, color=colour, linestyle=":", label=f"{name}: trained on")
        losses.plot(xs, held, color=colour, label=f"{name}: held out")
    losses.set_xlabel("generation (epochs within it)")
    losses.set_ylabel("cross-entropy of the tricks taken")
    losses.legend()
    gens = [e["generation"] for e in generations]
    values = [e["against_normal"]["margin"] for e in generations]
    errors = [e["against_normal"]["error"] for e in generations]
    margins.errorbar(gens, values, yerr=errors, marker="o", capsize=3)
    margins.axhline(0.0, color="grey", linewidth=0.8)
    margins.set_xlabel("generation")
    margins.set_ylabel("points a deal against three counting players")
    margins.set_title("4 players, 10 cards, paired deals")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
