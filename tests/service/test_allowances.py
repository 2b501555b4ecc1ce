"""A sizing's cost is bounded before it is queued: search size per key kind, caps per account."""

from __future__ import annotations

import pytest
import redis

from service import accounts, db
from service.records import Sizing
from tests.conftest import authorised, build_app
from tests.service.test_errors import assert_problem
from tests.settings import REDIS_HOST, REDIS_PORT

PAGE_DEFAULT = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e12,
                "nodes": {"min": 1, "max": 16}}
SMALL = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 2},
         "gpu_models": ["h100-sxm"]}
# The worst case: 70B on every server and fabric at 1-512 nodes.
HUGE = {"workload": {"preset": "llama-3-70b"}, "tokens": 1e16, "nodes": {"min": 1, "max": 512},
        "max_results": 50, "max_lead_time_days": 365}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return build_app(f"sqlite:///{tmp_path_factory.mktemp('allow') / 'allow.sqlite3'}")


@pytest.fixture()
def keys(app):
    with app.app_context():
        session = db.session()
        account_id = accounts.create_account(session, "allowances").id
        made = {kind: accounts.create_key(session, account_id, kind=kind)[1]
                for kind in ("secret", "publishable")}
    return {"account_id": account_id, **{k: authorised(app, v) for k, v in made.items()}}


def test_a_search_past_the_allowance_is_refused_before_it_is_queued_naming_the_limit(app, keys):
    response = keys["publishable"].post("/v1/sizings", json=HUGE)
    body = assert_problem(response, 422, "search_too_large")
    assert body["errors"][0]["pointer"] == "/nodes"
    # 103 sellable server and fabric pairs (the SHARP NDR fabric among them) x 512 node counts,
    # the layouts whose degrees divide each GPU count and Megatron-LM can run.
    assert "1,500,000" in body["detail"] and "3,533,184 candidates" in body["detail"]
    with app.app_context():
        assert db.session().query(Sizing).filter_by(account_id=keys["account_id"]).count() == 0


def test_a_secret_key_s_allowance_is_enforced_too(tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'small.sqlite3'}",
                    search_candidates_secret_key=3_000_000,
                    search_candidates_publishable_key=400_000)
    body = assert_problem(authorised(app).post("/v1/sizings", json=HUGE), 422,
                          "search_too_large")
    assert "3,000,000" in body["detail"] and "3,533,184 candidates" in body["detail"]


def test_the_page_s_default_questionnaire_fits_its_allowance(keys):
    response = keys["publishable"].post("/v1/sizings", json=PAGE_DEFAULT)
    assert response.status_code == 202, response.get_json()


def test_a_secret_key_may_search_more_than_the_page(keys):
    wider = {**PAGE_DEFAULT, "nodes": {"min": 1, "max": 256}}
    assert_problem(keys["publishable"].post("/v1/sizings", json=wider), 422, "search_too_large")
    assert keys["secret"].post("/v1/sizings", json=wider).status_code == 202


def queue(app, account_id: str, count: int, origin: str) -> None:
    """Sizings queued and never sent, as a backlog behind busy workers leaves them."""
    with app.app_context():
        session = db.session()
        session.add_all(Sizing(request=SMALL, account_id=account_id, origin=origin)
                        for _ in range(count))
        session.commit()


def test_an_account_past_its_active_cap_gets_429_with_retry_after(app, keys):
    queue(app, keys["account_id"], 10, "api")
    refused = keys["secret"].post("/v1/sizings", json=SMALL)
    assert_problem(refused, 429, "too_many_active_sizings")
    assert refused.headers["Retry-After"] == "5"
    # Another account is not held up.
    assert authorised(app).post("/v1/sizings", json=SMALL).status_code == 202


def test_a_sizing_refused_at_the_cap_leaves_no_record_and_its_idempotency_key_free(tmp_path):
    # The record is written before the cap is counted: a refusal must take it back.
    app = build_app(f"sqlite:///{tmp_path / 'cap.sqlite3'}", active_sizings_per_account=2,
                    active_sizings_from_publishable_keys=2)
    with app.app_context():
        session = db.session()
        account_id = accounts.create_account(session, "at the cap").id
        client = authorised(app, accounts.create_key(session, account_id)[1])
    queue(app, account_id, 2, "api")
    headers = {"Idempotency-Key": "cap-retry"}
    assert_problem(client.post("/v1/sizings", json=SMALL, headers=headers), 429,
                   "too_many_active_sizings")
    with app.app_context():
        session = db.session()
        assert session.query(Sizing).filter_by(account_id=account_id).count() == 2
        session.query(Sizing).filter_by(account_id=account_id).update({"status": "cancelled"})
        session.commit()
    retried = client.post("/v1/sizings", json=SMALL, headers=headers)
    assert retried.status_code == 202 and "Idempotent-Replayed" not in retried.headers


