"""API-key authentication, scopes and per-key rate limits for the views."""

from __future__ import annotations

import functools
from collections.abc import Callable

from flask import Flask, after_this_request, current_app, g, request
from flask_smorest import Blueprint

from service import accounts, db
from service.accounts import Principal
from service.errors import Problem
from service.ratelimit import MemoryLimiter, RedisLimiter

SECURITY_SCHEMES = {
    "bearerAuth": {"type": "http", "scheme": "bearer",
                   "description": "An API key: `Authorization: Bearer sk_live_...` (secret) or "
                                  "`pk_live_...` (publishable, for browsers)"},
    "apiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key",
                     "description": "The same key in an X-API-Key header"},
}


def init_limits(app: Flask, redis_url: str | None, per_minute: int) -> None:
    app.extensions["rate_limiter"] = (RedisLimiter(redis_url, per_minute) if redis_url
                                      else MemoryLimiter(per_minute))


def presented_key() -> str | None:
    header = request.headers.get("Authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip() or None
    return request.headers.get("X-API-Key") or None


def current_principal() -> Principal:
    if "principal" in g:
        return g.principal
    key = presented_key()
    if not key:
        raise Problem(401, "unauthenticated", "An API key is required: Authorization: Bearer <key>",
                      headers={"WWW-Authenticate": 'Bearer realm="gpu-sizing"'})
    principal = accounts.authenticate(db.session(), key)
    if principal is None:
        raise Problem(401, "invalid_key", "The API key is unknown or revoked",
                      headers={"WWW-Authenticate": 'Bearer realm="gpu-sizing", error="invalid_token"'})
    g.principal = principal
    return principal


def enforce_rate_limit(principal: Principal) -> None:
    verdict = current_app.extensions["rate_limiter"].hit(principal.key_id)
    headers = verdict.headers()
    if not verdict.allowed:
        raise Problem(429, "rate_limited",
                      f"Too many requests for this key; retry in {verdict.reset_s} s",
                      headers=headers)

    @after_this_request
    def _add(response):
        response.headers.update(headers)
        return response


def requires(blp: Blueprint, *any_of: str) -> Callable:
    """Authenticate the caller, rate-limit its key, and demand one of these scopes.

    Applied outermost, so a request without a valid key is refused before its body is read.
    """

    def decorator(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            principal = current_principal()
            enforce_rate_limit(principal)
            if not principal.scopes & set(any_of):
                raise Problem(403, "insufficient_scope",
                              f"This key lacks the scope for this operation: needs one of "
                              f"{', '.join(any_of)}")
            return view(*args, **kwargs)

        wrapper = blp.alt_response(401, description="No key, or an unknown or revoked key")(wrapper)
        wrapper = blp.alt_response(403, description=f"The key lacks a scope: {' or '.join(any_of)}")(wrapper)
        wrapper = blp.alt_response(429, description="Rate limit exceeded; see Retry-After")(wrapper)
        return blp.doc(security=[{"bearerAuth": []}, {"apiKeyHeader": []}])(wrapper)

    return decorator
