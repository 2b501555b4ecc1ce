"""A sizing's top configurations, quoted: the same money to the cent, within stock, rank 1 advised.

Runs in-process by default. To check a running server instead (`make run`), point it there:
  SIZING_API_URL=http://127.0.0.1:PORT SIZING_API_KEY=sk_live_... \
    .venv/bin/pytest tests/service/test_quote_matches_sizing.py
"""

from __future__ import annotations

import json
import math
import os
import urllib.error
import urllib.request
from datetime import date
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal

import pytest

from service.quote_document import QuoteDocument, repriced
from service.sizing_run import search
from service.sizing_shown import shown_result
from service.typed import from_document
from tests.conftest import authorised, build_app
from tests.service.test_search_exact import request_of

SIZINGS = {
    "llama-8b monthly USD": {"workload": {"preset": "llama-3-8b"}, "tokens": 5e10,
                             "nodes": {"min": 1, "max": 8}, "term": "monthly", "currency": "USD"},
    "llama-70b 1y EUR": {"workload": {"preset": "llama-3-70b"}, "tokens": 2e11,
                         "nodes": {"min": 4, "max": 16}, "term": "1y", "currency": "EUR",
                         "region": "eu-central"},
    "llama-70b long run 1y USD": {"workload": {"preset": "llama-3-70b"}, "tokens": 2e12,
                                  "nodes": {"min": 8, "max": 32}, "term": "1y", "currency": "USD",
                                  "objective": "fastest", "max_lead_time_days": 60},
    "mixtral duration monthly EUR": {"workload": {"preset": "mixtral-8x7b"}, "duration_days": 10,
                                     "nodes": {"min": 2, "max": 8}, "term": "monthly",
                                     "currency": "EUR", "region": "eu-central"},
    "resnet-50 epochs monthly EUR": {"workload": {"preset": "resnet-50"}, "epochs": 90,
                                     "nodes": {"min": 1, "max": 8}, "term": "monthly",
                                     "currency": "EUR", "region": "eu-central"},
    "vgg-16 epochs 1y USD": {"workload": {"preset": "vgg-16"}, "epochs": 300,
                             "nodes": {"min": 1, "max": 4}, "term": "1y", "currency": "USD",
                             "objective": "cheapest"},
}


