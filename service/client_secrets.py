"""Per-object client secrets: how a publishable key reads back what it created, and nothing else.

A sizing or quote made through the page's publishable key is readable with that key only
together with the secret its creation returned (like a payment platform's client secret for a
payment intent); the visitor's browser keeps it for the session. The key alone lists nothing
and reads nothing. Only the secret's SHA-256 is stored.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import request

from service.accounts import Principal
from service.errors import Problem

HEADER = "Client-Secret"
PREFIX = "cs_"
# What a client secret looks like, so a malformed one is refused without a lookup.
PATTERN = r"cs_[A-Za-z0-9_-]{32}"


def new() -> tuple[str, str]:
    """A fresh secret and the digest to store."""
    plaintext = PREFIX + secrets.token_urlsafe(24)
    return plaintext, digest(plaintext)


def digest(plaintext: str) -> str:
    return hashlib.sha256(plaintext.encode("utf-8", "replace")).hexdigest()


def matches(stored_sha256: str | None, presented: str | None) -> bool:
    return bool(stored_sha256 and presented) and hmac.compare_digest(stored_sha256,
                                                                     digest(presented))


def origin(principal: Principal) -> str:
    """`page` for what a publishable key (the website's form) made, `api` for a secret key."""
    return "page" if principal.publishable else "api"


def required(principal: Principal) -> str | None:
    """The presented secret a publishable key must send to read an object; None for secret keys."""
    if not principal.publishable:
        return None
    presented = request.headers.get(HEADER, "")
    if not presented:
        raise Problem(403, "client_secret_required",
                      f"A publishable key reads an object only with the client secret its creation "
                      f"returned, in the {HEADER} header",
                      errors=[{"pointer": f"/headers/{HEADER}", "detail": "required"}])
    return presented


def no_listing() -> Problem:
    return Problem(403, "insufficient_scope",
                   "A publishable key lists nothing; it reads back what it created with the "
                   "client secret returned at creation")
