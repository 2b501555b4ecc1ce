"""The compiled kernels against their numpy reference: NCCL's algorithm and protocol for each
collective (bit-identical times, the same algorithm) on many random groups, and every output of
estimate_batch (the step's assembly too) on random wide layouts."""
from dataclasses import fields, replace

import numpy as np
import pytest

from catalog.shipped import shipped
from sizing import collectives, compute, intervals, kernels, step, topology
from sizing import constants as constants_module
from sizing.collectives import CHOSEN, collective_cost
from sizing.compute import sequence_share
from sizing.hardware import Cluster, Server
from sizing.presets import preset_model
from sizing.step import estimate_batch, layout_arrays
from sizing.topology import Links
from sizing.workload import (
    FRAMEWORK_MAX_ZERO_STAGE,
    FRAMEWORKS,
    OFFLOAD,
    RECOMPUTE,
    Layout,
    Training,
    Transformer,
)

compiled = pytest.mark.skipif(not kernels.ENABLED,
                              reason="SIZING_KERNELS=numpy: no compiled kernel to compare")


def random_clusters(rng, count):
    """Clusters of every GPU (reference ones too) and fabric, NIC set-ups and node counts."""
    gpus, fabrics = list(shipped().all_gpus.values()), list(shipped().all_fabrics.values())
    clusters = []
    for _ in range(count):
        server = Server("s", "s", gpus[rng.integers(len(gpus))], int(rng.choice([1, 2, 4, 8])),
                        int(rng.choice([1, 2, 4, 8])), float(rng.choice([100.0, 200.0, 400.0])),
                        int(rng.integers(3, 6)), bool(rng.integers(0, 2)))
        clusters.append(Cluster(server, fabrics[rng.integers(len(fabrics))],
                                int(rng.choice([1, 2, 3, 4, 8, 16, 64, 256])),
                                bool(rng.integers(0, 2))))
    return clusters


def columns(rows):
    return {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}


def bits(x: np.ndarray) -> bytes:
    """x's bytes: equal only where every value is the same float (NaNs, signed zeros)."""
    return np.ascontiguousarray(x).tobytes()


def both_ways(monkeypatch, price):
    """price() with the compiled kernel, then with the numpy reference."""
    compiled = price()
    with monkeypatch.context() as m:
        m.setattr(kernels, "ENABLED", False)
        reference = price()
    return compiled, reference


@compiled
@pytest.mark.parametrize("op", ["all_reduce", "reduce_scatter", "all_gather"])
def test_kernel_matches_reference_on_random_groups(op, constants, monkeypatch):
    rng = np.random.default_rng(16)
    clusters = random_clusters(rng, 4000)
    c = columns([cl.as_arrays() for cl in clusters])
    links = Links.of(c, constants)
    gpn = c["gpus_per_node"].astype(float)
    n = rng.choice([1, 2, 3, 4, 8, 16, 32, 64, 512, 2048], size=len(clusters)).astype(float)
    per_node = np.minimum(gpn, rng.choice([1, 2, 4, 8], size=len(clusters)))
    size = 2.0 ** rng.uniform(0, 35, size=len(clusters))  # 1 B .. 32 GiB
    share = links.node_Bps * per_node / gpn
    (t, code), (t_ref, code_ref) = both_ways(
        monkeypatch, lambda: collective_cost(op, size, n, per_node, links, share, constants))
    assert bits(t) == bits(t_ref)
    assert np.array_equal(code, code_ref)
    # The draw reaches every algorithm an all-reduce can run, and the fills of NVLS's two.
    chosen = {CHOSEN[k] for k in np.unique(code)}
    assert chosen == ({"ring", "tree", "nvls", "nvls_tree", "collnet"} if op == "all_reduce"
                      else {"ring"})


@compiled
def test_kernel_matches_reference_where_a_tuner_picks_nvls_tree(constants, monkeypatch):
    """On p5 (EFA, whose tuner sets the pair beyond two nodes) NVLS-Tree is chosen with its
    pipeline's fill in its time: the draws reach those rows and the untuned ones, alone and
    among many rows that cannot run NVLS-Tree (which the reference prices on its few rows)."""
    snap = shipped()
    p5 = snap.systems["p5-48xlarge"]
    server = Server("p5", "p5", snap.all_gpus[p5["gpu"]], p5["gpus_per_node"],
                    p5["nics_per_node"], float(p5["nic_rate_gbps"]), p5["pcie_gen"], True)
    a100 = replace(server, gpu=snap.all_gpus["a100-80gb-sxm"])
    rng = np.random.default_rng(5)
    for others in (0, 1600):
        nodes = rng.choice([2, 3, 4, 8, 16, 32, 64], size=400 + others)
        clusters = [Cluster(server if i < 400 else a100, snap.all_fabrics[p5["fabric"]], int(k),
                            True) for i, k in enumerate(nodes)]
        links = Links.of(columns([cl.as_arrays() for cl in clusters]), constants)
        size = 2.0 ** rng.uniform(20, 34, size=len(clusters))  # 1 MiB .. 16 GiB
        (t, code), (t_ref, code_ref) = both_ways(
            monkeypatch, lambda size=size, n=nodes * 8.0, links=links: collective_cost(
                "all_reduce", size, n, 8.0, links, links.node_Bps, constants))
        assert bits(t) == bits(t_ref)
        assert np.array_equal(code, code_ref)
        nvls_tree = code == CHOSEN.index("nvls_tree")
        assert (nvls_tree & (nodes > 2)).any() and (nvls_tree & (nodes <= 2)).any()


