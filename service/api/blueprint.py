"""flask-smorest's Blueprint with a parser that reads requests exactly (a repeated query
parameter is refused, a body must be JSON within the size limit), and domain errors answered as
problems."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import flask_smorest
import marshmallow as ma
from flask import Response, current_app, request
from flask_smorest.etag import _get_etag_ctx
from flask_smorest.exceptions import NotModified
from gunicorn.http.errors import NoMoreData, ParseException
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge

from service import json_body
from service.config import settings
from service.errors import Problem, handle_problem
from service.failures import DomainError


def body_bytes(req) -> bytes:
    """The body, refusing one past the size limit even when it came chunked, and one that stops
    arriving.

    Without a Content-Length the server stops reading at the limit and hands over what it has,
    which would be parsed as if it were the whole body. A client that announces more than it
    sends would hold this thread for good: under gunicorn the read gets a timeout.
    """
    timeout_s = settings().body_read_timeout_s
    sock = req.environ.get("gunicorn.socket")
    if sock is not None:
        sock.settimeout(timeout_s)
    try:
        raw = req.get_data(cache=True)
    except (ParseException, NoMoreData) as exc:
        # gunicorn reads the body as the app asks for it: a broken chunked encoding surfaces
        # here, and is the client's malformed request.
        raise Problem(400, "bad_request", f"The body could not be read: {exc}",
                      headers={"Connection": "close"}) from None
    except ClientDisconnected as exc:
        if isinstance(exc.__context__, TimeoutError):
            raise Problem(408, "request_timeout", f"The body stopped arriving for {timeout_s} s",
                          headers={"Connection": "close"}) from None
        raise
    limit = req.max_content_length
    if req.content_length is None and limit is not None and len(raw) >= limit \
            and req.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()
    return raw


class StrictParser(FlaskParser):
    def load_querystring(self, req, schema: ma.Schema):
        # `?limit=5&limit=7` is a client's bug: taking the first value silently would hide it.
        fields = {field.data_key or name: field for name, field in schema.fields.items()}
        repeated = sorted(key for key in req.args
                          if len(req.args.getlist(key)) > 1
                          and not isinstance(fields.get(key), ma.fields.List))
        if repeated:
            raise ma.ValidationError(
                {key: ["Given more than once; this parameter takes one value."] for key in repeated})
        return super().load_querystring(req, schema)

    def load_json(self, req, schema: ma.Schema):
        raw = body_bytes(req)
        if not raw.strip():
            # No body at all is the absent body of an operation that may have none (reprice), or
            # a 422 naming the required fields; an empty one that says it is JSON is not JSON.
            if req.mimetype == "application/json" and not getattr(schema, "body_optional", False):
                raise json_body.invalid("the body is empty, which is not a JSON document")
            return core.missing
        charset = (req.mimetype_params.get("charset") or "utf-8").lower()
        if req.mimetype != "application/json" or charset != "utf-8":
            raise Problem(415, "unsupported_media_type",
                          f"The body must be application/json (UTF-8), not {req.content_type!r}",
                          headers={f"Accept-{req.method.title()}": "application/json"})
        return json_body.loads(raw)


def domain_problem(error: DomainError):
    """A domain error as the problem the API answers: the one place the two meet."""
    errors = [{"pointer": p, "detail": d} for p, d in error.errors] if error.errors else None
    return handle_problem(Problem(error.status, error.code, error.detail, errors=errors,
                                  headers=error.headers))


def not_modified(etag: str) -> bool:
    """Whether If-None-Match names `etag` (unquoted): RFC 9110 compares weakly there, so
    W/"x" matches "x" (werkzeug's `in` compares strongly), and * matches any."""
    return request.if_none_match.contains_weak(etag)


@dataclass(frozen=True)
class Dumped:
    """An answer worked out before: its body as the `response` decorator writes it, and the
    ETag the `etag` decorator gives it (flask-smorest's hash of the dumped document)."""

    body: bytes
    etag: str

    @classmethod
    def of(cls, schema: ma.Schema, value: Any) -> Dumped:
        document = schema.dump(value)
        return cls(current_app.json.response(document).get_data(),
                   flask_smorest.Blueprint._generate_etag(document))


def _documenting(decorator):
    """`decorator` (one that only documents) applied for its documentation alone: the view
    keeps the `_apidoc` the decorator's wrapper would have had, and no wrapper is added."""

    def documented(view):
        view._apidoc = decorator(view)._apidoc
        return view

    return documented


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = StrictParser()

    def answer(self, dumped: Dumped) -> Response:
        """The 200 of a view under `etag` and `response` whose answer was dumped before: the
        same body and ETag, a 304 where If-None-Match names it, without dumping it again."""
        # What set_etag does, with the ETag given rather than hashed anew: the etag decorator
        # sets a given one on the response.
        self._check_not_modified(dumped.etag)
        _get_etag_ctx()["etag"] = dumped.etag
        return current_app.response_class(dumped.body, mimetype=current_app.json.mimetype)

    def _check_not_modified(self, etag):
        if request.method in self.METHODS_CHECKING_NOT_MODIFIED and not_modified(etag):
            raise NotModified

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register_error_handler(DomainError, domain_problem)

    # flask-smorest's documenting decorators wrap the view in a function that only calls it,
    # through the app's ensure_sync: a layer per decorator on every request. These keep its
    # documentation on the view itself, as that wrapper would have held it.
    def alt_response(self, *args, **kwargs):
        return _documenting(super().alt_response(*args, **kwargs))

    @staticmethod
    def doc(**kwargs):
        return _documenting(flask_smorest.Blueprint.doc(**kwargs))

    def arguments(self, schema, *args, **kwargs):
        # webargs builds a schema given as a class anew for every request, its nested schemas
        # too; one instance, built here once, serves every request (loading keeps no state).
        instance = schema() if isinstance(schema, type) else schema
        if kwargs.get("location", "json") == "json":
            # Read by StrictParser.load_json: an optional body may be sent empty.
            instance.body_optional = not kwargs.get("required", True)
        return super().arguments(instance, *args, **kwargs)
