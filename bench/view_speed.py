"""What one seat's view costs: ``Game.view`` at every position of whole games, by preset.

    .venv/bin/python bench/view_speed.py
    .venv/bin/python bench/view_speed.py --games 40 --rounds 5 --presets short full magicians

Every message the server sends a seat, every computer player's decision and every step of the research
environments starts from a :class:`~ohhell.view.SeatView` (docs/server-load.md: about 7 views for each move of a
person against three computer players). The positions are those of ``--games`` random games of each preset (4
players), copied first; each round times ``game.view(0)`` over all of them, and, as the reference run in the
same process, ``deal.legal_actions(0)`` over the same positions (one call into the compiled engine). The best
round of each is printed, in microseconds a position, with the view's cost in units of the reference.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from ohhell.game import Game
from ohhell.rules import Rules


def positions(preset: str, games: int) -> list[Game]:
    """A copy of every position of ``games`` random games of ``preset``, before each action."""
    found = []
    for number in range(games):
        game = Game(Rules.preset(preset, players=4), number=100 + number)
        rng = random.Random(number)
        while not game.is_over:
            found.append(game.copy())
            game.apply(rng.choice(game.legal_actions()))
    return found


def best(work: Callable[[], None], count: int, rounds: int) -> float:
    """The fastest of ``rounds`` runs of ``work``, in seconds per position."""
    fastest = float("inf")
    for _ in range(rounds):
        began = time.perf_counter()
        work()
        fastest = min(fastest, (time.perf_counter() - began) / count)
    return fastest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--presets", nargs="+", default=["short", "full", "magicians"])
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be 1 or more")
    print("  preset        positions   Game.view (us)   reference: legal_actions (us)   view / reference")
    for preset in args.presets:
        games = positions(preset, args.games)

        def views(games: list[Game] = games) -> None:
            for game in games:
                game.view(0)

        def legal(games: list[Game] = games) -> None:
            for game in games:
                game.deal.legal_actions(0)

        view, reference = best(views, len(games), args.rounds), best(legal, len(games), args.rounds)
        print(
            f"  {preset:<12}  {len(games):>9}   {1e6 * view:>14.2f}   {1e6 * reference:>29.2f}"
            f"   {view / reference:>16.1f}x"
        )


if __name__ == "__main__":
    main()
