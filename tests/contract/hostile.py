"""A corpus of hostile requests, and its replay against a running server over raw sockets.

Every request in it is wrong in one way an attacker (or a broken client) would try: deep or
huge JSON, wrong types, unicode tricks, trailing newlines, huge and non-finite numbers,
repeated names, path, method and header tricks, forged cursors and secrets, wrong content
types, chunked and truncated bodies. Each is sent with a secret and a publishable key; every
answer must be a 4xx RFC 9457 problem, within a timeout, and none a 429: an answer a rate
limit gave says nothing of the request, so the server runs with every limit the replay meets
raised (LOAD_TEST_ENV, as the README's command starts it).

    .venv/bin/python -m tests.contract.hostile http://127.0.0.1:18080 \\
        --secret sk_live_... --publishable pk_live_...
"""

from __future__ import annotations

import argparse
import base64
import json
import socket
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from tests.faults.servers import LOAD_TEST_ENV

PROBLEM_JSON = "application/problem+json"
UUID = "0b6f7a52-3c41-4d8e-9f20-7a1c5e9d8b34"
GOOD_SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10,
               "nodes": {"min": 1, "max": 2}, "gpu_models": ["h100-sxm"]}
GOOD_QUOTE = {"configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2,
                                "region": "eu-central"}, "customer": {"name": "Ada", "country": "DE"}}
GOOD_ESTIMATE = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2},
                 "operation": "all_reduce", "size_bytes": 1048576}
JSON_POSTS = ["/v1/sizings", "/v1/estimates", "/v1/estimates/collectives", "/v1/quotes",
              "/v1/catalog/changes"]


@dataclass
class Hostile:
    """One request, sent byte for byte as built (no client library tidies it up)."""

    name: str
    method: str = "GET"
    target: str = "/v1/catalog/gpus"
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes | None = None
    # The key to send: "own" (the replay's), "none", or a literal Authorization value.
    auth: str = "own"
    raw_head: bytes | None = None  # a whole request head, for what a header list cannot say

    def encode(self, key: str, host: str) -> bytes:
        if self.raw_head is not None:
            return self.raw_head.replace(b"{KEY}", key.encode()) + (self.body or b"")
        lines = [f"{self.method} {self.target} HTTP/1.1", f"Host: {host}"]
        if self.auth == "own":
            lines.append(f"Authorization: Bearer {key}")
        elif self.auth != "none":
            lines.append(f"Authorization: {self.auth}")
        names = {name.lower() for name, _ in self.headers}
        lines += [f"{name}: {value}" for name, value in self.headers]
        if self.body is not None and "content-length" not in names \
                and "transfer-encoding" not in names:
            lines.append(f"Content-Length: {len(self.body)}")
        lines.append("Connection: close")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "surrogateescape")
        return head + (self.body or b"")


def as_json(method: str, target: str, name: str, text: str | bytes, **kw) -> Hostile:
    body = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return Hostile(name, method, target, [("Content-Type", "application/json")], body, **kw)


def b64(value) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


