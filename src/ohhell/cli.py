"""The ``ohhell`` command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ohhell import records

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


@app.callback()
def _root() -> None:
    """Oh Hell! rules engine, records and games."""


def main() -> None:
    """Entry point of the console script."""
    app()
