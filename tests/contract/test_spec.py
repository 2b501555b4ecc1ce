"""openapi.yaml documents every operation fully: names, tags, examples, security and each error."""

from __future__ import annotations

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
