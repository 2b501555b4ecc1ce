"""Network advice from the ranking's options: rank 1's fabric, in words, and fabric vs more GPUs."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from sizing.advice import (
    FabricOption,
    Network,
    Option,
    fabric_class,
    fabric_or_more_gpus,
    fabric_or_more_gpus_sentence,
    recommend,
    upgrade_label,
    upgrade_sentence,
)

TOL = 0.05
STEP = math.log1p(TOL)


def option(candidate, kind, lossless, throughput, objective, preference=0.0, rdma=True, rate=400.0):
    name = f"{kind.upper()}-{candidate}"
    return FabricOption(candidate, name.lower(), name, kind, rdma, lossless, rate, throughput, 0.9,
                        0.1, objective, objective + preference)


IB = option(0, "infiniband", True, 100.0, 1.00)
ROCE = option(1, "roce", True, 97.0, 0.98)
LOSSY = option(2, "roce", False, 98.0, 0.96, preference=STEP)
TCP = option(3, "ethernet", False, 60.0, 1.30, rdma=False, rate=10.0)


def test_the_pick_is_the_lowest_score_as_the_ranking_orders():
    rec = recommend([IB, ROCE, TCP], "balanced", TOL)
    assert rec.pick is ROCE
    assert "ranks first on time and cost" in rec.reason and "97%" in rec.reason
    assert "Avoid ETHERNET-3" in rec.reason and "60%" in rec.reason
    assert [o.candidate for o in rec.options] == [0, 1, 3]  # fastest first


def test_fabrics_held_to_the_same_ceiling_are_avoided_together():
    """10, 25 and 100 GbE TCP meet the same per-host socket ceiling: naming only one of them
    would read as if the others were better."""
    tcp25 = option(5, "ethernet", False, 60.0, 1.30, rdma=False, rate=25.0)
    rec = recommend([IB, ROCE, TCP, tcp25], "balanced", TOL)
    assert "Avoid each fabric below 90% of the best throughput: ETHERNET-3 60%; ETHERNET-5 60%" in (
        rec.reason)


def test_the_pick_and_the_fabrics_that_tie_with_it_are_never_to_avoid():
    """Ranked on cost, the cheapest TCP fabric can be the pick: the others at the same ceiling
    are not 'to avoid' beside it."""
    tcp25 = option(5, "ethernet", False, 60.0, 1.30, rdma=False, rate=25.0)
    cheap = replace(TCP, objective_score=0.5, score=0.5)
    rec = recommend([IB, ROCE, cheap, tcp25], "cheapest", TOL)
    assert rec.pick is cheap and "Avoid" not in rec.reason


def test_fabrics_that_tie_on_throughput_are_not_ordered_by_it():
    """10 and 25 GbE at the same throughput: the pick is not 'the most throughput'."""
    tcp25 = option(5, "ethernet", False, 60.0, 1.32, rdma=False, rate=25.0)
    rec = recommend([TCP, tcp25], "balanced", TOL)
    assert rec.pick is TCP and "most throughput" not in rec.reason
    assert "ETHERNET-5 is as fast here" in rec.reason


def test_at_one_node_no_fabric_is_recommended_over_another():
    tcp25 = option(5, "ethernet", False, 60.0, 1.30, rdma=False, rate=25.0)
    rec = recommend([TCP, tcp25, IB], "balanced", TOL, uses_fabric=False)
    assert "no fabric is used or billed" in rec.reason
    assert "most throughput" not in rec.reason and "Avoid" not in rec.reason
    assert rec.fabric_class == "no scale-out fabric at one node"


def test_lossy_roce_loses_to_a_lossless_fabric_within_the_tolerance():
    rec = recommend([IB, ROCE, LOSSY], "balanced", TOL)
    assert rec.pick is ROCE
    assert "go-back-N" in rec.reason and "ROCE-2 scores slightly better" in rec.reason


def test_lossy_roce_leads_when_no_lossless_fabric_is_within_the_tolerance():
    far = option(4, "roce", False, 99.0, 0.80, preference=STEP)
    assert recommend([IB, ROCE, far], "balanced", TOL).pick is far


def test_the_reason_shows_each_fabrics_time_and_cost_with_failures():
    ib = replace(option(0, "infiniband", True, 100.0, 1.00), goodput=0.93, wall_hours=2160.0,
                 cost_text="1,000 USD")
    roce = replace(option(1, "roce", True, 97.0, 0.98), goodput=0.9, wall_hours=2400.0,
                   cost_text="900 USD")
    rec = recommend([ib, roce], "cheapest", TOL)
    assert rec.pick is roce
    assert "INFINIBAND-0 93.0% goodput, 90.0 days, 1,000 USD" in rec.reason
    assert "ROCE-1 90.0% goodput, 100.0 days, 900 USD" in rec.reason
    assert "InfiniBand comes first" not in rec.reason


def test_the_failures_sentence_names_the_pick_the_fastest_and_the_best_alone_only():
    def costed(o, days):
        return replace(o, goodput=0.95, wall_hours=24.0 * days, cost_text=f"{days} USD")

    options = [costed(IB, 90), costed(ROCE, 92), costed(LOSSY, 91), costed(TCP, 150)]
    rec = recommend(options, "balanced", TOL)
    assert rec.pick.candidate == ROCE.candidate  # lossy scores better alone; the policy prefers
    reason = rec.reason
    assert "ROCE-1 95.0% goodput, 92.0 days, 92 USD (recommended)" in reason
    assert "INFINIBAND-0 95.0% goodput, 90.0 days, 90 USD (fastest)" in reason
    assert "ROCE-2 95.0% goodput, 91.0 days, 91 USD (best on the objective alone)" in reason
    assert "ETHERNET-3 95.0% goodput" not in reason and "the comparison has the other 1" in reason


def test_fabric_class_words():
    assert "plain Ethernet" in fabric_class(TCP)
    assert "lossless RoCEv2 or InfiniBand" in fabric_class(ROCE)
    assert "make it lossless" in fabric_class(LOSSY)


def test_more_nodes_for_about_the_upgrades_money():
    # candidates: 0 current (4 nodes), 1 faster fabric at 4, 2..4 current fabric at 5..7 nodes
    throughput = np.array([100.0, 112.0, 120.0, 138.0, 150.0])
    monthly = np.array([1000.0, 1500.0, 1250.0, 1500.0, 1750.0])
    w = fabric_or_more_gpus(0, {0: 0, 1: 1}, {4: 0, 5: 2, 6: 3, 7: 4}, 4, 7, throughput, monthly,
                            {})
    assert (w.upgrade, w.more_nodes) == (1, 3)  # +500 a month either way
    assert w.no_upgrade is None and w.no_more_nodes is None


@pytest.mark.parametrize("nodes, node_max, ruled_out, words", [
    (4, 4, {}, "top of your node range"),
    (4, 8, {"stock": 3, "budget": 1}, "stock within your lead time"),
    (4, 8, {"budget": 4}, "exceed your budget"),
])
def test_why_no_more_nodes(nodes, node_max, ruled_out, words):
    throughput, monthly = np.array([100.0]), np.array([1000.0])
    w = fabric_or_more_gpus(0, {0: 0}, {nodes: 0}, nodes, node_max, throughput, monthly, ruled_out)
    assert w.upgrade is None and w.more_nodes is None
    assert words in w.no_more_nodes and "no faster fabric" in w.no_upgrade
    sentence = fabric_or_more_gpus_sentence(None, None, w.no_upgrade, w.no_more_nodes)
    assert sentence.startswith("Neither a faster fabric nor more nodes")


def test_the_verdict_weighs_throughput_per_unit_of_money():
    upgrade = Option("Upgrading to IB", 0.08, "+4,504.32 EUR", 523.0, "tokens/s")
    more = Option("5 nodes", 0.21, "+8,303.95 EUR", 775.0, "tokens/s")
    sentence = fabric_or_more_gpus_sentence(upgrade, more, None, None)
    assert "more GPUs buy more throughput for the money" in sentence
    assert "523 tokens/s per 1,000" in sentence and "+21.0%" in sentence
    cheap_upgrade = Option("Upgrading to IB", 0.05, "+100.00 EUR", 2000.0, "tokens/s")
    assert "faster fabric buys more" in fabric_or_more_gpus_sentence(cheap_upgrade, more, None, None)


def test_for_a_duration_the_reason_shows_the_work_each_fabric_gets_done():
    ib = replace(IB, goodput=0.97, wall_hours=720.0, cost_text="1,000 USD", work_done=2.5e12)
    roce = replace(ROCE, goodput=0.96, wall_hours=720.0, cost_text="900 USD", work_done=2.4e12)
    reason = recommend([ib, roce], "balanced", TOL).reason
    assert "INFINIBAND-0 97.0% goodput, 2.5e+12 tokens in 30 days, 1,000 USD" in reason


def test_both_what_ifs_write_one_gain_to_the_same_tenth():
    """The same upgrade's gain reads the same in the fabric-or-more-GPUs sentence and in the
    upgrades' sentences (and the table beside them, to a tenth of a percent)."""
    gain = 0.01505
    upgrade = Option("Upgrading to IB", gain, "+4,504.32 EUR", 523.0, "tokens/s")
    assert "adds +1.5% throughput" in fabric_or_more_gpus_sentence(upgrade, None, None, "none")
    assert "buys +1.5% throughput" in upgrade_sentence("IB", gain, "+4,504.32 EUR", 523.0,
                                                         "tokens/s", "EUR")


