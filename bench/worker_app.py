"""The service's Celery worker plus a no-op task with a result, for the round-trip floor."""
from __future__ import annotations

import os

from tasks.worker import celery, flask_app

celery.conf.result_backend = os.environ["REDIS_URL"]


@celery.task(name="bench.noop", ignore_result=False)
def noop() -> None:
    return None


__all__ = ["celery", "flask_app", "noop"]