@compiled
def test_links_match_reference_on_random_clusters(constants, monkeypatch):
    """Every figure of Links.of compiled and in numpy, on every GPU and fabric, and on NIC
    rates at NCCL's channel speeds, off them by one ulp, zero and NaN."""
    rng = np.random.default_rng(18)
    c = columns([cl.as_arrays() for cl in random_clusters(rng, 4000)])
    speeds = np.concatenate([topology._SPEEDS_INTER, topology._SPEEDS_INTER_SM90]) * 8.0
    rates = np.concatenate([speeds, np.nextafter(speeds, 0.0), np.nextafter(speeds, np.inf),
                            [0.0, 1e-3, np.nan, np.inf]])
    edges = {**c, "nic_rate_gbps": rng.choice(rates, size=4000), "nics_per_node": np.where(
        rng.integers(0, 2, size=4000) == 1, c["gpus_per_node"], c["nics_per_node"])}
    for batch in (c, edges):
        links, reference = both_ways(monkeypatch, lambda batch=batch: Links.of(batch, constants))
        for f in fields(Links):
            if f.name != "stacks":
                value, expected = getattr(links, f.name), getattr(reference, f.name)
                shape = np.shape(reference.node_Bps)
                assert np.result_type(value) == np.result_type(expected), f.name
                assert bits(np.broadcast_to(value, shape)) == bits(
                    np.broadcast_to(expected, shape)), f.name


@pytest.mark.parametrize("built", ["compiled", "numpy"])
def test_network_rows_are_the_rows_network_shares_reads(built, constants, monkeypatch):
    """Links.network_rows picks the figures network_shares reads as Links.rows does, from the
    compiled links (the network's figures leading their stacks) and the reference's."""
    rng = np.random.default_rng(19)
    c = columns([cl.as_arrays() for cl in random_clusters(rng, 3000)])
    with monkeypatch.context() as m:
        m.setattr(kernels, "ENABLED", built == "compiled" and kernels.ENABLED)
        links = Links.of(c, constants)
    idx = np.flatnonzero(rng.integers(0, 3, size=3000) > 0)
    picked, whole = links.network_rows(idx), links.rows(idx)
    for name in topology.NETWORK_FIGURES:
        assert bits(np.broadcast_to(getattr(picked, name), idx.shape)) == bits(
            np.broadcast_to(getattr(whole, name), idx.shape)), name
    nodes = rng.choice([2.0, 4.0, 16.0, 64.0, 512.0], size=idx.size)
    for op in ("all_reduce", "all_to_all"):
        shares = topology.network_shares(op, ("ring", "tree"), nodes, picked, constants)
        expected = topology.network_shares(op, ("ring", "tree"), nodes, whole, constants)
        assert all(bits(shares[p]) == bits(expected[p]) for p in ("ring", "tree"))


def wide_layouts(rng, clusters, transformer: bool):
    """Random layouts of every kind the model prices (hybrid sharding, offload, context and
    expert parallelism, every framework), valid or not."""
    rows = []
    for cluster in clusters:
        tp, pp, cp = ((int(rng.choice([1, 2, 4, 8])), int(rng.choice([1, 2, 4])),
                       int(rng.choice([1, 1, 2]))) if transformer else (1, 1, 1))
        if cluster.gpus % (tp * pp * cp):
            continue
        zero = int(rng.integers(0, 4))
        layout = Layout(dp=cluster.gpus // (tp * pp * cp), tp=tp, pp=pp, cp=cp,
                        ep=int(rng.choice([1, 2, 8])) if transformer else 1, zero_stage=zero,
                        virtual_stages=1 if pp == 1 else int(rng.integers(1, 3)),
                        # Drawn for every row (the draws that follow stay as they were),
                        # kept where there is a tensor-parallel group to split.
                        sequence_parallel=bool(rng.integers(0, 2)) and tp > 1,
                        framework=FRAMEWORKS[int(rng.integers(len(FRAMEWORKS)))],
                        recompute=RECOMPUTE[int(rng.integers(0, 3))],
                        shard_group=int(rng.choice([0, 0, 2, 8])) if zero else 0,
                        offload=OFFLOAD[int(rng.choice([0, 0, 1, 2]))] if zero else "none")
        most = FRAMEWORK_MAX_ZERO_STAGE.get(layout.framework, zero)
        if zero > most:  # a stage the framework lacks (the draws stay as they were)
            layout = replace(layout, zero_stage=most, **({} if most else {
                "shard_group": 0, "offload": "none"}))
        row = cluster.as_arrays()
        row.update(layout_arrays(layout, Training(1024, int(rng.choice([1, 2])))))
        row["embedding_in_pipeline_split"] = np.array([bool(rng.integers(0, 2))])
        # Drawn for every row, kept where it can run (sequence parallelism in Megatron-Core).
        row["tp_comm_overlap"] = np.array([bool(rng.integers(0, 2)) and layout.sequence_parallel
                                           and layout.framework == "megatron"])
        rows.append(row)
    return columns(rows)


