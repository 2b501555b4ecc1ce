"""flask-smorest's Blueprint: a query-string parser that refuses a repeated parameter, and domain
errors answered as problems."""

from __future__ import annotations

import flask_smorest
import marshmallow as ma
from webargs.flaskparser import FlaskParser

from service.errors import Problem, handle_problem
from service.failures import DomainError


class StrictQueryParser(FlaskParser):
    """`?limit=5&limit=7` is a client's bug: taking the first value silently would hide it."""

    def load_querystring(self, req, schema: ma.Schema):
        fields = {field.data_key or name: field for name, field in schema.fields.items()}
        repeated = sorted(key for key in req.args
                          if len(req.args.getlist(key)) > 1
                          and not isinstance(fields.get(key), ma.fields.List))
        if repeated:
            raise ma.ValidationError(
                {key: ["Given more than once; this parameter takes one value."] for key in repeated})
        return super().load_querystring(req, schema)


def domain_problem(error: DomainError):
    """A domain error as the problem the API answers: the one place the two meet."""
    errors = [{"pointer": p, "detail": d} for p, d in error.errors] if error.errors else None
    return handle_problem(Problem(error.status, error.code, error.detail, errors=errors,
                                  headers=error.headers))


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = StrictQueryParser()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register_error_handler(DomainError, domain_problem)
