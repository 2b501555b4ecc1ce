"""Quotes from a sizing or an explicit configuration: priced on the server, frozen, revised."""

from __future__ import annotations

import csv
import io
import math
import re
import shutil
import string
from datetime import UTC
from decimal import Decimal

import pytest
import yaml

from catalog.countries import ISO_3166_ALPHA2, ISO_3166_ALPHA2_PATTERN
from service.schemas.fields import anchored
from sizing.presets import PRESETS
from tests.conftest import CATALOG_DIR, authorised, build_app, new_key
from tests.service.test_estimates import estimate

SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 5e10, "nodes": {"min": 2, "max": 4},
          "gpu_models": ["h100-sxm"], "term": "1y", "currency": "EUR"}
EXPLICIT = {"configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 4,
                              "region": "eu-central"},
            "term": "monthly", "currency": "USD", "customer": {"name": "Ada", "country": "DE"}}


def succeeded_sizing(client) -> str:
    created = client.post("/v1/sizings", json=SIZING, headers={"Prefer": "wait=30"})
    assert created.status_code in (200, 201), created.get_json()
    assert created.get_json()["status"] == "succeeded"
    return created.get_json()["id"]


def assert_adds_up(quote):
    lines, totals = quote["lines"], quote["totals"]
    for line in lines:
        assert Decimal(line["list_amount"]) - Decimal(line["discount"]) == Decimal(line["net"])
        unit_total = Decimal(line["quantity"]) * Decimal(line["unit_price"])
        assert abs(unit_total - Decimal(line["list_amount"])) <= Decimal("0.01")
    monthly = [Decimal(x["net"]) for x in lines if x["billing"] == "monthly"]
    hourly = [Decimal(x["net"]) for x in lines if x["billing"] == "hourly"]
    once = [Decimal(x["net"]) for x in lines if x["billing"] == "one_time"]
    assert sum(once) == Decimal(totals["one_time"])
    if totals["hours_billed"]:
        assert not monthly and sum(hourly) == Decimal(totals["recurring"])
    else:
        assert not hourly and sum(monthly) == Decimal(totals["monthly_net"])
        assert totals["months_billed"] >= totals["term_months"]
        assert Decimal(totals["monthly_net"]) * totals["months_billed"] == Decimal(totals["recurring"])
    assert Decimal(totals["recurring"]) + Decimal(totals["one_time"]) == Decimal(totals["term_net"])
    assert Decimal(totals["term_net"]) + Decimal(totals["tax"]) == Decimal(totals["grand_total"])


def test_quote_a_ranked_configuration_end_to_end(client):
    sizing_id = succeeded_sizing(client)
    response = client.post("/v1/quotes", json={"sizing_id": sizing_id, "rank": 1,
                                               "customer": {"name": "Ada", "country": "DE"}})
    assert response.status_code == 201, response.get_json()
    quote = response.get_json()
    assert response.headers["Location"].endswith(quote["id"]) and response.headers["ETag"]
    assert quote["number"].startswith("Q-") and quote["status"] == "draft"
    assert quote["currency"] == "EUR" and quote["term"] == "1y" and quote["totals"]["term_months"] == 12
    assert quote["totals"]["tax_rate"] == "0.19" and quote["totals"]["tax_label"] == "VAT 19% (DE)"
    sizing = client.get(f"/v1/sizings/{sizing_id}").get_json()["result"]["configurations"][0]
    assert quote["totals"]["term_net"] == sizing["price"]["total"]
    assert quote["totals"]["months_billed"] == sizing["price"]["months_billed"]
    assert quote["seller"]["name"] and quote["seller"]["terms"]
    assert quote["workload"]["name"] == "Llama 3 8B" and quote["workload"]["tokens"] == 5e10
    assert quote["performance"]["scaling_efficiency"] > 0
    assert quote["performance"]["mfu_causal"] == sizing["mfu_causal"] < sizing["mfu"]
    assert quote["network_advice"]["recommended_fabric"]
    assert_adds_up(quote)
    assert any(line["discount"] != "0.00" for line in quote["lines"])


@pytest.mark.parametrize("currency", ["USD", "EUR", "GBP", "JPY", "SGD"])
def test_numbers_add_up_in_every_currency(client, currency):
    quote = client.post("/v1/quotes", json={**EXPLICIT, "currency": currency, "term": "3y"}).get_json()
    assert quote["currency"] == currency
    assert_adds_up(quote)
    if currency == "JPY":
        assert "." not in quote["totals"]["grand_total"]


def test_client_cannot_set_a_price(client):
    response = client.post("/v1/quotes", json={**EXPLICIT, "lines": [{"net": "1"}]})
    assert response.status_code == 422
    assert any(e["pointer"] == "/lines" for e in response.get_json()["errors"])


def test_stock_shortfall_is_quoted_with_lead_time(client):
    quote = client.post("/v1/quotes", json={**EXPLICIT, "configuration": {
        "server": "hgx-b200-8", "fabric": "ib-ndr-400", "nodes": 8, "region": "us-east"}}).get_json()
    stock = quote["stock"]
    assert stock["available_now"] == 4 and stock["from_deliveries"] == 4
    assert stock["lead_time_days"] == 42 and stock["delivery_date"] in stock["warning"]


