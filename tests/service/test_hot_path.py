"""The request path, for real against each database: a key revoked elsewhere stops working
within API_KEY_CACHE_S, through this process at once; a new catalog version is seen by the next
request; creating a sizing is one transaction, and a send the broker refuses leaves the record
to the dispatcher."""

from __future__ import annotations

import sqlite3
import time

import psycopg
import pytest
import redis
from sqlalchemy import create_engine, event, func, select, update
from sqlalchemy.orm import Session

from catalog.changes import apply_changes
from catalog.tables import utcnow
from service import accounts, db
from service.records import ApiKey, Sizing
from tests.conftest import authorised, build_app, new_key
from tests.settings import REDIS_HOST, REDIS_PORT

ESTIMATE = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 4},
            "workload": {"preset": "llama-3-8b"}, "training": {"global_batch": 512},
            "layout": {"dp": 32, "zero_stage": 2}}
SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 2},
          "gpu_models": ["h100-sxm"]}
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


def test_a_key_revoked_through_this_process_while_it_is_looked_up_stops_at_once(app):
    """A lookup that read the key before the revocation must not remember it after it."""
    import threading

    key = new_key(app)
    looked_up, revoked = threading.Event(), threading.Event()
    with app.app_context():
        engine = db.engine()

    def pause(_conn, _cursor, statement, *_args) -> None:
        if "FROM api_keys" in statement and threading.current_thread().name == "in-flight":
            looked_up.set()
            revoked.wait(10)

    in_flight = []
    thread = threading.Thread(name="in-flight", target=lambda: in_flight.append(
        authorised(app, key).get("/v1/catalog/gpus").status_code))
    event.listen(engine, "after_cursor_execute", pause)
    try:
        thread.start()
        assert looked_up.wait(10)
        with app.app_context():
            assert accounts.revoke(db.session(), key[:16])
        revoked.set()
        thread.join(10)
    finally:
        event.remove(engine, "after_cursor_execute", pause)
    assert in_flight == [200]  # read before the revocation: that request stands
    assert authorised(app, key).get("/v1/catalog/gpus").status_code == 401


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


def in_transaction(driver_connection) -> bool:
    """Whether the driver's connection is inside a transaction, as its database reports it."""
    if isinstance(driver_connection, sqlite3.Connection):
        return driver_connection.in_transaction
    return driver_connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE


@pytest.mark.parametrize("method, path, body", [("POST", "/v1/estimates", ESTIMATE),
                                                ("GET", "/v1/catalog/servers", None)])
def test_a_request_that_only_reads_reads_the_version_outside_a_transaction(app, method, path,
                                                                          body):
    # No transaction to begin before the version's query or to roll back after it: on
    # PostgreSQL each would be a round trip of its own.
    client = authorised(app)
    assert client.open(path, method=method, json=body).status_code == 200
    after_version_read = []

    def look(conn, _cursor, statement, *_args) -> None:
        if "FROM catalog_versions" in statement:
            after_version_read.append(in_transaction(conn.connection.driver_connection))

    with app.app_context():
        engine = db.engine()
    event.listen(engine, "after_cursor_execute", look)
    try:
        assert client.open(path, method=method, json=body).status_code == 200
    finally:
        event.remove(engine, "after_cursor_execute", look)
    assert after_version_read == [False]
    if engine.dialect.name == "postgresql":
        # Every pooled connection reads in a transaction again, as every writer expects.
        pooled = [engine.connect() for _ in range(engine.pool.checkedin())]
        try:
            assert pooled
            for connection in pooled:
                connection.exec_driver_sql("SELECT 1")
                assert in_transaction(connection.connection.driver_connection)
        finally:
            for connection in pooled:
                connection.close()


def sizing_app(database_url: str, redis_url: str):
    """An app that sends sizings to a broker at `redis_url`, as deployed (no worker consumes)."""
    return build_app(database_url, redis_url=redis_url, tasks_eager=False)