def corpus(real_ids: dict[str, str] | None = None) -> list[Hostile]:
    """The corpus; `real_ids` (of a sizing and a quote another account made) sharpen a few."""
    ids = {"sizing": UUID, "quote": UUID, **(real_ids or {})}
    out: list[Hostile] = []

    # --- JSON that no parser should be made to swallow, on every operation that reads JSON.
    for path in [*JSON_POSTS, f"PATCH /v1/quotes/{ids['quote']}"]:
        method, target = ("PATCH", path.split(" ")[1]) if path.startswith("PATCH") else ("POST", path)
        for label, text in [
            ("array nested 10,000 deep", "[" * 10_000 + "]" * 10_000),
            ("object nested 5,000 deep", '{"a":' * 5_000 + "1" + "}" * 5_000),
            ("mixed nesting 40 deep", '{"a":[' * 20 + "1" + "]}" * 20),
            ("unterminated", '{"workload": {"preset": "llama-3-8b"'),
            ("trailing comma", '{"tokens": 1e10,}'),
            ("single quotes", "{'tokens': 1e10}"),
            ("NaN literal", '{"tokens": NaN}'),
            ("Infinity literal", '{"tokens": Infinity}'),
            ("-Infinity literal", '{"tokens": -Infinity}'),
            ("number past float range", '{"tokens": 1e400}'),
            ("repeated name", '{"tokens": 1, "tokens": 2}'),
            ("repeated nested name", '{"customer": {"name": "a", "name": "b"}}'),
            ("lone surrogate", '{"customer": {"name": "\\ud800"}}'),
            ("byte order mark", "\ufeff{}"),
            ("not UTF-8", b'{"a": "\xff\xfe"}'),
            ("overlong UTF-8", b'{"a": "\xc0\xaf"}'),
            ("a bare string", '"hello"'),
            ("a bare number", "42"),
            ("null", "null"),
            ("an array", "[1, 2, 3]"),
            ("an empty object", "{}"),
            ("5,000-digit integer", '{"tokens": ' + "9" * 5000 + "}"),
            ("comments", '{"tokens": 1 /* c */}'),
            ("NUL byte", b'{"tokens": 1}\x00'),
        ]:
            out.append(as_json(method, target, f"{method} {target}: {label}", text))
        for label, content_type in [("text/plain", "text/plain"), ("form", "application/x-www-form-urlencoded"),
                                    ("xml", "application/xml"), ("latin-1 JSON", "application/json; charset=latin-1"),
                                    ("no content type", None), ("multipart", "multipart/form-data; boundary=x")]:
            headers = [("Content-Type", content_type)] if content_type else []
            out.append(Hostile(f"{method} {target}: body as {label}", method, target, headers,
                               json.dumps(GOOD_SIZING).encode()))

    # --- Wrong types, out-of-range and half-matching values, field by field.
    sizing_cases = {
        "nodes.min 1.5": {"nodes": {"min": 1.5, "max": 2}},
        "layout.dp 32.5": {"layout": {"dp": 32.5}},
        "tokens as a string": {"tokens": "1e12"},
        "tokens true": {"tokens": True},
        "tokens null": {"tokens": None},
        "tokens negative": {"tokens": -1},
        "tokens 1e17": {"tokens": 1e17},
        "tokens an object": {"tokens": {"$gt": 0}},
        "tokens an array": {"tokens": [1e10]},
        "nodes a string": {"nodes": "1-16"},
        "nodes.max 2**64": {"nodes": {"min": 1, "max": 2**64}},
        "nodes.min 0": {"nodes": {"min": 0, "max": 2}},
        "nodes.min above max": {"nodes": {"min": 9, "max": 2}},
        "rdma_required 'yes'": {"rdma_required": "yes"},
        "rdma_required 1": {"rdma_required": 1},
        "currency with newline": {"currency": "EUR\n"},
        "currency lower case": {"currency": "eur"},
        "region with newline": {"region": "us-east\n"},
        "region traversal": {"region": "../../etc/passwd"},
        "region SQL": {"region": "us-east' OR '1'='1"},
        "gpu_models 100,000 items": {"gpu_models": ["h100-sxm"] * 100_000},
        "gpu_models unknown": {"gpu_models": ["h100-sxm\n"]},
        "gpu_models not a list": {"gpu_models": "h100-sxm"},
        "fabrics_exclude 51 items": {"fabrics_exclude": ["ib-ndr-400"] * 51},
        "budget as a number": {"budget_per_month": 250000},
        "budget with newline": {"budget_per_month": "250000.00\n"},
        "budget in arabic digits": {"budget_per_month": "\u0662\u0665\u0660"},
        "budget zero": {"budget_total": "0.00"},
        "budget exponent": {"budget_total": "1e6"},
        "unknown field": {"admin": True},
        "unknown nested field": {"workload": {"preset": "llama-3-8b", "__proto__": {}}},
        "preset unknown": {"workload": {"preset": "gpt-5"}},
        "two workloads": {"workload": {"preset": "llama-3-8b", "generic": {"params": 1e6,
                                                                            "flops_per_sample": 1e9}}},
        "no workload": {"workload": {}},
        "CNN with tokens": {"workload": {"preset": "resnet-50"}},
        "transformer with samples": {"samples": 1e6},
        "objective unknown": {"objective": "cheapest\n"},
        "max_results 10,000": {"max_results": 10_000},
        "max_lead_time_days -1": {"max_lead_time_days": -1},
        "the worst search": {"workload": {"preset": "mixtral-8x7b"}, "tokens": 1e16,
                             "nodes": {"min": 1, "max": 512}, "gpu_models": None,
                             "max_results": 50, "max_lead_time_days": 365},
        "layout tp 3": {"layout": {"tp": 3}},
        "layout zero_stage 4": {"layout": {"zero_stage": 4}},
        "layout tp 10**30": {"layout": {"tp": 10**30}},
        "huge string": {"region": "x" * 900_000},
        "RTL override in a name": {"workload": {"transformer": {"name": "a\u202eb", "layers": 2,
                                   "hidden": 256, "heads": 4, "vocab": 1000, "seq_len": 128}}},
    }
    for label, change in sizing_cases.items():
        body = {**GOOD_SIZING, **change}
        body = {k: v for k, v in body.items() if v is not None or k == "tokens"}
        if label == "CNN with tokens":
            body["workload"] = {"preset": "resnet-50"}
        out.append(as_json("POST", "/v1/sizings", f"sizing: {label}", json.dumps(body)))

    customer_cases = {
        "country with newline": {"name": "Ada", "country": "DE\n"},
        "country lower case": {"name": "Ada", "country": "de"},
        "country three letters": {"name": "Ada", "country": "DEU"},
        "name empty": {"name": ""},
        "name 10,000 long": {"name": "a" * 10_000},
        "name with NUL": {"name": "Ada\u0000"},
        "name with escape codes": {"name": "\u001b[31mAda"},
        "name with RTL override": {"name": "Ada \u202etxet"},
        "name a number": {"name": 42},
        "email with newline": {"name": "Ada", "email": "ada@example.com\n"},
        "email not an email": {"name": "Ada", "email": "ada"},
        "email 300 long": {"name": "Ada", "email": "a" * 300 + "@example.com"},
        "customer a string": "Ada",
    }
    for label, customer in customer_cases.items():
        out.append(as_json("POST", "/v1/quotes", f"quote: {label}",
                           json.dumps({**GOOD_QUOTE, "customer": customer})))
    quote_cases = {
        "both sources": {**GOOD_QUOTE, "sizing_id": ids["sizing"]},
        "no source": {"customer": {"name": "Ada"}},
        "sizing id in braces": {"sizing_id": "{" + UUID + "}", "customer": {"name": "Ada"}},
        "sizing id urn": {"sizing_id": "urn:uuid:" + UUID, "customer": {"name": "Ada"}},
        "sizing id with newline": {"sizing_id": UUID + "\n", "customer": {"name": "Ada"}},
        "a client-set price": {**GOOD_QUOTE, "lines": [{"net": "0.01"}]},
        "rank 0": {"sizing_id": ids["sizing"], "rank": 0, "customer": {"name": "Ada"}},
        "rank without sizing": {**GOOD_QUOTE, "rank": 1},
        "forged sizing secret": {"sizing_id": UUID, "customer": {"name": "Ada"},
                                 "sizing_client_secret": "cs_" + "A" * 32},
        "valid_days 10,000": {**GOOD_QUOTE, "valid_days": 10_000},
        "nodes 1.5": {**GOOD_QUOTE, "configuration": {**GOOD_QUOTE["configuration"], "nodes": 1.5}},
        "server unknown": {**GOOD_QUOTE, "configuration": {**GOOD_QUOTE["configuration"],
                                                           "server": "hgx-h100-8\n"}},
    }
    for label, body in quote_cases.items():
        out.append(as_json("POST", "/v1/quotes", f"quote: {label}", json.dumps(body)))
    estimate_cases = {
        "nodes 1.5": {**GOOD_ESTIMATE, "cluster": {**GOOD_ESTIMATE["cluster"], "nodes": 1.5}},
        "size 1e400 as text": None,
        "operation unknown": {**GOOD_ESTIMATE, "operation": "all_reduce\n"},
        "rdma roce false": {"cluster": {"server": "hgx-h100-8", "nodes": 2, "custom_fabric": {
            "kind": "roce", "line_rate_gbps": 400, "rdma": False, "lossless": True}},
            "operation": "all_reduce", "size_bytes": 1024},
        "both server kinds": {**GOOD_ESTIMATE, "cluster": {**GOOD_ESTIMATE["cluster"],
                                                           "custom_server": {}}},
        "one GPU": {**GOOD_ESTIMATE, "cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400",
                                                 "nodes": 1, "oversubscription": 0.5}},
    }
    for label, body in estimate_cases.items():
        text = json.dumps(body) if body else json.dumps(GOOD_ESTIMATE).replace("1048576", "1e400")
        out.append(as_json("POST", "/v1/estimates/collectives", f"collective: {label}", text))
    for label, body in {
        "no change": {"note": "x"},
        "price as a number": {"note": "x", "server_prices": [
            {"server": "hgx-h100-8", "region": "us-east", "monthly_usd": 1}]},
        "negative stock": {"note": "x", "stock": [{"region": "us-east", "server": "hgx-h100-8",
                                                   "available_nodes": -5}]},
        "note with NUL": {"note": "\u0000", "stock": [{"region": "us-east", "server": "hgx-h100-8"}]},
    }.items():
        out.append(as_json("POST", "/v1/catalog/changes", f"catalog change: {label}",
                           json.dumps(body)))

    # --- Paths: doubled slashes, traversal, encodings, ids that are not ids.
    for target in ["//v1//sizings", "//", "/v1//quotes", "/v1/sizings/", "/v1/sizings//",
                   "/v1/sizings/../quotes", "/v1/sizings/%2e%2e/quotes", "/v1/sizings/..%2fquotes",
                   "/v1/catalog/gpus/%00", "/v1/catalog/gpus/..%5c..%5cwin.ini", "/site/../README.md",
                   "/site/%2e%2e/%2e%2e/service/config.py", "/static/site/app.js", "/V1/sizings",
                   "/v1/sizings;x=1", f"/v1/sizings/{UUID.upper()}x", "/v1/sizings/not-a-uuid",
                   f"/v1/quotes/{UUID}/document/", "/v1/catalog/gpus/" + "a" * 3000,
                   "/v1/catalog/%F0%9F%92%A5", "/v1/catalog/%ff", "/.env", "/.git/config",
                   "/v2/sizings", "/v1/quotes/export.csv", "/admin", "/metrics/../v1/quotes",
                   "/v1/catalog/gpus?version=0", "/v1/catalog/gpus?version=-1",
                   "/v1/catalog/gpus?version=1.0", "/v1/catalog/gpus?version=99999999999",
                   "/v1/catalog/gpus?version=1&version=2", "/v1/catalog/gpus?colour=red",
                   "/v1/catalog/fabrics?rdma=yes", "/v1/catalog/servers?min_gpus=%D9%A3",
                   "/v1/quotes?limit=0", "/v1/quotes?limit=101", "/v1/quotes?limit=1e1",
                   "/v1/quotes?created_from=yesterday",
                   "/v1/quotes?created_from=9999-12-31T23:59:59-14:00",
                   "/v1/sizings?status=done", "/v1/catalog/gpus?version=" + "9" * 5000]:
        out.append(Hostile(f"path {target[:60]}", target=target))

    # --- Forged cursors and client secrets.
    for label, cursor in [("base64 of a position", b64(["2099-01-01T00:00:00+00:00", UUID])),
                          ("base64 of an object", b64({"offset": 0})), ("garbage", "garbage"),
                          ("empty", ""), ("signed-looking", b64(["2099-01-01T00:00:00+00:00", UUID])
                                          + "." + "A" * 22), ("unicode", "%C3%A9%C3%A9")]:
        for listing in ("quotes", "sizings"):
            out.append(Hostile(f"cursor {label} on {listing}", target=f"/v1/{listing}?cursor={cursor}"))
    for kind in ("sizings", "quotes"):
        for label, secret in [("forged", "cs_" + "B" * 32), ("malformed", "not-a-secret"),
                              ("with newline-ish", "cs_" + "C" * 31 + "%")]:
            out.append(Hostile(f"{kind} read with a {label} client secret",
                               target=f"/v1/{kind}/{ids[kind[:-1]]}",
                               headers=[("Client-Secret", secret)]))

    # --- Methods.
    for method, target in [("PUT", "/v1/sizings"), ("DELETE", "/v1/sizings"), ("PATCH", "/v1/sizings"),
                           ("TRACE", "/v1/sizings"), ("OPTIONS", "/v1/quotes"), ("PROPFIND", "/"),
                           ("DELETE", f"/v1/quotes/{ids['quote']}"), ("PUT", f"/v1/quotes/{ids['quote']}"),
                           ("POST", "/v1/catalog/gpus"), ("POST", "/healthz"), ("GET", "/v1/estimates"),
                           ("GET", f"/v1/quotes/{ids['quote']}/reprice"), ("CONNECT", "/"),
                           ("get", "/v1/catalog/gpus"), ("G E T", "/v1/catalog/gpus")]:
        out.append(Hostile(f"method {method} {target}", method, target))
    out.append(Hostile("method override header", "GET", "/v1/catalog/changes",
                       [("X-HTTP-Method-Override", "POST")]))

    # --- Headers and credentials.
    for label, auth in [("no key", "none"), ("empty bearer", "Bearer "), ("basic", "Basic dXNlcjpwYXNz"),
                        ("unknown key", "Bearer sk_live_0123abcd" + "x" * 32),
                        ("SQL in key", "Bearer sk_live_' OR 1=1 --"), ("4 KB key", "Bearer " + "k" * 4000),
                        ("lowercase scheme with spaces", "bearer    ")]:
        out.append(Hostile(f"credential: {label}", target="/v1/catalog/gpus", auth=auth))
    out.append(Hostile("two different keys", target="/v1/catalog/gpus",
                       headers=[("X-API-Key", "sk_live_0123abcd" + "y" * 32)]))
    out.append(Hostile("a header of 9 KB", target="/v1/catalog/gpus", headers=[("X-Pad", "p" * 9000)]))
    out.append(Hostile("a request line of 5 KB", target="/v1/catalog/gpus?x=" + "1" * 5000))
    out.append(Hostile("If-Match missing on a change", "PATCH", f"/v1/quotes/{ids['quote']}",
                       [("Content-Type", "application/json")], b'{"status": "sent"}'))
    out.append(Hostile("If-Match stale on a change", "PATCH", f"/v1/quotes/{ids['quote']}",
                       [("Content-Type", "application/json"), ("If-Match", '"stale"')],
                       b'{"status": "sent"}'))
    out.append(Hostile("Idempotency-Key of 300 bytes", "POST", "/v1/quotes",
                       [("Content-Type", "application/json"), ("Idempotency-Key", "k" * 300)],
                       json.dumps(GOOD_QUOTE).encode()))
    out.append(Hostile("Idempotency-Key with a control character", "POST", "/v1/quotes",
                       [("Content-Type", "application/json"), ("Idempotency-Key", "a\x01b")],
                       json.dumps(GOOD_QUOTE).encode()))
    out.append(Hostile("Prefer wait absurd with bad body", "POST", "/v1/sizings",
                       [("Content-Type", "application/json"), ("Prefer", "wait=99999999999999")],
                       b'{"tokens": "x"}'))

    # --- Bodies: sizes, lengths, chunking.
    big = b'{"region": "' + b"x" * 2_000_000 + b'"}'
    out.append(as_json("POST", "/v1/sizings", "a 2 MB body", big))
    out.append(Hostile("a 2 MB chunked body", "POST", "/v1/sizings",
                       [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")],
                       b"".join(b"%x\r\n%s\r\n" % (len(big[i:i + 65536]), big[i:i + 65536])
                                for i in range(0, len(big), 65536)) + b"0\r\n\r\n"))
    out.append(Hostile("chunked with a bad size", "POST", "/v1/sizings",
                       [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")],
                       b"zz\r\n{}\r\n0\r\n\r\n"))
    out.append(Hostile("gzip transfer coding", "POST", "/v1/sizings",
                       [("Content-Type", "application/json"), ("Transfer-Encoding", "gzip")], b"{}"))
    out.append(Hostile("Content-Length and Transfer-Encoding", "POST", "/v1/sizings",
                       [("Content-Type", "application/json"), ("Content-Length", "2"),
                        ("Transfer-Encoding", "chunked")], b"2\r\n{}\r\n0\r\n\r\n"))
    out.append(Hostile("negative Content-Length", "POST", "/v1/sizings",
                       [("Content-Type", "application/json"), ("Content-Length", "-1")], b"{}"))
    out.append(Hostile("two Content-Lengths", "POST", "/v1/sizings",
                       [("Content-Type", "application/json"), ("Content-Length", "2"),
                        ("Content-Length", "3")], b"{}"))
    out.append(Hostile("Content-Length longer than the body", "POST", "/v1/sizings",
                       [("Content-Type", "application/json"), ("Content-Length", "500")], b"{}"))
    out.append(Hostile("a body on a GET with a bad key", "GET", "/v1/catalog/gpus",
                       [("Content-Type", "application/json")], b"[" * 1000,
                       auth="Bearer pk_live_00000000" + "z" * 32))
    return out


@dataclass
class Answer:
    request: Hostile
    status: int | None
    content_type: str
    body: bytes
    seconds: float
    error: str = ""


def send(base: str, key: str, request: Hostile, timeout_s: float = 30) -> Answer:
    parts = urlsplit(base)
    started = time.monotonic()
    try:
        with socket.create_connection((parts.hostname, parts.port or 80), timeout=timeout_s) as sock:
            try:
                sock.sendall(request.encode(key, parts.netloc))
            except OSError:
                pass  # the server may answer and close before reading everything
            raw = b""
            deadline = started + timeout_s
            while time.monotonic() < deadline:
                try:
                    chunk = sock.recv(65536)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                raw += chunk
    except OSError as exc:
        return Answer(request, None, "", b"", time.monotonic() - started, repr(exc))
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split(" ")[1])
    except (IndexError, ValueError):
        return Answer(request, None, "", raw[:200], time.monotonic() - started, "no HTTP answer")
    headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines[1:] if ": " in line)}
    return Answer(request, status, headers.get("content-type", ""), body, time.monotonic() - started)