@pytest.mark.parametrize("nodes", [17, 4096])
def test_nodes_beyond_stock_and_stock_on_order_are_not_quoted(client, nodes):
    # us-east has 4 B200 nodes on hand and 12 on order: 16 can be sold, 17 cannot.
    beyond = client.post("/v1/quotes", json={**EXPLICIT, "configuration": {
        "server": "hgx-b200-8", "fabric": "ib-ndr-400", "nodes": nodes, "region": "us-east"}})
    assert beyond.status_code == 422, beyond.get_json()
    assert beyond.get_json()["code"] == "undeliverable"
    assert [e["pointer"] for e in beyond.get_json()["errors"]] == ["/configuration/nodes"]
    assert "can deliver 16 (4 in stock, 12 on order in 42 days)" in beyond.get_json()["detail"]
    at_most = client.post("/v1/quotes", json={**EXPLICIT, "configuration": {
        "server": "hgx-b200-8", "fabric": "ib-ndr-400", "nodes": 16, "region": "us-east"}})
    assert at_most.status_code == 201 and at_most.get_json()["stock"]["undeliverable"] == 0


def test_a_quote_whose_stock_is_gone_is_neither_sent_nor_accepted(tmp_path):
    client = authorised(build_app(f"sqlite:///{tmp_path / 'q.sqlite3'}"))
    b200 = {**EXPLICIT, "configuration": {"server": "hgx-b200-8", "fabric": "ib-ndr-400",
                                          "nodes": 4, "region": "us-east"}}
    first, second = (client.post("/v1/quotes", json=b200) for _ in range(2))
    sent = client.patch(f"/v1/quotes/{second.get_json()['id']}", json={"status": "sent"},
                        headers={"If-Match": second.headers["ETag"]})
    assert sent.status_code == 200
    change_catalog(client, stock=[{"region": "us-east", "server": "hgx-b200-8",
                                   "available_nodes": 2, "arriving_nodes": 0}])
    for created, etag, was, asked in ((first, first.headers["ETag"], "draft", "sent"),
                                      (second, sent.headers["ETag"], "sent", "accepted")):
        url = f"/v1/quotes/{created.get_json()['id']}"
        refused = client.patch(url, json={"status": asked}, headers={"If-Match": etag})
        assert refused.status_code == 409, refused.get_json()
        assert refused.get_json()["code"] == "quote_undeliverable"
        assert [e["pointer"] for e in refused.get_json()["errors"]] == ["/status"]
        assert client.get(url).get_json()["status"] == was
    # Closing a quote that cannot be delivered stays possible.
    expired = client.patch(f"/v1/quotes/{first.get_json()['id']}", json={"status": "expired"},
                           headers={"If-Match": first.headers["ETag"]})
    assert expired.status_code == 200


def test_status_transitions_need_if_match(client):
    created = client.post("/v1/quotes", json=EXPLICIT)
    quote, etag = created.get_json(), created.headers["ETag"]
    url = f"/v1/quotes/{quote['id']}"
    assert client.patch(url, json={"status": "sent"}).status_code == 428
    assert client.patch(url, json={"status": "sent"}, headers={"If-Match": '"stale"'}).status_code == 412
    sent = client.patch(url, json={"status": "sent"}, headers={"If-Match": etag})
    assert sent.status_code == 200 and sent.get_json()["status"] == "sent"
    assert client.patch(url, json={"status": "accepted"}, headers={"If-Match": etag}).status_code == 412
    back = client.patch(url, json={"status": "draft"}, headers={"If-Match": sent.headers["ETag"]})
    assert back.status_code == 409
    accepted = client.patch(url, json={"status": "accepted"}, headers={"If-Match": sent.headers["ETag"]})
    assert accepted.get_json()["status"] == "accepted"
    assert client.get(url, headers={"If-None-Match": accepted.headers["ETag"]}).status_code == 304
    weak = f'W/{accepted.headers["ETag"]}'
    assert client.get(url, headers={"If-None-Match": weak}).status_code == 304
    assert client.get(url, headers={"If-None-Match": "*"}).status_code == 304
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 200


def test_idempotency_key_creates_one_quote_and_refuses_another_body(client):
    headers = {"Idempotency-Key": "retry-me-1"}
    first = client.post("/v1/quotes", json=EXPLICIT, headers=headers)
    again = client.post("/v1/quotes", json=EXPLICIT, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    other = client.post("/v1/quotes", json={**EXPLICIT, "term": "3y"}, headers=headers)
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"


def test_csv_is_one_table_with_customer_fields_escaped(client):
    hostile = {**EXPLICIT, "customer": {"name": "=HYPERLINK(\"http://x\")", "company": "Acme, \"Inc\"",
                                        "country": "DE"}}
    quote = client.post("/v1/quotes", json=hostile).get_json()
    exported = client.get(f"/v1/quotes/{quote['id']}/export.csv")
    assert exported.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(exported.get_data(as_text=True))))
    header = next(csv.reader(io.StringIO(exported.get_data(as_text=True))))
    lines = list(csv.reader(io.StringIO(exported.get_data(as_text=True))))
    assert {len(line) for line in lines} == {len(header)}, "ragged rows"
    assert {r["quote_number"] for r in rows} == {quote["number"]}
    assert {r["currency"] for r in rows} == {"USD"} and len({r["configuration"] for r in rows}) == 1
    assert {r["row_type"] for r in rows} == {"line", "total", "tax"}
    assert [r["net"] for r in rows if r["code"] == "grand_total"] == [quote["totals"]["grand_total"]]
    assert [r["description"] for r in rows if r["row_type"] == "tax"] == ["VAT 19% (DE)"]
    assert rows[0]["customer"].startswith("'=HYPERLINK"), "a formula must not run"
    assert 'Acme, "Inc"' in rows[0]["customer"]


def test_printable_document_says_what_a_sales_engineer_sends(client):
    quote = client.post("/v1/quotes", json={**EXPLICIT, "term": "1y"}).get_json()
    document = client.get(f"/v1/quotes/{quote['id']}/document")
    html = document.get_data(as_text=True)
    assert document.mimetype == "text/html" and quote["number"] in html
    assert f"{Decimal(quote['totals']['grand_total']):,}" in html  # thousands separators
    for text in (quote["valid_until"], quote["issued_on"], quote["seller"]["name"],
                 quote["seller"]["vat_id"], "VAT 19% (DE)", "Terms and conditions",
                 quote["seller"]["terms"][0]):
        assert text in html


