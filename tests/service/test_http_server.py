"""What gunicorn answers before the app sees a request is an RFC 9457 problem too."""

from __future__ import annotations

import pytest

from tests.faults.servers import ApiServer, request, service_env

PROBLEM_JSON = "application/problem+json"


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("http-server")
    server = ApiServer(workdir, service_env(f"sqlite:///{workdir / 'api.sqlite3'}", None),
                       workers=1, threads=2).start()
    yield server
    server.stop()


@pytest.mark.parametrize("path, headers, status, code", [
    # gunicorn reads request lines of up to 4094 bytes.
    ("/v1/catalog/gpus?version=" + "1" * 5000, {}, 414, "uri_too_long"),
    # ... and header fields of up to 8190 bytes.
    ("/healthz", {"X-Padding": "p" * 9000}, 431, "headers_too_large"),
])
def test_a_request_gunicorn_refuses_gets_a_problem_not_html(api, path, headers, status, code):
    answer_status, answer_headers, body = request(api.port, "GET", path, headers=headers)
    assert answer_status == status
    assert answer_headers["Content-Type"] == PROBLEM_JSON
    assert body["status"] == status and body["code"] == code
    assert body["type"].endswith(code.replace("_", "-")) and body["title"] and body["detail"]


def test_the_server_still_answers_after_refusing(api):
    assert request(api.port, "GET", "/healthz")[0] == 200