def test_an_upgrade_that_buys_nothing_says_so_instead_of_quoting_zero_per_1000():
    sentence = upgrade_sentence("a 1:1 spine instead of 2:1 (IB)", 0.0, "+8,960.00 USD", 0.0,
                                "tokens/s", "USD")
    assert "no measurable throughput" in sentence and "0 tokens/s" not in sentence
    priced = upgrade_sentence("IB NDR at 1:1", 0.017, "+8,960.00 USD", 510.0, "tokens/s", "USD")
    assert "510 tokens/s per 1,000 USD of extra monthly spend" in priced


def test_lossless_or_sharp_is_named_only_when_it_is_the_only_change():
    lossy100 = Network("roce-100-lossy", "RoCE 100 lossy", "roce", False, False, 1.0, 100.0)
    lossless100 = Network("roce-100-lossless", "RoCE 100", "roce", True, False, 1.0, 100.0)
    lossless400 = Network("roce-400-lossless", "RoCE 400", "roce", True, False, 1.0, 400.0)
    assert upgrade_label(lossy100, lossless100).startswith("lossless RoCE")
    # a faster wire as well: the gain is not lossless RoCE's alone
    assert not upgrade_label(lossy100, lossless400).startswith("lossless")
    ndr = Network("ib-ndr-400", "IB NDR", "infiniband", True, False, 1.0, 400.0)
    sharp = Network("ib-ndr-400-sharp", "IB NDR SHARP", "infiniband", True, True, 1.0, 400.0)
    hdr = Network("ib-hdr-200", "IB HDR", "infiniband", True, False, 2.0, 200.0)
    assert upgrade_label(ndr, sharp).startswith("SHARP")
    assert not upgrade_label(hdr, sharp).startswith("SHARP")
    # lossy RoCE is never offered as a plain upgrade
    assert "go-back-N" in upgrade_label(hdr, replace(lossy100, line_rate_gbps=400.0))


