"""Celery tasks: thin wrappers that load records, call the core and save."""
