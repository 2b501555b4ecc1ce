"""The deployment as it runs: nginx in front of gunicorn, PostgreSQL, Redis and real workers.

Slow clients cost nginx a connection, never a gunicorn thread; nginx's own refusals are problem
documents; a burst of sizings from the page's publishable key meets its account's cap while
another account's sizings still finish.
"""

from __future__ import annotations

import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from service import accounts, create_app, db
from service.config import Config
from tests.faults.conftest import FINAL, SMALL_SIZING, Stack
from tests.faults.servers import NginxServer, request

PROBLEM_JSON = "application/problem+json"
ESTIMATE = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2},
            "operation": "all_reduce", "size_bytes": 1048576}
# The page's default questionnaire (llama-3-8b, 1-16 nodes, any GPU): a second or so of a worker.
PAGE_SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e12, "nodes": {"min": 1, "max": 16}}


@pytest.fixture(scope="module")
def proxied(pg_cluster, redis_server, tmp_path_factory):
    """The API behind nginx, as compose.yaml runs it; no workers (nothing here is sized)."""
    stack = Stack(tmp_path_factory.mktemp("proxied"), pg_cluster, redis_server)
    api = stack.api(TRUSTED_PROXIES="1")
    nginx = NginxServer(stack.workdir, api.port).start()
    stack.processes.append(nginx)
    yield stack, nginx
    stack.close()


class Dripper(threading.Thread):
    """A client sending its request a byte at a time, as a slow-loris attack does."""

    def __init__(self, port: int, head: bytes, drip: bytes):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.head, self.drip = head, drip
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            self.sock.sendall(self.head)
            for byte in self.drip:
                if self.stop.wait(0.5):
                    break
                self.sock.sendall(bytes([byte]))
        except OSError:
            pass  # the server may close a client that is too slow: that is the point
        finally:
            self.sock.close()


def drippers(port: int, key: str, count: int) -> list[Dripper]:
    headers = [Dripper(port, b"GET /healthz HTTP/1.1\r\nHost: test\r\n", b"X-Slow: " + b"a" * 200)
               for _ in range(count)]
    body = b'{"cluster": "' + b"x" * 5000 + b'"}'
    bodies = [Dripper(port, (f"POST /v1/estimates HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer "
                             f"{key}\r\nContent-Type: application/json\r\nContent-Length: "
                             f"{len(body)}\r\n\r\n").encode(), body) for _ in range(count)]
    return headers + bodies


def test_slow_clients_do_not_block_the_api(proxied):
    stack, nginx = proxied
    # Twice as many slow clients as gunicorn has threads (2 workers x 4), half of them dripping
    # headers, half bodies.
    slow = drippers(nginx.port, stack.key, 8)
    for client in slow:
        client.start()
    try:
        time.sleep(2)
        assert all(client.is_alive() for client in slow), "the slow clients should still be sending"
        started = time.monotonic()
        assert request(nginx.port, "GET", "/healthz", timeout_s=5)[0] == 200
        status, _, servers = request(nginx.port, "GET", "/v1/catalog/servers", key=stack.key,
                                     timeout_s=5)
        assert status == 200 and servers
        status, _, estimate = request(nginx.port, "POST", "/v1/estimates/collectives", ESTIMATE,
                                      key=stack.key, timeout_s=5)
        assert status == 200 and estimate["busbw_gbs"] > 0
        print(f"answered in {time.monotonic() - started:.2f} s beside {len(slow)} slow clients")
    finally:
        for client in slow:
            client.stop.set()
        for client in slow:
            client.join(5)


