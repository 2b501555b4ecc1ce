"""API-key authentication, scopes and rate limits (per key, account and address) for the views."""

from __future__ import annotations

import functools
from collections.abc import Callable

from flask import Flask, after_this_request, current_app, g, request
from flask_smorest import Blueprint

from service import accounts, db
from service.accounts import KEY_SHAPE, Principal
from service.config import settings
from service.errors import Problem
from service.ratelimit import Bucket, Count, MemoryLimiter, RedisLimiter, window_now

SECURITY_SCHEMES = {
    "bearerAuth": {"type": "http", "scheme": "bearer",
                   "description": "An API key: `Authorization: Bearer sk_live_...` (secret) or "
                                  "`pk_live_...` (publishable, for browsers)"},
    "apiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key",
                     "description": "The same key in an X-API-Key header"},
}


def init_limits(app: Flask, redis_url: str | None) -> None:
    app.extensions["rate_limiter"] = RedisLimiter(redis_url) if redis_url else MemoryLimiter()


def limiter():
    return current_app.extensions["rate_limiter"]


def presented_key() -> str | None:
    header = request.headers.get("Authorization")
    bearer = (header[7:].strip() or None) if header and header[:7].lower() == "bearer " else None
    other = request.headers.get("X-API-Key")
    if header is not None and other is not None and bearer != other:
        # Two different credentials: which one counts is a guess a client or a proxy could make
        # differently, so neither does.
        raise Problem(401, "ambiguous_credentials",
                      "Authorization and X-API-Key name different keys; send one key",
                      headers={"WWW-Authenticate": 'Bearer realm="gpu-sizing"'})
    return bearer if header is not None else (other or None)


def client_address() -> str:
    """The client's address: the TCP peer, or what TRUSTED_PROXIES reverse proxies reported."""
    return request.remote_addr or "unknown"


def failures_bucket() -> Bucket:
    return Bucket("auth-failures", f"authfail:{client_address()}",
                  settings().auth_failures_per_address)


def refuse_if_blocked(failures: Count) -> None:
    if failures.used >= failures.bucket.limit:
        raise Problem(429, "too_many_failed_authentications",
                      f"Too many requests with an unknown key from this address; retry in "
                      f"{window_now()[1]} s", headers={"Retry-After": str(window_now()[1])})


def authenticated() -> tuple[Principal, Bucket | None]:
    """The caller, and its address's failures bucket if that is still to be checked.

    Guessing keys costs a database lookup each, so an address past its failures waits,
    unlooked-up. A key this process already knows (accounts.SeenKeys) costs no lookup: its
    address's failures are read with the rate limits, in their round trip (enforce_rate_limit).
    """
    key = presented_key()
    if not key:
        raise Problem(401, "unauthenticated", "An API key is required: Authorization: Bearer <key>",
                      headers={"WWW-Authenticate": 'Bearer realm="gpu-sizing"'})
    failures = failures_bucket()
    cache_s = settings().api_key_cache_s
    well_formed = KEY_SHAPE.fullmatch(key) is not None
    if well_formed and cache_s > 0 and (seen := accounts.remembered(db.session(), key)) is not None:
        return seen, failures
    refuse_if_blocked(Count(failures, limiter().used(failures)))
    principal = accounts.authenticate(db.session(), key, cache_s) if well_formed else None
    if principal is None:
        limiter().add(failures)
        raise Problem(401, "invalid_key", "The API key is unknown or revoked",
                      headers={"WWW-Authenticate": 'Bearer realm="gpu-sizing", error="invalid_token"'})
    return principal, None


def current_principal() -> Principal:
    if "principal" in g:
        return g.principal
    principal, unchecked = authenticated()
    if unchecked is not None:
        refuse_if_blocked(Count(unchecked, limiter().used(unchecked)))
    g.principal = principal
    return principal


def enforce_rate_limit(principal: Principal, failures: Bucket | None = None) -> None:
    """Count the request against the key's, the account's and (publishable) the address's
    limits, and check `failures` (an address's failed authentications) in the same round trip:
    an address past them is refused without spending the key's or the account's allowance."""
    config = settings()
    buckets = [Bucket("key", f"key:{principal.key_id}", config.rate_limit_per_minute),
               # Every key of an account together: more keys do not buy more requests.
               Bucket("account", f"account:{principal.account_id}",
                      config.account_rate_limit_per_minute)]
    if principal.publishable:
        # One visitor cannot spend the allowance every visitor of the page shares.
        buckets.append(Bucket("address", f"address:{principal.key_id}:{client_address()}",
                              config.publishable_rate_limit_per_address))
    verdict = limiter().hit(buckets, read=() if failures is None else (failures,))
    for count in verdict.read:
        refuse_if_blocked(count)
    headers = verdict.headers()
    if not verdict.allowed:
        raise Problem(429, "rate_limited",
                      f"Too many requests ({', '.join(verdict.exceeded)} limit); retry in "
                      f"{verdict.reset_s} s", headers=headers)

    @after_this_request
    def _add(response):
        response.headers.update(headers)
        return response


def requires(blp: Blueprint, *any_of: str, too_many: str = "") -> Callable:
    """Authenticate the caller, rate-limit it (key, account, address), demand one of these scopes.

    Applied outermost, so a request without a valid key is refused before its body is read.
    `too_many` opens the 429 description with what else the operation answers 429 for.
    """

    def decorator(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            principal, unchecked = authenticated()
            enforce_rate_limit(principal, unchecked)
            g.principal = principal
            if not principal.scopes & set(any_of):
                raise Problem(403, "insufficient_scope",
                              f"This key lacks the scope for this operation: needs one of "
                              f"{', '.join(any_of)}")
            return view(*args, **kwargs)

        wrapper = blp.alt_response(401, description="No key, or an unknown or revoked key")(wrapper)
        wrapper = blp.alt_response(403, description=f"The key lacks a scope: {' or '.join(any_of)}")(wrapper)
        wrapper = blp.alt_response(429, description=(
            f"{too_many + ' a' if too_many else 'A'} rate limit is exceeded (per key, per "
            "account, per client address on a publishable key, or failed authentications per "
            "address); see Retry-After"))(wrapper)
        return blp.doc(security=[{"bearerAuth": []}, {"apiKeyHeader": []}])(wrapper)

    return decorator
