"""The page's publishable key: made once, in the account whose secret keys see what it makes."""

from __future__ import annotations

import dataclasses
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


def test_ensure_key_with_another_account_replaces_the_page_key(fresh_app, tmp_path, monkeypatch):
    monkeypatch.setattr(site, "KEY_FILE", tmp_path / "site-key")
    runner = fresh_app.test_cli_runner()
    assert runner.invoke(args=["site", "ensure-key"]).exit_code == 0
    website_key = (tmp_path / "site-key").read_text().strip()
    with fresh_app.app_context():
        sales = accounts.create_account(db.session(), "Provider sales")

    replaced = runner.invoke(args=["site", "ensure-key", "--account", sales.id])
    assert replaced.exit_code == 0, replaced.output
    sales_key = (tmp_path / "site-key").read_text().strip()
    assert sales_key != website_key and sales.id in replaced.output
    assert f"replaced the page's publishable key {website_key[:16]} (revoked)" in replaced.output
    assert authorised(fresh_app, sales_key).get("/site-config.json").get_json()[
        "publishable_key"] == sales_key
    assert authorised(fresh_app, website_key).get("/v1/presets").status_code == 401
    assert authorised(fresh_app, sales_key).get("/v1/presets").status_code == 200

    again = runner.invoke(args=["site", "ensure-key", "--account", sales.id])
    assert again.exit_code == 0 and "already has a publishable key" in again.output
    assert (tmp_path / "site-key").read_text().strip() == sales_key


def test_ensure_key_refuses_an_unknown_account_when_the_page_has_a_key(fresh_app, tmp_path,
                                                                       monkeypatch):
    monkeypatch.setattr(site, "KEY_FILE", tmp_path / "site-key")
    runner = fresh_app.test_cli_runner()
    assert runner.invoke(args=["site", "ensure-key"]).exit_code == 0
    key = (tmp_path / "site-key").read_text().strip()
    result = runner.invoke(args=["site", "ensure-key", "--account", "nope"])
    assert result.exit_code != 0 and "no account nope" in result.output
    assert (tmp_path / "site-key").read_text().strip() == key


def test_ensure_key_will_not_shadow_the_environment_key(fresh_app, tmp_path, monkeypatch):
    monkeypatch.setattr(site, "KEY_FILE", tmp_path / "site-key")
    with fresh_app.app_context():
        session = db.session()
        website = accounts.create_account(session, "website")
        sales = accounts.create_account(session, "Provider sales")
        _, key = accounts.create_key(session, website.id, kind="publishable")
    monkeypatch.setitem(fresh_app.config, "SIZING",
                        dataclasses.replace(fresh_app.config["SIZING"], site_publishable_key=key))
    result = fresh_app.test_cli_runner().invoke(args=["site", "ensure-key", "--account", sales.id])
    assert result.exit_code != 0 and "SITE_PUBLISHABLE_KEY" in result.output
    assert not (tmp_path / "site-key").exists()
    assert authorised(fresh_app, key).get("/v1/presets").status_code == 200


def test_a_revoked_page_key_is_replaced_by_one_of_its_account(fresh_app, tmp_path, monkeypatch):
    monkeypatch.setattr(site, "KEY_FILE", tmp_path / "site-key")
    with fresh_app.app_context():
        sales = accounts.create_account(db.session(), "Provider sales")
    runner = fresh_app.test_cli_runner()
    for account in ([], ["--account", sales.id]):
        assert runner.invoke(args=["site", "ensure-key", "--account", sales.id]).exit_code == 0
        dead = (tmp_path / "site-key").read_text().strip()
        with fresh_app.app_context():
            assert accounts.revoke(db.session(), dead[:16])

        replaced = runner.invoke(args=["site", "ensure-key", *account])
        assert replaced.exit_code == 0, replaced.output
        key = (tmp_path / "site-key").read_text().strip()
        assert key != dead and "already has" not in replaced.output
        assert f"replaced the page's publishable key {dead[:16]} (it was revoked)" in replaced.output
        assert f"account {sales.id}" in replaced.output
        assert authorised(fresh_app, key).get("/site-config.json").get_json()[
            "publishable_key"] == key
        assert authorised(fresh_app, key).get("/v1/presets").status_code == 200
        with fresh_app.app_context():
            assert accounts.authenticate(db.session(), key).account_id == sales.id


def test_a_page_key_this_database_does_not_know_is_replaced(fresh_app, tmp_path, monkeypatch):
    monkeypatch.setattr(site, "KEY_FILE", tmp_path / "site-key")
    # As a key of another deployment's database reads: a prefix no row here has.
    unknown = "pk_live_zzzzzzzz_" + "x" * 32
    (tmp_path / "site-key").write_text(unknown + "\n")
    replaced = fresh_app.test_cli_runner().invoke(args=["site", "ensure-key"])
    assert replaced.exit_code == 0, replaced.output
    assert (f"replaced the page's publishable key {unknown[:16]} (not in this database, nothing "
            "revoked)") in replaced.output
    key = (tmp_path / "site-key").read_text().strip()
    assert authorised(fresh_app, key).get("/v1/presets").status_code == 200


def test_a_revoked_environment_key_is_named_not_kept(fresh_app, tmp_path, monkeypatch):
    monkeypatch.setattr(site, "KEY_FILE", tmp_path / "site-key")
    with fresh_app.app_context():
        session = db.session()
        _, key = accounts.create_key(session, accounts.create_account(session, "website").id,
                                     kind="publishable")
        assert accounts.revoke(session, key[:16])
    monkeypatch.setitem(fresh_app.config, "SIZING",
                        dataclasses.replace(fresh_app.config["SIZING"], site_publishable_key=key))
    result = fresh_app.test_cli_runner().invoke(args=["site", "ensure-key"])
    assert result.exit_code != 0, result.output
    assert f"({key[:16]}) comes from SITE_PUBLISHABLE_KEY, which is revoked" in result.output
    assert not (tmp_path / "site-key").exists()
