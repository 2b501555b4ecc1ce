"""estimate() keeps each cluster's columns and links: the figures are those of a fresh build."""
from dataclasses import asdict, replace

import numpy as np
import pytest

from sizing import step
from sizing.intervals import prior_draws
from sizing.presets import preset_model
from sizing.step import estimate, estimate_batch, layout_arrays
from sizing.topology import Links
from sizing.workload import Layout, Training

TRAINING = Training(global_batch=512, micro_batch=1, precision="bf16")
# Layouts of 64 GPUs that price different collectives on the same hardware: tensor, pipeline
# and data parallelism, each ZeRO stage, context parallelism, hybrid sharding.
LAYOUTS = (Layout(dp=8, tp=8, pp=1, zero_stage=1, sequence_parallel=True),
           Layout(dp=2, tp=8, pp=4, zero_stage=1, virtual_stages=2),
           Layout(dp=64, tp=1, pp=1, zero_stage=2),
           Layout(dp=64, tp=1, pp=1, zero_stage=3, recompute="full", shard_group=8),
           Layout(dp=4, tp=8, pp=1, cp=2, zero_stage=1),
           Layout(dp=64, tp=1, pp=1, zero_stage=0, framework="ddp"))


@pytest.fixture(autouse=True)
def no_kept_hardware():
    step._HARDWARE.clear()
    yield
    step._HARDWARE.clear()


def from_scratch(cluster, model, layout, constants) -> dict:
    """estimate_batch on columns built for this call alone, links included."""
    batch = {**cluster.as_arrays(), **layout_arrays(layout, TRAINING)}
    return {k: v[0] for k, v in estimate_batch(batch, model, TRAINING, constants).items()}


def test_kept_hardware_gives_the_figures_of_a_fresh_build(cluster_on, constants):
    model = preset_model("llama-3-8b")
    cluster = cluster_on("ib-ndr-400", 8)
    for layout in LAYOUTS + LAYOUTS:  # the second pass reads the kept hardware
        e = estimate(cluster, model, TRAINING, layout, constants)
        fresh = from_scratch(cluster, model, layout, constants)
        assert e.step_time_s == fresh["step_time_s"]
        assert e.breakdown == {k: float(fresh[k]) for k in step.BREAKDOWN_KEYS}
        assert e.memory["total_gb"] == fresh["memory_total_gb"]
    assert len(step._HARDWARE) == 1


def test_estimates_leave_the_kept_columns_as_they_were(cluster_on, constants):
    model = preset_model("llama-3-8b")
    cluster = cluster_on("roce-400-lossless", 8)
    estimate(cluster, model, TRAINING, LAYOUTS[0], constants)
    (kept,) = (entry for _, entry in step._HARDWARE.values())
    before = {k: np.array(v, copy=True) for k, v in kept.columns.items() if k != "gpu_id"}
    prepared_before = {k: np.array(v, copy=True) for k, v in kept.prepared.items()
                       if k != "gpu_id"}
    (rates,) = kept.rates.values()
    rates_before = {k: np.array(v, copy=True) for k, v in rates.items() if k != "attention"}
    links_before = {k: np.array(v, copy=True) for k, v in asdict(kept.links).items()
                    if k != "stacks"}
    for layout in LAYOUTS:
        estimate(cluster, model, TRAINING, layout, constants)
    for k, v in before.items():
        np.testing.assert_array_equal(kept.columns[k], v, err_msg=k)
    for k, v in prepared_before.items():
        np.testing.assert_array_equal(kept.prepared[k], v, err_msg=k)
    for k, v in rates_before.items():
        np.testing.assert_array_equal(rates[k], v, err_msg=k)
    for k, v in links_before.items():
        np.testing.assert_array_equal(getattr(kept.links, k), v, err_msg=k)


def test_equal_clusters_share_an_entry_and_another_value_gets_its_own(cluster_on, constants):
    model = preset_model("llama-3-8b")
    layout = LAYOUTS[2]
    cluster = cluster_on("ib-ndr-400", 8)
    first = estimate(cluster, model, TRAINING, layout, constants)
    again = estimate(cluster_on("ib-ndr-400", 8), model, TRAINING, layout, constants)
    assert len(step._HARDWARE) == 1 and asdict(again) == asdict(first)
    # The same ids on a slower spine: a value of its own, never the first cluster's figures.
    slower = replace(cluster, fabric=replace(cluster.fabric, oversubscription=4.0,
                                             topology="leaf-spine", nodes_per_unit=0,
                                             nodes_per_leaf=2))
    other = estimate(slower, model, TRAINING, layout, constants)
    assert len(step._HARDWARE) == 2
    assert other.step_time_s == from_scratch(slower, model, layout, constants)["step_time_s"]
    assert other.step_time_s > first.step_time_s


