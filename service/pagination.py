"""Keyset pagination, newest first, by an opaque cursor of the last row's (created_at, id)."""

from __future__ import annotations

import base64
import json
from datetime import datetime

from sqlalchemy import Select, and_, or_
from sqlalchemy.orm import Session


def encode_cursor(created_at: datetime, row_id: str) -> str:
    raw = json.dumps([created_at.isoformat(), row_id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """Raises ValueError on a cursor this API did not make."""
    padded = cursor + "=" * (-len(cursor) % 4)
    try:
        created, row_id = json.loads(base64.urlsafe_b64decode(padded.encode()))
        return datetime.fromisoformat(created), str(row_id)
    except Exception as exc:
        raise ValueError("not a cursor from this API") from exc


def newest_first(session: Session, query: Select, model, *, limit: int, cursor: str | None):
    """One page of `query` over `model` and the cursor of the next, stable under inserts."""
    if cursor:
        created, row_id = decode_cursor(cursor)
        query = query.where(or_(model.created_at < created,
                                and_(model.created_at == created, model.id < row_id)))
    rows = list(session.scalars(query.order_by(model.created_at.desc(), model.id.desc())
                                .limit(limit + 1)))
    more = len(rows) > limit
    rows = rows[:limit]
    return rows, (encode_cursor(rows[-1].created_at, rows[-1].id) if more and rows else None)
