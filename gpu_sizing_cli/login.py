"""`gpu-sizing login`, `logout` and `config`: store, forget and show the server and key."""

from __future__ import annotations

import sys

import click
from gpu_sizing_client.api.estimates import list_presets

from gpu_sizing_cli.api import Api, is_publishable
from gpu_sizing_cli.settings import (
    ENV_KEY,
    Settings,
    config_path,
    masked,
    read_config,
    write_config,
)

# What a publishable key is for, said when one is stored: the API's rules for `pk_` keys.
PUBLISHABLE_WORDS = (
    "This is a publishable key (pk_): it reads the catalog, runs estimates and collectives, "
    "creates sizings and quote requests of its own sizings, and reads back only what it created, "
    "with the client secret the creation returned (`gpu-sizing size` prints it; give it as "
    "--client-secret to `gpu-sizing sizing` and `gpu-sizing quote`). It lists nothing "
    "(`gpu-sizing sizings` and `quotes` need a secret key, sk_).")


def read_key() -> str:
    """From standard input when it is piped, else a prompt that does not echo."""
    if not sys.stdin.isatty():
        return sys.stdin.readline().strip()
    return click.prompt("API key (not shown)", hide_input=True).strip()


@click.command()
@click.option("--url", metavar="URL", help="The API server to store (default: the one in use).")
@click.pass_obj
def login(api: Api, url: str | None) -> None:
    """Store a server and an API key in the config file, readable by you only.

    The key is read from a prompt that does not echo it, or from standard input, e.g.

      .venv/bin/flask --app service accounts create --name Sales \\
        | awk '/^secret key/ {print $3}' | gpu-sizing login

    It is checked against the server first; only its public prefix is ever printed.
    """
    key = read_key()
    if not key:
        raise click.UsageError("no key given")
    server = (url or api.settings.url).rstrip("/")
    checked = Api(Settings(url=server, key=key, url_from="login", key_from="login"), api.attempts)
    try:
        checked.call(list_presets)
    finally:
        checked.close()
    path = config_path()
    write_config(path, {**read_config(path), "url": server, "key": key})
    click.echo(f"logged in to {server} with {masked(key)}; saved in {path} (mode 600)")
    if is_publishable(key):
        click.echo(PUBLISHABLE_WORDS)


@click.command()
def logout() -> None:
    """Remove the stored key from the config file (the server address stays)."""
    path = config_path()
    stored = read_config(path)
    if "key" not in stored:
        click.echo(f"no key stored in {path}")
        return
    del stored["key"]
    write_config(path, stored)
    click.echo(f"removed the key from {path}")


@click.command("config")
@click.pass_obj
def show_config(api: Api) -> None:
    """Show the server and key in use and where each comes from (the key by its prefix)."""
    settings = api.settings
    click.echo(f"url  {settings.url}  (from {settings.url_from})")
    click.echo(f"key  {masked(settings.key)}  (from {settings.key_from})")
    if not settings.key:
        click.echo(f"run `gpu-sizing login` or set {ENV_KEY}", err=True)


COMMANDS = (login, logout, show_config)