def test_the_page_fills_only_its_share_of_the_account_cap(app, keys):
    queue(app, keys["account_id"], 4, "page")
    assert_problem(keys["publishable"].post("/v1/sizings", json=SMALL), 429,
                   "too_many_active_sizings")
    # The sales team's own sizings still go through.
    assert keys["secret"].post("/v1/sizings", json=SMALL).status_code == 202


def test_prefer_wait_is_capped_and_needs_a_free_slot(tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'wait.sqlite3'}", max_wait_s=7, wait_slots=1)
    client = authorised(app)
    waited = client.post("/v1/sizings", json=SMALL, headers={"Prefer": "wait=3600"})
    assert waited.status_code == 201 and waited.headers["Preference-Applied"] == "wait=7"
    slots = app.extensions["wait_slots"]
    assert slots.acquire(blocking=False)  # another request is waiting in the only slot
    try:
        busy = client.post("/v1/sizings", json=SMALL, headers={"Prefer": "wait=5"})
        assert busy.status_code == 202 and "Preference-Applied" not in busy.headers
        polled = client.get(busy.headers["Location"], headers={"Prefer": "wait=5"})
        assert polled.status_code == 200 and "Preference-Applied" not in polled.headers
    finally:
        slots.release()


def test_concurrent_sizings_of_one_account_fill_its_cap_exactly(empty_database_url):
    """Each request writes its record, which locks the account's counts, then reads them:
    however the requests interleave, exactly the cap's number are accepted."""
    import threading

    url = f"redis://{REDIS_HOST}:{REDIS_PORT}/13"
    redis.Redis.from_url(url).flushdb()
    # Sent to a broker nobody consumes, so every accepted sizing stays queued (active).
    app = build_app(empty_database_url, redis_url=url, tasks_eager=False,
                    active_sizings_per_account=3, active_sizings_from_publishable_keys=3)
    client = authorised(app)
    client.get("/v1/catalog/gpus")  # the key looked up beforehand
    start = threading.Barrier(8)
    statuses = []

    def submit():
        start.wait()
        statuses.append(client.post("/v1/sizings", json=SMALL).status_code)

    threads = [threading.Thread(target=submit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(statuses) == [202] * 3 + [429] * 5
    with app.app_context():
        assert db.session().query(Sizing).count() == 3
        db.engine().dispose()


def test_each_cap_counts_the_sizing_being_written_on_each_database(empty_database_url):
    # Each database's own triggers keep the account's counts (migration 0009), the record being
    # written among them: on either, the caps hold exactly.
    # Sent to a broker no worker reads, so every sizing stays queued.
    app = build_app(empty_database_url, active_sizings_per_account=3,
                    active_sizings_from_publishable_keys=2,
                    redis_url=f"redis://{REDIS_HOST}:{REDIS_PORT}/11", tasks_eager=False)
    with app.app_context():
        session = db.session()
        account_id = accounts.create_account(session, "exact caps").id
        page, server = (authorised(app, accounts.create_key(session, account_id, kind=kind)[1])
                        for kind in ("publishable", "secret"))
    assert [page.post("/v1/sizings", json=SMALL).status_code for _ in range(2)] == [202, 202]
    assert_problem(page.post("/v1/sizings", json=SMALL), 429, "too_many_active_sizings")
    assert server.post("/v1/sizings", json=SMALL).status_code == 202
    refused = server.post("/v1/sizings", json=SMALL)
    assert_problem(refused, 429, "too_many_active_sizings")
    assert "the account" in refused.get_json()["detail"]
    with app.app_context():
        assert db.session().query(Sizing).filter_by(account_id=account_id).count() == 3
        db.engine().dispose()
    redis.Redis(host=REDIS_HOST, port=REDIS_PORT, db=11).flushdb()
