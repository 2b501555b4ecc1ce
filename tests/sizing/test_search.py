"""The search: candidates enumerated as arrays, evaluated in chunks or one pass alike, ranked."""

from __future__ import annotations

import numpy as np

from sizing.hardware import Cluster
from sizing.presets import PRESETS
from sizing.search import LayoutSpace, enumerate_candidates, evaluate, search_size
from sizing.workload import Layout, Training


def test_chunked_evaluation_equals_one_pass(cluster_on, constants):
    h100_ndr_cluster = cluster_on("ib-ndr-400", 1)
    model = PRESETS["llama-3-8b"].model
    training = Training(global_batch=512, micro_batch=1)
    clusters = [h100_ndr_cluster]
    cands = enumerate_candidates(clusters, [1, 2, 4, 8], model, training, LayoutSpace(), False)
    assert len(cands) > 100
    whole = evaluate(clusters, cands, model, training, constants)
    chunked = evaluate(clusters, cands, model, training, constants, chunk=37)
    assert whole.keys() == chunked.keys()
    for key in whole:
        np.testing.assert_array_equal(whole[key], chunked[key])


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
    """search_size counts exactly the candidates enumerate_candidates builds and filters."""
    clusters = [cluster_on("ib-ndr-400", 1), cluster_on("eth-tcp-100", 1)]
    for preset, space in (("llama-3-70b", LayoutSpace()), ("mixtral-8x7b", LayoutSpace()),
                          ("resnet-50", LayoutSpace()),
                          ("llama-3-8b", LayoutSpace(micro_batch=(1,), fixed=None))):
        model = PRESETS[preset].model
        nodes = list(range(1, 13))
        cands = enumerate_candidates(clusters, nodes, model, Training(512, 1), space, False, 2048)
        built = len(cands) + sum(cands.skipped.values())
        assert search_size(len(clusters), len(nodes), model, space) == built, preset


def test_a_pinned_hybrid_sharding_group_keeps_only_data_parallel_sizes_it_divides(hgx_h100,
                                                                                  fabrics):
    fixed = Layout(dp=0, tp=2, pp=1, zero_stage=3, shard_group=8, framework="fsdp")
    cluster = Cluster(hgx_h100, fabrics["ib-ndr-400"], 1, True)
    cands = enumerate_candidates([cluster], [1, 2, 3, 4], PRESETS["llama-3-8b"].model,
                                 Training(512, 1), LayoutSpace(micro_batch=(1,), fixed=fixed),
                                 batch_fixed=False)
    # 4 and 12 GPUs of data parallelism are not whole groups of 8.
    assert sorted(set(cands.layout["dp"].tolist())) == [8.0, 16.0]
    assert set(cands.layout["shard_group"].tolist()) == {8.0}
