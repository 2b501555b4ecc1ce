"""Every error, from every layer, is an RFC 9457 problem and never a stack trace."""

from __future__ import annotations

import json

import pytest
from sqlalchemy.exc import OperationalError

from tests.conftest import authorised

PROBLEM = "application/problem+json"


def assert_problem(response, status: int, code: str):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM
    body = response.get_json(force=True)
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"].endswith(code.replace("_", "-"))
    assert body["title"] and body["detail"]
    text = response.get_data(as_text=True)
    assert "Traceback" not in text and "SELECT" not in text
    return body


def test_unknown_route_is_a_404_problem(client):
    assert_problem(client.get("/v1/no-such-thing"), 404, "not_found")


def test_wrong_method_is_a_405_problem_with_allow(client):
    response = client.delete("/v1/catalog/gpus")
    assert_problem(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"]


def test_unknown_query_parameter_is_named(client):
    body = assert_problem(client.get("/v1/catalog/gpus?colour=red"), 422, "validation_failed")
    assert {"pointer": "/query/colour", "detail": "Unknown field."} in body["errors"]


def test_bad_query_value_is_named(client):
    body = assert_problem(client.get("/v1/catalog/servers?min_gpus=lots"), 422, "validation_failed")
    assert body["errors"][0]["pointer"] == "/query/min_gpus"


def test_a_query_parameter_given_twice_is_named_not_half_read(client):
    body = assert_problem(client.get("/v1/sizings?limit=5&limit=7"), 422, "validation_failed")
    assert body["errors"] == [{"pointer": "/query/limit",
                               "detail": "Given more than once; this parameter takes one value."}]
    assert client.get("/v1/sizings?limit=5").status_code == 200


def test_huge_body_is_a_413_problem(catalog_app):
    client = authorised(catalog_app)
    limit = catalog_app.config["MAX_CONTENT_LENGTH"]
    response = client.post("/v1/sizings", data=b"{" + b" " * limit + b"}",
                           content_type="application/json")
    assert_problem(response, 413, "body_too_large")


def test_unexpected_exception_is_a_500_problem_without_trace(catalog_app, monkeypatch):
    from catalog import queries

    def explode(*args, **kwargs):
        raise RuntimeError("secret internals /etc/passwd")

    monkeypatch.setattr(queries, "gpus", explode)
    response = authorised(catalog_app).get("/v1/catalog/gpus")
    body = assert_problem(response, 500, "internal_error")
    assert "secret" not in json.dumps(body)


def test_a_nan_in_an_answer_is_a_logged_500_never_invalid_json(catalog_app, monkeypatch):
    from service import estimates

    def not_a_number(*args, **kwargs):
        return {"operation": "all_reduce", "size_bytes": 1.0, "ranks": 2, "time_s": 0.0,
                "algbw_gbs": float("inf"), "busbw_gbs": float("nan")}

    monkeypatch.setattr(estimates, "run_collective", not_a_number)
    response = authorised(catalog_app).post("/v1/estimates/collectives", json={
        "cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2},
        "operation": "all_reduce", "size_bytes": 1.0})
    assert_problem(response, 500, "internal_error")
    assert b"NaN" not in response.data and b"Infinity" not in response.data


def test_database_outage_is_a_503_problem(catalog_app, monkeypatch):
    from catalog import queries

    def unreachable(*args, **kwargs):
        raise OperationalError("SELECT secret FROM t", {}, Exception("connection refused"))

    monkeypatch.setattr(queries, "gpus", unreachable)
    response = authorised(catalog_app).get("/v1/catalog/gpus")
    body = assert_problem(response, 503, "database_unavailable")
    assert "secret" not in json.dumps(body)
    assert response.headers["Retry-After"]


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_health_probes_answer(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.get_json()["status"] == "ok"