def test_the_document_writes_the_parameters_from_their_exact_count(client):
    """70,553,698,304 parameters are 70.6 B; stored rounded to 7.055e10 they read 70.5 B."""
    sizing = client.post("/v1/sizings", json={**SIZING, "workload": {"preset": "llama-3-70b"},
                                              "tokens": 2e11, "nodes": {"min": 4, "max": 8}},
                         headers={"Prefer": "wait=30"}).get_json()
    params = PRESETS["llama-3-70b"].model.params
    assert sizing["result"]["workload"]["params"] == params == 70_553_698_304
    quote = client.post("/v1/quotes", json={
        "sizing_id": sizing["id"], "rank": 1,
        "customer": {"name": "Ada", "country": "DE"}}).get_json()
    html = client.get(f"/v1/quotes/{quote['id']}/document").get_data(as_text=True)
    assert "Llama 3 70B (70.6 B parameters)" in html


def test_no_ratio_against_one_node_where_none_fits_reaches_the_quote(client):
    """405B on 64-128 H100 nodes fits on no single node: the quote gives no ratio against one."""
    sizing = client.post("/v1/sizings", json={**SIZING, "workload": {"preset": "llama-3-405b"},
                                              "tokens": 15e12, "nodes": {"min": 64, "max": 128}},
                         headers={"Prefer": "wait=30"}).get_json()
    assert not sizing["result"]["efficiency_series"]["one_node_fits_memory"]
    quote = client.post("/v1/quotes", json={
        "sizing_id": sizing["id"], "rank": 1,
        "customer": {"name": "Ada", "country": "DE"}}).get_json()
    assert quote["performance"]["scaling_efficiency"] > 0
    assert quote["performance"]["efficiency_vs_one_node"] is None
    html = client.get(f"/v1/quotes/{quote['id']}/document").get_data(as_text=True)
    assert "against one node" not in html


def test_reverse_charge_for_an_eu_business_abroad(client):
    business = {**EXPLICIT, "customer": {"name": "Ada", "country": "FR", "vat_id": "FR40303265045"}}
    quote = client.post("/v1/quotes", json=business).get_json()
    assert quote["totals"]["tax"] == "0.00" and quote["totals"]["tax_label"] == "VAT reverse charge (FR)"
    assert any("Reverse charge" in note for note in quote["notes"])
    same_country = {**EXPLICIT, "customer": {"name": "Ada", "country": "DE", "vat_id": "DE811569869"}}
    assert client.post("/v1/quotes", json=same_country).get_json()["totals"]["tax_label"] == "VAT 19% (DE)"


def test_a_vat_id_of_another_country_than_the_customer_s_is_refused(client):
    foreign_id = {**EXPLICIT, "customer": {"name": "Ada", "country": "FR", "vat_id": "DE123456789"}}
    refused = client.post("/v1/quotes", json=foreign_id)
    assert refused.status_code == 422, refused.get_json()
    assert [e["pointer"] for e in refused.get_json()["errors"]] == ["/customer/vat_id"]
    created = client.post("/v1/quotes", json=EXPLICIT)
    url = f"/v1/quotes/{created.get_json()['id']}"
    changed = client.patch(url, json={"customer": foreign_id["customer"]},
                           headers={"If-Match": created.headers["ETag"]})
    assert changed.status_code == 422
    assert [e["pointer"] for e in changed.get_json()["errors"]] == ["/customer/vat_id"]
    assert client.get(url).get_json()["revision"] == 1
    assert client.get(url).headers["ETag"] == created.headers["ETag"]


def test_a_business_outside_the_eu_is_invoiced_without_german_vat(client):
    business = {**EXPLICIT, "customer": {"name": "Ada", "country": "GB", "vat_id": "GB123456789"}}
    quote = client.post("/v1/quotes", json=business).get_json()
    assert quote["totals"]["tax_label"] == "Outside the scope of DE VAT (GB)"
    assert quote["totals"]["tax"] == "0.00"
    assert quote["totals"]["grand_total"] == quote["totals"]["term_net"]
    assert any("accounts for any VAT due in GB" in note for note in quote["notes"])
    consumer = {**EXPLICIT, "customer": {"name": "Ada", "country": "GB"}}
    assert client.post("/v1/quotes", json=consumer).get_json()["totals"]["tax_label"] == (
        "VAT 20% (GB)")


def test_list_filters_and_isolation(catalog_app, client):
    created = client.post("/v1/quotes", json=EXPLICIT).get_json()
    listed = client.get("/v1/quotes?status=draft&limit=100").get_json()["items"]
    assert created["id"] in [q["id"] for q in listed]
    other = authorised(catalog_app, new_key(catalog_app))
    assert other.get(f"/v1/quotes/{created['id']}").status_code == 404
    assert other.get("/v1/quotes").get_json()["items"] == []


