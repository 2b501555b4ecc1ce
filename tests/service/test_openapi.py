"""openapi.yaml is what the code generates, is valid OpenAPI 3.1, and names every operation."""

from __future__ import annotations

import yaml
from openapi_spec_validator import validate

from service.config import REPO_ROOT

METHODS = {"get", "post", "put", "patch", "delete"}


def generated_spec(app) -> dict:
    with app.app_context():
        return app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()


def test_committed_spec_matches_the_code(catalog_app):
    committed = yaml.safe_load((REPO_ROOT / "openapi.yaml").read_text())
    assert committed == generated_spec(catalog_app), (
        "openapi.yaml is out of date: run `make openapi` and commit it")


def test_spec_is_valid_openapi_31(catalog_app):
    spec = generated_spec(catalog_app)
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def test_every_operation_has_an_operation_id_and_documents_errors(catalog_app):
    spec = generated_spec(catalog_app)
    ids = []
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            assert operation.get("operationId"), f"{method.upper()} {path} has no operationId"
            ids.append(operation["operationId"])
    assert len(ids) == len(set(ids))
    problem = spec["components"]["schemas"]["Problem"]
    assert {"type", "title", "status", "detail", "code"} <= set(problem["required"])


def test_docs_ui_is_served_without_the_internet(client):
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "https://" not in html and "http://" not in html.replace("http://localhost", "")
    asset = client.get("/docs/static/swagger-ui-bundle.js")
    assert asset.status_code == 200 and len(asset.data) > 100_000
