"""Settings read from the environment, refusing values that do not parse."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


class ConfigError(ValueError):
    """A setting in the environment that cannot be used as given."""


def parse_int(name: str, raw: str, minimum: int = 0) -> int:
    # ASCII digits only: int() would also take "1_000", "٣" or "+5".
    if not re.fullmatch(r"[0-9]{1,12}", raw.strip()):
        raise ConfigError(f"{name}={raw!r} is not a whole number")
    value = int(raw.strip())
    if value < minimum:
        raise ConfigError(f"{name}={raw!r} must be at least {minimum}")
    return value


def parse_seconds(name: str, raw: str, minimum: float = 0.1) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number of seconds") from None
    if not value >= minimum or value == float("inf"):
        raise ConfigError(f"{name}={raw!r} must be a finite number of seconds, at least {minimum:g}")
    return value


def parse_bool(name: str, raw: str) -> bool:
    lowered = raw.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name}={raw!r} is not a boolean (use true or false)")


def parse_url(name: str, raw: str, schemes: tuple[str, ...]) -> str:
    scheme = raw.split("://", 1)[0] if "://" in raw else ""
    if not any(scheme == s or scheme.startswith(s + "+") for s in schemes):
        raise ConfigError(f"{name}={raw!r} must be a URL with scheme {' or '.join(schemes)}")
    return raw


def normalise_database_url(url: str) -> str:
    # Plain postgresql:// URLs would pick psycopg2, which this project does not ship.
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


# Settings that are whole numbers: field -> (environment variable, smallest value allowed).
WHOLE_NUMBERS: dict[str, tuple[str, int]] = {
    "rate_limit_per_minute": ("RATE_LIMIT_PER_MINUTE", 1),
    "account_rate_limit_per_minute": ("ACCOUNT_RATE_LIMIT_PER_MINUTE", 1),
    "publishable_rate_limit_per_address": ("PUBLISHABLE_RATE_LIMIT_PER_ADDRESS", 1),
    "auth_failures_per_address": ("AUTH_FAILURES_PER_ADDRESS", 1),
    "trusted_proxies": ("TRUSTED_PROXIES", 0),
    "search_candidates_secret_key": ("SEARCH_CANDIDATES_SECRET_KEY", 1000),
    "search_candidates_publishable_key": ("SEARCH_CANDIDATES_PUBLISHABLE_KEY", 1000),
    "active_sizings_per_account": ("ACTIVE_SIZINGS_PER_ACCOUNT", 1),
    "active_sizings_from_publishable_keys": ("ACTIVE_SIZINGS_FROM_PUBLISHABLE_KEYS", 1),
    "max_wait_s": ("PREFER_WAIT_MAX_S", 0),
    "wait_slots": ("PREFER_WAIT_SLOTS", 0),
    "body_read_timeout_s": ("BODY_READ_TIMEOUT_S", 1),
    "idempotency_key_ttl_s": ("IDEMPOTENCY_KEY_TTL_S", 60),
    "api_key_cache_s": ("API_KEY_CACHE_S", 0),
}


@dataclass(frozen=True)
class Config:
    """Everything the app reads at start-up; the defaults run it embedded."""

    database_url: str = f"sqlite:///{REPO_ROOT / 'instance' / 'sizing.sqlite3'}"
    redis_url: str | None = None
    # Embedded mode runs Celery tasks in the request's process.
    tasks_eager: bool = True
    max_body_bytes: int = 1_048_576
    catalog_dir: Path = REPO_ROOT / "catalog" / "data"
    testing: bool = False
    # Requests per minute (fixed one-minute windows, shared through Redis): per API key, per
    # account with all its keys together, per client address on a publishable key (so one
    # visitor cannot spend the page's whole allowance), and failed authentications per client
    # address (counted before any key is looked up).
    rate_limit_per_minute: int = 600
    account_rate_limit_per_minute: int = 1200
    publishable_rate_limit_per_address: int = 120
    auth_failures_per_address: int = 20
    # Reverse proxies in front that append the client to X-Forwarded-For (nginx: 1); with 0
    # the address is the TCP peer and the header is ignored.
    trusted_proxies: int = 0
    # Candidates one sizing may enumerate (sizing.search.search_size) by the kind of key. The
    # search streams them in chunks, so memory no longer grows with them (about 60 MiB of
    # peak RSS for any questionnaire the schema allows); what they cost is CPU time: on the
    # 2-core bench machine 70B on every pair at 1-512 nodes (5.8 million) takes 0.6-0.7 s,
    # Mixtral's larger expert grid there (14.1 million) 2.1 s, 70B at 1-128 (1.45 million) about
    # 0.3 s, end to end in one process. A secret key may send any dense model at any node range of today's
    # catalog (MoE up to about 1-219 nodes); the page's key about the full catalog at 1-128.
    search_candidates_secret_key: int = 6_000_000
    search_candidates_publishable_key: int = 1_500_000
    # Sizings queued or running at once per account, and of those made by publishable keys.
    active_sizings_per_account: int = 10
    active_sizings_from_publishable_keys: int = 4
    # `Prefer: wait` is capped at this, and only this many threads of a process wait at once
    # (keep it below gunicorn's --threads, so health checks and other requests are served).
    max_wait_s: int = 20
    wait_slots: int = 2
    # Browser origins allowed to call the API (the website's sizing form), comma-separated.
    cors_origins: tuple[str, ...] = ()
    # The publishable key the page at / uses; default: the one `flask site ensure-key` made.
    site_publishable_key: str | None = None
    # A request body that stops arriving this long (a client announcing more than it sends) is
    # refused with 408 instead of holding a thread; nginx's client_body_timeout is the same.
    body_read_timeout_s: int = 10
    # A key a process authenticated is not looked up again for this long: a key revoked by
    # another process (the command line, another server) stops working within this many
    # seconds; through the same process, at once. 0 looks every request's key up.
    api_key_cache_s: int = 5
    # How long an Idempotency-Key is remembered after its first use.
    idempotency_key_ttl_s: int = 86_400
    # A running sizing whose worker has not beaten for this long belongs to a dead worker.
    sizing_lease_s: float = 60.0
    # How often each worker's dispatcher resends sizings left waiting, and how old they must be:
    # never sent (a broker outage), or sent but not started (a message lost with Redis).
    dispatch_interval_s: float = 5.0
    resend_unsent_after_s: float = 2.0
    resend_unstarted_after_s: float = 120.0
    extra: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # A public key is never allowed more than a secret one.
        if self.search_candidates_publishable_key > self.search_candidates_secret_key:
            raise ConfigError("SEARCH_CANDIDATES_PUBLISHABLE_KEY must not exceed "
                              "SEARCH_CANDIDATES_SECRET_KEY")
        if self.active_sizings_from_publishable_keys > self.active_sizings_per_account:
            raise ConfigError("ACTIVE_SIZINGS_FROM_PUBLISHABLE_KEYS must not exceed "
                              "ACTIVE_SIZINGS_PER_ACCOUNT")
        if self.rate_limit_per_minute > self.account_rate_limit_per_minute:
            raise ConfigError("RATE_LIMIT_PER_MINUTE (per key) must not exceed "
                              "ACCOUNT_RATE_LIMIT_PER_MINUTE")

    @property
    def broker_url(self) -> str:
        return self.redis_url or "memory://"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Config:
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        if raw := env.get("DATABASE_URL"):
            values["database_url"] = normalise_database_url(
                parse_url("DATABASE_URL", raw, ("sqlite", "postgresql", "postgres"))
            )
        if raw := env.get("REDIS_URL"):
            values["redis_url"] = parse_url("REDIS_URL", raw, ("redis", "rediss"))
            values["tasks_eager"] = False
        if raw := env.get("TASKS_EAGER"):
            values["tasks_eager"] = parse_bool("TASKS_EAGER", raw)
        if raw := env.get("MAX_BODY_BYTES"):
            values["max_body_bytes"] = parse_int("MAX_BODY_BYTES", raw, minimum=1024)
        if raw := env.get("CATALOG_DIR"):
            path = Path(raw)
            if not path.is_dir():
                raise ConfigError(f"CATALOG_DIR={raw!r} is not a directory")
            values["catalog_dir"] = path
        for name, (variable, minimum) in WHOLE_NUMBERS.items():
            if raw := env.get(variable):
                values[name] = parse_int(variable, raw, minimum=minimum)
        if raw := env.get("CORS_ORIGINS"):
            origins = tuple(o.strip().rstrip("/") for o in raw.split(",") if o.strip())
            for origin in origins:
                parse_url("CORS_ORIGINS", origin, ("http", "https"))
            values["cors_origins"] = origins
        if raw := env.get("SITE_PUBLISHABLE_KEY", "").strip():
            if not raw.startswith(("pk_live_", "pk_test_")):
                raise ConfigError("SITE_PUBLISHABLE_KEY must be a publishable key (pk_live_ or pk_test_)")
            values["site_publishable_key"] = raw
        for name in ("sizing_lease_s", "dispatch_interval_s", "resend_unsent_after_s",
                     "resend_unstarted_after_s"):
            if raw := env.get(name.upper()):
                values[name] = parse_seconds(name.upper(), raw)
        if values.get("tasks_eager") is False and "redis_url" not in values:
            raise ConfigError("TASKS_EAGER=false needs REDIS_URL for the broker")
        return cls(**values)


def settings() -> Config:
    """The Config of the app serving the current request or task."""
    from flask import current_app

    return current_app.config["SIZING"]
