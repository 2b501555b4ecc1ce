"""Keyset pagination, newest first, by a signed cursor of the last row's (created_at, id).

A cursor is the position encoded and an HMAC over it and the listing it belongs to (which list,
which account, which filters), so a made-up, altered or borrowed cursor is refused, not obeyed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from datetime import datetime

from sqlalchemy import Select, and_, or_
from sqlalchemy.orm import Session

from service import signing

MAC_BYTES = 16


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    raw = base64.urlsafe_b64decode((text + "=" * (-len(text) % 4)).encode("ascii"))
    # Only the one canonical spelling: base64's last character carries spare bits, so another
    # character there would decode to the same bytes.
    if b64(raw) != text:
        raise ValueError("not canonical base64")
    return raw


def mac(listing: str, payload: str) -> bytes:
    message = f"{listing}\n{payload}".encode()
    return hmac.new(signing.key("cursor"), message, hashlib.sha256).digest()[:MAC_BYTES]


def encode_cursor(listing: str, created_at: datetime, row_id: str) -> str:
    payload = b64(json.dumps([created_at.isoformat(), row_id]).encode())
    return f"{payload}.{b64(mac(listing, payload))}"


def decode_cursor(listing: str, cursor: str) -> tuple[datetime, str]:
    """Raises ValueError on a cursor this API did not make for this listing."""
    payload, _, signature = cursor.partition(".")
    try:
        valid = hmac.compare_digest(unb64(signature), mac(listing, payload))
        created, row_id = json.loads(unb64(payload)) if valid else (None, None)
    except (ValueError, TypeError, UnicodeEncodeError):
        valid = False
    if not valid:
        raise ValueError("not a cursor from this API for this list")
    return datetime.fromisoformat(created), str(row_id)


def listing(name: str, account_id: str, **filters) -> str:
    """What a cursor is for: the list, the account and the filters of the first page."""
    return json.dumps([name, account_id, filters], sort_keys=True, default=str)


def newest_first(session: Session, query: Select, model, *, limit: int, cursor: str | None,
                 scope: str):
    """One page of `query` over `model` and the cursor of the next, stable under inserts."""
    if cursor is not None:
        created, row_id = decode_cursor(scope, cursor)
        query = query.where(or_(model.created_at < created,
                                and_(model.created_at == created, model.id < row_id)))
    rows = list(session.scalars(query.order_by(model.created_at.desc(), model.id.desc())
                                .limit(limit + 1)))
    more = len(rows) > limit
    rows = rows[:limit]
    return rows, (encode_cursor(scope, rows[-1].created_at, rows[-1].id) if more and rows else None)
