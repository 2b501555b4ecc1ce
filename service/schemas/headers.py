"""Schemas of the request headers operations read: Prefer, Idempotency-Key, If-Match, Client-Secret."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate as v

from service import client_secrets
from service.errors import Problem
from service.schemas.fields import FullMatch


class Headers(ma.Schema):
    # Every request carries other headers; only the ones named are read.
    class Meta:
        unknown = ma.EXCLUDE


class PreferHeaderSchema(Headers):
    prefer = ma.fields.String(
        data_key="Prefer", validate=v.Length(max=200),
        metadata={"description": "RFC 7240 `wait=N`: wait up to N seconds (at most "
                                 "PREFER_WAIT_MAX_S) for the result, while the server has a "
                                 "wait slot free; Preference-Applied says so"})


class IdempotencyHeaderSchema(Headers):
    idempotency_key = ma.fields.String(
        data_key="Idempotency-Key",
        # Empty is as if not sent.
        # Visible ASCII but the comma (0x2C), which joins repeated fields.
        validate=FullMatch(r"[!-+\--~]{0,200}",
                           error="up to 200 visible ASCII characters, no comma"),
        metadata={"description": "Retry-safe key, kept per API key for IDEMPOTENCY_KEY_TTL_S: a "
                                 "repeat of the same request returns the object the first one "
                                 "made (Idempotent-Replayed: true); while the first still runs "
                                 "it waits, then 409; with another method, path or body, 422. "
                                 "One key, without a comma: two Idempotency-Key fields (joined "
                                 "with commas on the way in) are a 400"})

    @ma.pre_load
    def _one_key(self, data, **_):
        # A server joins repeated header fields with commas (RFC 9110 5.3): "k1,k2" is two
        # keys, and taking either, or both as one, would replay the wrong request.
        given = data.get("Idempotency-Key")  # webargs' proxy: `missing` when not sent
        if isinstance(given, str) and "," in given:
            raise Problem(400, "bad_request", "Send one Idempotency-Key, once",
                          errors=[{"pointer": "/headers/Idempotency-Key",
                                   "detail": "given more than once, or with a comma"}])
        return data


class IfMatchHeaderSchema(Headers):
    if_match = ma.fields.String(data_key="If-Match", required=True, validate=v.Length(min=1, max=200),
                                metadata={"description": "The quote's ETag; without it, 428"})

    @ma.pre_load
    def _present(self, data, **_):
        # A change without a precondition is 428 (RFC 6585), not a 422 like other missing input.
        if "If-Match" not in data:
            raise Problem(428, "precondition_required",
                          "Send If-Match with the quote's ETag to change it",
                          errors=[{"pointer": "/headers/If-Match", "detail": "required"}])
        return data


class ClientSecretHeaderSchema(Headers):
    client_secret = ma.fields.String(
        data_key="Client-Secret",
        # Empty is as if not sent.
        validate=FullMatch(f"(?:{client_secrets.PATTERN})?", error="Not a client secret."),
        metadata={"description": "Publishable keys: the client_secret the object's creation "
                                 "returned (required); secret keys need none"})
