"""Accounts and API keys: keys are shown once, stored hashed, scoped, revocable."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from catalog.tables import utcnow
from service.records import Account, ApiKey

__all__ = ["Account", "ApiKey", "Principal", "authenticate", "create_account", "create_key",
           "remembered", "revoke"]

SCOPES = (
    "catalog:read",     # read the catalog and presets
    "catalog:admin",    # change prices and stock (makes a new catalog version)
    "estimates:write",  # run the model synchronously
    "sizings:read",     # read the account's sizings
    "sizings:write",    # create and cancel sizings (and read them back)
    "quotes:read",      # read the account's quotes
    "quotes:request",   # request a draft quote from a sizing this key made, and read it back
    "quotes:write",     # create, update, re-price and export quotes
)
SECRET_DEFAULT_SCOPES = ("catalog:read", "estimates:write", "sizings:read", "sizings:write",
                         "quotes:read", "quotes:write")
# The website's form runs in browsers, so its key is public: it may only do what the form does.
PUBLISHABLE_SCOPES = ("catalog:read", "estimates:write", "sizings:write", "quotes:request")
KIND_PREFIX = {"secret": "sk", "publishable": "pk"}
# What create_key makes: a malformed key is refused without a lookup.
KEY_SHAPE = re.compile(r"(sk|pk)_(live|test)_[0-9a-f]{8}[A-Za-z0-9_-]{32}")


@dataclass(frozen=True)
class Principal:
    """Who is calling: the account, the key and what it may do."""

    account_id: str
    key_id: str
    kind: str
    scopes: frozenset[str]

    @property
    def publishable(self) -> bool:
        return self.kind == "publishable"


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def create_account(session: Session, name: str) -> Account:
    account = Account(name=name)
    session.add(account)
    session.commit()
    return account


def create_key(session: Session, account_id: str, *, kind: str = "secret", mode: str = "live",
               scopes: tuple[str, ...] | None = None, name: str = "") -> tuple[ApiKey, str]:
    """A new key; the plaintext is returned once and never stored."""
    if kind not in KIND_PREFIX:
        raise ValueError(f"kind must be one of {', '.join(KIND_PREFIX)}")
    if mode not in ("live", "test"):
        raise ValueError("mode must be live or test")
    allowed = PUBLISHABLE_SCOPES if kind == "publishable" else SCOPES
    scopes = tuple(scopes or (PUBLISHABLE_SCOPES if kind == "publishable" else SECRET_DEFAULT_SCOPES))
    unknown = [s for s in scopes if s not in allowed]
    if unknown:
        raise ValueError(f"scopes not allowed on a {kind} key: {', '.join(unknown)}")
    prefix = f"{KIND_PREFIX[kind]}_{mode}_{secrets.token_hex(4)}"
    plaintext = f"{prefix}{secrets.token_urlsafe(24)}"
    key = ApiKey(account_id=account_id, name=name, prefix=prefix, secret_hash=digest(plaintext),
                 kind=kind, mode=mode, scopes=list(scopes))
    session.add(key)
    session.commit()
    return key, plaintext


class SeenKeys:
    """Keys this process authenticated in the last `cache_s` seconds, so that a busy client's
    requests do not each look its key up. A key revoked through this process stops at once;
    one revoked by another (the command line, another server) within `cache_s` seconds."""

    MAX_ENTRIES = 10_000

    def __init__(self) -> None:
        self._entries: dict[tuple[str, str], tuple[Principal, str, float]] = {}
        self._lock = threading.Lock()
        # Counts revocations: a lookup that began before one may have read the revoked key.
        self.revocations = 0

    def get(self, where: str, hashed: str) -> Principal | None:
        with self._lock:
            entry = self._entries.get((where, hashed))
        return entry[0] if entry and entry[2] > time.monotonic() else None

    def put(self, where: str, hashed: str, principal: Principal, prefix: str,
            cache_s: float, looked_up_after: int) -> None:
        """Remember a key looked up after `looked_up_after` revocations, unless one came since."""
        now = time.monotonic()
        with self._lock:
            if self.revocations != looked_up_after:
                return
            if len(self._entries) >= self.MAX_ENTRIES:
                self._entries = {k: v for k, v in self._entries.items() if v[2] > now}
            self._entries[(where, hashed)] = (principal, prefix, now + cache_s)

    def forget(self, prefix: str) -> None:
        with self._lock:
            self.revocations += 1
            self._entries = {k: v for k, v in self._entries.items() if v[1] != prefix}


SEEN = SeenKeys()


def database_of(session: Session) -> str:
    # Keys are cached per database too, since one process may talk to several.
    return str(session.get_bind().url)


def remembered(session: Session, presented: str) -> Principal | None:
    """The principal of a key this process authenticated within its cache window, unlooked-up."""
    return SEEN.get(database_of(session), digest(presented))


def authenticate(session: Session, presented: str, cache_s: float = 0.0) -> Principal | None:
    """The principal of a presented key, looked up; None for an unknown, malformed or revoked
    key. With `cache_s`, the principal is remembered (`remembered`) for that long."""
    hashed = digest(presented)
    prefix = presented[:16]
    revocations = SEEN.revocations
    key = session.scalars(select(ApiKey).where(ApiKey.prefix == prefix)).first()
    if key is None or key.revoked_at is not None:
        return None
    if not hmac.compare_digest(key.secret_hash, hashed):
        return None
    now = utcnow()
    # last_used_at is advisory: write it at most once a minute per key.
    if key.last_used_at is None or (now - key.last_used_at).total_seconds() > 60:
        session.execute(update(ApiKey).where(ApiKey.id == key.id).values(last_used_at=now))
        session.commit()
    principal = Principal(account_id=key.account_id, key_id=key.id, kind=key.kind,
                          scopes=frozenset(key.scopes))
    if cache_s > 0:
        SEEN.put(database_of(session), hashed, principal, prefix, cache_s, revocations)
    return principal


def revoke(session: Session, prefix: str) -> bool:
    result = session.execute(update(ApiKey).where(ApiKey.prefix == prefix, ApiKey.revoked_at.is_(None))
                             .values(revoked_at=utcnow()))
    session.commit()
    SEEN.forget(prefix)
    return result.rowcount == 1
