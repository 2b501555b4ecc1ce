"""What the offer can sell a request, and when the nodes arrive."""

from __future__ import annotations

from datetime import date

from catalog.offer import HardwareFilter, delivery, sellable_pairs
from catalog.snapshot import Stock


def test_stock_on_order_counts_only_when_it_arrives_in_time():
    stock = Stock(available_nodes=4, arriving_nodes=12, lead_time_days=42)
    assert stock.usable(30) == 4 and stock.usable(42) == 16


def test_delivery_says_how_many_now_and_when_the_rest_arrive():
    stock = Stock(4, 12, 42)
    now = delivery(stock, 3, date(2026, 12, 1))
    assert (now.from_deliveries, now.lead_time_days, now.warning) == (0, 0, None)
    later = delivery(stock, 10, date(2026, 12, 1))
    assert later.from_deliveries == 6 and later.delivery_date == date(2027, 1, 12)
    assert "2027-01-12" in later.warning
    beyond = delivery(stock, 20, date(2026, 12, 1))
    assert beyond.undeliverable == 4 and beyond.warning.startswith("only 16")


def test_sellable_pairs_follow_the_filter_and_count_what_the_offer_rules_out(snap):
    offer = sellable_pairs(snap, HardwareFilter(gpu_models=("h100-sxm",), rdma_required=True),
                           "us-east")
    assert offer.pairs and all(server == "hgx-h100-8" for server, _ in offer.pairs)
    assert all(snap.pairings[pair].rdma for pair in offer.pairs)
    assert offer.excluded.get("rdma_required", 0) > 0
    fp8 = sellable_pairs(snap, HardwareFilter(gpu_models=("a100-80gb-sxm",), precision="fp8"),
                         "us-east")
    assert fp8.pairs == () and fp8.excluded["precision"] > 0
