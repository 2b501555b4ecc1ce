"""The sizing task: claim the record, run the search on the current catalog, save the outcome."""

from __future__ import annotations

import logging
import time
from datetime import date, timedelta

from celery import shared_task
from flask import current_app
from kombu.exceptions import OperationalError as BrokerError
from sqlalchemy.exc import DBAPIError, OperationalError

from catalog import queries
from catalog.snapshot import snapshot
from service import db, sizings
from service.records import Sizing
from service.sizing_request import SizingRequest
from service.sizing_run import run
from service.typed import to_document

log = logging.getLogger(__name__)


class Cancelled(Exception):
    """The client cancelled the sizing while it ran."""


@shared_task(name="tasks.run_sizing", bind=True, autoretry_for=(OperationalError, BrokerError),
             retry_backoff=2, retry_backoff_max=60, retry_jitter=True, max_retries=20)
def run_sizing(self, sizing_id: str) -> None:
    """Idempotent: a redelivered or duplicated message finds the record claimed or done."""
    session = db.session()
    lease = timedelta(seconds=current_app.config["SIZING"].sizing_lease_s)
    attempt = sizings.claim(session, sizing_id, lease)
    if attempt is None:
        log.info("sizing %s: nothing to do (finished, cancelled or held by another run)", sizing_id)
        return
    try:
        outcome(session, sizing_id, attempt, lease.total_seconds() / HEARTBEATS_PER_LEASE)
    except (OperationalError, DBAPIError):
        # The database went away mid-run: hand the record back so the retry can claim it.
        session.rollback()
        try:
            sizings.release(session, sizing_id, attempt)
        except Exception:  # noqa: BLE001  still down: the lease expires and the dispatcher resends it
            session.rollback()
        raise


# A progress report commits a heartbeat only when the last one (or the claim, which is one)
# is older than a tenth of the lease, and at most once a second: the lease is renewed many
# times over before it can run out, a cancel is seen within a second of the next report, and
# a sizing that takes milliseconds pays no commit per report (three of them, each a database
# round trip, were a fifth of a one-node sizing).
HEARTBEATS_PER_LEASE = 10
HEARTBEAT_MAX_INTERVAL_S = 1.0


def outcome(session, sizing_id: str, attempt: int, heartbeat_s: float = 0.0) -> None:
    record = session.get(Sizing, sizing_id)
    # The version the request was checked against when accepted (older records: the latest).
    version = record.catalog_version_id or queries.resolve_version(session).id
    snap = snapshot(session, version)
    every_s = min(heartbeat_s, HEARTBEAT_MAX_INTERVAL_S)
    last = [time.monotonic()]  # the claim's heartbeat

    def progress(fraction: float) -> None:
        now = time.monotonic()
        if now - last[0] < every_s:
            return
        last[0] = now
        if not sizings.heartbeat(session, sizing_id, attempt, fraction):
            raise Cancelled()

    try:
        # Checked against this catalog version when the API accepted it: rebuilt from the
        # record, not checked again.
        request = SizingRequest.from_document(record.request)
        result = to_document(run(snap, request, progress, date.today()))
    except Cancelled:
        sizings.finish_cancelled(session, sizing_id)
        return
    except (OperationalError, DBAPIError):
        raise
    except Exception:
        log.exception("sizing %s failed", sizing_id)
        sizings.finish(session, sizing_id, attempt, catalog_version_id=version,
                       error={"code": "internal_error",
                              "detail": "The sizing failed unexpectedly; it has been logged",
                              "errors": []})
        return
    if not sizings.finish(session, sizing_id, attempt, result=result, catalog_version_id=version):
        log.warning("sizing %s: run %d lost its claim; its result was discarded", sizing_id, attempt)
