"""The API object and the registry of its blueprints."""

from __future__ import annotations

import http

from apispec import BasePlugin
from flask_smorest import Api
from flask_smorest.utils import prepare_response

from service.errors import PROBLEM_JSON, ProblemSchema

HTTP_METHODS = {"get", "put", "post", "patch", "delete", "head", "options", "trace"}
PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
RETRY_AFTER = {"description": "Seconds to wait before retrying", "schema": {"type": "string"}}

# The errors the one error path (service.errors) can answer for any operation of a kind.
BODY_ERRORS = {
    400: "The body is not acceptable JSON: malformed, not UTF-8, nested deeper than 16 levels, "
         "a name given twice in one object, or a NaN, Infinity or out-of-range number",
    413: "The body is larger than this API accepts",
    415: "The body is not application/json (UTF-8)",
}
SECURED_ERRORS = {
    503: "The database is unreachable, or no catalog is loaded yet; retry after Retry-After",
}
ANY_ERRORS = {
    # Answered by the HTTP server before the app (service.gunicorn_conf), as problems too.
    414: "The request line (path and query) is longer than the server reads (4094 bytes)",
    431: "A header field is longer than the server reads (8190 bytes)",
    500: "An unexpected error; it has been logged and the body says nothing more",
}
ERROR_HEADERS = {
    401: {"WWW-Authenticate": {"description": "The Bearer challenge",
                               "schema": {"type": "string"}, "required": True}},
    429: {"Retry-After": {**RETRY_AFTER, "required": True},
          "RateLimit": {"description": "Requests left in the window and seconds to its reset",
                        "schema": {"type": "string"}},
          "RateLimit-Policy": {"description": "The key's quota and window",
                               "schema": {"type": "string"}}},
    409: {"Retry-After": RETRY_AFTER},
    503: {"Retry-After": RETRY_AFTER},
}


class ProblemResponses(BasePlugin):
    """Documents every error an operation can answer, each as an RFC 9457 Problem.

    Views declare the errors of their own logic; the errors the framework answers for any
    operation of a kind (a body, a key) are added here, so no view repeats them.
    """

    def operation_helper(self, path=None, operations=None, **kwargs):
        for method, operation in (operations or {}).items():
            if method not in HTTP_METHODS:
                continue
            # Status codes arrive as ints or strings, depending on the decorator that set them.
            responses = {str(k): v for k, v in operation.get("responses", {}).items()}
            shared = dict(ANY_ERRORS)
            if "requestBody" in operation:
                shared.update(BODY_ERRORS)
            if operation.get("security"):
                shared.update(SECURED_ERRORS)
            for status, description in shared.items():
                responses.setdefault(str(status), {"description": description})
            for status, response in responses.items():
                # A string names a shared response component, which carries its own content.
                if not status.isdigit() or int(status) < 400 or not isinstance(response, dict) \
                        or "$ref" in response:
                    continue
                response.setdefault("content", {PROBLEM_JSON: {"schema": PROBLEM_REF}})
                for name, header in ERROR_HEADERS.get(int(status), {}).items():
                    response.setdefault("headers", {}).setdefault(name, header)
            operation["responses"] = dict(sorted(responses.items()))


class SchemaRules(BasePlugin):
    """Adds to a schema's JSON Schema the rules across its fields that JSON Schema can state
    (exactly one of two fields, one field only with another, a value that fixes another's), as
    the schema class declares them in `spec_rules`, so a client generator or a fuzzer knows
    them."""

    def schema_helper(self, name, definition, **kwargs):
        schema = kwargs.get("schema")
        schema_class = schema if isinstance(schema, type) else type(schema)
        return dict(getattr(schema_class, "spec_rules", {}))


class SizingApi(Api):
    """flask-smorest's Api, documenting errors as RFC 9457 problems."""

    ERROR_SCHEMA = ProblemSchema
    # Each status an operation can answer is listed; a catch-all would hide an undocumented one.
    DEFAULT_ERROR_RESPONSE_NAME = None

    def _init_spec(self, *, extra_plugins=None, **kwargs):
        super()._init_spec(extra_plugins=[*(extra_plugins or ()), ProblemResponses(), SchemaRules()],
                           **kwargs)

    def _register_error_handlers(self):
        # service.errors registers the one error path for the whole app.
        pass

    def _register_responses(self):
        self.spec.components.schema("Problem", schema=self.ERROR_SCHEMA)
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)


def register_blueprints(api: Api) -> None:
    from service.api import catalog, estimates, health, quotes, sizings

    for module in (health, catalog, estimates, sizings, quotes):
        api.register_blueprint(module.blp)
