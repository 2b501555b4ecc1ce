"""Request bodies are read exactly: JSON only, bounded depth, one value per name, finite numbers."""

from __future__ import annotations

import pytest

from tests.service.test_errors import assert_problem

# Every operation that reads a JSON body, with the method that sends it.
JSON_OPERATIONS = [
    ("POST", "/v1/sizings"),
    ("POST", "/v1/estimates"),
    ("POST", "/v1/estimates/collectives"),
    ("POST", "/v1/quotes"),
    ("POST", "/v1/catalog/changes"),
    ("PATCH", "/v1/quotes/00000000-0000-4000-8000-000000000000"),
    ("POST", "/v1/quotes/00000000-0000-4000-8000-000000000000/reprice"),
]


@pytest.mark.parametrize("method, path", JSON_OPERATIONS)
def test_json_nested_ten_thousand_deep_is_a_400_problem(client, method, path):
    body = "[" * 10_000 + "]" * 10_000
    response = client.open(path, method=method, data=body, content_type="application/json")
    problem = assert_problem(response, 400, "invalid_json")
    assert "deep" in problem["detail"]


@pytest.mark.parametrize("method, path", JSON_OPERATIONS)
def test_objects_nested_past_the_limit_are_refused_before_parsing(client, method, path):
    body = '{"a":' * 40 + "1" + "}" * 40
    response = client.open(path, method=method, data=body, content_type="application/json")
    assert_problem(response, 400, "invalid_json")


@pytest.mark.parametrize("body", [
    b"{}", b"[]", b'{"a": [1, {"b": []}]}', b'"[[[["', b"[" * 16 + b"]" * 16,
    b"[" * 17 + b"]" * 17, b"[]" * 20, b'{"a": "' + b"{" * 30 + b'"}', b"[" * 17,
])
def test_the_bracket_count_shortcut_agrees_with_the_depth(body):
    from service.json_body import MAX_DEPTH, deeper_than, nesting_depth

    assert deeper_than(body, MAX_DEPTH) == (nesting_depth(body) > MAX_DEPTH)


def test_brackets_inside_strings_do_not_count_as_depth(client):
    body = '{"workload": {"preset": "' + "[" * 5000 + '"}, "tokens": 1e10}'
    response = client.post("/v1/sizings", data=body, content_type="application/json")
    body = assert_problem(response, 422, "validation_failed")
    assert [e["pointer"] for e in body["errors"]] == ["/workload/preset"]


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
def test_non_finite_numbers_are_not_json(client, literal):
    body = '{"workload": {"preset": "llama-3-8b"}, "tokens": ' + literal + '}'
    response = client.post("/v1/sizings", data=body, content_type="application/json")
    assert_problem(response, 400, "invalid_json")


def test_a_name_given_twice_is_refused_not_half_read(client):
    body = '{"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "tokens": 1e20}'
    response = client.post("/v1/sizings", data=body, content_type="application/json")
    problem = assert_problem(response, 400, "invalid_json")
    assert problem["errors"] == [{"pointer": "/tokens", "detail": "given more than once"}]


def test_a_nested_name_given_twice_names_its_pointer(client):
    body = '{"workload": {"preset": "llama-3-8b", "preset": "llama-3-70b"}, "tokens": 1e10}'
    response = client.post("/v1/sizings", data=body, content_type="application/json")
    problem = assert_problem(response, 400, "invalid_json")
    assert problem["errors"] == [{"pointer": "/workload/preset", "detail": "given more than once"}]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "application/xml", "multipart/form-data; boundary=x",
                                          "application/json; charset=latin-1"])
def test_a_body_that_is_not_json_is_a_415_problem(client, content_type):
    response = client.post("/v1/sizings", data=b'{"workload": {"preset": "llama-3-8b"}}',
                           content_type=content_type)
    assert_problem(response, 415, "unsupported_media_type")


def test_json_with_a_utf8_charset_is_json(client):
    response = client.post("/v1/estimates/collectives", content_type="application/json; charset=utf-8",
                           data=b'{"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", '
                                b'"nodes": 2}, "operation": "all_reduce", "size_bytes": 1048576}')
    assert response.status_code == 200, response.get_json()


@pytest.mark.parametrize("raw", [b'{"a": "\xff"}', b"\xef\xbb\xbf{}", b'"just a string"', b"[]",
                                 b"", b"   "])
def test_bytes_that_are_not_a_json_object_are_refused(client, raw):
    response = client.post("/v1/sizings", data=raw, content_type="application/json")
    assert response.status_code in (400, 422), response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"


@pytest.mark.parametrize("method, path", JSON_OPERATIONS[:-1])
@pytest.mark.parametrize("raw", [b"", b"  \r\n"])
def test_an_empty_body_that_says_it_is_json_is_a_400(client, method, path, raw):
    response = client.open(path, method=method, data=raw, content_type="application/json")
    assert_problem(response, 400, "invalid_json")
    assert [e["pointer"] for e in response.get_json()["errors"]] == ["/"]


def test_no_body_at_all_is_a_422_naming_the_required_fields(client):
    response = client.post("/v1/estimates")
    assert_problem(response, 422, "validation_failed")
    assert {e["pointer"] for e in response.get_json()["errors"]} >= {"/cluster", "/workload"}


def test_an_optional_body_may_be_empty_as_the_partner_client_sends_it(client):
    created = client.post("/v1/quotes", json={
        "configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 4,
                          "region": "eu-central"}, "customer": {"name": "Ada", "country": "DE"}})
    repriced = client.post(f"/v1/quotes/{created.get_json()['id']}/reprice", data=b"",
                           content_type="application/json",
                           headers={"If-Match": created.headers["ETag"]})
    assert repriced.status_code == 200, repriced.get_json()


@pytest.mark.parametrize("number, pointer, detail", [
    ("1" * 5001, "/tokens", "number too long (more than 1000 digits)"),
    ("-" + "9" * 1001, "/tokens", "number too long (more than 1000 digits)"),
    ("1" * 5001 + "e0", "/tokens", "number beyond the range of a double"),
])
def test_a_number_no_field_can_take_is_a_plain_400_naming_where_it_is(client, number, pointer,
                                                                       detail):
    body = '{"workload": {"preset": "llama-3-8b"}, "tokens": ' + number + '}'
    response = client.post("/v1/sizings", data=body, content_type="application/json")
    problem = assert_problem(response, 400, "invalid_json")
    assert problem["errors"] == [{"pointer": pointer, "detail": detail}]
    # Neither the interpreter's advice nor the number itself comes back.
    assert "sys." not in problem["detail"] and number[:40] not in problem["detail"]


def test_a_long_number_deep_in_a_list_is_named_by_its_pointer(client):
    body = ('{"workload": {"preset": "llama-3-8b"}, "tokens": 1e12, "gpu_models": ["h100-sxm", '
            + "7" * 2000 + "]}")
    response = client.post("/v1/sizings", data=body, content_type="application/json")
    problem = assert_problem(response, 400, "invalid_json")
    assert [e["pointer"] for e in problem["errors"]] == ["/gpu_models/1"]


def test_an_integer_of_many_digits_within_the_limit_is_the_field_s_422(client):
    body = '{"workload": {"preset": "llama-3-8b"}, "tokens": ' + "1" * 400 + '}'
    response = client.post("/v1/sizings", data=body, content_type="application/json")
    problem = assert_problem(response, 422, "validation_failed")
    assert [e["pointer"] for e in problem["errors"]] == ["/tokens"]
