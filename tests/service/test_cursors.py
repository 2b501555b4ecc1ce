"""List cursors are signed: one the API did not make for this list is a 422, never a page."""

from __future__ import annotations

import base64
import json

import pytest

from tests.conftest import authorised, new_key
from tests.service.test_errors import assert_problem

EXPLICIT = {"configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2,
                              "region": "eu-central"}, "customer": {"name": "Ada"}}


def b64(value) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


@pytest.fixture()
def lister(catalog_app):
    client = authorised(catalog_app, new_key(catalog_app))
    for _ in range(3):
        assert client.post("/v1/quotes", json=EXPLICIT).status_code == 201
    cursor = client.get("/v1/quotes?limit=1").get_json()["next_cursor"]
    assert cursor
    return client, cursor


@pytest.mark.parametrize("forged", [
    b64(["2099-01-01T00:00:00+00:00", "ffffffff-ffff-4fff-bfff-ffffffffffff"]),
    b64(["2099-01-01T00:00:00", "x"]), b64({"a": 1}), b64([1, 2]), "garbage", "", "=",
    "a.b", b64(["2099-01-01T00:00:00+00:00", "x"]) + "." + "A" * 22,
])
def test_a_forged_cursor_is_a_422_naming_it(lister, forged):
    client, _ = lister
    response = client.get(f"/v1/quotes?cursor={forged}")
    body = assert_problem(response, 422, "validation_failed")
    assert body["errors"][0]["pointer"] == "/query/cursor"


def test_a_cursor_with_one_character_changed_is_refused(lister):
    client, cursor = lister
    changed = cursor[:-1] + ("A" if cursor[-1] != "A" else "B")
    assert_problem(client.get(f"/v1/quotes?cursor={changed}"), 422, "validation_failed")
    assert client.get(f"/v1/quotes?limit=1&cursor={cursor}").status_code == 200


def test_a_cursor_is_for_its_own_list_account_and_filters(catalog_app, lister):
    client, cursor = lister
    assert_problem(client.get(f"/v1/sizings?cursor={cursor}"), 422, "validation_failed")
    assert_problem(client.get(f"/v1/quotes?limit=1&status=sent&cursor={cursor}"), 422,
                   "validation_failed")
    other = authorised(catalog_app, new_key(catalog_app))
    assert_problem(other.get(f"/v1/quotes?cursor={cursor}"), 422, "validation_failed")
