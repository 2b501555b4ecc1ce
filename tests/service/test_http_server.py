"""What gunicorn answers before the app sees a request is an RFC 9457 problem too."""

from __future__ import annotations

import http.client
import json
import socket

import pytest

from service import db
from tests.conftest import build_app
from tests.faults.servers import ApiServer, request, service_env

PROBLEM_JSON = "application/problem+json"


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("http-server")
    database_url = f"sqlite:///{workdir / 'api.sqlite3'}"
    app = build_app(database_url)
    with app.app_context():
        db.engine().dispose()
    server = ApiServer(workdir, service_env(database_url, None, BODY_READ_TIMEOUT_S="2"),
                       workers=1, threads=2).start()
    server.key = app.config["TEST_KEY"]
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
    assert answer_headers["X-Content-Type-Options"] == "nosniff"
    assert body["status"] == status and body["code"] == code
    assert body["type"].endswith(code.replace("_", "-")) and body["title"] and body["detail"]


@pytest.mark.parametrize("target, status", [
    ("//v1//sizings", 404), ("//", 404), ("//v1", 404), ("/v1//catalog/gpus", 404),
    ("//healthz?x=//", 404), ("", 400), ("*", 400)])
def test_a_doubled_or_missing_slash_is_a_problem_not_a_redirect(api, target, status):
    answer_status, headers, body = raw_get(api.port, target)
    assert answer_status == status, (answer_status, headers)
    assert headers["Content-Type"] == PROBLEM_JSON and body["status"] == status


@pytest.mark.parametrize("request_line", [b"GET / HTTP/1.1 extra", b"GET", b"\x01 / HTTP/1.1"])
def test_a_malformed_request_line_gets_a_problem_that_says_nosniff(api, request_line):
    answer = raw_exchange(api.port, request_line + b"\r\nHost: test\r\n\r\n")
    head = answer.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    assert head[0].startswith("HTTP/1.1 400"), head
    headers = dict(line.split(": ", 1) for line in head[1:])
    assert headers["Content-Type"] == PROBLEM_JSON
    assert headers["X-Content-Type-Options"] == "nosniff"


def raw_get(port: int, target: str):
    """A GET with the request target exactly as given (http.client would normalise it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, json.loads(body) if body else None


def chunked_post(port: int, key: str, body: bytes) -> bytes:
    """POST a body in 64 KiB chunks without a Content-Length; the raw answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"POST /v1/estimates HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {key}"
                     "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                     "Connection: close\r\n\r\n".encode())
        try:
            for start in range(0, len(body), 65536):
                part = body[start:start + 65536]
                sock.sendall(b"%x\r\n%s\r\n" % (len(part), part))
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server may answer and close before it has read everything
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer


def test_a_chunked_body_over_the_limit_is_413_not_a_parse_error(api):
    answer = chunked_post(api.port, api.key, b'{"cluster": "' + b"x" * 2_000_000 + b'"}')
    assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
    assert b"application/problem+json" in answer and b'"code": "body_too_large"' in answer


def test_a_chunked_body_under_the_limit_is_read_whole(api):
    answer = chunked_post(api.port, api.key, b'{"cluster": "' + b"x" * 100_000 + b'"}')
    assert answer.startswith(b"HTTP/1.1 422"), answer[:300]
    assert b'"pointer": "/cluster"' in answer


def test_the_server_still_answers_after_refusing(api):
    assert request(api.port, "GET", "/healthz")[0] == 200


def raw_exchange(port: int, data: bytes, timeout_s: float = 30) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_a_body_shorter_than_its_content_length_is_408_not_a_held_thread(api):
    answer = raw_exchange(api.port, (
        f"POST /v1/estimates HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {api.key}\r\n"
        "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"cluster\":").encode())
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"application/problem+json" in answer and b'"code": "request_timeout"' in answer


@pytest.mark.parametrize("coding", ["gzip", "identity", "chunked, gzip", "x-made-up"])
def test_an_unknown_transfer_coding_is_a_4xx_problem(api, coding):
    answer = raw_exchange(api.port, (
        f"POST /v1/estimates HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: {coding}\r\n"
        "Content-Type: application/json\r\nConnection: close\r\n\r\n0\r\n\r\n").encode())
    status = int(answer.split(b" ", 2)[1])
    assert 400 <= status < 500, answer[:200]
    assert b"application/problem+json" in answer


def test_two_idempotency_key_fields_gunicorn_joins_are_a_400(api):
    # http.client sends each putheader as its own field; gunicorn joins them as "k1,k2".
    conn = http.client.HTTPConnection("127.0.0.1", api.port, timeout=30)
    payload = json.dumps({"note": "twice", "stock": [
        {"region": "us-east", "server": "hgx-h100-8", "available_nodes": 3}]}).encode()
    try:
        conn.putrequest("POST", "/v1/catalog/changes")
        for name, value in (("Authorization", f"Bearer {api.key}"),
                            ("Content-Type", "application/json"),
                            ("Content-Length", str(len(payload))),
                            ("Idempotency-Key", "k1"), ("Idempotency-Key", "k2")):
            conn.putheader(name, value)
        conn.endheaders(payload)
        response = conn.getresponse()
        body = json.loads(response.read())
    finally:
        conn.close()
    assert response.status == 400 and response.getheader("Content-Type") == PROBLEM_JSON
    assert body["errors"][0]["pointer"] == "/headers/Idempotency-Key"


def test_servers_on_one_machine_open_no_shared_control_socket(tmp_path):
    runtime = tmp_path / "run"
    runtime.mkdir()
    env = service_env(f"sqlite:///{tmp_path / 'ctl.sqlite3'}", None, HOME=str(tmp_path),
                      XDG_RUNTIME_DIR=str(runtime))
    app = build_app(env["DATABASE_URL"])
    with app.app_context():
        db.engine().dispose()
    servers = [ApiServer(tmp_path, env, workers=1, threads=1).start() for _ in range(2)]
    try:
        # gunicorn's default path for it, the same for both.
        assert not (runtime / "gunicorn.ctl").exists()
        assert not (tmp_path / ".gunicorn").exists()
        servers[0].stop()
        assert request(servers[1].port, "GET", "/healthz")[0] == 200
    finally:
        for server in servers:
            server.stop()
