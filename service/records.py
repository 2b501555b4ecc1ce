"""The service's own records: accounts and API keys, sizing requests and their results."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from catalog.tables import Base, utcnow

SIZING_STATES = ("queued", "running", "succeeded", "failed", "cancelled")
FINAL_STATES = ("succeeded", "failed", "cancelled")


def new_id() -> str:
    return str(uuid.uuid4())


class Sizing(Base):
    __tablename__ = "sizings"
    __table_args__ = (
        Index("ix_sizings_account_created", "account_id", "created_at", "id"),
        Index("ix_sizings_status_dispatched", "status", "dispatched_at"),
    )
    # Every write of a row keeps its account's active counts (Account.active_sizings) by
    # triggers (migration 0009). A migration that has SQLite rebuild this table (batch mode)
    # drops them, and must create them again.

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str | None] = mapped_column(String(36), default=None)
    # The key that created it: a publishable key sees only what it created itself, and only with
    # the client secret (service.client_secrets) its creation returned.
    api_key_id: Mapped[str | None] = mapped_column(String(36), default=None)
    client_secret_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    origin: Mapped[str] = mapped_column(String(8), default="api", server_default="api")
    status: Mapped[str] = mapped_column(String(12), default="queued")
    request: Mapped[dict[str, Any]]
    result: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    error: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    progress: Mapped[float] = mapped_column(default=0.0)
    catalog_version_id: Mapped[int | None] = mapped_column(
        ForeignKey("catalog_versions.id"), default=None
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    # Set when the broker accepted the task; queued records without it are sent again.
    dispatched_at: Mapped[datetime | None] = mapped_column(default=None)
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    # The running worker's lease: renewed by every heartbeat and by nothing else, so no other
    # update (a resend, a cancel request) can keep a dead worker's claim alive.
    heartbeat_at: Mapped[datetime | None] = mapped_column(default=None)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    attempts: Mapped[int] = mapped_column(default=0)
    cancel_requested: Mapped[bool] = mapped_column(default=False)


class Account(Base):
    __tablename__ = "accounts"
    # The triggers on sizings (migration 0009) write this table: SQLite refuses to rename a
    # rebuilt table (batch mode) into place while a trigger names it ('error in trigger
    # sizings_count_active_inserted: no such table: main.accounts'), so a migration that has
    # SQLite rebuild it drops them first and creates them again after.

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The account's sizings queued or running, and those of them its publishable keys made,
    # for its caps (service.allowances): kept by triggers on sizings in the transaction of
    # every write, so a creation reads them instead of counting the account's sizings.
    active_sizings: Mapped[int] = mapped_column(default=0, server_default="0")
    active_sizings_from_page: Mapped[int] = mapped_column(default=0, server_default="0")


class ApiKey(Base):
    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    # The visible start of the key (e.g. sk_live_3f9a1c2e), unique, used to find the row.
    prefix: Mapped[str] = mapped_column(String(32), unique=True)
    # SHA-256 of the whole key: keys are 160-bit random, so a slow hash adds nothing.
    secret_hash: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(12))  # secret | publishable
    mode: Mapped[str] = mapped_column(String(8))  # live | test
    scopes: Mapped[list[Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)
    last_used_at: Mapped[datetime | None] = mapped_column(default=None)


QUOTE_STATES = ("draft", "sent", "accepted", "expired")


class Quote(Base):
    __tablename__ = "quotes"
    __table_args__ = (Index("ix_quotes_account_created", "account_id", "created_at", "id"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(String(36))
    api_key_id: Mapped[str | None] = mapped_column(String(36), default=None)
    client_secret_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    # page: made with a publishable key (the website's form); api: with a secret key.
    origin: Mapped[str] = mapped_column(String(8), default="api", server_default="api")
    number: Mapped[str] = mapped_column(String(32), unique=True)
    status: Mapped[str] = mapped_column(String(12), default="draft")
    revision: Mapped[int] = mapped_column(default=1)
    # Bumped on every change; the ETag is made from it, so If-Match catches lost updates.
    lock_version: Mapped[int] = mapped_column(default=1)
    customer: Mapped[dict[str, Any]]
    sizing_id: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class QuoteRevision(Base):
    """One frozen pricing of a quote: catalog version, lines, totals, performance."""

    __tablename__ = "quote_revisions"

    quote_id: Mapped[str] = mapped_column(ForeignKey("quotes.id", ondelete="CASCADE"), primary_key=True)
    revision: Mapped[int] = mapped_column(primary_key=True)
    catalog_version_id: Mapped[int] = mapped_column(ForeignKey("catalog_versions.id"))
    reason: Mapped[str] = mapped_column(String(40))
    document: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class QuoteCounter(Base):
    """The last quote number issued each year; incremented in the creating transaction."""

    __tablename__ = "quote_counters"

    year: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    last: Mapped[int] = mapped_column(default=0)


class IdempotencyKey(Base):
    """An Idempotency-Key as one API key used it: claimed (pending), then the object it made."""

    __tablename__ = "idempotency_keys"

    account_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    api_key_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    # SHA-256 of the method, path and validated body the key was first used with.
    fingerprint: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(8))  # pending | done
    resource_id: Mapped[str | None] = mapped_column(String(36), default=None)
    status_code: Mapped[int | None] = mapped_column(default=None)
    # The object's client secret, so a replay shows it as the first answer did; kept only for
    # the key's lifetime.
    client_secret: Mapped[str | None] = mapped_column(String(64), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ServiceSecret(Base):
    """A key the service signs with (service.signing), shared by every process of a deployment."""

    __tablename__ = "service_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
