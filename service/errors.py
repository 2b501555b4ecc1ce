"""RFC 9457 problem responses: the one path every error leaves by."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import marshmallow as ma
from flask import Flask, Response, json, request
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError
from werkzeug.exceptions import HTTPException, InternalServerError

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://errors.gpu-sizing.example/"

# Stable machine-readable codes for the HTTP errors the framework raises.
HTTP_CODES = {
    400: "bad_request",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    408: "request_timeout",
    409: "conflict",
    412: "precondition_failed",
    413: "body_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    422: "validation_failed",
    428: "precondition_required",
    429: "rate_limited",
    431: "headers_too_large",
    500: "internal_error",
    503: "unavailable",
}


class Problem(Exception):
    """An error the API answers on purpose, with a stable code."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        title: str | None = None,
        errors: Iterable[dict[str, str]] | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title
        self.errors = list(errors) if errors is not None else None
        self.headers = headers or {}


def field_problem(pointer: str, detail: str, code: str = "validation_failed") -> Problem:
    """A 422 naming one field of the request by its JSON Pointer."""
    return Problem(422, code, f"{pointer}: {detail}", errors=[{"pointer": pointer, "detail": detail}])


class ProblemFieldSchema(ma.Schema):
    pointer = ma.fields.String(
        required=True,
        metadata={"description": "JSON Pointer (RFC 6901) to the field, e.g. /nodes or /query/gpu"},
    )
    detail = ma.fields.String(required=True, metadata={"description": "What is wrong with it"})


class ProblemSchema(ma.Schema):
    """RFC 9457 problem details, the body of every error response."""

    type = ma.fields.String(required=True, metadata={"description": "URI naming the kind of problem"})
    title = ma.fields.String(required=True)
    status = ma.fields.Integer(required=True)
    detail = ma.fields.String(required=True)
    code = ma.fields.String(required=True, metadata={"description": "Stable machine-readable code"})
    instance = ma.fields.String(metadata={"description": "The request path"})
    errors = ma.fields.List(
        ma.fields.Nested(ProblemFieldSchema),
        metadata={"description": "One entry per invalid field (validation problems only)"},
    )


def problem_document(status: int, code: str, detail: str, title: str | None = None) -> dict[str, Any]:
    """The RFC 9457 members every problem carries; also used outside a request (gunicorn)."""
    from http import HTTPStatus

    return {"type": TYPE_BASE + code.replace("_", "-"), "title": title or HTTPStatus(status).phrase,
            "status": status, "detail": detail, "code": code}


def problem_response(
    status: int,
    code: str,
    detail: str,
    *,
    title: str | None = None,
    errors: list[dict[str, str]] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    body = {**problem_document(status, code, detail, title), "instance": request.path}
    if errors is not None:
        body["errors"] = errors
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def field_pointers(messages: Any, prefix: str = "") -> list[dict[str, str]]:
    """Flatten marshmallow/webargs messages into RFC 6901 pointers."""
    out: list[dict[str, str]] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            token = str(key).replace("~", "~0").replace("/", "~1")
            if key == "_schema":
                out.extend(field_pointers(value, prefix))
            else:
                out.extend(field_pointers(value, f"{prefix}/{token}"))
    elif isinstance(messages, (list, tuple)):
        if all(isinstance(m, str) for m in messages):
            for m in messages:
                out.append({"pointer": prefix or "/", "detail": m})
        else:
            for m in messages:
                out.extend(field_pointers(m, prefix))
    else:
        out.append({"pointer": prefix or "/", "detail": str(messages)})
    return out


def validation_errors(data: dict) -> list[dict[str, str]]:
    # webargs nests messages by location: {"json": {...}, "query": {...}}.
    messages = data.get("messages") or data.get("errors") or {}
    out: list[dict[str, str]] = []
    for location, fields in messages.items():
        prefix = "" if location == "json" else f"/{location}"
        out.extend(field_pointers(fields, prefix))
    return out


def handle_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    code = HTTP_CODES.get(status, "http_error")
    data = getattr(error, "data", None) or {}
    headers = dict(data.get("headers") or {})
    if status == 405 and getattr(error, "valid_methods", None):
        headers["Allow"] = ", ".join(sorted(error.valid_methods))
    if status in (400, 422) and ("messages" in data or "errors" in data):
        errors = validation_errors(data)
        detail = "; ".join(f"{e['pointer']}: {e['detail']}" for e in errors[:5])
        if status == 400:
            # Malformed JSON and similar parse failures are the client's input too.
            return problem_response(400, "bad_request", detail or "Malformed request", errors=errors)
        return problem_response(422, "validation_failed", detail, errors=errors, headers=headers)
    if status == 500:
        return handle_unexpected(getattr(error, "original_exception", error))
    detail = data.get("message") or error.description or ""
    if status == 413:
        detail = "The request body is larger than this API accepts"
    elif status == 404 and detail.startswith("The requested URL was not found"):
        detail = f"No resource at {request.path}"
    return problem_response(status, code, detail, headers=headers)


def handle_problem(error: Problem) -> Response:
    return problem_response(
        error.status, error.code, error.detail, title=error.title, errors=error.errors,
        headers=error.headers,
    )


def handle_database_error(error: SQLAlchemyError) -> Response:
    log.warning("database error on %s %s: %s", request.method, request.path, error.__class__.__name__)
    if isinstance(error, OperationalError) or (
        isinstance(error, DBAPIError) and error.connection_invalidated
    ):
        return problem_response(
            503, "database_unavailable", "The database is not reachable; retry shortly",
            headers={"Retry-After": "5"},
        )
    return handle_unexpected(error)


def handle_unexpected(error: BaseException | None) -> Response:
    # The trace goes to the log only; the client gets a stable, content-free problem.
    log.error("unhandled error on %s %s", request.method, request.path, exc_info=error)
    return problem_response(500, "internal_error", "An unexpected error occurred; it has been logged")


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(Problem, handle_problem)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(SQLAlchemyError, handle_database_error)
    app.register_error_handler(Exception, handle_unexpected)
    app.register_error_handler(InternalServerError, handle_http_exception)