def test_creating_a_sizing_commits_once_with_the_send_stamped(database_url):
    url = f"redis://{REDIS_HOST}:{REDIS_PORT}/13"
    broker = redis.Redis.from_url(url)
    broker.flushdb()
    app = sizing_app(database_url, url)
    client = authorised(app)
    client.get("/v1/catalog/gpus")  # the key looked up (and its last use written) beforehand
    commits, checkouts = [], []

    def count(_conn) -> None:
        commits.append(1)

    def checked_out(*_args) -> None:
        checkouts.append(1)

    with app.app_context():
        engine = db.engine()
    event.listen(engine, "commit", count)
    event.listen(engine.pool, "checkout", checked_out)
    try:
        response = client.post("/v1/sizings", json=SIZING)
    finally:
        event.remove(engine, "commit", count)
        event.remove(engine.pool, "checkout", checked_out)
    assert response.status_code == 202, response.get_json()
    assert len(commits) == 1
    # The catalog version is read on the connection the record is written on.
    assert len(checkouts) == 1
    assert broker.llen("celery") == 1
    with app.app_context():
        sizing = db.session().get(Sizing, response.get_json()["id"])
        assert sizing.dispatched_at is not None and sizing.status == "queued"
        db.engine().dispose()


def test_a_send_the_broker_refuses_leaves_the_record_to_the_dispatcher(database_url):
    # Nothing listens on port 1: the broker refuses at once, as in an outage.
    app = sizing_app(database_url, "redis://127.0.0.1:1/0")
    response = authorised(app).post("/v1/sizings", json=SIZING)
    assert response.status_code == 202, response.get_json()
    with app.app_context():
        sizing = db.session().get(Sizing, response.get_json()["id"])
        # Unstamped: the dispatcher resends it after RESEND_UNSENT_AFTER_S.
        assert sizing.dispatched_at is None and sizing.status == "queued"
        db.engine().dispose()


def test_a_listing_is_read_once_per_version_and_a_new_version_is_listed_at_once(app,
                                                                                database_url):
    client = authorised(app)

    def h100_stock() -> int:
        response = client.get("/v1/catalog/regions?server=hgx-h100-8")
        assert response.status_code == 200, response.get_json()
        region = next(r for r in response.get_json() if r["id"] == "us-east")
        return region["stock"][0]["available_nodes"]

    before = h100_stock()
    statements = []

    def count(*_args) -> None:
        statements.append(1)

    with app.app_context():
        engine = db.engine()
    event.listen(engine, "before_cursor_execute", count)
    try:
        assert h100_stock() == before
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(statements) == 1, "a listing of a version already read was read again"
    with elsewhere(database_url) as other:
        apply_changes(other, {"stock": [{"region": "us-east", "server": "hgx-h100-8",
                                         "available_nodes": before + 1}]}, "hot path test")
        other.get_bind().dispose()
    assert h100_stock() == before + 1


def test_the_staged_record_is_the_record_written(database_url):
    # The submission writes the record with one statement and keeps the object it wrote: every
    # column of it is what the database holds, result and error SQL NULL.
    app = build_app(database_url, redis_url=f"redis://{REDIS_HOST}:{REDIS_PORT}/13",
                    tasks_eager=False)
    response = authorised(app).post("/v1/sizings", json=SIZING)
    assert response.status_code == 202, response.get_json()
    sizing_id = response.get_json()["id"]
    with app.app_context():
        row = db.session().execute(select(Sizing.__table__).where(
            Sizing.id == sizing_id)).mappings().one()
        assert row["result"] is None and row["error"] is None
        assert row["status"] == "queued" and row["attempts"] == 0 and row["progress"] == 0.0
        assert row["dispatched_at"] is not None and row["created_at"] == row["updated_at"]
        assert db.session().scalar(select(func.count()).select_from(Sizing).where(
            Sizing.result.is_(None), Sizing.id == sizing_id)) == 1
        db.engine().dispose()
    assert response.get_json()["status"] == "queued"
    assert response.get_json()["created_at"]