def test_price_change_leaves_quotes_and_reprice_makes_a_revision(tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'q.sqlite3'}")
    client = authorised(app)
    first = client.post("/v1/quotes", json=EXPLICIT)
    before = first.get_json()
    data = tmp_path / "data"
    shutil.copytree(CATALOG_DIR, data)
    prices = yaml.safe_load((data / "prices.yaml").read_text())
    for p in prices["servers"]:
        if p["server"] == "hgx-h100-8" and p["region"] == "eu-central":
            p["monthly_usd"] = str(Decimal(p["monthly_usd"]) + 1000)
    (data / "prices.yaml").write_text(yaml.safe_dump(prices, sort_keys=False))
    assert app.test_cli_runner().invoke(args=["catalog", "load", "--dir", str(data)]).exit_code == 0

    unchanged = client.get(f"/v1/quotes/{before['id']}").get_json()
    assert unchanged["totals"] == before["totals"] and unchanged["catalog_version"] == 1
    fresh = client.post("/v1/quotes", json=EXPLICIT).get_json()
    assert fresh["catalog_version"] == 2
    delta = Decimal(fresh["totals"]["monthly_net"]) - Decimal(before["totals"]["monthly_net"])
    assert delta == Decimal(4000)  # 4 nodes x 1,000 on a monthly term
    repriced = client.post(f"/v1/quotes/{before['id']}/reprice", headers={"If-Match": first.headers["ETag"]})
    assert repriced.status_code == 200
    body = repriced.get_json()
    assert body["revision"] == 2 and body["catalog_version"] == 2
    assert Decimal(body["change_from_previous"]["monthly_net_delta"]) == Decimal(4000)
    assert [r["revision"] for r in body["revisions"]] == [1, 2]
    assert body["revisions"][0]["grand_total"] == before["totals"]["grand_total"]


def test_reprice_prices_the_total_range_again(tmp_path):
    """A re-priced quote's total moves with the prices: so does the range it is shown with."""
    app = build_app(f"sqlite:///{tmp_path / 'q.sqlite3'}")
    client = authorised(app)
    first = client.post("/v1/quotes", json={"sizing_id": succeeded_sizing(client), "rank": 1,
                                            "customer": {"name": "Ada", "country": "DE"}})
    before = first.get_json()
    data = tmp_path / "data"
    shutil.copytree(CATALOG_DIR, data)
    prices = yaml.safe_load((data / "prices.yaml").read_text())
    for p in prices["servers"]:
        if p["server"] == before["configuration"]["server"]["id"]:
            p["monthly_usd"] = str(Decimal(p["monthly_usd"]) + 1000)
    (data / "prices.yaml").write_text(yaml.safe_dump(prices, sort_keys=False))
    assert app.test_cli_runner().invoke(args=["catalog", "load", "--dir", str(data)]).exit_code == 0

    after = client.post(f"/v1/quotes/{before['id']}/reprice",
                        headers={"If-Match": first.headers["ETag"]}).get_json()
    assert Decimal(after["totals"]["term_net"]) > Decimal(before["totals"]["term_net"])
    for quote in (before, after):
        shown = quote["performance"]["intervals"]["total"]
        assert (Decimal(repr(shown["p10"])) <= Decimal(quote["totals"]["term_net"])
                <= Decimal(repr(shown["p90"]))), (quote["revision"], shown)
    time_range = before["performance"]["intervals"]["time_to_train_hours"]
    assert after["performance"]["intervals"]["time_to_train_hours"] == time_range


def test_quote_performance_and_advice_survive_the_typed_schema(catalog_app, client):
    from service import db
    from service.records import QuoteRevision

    sizing_id = succeeded_sizing(client)
    quote = client.post("/v1/quotes", json={"sizing_id": sizing_id,
                                            "customer": {"name": "Ada"}}).get_json()
    with catalog_app.app_context():
        stored = db.session().get(QuoteRevision, (quote["id"], 1)).document
    assert quote["performance"] == stored["performance"]
    assert quote["network_advice"] == stored["network_advice"]


def test_list_by_date_and_cursor(catalog_app):
    from datetime import datetime, timedelta

    client = authorised(catalog_app, new_key(catalog_app))
    ids = [client.post("/v1/quotes", json=EXPLICIT).get_json()["id"] for _ in range(3)]
    now = datetime.now(UTC)
    since = (now - timedelta(minutes=5)).isoformat().replace("+00:00", "Z")
    future = (now + timedelta(minutes=5)).isoformat().replace("+00:00", "Z")
    seen, cursor = [], None
    while True:
        url = f"/v1/quotes?limit=2&created_from={since}" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(url).get_json()
        seen += [q["id"] for q in page["items"]]
        if not (cursor := page["next_cursor"]):
            break
    assert sorted(seen) == sorted(ids)
    assert client.get(f"/v1/quotes?created_from={future}").get_json()["items"] == []
    assert client.get("/v1/quotes?created_from=yesterday").status_code == 422


def test_a_result_of_an_older_shape_is_refused_not_a_500(catalog_app, client):
    from service import db
    from service.records import Sizing

    sizing_id = succeeded_sizing(client)
    with catalog_app.app_context():
        session = db.session()
        record = session.get(Sizing, sizing_id)
        old = dict(record.result)
        old["configurations"] = [{k: v for k, v in c.items() if k != "price"}
                                 for c in old["configurations"]]
        record.result = old
        session.commit()
    response = client.post("/v1/quotes", json={"sizing_id": sizing_id, "customer": {"name": "A"}})
    assert response.status_code == 422 and response.get_json()["code"] == "sizing_outdated"


def test_changing_the_country_reprices_the_tax_into_a_new_revision(client):
    created = client.post("/v1/quotes", json=EXPLICIT)
    before = created.get_json()
    assert before["totals"]["tax_rate"] == "0.19"
    url = f"/v1/quotes/{before['id']}"
    changed = client.patch(url, json={"customer": {"name": "Ada", "country": "SG"}},
                           headers={"If-Match": created.headers["ETag"]})
    assert changed.status_code == 200, changed.get_json()
    after = changed.get_json()
    assert after["revision"] == 2 and [r["reason"] for r in after["revisions"]] == [
        "created", "customer_country_changed"]
    assert after["totals"]["tax_rate"] == "0.09"
    term_net = Decimal(after["totals"]["term_net"])
    assert term_net == Decimal(before["totals"]["term_net"])  # same prices, same catalog version
    assert Decimal(after["totals"]["tax"]) == (term_net * Decimal("0.09")).quantize(Decimal("0.01"))
    assert after["catalog_version"] == before["catalog_version"]
    assert after["valid_until"] == before["valid_until"]
    assert_adds_up(after)
    assert client.get(url).get_json()["totals"]["tax_rate"] == "0.09"


