"""The account's lists (sizings, quotes): one page a call, filtered, followed by its cursor."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from types import ModuleType

import click

from gpu_sizing_cli.api import Api
from gpu_sizing_cli.output import Column, formats, stderr, stdout, table, write_csv, write_json


def choices(enum: type[Enum]) -> click.Choice:
    """The values the API's spec allows, as the generated client knows them."""
    return click.Choice([str(member.value) for member in enum])


def list_command(name: str, operation: ModuleType, statuses: type[Enum], origins: type[Enum],
                 columns: Sequence[Column], summary: str) -> click.Command:
    @click.command(name, help=f"{summary}, newest first (secret keys only).")
    @click.option("--status", type=choices(statuses))
    @click.option("--origin", type=choices(origins), help="page: made on the website's form.")
    @click.option("--limit", type=click.IntRange(1, 100), default=20, show_default=True)
    @click.option("--cursor", help="The next page, as the previous page printed it.")
    @formats
    @click.pass_obj
    def command(api: Api, output: str, status: str | None, origin: str | None, limit: int,
                cursor: str | None) -> None:
        arguments: dict = {"limit": limit}
        if cursor:
            arguments["cursor"] = cursor
        if status:
            arguments["status"] = statuses(status)
        if origin:
            arguments["origin"] = origins(origin)
        response = api.call(operation, **arguments)
        page = response.parsed
        if output == "json":
            write_json(response.content)
        elif output == "csv":
            write_csv(columns, page.items)
        else:
            stdout.print(table(summary, columns, page.items))
        if page.next_cursor and output != "json":
            stderr.print(f"more: gpu-sizing {name} --cursor {page.next_cursor}")

    return command
