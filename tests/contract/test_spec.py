"""openapi.yaml documents every operation fully: names, tags, examples, security and each error."""

from __future__ import annotations

import re

import pytest
import yaml

from service import accounts, db
from service.config import REPO_ROOT
from tests.conftest import authorised, build_app, new_key

METHODS = {"get", "post", "put", "patch", "delete"}
SPEC = yaml.safe_load((REPO_ROOT / "openapi.yaml").read_text())
OPERATIONS = [(method, path, operation) for path, item in SPEC["paths"].items()
              for method, operation in item.items() if method in METHODS]
IDS = [operation["operationId"] for _, _, operation in OPERATIONS]


def resolved(response: dict) -> dict:
    if "$ref" in response:
        return SPEC["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    return response


@pytest.mark.parametrize(("method", "path", "operation"), OPERATIONS, ids=IDS)
def test_operation_is_named_tagged_and_documents_its_errors(method, path, operation):
    assert operation["operationId"] and operation["tags"] and operation["summary"]
    responses = operation["responses"]
    assert "default" not in responses, "list each status; a catch-all hides undocumented ones"
    expected = {"500"}
    if operation.get("security"):
        expected |= {"401", "403", "429", "503"}
    if "requestBody" in operation:
        expected |= {"400", "413", "422"}
    if "{" in path:
        expected.add("404")
    assert expected <= set(responses), f"undocumented: {sorted(expected - set(responses))}"
    for status, response in responses.items():
        if int(status) >= 400:
            content = resolved(response)["content"]
            assert content == {"application/problem+json": {
                "schema": {"$ref": "#/components/schemas/Problem"}}}, status


def test_security_schemes_are_declared_and_used():
    schemes = SPEC["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == {**schemes["bearerAuth"], "type": "http", "scheme": "bearer"}
    assert schemes["apiKeyHeader"]["in"] == "header"
    for method, path, operation in OPERATIONS:
        for requirement in operation.get("security", []):
            assert set(requirement) <= set(schemes), f"{method.upper()} {path}"


@pytest.fixture(scope="module")
def example_client(tmp_path_factory):
    app = build_app(f"sqlite:///{tmp_path_factory.mktemp('examples') / 'examples.sqlite3'}")
    yield authorised(app, new_key(app, scopes=accounts.SCOPES))
    with app.app_context():
        db.engine().dispose()


BODIES = [(m, p, o) for m, p, o in OPERATIONS if "requestBody" in o]


@pytest.mark.parametrize(("method", "path", "operation"), BODIES,
                         ids=[o["operationId"] for _, _, o in BODIES])
def test_request_example_is_accepted_as_shown(example_client, method, path, operation):
    example = operation["requestBody"]["content"]["application/json"]["example"]
    headers = {}
    if "{quote_id}" in path:
        quote_example = SPEC["paths"]["/v1/quotes"]["post"]["requestBody"]["content"][
            "application/json"]["example"]
        quote = example_client.post("/v1/quotes", json=quote_example)
        path = path.replace("{quote_id}", quote.get_json()["id"])
        headers["If-Match"] = quote.headers["ETag"]
    response = example_client.open(path, method=method.upper(), json=example, headers=headers)
    assert 200 <= response.status_code < 300, response.get_json()
    if path == "/v1/estimates":
        # an example a partner copies is a configuration a sizing could offer
        assert response.get_json()["memory"]["fits"], response.get_json()["memory"]


def component(name: str):
    """A validator of one component schema, with its references resolved inside the spec."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry = Registry().with_resource("urn:spec", Resource.from_contents(
        {"$schema": "https://json-schema.org/draft/2020-12/schema", **SPEC}))
    return Draft202012Validator({"$ref": f"urn:spec#/components/schemas/{name}"},
                                registry=registry)


LLAMA = {"preset": "llama-3-8b"}
CUSTOM = {"layers": 2, "hidden": 256, "heads": 4, "vocab": 1000, "seq_len": 128}
FABRIC = {"kind": "roce", "line_rate_gbps": 400, "rdma": True, "lossless": True}


@pytest.mark.parametrize("name, document, valid", [
    ("Workload", LLAMA, True),
    ("Workload", {"transformer": CUSTOM}, True),
    ("Workload", {**LLAMA, "transformer": CUSTOM}, False),
    ("Workload", {}, False),
    ("Workload", {"transformer": CUSTOM, "seq_len": 1024}, False),
    ("QuoteRequest", {"sizing_id": "8e0c3f0a-6a2e-4c7e-9b1a-2f4e6a8c0d1e",
                      "customer": {"name": "Ada"}}, True),
    ("QuoteRequest", {"customer": {"name": "Ada"}}, False),
    ("QuoteRequest", {"sizing_id": "8e0c3f0a-6a2e-4c7e-9b1a-2f4e6a8c0d1e", "customer": {
        "name": "Ada"}, "configuration": {"server": "a", "fabric": "b", "nodes": 1,
                                          "region": "c"}}, False),
    ("QuoteRequest", {"configuration": {"server": "a", "fabric": "b", "nodes": 1, "region": "c"},
                      "rank": 1, "customer": {"name": "Ada"}}, False),
    ("CustomFabric", FABRIC, True),
    ("CustomFabric", {**FABRIC, "rdma": False}, False),
    ("CustomFabric", {**FABRIC, "kind": "ethernet"}, False),
    ("CustomFabric", {**FABRIC, "kind": "ethernet", "rdma": False}, True),
    ("Cluster", {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 1}, True),
    ("Cluster", {"fabric": "ib-ndr-400", "nodes": 1}, False),
    ("SizingRequest", {"workload": LLAMA, "tokens": 1e12}, True),
    ("SizingRequest", {"workload": LLAMA, "samples": 1e6}, False),
    ("SizingRequest", {"workload": LLAMA}, False),
    ("SizingRequest", {"workload": {"preset": "resnet-50"}, "epochs": 90}, True),
    ("SizingRequest", {"workload": {"preset": "resnet-50"}, "tokens": 1e12}, False),
    ("SizingRequest", {"workload": {"generic": {"params": 1e6, "flops_per_sample": 1e9}},
                       "epochs": 3}, False),
    ("CatalogChange", {"note": "x", "stock": []}, False),
    ("CatalogChange", {"note": "x", "stock": [{"region": "us-east", "server": "a"}]}, True),
])
def test_the_spec_states_the_rules_across_fields(name, document, valid):
    assert component(name).is_valid(document) is valid


def test_if_match_is_required_where_its_absence_is_428():
    for method, path, operation in OPERATIONS:
        if "428" in operation["responses"]:
            (header,) = [p for p in operation["parameters"] if p["name"] == "If-Match"]
            assert header["required"] is True, f"{method.upper()} {path}"


def test_scaling_efficiency_is_described_as_the_figure_it_is():
    """(compute + optimizer) / step counts recomputed FLOPs and the optimizer as work, so it is
    not a linear-scaling ratio: every schema that carries it says so and points to the
    one-node comparison."""
    found = {name: schema["properties"]["scaling_efficiency"]["description"]
             for name, schema in SPEC["components"]["schemas"].items()
             if "scaling_efficiency" in schema.get("properties", {})}
    assert found
    for name, description in found.items():
        assert "spent on GPU work" in description and "recomputation included" in description, name
        assert "efficiency_vs_one_node" in description, name
        assert "is perfectly linear scaling" not in description, name


def _expanded(path: str) -> list[str]:
    """`/a/{b,c}[/{id}]` as the paths it stands for: /a/b, /a/b/{id}, /a/c, /a/c/{id}."""
    optional = re.fullmatch(r"(.*)\[(.*)\]", path)
    if optional:
        return _expanded(optional[1]) + _expanded(optional[1] + optional[2])
    choice = re.search(r"\{([^{}]*,[^{}]*)\}", path)
    if choice:
        return [p for option in choice[1].split(",")
                for p in _expanded(path[:choice.start()] + option + path[choice.end():])]
    return [path]


def _shape(path: str) -> str:
    return re.sub(r"\{[^{}]*\}", "{}", path)


def test_every_path_of_the_readmes_api_table_is_in_the_spec():
    """The README's "API at a glance" names no path the API does not answer (it listed
    /v1/catalog/rdma-support/{id}, a 404)."""
    readme = (REPO_ROOT / "README.md").read_text()
    table = readme.split("### API at a glance", 1)[1].split("\n\n", 2)[1]
    said = {(method.lower(), p) for method, path in re.findall(r"`(GET|POST|PATCH) ([^` ]+)`", table)
            for p in _expanded(path)}
    assert len(said) > 20, table
    served = {(method, _shape(path)) for method, path, _ in OPERATIONS}
    # /metrics is Prometheus's text exposition, not a JSON operation of the OpenAPI document.
    missing = {(m, p) for m, p in said if (m, _shape(p)) not in served and p != "/metrics"}
    assert not missing, missing
