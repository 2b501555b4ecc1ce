"""Every path and method, however odd, answers a problem document; documents carry safe headers."""

from __future__ import annotations

import pytest

from tests.service.test_errors import assert_problem


@pytest.mark.parametrize("path", [
    "//v1//sizings", "/v1//sizings", "//v1/catalog/gpus", "/v1/sizings/", "/v1/sizings//",
    "/v1/sizings/not-a-uuid", "/v1/sizings/%2e%2e/quotes", "/v1/sizings/..%2Fquotes",
    "/v1/catalog/gpus/%00", "/site/../service/config.py", "/site/%2e%2e/%2e%2e/README.md",
    "/static/site/app.js", "/docs/", "/V1/sizings", "/v1/sizings;jsessionid=1",
])
def test_an_odd_path_is_a_404_problem_not_a_redirect(client, path):
    # Given whole, so the test client does not read a leading // as a host name.
    assert_problem(client.get("http://localhost" + path), 404, "not_found")


@pytest.mark.parametrize("path", ["//", "//sizings", "http://localhost//"])
def test_a_path_the_router_would_redirect_is_a_404_problem(client, path):
    assert_problem(client.get(path), 404, "not_found")


@pytest.mark.parametrize("method", ["OPTIONS", "PUT", "DELETE", "TRACE", "PROPFIND", "CONNECT"])
def test_an_unsupported_method_is_a_405_problem_with_allow(client, method):
    response = client.open("/v1/sizings", method=method)
    assert_problem(response, 405, "method_not_allowed")
    assert set(response.headers["Allow"].split(", ")) == {"GET", "HEAD", "POST"}


def test_every_answer_says_nosniff(client):
    for response in (client.get("/healthz"), client.get("/v1/catalog/gpus"), client.get("/nope"),
                     client.get("/"), client.get("/openapi.json")):
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_printable_quote_cannot_run_or_load_anything(client):
    created = client.post("/v1/quotes", json={
        "configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2,
                          "region": "eu-central"},
        "customer": {"name": "<script>alert(1)</script>", "company": "\"><img src=x>"}})
    assert created.status_code == 201, created.get_json()
    document = client.get(f"/v1/quotes/{created.get_json()['id']}/document")
    policy = document.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src" not in policy
    assert "frame-ancestors 'none'" in policy
    assert document.headers["X-Content-Type-Options"] == "nosniff"
    html = document.get_data(as_text=True)
    assert "<script>alert" not in html and "<img src=x>" not in html
