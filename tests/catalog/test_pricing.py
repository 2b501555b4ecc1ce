"""The pricing engine: billed months or hours, the ranking's floats equal to its Decimals, tax."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from itertools import product

import numpy as np
import pytest

from catalog.pricing import (
    Billing,
    Configuration,
    VatIdMismatch,
    billing_for,
    billing_plans,
    line_items,
    price,
    rate_grid,
    tax,
    training_cost,
)

H100 = Configuration("hgx-h100-8", "ib-ndr-400", 4, "eu-central", 8, 1.0)


def test_a_term_bills_its_months_or_more_and_monthly_goes_by_the_hour_when_cheaper():
    months, hours = billing_plans("1y", [77 * 24, 15 * 730], 730, [100.0, 100.0], [0.2, 0.2])
    assert months.tolist() == [12, 15] and hours.tolist() == [0, 0]
    months, hours = billing_plans("monthly", [100.2, 725.0, 1000.0], 730, 100.0, 0.2)
    # 101 h on demand (per started hour) is cheaper than a month; 725 h is not; 1,000 h is
    # 2 months (200) against 200 on demand: whole months unless on demand is cheaper.
    assert months.tolist() == [0, 1, 2] and hours.tolist() == [101, 0, 0]


def test_the_ranking_tables_are_the_engines_decimals(snap):
    l40s = Configuration("pcie-l40s-8", "eth-tcp-25", 1, "eu-central", 1, 1.0)
    rates = rate_grid(snap.prices, [dataclasses.replace(H100, nodes=1), l40s], [3, 4],
                      term="1y", currency="EUR")
    for i, config in enumerate([dataclasses.replace(H100, nodes=3), H100,
                                dataclasses.replace(l40s, nodes=3), dataclasses.replace(l40s, nodes=4)]):
        exact = price(snap.prices, config, term="1y", currency="EUR", billing=Billing.for_term("1y"))
        assert rates.monthly_net[i] == float(exact.monthly_net)
        assert rates.one_time[i] == float(exact.one_time)
    cost, months, on_demand = training_cost(rates, np.array([1]), np.array([77 * 24.0]), "1y", 730)
    exact = price(snap.prices, H100, term="1y", currency="EUR", billing=Billing("1y", 12, 0))
    assert months[0] == 12 and on_demand[0] == 0
    assert cost[0] == pytest.approx(float(exact.total), abs=0.01)


def test_one_node_bills_no_fabric_and_two_nodes_do(snap):
    """A one-node job's GPUs talk inside the server: no host port, switch port or cable of the
    fabric is billed, so every fabric of a server costs the same there."""
    def codes(fabric, nodes):
        config = Configuration("hgx-b200-8", fabric, nodes, "us-east", 8, 1.0)
        return {item.code for item in line_items(snap.prices, config)}, price(
            snap.prices, config, term="1y", currency="JPY", billing=Billing.for_term("1y"))
    fabric_lines = {"fabric_nic_ports", "fabric_switch_ports", "cables_optics"}
    one_10, one_25, two_10 = codes("eth-tcp-10", 1), codes("eth-tcp-25", 1), codes("eth-tcp-10", 2)
    assert not one_10[0] & fabric_lines and fabric_lines <= two_10[0]
    assert one_10[1].total == one_25[1].total
    assert 2 * one_10[1].total < two_10[1].total


def test_a_one_node_jobs_hot_spare_bills_no_fabric_and_a_two_node_jobs_does(snap):
    """A hot spare only takes a failed node's place: a one-node job and its spare never talk
    over the fabric, so two nodes billed for it cost twice one node on any fabric; a two-node
    job's spare is cabled with it. The ranking's grid bills each as the engine does."""
    fabric_lines = {"fabric_nic_ports", "fabric_switch_ports", "cables_optics"}
    one = Configuration("hgx-b200-8", "eth-tcp-25", 1, "us-east", 8, 1.0)
    spared_one = dataclasses.replace(one, nodes=2, hot_spare_nodes=1)
    spared_two = dataclasses.replace(one, nodes=3, hot_spare_nodes=1)
    billing = Billing.for_term("1y")
    assert not {i.code for i in line_items(snap.prices, spared_one)} & fabric_lines
    cables = next(i for i in line_items(snap.prices, spared_two) if i.code == "cables_optics")
    assert cables.quantity == 3 * 8
    exact = [price(snap.prices, c, term="1y", currency="EUR", billing=billing)
             for c in (one, spared_one, spared_two)]
    assert exact[1].total == 2 * exact[0].total
    grid = rate_grid(snap.prices, [one], [1, 2, 3], job_nodes=[1, 1, 2], term="1y",
                     currency="EUR")
    assert grid.monthly_net.tolist() == [float(p.monthly_net) for p in exact]
    assert grid.one_time.tolist() == [float(p.one_time) for p in exact]


def test_the_ranking_grid_is_the_engine_to_the_cent_for_every_pair_and_node_count(snap):
    """Every server x fabric the matrix supports, in every region it is sold, at node counts
    on both sides of each fabric's leaf size, each term, in the base and a converted currency."""
    book = snap.prices
    nodes = sorted({*range(1, 20), 31, 32, 33, 64, 65, 127, 128, 129, 255, 256, 257, 512}
                   | {n + d for n in book.nodes_below_spine.values() for d in (-1, 0, 1)})
    checked = 0
    for (server, region) in sorted(book.servers):
        for fabric in sorted({f for s, f in snap.pairings if s == server}):
            pairing = snap.pairings[(server, fabric)]
            if not pairing.supported:
                continue
            cluster = snap.cluster(server, fabric, 1)
            # The fabric as sold, and every oversubscribed spine it is priced at (the
            # search's variants past one leaf).
            ratios = {cluster.fabric.oversubscription, *snap.fabric_oversubscription_options[fabric]}
            for ratio, (term, currency) in product(sorted(ratios), (("monthly", "USD"),
                                                                    ("1y", "EUR"), ("3y", "USD"))):
                template = Configuration(server, fabric, 1, region, cluster.server.nics_per_node,
                                         ratio)
                grid = rate_grid(book, [template], nodes, term=term, currency=currency)
                for j, n in enumerate(nodes):
                    exact = price(book, dataclasses.replace(template, nodes=n), term=term,
                                  currency=currency, billing=Billing.for_term(term))
                    assert grid.monthly_net[j] == float(exact.monthly_net), (template, n, term)
                    assert grid.hourly_net[j] == float(exact.hourly_net), (template, n, term)
                    assert grid.one_time[j] == float(exact.one_time), (template, n, term)
                    checked += 1
    assert checked > 1000


