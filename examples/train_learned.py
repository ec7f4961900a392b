"""Learn a player from self-play with ohhell's training path, then put it at a table of your own.

This is the path that made the Normal player's networks (docs/model-card.md), on a
small plan: generation 0 is self-play of the counting player (exploring), each
later generation self-play of the networks fitted on the generations before it;
each network forecasts, for a bid or a card, how many more tricks the seat will
take, and the player picks what scores the most under the rules in force. The
folder keeps every step, so the same command goes on where it stopped.

Afterwards the new networks play in one seat of a few whole games of the
``up-and-down`` preset against three counting players, and the script prints
their mean points per deal beside the counting player's own on the same games.

Needs PyTorch (``pip install '.[train]'`` in a clone; on this project's machines
``pip install torch==2.13.0`` takes the CPU build from local disk).

Run: ``python examples/train_learned.py [--folder runs/example] [--generations 2] [--deals 2000]``
(a smoke run: ``--generations 1 --deals 40 --games 1``).
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

from ohhell.bots import make_bot
from ohhell.bots.base import Bot
from ohhell.bots.learned import LearnedBot
from ohhell.bots.learned.network import Network
from ohhell.bots.table import play_game
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.train.run import Plan, train


def points_per_deal(player: Bot, games: int, seat: int = 0) -> float:
    """``player`` in ``seat`` against three counting players: its mean points per deal over ``games`` games."""
    per_deal = []
    for number in range(games):
        rules = Rules.preset("up-and-down", players=4)
        game = Game(rules, number=10_000 + number, first_dealer=number % 4)
        bots = [make_bot("counting") for _ in range(4)]
        bots[seat] = player
        play_game(game, bots, random.Random(number))
        per_deal.append(game.totals[seat] / rules.deals)
    return statistics.fmean(per_deal)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("runs/example"))
    parser.add_argument("--generations", type=int, default=2)
    parser.add_argument("--deals", type=int, default=2000, help="self-play deals per generation")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--games", type=int, default=8, help="games of the comparison at the end")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    plan = Plan(
        generations=args.generations, deals=args.deals, epochs=args.epochs, eval_deals=100, workers=args.workers
    )
    train(plan, args.folder)
    learned = LearnedBot(Network.load(args.folder / "bid.npz"), Network.load(args.folder / "play.npz"))
    mine = points_per_deal(learned, args.games)
    theirs = points_per_deal(make_bot("counting"), args.games)
    print(f"learning curve: {args.folder / 'curve.png'}")
    print(f"points a deal in seat 0 of {args.games} up-and-down games against three counting players:")
    print(f"  the networks just trained: {mine:.2f}")
    print(f"  the counting player:       {theirs:.2f}")


if __name__ == "__main__":
    main()
