"""gpu-sizing with a publishable key: it says what such a key does, and reads back its sizing
and quotes it with the client secret the sizing's creation returned."""

from __future__ import annotations

import json
import re

import pytest

from service import accounts, db
from tests.cli.conftest import environment
from tests.conftest import build_app

SECRET = re.compile(r"client secret of sizing (\S+): (cs_[A-Za-z0-9_-]{32})")


@pytest.fixture()
def publishable(live_api, gpu_sizing):
    """A publishable key of the live server's database, and the environment that uses it."""
    app = build_app(live_api.database_url, load_catalog=False)
    with app.app_context():
        session = db.session()
        account = accounts.create_account(session, "page")
        key = accounts.create_key(session, account.id, kind="publishable")[1]
        db.engine().dispose()
    return key, environment(gpu_sizing.home, GPU_SIZING_URL=live_api.url, GPU_SIZING_KEY=key)


def test_login_with_a_publishable_key_says_what_it_can_do(gpu_sizing, live_api, publishable):
    key, _ = publishable
    ran = gpu_sizing("login", "--url", live_api.url, env=environment(gpu_sizing.home),
                     stdin=key + "\n")
    assert ran.code == 0, ran.err
    said = " ".join(ran.out.split())
    assert "publishable key (pk_)" in said and "It lists nothing" in said
    assert "--client-secret" in said and key not in ran.out


def test_a_publishable_key_reads_and_quotes_its_sizing_with_its_client_secret(
        gpu_sizing, publishable, tmp_path):
    _, env = publishable
    made = gpu_sizing("size", "--preset", "llama-3-8b", "--tokens", "1e11", "--nodes", "1-2",
                      "--json", env=env)
    assert made.code == 0, made.err
    sizing = json.loads(made.out)
    found = SECRET.search(" ".join(made.err.split()))
    assert found and found.groups() == (sizing["id"], sizing["client_secret"]), made.err

    refused = gpu_sizing("sizing", sizing["id"], env=env)
    assert refused.code == 1 and "--client-secret" in refused.err
    read = gpu_sizing("sizing", sizing["id"], "--client-secret", sizing["client_secret"],
                      "--json", env=env)
    assert read.code == 0, read.err
    assert json.loads(read.out)["status"] == "succeeded"

    quoted = gpu_sizing("quote", sizing["id"], "--customer-name", "Ada Visitor", "--country",
                        "AT", "--client-secret", sizing["client_secret"], "--output-dir",
                        str(tmp_path / "quotes"), env=env)
    assert quoted.code == 0, quoted.err
    pdf, table = (tmp_path / "quotes").glob("Q-*.pdf"), (tmp_path / "quotes").glob("Q-*.csv")
    assert next(pdf).read_bytes().startswith(b"%PDF") and next(table).stat().st_size > 0
    assert "VAT 20% (AT)" in quoted.err
    without = gpu_sizing("quote", sizing["id"], "--customer-name", "Ada Visitor", env=env)
    assert without.code == 1 and "--client-secret" in without.err
