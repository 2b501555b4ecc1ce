#!/bin/sh
# api: migrate, load the catalog if it changed, serve under gunicorn. worker: run Celery.
set -e
case "${1:-api}" in
  api)
    flask --app service migrate
    flask --app service catalog load
    exec gunicorn -c python:service.gunicorn_conf --bind 0.0.0.0:8000 --workers "${WEB_CONCURRENCY:-2}" --threads 4 'service:create_app()'
    ;;
  worker)
    exec celery -A tasks.worker worker --loglevel=INFO --concurrency "${WORKER_CONCURRENCY:-2}"
    ;;
  *)
    exec "$@"
    ;;
esac
