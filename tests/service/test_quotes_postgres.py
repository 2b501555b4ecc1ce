"""Quote numbering and idempotency under concurrency, on the real PostgreSQL server."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from service import db
from service.records import Quote
from tests.conftest import authorised, build_app, drop_postgres_database, new_postgres_database

BODY = {"configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2,
                          "region": "us-east"}, "customer": {"name": "Grace"}}


@pytest.fixture(scope="module")
def pg_app():
    url = new_postgres_database()
    app = build_app(url)
    yield app
    with app.app_context():
        db.engine().dispose()
    drop_postgres_database(url)


def post(app, headers=None):
    return authorised(app).post("/v1/quotes", json=BODY, headers=headers or {})


def test_concurrent_creation_gives_unique_numbers(pg_app):
    with ThreadPoolExecutor(max_workers=12) as pool:
        responses = list(pool.map(lambda _: post(pg_app), range(40)))
    assert all(r.status_code == 201 for r in responses), [r.get_json() for r in responses]
    numbers = [r.get_json()["number"] for r in responses]
    assert len(set(numbers)) == 40
    sequence = sorted(int(n.rsplit("-", 1)[1]) for n in numbers)
    assert sequence == list(range(sequence[0], sequence[0] + 40))  # no gaps, no repeats


def test_concurrent_retries_with_one_idempotency_key_create_one_quote(pg_app):
    with pg_app.app_context():
        before = db.session().query(Quote).count()
    headers = {"Idempotency-Key": "pg-burst-1"}
    with ThreadPoolExecutor(max_workers=8) as pool:
        responses = list(pool.map(lambda _: post(pg_app, headers), range(16)))
    # A retry waits for the first request (up to 2 s) and gets its answer, or a 409 past that.
    assert {r.status_code for r in responses} <= {201, 409}, [r.get_json() for r in responses]
    assert len({r.get_json()["id"] for r in responses if r.status_code == 201}) == 1
    with pg_app.app_context():
        assert db.session().query(Quote).count() == before + 1
