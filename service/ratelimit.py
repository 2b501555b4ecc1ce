"""Request limits in fixed one-minute windows, counted in Redis (or in memory when embedded).

A request is counted against several buckets at once (its key, its account, its client address)
and refused when any is past its limit; the answer's headers show every policy that applied.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import redis

WINDOW_S = 60


@dataclass(frozen=True)
class Bucket:
    """One counter: `policy` names it in the headers, `name` keys it in the store."""

    policy: str
    name: str
    limit: int


@dataclass(frozen=True)
class Count:
    bucket: Bucket
    used: int

    @property
    def remaining(self) -> int:
        return max(0, self.bucket.limit - self.used)


@dataclass(frozen=True)
class Verdict:
    counts: tuple[Count, ...]
    reset_s: int
    # Buckets read in the same round trip without being counted (failed authentications):
    # gates, past whose limit the request is refused and nothing is counted.
    read: tuple[Count, ...] = ()

    @property
    def allowed(self) -> bool:
        return all(c.used <= c.bucket.limit for c in self.counts)

    @property
    def exceeded(self) -> list[str]:
        return [c.bucket.policy for c in self.counts if c.used > c.bucket.limit]

    def headers(self) -> dict[str, str]:
        # IETF draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy and RateLimit, one item
        # per policy.
        out = {
            "RateLimit-Policy": ", ".join(f'"{c.bucket.policy}";q={c.bucket.limit};w={WINDOW_S}'
                                          for c in self.counts),
            "RateLimit": ", ".join(f'"{c.bucket.policy}";r={c.remaining};t={self.reset_s}'
                                   for c in self.counts),
        }
        if not self.allowed:
            out["Retry-After"] = str(self.reset_s)
        return out


def verdict(buckets: list[Bucket], read: tuple[Bucket, ...], used: list[int]) -> Verdict:
    counts = tuple(Count(b, u) for b, u in zip(buckets, used))
    return Verdict(counts, window_now()[1], tuple(Count(b, u) for b, u in zip(read, used[len(buckets):])))


def window_now() -> tuple[int, int]:
    """The current window's number and the seconds to its end."""
    now = time.time()
    window = int(now // WINDOW_S)
    return window, max(1, int((window + 1) * WINDOW_S - now))


class MemoryLimiter:
    """For the embedded single-process mode; counts are lost on restart, which is harmless."""

    def __init__(self):
        self._counts: dict[tuple[str, int], int] = {}
        self._lock = threading.Lock()

    def _add(self, amounts: list[tuple[str, int]], gates: tuple[Bucket, ...] = ()) -> list[int]:
        """The counts after adding, then the gates' counts; nothing is added past a gate."""
        window, _ = window_now()
        with self._lock:
            if len(self._counts) > 10_000:
                self._counts = {k: v for k, v in self._counts.items() if k[1] == window}
            read = [self._counts.get((b.name, window), 0) for b in gates]
            open_ = all(used < b.limit for used, b in zip(read, gates))
            out = []
            for name, amount in amounts:
                if open_:
                    self._counts[(name, window)] = self._counts.get((name, window), 0) + amount
                out.append(self._counts.get((name, window), 0))
        return out + read

    def hit(self, buckets: list[Bucket], read: tuple[Bucket, ...] = ()) -> Verdict:
        return verdict(buckets, read, self._add([(b.name, 1) for b in buckets], read))

    def used(self, bucket: Bucket) -> int:
        return self._add([(bucket.name, 0)])[0]

    def add(self, bucket: Bucket) -> None:
        self._add([(bucket.name, 1)])


# Adds ARGV[2 + i] to KEYS[i] and keeps it for ARGV[2] seconds, unless one of the last ARGV[1]
# keys (gates, read and not counted: an address's failed authentications) has reached its limit,
# given in the same place of ARGV: then nothing is added, so a refused request spends no
# allowance. Returns the counts, in the order of KEYS.
ADD_SCRIPT = """
local counted = #KEYS - tonumber(ARGV[1])
local out = {}
local open = true
for i = counted + 1, #KEYS do
  out[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  if out[i] >= tonumber(ARGV[2 + i]) then open = false end
end
for i = 1, counted do
  if open then
    out[i] = redis.call('INCRBY', KEYS[i], ARGV[2 + i])
    redis.call('EXPIRE', KEYS[i], ARGV[2])
  else
    out[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  end
end
return out
"""


class RedisLimiter:
    """Shared by every API process, so a limit holds across the whole deployment."""

    def __init__(self, url: str):
        self.client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        # One command per request (EVALSHA): a pipeline costs the same round trip plus, in
        # redis-py, a copy of the client's response callbacks each time it is made.
        self.add_script = self.client.register_script(ADD_SCRIPT)

    def _add(self, amounts: list[tuple[str, int]],
             gates: tuple[Bucket, ...] = ()) -> list[int] | None:
        """The counts after adding, then the gates' counts, in one round trip (ADD_SCRIPT)."""
        window, _ = window_now()
        names = [name for name, _ in amounts] + [b.name for b in gates]
        try:
            counts = self.add_script(keys=[f"ratelimit:{name}:{window}" for name in names],
                                     args=[len(gates), WINDOW_S + 5]
                                     + [amount for _, amount in amounts] + [b.limit for b in gates])
            return [int(v) for v in counts]
        except redis.RedisError:
            # Limits protect the service; an outage of their store must not take it down.
            return None

    def hit(self, buckets: list[Bucket], read: tuple[Bucket, ...] = ()) -> Verdict:
        used = self._add([(b.name, 1) for b in buckets], read)
        return verdict(buckets, read, used or [0] * (len(buckets) + len(read)))

    def used(self, bucket: Bucket) -> int:
        return (self._add([(bucket.name, 0)]) or [0])[0]

    def add(self, bucket: Bucket) -> None:
        self._add([(bucket.name, 1)])
