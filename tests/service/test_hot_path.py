"""The request path's caches, for real against each database: a key revoked elsewhere stops
working within API_KEY_CACHE_S, through this process at once; a new catalog version is seen by
the next request."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import create_engine, update
from sqlalchemy.orm import Session

from catalog.changes import apply_changes
from catalog.tables import utcnow
from service import accounts, db
from service.records import ApiKey
from tests.conftest import authorised, build_app, new_key

ESTIMATE = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 4},
            "workload": {"preset": "llama-3-8b"}, "training": {"global_batch": 512},
            "layout": {"dp": 32, "zero_stage": 2}}
CACHE_S = 1


@pytest.fixture()
def database_url(empty_database_url):
    return empty_database_url


@pytest.fixture()
def app(database_url):
    app = build_app(database_url, api_key_cache_s=CACHE_S)
    yield app
    with app.app_context():
        db.engine().dispose()


def elsewhere(database_url: str) -> Session:
    """A session of its own engine: what another process sees and does."""
    return Session(create_engine(database_url))


def test_a_key_revoked_by_another_process_stops_within_the_cache_window(app, database_url):
    key = new_key(app)
    client = authorised(app, key)
    assert client.get("/v1/catalog/gpus").status_code == 200
    with elsewhere(database_url) as other:
        other.execute(update(ApiKey).where(ApiKey.prefix == key[:16])
                      .values(revoked_at=utcnow()))
        other.commit()
        other.get_bind().dispose()
    revoked_at = time.monotonic()
    while (status := client.get("/v1/catalog/gpus").status_code) == 200:
        assert time.monotonic() - revoked_at < CACHE_S + 1.0, "still accepted past the window"
        time.sleep(0.05)
    assert status == 401


def test_a_key_revoked_through_this_process_stops_at_once(app):
    key = new_key(app)
    client = authorised(app, key)
    assert client.get("/v1/catalog/gpus").status_code == 200
    with app.app_context():
        assert accounts.revoke(db.session(), key[:16])
    assert client.get("/v1/catalog/gpus").status_code == 401


def test_a_new_catalog_version_is_seen_by_the_next_request(app, database_url):
    client = authorised(app)
    before = client.post("/v1/estimates", json=ESTIMATE)
    assert before.status_code == 200, before.get_json()
    with elsewhere(database_url) as other:
        new = apply_changes(other, {"stock": [{"region": "us-east", "server": "hgx-h100-8",
                                                "available_nodes": 3}]}, "hot path test").id
        other.get_bind().dispose()
    after = client.post("/v1/estimates", json=ESTIMATE)
    assert before.get_json()["catalog_version"] < new == after.get_json()["catalog_version"]
