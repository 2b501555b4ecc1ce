"""A client generated from openapi.yaml runs the partner flow against a live server."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from service import db
from service.config import REPO_ROOT
from tests.conftest import build_app, new_key

PACKAGE = "gpu_sizing_client"
FINAL = {"succeeded", "failed", "cancelled"}


def generator() -> str:
    beside_python = Path(sys.executable).with_name("openapi-python-client")
    found = str(beside_python) if beside_python.exists() else shutil.which("openapi-python-client")
    assert found, "openapi-python-client is not installed: pip install -e '.[dev]'"
    return found


@pytest.fixture(scope="module")
def client_package(tmp_path_factory):
    """The client package, generated now from the committed spec; any warning fails."""
    out = tmp_path_factory.mktemp("client")
    config = out / "generator.yaml"
    # No formatter hooks: the test needs the code, not its style, and must not depend on PATH.
    config.write_text("post_hooks: []\n")
    result = subprocess.run(
        [generator(), "generate", "--path", str(REPO_ROOT / "openapi.yaml"), "--meta", "none",
         "--config", str(config), "--output-path", str(out / PACKAGE), "--fail-on-warning"],
        check=False, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"the spec does not make a client:\n{result.stdout}\n{result.stderr}"
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """The app on a fresh SQLite database with the catalog loaded, served on a free loopback port."""
    app = build_app(f"sqlite:///{tmp_path_factory.mktemp('live') / 'live.sqlite3'}")
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        with app.app_context():
            db.engine().dispose()


def test_partner_flow_through_the_generated_client(client_package, live_server):
    from gpu_sizing_client import AuthenticatedClient
    from gpu_sizing_client.api.catalog import list_gpus, list_servers
    from gpu_sizing_client.api.quotes import create_quote, get_quote, list_quotes
    from gpu_sizing_client.api.sizings import create_sizing, get_sizing
    from gpu_sizing_client.models import (
        Customer,
        Gpu,
        Problem,
        Quote,
        QuotePage,
        QuoteRequest,
        Sizing,
        SizingRequest,
    )

    app, base_url = live_server
    partner = AuthenticatedClient(base_url=base_url, token=new_key(app), timeout=120.0,
                                  raise_on_unexpected_status=True)

    with partner:
        gpus = list_gpus.sync(client=partner)
        assert isinstance(gpus, list) and gpus and all(isinstance(g, Gpu) for g in gpus)
        servers = list_servers.sync(client=partner)
        assert {s.gpu for s in servers} <= {g.id for g in gpus}

        submitted = create_sizing.sync_detailed(client=partner, body=SizingRequest.from_dict({
            "workload": {"preset": "llama-3-8b"}, "tokens": 1e11,
            "nodes": {"min": 1, "max": 4}, "region": "us-east", "max_results": 3}))
        assert submitted.status_code == 202, submitted.content
        assert isinstance(submitted.parsed, Sizing)
        assert submitted.headers["Location"].endswith(submitted.parsed.id)

        sizing = submitted.parsed
        deadline = time.monotonic() + 120
        while sizing.status not in FINAL and time.monotonic() < deadline:
            time.sleep(0.2)
            sizing = get_sizing.sync(client=partner, sizing_id=submitted.parsed.id, prefer="wait=5")
            assert isinstance(sizing, Sizing), sizing
        assert sizing.status == "succeeded", sizing.error
        top = sizing.result.configurations[0]
        assert top.rank == 1 and top.scaling_efficiency > 0 and top.price.monthly

        created = create_quote.sync_detailed(client=partner, body=QuoteRequest(
            sizing_id=sizing.id, rank=1, customer=Customer(name="Example Labs", country="DE")))
        assert created.status_code == 201, created.content
        quote = created.parsed
        assert isinstance(quote, Quote) and not isinstance(quote, Problem)
        assert quote.sizing_id == sizing.id and quote.status == "draft"
        assert quote.configuration.server.id == top.server.id
        assert quote.configuration.nodes == top.nodes
        assert quote.performance.scaling_efficiency == top.scaling_efficiency

        fetched = get_quote.sync(client=partner, quote_id=quote.id)
        assert isinstance(fetched, Quote)
        assert fetched.number == quote.number and fetched.totals.grand_total == quote.totals.grand_total

        page = list_quotes.sync(client=partner)
        assert isinstance(page, QuotePage)
        assert [q.id for q in page.items] == [quote.id]
