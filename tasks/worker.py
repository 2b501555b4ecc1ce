"""The Celery worker's entry point: `celery -A tasks.worker worker`."""

from __future__ import annotations

from service import create_app
from tasks.dispatcher import start_dispatcher

flask_app = create_app()
celery = flask_app.extensions["celery"]
start_dispatcher(flask_app, celery)
