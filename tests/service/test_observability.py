"""Request ids, Prometheus metrics, CORS for the website, and the page's public config."""

from __future__ import annotations

from tests.conftest import build_app


def test_request_id_is_echoed_or_generated(client):
    given = client.get("/v1/catalog/gpus", headers={"X-Request-Id": "abc-123"})
    assert given.headers["X-Request-Id"] == "abc-123"
    generated = client.get("/v1/catalog/gpus", headers={"X-Request-Id": "bad id with spaces"})
    assert len(generated.headers["X-Request-Id"]) == 32


def test_metrics_count_requests_by_route_and_show_queue_depth(client):
    client.get("/v1/catalog/fabrics")
    response = client.get("/metrics")
    body = response.get_data(as_text=True)
    # The Prometheus text format's type, its charset once.
    assert response.headers["Content-Type"] == "text/plain; version=1.0.0; charset=utf-8"
    assert 'http_requests_total{method="GET",route="/v1/catalog/fabrics",status="200"}' in body
    assert "http_request_duration_seconds_bucket" in body
    assert 'sizing_queue_depth{status="queued"}' in body


def test_cors_allows_the_website_origin_only(tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'cors.sqlite3'}",
                    cors_origins=("https://www.example-gpu.host",))
    client = app.test_client()
    pre = client.options("/v1/sizings", headers={
        "Origin": "https://www.example-gpu.host", "Access-Control-Request-Method": "POST"})
    assert pre.headers["Access-Control-Allow-Origin"] == "https://www.example-gpu.host"
    assert "Authorization" in pre.headers["Access-Control-Allow-Headers"]
    got = client.get("/healthz", headers={"Origin": "https://www.example-gpu.host"})
    assert "Location" in got.headers["Access-Control-Expose-Headers"]
    assert "RateLimit" in got.headers["Access-Control-Expose-Headers"]
    other = client.get("/healthz", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_site_config_serves_the_publishable_key(tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'site.sqlite3'}", site_publishable_key="pk_test_abcdef0123456789")
    config = app.test_client().get("/site-config.json").get_json()
    assert config["publishable_key"] == "pk_test_abcdef0123456789"
    assert app.test_client().get("/").status_code == 200
