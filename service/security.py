"""What every exchange passes through for safety: paths as written, answers read as typed."""

from __future__ import annotations

from flask import Flask, Response, request
from werkzeug.exceptions import NotFound

# The printable quote is static HTML with one inline stylesheet: it may run, load, embed or
# submit nothing, so customer text in it can never become script, even if escaping failed.
DOCUMENT_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                   "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


# Every body is served with its real type; no browser may guess another. On every answer: the
# app's (below) and the ones gunicorn writes before the app (service.gunicorn_conf).
NOSNIFF = ("X-Content-Type-Options", "nosniff")


def init_security(app: Flask) -> None:
    @app.before_request
    def _paths_as_written():
        # The server reads `GET //` as `/`; the target the client wrote, with its doubled slash,
        # names nothing here. (RAW_URI is gunicorn's, REQUEST_URI other servers'.)
        target = request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI") or ""
        if target.startswith("/") and "//" in target.split("?", 1)[0]:
            raise NotFound()

    @app.after_request
    def _nosniff(response: Response) -> Response:
        response.headers[NOSNIFF[0]] = NOSNIFF[1]
        return response
