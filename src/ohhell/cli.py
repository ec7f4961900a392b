"""The ``ohhell`` command line."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, BinaryIO

import typer

from ohhell import records
from ohhell.errors import OhHellError
from ohhell.game import Game
from ohhell.rules import PRESETS, SCHEDULES, SCORING_SCHEMES, Rules

if TYPE_CHECKING:
    from rich.console import Console

# The terminal game, its computer players and rich load only for the commands that use them: ``ohhell check`` starts
# in about half the time without them (scripts and tests run it once a record).

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Oh Hell! rules engine, records and games.")


@app.command()
def check(
    file: Annotated[str, typer.Argument(help="A game record (ohhell-record/1 JSON), or - for standard input.")],
) -> None:
    """Re-play a game record under its rules and print the result, or the first rule it breaks, as JSON."""
    status, result = check_source(file, None if sys.stdin is None else sys.stdin.buffer)
    typer.echo(json.dumps(result, allow_nan=False))
    raise typer.Exit(status)


def check_source(file: str, stdin: BinaryIO | None) -> tuple[int, dict[str, Any]]:
    """What ``ohhell check FILE`` answers for any input: its exit status and the one JSON object it prints.

    At most :data:`~ohhell.records.MAX_RECORD_BYTES` and one byte are read, so that an endless file (``/dev/zero``)
    is refused as too large rather than read into memory; a file that cannot be read answers ``unreadable``.
    """
    limit = records.MAX_RECORD_BYTES + 1
    try:
        if file == "-":
            if stdin is None:
                raise OSError("standard input is closed")
            text = stdin.read(limit)
        else:
            with open(file, "rb") as source:
                text = source.read(limit)
    except OSError as exc:
        return records.refusal(records.UnreadableError(f"cannot read {file}: {exc.strerror or exc}"))
    return records.check(text)


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
    from rich.console import Console

    from ohhell.bots import LEVELS, Budget
    from ohhell.terminal import TerminalGame, seat_levels, table_names

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


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(help="A database URL (sqlite:///file or postgresql://…); default: a SQLite file under ./data/."),
    ] = None,
    animation_scale: Annotated[
        float, typer.Option(help="Multiply the table's animation delays (1 = for people; 0.1 = ten times faster).")
    ] = 1.0,
    computer_processes: Annotated[
        int | None,
        typer.Option(
            help="Worker processes for Hard computer players (default: one per core, at least 2; 0: threads)."
        ),
    ] = None,
    quick_processes: Annotated[
        int, typer.Option(help="Worker processes for Easy and Normal computer players and Hints.")
    ] = 1,
    idle_seconds: Annotated[
        float, typer.Option(help="Let a table nobody uses go after this many seconds (it is rebuilt when needed).")
    ] = 120.0,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(help="Another origin whose pages may open the game socket (scheme://host[:port]); repeatable."),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(help="With several processes on one PostgreSQL database: the Redis they meet in (redis://…)."),
    ] = None,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Server processes on this port (more than 1 needs --redis).")
    ] = 1,
    sync_each_commit: Annotated[
        bool,
        typer.Option(
            help="SQLite: wait for the disk at each commit, so an acknowledged move survives a power cut too "
            "(slower under load; without it a power cut can lose the last 2 seconds, a crash nothing)."
        ),
    ] = False,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="A reverse proxy (address or network) whose X-Forwarded-For and -Proto are believed; repeatable."
        ),
    ] = None,
    sockets_per_address: Annotated[
        int, typer.Option(help="Game and watch sockets one address may hold open at once (per process).")
    ] = 200,
    messages_per_person: Annotated[
        float, typer.Option(help="Socket messages a second one person may send, all their sockets together.")
    ] = 50.0,
    messages_per_address: Annotated[
        float, typer.Option(help="Socket messages a second one address may send, all its sockets together.")
    ] = 400.0,
    new_games_per_address: Annotated[
        int, typer.Option(help="New games one address may start at once, and again every 10 minutes.")
    ] = 30,
    new_games_per_player: Annotated[
        int, typer.Option(help="New games one player (account or browser) may start at once, and every 10 minutes.")
    ] = 10,
    time_callbacks: Annotated[
        bool,
        typer.Option(
            help="Measure: time each callback of the event loop (on asyncio's loop, not uvloop: slower), "
            "shown in /api/server-stats."
        ),
    ] = False,
) -> None:
    """Play Oh Hell! in the browser against computer players, saved as you go (http://127.0.0.1:8000)."""
    from ohhell.site.serve import serve as run_server  # the web stack loads only for this command
    from ohhell.web.config import ServerConfig, default_database_url, default_processes

    try:
        config = ServerConfig(
            database or default_database_url(),
            animation_scale,
            default_processes() if computer_processes is None else computer_processes,
            quick_processes=quick_processes,
            idle_seconds=idle_seconds,
            allowed_origins=tuple(allowed_origin or ()),
            redis_url=redis,
            sync_each_commit=sync_each_commit,
            trusted_proxies=tuple(trusted_proxy or ()),
            sockets_per_address=sockets_per_address,
            messages_per_person=messages_per_person,
            messages_per_address=messages_per_address,
            new_games_per_address=new_games_per_address,
            new_games_per_player=new_games_per_player,
            time_callbacks=time_callbacks,
        )
        if workers > 1 and redis is None:
            raise ValueError("several worker processes meet in Redis: give --redis (and a PostgreSQL --database)")
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    run_server(host, port, config, workers)


club_app = typer.Typer(no_args_is_help=True, help="The club: series results, statistics (docs/club.md).")
app.add_typer(club_app, name="club")


@club_app.command("rebuild-stats")
def rebuild_stats(
    database: Annotated[
        str | None,
        typer.Option(help="A database URL (sqlite:///file or postgresql://…); default: the SQLite file under ./data/."),
    ] = None,
    fix: Annotated[bool, typer.Option(help="Store the rebuilt results where they are missing or differ.")] = False,
) -> None:
    """Rebuild the series results from the game logs and report every disagreement with what was stored."""
    import asyncio

    from ohhell.site.rebuild import rebuild_stats as run_rebuild
    from ohhell.web.config import default_database_url

    report = asyncio.run(run_rebuild(database or default_database_url(), fix))
    for line in report.lines():
        typer.echo(line)
    raise typer.Exit(0 if report.agrees or fix else 1)


NamesArgument = Annotated[
    list[str] | None, typer.Argument(help="The players' names in seat order: each deals after the one before.")
]


@app.command()
def keep(
    names: NamesArgument = None,
    preset: PresetOption = "full",
    schedule: ScheduleOption = None,
    trump: TrumpOption = None,
    hook: HookOption = None,
    scoring: ScoringOption = None,
    miss_penalty: MissPenaltyOption = None,
    zero_bid_bonus: ZeroBonusOption = None,
    special_cards: SpecialOption = None,
    first_dealer: Annotated[
        str | None, typer.Option(help="Who deals first: a name or a number from 1 (default: the first name).")
    ] = None,
    keeper: Annotated[str, typer.Option(help="Who keeps score: entries are made in this name.")] = "Scorekeeper",
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="Save the sheet here (default: ohhell-sheet-DATE.json).")
    ] = None,
    resume: Annotated[Path | None, typer.Option(help="Go on with a saved sheet, saving into it.")] = None,
) -> None:
    """Keep score for a game played with real cards: enter the trump, bids and tricks; points and totals follow."""
    from ohhell.keeper import commands

    try:
        if resume is not None:
            sheet = commands.open_sheet(resume)
            path = resume
        else:
            if not names:
                raise ValueError("name the players in seat order, e.g. ohhell keep Ann Bob Cy Di, or --resume FILE")
            rules = build_rules(
                preset,
                len(names),
                schedule=schedule,
                trump=trump,
                hook=hook,
                scoring=scoring,
                miss_penalty=miss_penalty,
                zero_bid_bonus=zero_bid_bonus,
                special_cards=special_cards,
            )
            sheet = commands.new_sheet(rules, names, first_dealer, keeper)
            path = file or commands.default_sheet_path(sheet.created)
    except (OhHellError, ValueError) as exc:
        typer.echo(f"ohhell keep: {exc}", err=True)
        raise typer.Exit(2) from None
    from rich.console import Console

    console = Console(highlight=False)
    raise typer.Exit(commands.keep(sheet, path, console, _reader(console)))


