"""The `gpu-sizing` command: its global options and its subcommands."""

from __future__ import annotations

import click

from gpu_sizing_cli import catalog, estimates, login, quotes, sizings
from gpu_sizing_cli.api import Api
from gpu_sizing_cli.settings import resolve


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--url", metavar="URL", help="The API server (else GPU_SIZING_URL, the config file "
              "written by `gpu-sizing login`, then http://127.0.0.1:8000).")
@click.option("--key", metavar="KEY", help="An API key (else GPU_SIZING_KEY, then the config "
              "file). A flag is seen by other users of the machine: prefer `gpu-sizing login`.")
@click.option("--retries", type=click.IntRange(0, 10), default=4, show_default=True,
              help="Retries of a call that is safe to repeat, with backoff.")
@click.version_option(package_name="gpu-sizing", prog_name="gpu-sizing")
@click.pass_context
def cli(ctx: click.Context, url: str | None, key: str | None, retries: int) -> None:
    """Size GPU clusters for training, compare fabrics and quote them, from the sizing API.

    Start with `gpu-sizing login`, then e.g.

      gpu-sizing size --preset llama-3-70b --tokens 2e12 --nodes 8-32 --term 1y --currency EUR

    Exit codes: 0 done, 1 the API refused (its message names the field) or the sizing failed,
    2 a bad flag, 3 the server could not be reached.
    """
    api = Api(resolve(url, key), attempts=retries + 1)
    ctx.obj = api
    ctx.call_on_close(api.close)


for command in (*login.COMMANDS, *sizings.COMMANDS, *estimates.COMMANDS, *quotes.COMMANDS,
                catalog.catalog):
    cli.add_command(command)
