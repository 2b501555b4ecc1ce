"""A publishable key is a capability to create, never to browse: tried as a page visitor would."""

from __future__ import annotations

import pytest

from service import accounts, db
from tests.conftest import authorised
from tests.service.test_errors import assert_problem

SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 2},
          "gpu_models": ["h100-sxm"], "currency": "EUR"}
CUSTOMER = {"name": "Ada Visitor", "company": "Visitor GmbH", "email": "ada@visitor.example",
            "country": "DE"}


@pytest.fixture()
def site(catalog_app):
    """An account as a provider runs it: the page's publishable key, the sales team's secret key."""
    with catalog_app.app_context():
        session = db.session()
        account = accounts.create_account(session, "provider")
        _, secret = accounts.create_key(session, account.id, kind="secret")
        _, public = accounts.create_key(session, account.id, kind="publishable")
    return {"page": authorised(catalog_app, public), "sales": authorised(catalog_app, secret)}


def visit(page):
    """One visitor: a sizing and a quote of it, with the client secrets the page keeps."""
    sizing = page.post("/v1/sizings", json=SIZING, headers={"Prefer": "wait=30"})
    assert sizing.status_code == 201, sizing.get_json()
    body = sizing.get_json()
    quote = page.post("/v1/quotes", json={"sizing_id": body["id"], "rank": 1, "customer": CUSTOMER,
                                          "sizing_client_secret": body["client_secret"]})
    assert quote.status_code == 201, quote.get_json()
    return body, quote.get_json()


def test_a_publishable_key_lists_nothing(site):
    visit(site["page"])
    for path in ("/v1/quotes", "/v1/sizings", "/v1/quotes?status=draft", "/v1/sizings?limit=100"):
        assert_problem(site["page"].get(path), 403, "insufficient_scope")


def test_creation_returns_a_client_secret_that_reads_the_object_back(site):
    sizing, quote = visit(site["page"])
    assert sizing["client_secret"].startswith("cs_") and quote["client_secret"].startswith("cs_")
    page = site["page"]
    read = page.get(f"/v1/sizings/{sizing['id']}", headers={"Client-Secret": sizing["client_secret"]})
    assert read.status_code == 200 and read.get_json()["result"]["configurations"]
    assert "client_secret" not in read.get_json(), "the secret is shown only at creation"
    quote_secret = {"Client-Secret": quote["client_secret"]}
    for suffix in ("", "/document", "/export.csv"):
        assert page.get(f"/v1/quotes/{quote['id']}{suffix}", headers=quote_secret).status_code == 200


@pytest.mark.parametrize("kind", ["sizings", "quotes"])
def test_without_its_client_secret_a_visitor_reads_nothing(site, kind):
    sizing, quote = visit(site["page"])
    target = sizing if kind == "sizings" else quote
    page = site["page"]
    url = f"/v1/{kind}/{target['id']}"
    assert_problem(page.get(url), 403, "client_secret_required")
    other = quote if kind == "sizings" else sizing
    for secret in ("cs_" + "A" * 32, other["client_secret"], target["client_secret"] + "x", ""):
        response = page.get(url, headers={"Client-Secret": secret})
        assert response.status_code in (403, 404, 422), response.get_json()
        assert "customer" not in response.get_json() and "result" not in response.get_json()


def test_another_visitor_cannot_quote_a_sizing_without_its_secret(site):
    sizing, _ = visit(site["page"])
    page = site["page"]
    missing = page.post("/v1/quotes", json={"sizing_id": sizing["id"], "customer": CUSTOMER})
    assert_problem(missing, 422, "validation_failed")
    assert [e["pointer"] for e in missing.get_json()["errors"]] == ["/sizing_client_secret"]
    wrong = page.post("/v1/quotes", json={"sizing_id": sizing["id"], "customer": CUSTOMER,
                                          "sizing_client_secret": "cs_" + "B" * 32})
    # The same answer as for a sizing that does not exist: nothing says this one does.
    none = page.post("/v1/quotes", json={"sizing_id": "00000000-0000-4000-8000-000000000000",
                                         "customer": CUSTOMER,
                                         "sizing_client_secret": "cs_" + "B" * 32})
    for answer in (wrong, none):
        assert_problem(answer, 422, "validation_failed")
        assert [e["pointer"] for e in answer.get_json()["errors"]] == ["/sizing_id"]


def test_a_visitor_cannot_cancel_without_the_secret(site):
    sizing, _ = visit(site["page"])
    assert_problem(site["page"].post(f"/v1/sizings/{sizing['id']}/cancel"), 403,
                   "client_secret_required")


def test_the_sales_team_sees_everything_the_page_made(site):
    sizing, quote = visit(site["page"])
    sales = site["sales"]
    quotes = sales.get("/v1/quotes?limit=100").get_json()["items"]
    listed = next(q for q in quotes if q["id"] == quote["id"])
    assert listed["origin"] == "page" and listed["customer"]["email"] == CUSTOMER["email"]
    sizings = sales.get("/v1/sizings?limit=100").get_json()["items"]
    assert next(s for s in sizings if s["id"] == sizing["id"])["origin"] == "page"
    # ... and can tell them from its own.
    own = sales.post("/v1/quotes", json={"sizing_id": sizing["id"], "customer": CUSTOMER})
    assert own.status_code == 201 and own.get_json()["origin"] == "api"
    page_only = sales.get("/v1/quotes?origin=page&limit=100").get_json()["items"]
    assert quote["id"] in [q["id"] for q in page_only]
    assert own.get_json()["id"] not in [q["id"] for q in page_only]
    assert sales.get(f"/v1/sizings/{sizing['id']}").status_code == 200


def test_a_publishable_key_cannot_quote_an_explicit_configuration(site):
    response = site["page"].post("/v1/quotes", json={
        "configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2,
                          "region": "eu-central"}, "customer": CUSTOMER})
    assert_problem(response, 403, "insufficient_scope")


def test_a_visitor_quotes_a_sizing_with_its_secret_in_the_client_secret_header(site):
    page = site["page"]
    sizing = page.post("/v1/sizings", json=SIZING, headers={"Prefer": "wait=30"}).get_json()
    secret = sizing["client_secret"]
    quote = page.post("/v1/quotes", json={"sizing_id": sizing["id"], "customer": CUSTOMER},
                      headers={"Client-Secret": secret})
    assert quote.status_code == 201, quote.get_json()
    assert quote.get_json()["sizing_id"] == sizing["id"]
    both = page.post("/v1/quotes", json={"sizing_id": sizing["id"], "customer": CUSTOMER,
                                         "sizing_client_secret": secret},
                     headers={"Client-Secret": secret})
    assert both.status_code == 201, "the same secret in both places is one secret"
    conflict = page.post("/v1/quotes", json={"sizing_id": sizing["id"], "customer": CUSTOMER,
                                             "sizing_client_secret": "cs_" + "B" * 32},
                         headers={"Client-Secret": secret})
    assert_problem(conflict, 422, "validation_failed")
    assert [e["pointer"] for e in conflict.get_json()["errors"]] == ["/sizing_client_secret"]
    assert "Client-Secret header" in conflict.get_json()["errors"][0]["detail"]
    wrong = page.post("/v1/quotes", json={"sizing_id": sizing["id"], "customer": CUSTOMER},
                      headers={"Client-Secret": "cs_" + "B" * 32})
    assert_problem(wrong, 422, "validation_failed")
    assert [e["pointer"] for e in wrong.get_json()["errors"]] == ["/sizing_id"]
