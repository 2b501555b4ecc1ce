"""flask-smorest's Blueprint with a parser that reads requests exactly (a repeated query
parameter is refused, a body must be JSON within the size limit), and domain errors answered as
problems."""

from __future__ import annotations

import flask_smorest
import marshmallow as ma
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import RequestEntityTooLarge

from service import json_body
from service.errors import Problem, handle_problem
from service.failures import DomainError


def body_bytes(req) -> bytes:
    """The body, refusing one past the size limit even when it came chunked.

    Without a Content-Length the server stops reading at the limit and hands over what it has,
    which would be parsed as if it were the whole body.
    """
    raw = req.get_data(cache=True)
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

    def _raw_load_json(self, req):
        raw = body_bytes(req)
        if not raw.strip():
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


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = StrictParser()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register_error_handler(DomainError, domain_problem)
