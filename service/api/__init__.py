"""The API object and the registry of its blueprints."""

from __future__ import annotations

import http

from flask_smorest import Api
from flask_smorest.utils import prepare_response

from service.errors import PROBLEM_JSON, ProblemSchema


class SizingApi(Api):
    """flask-smorest's Api, documenting errors as RFC 9457 problems."""

    ERROR_SCHEMA = ProblemSchema

    def _register_error_handlers(self):
        # service.errors registers the one error path for the whole app.
        pass

    def _register_responses(self):
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_JSON)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


def register_blueprints(api: Api) -> None:
    from service.api import catalog, estimates, health, quotes, sizings

    for module in (health, catalog, estimates, sizings, quotes):
        api.register_blueprint(module.blp)