def test_changing_only_the_name_keeps_the_revision(client):
    created = client.post("/v1/quotes", json=EXPLICIT)
    changed = client.patch(f"/v1/quotes/{created.get_json()['id']}",
                           json={"customer": {"name": "Ada L.", "country": "DE"}},
                           headers={"If-Match": created.headers["ETag"]})
    assert changed.get_json()["revision"] == 1
    assert changed.get_json()["customer"]["name"] == "Ada L."


def test_removing_the_country_leaves_no_stale_tax_rate(client):
    created = client.post("/v1/quotes", json=EXPLICIT)
    changed = client.patch(f"/v1/quotes/{created.get_json()['id']}",
                           json={"customer": {"name": "Ada"}},
                           headers={"If-Match": created.headers["ETag"]}).get_json()
    assert changed["revision"] == 2 and changed["totals"]["tax_rate"] is None
    assert Decimal(changed["totals"]["tax"]) == 0


def test_a_quote_shows_ranges_and_goodput_not_bare_figures(client):
    sizing_id = succeeded_sizing(client)
    quote = client.post("/v1/quotes", json={"sizing_id": sizing_id,
                                            "customer": {"name": "Ada"}}).get_json()
    performance = quote["performance"]
    assert performance["intervals"]["tokens_per_s"]["p10"] < performance["tokens_per_s"]
    assert 0 < performance["goodput"] <= 1
    html = client.get(f"/v1/quotes/{quote['id']}/document").get_data(as_text=True)
    assert "p10-p90" in html and "goodput" in html


@pytest.mark.parametrize("term", ["1y", "monthly"])
def test_a_currency_without_an_exchange_rate_is_a_problem_naming_the_field(client, term):
    # The sizing's own term reuses its billed period; another term is billed again, in the
    # quote's currency: neither converts into a currency the price book does not hold.
    sizing_id = succeeded_sizing(client)
    response = client.post("/v1/quotes", json={"sizing_id": sizing_id, "term": term,
                                               "currency": "TOP",
                                               "customer": {"name": "Ada", "country": "DE"}})
    assert response.status_code == 422, response.get_json()
    assert any(e["pointer"] == "/currency" for e in response.get_json()["errors"])


@pytest.mark.parametrize("country", ["XX", "ZZ", "AA", "QQ", "UK", "de"])
def test_a_country_code_that_names_no_country_is_a_problem_naming_the_field(client, country):
    response = client.post("/v1/quotes", json={**EXPLICIT, "customer": {"name": "Ada",
                                                                        "country": country}})
    assert response.status_code == 422, response.get_json()
    assert response.mimetype == "application/problem+json"
    assert [e["pointer"] for e in response.get_json()["errors"]] == ["/customer/country"]


def test_the_spec_s_country_pattern_is_the_list_of_assigned_codes():
    pattern = re.compile(anchored(ISO_3166_ALPHA2_PATTERN))
    pairs = {a + b for a in string.ascii_uppercase for b in string.ascii_uppercase}
    assert {code for code in pairs if pattern.match(code)} == ISO_3166_ALPHA2
    assert len(ISO_3166_ALPHA2) == 249


@pytest.mark.parametrize("country", ["GB", "AX", "SS"])
def test_an_assigned_country_code_is_quoted(client, country):
    response = client.post("/v1/quotes", json={**EXPLICIT, "customer": {"name": "Ada",
                                                                        "country": country}})
    assert response.status_code == 201, response.get_json()


def test_an_unknown_sizing_is_a_problem_naming_the_field_like_an_unknown_server(client):
    unknown = client.post("/v1/quotes", json={"sizing_id": "00000000-0000-4000-8000-000000000000",
                                              "customer": {"name": "Ada", "country": "DE"}})
    server = estimate(client, cluster={"server": "no-such-server", "fabric": "ib-ndr-400",
                                       "nodes": 8})
    assert (unknown.status_code, unknown.get_json()["code"]) == (
        server.status_code, server.get_json()["code"]) == (422, "validation_failed")
    assert [e["pointer"] for e in unknown.get_json()["errors"]] == ["/sizing_id"]
    assert [e["pointer"] for e in server.get_json()["errors"]] == ["/cluster/server"]


@pytest.mark.parametrize("raw, status, code, pointer", [
    (b"{not json", 400, "invalid_json", "/"),
    (b'{"x": 1}', 422, "validation_failed", "/x"),
])
def test_reprice_reads_its_body_like_every_other(client, raw, status, code, pointer):
    created = client.post("/v1/quotes", json=EXPLICIT)
    quote_id, etag = created.get_json()["id"], created.headers["ETag"]
    response = client.post(f"/v1/quotes/{quote_id}/reprice", data=raw,
                           content_type="application/json", headers={"If-Match": etag})
    assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == code
    assert [e["pointer"] for e in response.get_json()["errors"]] == [pointer]
    assert client.get(f"/v1/quotes/{quote_id}").get_json()["revision"] == 1
    empty_object = client.post(f"/v1/quotes/{quote_id}/reprice", json={},
                               headers={"If-Match": etag})
    assert empty_object.status_code == 200 and empty_object.get_json()["revision"] == 1


@pytest.mark.parametrize("body", [{}, {"status": "draft"},
                                  {"customer": {"name": "Ada", "country": "DE"}},
                                  {"status": "draft", "customer": {"name": "Ada", "country": "DE"}}])
