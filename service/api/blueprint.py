"""flask-smorest's Blueprint with a query-string parser that refuses a repeated parameter."""

from __future__ import annotations

import flask_smorest
import marshmallow as ma
from webargs.flaskparser import FlaskParser


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


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = StrictQueryParser()
