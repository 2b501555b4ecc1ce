"""The service's Celery worker with shorter timings, so fault tests finish in seconds.

`celery -A tests.faults.worker_app worker` runs exactly `tasks.worker` (the same tasks and
the same dispatcher thread); only the lease of a running record and the age after which a
sent but unstarted record is sent again are shortened, from the environment:
FAULTS_LEASE_S and FAULTS_RESEND_AFTER_S.
"""

from __future__ import annotations

import functools
import os
from datetime import timedelta

from service import sizings

if raw := os.environ.get("FAULTS_LEASE_S"):
    sizings.LEASE = timedelta(seconds=float(raw))
if raw := os.environ.get("FAULTS_RESEND_AFTER_S"):
    sizings.redispatch_stale = functools.partial(
        sizings.redispatch_stale, dispatched_after=timedelta(seconds=float(raw)))

from tasks.worker import celery, flask_app

__all__ = ["celery", "flask_app"]