def test_a_change_that_changes_nothing_keeps_the_etag(client, body):
    created = client.post("/v1/quotes", json=EXPLICIT)
    url, etag = f"/v1/quotes/{created.get_json()['id']}", created.headers["ETag"]
    unchanged = client.patch(url, json=body, headers={"If-Match": etag})
    assert unchanged.status_code == 200, unchanged.get_json()
    assert unchanged.headers["ETag"] == etag
    assert unchanged.get_json() == client.get(url).get_json()
    assert {k: v for k, v in unchanged.get_json().items() if k != "client_secret"} == {
        k: v for k, v in created.get_json().items() if k != "client_secret"}
    # Another editor who read the same ETag still changes it.
    assert client.patch(url, json={"status": "sent"}, headers={"If-Match": etag}).status_code == 200


def test_reprice_without_a_catalog_change_makes_no_revision(tmp_path):
    client = authorised(build_app(f"sqlite:///{tmp_path / 'q.sqlite3'}"))
    created = client.post("/v1/quotes", json=EXPLICIT)
    url, etag = f"/v1/quotes/{created.get_json()['id']}", created.headers["ETag"]
    same = client.post(f"{url}/reprice", headers={"If-Match": etag})
    assert same.status_code == 200 and same.headers["ETag"] == etag
    assert same.get_json()["revision"] == 1 and same.get_json()["change_from_previous"] is None
    assert same.get_json()["updated_at"] == created.get_json()["updated_at"]
    change_catalog(client, server_prices=[{"server": "hgx-a100-80gb-8", "region": "us-east",
                                           "monthly_usd": "9999.00"}])
    moved = client.post(f"{url}/reprice", headers={"If-Match": etag})
    assert moved.status_code == 200 and moved.get_json()["revision"] == 2
    assert moved.headers["ETag"] != etag


def change_catalog(client, **change):
    response = client.post("/v1/catalog/changes", json={"note": "test", **change})
    assert response.status_code == 201, response.get_json()


# A 70-day run (1,680.43 h, shown as 1,680): a 1y term bills it 12 months, the monthly term
# 1,681 started hours.
LONG_RUN = {"workload": {"preset": "llama-3-70b"}, "tokens": 2.5e11, "nodes": {"min": 4, "max": 16},
            "term": "1y", "currency": "EUR", "region": "eu-central"}


def rank_one(client, body=LONG_RUN) -> tuple[str, dict]:
    created = client.post("/v1/sizings", json=body, headers={"Prefer": "wait=60"}).get_json()
    assert created["status"] == "succeeded", created
    return created["id"], created["result"]["configurations"][0]


def test_a_quote_at_another_term_bills_the_hours_the_sizing_priced(client):
    sizing_id, ranked = rank_one(client)
    monthly_cost = re.search(r"on the monthly term the same run costs ([0-9,.]+) EUR",
                             ranked["price"]["warning"]).group(1).replace(",", "")
    quote = client.post("/v1/quotes", json={"sizing_id": sizing_id, "term": "monthly",
                                            "customer": {"name": "Ada"}}).get_json()
    assert quote["totals"]["term_net"] == monthly_cost
    assert quote["totals"]["hours_billed"], "the case this test is about: billed by the hour"
    assert quote["totals"]["hours_billed"] == math.ceil(ranked["price"]["training_hours"])


@pytest.mark.parametrize("term, months", [("1y", 12), ("3y", 36)])
def test_a_quote_warns_of_the_idle_part_of_its_own_term(client, term, months):
    sizing_id, ranked = rank_one(client)
    quote = client.post("/v1/quotes", json={"sizing_id": sizing_id, "term": term,
                                            "customer": {"name": "Ada"}}).get_json()
    idle = [n for n in quote["notes"] if "of the billed time comes after the training ends" in n]
    assert len(idle) == 1, quote["notes"]
    assert f"the {term} term bills {months} months" in idle[0]
    if term == ranked["price"]["term"]:
        assert idle == [ranked["price"]["warning"]]
    monthly = client.post("/v1/quotes", json={"sizing_id": sizing_id, "term": "monthly",
                                              "customer": {"name": "Ada"}}).get_json()
    assert not any("comes after the training ends" in n for n in monthly["notes"])


def test_a_sizing_is_quoted_at_its_own_catalog_version_and_repriced_on_request(tmp_path):
    client = authorised(build_app(f"sqlite:///{tmp_path / 'q.sqlite3'}"))
    sizing_id, ranked = rank_one(client)
    change_catalog(client, server_prices=[{"server": ranked["server"]["id"], "region": "eu-central",
                                           "hourly_usd": "999.00", "monthly_usd": "99999.00"}])
    created = client.post("/v1/quotes", json={"sizing_id": sizing_id,
                                              "customer": {"name": "Ada", "country": "DE"}})
    quote = created.get_json()
    assert quote["totals"]["term_net"] == ranked["price"]["total"]
    assert quote["catalog_version"] == quote["performance"]["sizing_catalog_version"] == 1
    assert quote["revisions"][0]["catalog_version"] == 1
    repriced = client.post(f"/v1/quotes/{quote['id']}/reprice",
                           headers={"If-Match": created.headers["ETag"]}).get_json()
    assert repriced["catalog_version"] == 2 and repriced["revision"] == 2
    assert Decimal(repriced["change_from_previous"]["grand_total_delta"]) > 0
    assert Decimal(repriced["totals"]["term_net"]) > Decimal(ranked["price"]["total"])
    # The re-priced revision still warns of the idle term, with the new monthly price.
    idle = [n for n in repriced["notes"] if "comes after the training ends" in n]
    assert len(idle) == 1 and idle != [ranked["price"]["warning"]]


