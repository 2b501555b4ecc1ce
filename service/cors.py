"""CORS for the website's origins: browsers may call the API and read its useful headers."""

from __future__ import annotations

from flask import Flask, Response, request

EXPOSED = ("Location", "ETag", "Retry-After", "RateLimit", "RateLimit-Policy", "X-Request-Id",
           "Preference-Applied")
ALLOWED_HEADERS = ("Authorization", "X-API-Key", "Content-Type", "If-Match", "If-None-Match",
                   "Idempotency-Key", "Prefer", "X-Request-Id", "Client-Secret")


def init_cors(app: Flask, origins: tuple[str, ...]) -> None:
    allowed = set(origins)

    @app.before_request
    def _preflight():
        if request.method == "OPTIONS" and request.headers.get("Origin") in allowed:
            return Response(status=204)
        return None

    @app.after_request
    def _headers(response: Response) -> Response:
        origin = request.headers.get("Origin")
        if origin in allowed:
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Vary"] = "Origin"
            response.headers["Access-Control-Expose-Headers"] = ", ".join(EXPOSED)
            if request.method == "OPTIONS":
                response.headers["Access-Control-Allow-Methods"] = "GET, POST, PATCH, OPTIONS"
                response.headers["Access-Control-Allow-Headers"] = ", ".join(ALLOWED_HEADERS)
                response.headers["Access-Control-Max-Age"] = "600"
        return response
