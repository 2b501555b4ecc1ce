"""The framework's floor: one Flask JSON endpoint, served by gunicorn like the API."""
from __future__ import annotations

from flask import Flask


def create_app() -> Flask:
    app = Flask(__name__)

    @app.get("/ping")
    def ping():
        return {"status": "ok"}

    return app
