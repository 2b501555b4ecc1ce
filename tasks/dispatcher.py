"""A loop in each worker that resends sizings a broker outage or a dead worker left waiting."""

from __future__ import annotations

import logging
import os
import threading

from celery import Celery
from celery.signals import worker_ready, worker_shutdown
from flask import Flask

from service import db, sizings

log = logging.getLogger(__name__)


def start_dispatcher(app: Flask, celery: Celery) -> None:
    interval_s = float(os.environ.get("DISPATCH_INTERVAL_S", "5"))
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(interval_s):
            try:
                with app.app_context():
                    sent = sizings.redispatch_stale(db.session())
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