def test_on_demand_lines_are_priced_per_hour_and_add_up(snap):
    billing = billing_for(snap.prices, H100, term="monthly", currency="USD", training_hours=100.5)
    assert billing == Billing("monthly", 0, 101)
    p = price(snap.prices, H100, term="monthly", currency="USD", billing=billing)
    servers = next(line for line in p.lines if line.code == "servers")
    assert servers.quantity == 4 * 101 and servers.unit == "node-hour"
    assert servers.unit_price == Decimal("25.83")  # the catalog's hourly price in eu-central
    assert p.recurring == sum(line.net for line in p.lines if line.billing == "hourly")
    assert p.total == p.recurring + p.one_time


def test_tax_follows_the_customer_with_reverse_charge_for_eu_businesses(snap):
    book, net = snap.prices, Decimal("1000.00")
    assert tax(book, net, "EUR", "DE", None).label == "VAT 19% (DE)"
    assert tax(book, net, "EUR", "DE", "DE811569869").amount == Decimal("190.00")  # domestic
    reverse = tax(book, net, "EUR", "NL", "NL123456789B01")
    assert reverse.amount == Decimal("0.00") and "reverse charge" in reverse.label
    assert tax(book, net, "EUR", "NL", None).amount == Decimal("210.00")  # a consumer
    assert tax(book, net, "USD", "SG", None).label == "GST 9% (SG)"
    unknown = tax(book, net, "USD", "BR", None)
    assert unknown.rate is None and "No tax rate on file" in unknown.note


def test_a_consumer_in_every_eu_member_state_is_charged_that_state_s_vat(snap):
    """B2C electronically supplied services are taxed where the consumer lives (Directive
    2006/112/EC Art. 58): each member state of the reverse-charge area has its rate on file."""
    book, net = snap.prices, Decimal("1000.00")
    assert len(book.reverse_charge_countries) == 27
    for country in sorted(book.reverse_charge_countries):
        consumer = tax(book, net, "EUR", country, None)
        assert consumer.rate is not None, country
        assert consumer.amount == book.round(net * consumer.rate, "EUR") > 0, country
        assert consumer.label.startswith("VAT ") and consumer.note is None, country
    assert tax(book, net, "EUR", "AT", None).label == "VAT 20% (AT)"
    assert tax(book, net, "EUR", "FI", None).amount == Decimal("255.00")


@pytest.mark.parametrize("country, vat_id", [("FR", "DE123456789"), ("DE", "FR40303265045"),
                                             ("GR", "GR123456789"), ("NL", "nl123456789B01")])
def test_a_vat_id_of_another_eu_country_is_refused(snap, country, vat_id):
    with pytest.raises(VatIdMismatch, match=f"a VAT id of {country} starts with"):
        tax(snap.prices, Decimal("1000.00"), "EUR", country, vat_id)


def test_greece_s_vat_ids_start_el_and_are_reverse_charged(snap):
    greek = tax(snap.prices, Decimal("1000.00"), "EUR", "GR", "EL094014201")
    assert greek.amount == Decimal("0.00") and greek.label == "VAT reverse charge (GR)"


# Each country's own business identifier: the UK's VAT registration number, Singapore's GST
# registration number (no country prefix), Japan's qualified invoice issuer number ("T" and the
# 13-digit corporate number) and, the US having no VAT, an employer identification number.
@pytest.mark.parametrize("country, vat_id, local", [
    ("GB", "GB123456789", "VAT"), ("SG", "M90312345A", "GST"), ("SG", "200312345A", "GST"),
    ("JP", "T1234567890123", "Consumption tax"), ("US", "12-3456789", "Sales tax")])
def test_a_business_outside_the_eu_is_charged_no_german_vat(snap, country, vat_id, local):
    book, net = snap.prices, Decimal("1000.00")
    business = tax(book, net, "EUR", country, vat_id)
    assert business.amount == Decimal("0.00") and business.rate == Decimal(0)
    assert business.label == f"Outside the scope of DE VAT ({country})"
    assert f"place of supply is {country}" in business.note and "Article 44" in business.note
    assert f"accounts for any {local} due in {country}" in business.note
    consumer = tax(book, net, "EUR", country, None)  # no VAT id: the rate on file, as before
    assert consumer.rate == book.tax_rates[country]