class Live:
    """The same calls over HTTP to a running server."""

    def __init__(self, url: str, key: str):
        self.url, self.key = url.rstrip("/"), key

    def call(self, method: str, path: str, body=None, headers=None):
        request = urllib.request.Request(
            self.url + path, method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json",
                     **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


class InProcess:
    def __init__(self, client):
        self.client = client

    def call(self, method: str, path: str, body=None, headers=None):
        response = self.client.open(path, method=method, json=body, headers=headers or {})
        return response.status_code, response.get_json()


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    if os.environ.get("SIZING_API_URL"):
        return Live(os.environ["SIZING_API_URL"], os.environ["SIZING_API_KEY"])
    app = build_app(f"sqlite:///{tmp_path_factory.mktemp('agree') / 'agree.sqlite3'}")
    return InProcess(authorised(app))


@pytest.fixture(scope="module")
def regions(api):
    status, body = api.call("GET", "/v1/catalog/regions")
    assert status == 200
    return {r["id"]: {s["server"]: s for s in r["stock"]} for r in body}


def size(api, body):
    status, sizing = api.call("POST", "/v1/sizings", body, {"Prefer": "wait=60"})
    assert status in (200, 201, 202), sizing
    while sizing["status"] in ("queued", "running"):
        status, sizing = api.call("GET", f"/v1/sizings/{sizing['id']}", None, {"Prefer": "wait=30"})
    assert sizing["status"] == "succeeded", sizing
    return sizing


@pytest.mark.parametrize("name", list(SIZINGS))
def test_top_three_quote_the_sizings_money_within_stock_and_rank_one_advised(api, regions, name):
    body = SIZINGS[name]
    sizing = size(api, body)
    request, result = sizing["request"], sizing["result"]
    configs = result["configurations"]
    assert len(configs) >= 3, result["notes"]
    assert configs[0]["fabric"]["id"] == result["network_advice"]["recommended_fabric"]
    for config in configs[:3]:
        status, quote = api.call("POST", "/v1/quotes", {
            "sizing_id": sizing["id"], "rank": config["rank"],
            "customer": {"name": "Check", "country": "US"}})
        assert status == 201, quote
        price = config["price"]
        assert (quote["currency"], quote["term"]) == (request["currency"], request["term"])
        assert quote["totals"]["term_net"] == price["total"], "to the cent"
        assert quote["totals"]["months_billed"] == price["months_billed"]
        assert quote["totals"]["hours_billed"] == price["hours_billed"]
        billed_nodes = config["nodes"] + config["hot_spare_nodes"]
        assert quote["configuration"]["nodes"] == billed_nodes
        advised = result["network_advice"]["recommended_fabric"]
        assert quote["network_advice"]["recommended"] == (config["fabric"]["id"] == advised)
        assert bool(quote["network_advice"]["roce_checklist"]) == (config["fabric"]["kind"] == "roce")

        stock = regions[request["region"]][config["server"]["id"]]
        arriving = (stock["arriving_nodes"] if stock["lead_time_days"] <= request["max_lead_time_days"]
                    else 0)
        assert billed_nodes <= stock["available_nodes"] + arriving
        assert config["stock"]["available_now"] == stock["available_nodes"]
        if billed_nodes > stock["available_nodes"]:
            assert config["stock"]["lead_time_days"] <= request["max_lead_time_days"]
            assert config["stock"]["delivery_date"] in config["stock"]["warning"]

        per_million = price["cost_per_million_tokens"] or price["cost_per_million_samples"]
        work = result["workload"]["tokens"] or (
            result["workload"]["samples_per_epoch"] and
            result["workload"]["samples_per_epoch"] * result["workload"]["epochs"])
        if work:
            expected = Decimal(price["total"]) / Decimal(repr(work)) * 1_000_000
            assert abs(Decimal(per_million) - expected) <= Decimal("0.01")
        assert Decimal(price["price_per_gpu_hour"]) > 0


def test_a_deadline_only_hot_spares_meet_keeps_them_and_the_quote_bills_them(api):
    pinned = {"workload": {"preset": "llama-3-405b"}, "tokens": 5e11,
              "nodes": {"min": 64, "max": 64}, "gpu_models": ["h100-sxm"],
              "fabrics_include": ["ib-ndr-400"], "max_results": 1}
    free = size(api, pinned)["result"]["configurations"][0]
    spares = free["goodput"]["hot_spares"]
    # Without a deadline the spares save too little time for their price to be kept.
    assert free["hot_spare_nodes"] == 0
    assert spares["time_to_train_hours"] < free["time_to_train_hours"] - 2
    # A deadline between the two wall clocks: only the configuration with spares meets it.
    days = (spares["time_to_train_hours"] + free["time_to_train_hours"]) / 2 / 24
    sizing = size(api, {**pinned, "duration_days": days})
    kept = sizing["result"]["configurations"][0]
    assert kept["hot_spare_nodes"] == spares["spare_nodes"]
    assert kept["time_to_train_hours"] == spares["time_to_train_hours"] <= days * 24
    assert kept["goodput"]["goodput"] == spares["goodput"] > free["goodput"]["goodput"]
    assert kept["price"]["total"] == spares["total"]
    assert any("the ranking keeps them" in n for n in sizing["result"]["notes"])

    status, quote = api.call("POST", "/v1/quotes", {
        "sizing_id": sizing["id"], "rank": 1, "customer": {"name": "Check", "country": "US"}})
    assert status == 201, quote
    assert quote["configuration"]["nodes"] == 64 + spares["spare_nodes"]
    assert quote["totals"]["term_net"] == kept["price"]["total"], "to the cent"
    assert any("hot spare nodes kept ready" in n for n in quote["notes"])


FABRIC_LINES = {"fabric_nic_ports", "fabric_switch_ports", "cables_optics"}


def test_a_one_node_job_keeps_its_hot_spare_off_the_fabric_in_the_sizing_and_its_quote(api, snap):
    """A spare only takes the failed node's place: a one-node job with one bills two nodes and
    no fabric line, in the sizing, its hot-spare figures, its quote and the quote's revision."""
    pinned = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e12,
              "nodes": {"min": 1, "max": 1}, "gpu_models": ["b200"], "objective": "fastest",
              "max_results": 1}
    free = size(api, pinned)["result"]["configurations"][0]
    spares = free["goodput"]["hot_spares"]
    assert free["hot_spare_nodes"] == 0 and spares["spare_nodes"] == 1
    # The spare saves less than the API's four digits show: its wall clock (and the deadline
    # between the two below) comes from the same search, unrounded.
    exact = shown_result(search(snap, request_of(pinned), lambda _f: None),
                         date(2026, 12, 1)).configurations[0]
    # Billed by the started hour, no fabric: the spare adds exactly one node's money for the
    # hours the run with it takes (which may be one fewer than without).
    assert free["price"]["billed_by"] == "hour"
    hours = math.ceil(exact.goodput.hot_spares.time_to_train_hours)
    one_node = Decimal(free["price"]["hourly"]) * hours + Decimal(free["price"]["one_time"])
    assert Decimal(spares["total"]) == 2 * one_node
    assert spares["extra_monthly"] == free["price"]["monthly"]
    days = (exact.goodput.hot_spares.time_to_train_hours + exact.time_to_train_hours) / 2 / 24
    sizing = size(api, {**pinned, "duration_days": days})
    kept = sizing["result"]["configurations"][0]
    assert kept["hot_spare_nodes"] == 1 and kept["price"]["total"] == spares["total"]
    assert "no fabric is used or billed" in sizing["result"]["network_advice"]["reason"]

    status, quote = api.call("POST", "/v1/quotes", {
        "sizing_id": sizing["id"], "rank": 1, "customer": {"name": "Check", "country": "US"}})
    assert status == 201, quote
    assert quote["configuration"]["nodes"] == 2 and quote["configuration"]["hot_spare_nodes"] == 1
    assert not {line["code"] for line in quote["lines"]} & FABRIC_LINES
    assert quote["totals"]["term_net"] == kept["price"]["total"], "to the cent"
    # Priced again from the stored quote, the spare stays off the fabric.
    document = from_document(QuoteDocument, quote)
    again = repriced(snap, document, 1, 1, "US", None, date(2026, 12, 1),
                     stock=snap.stock_of(document.configuration.region, "hgx-b200-8"),
                     tax_rules=snap.prices)
    assert again.totals.term_net == document.totals.term_net


