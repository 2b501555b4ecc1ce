"""Serves the interactive API docs' static files from the installed package, not the internet."""

from __future__ import annotations

from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, send_from_directory

SWAGGER_DIST = Path(flask_swagger_ui.__file__).resolve().parent / "dist"
STATIC_PREFIX = "/docs/static/"

docs_static = Blueprint("docs_static", __name__)


@docs_static.get(STATIC_PREFIX + "<path:filename>")
def swagger_asset(filename: str):
    return send_from_directory(SWAGGER_DIST, filename, max_age=86400)
