"""How a command prints: rich tables for people, CSV (one header row) or the API's own JSON."""

from __future__ import annotations

import csv
import functools
import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import click
from rich.console import Console
from rich.table import Table

# Piped into a file or a pager, a table keeps its lines whole rather than wrapping at 80 columns.
PIPED_WIDTH = 200


def console(stream) -> Console:
    width = None if stream.isatty() or os.environ.get("COLUMNS") else PIPED_WIDTH
    return Console(file=stream, width=width, highlight=False)


stdout = console(sys.stdout)
stderr = console(sys.stderr)


@dataclass(frozen=True)
class Column:
    """One column: what a person reads, and the raw value CSV gives under its own header."""

    header: str
    person: Callable[[Any], str] | None  # None: in the CSV only
    csv_header: str
    raw: Callable[[Any], Any]
    right: bool = False


def table(title: str | None, columns: Sequence[Column], rows: Iterable[Any],
          header: bool = True) -> Table:
    shown = Table(title=title, title_justify="left", title_style="bold", show_header=header)
    columns = [column for column in columns if column.person is not None]
    for column in columns:
        shown.add_column(column.header, justify="right" if column.right else "left")
    for row in rows:
        shown.add_row(*(column.person(row) for column in columns))
    return shown


def write_csv(columns: Sequence[Column], rows: Iterable[Any]) -> None:
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow([column.csv_header for column in columns])
    for row in rows:
        writer.writerow(["" if (value := column.raw(row)) is None else value for column in columns])


def write_json(content: bytes | Sequence[bytes]) -> None:
    """The API's document as it came, indented; several answers as one JSON array."""
    documents = ([json.loads(c) for c in content] if isinstance(content, list | tuple)
                 else json.loads(content))
    click.echo(json.dumps(documents, indent=2, ensure_ascii=False))


def formats(command: Callable) -> Callable:
    """--json and --csv, given to the command as `output` ("table", "json" or "csv")."""

    @click.option("--json", "as_json", is_flag=True, help="Print the API's JSON document.")
    @click.option("--csv", "as_csv", is_flag=True, help="Print a CSV table (one header row).")
    @functools.wraps(command)
    def wrapper(*args, as_json: bool, as_csv: bool, **kwargs):
        if as_json and as_csv:
            raise click.UsageError("give --json or --csv, not both")
        return command(*args, output="json" if as_json else "csv" if as_csv else "table", **kwargs)

    return wrapper