def test_other_constants_get_their_own_links(cluster_on, constants):
    model = preset_model("llama-3-8b")
    layout = LAYOUTS[2]
    cluster = cluster_on("ib-ndr-400", 8)
    base = estimate(cluster, model, TRAINING, layout, constants)
    slower_host = replace(constants, nccl_net_reference_latency_us=0.0)
    other = estimate(cluster, model, TRAINING, layout, slower_host)
    assert len(step._HARDWARE) == 2
    assert other.step_time_s == from_scratch(cluster, model, layout, slower_host)["step_time_s"]
    assert other.step_time_s != base.step_time_s


def test_the_kept_hardware_is_bounded(cluster_on, constants, monkeypatch):
    monkeypatch.setattr(step, "_HARDWARE_KEPT", 3)
    model = preset_model("llama-3-8b")
    for nodes in (1, 2, 4, 8, 16):
        estimate(cluster_on("ib-ndr-400", nodes), model, Training(256, 1, "bf16"),
                 Layout(dp=8 * nodes, tp=1, pp=1, zero_stage=1), constants)
    assert [key[1].nodes for key in step._HARDWARE] == [4, 8, 16]


def test_the_prior_s_passes_give_each_draw_the_step_time_of_a_fresh_build(cluster_on, constants):
    # A draw moves the estimated constants the links read (host links, NVLink efficiency,
    # NCCL's channel ceilings...): each draw's step time must be its own, as a build of its
    # own gives it, and asked twice (the second time on the kept links), the same.
    draws = prior_draws(constants, 0.3)
    model = preset_model("llama-3-8b")
    cluster = cluster_on("roce-400-lossy", 8)
    for layout in LAYOUTS:
        by_constants = step.step_time_by_constants(cluster, model, TRAINING, layout, constants)
        fresh = [from_scratch(cluster, model, layout, d)["step_time_s"] for d in draws]
        assert len(set(fresh)) == len(draws)  # the draws move the step time
        for _ in range(2):
            assert [float(by_constants(d)[0]) for d in draws] == fresh
    assert len(step._HARDWARE) == 1 + len(draws)


def test_a_batch_s_prior_passes_give_each_draw_estimate_batch_s_step_times(cluster_on,
                                                                          constants):
    # A sizing's extrapolated configurations, several clusters and layouts in one batch: its
    # columns prepared once, each draw's step times those of estimate_batch with that draw,
    # asked in any order and twice.
    draws = prior_draws(constants, 0.3)
    model = preset_model("llama-3-8b")
    rows = [{**cluster_on(f, 8).as_arrays(), **layout_arrays(layout, TRAINING)}
            for f in ("roce-400-lossy", "ib-ndr-400") for layout in LAYOUTS]
    batch = {k: np.concatenate([np.atleast_1d(r[k]) for r in rows]) for k in rows[0]}
    fresh = [estimate_batch(batch, model, TRAINING, d)["step_time_s"] for d in draws]
    assert len({tuple(t) for t in fresh}) == len(draws)  # the draws move the step times
    kept = {}  # each draw's links, built once, as a search's HardwareTable keeps them

    def links_with(drawn):
        return kept.setdefault(id(drawn), Links.of(batch, drawn))
    for links in (None, links_with):
        by_constants = step.step_times_by_constants(batch, model, TRAINING, links)
        for order in (range(len(draws)), reversed(range(len(draws)))):
            for k in order:
                assert by_constants(draws[k]).tolist() == fresh[k].tolist()
    assert len(kept) == len(draws)


def test_a_layout_s_columns_need_no_normalising_but_for_the_global_batch(cluster_on, constants):
    # _Hardware.prepared_with takes layout_arrays as _normalise would leave them.
    hardware = step._hardware(cluster_on("ib-ndr-400", 8), constants)
    for layout in LAYOUTS:
        stated = layout_arrays(layout, TRAINING)
        normalised = step._normalise(stated, TRAINING)
        assert normalised.keys() == stated.keys() | {"global_batch"}
        assert all(normalised[k] is v for k, v in stated.items())
        np.testing.assert_array_equal(normalised["global_batch"], [TRAINING.global_batch])
        fresh = step._prepared({**hardware.columns, **stated}, TRAINING, preset_model("llama-3-8b"))
        kept = hardware.prepared_with(layout, TRAINING, preset_model("llama-3-8b"))
        assert kept.keys() == fresh.keys()
        for k, v in fresh.items():
            if k != "gpu_id":
                assert kept[k].dtype == v.dtype and kept[k].tobytes() == v.tobytes(), k
