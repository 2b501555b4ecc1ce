"""The partner client (clients/python) is what openapi.yaml generates, and runs the partner flow."""

from __future__ import annotations

import importlib.util
import time
import tomllib

import yaml
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

from service.config import REPO_ROOT

FINAL = {"succeeded", "failed", "cancelled"}
CLIENT = REPO_ROOT / "clients" / "python"


def client_generator():
    spec = importlib.util.spec_from_file_location("client_generator",
                                                  REPO_ROOT / "clients" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_client_is_what_the_spec_generates(tmp_path):
    generator = client_generator()
    generator.replace(tmp_path / "python")
    fresh = generator.generated_files(tmp_path / "python")
    committed = generator.generated_files(CLIENT)
    stale = sorted(p for p in set(fresh) | set(committed) if fresh.get(p) != committed.get(p))
    assert not stale, (f"clients/python is out of date ({len(stale)} files differ, e.g. "
                       f"{stale[:5]}): run `make client` and commit it")


def test_the_client_speaks_the_api_version_of_the_spec():
    spec = yaml.safe_load((REPO_ROOT / "openapi.yaml").read_text())
    project = tomllib.loads((CLIENT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "gpu-sizing-client"
    assert project["version"] == spec["info"]["version"]


def test_partner_flow_through_the_generated_client(live_api):
    partner = AuthenticatedClient(base_url=live_api.url, token=live_api.key, timeout=120.0,
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

        page = list_quotes.sync(client=partner, limit=100)
        assert isinstance(page, QuotePage)
        assert quote.id in [q.id for q in page.items]
