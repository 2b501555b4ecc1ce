"""Server-side keys for what the API signs (list cursors), kept in the database they protect.

Every API process of a deployment reads the same database, so every process signs and checks
with the same key without any setting; the key is made on first use.
"""

from __future__ import annotations

import secrets

from flask import current_app
from sqlalchemy.dialects import postgresql, sqlite

from service import db
from service.records import ServiceSecret


def key(name: str) -> bytes:
    """The named key, made once for the whole deployment and then cached by each process."""
    cache = current_app.extensions.setdefault("signing_keys", {})
    if name not in cache:
        session = db.session()
        insert = postgresql.insert if session.bind.dialect.name == "postgresql" else sqlite.insert
        # Two processes making it at once: the first insert wins, both read the same value.
        session.execute(insert(ServiceSecret).values(name=name, value=secrets.token_hex(32))
                        .on_conflict_do_nothing())
        session.commit()
        cache[name] = bytes.fromhex(session.get(ServiceSecret, name).value)
    return cache[name]
