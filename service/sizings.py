"""Sizing records: accept, dispatch to a worker, claim, finish, cancel, list."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select, text, update
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from catalog.tables import utcnow
from service import client_secrets
from service.accounts import Principal
from service.celery_app import send_task, tasks_run_here
from service.idempotency import Claim
from service.pagination import listing, newest_first
from service.records import FINAL_STATES, Sizing, new_id

RUN_SIZING = "tasks.run_sizing"


def stage(session: Session, request_doc: dict[str, Any], principal: Principal,
          claim: Claim | None, catalog_version_id: int) -> tuple[Sizing, str, dict[str, Any]]:
    """The record, its client secret and its columns, for allowances.hold_active_slot to write
    in the session's transaction, counted with the account's active sizings under its lock;
    committed by `commit_and_send`.

    The client secret exists in plain text only in this answer. An Idempotency-Key's claim is
    completed in the same transaction. The sizing runs on the catalog version its request was
    checked against.
    """
    secret, secret_sha256 = client_secrets.new()
    now = utcnow()
    # Every column, as the model's defaults would fill it in; the result and the error are
    # left out, so they are SQL NULL (a None given to a JSON column is stored as JSON null).
    values = {"id": new_id(), "request": request_doc, "account_id": principal.account_id,
              "api_key_id": principal.key_id, "client_secret_sha256": secret_sha256,
              "origin": client_secrets.origin(principal), "status": "queued",
              "progress": 0.0, "catalog_version_id": catalog_version_id,
              "created_at": now, "updated_at": now,
              # Stamped with the send that follows its commit (commit_and_send).
              "dispatched_at": None if tasks_run_here() else now, "started_at": None,
              "heartbeat_at": None, "finished_at": None, "attempts": 0,
              "cancel_requested": False}
    # The record as it is written, in the session as if loaded: nothing left for a flush.
    sizing = Sizing(**values, result=None, error=None)
    make_transient_to_detached(sizing)
    session.add(sizing)
    if claim:
        claim.complete(sizing.id, 202, secret)
    return sizing, secret, values


def commit_and_send(session: Session, sizing: Sizing) -> Sizing:
    """Commit the staged record, then send its task: a broker outage loses nothing.

    The record is committed already stamped with the time of the send that follows, so
    creating a sizing is one transaction; only a send the broker refuses costs a second one,
    which clears the stamp so the dispatcher resends it after RESEND_UNSENT_AFTER_S. (A
    process that dies between the commit and the send leaves a stamped record, resent like a
    lost message, after RESEND_UNSTARTED_AFTER_S.)
    """
    session.commit()
    if tasks_run_here():
        # Embedded: the task runs in this process and changes the record: read it back.
        dispatch(session, sizing.id)
        session.refresh(sizing)
    elif not send_task(RUN_SIZING, sizing.id):
        session.execute(update(Sizing).where(Sizing.id == sizing.id).values(dispatched_at=None))
        session.commit()
        # Sessions keep what they committed: only the stamp changed, so no read back.
        set_committed_value(sizing, "dispatched_at", None)
    return sizing


def dispatch(session: Session, sizing_id: str) -> datetime | None:
    """Send the task; the time it was sent, or None when the broker could not take it."""
    if not send_task(RUN_SIZING, sizing_id):
        return None
    sent_at = utcnow()
    if session.get_bind().dialect.name == "postgresql":
        # The send time only spares the dispatcher a resend; if a crash lost this commit, the
        # resent task would find the record claimed or done. So this commit need not wait for
        # the disk.
        session.execute(text("SET LOCAL synchronous_commit TO OFF"))
    session.execute(update(Sizing).where(Sizing.id == sizing_id).values(dispatched_at=sent_at))
    session.commit()
    return sent_at


def redispatch_stale(session: Session, *, lease: timedelta, undispatched_after: timedelta,
                     dispatched_after: timedelta) -> int:
    """Send again what a broker outage, a lost message or a dead worker left waiting.

    Returns how many were sent; `lease` is how long a running record may go without a
    heartbeat (Config: sizing_lease_s, resend_unsent_after_s, resend_unstarted_after_s).
    """
    now = utcnow()
    stale = session.scalars(
        select(Sizing.id).where(or_(
            and_(Sizing.status == "queued", Sizing.dispatched_at.is_(None),
                 Sizing.created_at < now - undispatched_after),
            # Redis keeps no queue across a restart here; a queued record nobody started is resent.
            and_(Sizing.status == "queued", Sizing.dispatched_at < now - dispatched_after),
            and_(Sizing.status == "running", Sizing.heartbeat_at < now - lease),
        )).order_by(Sizing.created_at).limit(500)
    ).all()
    sent = 0
    for sizing_id in stale:
        if not dispatch(session, sizing_id):
            break
        sent += 1
    return sent


def claim(session: Session, sizing_id: str, lease: timedelta) -> int | None:
    """Take the record for this run; returns the attempt number, or None if not ours to run.

    Only a queued record, or a running one whose worker stopped beating, can be claimed,
    so a redelivered or duplicated message never runs a finished sizing again.
    """
    now = utcnow()
    current = session.get(Sizing, sizing_id)
    if current is None or current.status in FINAL_STATES:
        return None
    if current.cancel_requested:
        finish_cancelled(session, sizing_id)
        return None
    attempt = current.attempts + 1
    result = session.execute(
        update(Sizing)
        .where(Sizing.id == sizing_id, Sizing.attempts == current.attempts,
               or_(Sizing.status == "queued",
                   and_(Sizing.status == "running", Sizing.heartbeat_at < now - lease)))
        .values(status="running", attempts=attempt, started_at=now, heartbeat_at=now, progress=0.0)
    )
    session.commit()
    return attempt if result.rowcount == 1 else None


def release(session: Session, sizing_id: str, attempt: int) -> None:
    """Give a claimed record back to the queue after a transient failure."""
    session.execute(
        update(Sizing).where(Sizing.id == sizing_id, Sizing.attempts == attempt,
                             Sizing.status == "running")
        .values(status="queued", updated_at=utcnow())
    )
    session.commit()


def heartbeat(session: Session, sizing_id: str, attempt: int, progress: float) -> bool:
    """Record progress; False when the run lost its claim or was cancelled."""
    result = session.execute(
        update(Sizing)
        .where(Sizing.id == sizing_id, Sizing.attempts == attempt, Sizing.status == "running",
               Sizing.cancel_requested.is_(False))
        .values(progress=progress, heartbeat_at=utcnow())
    )
    session.commit()
    return result.rowcount == 1


def finish(session: Session, sizing_id: str, attempt: int, *, result: dict | None = None,
           error: dict | None = None, catalog_version_id: int | None = None) -> bool:
    """Write the outcome once: only the run holding the claim can, fenced by its attempt."""
    now = utcnow()
    outcome = session.execute(
        update(Sizing)
        .where(Sizing.id == sizing_id, Sizing.attempts == attempt, Sizing.status == "running")
        .values(status="failed" if error else "succeeded", result=result, error=error,
                progress=1.0, finished_at=now, updated_at=now,
                catalog_version_id=catalog_version_id)
    )
    session.commit()
    return outcome.rowcount == 1


def finish_cancelled(session: Session, sizing_id: str) -> None:
    now = utcnow()
    session.execute(
        update(Sizing).where(Sizing.id == sizing_id, Sizing.status.in_(("queued", "running")))
        .values(status="cancelled", finished_at=now, updated_at=now)
    )
    session.commit()


def cancel(session: Session, sizing: Sizing) -> Sizing:
    """A queued sizing is cancelled at once; a running one stops at its next heartbeat."""
    if sizing.status in FINAL_STATES:
        return sizing
    session.execute(update(Sizing).where(Sizing.id == sizing.id).values(cancel_requested=True))
    session.commit()
    if sizing.status == "queued":
        finish_cancelled(session, sizing.id)
    session.refresh(sizing)
    return sizing


def visible_to(principal: Principal, client_secret: str | None):
    """The rows a caller may see: its account's; for a publishable key only the one it created
    whose client secret it presents."""
    condition = Sizing.account_id == principal.account_id
    if principal.publishable:
        condition = and_(condition, Sizing.api_key_id == principal.key_id,
                         Sizing.client_secret_sha256 == client_secrets.digest(client_secret or ""))
    return condition


def get(session: Session, sizing_id: str, principal: Principal,
        client_secret: str | None = None) -> Sizing | None:
    return session.scalars(select(Sizing).where(Sizing.id == sizing_id,
                                                visible_to(principal, client_secret))).first()


def page(session: Session, principal: Principal, *, limit: int, cursor: str | None,
         status: str | None = None, origin: str | None = None) -> tuple[list[Sizing], str | None]:
    """A page of the account's sizings; never for a publishable key, whatever its scopes."""
    if principal.publishable:
        raise client_secrets.no_listing()
    query = select(Sizing).where(Sizing.account_id == principal.account_id)
    if status:
        query = query.where(Sizing.status == status)
    if origin:
        query = query.where(Sizing.origin == origin)
    return newest_first(session, query, Sizing, limit=limit, cursor=cursor, scope=listing(
        "sizings", principal.account_id, status=status, origin=origin))
