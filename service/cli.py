"""`flask` commands: migrate the database and load the catalog."""

from __future__ import annotations

from pathlib import Path

import click
from flask import Flask, current_app

from catalog.files import CatalogFileError
from catalog.loader import load_files
from service import db, migrate


def register_commands(app: Flask) -> None:
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