@app.command(name="sheet")
def print_sheet(
    file: Annotated[Path | None, typer.Argument(help="A saved score sheet (ohhell-sheet/1 JSON) to print.")] = None,
    blank: Annotated[bool, typer.Option(help="A blank sheet to fill in by hand, for the rules given.")] = False,
    preset: PresetOption = "full",
    players: PlayersOption = None,
    schedule: ScheduleOption = None,
    trump: TrumpOption = None,
    hook: HookOption = None,
    scoring: ScoringOption = None,
    miss_penalty: MissPenaltyOption = None,
    zero_bid_bonus: ZeroBonusOption = None,
    special_cards: SpecialOption = None,
    paper: Annotated[str, typer.Option(help="a4 or letter, printed landscape on one page.")] = "a4",
    output: Annotated[Path, typer.Option("--output", "-o", help="The file to write.")] = Path("sheet.pdf"),
    html: Annotated[bool, typer.Option(help="Write HTML with print CSS instead of a PDF.")] = False,
) -> None:
    """Write the printable score sheet (one landscape page) of a saved sheet, or a blank one, as a PDF."""
    from ohhell.keeper import commands

    try:
        if blank == (file is not None):
            raise ValueError("give a saved sheet, or --blank with the rules (--preset, --players, ...), not both")
        if file is not None:
            commands.write_printable(output, sheet=commands.open_sheet(file), paper=paper, html=html)
        else:
            rules = build_rules(
                preset,
                players,
                schedule=schedule,
                trump=trump,
                hook=hook,
                scoring=scoring,
                miss_penalty=miss_penalty,
                zero_bid_bonus=zero_bid_bonus,
                special_cards=special_cards,
            )
            commands.write_printable(output, rules=rules, paper=paper, html=html)
    except (OhHellError, ValueError) as exc:
        typer.echo(f"ohhell sheet: {exc}", err=True)
        raise typer.Exit(2) from None
    except OSError as exc:
        typer.echo(f"ohhell sheet: cannot write {output}: {exc.strerror}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"wrote {output}")


@app.callback()
def _root() -> None:
    """Oh Hell! rules engine, records and games."""


@app.command(
    name="train",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
def train_command(ctx: typer.Context) -> None:
    """Train the learned player's networks from self-play (needs the train extra; ohhell train --help)."""
    from ohhell.train.command import main as train_main

    train_main(ctx.args)


def main() -> None:
    """Entry point of the console script."""
    app()