def test_the_cost_range_is_the_term_price_at_both_ends_of_the_time_range(api):
    """A committed term bills at least its months: a run whose whole time range is shorter than
    the term has one price, and the range of the total is that price (the quote's too)."""
    sizing = size(api, SIZINGS["llama-70b 1y EUR"])
    term_hours = 12 * 730  # prices.yaml hours_per_month
    short = [c for c in sizing["result"]["configurations"]
             if c["intervals"]["time_to_train_hours"]["p90"] < term_hours]
    assert short, "the 70B run of 2e11 tokens on 4-16 nodes is well under a year"
    for config in short:
        assert config["price"]["months_billed"] == 12
        total = Decimal(config["price"]["total"])
        shown = config["intervals"]["total"]
        # One price at both ends, rounded outward at 4 significant digits: p10 down, p90 up.
        assert shown == {"p10": float(Context(prec=4, rounding=ROUND_FLOOR).plus(total)),
                         "p90": float(Context(prec=4, rounding=ROUND_CEILING).plus(total))}, (
            config["rank"], shown)
    status, quote = api.call("POST", "/v1/quotes", {
        "sizing_id": sizing["id"], "rank": short[0]["rank"],
        "customer": {"name": "Check", "country": "US"}})
    assert status == 201, quote
    assert quote["performance"]["intervals"]["total"] == short[0]["intervals"]["total"]


