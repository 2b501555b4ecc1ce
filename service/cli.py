"""`flask` commands: migrate the database, load the catalog, manage accounts and keys."""

from __future__ import annotations

from pathlib import Path

import click
from flask import Flask, current_app

from catalog.files import CatalogFileError
from catalog.loader import load_files
from service import db, migrate


def register_commands(app: Flask) -> None:
    register_account_commands(app)
    @app.cli.command("migrate")
    def migrate_command() -> None:
        """Apply the schema migrations to the configured database."""
        migrate.upgrade(current_app.config["SIZING"].database_url)
        click.echo("database schema is up to date")

    @app.cli.group("catalog")
    def catalog_group() -> None:
        """Manage the provider's catalog."""

    @catalog_group.command("load")
    @click.option("--dir", "data_dir", type=click.Path(file_okay=False, path_type=Path),
                  help="Folder of catalog YAML files (default: the configured catalog folder)")
    @click.option("--note", default="", help="Why this version was loaded")
    def load_command(data_dir: Path | None, note: str) -> None:
        """Validate the catalog files and store them as a new catalog version."""
        data_dir = data_dir or current_app.config["SIZING"].catalog_dir
        try:
            version, created = load_files(db.session(), data_dir, note)
        except CatalogFileError as exc:
            raise click.ClickException(f"catalog refused, database unchanged: {exc}") from None
        if created:
            click.echo(f"catalog version {version.id} loaded from {data_dir}")
        else:
            click.echo(f"catalog unchanged: version {version.id} already holds these files")


def register_account_commands(app: Flask) -> None:
    from service import accounts

    @app.cli.group("accounts")
    def accounts_group() -> None:
        """Manage accounts and their API keys."""

    @accounts_group.command("create")
    @click.option("--name", required=True, help="The customer or partner's name")
    def create_account(name: str) -> None:
        """Create an account with a secret key and a publishable key (shown once)."""
        session = db.session()
        account = accounts.create_account(session, name)
        _, secret = accounts.create_key(session, account.id, kind="secret", name="default")
        _, public = accounts.create_key(session, account.id, kind="publishable", name="website")
        click.echo(f"account     {account.id}\nsecret key  {secret}\npublishable {public}\n"
                   "Store the keys now: they are not shown again.")

    @accounts_group.command("create-key")
    @click.option("--account", "account_id", required=True)
    @click.option("--kind", type=click.Choice(["secret", "publishable"]), default="secret")
    @click.option("--mode", type=click.Choice(["live", "test"]), default="live")
    @click.option("--scope", "scopes", multiple=True, type=click.Choice(accounts.SCOPES),
                  help="Repeat for each scope; default: the kind's usual scopes")
    @click.option("--name", default="")
    def create_key(account_id: str, kind: str, mode: str, scopes: tuple[str, ...], name: str) -> None:
        """Create one more key for an account (shown once)."""
        session = db.session()
        if session.get(accounts.Account, account_id) is None:
            raise click.ClickException(f"no account {account_id}")
        try:
            key, plaintext = accounts.create_key(session, account_id, kind=kind, mode=mode,
                                                 scopes=scopes or None, name=name)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"{plaintext}\nscopes: {' '.join(key.scopes)}")

    @accounts_group.command("revoke-key")
    @click.argument("prefix")
    def revoke_key(prefix: str) -> None:
        """Revoke a key by its visible prefix (e.g. sk_live_3f9a1c2e)."""
        if not accounts.revoke(db.session(), prefix[:16]):
            raise click.ClickException(f"no active key with prefix {prefix[:16]}")
        click.echo(f"revoked {prefix[:16]}")
