"""Which calls the command line repeats, and how long it waits, on each kind of failure."""

from __future__ import annotations

import httpx
import pytest

from gpu_sizing_cli.transport import RetryingTransport


def transport(answers: list, waits: list[float], notes: list[str]) -> RetryingTransport:
    """A RetryingTransport over a scripted server: each call takes the next answer or error."""

    def handler(request: httpx.Request) -> httpx.Response:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    return RetryingTransport(httpx.MockTransport(handler), attempts=4, backoff_s=0.5,
                             longest_wait_s=60, note=notes.append, sleep=waits.append)


def send(t: RetryingTransport, method: str, path: str, **headers: str) -> httpx.Response:
    return t.handle_request(httpx.Request(method, f"http://api{path}", headers=headers,
                                          content=b"{}"))


def test_a_get_waits_out_retry_after_on_503():
    waits, notes = [], []
    t = transport([httpx.Response(503, headers={"Retry-After": "3"}), httpx.Response(200)],
                  waits, notes)
    assert send(t, "GET", "/v1/sizings/x").status_code == 200
    assert waits == [3.0]
    assert notes == ["GET /v1/sizings/x: HTTP 503; retrying in 3.0 s (attempt 2 of 4)"]


def test_backoff_doubles_between_attempts_and_the_last_answer_is_returned():
    waits, notes = [], []
    t = transport([httpx.Response(502)] * 4, waits, notes)
    assert send(t, "GET", "/v1/catalog/gpus").status_code == 502
    assert len(waits) == 3 and all(0.8 <= w / b <= 1.2 for w, b in zip(waits, [0.5, 1, 2]))


def test_a_post_that_creates_is_retried_only_with_an_idempotency_key():
    waits, notes = [], []
    lost = httpx.ReadError("connection reset")
    with pytest.raises(httpx.ReadError):
        send(transport([lost], waits, notes), "POST", "/v1/quotes")
    assert send(transport([lost, httpx.Response(201)], waits, notes), "POST", "/v1/quotes",
                **{"Idempotency-Key": "k1"}).status_code == 201
    # A 502 may come after the server did the work: without a key, the answer stands.
    assert send(transport([httpx.Response(502)], waits, notes), "POST",
                "/v1/sizings").status_code == 502


def test_a_request_that_never_left_is_retried_whatever_it_is():
    waits, notes = [], []
    refused = httpx.ConnectError("connection refused")
    t = transport([refused, refused, httpx.Response(201)], waits, notes)
    assert send(t, "POST", "/v1/sizings").status_code == 201
    assert len(notes) == 2 and "cannot connect (connection refused)" in notes[0]


def test_an_estimate_stores_nothing_so_it_is_retried():
    waits, notes = [], []
    t = transport([httpx.Response(504), httpx.Response(200)], waits, notes)
    assert send(t, "POST", "/v1/estimates/collectives").status_code == 200


def test_a_429_is_retried_unless_it_asks_for_too_long_a_wait():
    waits, notes = [], []
    t = transport([httpx.Response(429, headers={"Retry-After": "1"}), httpx.Response(201)],
                  waits, notes)
    assert send(t, "POST", "/v1/sizings").status_code == 201 and waits == [1.0]
    t = transport([httpx.Response(429, headers={"Retry-After": "600"})], waits, notes)
    assert send(t, "GET", "/v1/presets").status_code == 429 and waits == [1.0]
