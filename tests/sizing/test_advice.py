"""Network advice from numbers: the cheapest fabric that keeps up, and fabric vs more GPUs."""

from __future__ import annotations

from sizing.advice import FabricPoint, fabric_class, recommend_fabric, upgrade_vs_more_gpus


def point(fabric_id, kind, rdma, lossless, throughput, price, eff=0.9, share=0.1):
    return FabricPoint(fabric_id, fabric_id.upper(), kind, rdma, lossless, eff, throughput, price, share)


IB = point("ib-ndr-400", "infiniband", True, True, 100.0, 200.0)
ROCE = point("roce-200", "roce", True, True, 97.0, 150.0)
TCP = point("eth-tcp-10", "ethernet", False, False, 60.0, 100.0, eff=0.6, share=0.4)


def test_the_cheapest_fabric_within_tolerance_is_recommended():
    pick, reason = recommend_fabric([IB, ROCE, TCP], tolerance=0.05)
    assert pick is ROCE
    assert "97%" in reason and "Avoid ETH-TCP-10" in reason and "40%" in reason


def test_the_fastest_is_recommended_when_nothing_cheaper_keeps_up():
    pick, reason = recommend_fabric([IB, ROCE, TCP], tolerance=0.01)
    assert pick is IB and "most throughput" in reason


def test_fabric_class_words():
    assert "plain Ethernet" in fabric_class(TCP, 10)
    assert "lossless RoCEv2 or InfiniBand" in fabric_class(ROCE, 200)
    lossy = point("roce-100-lossy", "roce", True, False, 90.0, 90.0)
    assert "make it lossless" in fabric_class(lossy, 100)


def test_fabric_versus_more_gpus_says_which_buys_more():
    faster = upgrade_vs_more_gpus(100, 1000, 140, 1200, 110, 1200)
    assert "+40%" in faster and "faster fabric is the better buy" in faster
    more = upgrade_vs_more_gpus(100, 1000, 101, 1200, 118, 1190)
    assert "more GPUs are the better buy" in more


LOSSY = point("roce-100-lossy", "roce", True, False, 98.0, 140.0)
IB_HDR = point("ib-hdr-200", "infiniband", True, True, 96.0, 160.0)


def test_lossy_roce_is_not_the_advice_while_a_lossless_fabric_keeps_up():
    pick, reason = recommend_fabric([IB, ROCE, LOSSY, TCP], tolerance=0.05)
    assert pick is ROCE
    assert "go-back-N" in reason and "ROCE-100-LOSSY costs less" in reason


def test_lossy_roce_is_the_advice_only_when_nothing_lossless_keeps_up():
    pick, _ = recommend_fabric([IB, LOSSY, TCP], tolerance=0.01)
    assert pick is IB
    slow_ib = point("ib-qdr-40", "infiniband", True, True, 80.0, 90.0)
    pick, _ = recommend_fabric([LOSSY, slow_ib], tolerance=0.05)
    assert pick is LOSSY


def test_a_large_long_run_takes_infiniband_first_when_it_keeps_up():
    pick, reason = recommend_fabric([IB, IB_HDR, ROCE, TCP], tolerance=0.05, long_large_run=True)
    assert pick is IB_HDR and "InfiniBand comes first" in reason
    pick, reason = recommend_fabric([IB, ROCE], tolerance=0.05, long_large_run=True)
    assert pick is IB and "InfiniBand comes first" in reason and "no cheaper" not in reason
    # Not when no InfiniBand keeps up: then price decides among those that do.
    pick, _ = recommend_fabric([ROCE, TCP, point("ib-qdr-40", "infiniband", True, True, 50.0, 90.0)],
                               tolerance=0.05, long_large_run=True)
    assert pick is ROCE
