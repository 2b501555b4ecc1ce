"""HTTP retries: calls safe to repeat retry with backoff on dropped connections and 502/503/504.

A request that never reached the server (the connection was refused or timed out) is retried
whatever it is. One that may have reached it is retried only when repeating it changes nothing:
a GET, a POST carrying an Idempotency-Key (the API answers its retry with the first answer), or
an estimate (a computation that stores nothing). A 429 was refused before anything was done, so
any call waits out its Retry-After.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import httpx

RETRY_STATUSES = frozenset({502, 503, 504})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SIDE_EFFECT_FREE_POSTS = ("/v1/estimates",)
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout)
MAYBE_SENT = (httpx.ReadError, httpx.ReadTimeout, httpx.WriteError, httpx.WriteTimeout,
              httpx.RemoteProtocolError)


def repeatable(request: httpx.Request) -> bool:
    return (request.method in SAFE_METHODS or "Idempotency-Key" in request.headers
            or request.url.path.startswith(SIDE_EFFECT_FREE_POSTS))


def retry_after_s(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After", "")
    return float(value) if value.strip().isdigit() else None


class RetryingTransport(httpx.BaseTransport):
    def __init__(self, inner: httpx.BaseTransport, *, attempts: int = 5, backoff_s: float = 0.5,
                 longest_wait_s: float = 60.0, note: Callable[[str], None] = lambda _: None,
                 sleep: Callable[[float], None] = time.sleep):
        self.inner = inner
        self.attempts = attempts
        self.backoff_s = backoff_s
        self.longest_wait_s = longest_wait_s
        self.note = note
        self.sleep = sleep

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        for attempt in range(1, self.attempts + 1):
            last = attempt == self.attempts
            # Exponential, with jitter so that many clients do not come back together.
            wait_s = self.backoff_s * 2 ** (attempt - 1) * random.uniform(0.8, 1.2)
            try:
                response = self.inner.handle_request(request)
            except NOT_SENT as exc:
                if last:
                    raise
                reason = f"cannot connect ({exc})"
            except MAYBE_SENT as exc:
                if last or not repeatable(request):
                    raise
                reason = f"connection lost ({type(exc).__name__})"
            else:
                status = response.status_code
                if last or not (status == 429 or (status in RETRY_STATUSES and repeatable(request))):
                    return response
                asked = retry_after_s(response)
                if asked is not None and asked > self.longest_wait_s:
                    return response
                wait_s = asked if asked is not None else wait_s
                reason = f"HTTP {status}"
                response.read()
                response.close()
            self.note(f"{request.method} {request.url.path}: {reason}; retrying in {wait_s:.1f} s "
                      f"(attempt {attempt + 1} of {self.attempts})")
            self.sleep(wait_s)
        raise AssertionError("unreachable: the last attempt returns or raises")

    def close(self) -> None:
        self.inner.close()