def raw(port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        try:
            sock.sendall(data)
        except OSError:
            pass
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, str] = {}
    for k, v in (line.split(": ", 1) for line in lines[1:] if ": " in line):
        # a repeated field is combined, as RFC 9110 5.3 reads it, so a repeat shows
        headers[k.lower()] = f"{headers[k.lower()]}, {v}" if k.lower() in headers else v
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize("make, status, code", [
    (lambda key: (f"POST /v1/estimates HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer {key}\r\n"
                  "Content-Type: application/json\r\nContent-Length: 2000000\r\n"
                  "Connection: close\r\n\r\n").encode() + b"x" * 2_000_000, 413, "body_too_large"),
    (lambda key: (f"POST /v1/estimates HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer {key}\r\n"
                  "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                  "Connection: close\r\n\r\n").encode()
     + b"".join(b"10000\r\n" + b"x" * 65536 + b"\r\n" for _ in range(32)) + b"0\r\n\r\n",
     413, "body_too_large"),
    (lambda key: b"GET /v1/catalog/gpus?x=" + b"1" * 12000 + b" HTTP/1.1\r\nHost: t\r\n"
                 b"Connection: close\r\n\r\n", 414, "uri_too_long"),
    (lambda key: b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: " + b"b" * 10000
                 + b"\r\nConnection: close\r\n\r\n", 431, "headers_too_large"),
    (lambda key: b"GET /healthz HTTP/1.1\r\nHost: t\r\nBad Header\r\n\r\n", 400, "bad_request"),
    (lambda key: b"GET //v1//sizings HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 404,
     "not_found"),
    # nginx answers TRACE itself, whatever the location
    (lambda key: b"TRACE / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 405,
     "method_not_allowed"),
    # a version or a transfer coding nginx does not read: bad input, so a 400 (nginx says 505
    # and 501), as gunicorn answers both without nginx
    (lambda key: b"GET / HTTP/2.0\r\nHost: t\r\nConnection: close\r\n\r\n", 400,
     "bad_request"),
    (lambda key: (f"POST /v1/estimates HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer {key}\r\n"
                  "Content-Type: application/json\r\nTransfer-Encoding: gzip\r\n"
                  "Connection: close\r\n\r\n").encode(), 400, "bad_request"),
])
def test_what_nginx_refuses_is_a_problem_document(proxied, make, status, code):
    stack, nginx = proxied
    answer_status, headers, body = raw(nginx.port, make(stack.key))
    assert answer_status == status, body[:300]
    assert headers["content-type"] == PROBLEM_JSON
    assert f'"code": "{code}"'.encode() in body
    # nginx's own refusals say it as the API's answers do, and the API's are not doubled
    assert headers["x-content-type-options"] == "nosniff"


def test_failed_keys_are_counted_per_real_client_behind_the_proxy(pg_cluster, redis_server,
                                                                 tmp_path):
    stack = Stack(tmp_path, pg_cluster, redis_server)
    try:
        api = stack.api(TRUSTED_PROXIES="1", AUTH_FAILURES_PER_ADDRESS="3")
        nginx = NginxServer(tmp_path, api.port).start()
        stack.processes.append(nginx)
        statuses = [request(nginx.port, "GET", "/v1/presets", key="sk_live_0123abcd" + "x" * 32,
                            headers={"X-Forwarded-For": f"192.0.2.{i}"})[0] for i in range(5)]
        # A forged X-Forwarded-For does not make a new client: nginx appends the real one.
        assert statuses == [401, 401, 401, 429, 429]
    finally:
        stack.close()


def new_account_key(database_url: str, kind: str) -> str:
    app = create_app(Config(database_url=database_url))
    with app.app_context():
        session = db.session()
        account = accounts.create_account(session, f"{kind} account")
        key = accounts.create_key(session, account.id, kind=kind)[1]
        db.engine().dispose()
    return key


def test_a_burst_from_the_page_meets_its_cap_while_another_account_finishes(stack):
    api = stack.api(TRUSTED_PROXIES="1", ACTIVE_SIZINGS_PER_ACCOUNT="6",
                    ACTIVE_SIZINGS_FROM_PUBLISHABLE_KEYS="3")
    nginx = NginxServer(stack.workdir, api.port).start()
    stack.processes.append(nginx)
    stack.workers("a")
    page_key = new_account_key(stack.database_url, "publishable")

    def page_post(_):
        return request(nginx.port, "POST", "/v1/sizings", PAGE_SIZING, key=page_key)

    with ThreadPoolExecutor(max_workers=12) as pool:
        burst = list(pool.map(page_post, range(12)))
    other = [request(nginx.port, "POST", "/v1/sizings", SMALL_SIZING, key=stack.key)
             for _ in range(3)]

    accepted = [data["id"] for status, _, data in burst if status == 202]
    refused = [(headers, data) for status, headers, data in burst if status == 429]
    assert len(accepted) + len(refused) == 12, [status for status, _, _ in burst]
    # At most the page's share at once (one more if a sizing finished during the burst).
    assert 3 <= len(accepted) <= 4 and refused
    for headers, data in refused:
        assert headers["Content-Type"] == PROBLEM_JSON and data["code"] == "too_many_active_sizings"
        assert int(headers["Retry-After"]) >= 1
    assert [status for status, _, _ in other] == [202] * 3
    other_ids = [data["id"] for _, _, data in other]
    states = stack.wait_final(other_ids + accepted, timeout_s=120)
    assert {states[i]["status"] for i in other_ids + accepted} == {"succeeded"}
    assert set(FINAL) >= {s["status"] for s in states.values()}


def test_compose_runs_nginx_with_the_config_tested_here():
    import yaml

    from tests.faults.servers import NGINX_TEMPLATE, REPO_ROOT, TEMPLATE_VARIABLE

    compose = yaml.safe_load((REPO_ROOT / "compose.yaml").read_text())["services"]
    proxy, api = compose["proxy"], compose["api"]
    assert proxy["image"].startswith("nginx:")
    source, target = proxy["volumes"][0].split(":")[:2]
    assert (REPO_ROOT / source).resolve() == NGINX_TEMPLATE.resolve()
    assert target.startswith("/etc/nginx/templates/") and target.endswith(".conf.template")
    used = set(TEMPLATE_VARIABLE.findall(NGINX_TEMPLATE.read_text()))
    assert used and used <= set(proxy["environment"])
    assert proxy["environment"]["SIZING_UPSTREAM"].startswith("api:")
    # The API is reached only through nginx, and believes the one proxy in front of it.
    assert "ports" not in api and api["environment"]["TRUSTED_PROXIES"] == "1"


def test_waiting_clients_leave_threads_for_health_checks(stack):
    """Eight `Prefer: wait=60` calls on sizings no worker runs, against 2 gunicorn processes of
    4 threads: at most 2 wait per process, and not past the cap; health checks still answer."""
    api = stack.api(PREFER_WAIT_MAX_S="4")
    status, _, sizing = stack.post_sizing()
    assert status == 202
    answers: list = []

    def wait():
        started = time.monotonic()
        status, headers, _ = request(api.port, "GET", f"/v1/sizings/{sizing['id']}",
                                     key=stack.key, headers={"Prefer": "wait=60"}, timeout_s=30)
        answers.append((status, headers.get("Preference-Applied"), time.monotonic() - started))

    waiters = [threading.Thread(target=wait) for _ in range(8)]
    for thread in waiters:
        thread.start()
    time.sleep(0.5)
    started = time.monotonic()
    assert request(api.port, "GET", "/healthz", timeout_s=5)[0] == 200
    assert request(api.port, "GET", "/v1/presets", key=stack.key, timeout_s=5)[0] == 200
    healthy_in = time.monotonic() - started
    for thread in waiters:
        thread.join(30)
    assert len(answers) == 8 and {status for status, _, _ in answers} == {202}
    waited = [a for a in answers if a[1]]
    assert waited and len(waited) <= 4 and {a[1] for a in waited} == {"wait=4"}
    assert max(seconds for _, _, seconds in answers) < 10
    print(f"health answered in {healthy_in:.2f} s; {len(waited)} of 8 waited (cap 4 s)")
