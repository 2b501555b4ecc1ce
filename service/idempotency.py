"""Idempotency-Key on every POST that creates: one object per (account, API key, key, request).

The key is claimed before any work, after authentication and the permission checks, in a row
of its own: a retry with the same key and the same request gets the object the first request
made; a retry while the first is still being made waits for it (up to 2 s), then gets 409; the same key with another request
is refused with 422. Keys are per API key, so a key another API key of the account used is a new
key here, and tells nothing of it. A key is remembered for `idempotency_key_ttl_s` (default 24 h)
after its first use, then is new again.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from flask import request
from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from catalog.tables import utcnow
from service.accounts import Principal
from service.errors import Problem
from service.records import IdempotencyKey

# A claim whose request neither finished nor failed this long (its process died) is taken over.
ABANDONED_AFTER = timedelta(seconds=30)
# How long a concurrent retry waits for the first request before answering 409.
FIRST_REQUEST_WAIT_S = 2.0
HEADER = "Idempotency-Key"


def fingerprint(body: Any) -> str:
    """The request a key was first used for: method, path and the validated body."""
    text = json.dumps({"method": request.method, "path": request.path, "body": body},
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Claim:
    """A key being used: either this request's to complete, or the finished first use to replay."""

    row: IdempotencyKey

    @property
    def replay(self) -> bool:
        return self.row.state == "done"

    def complete(self, resource_id: str, status_code: int, client_secret: str | None) -> None:
        """Mark the key used for this object, in the transaction that creates the object."""
        self.row.state = "done"
        self.row.resource_id = resource_id
        self.row.status_code = status_code
        # Kept in plain text for the key's lifetime only, so a replay can show it again.
        self.row.client_secret = client_secret


def claim(session: Session, principal: Principal, key: str, request_fingerprint: str,
          ttl_s: int) -> Claim:
    """Take the key for this request, or find its first use; raises 409 or 422 problems."""
    ids = {"account_id": principal.account_id, "api_key_id": principal.key_id, "key": key}
    for _ in range(3):
        now = utcnow()
        # This API key's keys past their lifetime go as a new one comes: the table stays small.
        session.execute(delete(IdempotencyKey).where(
            IdempotencyKey.account_id == ids["account_id"],
            IdempotencyKey.api_key_id == ids["api_key_id"],
            IdempotencyKey.created_at < now - timedelta(seconds=ttl_s)))
        row = IdempotencyKey(**ids, fingerprint=request_fingerprint, state="pending", created_at=now)
        session.add(row)
        try:
            session.commit()
            return Claim(row)
        except IntegrityError:
            session.rollback()
        existing = session.get(IdempotencyKey, (ids["account_id"], ids["api_key_id"], key),
                               populate_existing=True)
        if existing is None:
            continue  # released meanwhile: try again
        if existing.created_at < now - timedelta(seconds=ttl_s):
            forget(session, existing)
            continue
        if existing.fingerprint != request_fingerprint:
            raise Problem(422, "idempotency_key_reused",
                          f"This {HEADER} was used with a different request",
                          errors=[{"pointer": f"/headers/{HEADER}",
                                   "detail": "already used with another method, path or body"}])
        if existing.state == "done":
            return Claim(existing)
        if existing.created_at < now - ABANDONED_AFTER and take_over(session, existing, now):
            return Claim(existing)
        finished = wait_for_first(session, existing)
        if finished is None:
            continue  # the first request failed and gave the key back: this one takes it
        if finished.state == "done":
            return Claim(finished)
        raise Problem(409, "idempotency_key_in_use",
                      f"A request with this {HEADER} is still being processed; retry shortly",
                      headers={"Retry-After": "1"})
    raise Problem(409, "idempotency_key_in_use",
                  f"This {HEADER} is contended; retry shortly", headers={"Retry-After": "1"})


def wait_for_first(session: Session, row: IdempotencyKey) -> IdempotencyKey | None:
    """The key's row once its first request finishes (None if it gave the key back), waiting
    at most FIRST_REQUEST_WAIT: creating an object takes milliseconds, so a concurrent retry
    usually gets the first answer instead of a 409."""
    deadline = time.monotonic() + FIRST_REQUEST_WAIT_S
    ident = (row.account_id, row.api_key_id, row.key)
    while time.monotonic() < deadline:
        time.sleep(0.05)
        session.rollback()  # a fresh snapshot each time
        current = session.get(IdempotencyKey, ident, populate_existing=True)
        if current is None or current.state == "done":
            return current
    return row


def take_over(session: Session, row: IdempotencyKey, now) -> bool:
    """Claim an abandoned pending key, unless another retry took it first."""
    taken = session.execute(update(IdempotencyKey).where(
        IdempotencyKey.account_id == row.account_id, IdempotencyKey.api_key_id == row.api_key_id,
        IdempotencyKey.key == row.key, IdempotencyKey.state == "pending",
        IdempotencyKey.created_at == row.created_at).values(created_at=now)).rowcount == 1
    session.commit()
    if taken:
        session.refresh(row)
    return taken


def forget(session: Session, row: IdempotencyKey) -> None:
    session.execute(delete(IdempotencyKey).where(
        IdempotencyKey.account_id == row.account_id, IdempotencyKey.api_key_id == row.api_key_id,
        IdempotencyKey.key == row.key, IdempotencyKey.created_at == row.created_at))
    session.commit()


def release(session: Session, held: Claim) -> None:
    """Give the key back after the request failed, so a corrected retry can use it."""
    session.rollback()
    if held.row.state == "pending":
        forget(session, held.row)


@contextmanager
def guarded(session: Session, principal: Principal, key: str | None, body: Any,
            ttl_s: int) -> Iterator[Claim | None]:
    """The claim of this request's key (None without one), released if the work fails."""
    if not key:
        yield None
        return
    held = claim(session, principal, key, fingerprint(body), ttl_s)
    if held.replay:
        yield held
        return
    try:
        yield held
    except BaseException:
        release(session, held)
        raise


def replayed(headers: dict[str, str]) -> dict[str, str]:
    return {**headers, "Idempotent-Replayed": "true"}
