"""The sizing task: claim the record, run the search on the current catalog, save the outcome."""

from __future__ import annotations

import logging

from celery import shared_task
from kombu.exceptions import OperationalError as BrokerError
from sqlalchemy.exc import DBAPIError, OperationalError

from catalog import queries
from catalog.snapshot import snapshot
from service import db, sizing_job, sizings
from service.errors import Problem
from service.records import Sizing

log = logging.getLogger(__name__)


class Cancelled(Exception):
    """The client cancelled the sizing while it ran."""


@shared_task(name="tasks.run_sizing", bind=True, autoretry_for=(OperationalError, BrokerError),
             retry_backoff=2, retry_backoff_max=60, retry_jitter=True, max_retries=20)
def run_sizing(self, sizing_id: str) -> None:
    """Idempotent: a redelivered or duplicated message finds the record claimed or done."""
    session = db.session()
    attempt = sizings.claim(session, sizing_id)
    if attempt is None:
        log.info("sizing %s: nothing to do (finished, cancelled or held by another run)", sizing_id)
        return
    try:
        outcome(session, sizing_id, attempt)
    except (OperationalError, DBAPIError):
        # The database went away mid-run: hand the record back so the retry can claim it.
        session.rollback()
        try:
            sizings.release(session, sizing_id, attempt)
        except Exception:  # noqa: BLE001  still down: the lease expires and the dispatcher resends it
            session.rollback()
        raise


def outcome(session, sizing_id: str, attempt: int) -> None:
    record = session.get(Sizing, sizing_id)
    version = queries.resolve_version(session).id
    snap = snapshot(session, version)

    def progress(fraction: float) -> None:
        if not sizings.heartbeat(session, sizing_id, attempt, fraction):
            raise Cancelled()

    try:
        result = sizing_job.run(snap, record.request, progress)
    except Cancelled:
        sizings.finish_cancelled(session, sizing_id)
        return
    except Problem as problem:
        sizings.finish(session, sizing_id, attempt, catalog_version_id=version,
                       error={"code": problem.code, "detail": problem.detail,
                              "errors": problem.errors or []})
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
