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
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

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


# A text column (ids, names) may fold down to this width before the numbers give up a column.
TEXT_FLOOR = 8
# The default box: a border left of each column and one at the end, a space each side of a cell.
BORDER, PADDING = 1, 2


@dataclass(frozen=True)
class Fitted:
    """A table that fits its console without cutting a number.

    Rich shrinks an over-wide table by cutting cells short with an ellipsis, numbers too. Here a
    narrow console first folds the text columns, then wraps numeric cells at their spaces
    ("281–398 days"), never inside a number; when even that is too wide, the columns are
    shown in consecutive tables, each repeating the first column so a row can be followed.
    """

    title: str | None
    header: bool
    columns: Sequence[Column]
    cells: Sequence[Sequence[str]]  # row by row, as rich markup

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        texts = self._texts()
        natural = [max(map(widest_line, column)) for column in texts]
        if chrome(len(natural)) + sum(natural) <= options.max_width:
            yield self._table(range(len(self.columns)), None)
            return
        floors = [floor(column.right, texts[index]) for index, column in enumerate(self.columns)]
        title = self.title
        for group in groups(floors, options.max_width):
            widths = shrunk([natural[i] for i in group], [floors[i] for i in group],
                            options.max_width - chrome(len(group)))
            yield self._table(group, widths, title)
            title = None

    def _texts(self) -> list[list[Text]]:
        """Each column's header (when shown) and cells."""
        return [([Text(column.header)] if self.header else [])
                + [Text.from_markup(row[index]) for row in self.cells]
                for index, column in enumerate(self.columns)]

    def _table(self, group: Iterable[int], widths: Sequence[int] | None,
               title: str | None = "") -> Table:
        group = list(group)
        shown = Table(title=self.title if title == "" else title, title_justify="left",
                      title_style="bold", show_header=self.header)
        for at, index in enumerate(group):
            column = self.columns[index]
            shown.add_column(column.header, justify="right" if column.right else "left",
                             overflow="fold", width=None if widths is None else widths[at])
        for row in self.cells:
            shown.add_row(*(row[index] for index in group))
        return shown


def floor(numeric: bool, texts: Sequence[Text]) -> int:
    """The narrowest a column may get: a numeric one wraps at spaces but never inside a word,
    so a number stays whole; a text one folds down to TEXT_FLOOR."""
    if numeric:
        return max(1, *(widest_word(text) for text in texts))
    return min(TEXT_FLOOR, max(map(widest_line, texts)))


def widest_line(text: Text) -> int:
    return max((cell_len(line) for line in text.plain.splitlines()), default=0)


def widest_word(text: Text) -> int:
    return max((cell_len(word) for word in text.plain.split()), default=0)


def chrome(count: int) -> int:
    """The borders and padding of a table of `count` columns."""
    return count * (BORDER + PADDING) + BORDER


def groups(floors: Sequence[int], width: int) -> list[list[int]]:
    """Consecutive columns that fit `width` at their floors, each group after the first led by
    column 0 (the row's name or rank)."""
    found: list[list[int]] = [[0]]
    for index in range(1, len(floors)):
        candidate = found[-1] + [index]
        if len(found[-1]) > 1 and chrome(len(candidate)) + sum(floors[i] for i in candidate) > width:
            found.append([0, index])
        else:
            found[-1] = candidate
    return found


def shrunk(natural: Sequence[int], floors: Sequence[int], room: int) -> list[int]:
    """Widths within `room`: the widest column above its floor gives up a character at a time."""
    widths = list(natural)
    while sum(widths) > room:
        above = [i for i, w in enumerate(widths) if w > floors[i]]
        if not above:
            break  # one column alone is wider than the console; it folds
        widest = max(above, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


def table(title: str | None, columns: Sequence[Column], rows: Iterable[Any],
          header: bool = True) -> Fitted:
    shown = [column for column in columns if column.person is not None]
    return Fitted(title, header, shown, [[column.person(row) for column in shown] for row in rows])


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
