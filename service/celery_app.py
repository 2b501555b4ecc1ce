"""Celery wired to a Flask app: tasks run inside its app context."""

from __future__ import annotations

import logging

from celery import Celery, Task
from flask import Flask, current_app
from kombu.exceptions import KombuError
from kombu.exceptions import OperationalError as BrokerOperationalError
from redis.exceptions import RedisError

from service.broker import TRANSPORT, TaskPublisher
from service.config import Config
from service.observability import REQUEST_ID

log = logging.getLogger(__name__)

# Modules holding task definitions; Celery imports them by name, so service never imports tasks.
TASK_MODULES = ["tasks.sizing"]


def celery_init_app(app: Flask, config: Config) -> Celery:
    class FlaskTask(Task):
        def __call__(self, *args, **kwargs):
            # The id of the HTTP request that enqueued this task, so its log lines join up.
            # A worker puts custom headers on the request itself; eager runs keep them in .headers.
            token = REQUEST_ID.set(self.request.get("request_id")
                                   or (self.request.headers or {}).get("request_id"))
            try:
                with app.app_context():
                    return self.run(*args, **kwargs)
            finally:
                REQUEST_ID.reset(token)

    celery = Celery(app.import_name, task_cls=FlaskTask)
    celery.conf.update(
        broker_url=config.broker_url,
        # Redis through service.broker's transport (one client per channel); memory:// as is.
        **({"broker_transport": TRANSPORT} if config.redis_url else {}),
        task_always_eager=config.tasks_eager,
        task_eager_propagates=False,
        task_ignore_result=True,
        # A task is acknowledged only once done, so a killed worker's task is redelivered.
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": 3600},
        include=TASK_MODULES,
        worker_hijack_root_logger=False,
    )
    app.extensions["celery"] = celery
    app.extensions["task_publisher"] = TaskPublisher(celery)
    return celery


def tasks_run_here() -> bool:
    """Whether tasks run in the sending process (embedded mode) rather than on workers."""
    return bool(current_app.extensions["celery"].conf.task_always_eager)


def send_task(name: str, *args) -> bool:
    """Send a task by name; False when the broker cannot take it now.

    The caller has committed its record first, so a False here loses nothing:
    the record stays queued and the dispatcher sends it again later.
    """
    celery: Celery = current_app.extensions["celery"]
    if tasks_run_here():
        celery.loader.import_default_modules()
        celery.tasks[name].apply(args=args, headers={"request_id": REQUEST_ID.get()})
        return True
    try:
        current_app.extensions["task_publisher"].send(name, args, {"request_id": REQUEST_ID.get()})
    except (KombuError, BrokerOperationalError, RedisError, OSError) as exc:
        log.warning("broker unavailable, %s(%s) left queued: %s", name, args, exc)
        return False
    return True