@compiled
@pytest.mark.parametrize("preset,precision", [("mixtral-8x7b", "bf16"), ("llama-3-70b", "fp8"),
                                              ("bert-large", "fp32"), ("resnet-50", "bf16")])
def test_estimate_batch_outputs_identical_with_the_kernels(preset, precision, constants,
                                                           monkeypatch):
    rng = np.random.default_rng(17)
    model = preset_model(preset)
    batch = wide_layouts(rng, random_clusters(rng, 3000), isinstance(model, Transformer))
    compiled, reference = both_ways(
        monkeypatch, lambda: estimate_batch(batch, model, Training(1024, 1, precision),
                                            constants))
    valid = reference["valid"]
    assert valid.sum() > 100
    assert np.array_equal(compiled["valid"], valid)
    for key, value in reference.items():
        assert bits(np.broadcast_to(compiled[key], valid.shape)[valid]) == bits(
            np.broadcast_to(value, valid.shape)[valid]), key


def test_switch_takes_its_two_values_and_refuses_others():
    assert kernels._choice("compiled") is True
    assert kernels._choice("numpy") is False
    with pytest.raises(ValueError, match="SIZING_KERNELS must be one of compiled, numpy"):
        kernels._choice("Numpy ")


def test_tables_built_from_constants_keep_a_bounded_number_of_them(constants):
    # the prediction intervals' prior draws are new constants objects (and new tables of the
    # estimated ones, such as NVLS's pipeline) at every sizing: a worker must not keep them all
    kept = constants_module._TABLES_KEPT
    for k in range(3 * kept):
        draw = replace(constants, nccl_ring_plateau_factor=1.0 + k,
                       nccl_nvls_pipeline=dict(constants.nccl_nvls_pipeline),
                       nccl_tree_correction=dict(constants.nccl_tree_correction),
                       flash2_attention_sequence_share={"512": 0.5, "4096": 1.0 + k},
                       host_link_gbs={"default": 1.0 + k})
        assert collectives._kernel_tables(draw)[4][0] == 1.0 + k
        collectives._tree_correction(draw.nccl_tree_correction, "ll")
        # compute_side's tables and the attention kernels' sequence shares, each draw's own
        assert step._keyed_tables(draw).table("host_link_gbs", ("3",))[0] == 1.0 + k
        assert sequence_share(draw.flash2_attention_sequence_share, 8192.0) == 1.0 + k
        assert len(intervals._kept_draws(draw, 0.1)) == intervals.PRIOR_DRAWS
    for cache in (collectives._KERNEL_TABLES, collectives._NVLS_TABLES,
                  collectives._TREE_TABLES, step._KEYED_TABLES, compute._SHARE_POINTS,
                  intervals._DRAWS):
        assert len(cache) == kept  # owners, each with its parts (protocols, NVLS or its tree)
    # the owner used last stays: the catalog's own constants, read between draws, are kept
    collectives._kernel_tables(constants)
    for k in range(kept - 1):
        collectives._kernel_tables(replace(constants, nccl_ring_plateau_factor=2.0 + k))
    collectives._kernel_tables(constants)  # the oldest entry, read again
    collectives._kernel_tables(replace(constants, nccl_ring_plateau_factor=99.0))
    assert id(constants) in collectives._KERNEL_TABLES


@pytest.mark.skipif(not kernels.ENABLED, reason="the compiled kernels are switched off")
def test_a_kernel_without_a_writable_cache_is_compiled_in_the_process(monkeypatch, caplog):
    """A read-only install with a read-only home leaves numba no place for its cache: the
    kernel still compiles (in this process) instead of failing every import of the model."""
    from numba.core import caching

    monkeypatch.setattr(caching.CacheImpl, "_locator_classes", [])

    def twice(x):
        return 2.0 * x

    compiled = kernels.kernel(twice)
    assert compiled(np.float64(1.5)) == 3.0 and hasattr(compiled, "py_func")
    assert "compiled in this process instead" in caplog.text
