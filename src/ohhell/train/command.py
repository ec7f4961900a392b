"""The command line of the training path (``ohhell train`` and ``python -m ohhell.train``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from ohhell.train.run import Plan, install, train


def parser() -> argparse.ArgumentParser:
    """The options, with the defaults that made the shipped networks."""
    default = Plan()
    p = argparse.ArgumentParser(
        prog="ohhell train",
        description="Train the learned player's networks from self-play (PyTorch on the CPU; docs/model-card.md).",
    )
    p.add_argument("folder", type=Path, help="where the samples, checkpoints, networks and curve go (resumable)")
    p.add_argument("--generations", type=int, default=default.generations)
    p.add_argument("--deals", type=int, default=default.deals, help="self-play deals per generation")
    p.add_argument("--epochs", type=int, default=default.epochs, help="epochs of each fit")
    p.add_argument("--window", type=int, default=default.window, help="fit on the last this many generations")
    p.add_argument("--explore", type=float, default=default.explore, help="share of random choices in self-play")
    p.add_argument(
        "--eval-deals", type=int, default=default.eval_deals, help="deals against the counting player per generation"
    )
    p.add_argument("--workers", type=int, default=default.workers)
    p.add_argument("--seed", type=int, default=default.seed)
    p.add_argument(
        "--search",
        type=int,
        default=default.search,
        help="generations from --search-from on are played by the Hard player, this many simulated deals a decision",
    )
    p.add_argument("--search-from", type=int, default=default.search_from, help="the first generation Hard plays")
    p.add_argument("--install", action="store_true", help="copy the final networks into the package")
    return p


def main(argv: Sequence[str] | None = None) -> None:
    """Run the training path."""
    args = parser().parse_args(argv)
    plan = Plan(
        generations=args.generations,
        deals=args.deals,
        epochs=args.epochs,
        window=args.window,
        explore=args.explore,
        eval_deals=args.eval_deals,
        workers=args.workers,
        seed=args.seed,
        search=args.search,
        search_from=args.search_from,
    )
    try:
        import torch  # noqa: F401
    except ImportError as missing:
        raise SystemExit(
            "training needs PyTorch: pip install 'ohhell[train]' (here: pip install torch==2.13.0)"
        ) from missing
    train(plan, args.folder)
    if args.install:
        install(args.folder)
        print("installed the networks into the package")