@pytest.mark.parametrize("available, arriving, lead_time_days", [(1, 0, 0), (0, 64, 45)])
def test_a_sizing_whose_stock_is_gone_is_not_quoted(tmp_path, available, arriving, lead_time_days):
    # The sizing allows the default 30 days of lead time: nodes arriving in 45 do not count.
    client = authorised(build_app(f"sqlite:///{tmp_path / 'q.sqlite3'}"))
    sizing_id, ranked = rank_one(client)
    change_catalog(client, stock=[{"region": "eu-central", "server": ranked["server"]["id"],
                                   "available_nodes": available, "arriving_nodes": arriving,
                                   "lead_time_days": lead_time_days}])
    refused = client.post("/v1/quotes", json={"sizing_id": sizing_id, "customer": {"name": "Ada"}})
    assert refused.status_code == 422, refused.get_json()
    assert refused.get_json()["code"] == "undeliverable"
    # No rank was sent: the problem points at the sizing and names the rank it defaulted to.
    assert [e["pointer"] for e in refused.get_json()["errors"]] == ["/sizing_id"]
    assert "rank 1 (no rank was given)" in refused.get_json()["detail"]
    assert f"can deliver {available} within the sizing's max_lead_time_days (30)" in (
        refused.get_json()["detail"])
    ranked_one = client.post("/v1/quotes", json={"sizing_id": sizing_id, "rank": 1,
                                                 "customer": {"name": "Ada"}})
    assert ranked_one.status_code == 422, ranked_one.get_json()
    assert [e["pointer"] for e in ranked_one.get_json()["errors"]] == ["/rank"]


def forget_training_hours(record) -> None:
    """A stored sizing as the service wrote it before its prices kept their unrounded hours."""
    result = dict(record.result)
    result["configurations"] = [{**c, "price": {k: v for k, v in c["price"].items()
                                                if k != "training_hours"}}
                                for c in result["configurations"]]
    record.result = result


def test_a_sizing_stored_without_its_unrounded_hours_is_quoted_at_its_own_term_only(catalog_app,
                                                                                     client):
    from service import db
    from service.records import Sizing

    sizing_id, _ = rank_one(client)
    with catalog_app.app_context():
        session = db.session()
        forget_training_hours(session.get(Sizing, sizing_id))
        session.commit()
    other_term = client.post("/v1/quotes", json={"sizing_id": sizing_id, "term": "monthly",
                                                 "customer": {"name": "Ada"}})
    assert other_term.status_code == 422 and other_term.get_json()["code"] == "sizing_outdated"
    assert [e["pointer"] for e in other_term.get_json()["errors"]] == ["/term"]
    own_term = client.post("/v1/quotes", json={"sizing_id": sizing_id, "customer": {"name": "Ada"}})
    assert own_term.status_code == 201, own_term.get_json()


def test_documents_stored_before_training_hours_are_served_with_it_null(catalog_app, client):
    """A sizing and a quote revision stored before the field existed: the spec requires the key
    (nullable), so the API serves null and the generated client parses them."""
    from gpu_sizing_client.models import Quote as ClientQuote
    from gpu_sizing_client.models import Sizing as ClientSizing

    from service import db
    from service.records import QuoteRevision, Sizing

    sizing_id, _ = rank_one(client)
    created = client.post("/v1/quotes", json={"sizing_id": sizing_id, "customer": {"name": "Ada"}})
    quote_id = created.get_json()["id"]
    with catalog_app.app_context():
        session = db.session()
        forget_training_hours(session.get(Sizing, sizing_id))
        revision = session.get(QuoteRevision, (quote_id, 1))
        document = dict(revision.document)
        document["performance"] = {k: v for k, v in document["performance"].items()
                                   if k != "training_hours"}
        revision.document = document
        session.commit()

    sizing = client.get(f"/v1/sizings/{sizing_id}").get_json()
    assert all(c["price"]["training_hours"] is None for c in sizing["result"]["configurations"])
    parsed = ClientSizing.from_dict(sizing)
    assert parsed.result.configurations[0].price.training_hours is None
    quote = client.get(f"/v1/quotes/{quote_id}").get_json()
    assert quote["performance"]["training_hours"] is None
    assert ClientQuote.from_dict(quote).performance.training_hours is None


def catalog_dir_with_taxes(tmp_path, **taxes) -> str:
    """The shipped catalog with taxes.yaml changed (a key set to None is removed)."""
    data = tmp_path / "older-data"
    shutil.copytree(CATALOG_DIR, data)
    rules = yaml.safe_load((data / "taxes.yaml").read_text())
    for key, value in taxes.items():
        if value is None:
            rules.pop(key)
            rules["sources"].pop(key, None)
        else:
            rules[key] = value
    (data / "taxes.yaml").write_text(yaml.safe_dump(rules, sort_keys=False))
    return str(data)


