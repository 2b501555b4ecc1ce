"""Every input is taken exactly as the spec types it: no truncation, coercion or half-matches."""

from __future__ import annotations

import pytest

from tests.service.test_errors import assert_problem

SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 2},
          "gpu_models": ["h100-sxm"]}
QUOTE = {"configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2,
                           "region": "eu-central"},
         "customer": {"name": "Ada", "country": "DE"}}
ESTIMATE = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 1},
            "workload": {"preset": "llama-3-8b"},
            "training": {"global_batch": 64, "micro_batch": 1, "precision": "bf16"},
            "layout": {"dp": 8}}


def pointers(response) -> list[str]:
    return [e["pointer"] for e in response.get_json()["errors"]]


@pytest.mark.parametrize("change, pointer", [
    ({"nodes": {"min": 1.5, "max": 2}}, "/nodes/min"),
    ({"layout": {"dp": 32.5}}, "/layout/dp"),
    ({"layout": {"tp": "2"}}, "/layout/tp"),
    ({"tokens": "1e12"}, "/tokens"),
    ({"tokens": True}, "/tokens"),
    ({"rdma_required": "yes"}, "/rdma_required"),
    ({"rdma_required": 1}, "/rdma_required"),
    ({"currency": "EUR\n"}, "/currency"),
    ({"region": "us-east\n"}, "/region"),
    ({"budget_per_month": "250000.00\n"}, "/budget_per_month"),
    ({"budget_per_month": "\u0661\u0660\u0660"}, "/budget_per_month"),
    ({"gpu_models": ["h100-sxm"] * 10_000}, "/gpu_models"),
    ({"fabrics_exclude": ["ib-ndr-400"] * 51}, "/fabrics_exclude"),
    ({"gpu_models": ["H100 SXM"]}, "/gpu_models/0"),
])
def test_a_sizing_field_of_the_wrong_kind_is_named(client, change, pointer):
    response = client.post("/v1/sizings", json={**SIZING, **change})
    assert_problem(response, 422, "validation_failed")
    assert pointer in pointers(response)


def test_a_whole_number_written_with_a_point_is_a_whole_number(client):
    response = client.post("/v1/sizings", json={**SIZING, "nodes": {"min": 1.0, "max": 2.0}})
    assert response.status_code == 202, response.get_json()
    assert response.get_json()["request"]["nodes"] == {"min": 1, "max": 2}


@pytest.mark.parametrize("customer, pointer", [
    ({"name": "Ada", "country": "DE\n"}, "/customer/country"),
    ({"name": "Ada", "country": "de"}, "/customer/country"),
    ({"name": "Ada\u0000", "country": "DE"}, "/customer/name"),
    ({"name": "Ada", "company": "Evil\u001b[31m Corp"}, "/customer/company"),
    ({"name": "Ada", "email": "ada@example.com\n"}, "/customer/email"),
    ({"name": "Ada", "email": "a" * 250 + "@example.com"}, "/customer/email"),
    ({"name": ""}, "/customer/name"),
])
def test_a_customer_field_of_the_wrong_kind_is_named(client, customer, pointer):
    response = client.post("/v1/quotes", json={**QUOTE, "customer": customer})
    assert_problem(response, 422, "validation_failed")
    assert pointer in pointers(response)


@pytest.mark.parametrize("sizing_id", ["{12345678-1234-4234-8234-123456789abc}",
                                       "urn:uuid:12345678-1234-4234-8234-123456789abc",
                                       "12345678123442348234123456789abc",
                                       "12345678-1234-4234-8234-123456789abc\n"])
def test_a_sizing_id_is_a_canonical_uuid(client, sizing_id):
    response = client.post("/v1/quotes", json={"sizing_id": sizing_id,
                                               "customer": {"name": "Ada"}})
    assert_problem(response, 422, "validation_failed")
    assert "/sizing_id" in pointers(response)


@pytest.mark.parametrize("change, pointer", [
    ({"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 1.5}}, "/cluster/nodes"),
    ({"training": {"global_batch": "64"}}, "/training/global_batch"),
    ({"layout": {"dp": 8, "sequence_parallel": "false"}}, "/layout/sequence_parallel"),
])
def test_an_estimate_field_of_the_wrong_kind_is_named(client, change, pointer):
    response = client.post("/v1/estimates", json={**ESTIMATE, **change})
    assert_problem(response, 422, "validation_failed")
    assert pointer in pointers(response)


@pytest.mark.parametrize("query, pointer", [
    ("/v1/sizings?limit=%D9%A3", "/query/limit"),
    ("/v1/sizings?limit=1e1", "/query/limit"),
    ("/v1/sizings?limit=1_0", "/query/limit"),
    ("/v1/sizings?limit=+5", "/query/limit"),
    ("/v1/catalog/fabrics?rdma=yes", "/query/rdma"),
    ("/v1/catalog/fabrics?rdma=1", "/query/rdma"),
    ("/v1/catalog/gpus?version=1.0", "/query/version"),
    ("/v1/quotes?created_from=9999-12-31T23:59:59-14:00", "/query/created_from"),
])
def test_a_query_parameter_of_the_wrong_kind_is_named(client, query, pointer):
    response = client.get(query)
    assert_problem(response, 422, "validation_failed")
    assert pointer in pointers(response)


def test_exact_query_values_are_accepted(client):
    assert client.get("/v1/catalog/fabrics?rdma=true").status_code == 200
    assert client.get("/v1/sizings?limit=05").status_code == 200


def test_a_lone_surrogate_is_not_text(client):
    body = '{"configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2, ' \
           '"region": "eu-central"}, "customer": {"name": "Ada \\ud800"}}'
    response = client.post("/v1/quotes", data=body, content_type="application/json")
    assert_problem(response, 400, "invalid_json")


def test_an_escaped_backslash_before_u_is_plain_text(client):
    body = '{"configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2, ' \
           '"region": "eu-central"}, "customer": {"name": "Ada \\\\ud800"}}'
    response = client.post("/v1/quotes", data=body, content_type="application/json")
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["customer"]["name"] == "Ada \\ud800"


@pytest.mark.parametrize("change, pointer", [
    ({"server_prices": [{"server": "hgx-h100-8", "region": "us-east", "monthly_usd": 1e4}]},
     "/server_prices/0/monthly_usd"),
    ({"server_prices": [{"server": "hgx-h100-8", "region": "us-east", "monthly_usd": "1e4"}]},
     "/server_prices/0/monthly_usd"),
    ({"stock": [{"region": "us-east", "server": "hgx-h100-8", "available_nodes": 4.5}]},
     "/stock/0/available_nodes"),
])
def test_a_catalog_change_of_the_wrong_kind_is_named(client, change, pointer):
    response = client.post("/v1/catalog/changes", json={"note": "test", **change})
    assert_problem(response, 422, "validation_failed")
    assert pointer in pointers(response)
