"""Per-key request limits: a fixed window counted in Redis, or in memory when embedded."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import redis

POLICY_NAME = "default"


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    limit: int
    remaining: int
    reset_s: int

    def headers(self) -> dict[str, str]:
        # IETF draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy and RateLimit.
        out = {
            "RateLimit-Policy": f'"{POLICY_NAME}";q={self.limit};w={WINDOW_S}',
            "RateLimit": f'"{POLICY_NAME}";r={self.remaining};t={self.reset_s}',
        }
        if not self.allowed:
            out["Retry-After"] = str(self.reset_s)
        return out


WINDOW_S = 60


class MemoryLimiter:
    """For the embedded single-process mode; counts are lost on restart, which is harmless."""

    def __init__(self, limit: int):
        self.limit = limit
        self._counts: dict[tuple[str, int], int] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> Verdict:
        now = time.time()
        window = int(now // WINDOW_S)
        with self._lock:
            if len(self._counts) > 10_000:
                self._counts = {k: v for k, v in self._counts.items() if k[1] == window}
            count = self._counts.get((key, window), 0) + 1
            self._counts[(key, window)] = count
        return verdict(self.limit, count, window, now)


class RedisLimiter:
    """Shared by every API process, so a key's limit holds across the whole deployment."""

    def __init__(self, url: str, limit: int):
        self.limit = limit
        self.client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)

    def hit(self, key: str) -> Verdict:
        now = time.time()
        window = int(now // WINDOW_S)
        name = f"ratelimit:{key}:{window}"
        try:
            pipe = self.client.pipeline()
            pipe.incr(name)
            pipe.expire(name, WINDOW_S + 5)
            count = int(pipe.execute()[0])
        except redis.RedisError:
            # Limits protect the service; an outage of their store must not take it down.
            return Verdict(True, self.limit, self.limit, WINDOW_S)
        return verdict(self.limit, count, window, now)


def verdict(limit: int, count: int, window: int, now: float) -> Verdict:
    reset = max(1, int((window + 1) * WINDOW_S - now))
    return Verdict(count <= limit, limit, max(0, limit - count), reset)