def test_an_old_sizing_is_priced_at_its_version_and_taxed_by_today_s_rules(tmp_path):
    """Version 1 taxed DE at 16% and knew no VAT id prefixes (so no EL for Greece); the shipped
    catalog, loaded after the sizing, taxes DE at 19% and knows EL. Quotes of the sizing and
    customer changes of a quote at version 1 charge version 1's prices and today's tax."""
    app = build_app(f"sqlite:///{tmp_path / 'q.sqlite3'}", load_catalog=False)
    older = catalog_dir_with_taxes(tmp_path, rates={**yaml.safe_load(
        (CATALOG_DIR / "taxes.yaml").read_text())["rates"], "DE": "0.16"}, vat_id_prefixes=None)
    assert app.test_cli_runner().invoke(args=["catalog", "load", "--dir", older]).exit_code == 0
    client = authorised(app)
    sizing_id, ranked = rank_one(client)
    assert app.test_cli_runner().invoke(
        args=["catalog", "load", "--dir", str(CATALOG_DIR)]).exit_code == 0

    created = client.post("/v1/quotes", json={"sizing_id": sizing_id,
                                              "customer": {"name": "Ada", "country": "DE"}})
    assert created.status_code == 201, created.get_json()
    quote = created.get_json()
    assert quote["catalog_version"] == 1 and quote["totals"]["term_net"] == ranked["price"]["total"]
    assert quote["totals"]["tax_label"] == "VAT 19% (DE)"
    assert Decimal(quote["totals"]["tax"]) == (Decimal(quote["totals"]["term_net"])
                                               * Decimal("0.19")).quantize(Decimal("0.01"))

    greek = {"name": "Ada", "country": "GR", "vat_id": "EL094014201"}
    by_greek = client.post("/v1/quotes", json={"sizing_id": sizing_id, "customer": greek})
    assert by_greek.status_code == 201, by_greek.get_json()
    assert by_greek.get_json()["totals"]["tax_label"] == "VAT reverse charge (GR)"

    changed = client.patch(f"/v1/quotes/{quote['id']}", json={"customer": greek},
                           headers={"If-Match": created.headers["ETag"]})
    assert changed.status_code == 200, changed.get_json()
    body = changed.get_json()
    assert body["revision"] == 2 and body["catalog_version"] == 1
    assert body["totals"]["term_net"] == quote["totals"]["term_net"]
    assert body["totals"]["tax_label"] == "VAT reverse charge (GR)"


@pytest.mark.parametrize("country, number", [("JP", "T1234567890123"), ("SG", "M90312345A"),
                                             ("US", "12-3456789"), ("GB", "GB123456789")])
def test_a_business_outside_the_eu_gives_its_own_country_s_number(client, country, number):
    business = {**EXPLICIT, "customer": {"name": "Ada", "country": country, "vat_id": number}}
    created = client.post("/v1/quotes", json=business)
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["totals"]["tax_label"] == f"Outside the scope of DE VAT ({country})"


def test_repricing_a_stored_vat_id_the_rules_now_refuse_is_a_conflict_naming_it(tmp_path):
    """Version 1 knew no VAT id prefixes, so it took a Greek id starting GR; the shipped catalog
    holds Greece to EL. A body-less re-price points at no field: a 409 names the stored id."""
    app = build_app(f"sqlite:///{tmp_path / 'q.sqlite3'}", load_catalog=False)
    older = catalog_dir_with_taxes(tmp_path, vat_id_prefixes=None)
    assert app.test_cli_runner().invoke(args=["catalog", "load", "--dir", older]).exit_code == 0
    client = authorised(app)
    created = client.post("/v1/quotes", json={**EXPLICIT, "customer": {
        "name": "Ada", "country": "GR", "vat_id": "GR094014201"}})
    assert created.status_code == 201, created.get_json()
    assert app.test_cli_runner().invoke(
        args=["catalog", "load", "--dir", str(CATALOG_DIR)]).exit_code == 0
    url = f"/v1/quotes/{created.get_json()['id']}"
    refused = client.post(f"{url}/reprice", headers={"If-Match": created.headers["ETag"]})
    assert refused.status_code == 409, refused.get_json()
    problem = refused.get_json()
    assert problem["code"] == "customer_vat_id_invalid" and not problem.get("errors")
    assert "stored customer.vat_id (GR094014201)" in problem["detail"]
    assert "PATCH the quote's customer" in problem["detail"]
    assert client.get(url).get_json()["revision"] == 1


def test_a_run_longer_than_its_term_is_warned_with_the_longer_term_s_price(client):
    """A training that outlasts its committed term is billed month by month past it: the
    sizing says so, with the next longer term's price of the same run, and a quote at that
    longer term charges that price."""
    body = {"workload": {"preset": "llama-3-8b"}, "tokens": 5e12, "nodes": {"min": 1, "max": 1},
            "gpu_models": ["h100-sxm"], "term": "1y", "currency": "EUR", "region": "eu-central"}
    sizing_id, ranked = rank_one(client, body)
    assert ranked["price"]["training_hours"] > 12 * 730, ranked["price"]
    warning = ranked["price"]["warning"]
    found = re.search(r"the run spans ([0-9.]+) terms of 1y, billed as (\d+) months at the 1y "
                      r"rate; a 3y term prices it at ([0-9,.]+) EUR", warning or "")
    assert found, warning
    assert int(found.group(2)) == ranked["price"]["months_billed"]
    quote = client.post("/v1/quotes", json={"sizing_id": sizing_id, "term": "3y",
                                            "customer": {"name": "Ada"}}).get_json()
    assert quote["totals"]["term_net"] == found.group(3).replace(",", "")


def test_a_quote_warns_of_a_p90_past_its_term_as_its_sizing_does(client):
    """The README's sample: rank 1 fits the 1y term at the model's point, not at its p90; the
    quote at that term carries the sizing's warning, with the total's p90 it shows itself."""
    body = {"workload": {"preset": "llama-3-70b"}, "tokens": 2e12, "nodes": {"min": 8, "max": 32},
            "term": "1y", "currency": "EUR"}
    sizing_id, ranked = rank_one(client, body)
    warning = ranked["price"]["warning"]
    assert warning and "model's p90" in warning, ranked["price"]
    quote = client.post("/v1/quotes", json={"sizing_id": sizing_id,
                                            "customer": {"name": "Ada"}}).get_json()
    assert warning in quote["notes"], quote["notes"]
    p90_total = quote["performance"]["intervals"]["total"]["p90"]
    assert f"{p90_total:,.0f} EUR in all at that end" in warning