def holds(interval: dict[str, float], total: str) -> bool:
    return Decimal(repr(interval["p10"])) <= Decimal(total) <= Decimal(repr(interval["p90"]))


# A small dense model on a pinned layout: rank 3's 429.17 had a p10 of 429.2 to the nearest.
PINNED_DEEPSPEED = {"workload": {"transformer": {"layers": 16, "hidden": 2048, "heads": 16,
                                                 "kv_heads": 8, "vocab": 32000, "seq_len": 4096}},
                    "tokens": 1e9, "nodes": {"min": 1, "max": 4}, "term": "monthly",
                    "currency": "USD", "layout": {"zero_stage": 2, "framework": "deepspeed"}}


@pytest.mark.parametrize("body", [SIZINGS["llama-8b monthly USD"], SIZINGS["llama-70b 1y EUR"],
                                  SIZINGS["resnet-50 epochs monthly EUR"], PINNED_DEEPSPEED],
                         ids=["llama-8b monthly USD", "llama-70b 1y EUR", "resnet-50 monthly EUR",
                              "pinned deepspeed monthly USD"])
def test_every_shown_total_range_holds_its_total_and_so_do_its_quotes(api, body):
    """Rounding to the nearest put a p10 above its point (7836.86 shown as 7837): the range is
    rounded outward, for the sizing's configurations and for quotes of them in other terms."""
    sizing = size(api, body)
    configs = sizing["result"]["configurations"]
    for config in configs:
        assert holds(config["intervals"]["total"], config["price"]["total"]), config["rank"]
    for config in configs[:2]:
        for terms in ({}, {"currency": "EUR"}, {"currency": "USD"}, {"term": "3y"},
                      {"term": "monthly"}, {"support": "business"}):
            status, quote = api.call("POST", "/v1/quotes", {
                "sizing_id": sizing["id"], "rank": config["rank"],
                "customer": {"name": "Check", "country": "US"}, **terms})
            assert status == 201, quote
            shown = quote["performance"]["intervals"]["total"]
            assert holds(shown, quote["totals"]["term_net"]), (config["rank"], terms, shown)


def test_a_quotes_total_range_is_priced_at_its_own_currency_and_term(api):
    """The sizing's range is in USD for a month: a quote in EUR, or for 3 years, prices its own."""
    sizing = size(api, SIZINGS["llama-8b monthly USD"])
    top = sizing["result"]["configurations"][0]
    ranges = {}
    for terms in ({}, {"currency": "EUR"}, {"term": "3y"}):
        status, quote = api.call("POST", "/v1/quotes", {
            "sizing_id": sizing["id"], "rank": 1,
            "customer": {"name": "Check", "country": "US"}, **terms})
        assert status == 201, quote
        ranges[quote["currency"], quote["term"]] = (quote["performance"]["intervals"]["total"],
                                                    quote["exchange_rate"])
    same, _ = ranges["USD", "monthly"]
    assert same == top["intervals"]["total"]
    # Each amount is converted before it is rounded to the cent: the EUR range is the USD one at
    # the quote's rate up to that rounding and the 4 significant digits.
    euros, rate = ranges["EUR", "monthly"]
    for end in ("p10", "p90"):
        assert euros[end] == pytest.approx(same[end] * float(rate), rel=2e-3), end
    assert euros != same
    # Three years bill 36 months whatever the run: far above the month's range, one price.
    years, _ = ranges["USD", "3y"]
    assert years["p10"] > 10 * same["p90"]
    assert years["p90"] / years["p10"] - 1 < 1e-3
