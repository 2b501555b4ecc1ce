"""The search: candidates enumerated cell by cell in chunks, the model run on what can run."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sizing.hardware import Cluster
from sizing.presets import PRESETS
from sizing.search import (
    NODE_COUNTS_PER_BLOCK,
    HardwareTable,
    LayoutSpace,
    distinct_ints,
    enumerate_candidates,
    enumeration,
    evaluate,
    feasibility,
    joined,
    layout_grid,
    model_on,
    search_size,
    throughput_bound,
    throughput_floor,
)
from sizing.step import (
    FLOOR_COMPUTE,
    compute_bound_batch,
    estimate_batch,
    layout_arrays,
    step_floor_batch,
)
from sizing.workload import FRAMEWORKS, Layout, Training


def test_chunks_hold_the_candidates_of_one_pass_in_the_same_order(cluster_on):
    clusters = [cluster_on("ib-ndr-400", 1), cluster_on("eth-tcp-100", 1)]
    space = enumeration([c.gpus_per_node for c in clusters], range(1, 9),
                        PRESETS["llama-3-70b"].model, Training(512, 1), LayoutSpace(), False,
                        2048)
    whole = list(space.chunks(10**9))
    parts = list(space.chunks(100))
    assert len(whole) == 1 and len(parts) > 5
    # A chunk holds whole cells, so it is at most one cell's layouts past the bound.
    assert max(len(p) for p in parts) <= 100 + len(space.grid["tp"])
    for key in ("hardware", "nodes", "global_batch", "node_index"):
        np.testing.assert_array_equal(np.concatenate([getattr(p, key) for p in parts]),
                                      getattr(whole[0], key))
    for key, column in whole[0].layout.items():
        np.testing.assert_array_equal(np.concatenate([p.layout[key] for p in parts]), column)


@pytest.mark.parametrize("chunk", [1, 40, 700, 5000])
def test_chunks_take_whole_cells_while_they_fit_across_blocks_of_node_counts(cluster_on,
                                                                            chunk):
    """Each chunk takes the next cells while their candidates fit in `chunk`, and at least
    one (a cell larger than the chunk stands alone), over node ranges walked a block at a
    time: the cut of one walk of every cell."""
    clusters = [cluster_on("ib-ndr-400", 1), cluster_on("eth-tcp-100", 1)]
    space = enumeration([c.gpus_per_node for c in clusters], range(1, 150),
                        PRESETS["llama-3-70b"].model, Training(512, 1), LayoutSpace(), False,
                        4096)
    assert len(space.node_counts) > 2 * NODE_COUNTS_PER_BLOCK  # several blocks
    sizes = [int(n) for block in space.cells() for n in block.sizes]
    expected, held = [], 0
    for size in sizes:  # the greedy cut, one cell at a time
        if expected and held + size > chunk:
            expected.append(0)
            held = 0
        if not expected:
            expected.append(0)
        expected[-1] += size
        held += size
    assert [len(c) for c in space.chunks(chunk)] == expected
    assert sum(expected) == len(next(space.chunks(10**9)))


def test_node_counts_where_no_layout_divides_the_gpus_build_no_chunk(cluster_on):
    """A pinned dp that no GPU count of a block divides builds nothing there, and the chunks
    of the other blocks are those of those blocks alone."""
    clusters = [cluster_on("ib-ndr-400", 1)]
    model, training = PRESETS["llama-3-70b"].model, Training(512, 1)
    space = LayoutSpace(fixed=Layout(dp=128, tp=8, pp=1))  # 1,024 GPUs: 128 nodes of 8
    nothing = enumeration([8], [1], model, training, space, False, 4096)
    assert list(nothing.chunks(100)) == [] and list(nothing.chunks(10**9)) == []
    # The first block of node counts builds none, the second one cell, the third none.
    counts = range(1, 2 * NODE_COUNTS_PER_BLOCK + 20)
    some = enumeration([c.gpus_per_node for c in clusters], counts, model, training, space,
                       False, 4096)
    for chunk in (1, 10**9):
        chunks = list(some.chunks(chunk))
        assert len(chunks) == 1 and set(chunks[0].nodes.tolist()) == {128}


def test_runnable_chunks_build_what_runs_within_stock_and_count_the_rest(cluster_on,
                                                                        constants):
    """Built: the candidates of their cells that are valid, fit in memory and are within their
    pair's stock, in the candidates' order; counted per cell: the others, by the first rule
    they fail, so that nothing is lost. A chunk holds about the limit of what it builds (its
    sets' rows, its candidates within stock), not of its candidates."""
    clusters = [cluster_on(f, 1) for f in ("ib-ndr-400", "eth-tcp-100", "roce-400-lossy")]
    model, training = PRESETS["llama-3-8b"].model, Training(512, 1)
    table = HardwareTable.of(clusters)
    counts = list(range(1, 13))
    space = enumeration([c.gpus_per_node for c in clusters], counts, model, training,
                        LayoutSpace(), False, 2048, table.groups)
    usable = np.array([9, 4, 12])  # the second pair runs out of stock first
    LIMIT = 100
    passes = []

    def feasible(sets):
        passes.append(len(sets))
        return feasibility(table, sets, model, training, constants)

    built = list(space.runnable_chunks(LIMIT, feasible, usable))
    # The sets' rows about LIMIT a pass, its candidates built cut into chunks of LIMIT.
    assert len(passes) < len(built) and max(passes) <= 2 * LIMIT
    whole = next(space.chunks(10**9))  # every candidate, in order
    found = feasibility(table, whole, model, training, constants)
    in_stock = whole.nodes <= usable[whole.hardware]
    cell = whole.hardware * len(counts) + whole.node_index
    first = np.select([~found.valid, ~found.memory_fits, ~in_stock], [1, 2, 3], 0)
    assert len(built) > 3
    in_order = cell[np.sort(np.unique(cell, return_index=True)[1])]
    np.testing.assert_array_equal(np.concatenate([p.cells for p in built]), in_order)
    assert sum(p.size for p in built) == len(whole)
    assert max(p.size for p in built) > LIMIT  # most candidates are never built
    for part in built:
        mine = np.isin(cell, part.cells)
        keep = np.flatnonzero(mine & found.runnable & in_stock)
        assert part.size == np.count_nonzero(mine)
        assert len(part.cands) <= LIMIT or np.unique(cell[keep]).size == 1
        for key in ("hardware", "nodes", "global_batch", "node_index"):
            np.testing.assert_array_equal(getattr(part.cands, key), getattr(whole, key)[keep])
        for key, column in whole.layout_of(keep).items():
            np.testing.assert_array_equal(part.cands.layout_of(np.arange(keep.size))[key],
                                          column, err_msg=key)
        # Rows of one set of fabrics share a set, as in the whole search, numbered 0, 1, ...
        # with each set's first row.
        shared = part.cands.shared_of
        assert np.unique(np.c_[shared, whole.shared_of[keep]], axis=0).shape[0] \
            == np.unique(shared).size == np.unique(whole.shared_of[keep]).size
        np.testing.assert_array_equal(np.unique(shared), np.arange(np.unique(shared).size))
        np.testing.assert_array_equal(shared[part.cands.shared_first],
                                      np.arange(part.cands.shared_first.size))
        for k, rule in enumerate(("invalid_layout", "memory", "stock"), start=1):
            expected = np.array([np.count_nonzero((cell == c) & (first == k))
                                 for c in part.cells])
            np.testing.assert_array_equal(part.ruled_out[rule], expected, err_msg=rule)
    assert sum(int(p.ruled_out["stock"].sum()) for p in built) > 0


def test_validity_memory_and_the_model_on_some_rows_agree_with_one_whole_pass(cluster_on,
                                                                              constants):
    clusters = [cluster_on("ib-ndr-400", 1), cluster_on("eth-tcp-100", 1)]
    model = PRESETS["llama-3-70b"].model
    training = Training(global_batch=512, micro_batch=1)
    cands = enumerate_candidates(clusters, [1, 2, 4, 8], model, training, LayoutSpace(), False)
    # One server on two fabrics: validity and memory are worked out once for both.
    assert HardwareTable.of(clusters).groups == (0, 0)
    assert cands.shared_first.size == len(cands) // 2
    table = HardwareTable.of(clusters)
    whole = evaluate(clusters, cands, model, training, constants)
    found = feasibility(table, cands, model, training, constants)
    np.testing.assert_array_equal(found.valid, whole["valid"])
    np.testing.assert_array_equal(found.memory_fits, whole["memory_fits"])
    rows = np.flatnonzero(found.runnable)
    assert 0 < rows.size < len(cands)  # 70B does not fit on one node in every layout
    some = model_on(table, cands, rows, model, training, constants)
    for key, column in some.items():
        np.testing.assert_array_equal(column, whole[key][rows], err_msg=key)
    # Rows known runnable: the same columns but memory's, without working those out again.
    known = model_on(table, cands, rows, model, training, constants, runnable=True)
    assert known.keys() == {k for k in whole if not k.startswith("memory_")} | {"memory_fits"}
    for key, column in known.items():
        np.testing.assert_array_equal(column, whole[key][rows], err_msg=key)


def test_the_compute_bound_is_never_below_the_model_s_throughput(cluster_on, constants):
    """The pruning rests on it: communication, bubble and optimizer only add to compute."""
    clusters = [cluster_on("ib-ndr-400", 1), cluster_on("eth-tcp-10", 1)]
    for preset in ("llama-3-70b", "mixtral-8x7b", "resnet-50"):
        model = PRESETS[preset].model
        training = Training(global_batch=1024, micro_batch=1)
        cands = enumerate_candidates(clusters, [1, 2, 3, 8, 16], model, training, LayoutSpace(),
                                     False)
        whole = evaluate(clusters, cands, model, training, constants)
        bound = throughput_bound(HardwareTable.of(clusters), cands, np.arange(len(cands)),
                                 model, training, constants)
        assert np.all(bound["samples_per_s"] >= whole["samples_per_s"]), preset
        # The terms the network and compute physics add to the step are never negative (but
        # for float rounding of a difference of equal times, far below a step).
        valid = whole["valid"].astype(bool)
        for term in ("straggler_s", "compute_straggler_s", "overlap_slowdown_s"):
            assert np.all(whole[term][valid] >= -1e-12 * whole["step_time_s"][valid]), (preset,
                                                                                         term)
        # ... and it is a bound worth having: within 2x of the model on most candidates.
        assert np.median(whole["samples_per_s"] / bound["samples_per_s"]) > 0.5, preset
        # Its layers' collectives, priced once per pair and the degrees they read, only
        # tighten compute alone, and the floor, which counts them among its terms, is tighter
        # still (or as tight: a layout without tensor or expert parallelism).
        table = HardwareTable.of(clusters)
        batch = table.batch(cands)
        compute = compute_bound_batch(batch, model, training, constants)
        floor = step_floor_batch(batch, model, training, constants)
        assert np.all(bound["samples_per_s"] <= compute["samples_per_s"]), preset
        assert np.all(floor["samples_per_s"] <= bound["samples_per_s"] * (1 + 1e-9)), preset
        if preset != "resnet-50":  # no tensor parallelism: compute alone
            assert np.any(bound["samples_per_s"] < compute["samples_per_s"]), preset


def test_the_communication_floor_is_never_below_the_model_s_step(cluster_on, constants):
    """The second bound of the pruning: compute with the communication the model never hides
    (tensor-parallel all-reduces, pipeline transfers, the gradients' reduction) is a lower
    bound of the step on every layout the model finds valid, whatever its ZeRO stage,
    framework (DeepSpeed's synchronous ZeRO-3 included), offload, hybrid-sharding group or
    interleaving, on a fast and a slow fabric; and it is tighter than compute alone."""
    clusters = [cluster_on("ib-ndr-400", 1), cluster_on("eth-tcp-10", 1)]
    rng = np.random.default_rng(16)
    for preset in ("llama-3-70b", "mixtral-8x7b", "resnet-50", "llama-3-8b"):
        model = PRESETS[preset].model
        training = Training(global_batch=1024, micro_batch=1)
        cands = enumerate_candidates(clusters, [1, 2, 3, 8, 16], model, training, LayoutSpace(),
                                     False)
        batch = HardwareTable.of(clusters).batch(cands)
        n = len(cands)
        # Every setting the grid leaves at one value, drawn per row.
        batch.update(zero_stage=rng.integers(0, 4, n),
                     framework=rng.integers(0, len(FRAMEWORKS), n),
                     offload=rng.integers(0, 3, n) * rng.integers(0, 2, n),
                     shard_group=rng.choice([0, 0, 2, 8], n),
                     virtual_stages=np.where(batch["pp"] > 1, rng.integers(1, 3, n), 1),
                     recompute=rng.integers(0, 3, n),
                     sequence_parallel=rng.integers(0, 2, n).astype(bool))
        whole = estimate_batch(batch, model, training, constants)
        floor = step_floor_batch(batch, model, training, constants)
        compute = compute_bound_batch(batch, model, training, constants)
        valid = whole["valid"].astype(bool)
        assert valid.sum() > 0.1 * n, preset
        assert np.all(floor["samples_per_s"][valid] >= whole["samples_per_s"][valid]), preset
        tighter = compute["samples_per_s"][valid] / floor["samples_per_s"][valid]
        assert np.all(tighter >= 1 - 1e-9), preset
        if preset != "resnet-50":  # data parallelism alone: the floor adds its reduction only
            assert np.median(tighter) > 1.1, preset
    # throughput_floor is the same floor on some rows of a chunk, whether it computes their
    # compute or reads it from their compute bound (computed once per set of fabrics).
    table = HardwareTable.of(clusters)
    some = np.arange(0, len(cands), 7)
    plain = step_floor_batch(table.batch(cands, some), model, training, constants)
    for given in (None, throughput_bound(table, cands, some, model, training, constants)):
        rows = throughput_floor(table, cands, some, model, training, constants, given)
        np.testing.assert_array_equal(rows["samples_per_s"], plain["samples_per_s"])


def test_the_floor_counts_the_expert_all_to_alls_full_recompute_re_runs(cluster_on, constants):
    """The floor's expert all-to-alls are the model's: 6 per layer under full recompute, 4
    otherwise. Both rows get the same compute, so what the all-to-alls add (their exposed share
    all or nothing) is all that differs."""
    model, training = PRESETS["mixtral-8x7b"].model, Training(global_batch=64, micro_batch=1)
    cluster = cluster_on("roce-400-lossless", 4)
    rows = [{**cluster.as_arrays(), **layout_arrays(Layout(dp=16, tp=1, pp=2, ep=8,
                                                           recompute=recompute), training)}
            for recompute in ("selective", "full")]
    batch = {k: np.concatenate([row[k] for row in rows]) for k in rows[0]}
    compute = {k: np.repeat(v[:1], 2)
               for k, v in compute_bound_batch(batch, model, training, constants).items()
               if k in FLOOR_COMPUTE}

    def step(ep_overlap):
        floor = step_floor_batch(batch, model, training,
                                 replace(constants, ep_overlap_fraction=ep_overlap), compute)
        return training.global_batch / floor["samples_per_s"]

    selective, full = step(0.0) - step(1.0)
    assert selective > 0
    assert full == pytest.approx(1.5 * selective, rel=1e-9)


def test_the_search_rules_out_offload_the_host_memory_cannot_hold(hgx_h100, fabrics,
                                                                   constants):
    """Two servers alike but for their host memory: an offloading layout whose state fits
    the GPUs runs on the one whose host holds it only, even where the search shares one
    server's validity and memory among its fabrics."""
    servers = [replace(hgx_h100, id=f"host-{gb}", host_memory_gb=gb) for gb in (2048, 1024)]
    clusters = [Cluster(s, fabrics[f], 1, True) for s in servers
                for f in ("ib-ndr-400", "roce-400-lossless")]
    model, training = PRESETS["llama-3-70b"].model, Training(global_batch=64, micro_batch=1)
    fixed = Layout(dp=8, tp=1, pp=1, zero_stage=3, recompute="full",
                   offload="optimizer+activations")
    cands = enumerate_candidates(clusters, [1], model, training, LayoutSpace(fixed=fixed), True)
    table = HardwareTable.of(clusters)
    found = feasibility(table, cands, model, training, constants)
    whole = feasibility(table, cands, model, training, constants, exhaustive=True)
    on_big = np.isin(cands.hardware, [0, 1])
    gpu_fits = whole.full["memory_margin_gb"] >= 0
    assert set(cands.hardware) == {0, 1, 2, 3} and found.valid.all()
    assert (gpu_fits & ~on_big).any()  # ruled out by the host alone
    np.testing.assert_array_equal(found.runnable, gpu_fits & on_big)
    np.testing.assert_array_equal(whole.runnable, gpu_fits & on_big)


@pytest.mark.parametrize("changes", [{"tp_overlap_fraction": -0.2},
                                     {"ep_overlap_fraction": 1.2},
                                     {"overlap_compute_slowdown": -0.1},
                                     {"compute_jitter_cv": -0.01}])
def test_the_floor_stands_back_for_unphysical_constants(cluster_on, constants, changes):
    """A negative overlap share, slowdown or jitter makes some of the model's terms negative,
    which a floor made of those terms would overstate: the compute-only bound applies."""
    clusters = [cluster_on("ib-ndr-400", 1)]
    model, training = PRESETS["llama-3-70b"].model, Training(global_batch=1024, micro_batch=1)
    cands = enumerate_candidates(clusters, [2, 8], model, training, LayoutSpace(), False)
    batch = HardwareTable.of(clusters).batch(cands)
    odd = replace(constants, **changes)
    np.testing.assert_array_equal(step_floor_batch(batch, model, training, odd)["samples_per_s"],
                                  compute_bound_batch(batch, model, training, odd)["samples_per_s"])


def test_rows_of_several_chunks_joined_are_those_rows_with_their_fabrics_shared(cluster_on,
                                                                               constants):
    """What the search bounds and times several chunks at once on: their rows in order, each
    with the model's figures and compute bound it has in its own chunk."""
    clusters = [cluster_on("ib-ndr-400", 1), cluster_on("eth-tcp-100", 1)]
    table = HardwareTable.of(clusters)
    model, training = PRESETS["llama-3-70b"].model, Training(512, 1)
    space = enumeration([c.gpus_per_node for c in clusters], range(1, 9), model, training,
                        LayoutSpace(), False, 2048, table.groups)
    chunks = list(space.chunks(500))[:3]
    assert len(chunks) == 3
    picked = [(c, np.arange(i, len(c), 3 + i)) for i, c in enumerate(chunks)]
    both = joined(picked)
    assert len(both) == sum(rows.size for _, rows in picked)
    every = np.arange(len(both))
    whole = model_on(table, both, every, model, training, constants)
    bound = throughput_bound(table, both, every, model, training, constants)
    # their sets numbered as a chunk's are, so validity and memory once per set read right
    found = feasibility(table, both, model, training, constants)
    np.testing.assert_array_equal(found.valid, whole["valid"].astype(bool))
    np.testing.assert_array_equal(found.memory_fits, whole["memory_fits"].astype(bool))
    # Rows of one chunk share a set only with rows of that chunk.
    start = 0
    for c, rows in picked:
        here = slice(start, start + rows.size)
        own = model_on(table, c, rows, model, training, constants)
        for key in ("step_time_s", "valid", "memory_fits"):
            np.testing.assert_array_equal(whole[key][here], own[key], err_msg=key)
        mine = both.layout_of(np.arange(here.start, here.stop))
        for key, column in c.layout_of(rows).items():
            np.testing.assert_array_equal(mine[key], column, err_msg=key)
        np.testing.assert_array_equal(
            bound["samples_per_s"][here],
            throughput_bound(table, c, rows, model, training, constants)["samples_per_s"])
        assert np.unique(both.shared_of[here]).size == np.unique(c.shared_of[rows]).size
        start += rows.size
    assert set(np.unique(both.shared_of[:picked[0][1].size])).isdisjoint(
        both.shared_of[picked[0][1].size:])


def test_the_search_tries_no_recompute_and_leaves_out_the_selective_it_dominates(cluster_on,
                                                                                 constants):
    """With fused attention (the grid's), selective recompute keeps the same bytes as none
    and re-runs attention: each selective layout is the same layout without recompute, only
    slower. The search tries none and full, and where none fits it is the fastest."""
    clusters = [cluster_on("ib-ndr-400", 2)]
    model, training = PRESETS["llama-3-8b"].model, Training(global_batch=256, micro_batch=1)
    assert set(layout_grid(model, LayoutSpace())["recompute"]) == {0, 2}
    space = LayoutSpace(recompute=("none", "selective"))
    cands = enumerate_candidates(clusters, [2], model, training, space, False)
    r = evaluate(clusters, cands, model, training, constants)
    rc = cands.layout["recompute"]
    none, selective = np.flatnonzero(rc == 0), np.flatnonzero(rc == 1)
    assert len(none) == len(selective) > 10
    for k in ("tp", "pp", "ep", "zero_stage", "micro_batch"):  # twins, in grid order
        np.testing.assert_array_equal(cands.layout[k][none], cands.layout[k][selective])
    np.testing.assert_array_equal(r["memory_total_gb"][none], r["memory_total_gb"][selective])
    assert np.all(r["step_time_s"][none] < r["step_time_s"][selective])
    cands = enumerate_candidates(clusters, [2], model, training, LayoutSpace(), False)
    r = evaluate(clusters, cands, model, training, constants)
    ok = r["valid"].astype(bool) & r["memory_fits"].astype(bool)
    fastest = np.flatnonzero(ok)[np.argmax(r["samples_per_s"][ok])]
    assert cands.layout["recompute"][fastest] == 0


def test_every_candidate_multiplies_to_the_gpu_count(cluster_on):
    h100_ndr_cluster = cluster_on("ib-ndr-400", 1)
    model = PRESETS["llama-3-70b"].model
    cands = enumerate_candidates([h100_ndr_cluster], [3, 4], model, Training(512, 1),
                                 LayoutSpace(), False)
    lay = cands.layout
    assert np.all(lay["dp"] * lay["tp"] * lay["pp"] == cands.nodes * 8)
    assert np.all(cands.global_batch % (lay["dp"] * lay["micro_batch"]) == 0)


def test_data_parallelism_may_not_grow_the_default_batch_past_the_limit(cluster_on):
    # 64 nodes of 8 GPUs: pure data parallelism would need dp x micro_batch = 512..1024 samples,
    # within 2x of a 512 batch but not within 1x.
    cluster = cluster_on("ib-ndr-400", 1)
    model = PRESETS["llama-3-8b"].model
    training = Training(512, 1)
    free = enumerate_candidates([cluster], [64], model, training, LayoutSpace(), False)
    capped = enumerate_candidates([cluster], [64], model, training, LayoutSpace(), False,
                                  max_global_batch=512)
    assert free.global_batch.max() > 512
    assert capped.global_batch.max() <= 512 and len(capped) > 0
    assert capped.skipped["batch"] == len(free) - len(capped)
    # A batch the customer fixed is never rounded, so the limit does not apply to it.
    fixed = enumerate_candidates([cluster], [64], model, training, LayoutSpace(), True,
                                 max_global_batch=1)
    assert len(fixed) > 0 and np.all(fixed.global_batch == 512)


def test_the_search_size_is_known_before_the_search_runs(cluster_on):
    """search_size counts exactly the candidates the search builds (the batch rule drops
    some after), and only layouts whose degrees divide the GPU count are built."""
    clusters = [cluster_on("ib-ndr-400", 1), cluster_on("eth-tcp-100", 1)]
    for preset, space in (("llama-3-70b", LayoutSpace()), ("mixtral-8x7b", LayoutSpace()),
                          ("resnet-50", LayoutSpace()),
                          ("llama-3-8b", LayoutSpace(micro_batch=(1,), fixed=None))):
        model = PRESETS[preset].model
        nodes = list(range(1, 13))
        cands = enumerate_candidates(clusters, nodes, model, Training(512, 1), space, False, 2048)
        built = len(cands) + cands.skipped["batch"]
        gpus_per_node = [c.gpus_per_node for c in clusters]
        assert search_size(gpus_per_node, nodes, model, space) == built, preset
        cross = len(clusters) * len(nodes) * len(layout_grid(model, space)["tp"])
        assert built + cands.skipped["degrees"] == cross, preset


def test_a_pinned_hybrid_sharding_group_keeps_only_data_parallel_sizes_it_divides(hgx_h100,
                                                                                  fabrics):
    fixed = Layout(dp=0, tp=2, pp=1, zero_stage=3, shard_group=8, framework="fsdp")
    cluster = Cluster(hgx_h100, fabrics["ib-ndr-400"], 1, True)
    cands = enumerate_candidates([cluster], [1, 2, 3, 4], PRESETS["llama-3-8b"].model,
                                 Training(512, 1), LayoutSpace(micro_batch=(1,), fixed=fixed),
                                 batch_fixed=False)
    # 4 and 12 GPUs of data parallelism are not whole groups of 8.
    assert sorted(set(cands.layout["dp"].tolist())) == [8.0, 16.0]
    assert set(cands.layout["shard_group"].tolist()) == {8}


def test_distinct_ints_number_ids_as_np_unique_does():
    rng = np.random.default_rng(7)
    for ids in (np.zeros(0, np.int64), np.array([5]), np.array([3, 3, 0, 7, 0, 3]),
                rng.integers(0, 50, 1000), np.repeat(np.arange(300), 3)[rng.permutation(900)]):
        _, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
        got_first, got_inverse = distinct_ints(ids)
        np.testing.assert_array_equal(got_first, first)
        np.testing.assert_array_equal(got_inverse, inverse)
