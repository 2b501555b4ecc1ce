"""The Flask application of the sizing and quotation API."""

from __future__ import annotations

import logging

from flask import Flask
from werkzeug.exceptions import NotFound
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import RequestRedirect

from service.config import Config
from service.json_provider import StrictJSONProvider


class SizingFlask(Flask):
    """Flask, answering every path it cannot route with a problem, never a redirect."""

    def raise_routing_exception(self, request):
        # Flask hands redirects (an empty path, a slash the rule expects) straight to the client
        # as HTML, bypassing every error handler; here they name no resource, like any other path.
        if isinstance(request.routing_exception, RequestRedirect):
            raise NotFound()
        super().raise_routing_exception(request)


def create_app(config: Config | None = None) -> Flask:
    """Wire config, database, Celery, API blueprints and error handlers; nothing else."""
    from service import auth, cli, cors, db, docs, errors, limits_doc, observability, security, site
    from service.api import SizingApi, register_blueprints
    from service.api.sizings import init_waiting
    from service.celery_app import celery_init_app

    config = config or Config.from_env()
    # The page's assets are served at /site/ only; Flask's default /static/ would be a second door.
    app = SizingFlask(__name__, static_folder=None)
    # `//v1//sizings` is not a path of this API: merging slashes would answer it with a redirect.
    app.url_map.merge_slashes = False
    app.config.update(
        SIZING=config,
        TESTING=config.testing,
        MAX_CONTENT_LENGTH=config.max_body_bytes,
        # OPTIONS is answered for the browser origins of CORS only (service.cors), else 405.
        PROVIDE_AUTOMATIC_OPTIONS=False,
        API_TITLE="GPU sizing and quotation API",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL=docs.STATIC_PREFIX,
        API_SPEC_OPTIONS={
            "info": {
                "description": (
                    "Sizes GPU clusters for distributed training and prices them. "
                    "Every error is an RFC 9457 `application/problem+json` body "
                    "(schema `Problem`).\n\n"
                    "A secret key (`sk_`) is for servers: it reads and lists everything of its "
                    "account. A publishable key (`pk_`) is for a public page: it reads the "
                    "catalog, estimates, creates sizings and requests quotes, and reads back "
                    "only what it created, with the `client_secret` the creation returned (in "
                    "the `Client-Secret` header); it lists nothing.\n\n"
                    "## Limits\n\n" + limits_doc.markdown(config)
                ),
            },
        },
    )
    app.json = StrictJSONProvider(app)
    if config.trusted_proxies:
        # The client's address as the proxies in front appended it to X-Forwarded-For.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=config.trusted_proxies)
    observability.configure_logging(logging.INFO)

    db.init_db(app, config.database_url)
    celery_init_app(app, config)
    auth.init_limits(app, config.redis_url)
    api = SizingApi(app)
    for name, scheme in auth.SECURITY_SCHEMES.items():
        api.spec.components.security_scheme(name, scheme)
    register_blueprints(api)
    init_waiting(app, config)
    app.register_blueprint(docs.docs_static)
    errors.register_error_handlers(app)
    observability.init_observability(app)
    cors.init_cors(app, config.cors_origins)
    security.init_security(app)
    site.init_site(app, config)
    cli.register_commands(app)
    return app
