"""The page's publishable key: made once, in the account whose secret keys see what it makes."""

from __future__ import annotations

import re

from service import accounts, db, site
from tests.conftest import authorised


def test_ensure_key_names_the_account_that_sees_the_page(fresh_app, tmp_path, monkeypatch):
    monkeypatch.setattr(site, "KEY_FILE", tmp_path / "site-key")
    with fresh_app.app_context():
        account = accounts.create_account(db.session(), "Provider sales")
    runner = fresh_app.test_cli_runner()
    made = runner.invoke(args=["site", "ensure-key", "--account", account.id])
    assert made.exit_code == 0, made.output
    key = (tmp_path / "site-key").read_text().strip()
    assert key.startswith("pk_live_") and account.id in made.output
    again = runner.invoke(args=["site", "ensure-key"])
    assert again.exit_code == 0 and account.id in again.output and key[:16] in again.output
    assert (tmp_path / "site-key").read_text().strip() == key

    config = authorised(fresh_app, key).get("/site-config.json").get_json()
    assert config["publishable_key"] == key
    secret = re.search(r"accounts create-key --account (\S+)", made.output).group(1)
    assert secret == account.id


def test_ensure_key_refuses_an_unknown_account(fresh_app, tmp_path, monkeypatch):
    monkeypatch.setattr(site, "KEY_FILE", tmp_path / "site-key")
    result = fresh_app.test_cli_runner().invoke(args=["site", "ensure-key", "--account", "nope"])
    assert result.exit_code != 0 and "no account nope" in result.output
    assert not (tmp_path / "site-key").exists()
