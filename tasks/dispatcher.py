"""A loop in each worker that resends sizings a broker outage or a dead worker left waiting."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from celery import Celery
from celery.signals import worker_ready, worker_shutdown
from flask import Flask

from service import db, sizings

log = logging.getLogger(__name__)


def start_dispatcher(app: Flask, celery: Celery) -> None:
    config = app.config["SIZING"]
    interval_s = config.dispatch_interval_s
    timings = {"lease": timedelta(seconds=config.sizing_lease_s),
               "undispatched_after": timedelta(seconds=config.resend_unsent_after_s),
               "dispatched_after": timedelta(seconds=config.resend_unstarted_after_s)}
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(interval_s):
            try:
                with app.app_context():
                    sent = sizings.redispatch_stale(db.session(), **timings)
                if sent:
                    log.info("resent %d waiting sizings", sent)
            except Exception:  # database or broker down: try again next tick
                log.warning("dispatcher pass failed; retrying in %.0f s", interval_s, exc_info=True)

    @worker_ready.connect(weak=False)
    def _start(**_kwargs) -> None:
        threading.Thread(target=loop, name="sizing-dispatcher", daemon=True).start()

    @worker_shutdown.connect(weak=False)
    def _stop(**_kwargs) -> None:
        stop.set()
