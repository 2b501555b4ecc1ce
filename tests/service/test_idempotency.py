"""Idempotency-Key: per API key, after the permission checks, on every POST that creates."""

from __future__ import annotations

from datetime import timedelta

import pytest

from catalog.tables import utcnow
from service import accounts, db
from service.records import IdempotencyKey, Quote, Sizing
from tests.conftest import authorised, build_app
from tests.service.test_errors import assert_problem

SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 2},
          "gpu_models": ["h100-sxm"]}
EXPLICIT = {"configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2,
                              "region": "eu-central"},
            "customer": {"name": "Ada", "country": "DE"}}


@pytest.fixture()
def account(catalog_app):
    """Two secret keys and the page's publishable key of one account."""
    with catalog_app.app_context():
        session = db.session()
        account_id = accounts.create_account(session, "idempotency").id
        keys = {name: accounts.create_key(session, account_id, kind=kind)[1] for name, kind in
                (("secret", "secret"), ("other_secret", "secret"), ("page", "publishable"))}
    return {name: authorised(catalog_app, key) for name, key in keys.items()}


def key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}


def count(app, model) -> int:
    with app.app_context():
        return db.session().query(model).count()


def test_a_secret_key_s_idempotency_key_is_a_new_key_for_the_page(catalog_app, account):
    first = account["secret"].post("/v1/quotes", json=EXPLICIT, headers=key("K-shared"))
    assert first.status_code == 201
    # The page cannot quote an explicit configuration: refused before any key is looked up.
    page = account["page"]
    assert_problem(page.post("/v1/quotes", json=EXPLICIT, headers=key("K-shared")), 403,
                   "insufficient_scope")
    # Its own sizing and quote with the same key: its own objects, not the secret key's.
    sizing = page.post("/v1/sizings", json=SIZING, headers=key("K-page-sizing")).get_json()
    request = {"sizing_id": sizing["id"], "customer": {"name": "Visitor"},
               "sizing_client_secret": sizing["client_secret"]}
    own = page.post("/v1/quotes", json=request, headers=key("K-shared"))
    assert own.status_code == 201 and own.get_json()["id"] != first.get_json()["id"]
    assert own.get_json()["customer"]["name"] == "Visitor"


def test_another_secret_key_with_the_same_key_and_body_makes_its_own_quote(account):
    first = account["secret"].post("/v1/quotes", json=EXPLICIT, headers=key("K-2"))
    second = account["other_secret"].post("/v1/quotes", json=EXPLICIT, headers=key("K-2"))
    assert first.status_code == second.status_code == 201
    assert first.get_json()["id"] != second.get_json()["id"]
    # ... and the same key with another body is not refused: it was never this key's.
    third = account["page"].post("/v1/sizings", json={**SIZING, "tokens": 2e10},
                                 headers=key("K-2"))
    assert third.status_code == 202


def test_a_retried_quote_is_the_same_quote(catalog_app, account):
    before = count(catalog_app, Quote)
    first = account["secret"].post("/v1/quotes", json=EXPLICIT, headers=key("K-3"))
    again = account["secret"].post("/v1/quotes", json=EXPLICIT, headers=key("K-3"))
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert count(catalog_app, Quote) == before + 1


def test_a_retried_sizing_is_the_same_sizing_with_its_secret(catalog_app, account):
    before = count(catalog_app, Sizing)
    first = account["page"].post("/v1/sizings", json=SIZING, headers=key("S-1"))
    again = account["page"].post("/v1/sizings", json=SIZING, headers=key("S-1"))
    assert first.status_code == 202 and again.status_code in (201, 202)
    # Only the retry says it is one.
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["id"] == first.get_json()["id"]
    assert again.get_json()["client_secret"] == first.get_json()["client_secret"]
    assert count(catalog_app, Sizing) == before + 1
    other = account["page"].post("/v1/sizings", json={**SIZING, "tokens": 3e10}, headers=key("S-1"))
    assert_problem(other, 422, "idempotency_key_reused")


def test_a_key_used_on_another_operation_is_refused(account):
    assert account["secret"].post("/v1/sizings", json=SIZING, headers=key("X-1")).status_code == 202
    assert_problem(account["secret"].post("/v1/quotes", json=EXPLICIT, headers=key("X-1")), 422,
                   "idempotency_key_reused")


def test_a_retried_catalog_change_makes_one_version(tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'changes.sqlite3'}")
    client = authorised(app)
    change = {"note": "retry", "stock": [{"region": "us-east", "server": "hgx-h100-8",
                                          "available_nodes": 7}]}
    first = client.post("/v1/catalog/changes", json=change, headers=key("C-1"))
    again = client.post("/v1/catalog/changes", json=change, headers=key("C-1"))
    assert first.status_code == again.status_code == 201
    assert first.get_json()["id"] == again.get_json()["id"] == 2
    assert len(client.get("/v1/catalog/versions").get_json()) == 2


def test_a_failed_request_leaves_the_key_free(account):
    refused = account["secret"].post("/v1/quotes", json={**EXPLICIT, "currency": "XYZ"},
                                     headers=key("F-1"))
    assert refused.status_code == 422
    assert account["secret"].post("/v1/quotes", json=EXPLICIT, headers=key("F-1")).status_code == 201


def test_a_key_still_being_processed_is_409_with_retry_after(catalog_app, account):
    account["secret"].post("/v1/quotes", json=EXPLICIT, headers=key("P-1"))
    with catalog_app.app_context():
        row = db.session().query(IdempotencyKey).filter_by(key="P-1").one()
        row.state, row.resource_id = "pending", None
        db.session().commit()
    busy = account["secret"].post("/v1/quotes", json=EXPLICIT, headers=key("P-1"))
    assert_problem(busy, 409, "idempotency_key_in_use")
    assert busy.headers["Retry-After"] == "1"
    # A claim nobody finished for longer than a request can take is taken over.
    with catalog_app.app_context():
        row = db.session().query(IdempotencyKey).filter_by(key="P-1").one()
        row.created_at = utcnow() - timedelta(minutes=5)
        db.session().commit()
    assert account["secret"].post("/v1/quotes", json=EXPLICIT, headers=key("P-1")).status_code == 201


def test_a_key_past_its_lifetime_is_new_again(catalog_app, account):
    first = account["secret"].post("/v1/quotes", json=EXPLICIT, headers=key("T-1")).get_json()
    with catalog_app.app_context():
        row = db.session().query(IdempotencyKey).filter_by(key="T-1").one()
        row.created_at = utcnow() - timedelta(hours=25)
        db.session().commit()
    fresh = account["secret"].post("/v1/quotes", json=EXPLICIT, headers=key("T-1"))
    assert fresh.status_code == 201 and fresh.get_json()["id"] != first["id"]


@pytest.mark.parametrize("path, body, model", [("/v1/quotes", EXPLICIT, Quote),
                                                ("/v1/sizings", SIZING, Sizing)])
def test_two_idempotency_keys_are_a_400_naming_the_header(catalog_app, account, path, body,
                                                          model):
    before = count(catalog_app, model)
    response = account["secret"].post(path, json=body, headers=[("Idempotency-Key", "k1"),
                                                                 ("Idempotency-Key", "k2")])
    assert_problem(response, 400, "bad_request")
    assert response.get_json()["errors"][0]["pointer"] == "/headers/Idempotency-Key"
    assert count(catalog_app, model) == before