def test_a_fabric_to_avoid_is_named_once_at_its_best_spine():
    """A fabric's oversubscribed spines are options of their own: the advice names the fabric
    once, at the share of its best spine, and every fabric below the stated share."""
    spines = [replace(TCP, candidate=10 + k, fabric_name=f"ETHERNET-3 on a {ratio}:1 spine",
                      throughput=60.0 - 10 * k) for k, ratio in ((1, 2), (2, 4))]
    tcp25 = replace(option(5, "ethernet", False, 70.0, 1.20, rdma=False, rate=25.0))
    rec = recommend([IB, ROCE, TCP, *spines, tcp25], "balanced", TOL)
    assert ("Avoid each fabric below 90% of the best throughput: ETHERNET-3 60%; ETHERNET-5 70%;"
            in rec.reason), rec.reason
    assert "spine" not in rec.reason


def test_a_faster_fabric_that_does_not_pay_names_its_one_time_fees_against_the_time_saved():
    """A short run: the fastest fabric's cables and optics, billed once, cost more than the
    day of rent it saves."""
    slow = replace(option(0, "ethernet", False, 54.0, 1.00, rdma=False, rate=100.0),
                   wall_hours=44.9, cost_text="66,524.00 USD", currency="USD",
                   total_cost=66_524.0, one_time_cost=20_000.0)
    fast = replace(option(1, "infiniband", True, 100.0, 1.10), wall_hours=22.8,
                   cost_text="265,578.00 USD", currency="USD", total_cost=265_578.0,
                   one_time_cost=200_000.0)
    reason = recommend([slow, fast], "balanced", TOL).reason
    assert ("which does not pay for itself here: it saves 22 hours for 199,054 USD more in all, "
            "180,000 USD of it one-time fabric fees (cables and optics), which outweigh the time "
            "saved.") in reason, reason
    fees = replace(fast, one_time_cost=234_400.0)
    assert ("it saves 22 hours and 15,346 USD of rent, but its one-time fabric fees (cables and "
            "optics) are 214,400 USD more, 199,054 USD more in all: the fees outweigh the time "
            "saved.") in recommend([slow, fees], "balanced", TOL).reason
    rent = replace(fast, one_time_cost=30_000.0)
    assert "mostly its higher rent (10,000 USD of one-time fabric fees)" in recommend(
        [slow, rent], "balanced", TOL).reason
