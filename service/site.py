"""The reference sizing page at `/`, and the public config it reads (its publishable key)."""

from __future__ import annotations

from pathlib import Path

import click
from flask import Flask, current_app, jsonify, send_from_directory
from sqlalchemy import select

from service import accounts, db
from service.config import REPO_ROOT, Config
from service.errors import Problem

SITE_DIR = Path(__file__).resolve().parent / "static" / "site"
# Where `flask site ensure-key` keeps the embedded deployment's publishable key.
KEY_FILE = REPO_ROOT / "instance" / "site-publishable-key"


def publishable_key(config: Config) -> str | None:
    if config.site_publishable_key:
        return config.site_publishable_key
    if KEY_FILE.exists():
        return KEY_FILE.read_text().strip() or None
    return None


def init_site(app: Flask, config: Config) -> None:
    @app.get("/")
    def index():
        return send_from_directory(SITE_DIR, "index.html", max_age=0)

    @app.get("/site/<path:filename>")
    def site_asset(filename: str):
        return send_from_directory(SITE_DIR, filename, max_age=300)

    @app.get("/site-config.json")
    def site_config():
        key = publishable_key(current_app.config["SIZING"])
        if key is None:
            raise Problem(503, "site_key_missing",
                          "No publishable key is configured: set SITE_PUBLISHABLE_KEY or run "
                          "`flask site ensure-key`")
        # A publishable key is public by design: it can read the catalog, estimate, size and
        # request quotes, and read back only what it made, with each object's client secret.
        return jsonify({"publishable_key": key, "api_base": ""})

    @app.cli.group("site")
    def site_group() -> None:
        """The reference sizing page."""

    @site_group.command("ensure-key")
    @click.option("--account", "account_id", default=None,
                  help="Give the page a key of this (the sales team's) account, replacing (and "
                       "revoking) a key of another account; default: the page's key if it works, "
                       "else a new key of a revoked key's account, else a new 'website' account's")
    def ensure_key(account_id: str | None) -> None:
        """Give the page a publishable key that works, and say which account sees what it makes."""
        session = db.session()
        if account_id is not None and session.get(accounts.Account, account_id) is None:
            raise click.ClickException(f"no account {account_id}")
        config = current_app.config["SIZING"]
        existing = publishable_key(config)
        old = session.scalars(select(accounts.ApiKey).where(
            accounts.ApiKey.prefix == existing[:16])).first() if existing else None
        # A revoked key, or one this database does not know, is refused on every request: the
        # page would serve it and every sizing from the page would fail.
        live = old is not None and old.revoked_at is None
        if live and (account_id is None or old.account_id == account_id):
            click.echo(f"the page already has a publishable key ({existing[:16]}), account "
                       f"{old.account_id}")
            return
        if existing and config.site_publishable_key:
            # The environment's key wins over the file (publishable_key), so a new file would
            # change nothing the page serves.
            wanted = f"of account {account_id}" if account_id else "that works"
            state = ("" if live else ", which is revoked" if old is not None
                     else ", which is not in this database")
            raise click.ClickException(
                f"the page's key ({existing[:16]}) comes from SITE_PUBLISHABLE_KEY{state}: set a "
                f"key {wanted} there instead")
        if account_id is None:
            # The revoked key's account keeps seeing what the page makes.
            account_id = old.account_id if old is not None else accounts.create_account(
                session, "website").id
        _, key = accounts.create_key(session, account_id, kind="publishable", name="sizing page")
        KEY_FILE.parent.mkdir(parents=True, exist_ok=True)
        KEY_FILE.write_text(key + "\n")
        if existing:
            # Revoked only once the new key is written, so the page always has a key that works.
            if live:
                accounts.revoke(session, old.prefix)
            state = ("revoked" if live else "it was revoked" if old is not None
                     else "not in this database, nothing revoked")
            click.echo(f"replaced the page's publishable key {existing[:16]} ({state})")
        click.echo(f"publishable key for the page written to {KEY_FILE}, account {account_id}\n"
                   "Its sizings and quote requests are listed (origin: page) to the secret keys of "
                   "that account:\n"
                   f"  flask --app service accounts create-key --account {account_id}")
