"""The ``ohhell`` command line."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ohhell import records
from ohhell.bots import LEVELS, Budget
from ohhell.errors import OhHellError
from ohhell.game import Game
from ohhell.rules import PRESETS, SCHEDULES, SCORING_SCHEMES, Rules
from ohhell.terminal import TerminalGame, seat_levels, table_names

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Oh Hell! rules engine, records and games.")


@app.command()
def check(
    file: Annotated[str, typer.Argument(help="A game record (ohhell-record/1 JSON), or - for standard input.")],
) -> None:
    """Re-play a game record under its rules and print the result, or the first rule it breaks, as JSON."""
    if file == "-":
        text = sys.stdin.buffer.read()
    else:
        try:
            text = Path(file).read_bytes()
        except OSError as exc:
            typer.echo(f"ohhell check: cannot read {file}: {exc.strerror}", err=True)
            raise typer.Exit(2) from None
    status, result = records.check(text)
    typer.echo(json.dumps(result))
    raise typer.Exit(status)


def parse_schedule(text: str) -> str | tuple[int, ...]:
    """A schedule option: a name, or hand sizes separated by commas (``5,4,3``)."""
    if text.replace(",", "").replace(" ", "").isdigit():
        return tuple(int(part) for part in text.split(","))
    return text


def parse_trump(text: str) -> str | tuple[str, ...]:
    """A trump option: ``turn-up``, or a rotation such as ``S,H,D,C,NT``."""
    if text == "turn-up":
        return text
    return tuple(part.strip().upper() for part in text.split(","))


def build_rules(preset: str, players: int | None = None, **options: object) -> Rules:
    """Rules from a preset and the options given on the command line (``None`` means: as the preset has it)."""
    overrides = {name: value for name, value in options.items() if value is not None}
    if players is not None:
        overrides["players"] = players
    if isinstance(overrides.get("schedule"), str):
        overrides["schedule"] = parse_schedule(str(overrides["schedule"]))
    if isinstance(overrides.get("trump"), str):
        overrides["trump"] = parse_trump(str(overrides["trump"]))
    return Rules.preset(preset, **overrides)


PresetOption = Annotated[str, typer.Option(help=f"Rules preset: {', '.join(PRESETS)}.")]
PlayersOption = Annotated[int | None, typer.Option(help="Number of players (3-7; 3-6 with Magicians).")]
ScheduleOption = Annotated[
    str | None,
    typer.Option(help=f"Hand sizes: {', '.join(SCHEDULES)}, or sizes such as 5,4,3."),
]
TrumpOption = Annotated[str | None, typer.Option(help="turn-up, or a rotation such as S,H,D,C,NT.")]
HookOption = Annotated[bool | None, typer.Option("--hook/--no-hook", help="The dealer's hook.")]
BidChangesOption = Annotated[str | None, typer.Option(help="final or until-next.")]
FirstLeadOption = Annotated[str | None, typer.Option(help="left-of-dealer or dealer.")]
ScoringOption = Annotated[str | None, typer.Option(help=f"Scoring: {', '.join(SCORING_SCHEMES)}.")]
MissPenaltyOption = Annotated[
    bool | None,
    typer.Option("--miss-penalty/--no-miss-penalty", help="A missed bid costs a point per trick off."),
]
ZeroBonusOption = Annotated[int | None, typer.Option(help="Exact-bid bonus for a made bid of 0.")]
SpecialOption = Annotated[
    bool | None,
    typer.Option("--special-cards/--no-special-cards", help="Four Magicians and four Jesters (60 cards)."),
]


@app.command()
def play(
    preset: PresetOption = "full",
    players: PlayersOption = None,
    schedule: ScheduleOption = None,
    trump: TrumpOption = None,
    hook: HookOption = None,
    bid_changes: BidChangesOption = None,
    first_lead: FirstLeadOption = None,
    scoring: ScoringOption = None,
    miss_penalty: MissPenaltyOption = None,
    zero_bid_bonus: ZeroBonusOption = None,
    special_cards: SpecialOption = None,
    levels: Annotated[
        str,
        typer.Option(
            help="Computer levels (easy, normal, hard), one for all or one per computer seat: normal,hard,easy."
        ),
    ] = "normal",
    number: Annotated[int | None, typer.Option(help="Deal number: replay the same cards.")] = None,
    name: Annotated[str, typer.Option(help="Your name.")] = "You",
    watch: Annotated[bool, typer.Option(help="Only computer players: watch a game.")] = False,
    record: Annotated[Path | None, typer.Option(help="Write the game record (ohhell-record/1) here.")] = None,
    think: Annotated[float, typer.Option(help="Seconds the Hard player may think per decision.")] = 1.0,
    seed: Annotated[int | None, typer.Option(help="Seed for the computer players' choices.")] = None,
) -> None:
    """Play a game in the terminal against computer players."""
    try:
        rules = build_rules(
            preset,
            players,
            schedule=schedule,
            trump=trump,
            hook=hook,
            bid_changes=bid_changes,
            first_lead=first_lead,
            scoring=scoring,
            miss_penalty=miss_penalty,
            zero_bid_bonus=zero_bid_bonus,
            special_cards=special_cards,
        )
        seat_to_level = seat_levels(levels.split(","), rules.players, human=not watch)
        for level in seat_to_level.values():
            if level not in LEVELS:
                raise ValueError(f"unknown level {level!r}: use easy, normal or hard")
        game = Game(rules, number, names=table_names(rules.players, None if watch else name))
    except (OhHellError, ValueError) as exc:
        typer.echo(f"ohhell play: {exc}", err=True)
        raise typer.Exit(2) from None
    console = Console(highlight=False)
    terminal = TerminalGame(
        game=game,
        levels=seat_to_level,
        human=None if watch else 0,
        console=console,
        read_line=_reader(console),
        rng=random.Random(seed),
        budget=Budget(seconds=think),
        record_path=record,
    )
    raise typer.Exit(terminal.run())


def _reader(console: Console) -> Callable[[str], str | None]:
    def read(prompt: str) -> str | None:
        try:
            return console.input(prompt) if sys.stdin.isatty() else _read_stdin(console, prompt)
        except (EOFError, KeyboardInterrupt):
            return None

    return read


def _read_stdin(console: Console, prompt: str) -> str | None:
    console.print(prompt, end="")
    line = sys.stdin.readline()
    if not line:
        return None
    console.print(line.rstrip("\n"))
    return line


@app.callback()
def _root() -> None:
    """Oh Hell! rules engine, records and games."""


def main() -> None:
    """Entry point of the console script."""
    app()
