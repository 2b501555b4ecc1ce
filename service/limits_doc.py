"""The limits the API applies, in words, for the spec's description and the README's table."""

from __future__ import annotations

from service.config import Config
from service.idempotency import ABANDONED_AFTER, FIRST_REQUEST_WAIT_S
from service.json_body import MAX_DEPTH, MAX_INTEGER_DIGITS

# (what is limited, the Config field, its environment variable, what happens past it)
LIMITS = [
    ("Requests per minute per API key", "rate_limit_per_minute", "RATE_LIMIT_PER_MINUTE",
     "429 rate_limited, Retry-After"),
    ("Requests per minute per account, all its keys together", "account_rate_limit_per_minute",
     "ACCOUNT_RATE_LIMIT_PER_MINUTE", "429 rate_limited"),
    ("Requests per minute per client address on a publishable key",
     "publishable_rate_limit_per_address", "PUBLISHABLE_RATE_LIMIT_PER_ADDRESS",
     "429 rate_limited"),
    (("Failed authentications per minute per client address (then every keyed request from "
      "it waits out the minute, without a lookup)"), "auth_failures_per_address",
     "AUTH_FAILURES_PER_ADDRESS", "429 too_many_failed_authentications"),
    (("Candidates one sizing may search with a secret key (pairs x node counts x the "
      "layouts whose degrees divide each GPU count)"),
     "search_candidates_secret_key", "SEARCH_CANDIDATES_SECRET_KEY", "422 search_too_large"),
    ("... with a publishable key", "search_candidates_publishable_key",
     "SEARCH_CANDIDATES_PUBLISHABLE_KEY", "422 search_too_large"),
    ("Sizings queued or running at once per account", "active_sizings_per_account",
     "ACTIVE_SIZINGS_PER_ACCOUNT", "429 too_many_active_sizings, Retry-After"),
    ("... of which made by the account's publishable keys", "active_sizings_from_publishable_keys",
     "ACTIVE_SIZINGS_FROM_PUBLISHABLE_KEYS", "429 too_many_active_sizings, Retry-After"),
    ("Longest `Prefer: wait`, in seconds", "max_wait_s", "PREFER_WAIT_MAX_S",
     "the answer comes at the cap"),
    ("Requests waiting at once per server process", "wait_slots", "PREFER_WAIT_SLOTS",
     "answered at once, without Preference-Applied"),
    (("Seconds a key revoked by another process may still work (each process remembers "
      "the keys it authenticated for this long)"), "api_key_cache_s", "API_KEY_CACHE_S",
     "401 invalid_key"),
    ("Lifetime of an Idempotency-Key after its first use, in seconds", "idempotency_key_ttl_s",
     "IDEMPOTENCY_KEY_TTL_S", "the key is new again"),
    ("Largest request body, in bytes", "max_body_bytes", "MAX_BODY_BYTES",
     "413 body_too_large"),
    ("A body that stops arriving, in seconds", "body_read_timeout_s", "BODY_READ_TIMEOUT_S",
     "408 request_timeout"),
]


def markdown(config: Config) -> str:
    rows = "\n".join(f"| {what} | {getattr(config, name):,} | `{variable}` | {past} |"
                     for what, name, variable, past in LIMITS)
    return (
        "| limit | value | setting | past it |\n| --- | --- | --- | --- |\n" + rows + "\n\n"
        f"JSON bodies nest at most {MAX_DEPTH} levels, and their integers have at most "
        f"{MAX_INTEGER_DIGITS:,} digits (400 invalid_json). An Idempotency-Key is "
        "kept per API key; a retry while the first request runs waits up to "
        f"{FIRST_REQUEST_WAIT_S:g} s for its answer, then gets 409 idempotency_key_in_use; a "
        f"claim left by a request that died is taken over after "
        f"{int(ABANDONED_AFTER.total_seconds())} s.")