def problems_with(answer: Answer) -> str | None:
    """What is wrong with an answer to a hostile request, or None."""
    if answer.status is None:
        return f"no answer ({answer.error})"
    if not 400 <= answer.status < 500:
        return f"status {answer.status}"
    if answer.request.method == "HEAD":
        return None
    if answer.content_type != PROBLEM_JSON:
        return f"content type {answer.content_type!r}"
    try:
        document = json.loads(answer.body)
    except ValueError:
        return "the body is not JSON"
    missing = {"type", "title", "status", "detail", "code"} - set(document)
    if missing or document["status"] != answer.status:
        return f"not a problem document: {document}"
    return None


def limited(answer: Answer) -> bool:
    """Whether a limit answered (per key, account, address, failed authentications or active
    sizings: every 429 of the API) instead of the request being judged."""
    return answer.status == 429


def replay(base: str, keys: dict[str, str], requests: list[Hostile]) -> list[tuple[str, Answer, str]]:
    """Every request with every key; the answers that are not a 4xx problem."""
    failures = []
    for kind, key in keys.items():
        for request in requests:
            answer = send(base, key, request)
            if (wrong := problems_with(answer)) is not None:
                failures.append((kind, answer, wrong))
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the server, e.g. http://127.0.0.1:18080")
    parser.add_argument("--secret", required=True)
    parser.add_argument("--publishable", required=True)
    args = parser.parse_args(argv)
    requests = corpus()
    keys = {"secret": args.secret, "publishable": args.publishable}
    started = time.monotonic()
    statuses: Counter[tuple[str, int | None]] = Counter()
    failures = []
    for kind, key in keys.items():
        for request in requests:
            answer = send(args.base, key, request)
            statuses[(kind, answer.status)] += 1
            if (wrong := problems_with(answer)) is not None:
                failures.append((kind, answer, wrong))
    for kind, answer, wrong in failures:
        print(f"FAIL [{kind}] {answer.request.name}: {wrong}")
    print(f"{len(requests)} hostile requests x {len(keys)} keys in {time.monotonic() - started:.0f} s;"
          f" answers: {dict(sorted(statuses.items(), key=str))}; {len(failures)} not a 4xx problem")
    refused = sum(count for (_, status), count in statuses.items() if status == 429)
    if refused:
        print(f"FAIL {refused} answers were a rate limit's 429, not the request's: start the "
              f"server with {', '.join(LOAD_TEST_ENV)} raised (see the README)")
    return 1 if failures or refused else 0


if __name__ == "__main__":
    sys.exit(main())
