"""Layouts that cannot run are refused alike by the one-configuration rules and by the search's
vectorised validity, so a sizing never ranks a layout an estimate refuses."""

from dataclasses import replace

import numpy as np
import pytest

from sizing.presets import preset_model
from sizing.search import LayoutSpace, layout_grid
from sizing.step import _hardware, feasibility_batch, layout_arrays, validate_layout
from sizing.workload import FRAMEWORKS, Layout, Training, divides

LLAMA_8B = preset_model("llama-3-8b")  # 32 layers, 32 heads, 8 key/value heads
RESNET_50 = preset_model("resnet-50")


def fields(problems):
    return {name for name, _ in problems}


def vectorised_valid(cluster, model, training, layout, constants) -> bool:
    batch = dict(_hardware(cluster, constants).columns) | layout_arrays(layout, training)
    return bool(feasibility_batch(batch, model, training, constants)["valid"][0])


# Each refused layout beside one that differs only in what makes it run: the rule names the
# field, and the runnable neighbour shows the rule refuses no more than it should.
CASES = [
    # 32 layers over pp x virtual_stages chunks: 16 chunks of 2 run, 64 and 6 do not.
    ("interleaving over more chunks than layers", LLAMA_8B,
     Layout(dp=1, tp=8, pp=2, virtual_stages=32), Layout(dp=1, tp=8, pp=2, virtual_stages=8),
     "virtual_stages"),
    ("chunks that do not divide the layers", LLAMA_8B,
     Layout(dp=1, tp=8, pp=2, virtual_stages=3), Layout(dp=1, tp=8, pp=2, virtual_stages=2),
     "virtual_stages"),
    ("recomputing more layers than a stage holds", LLAMA_8B,
     Layout(dp=2, tp=8, pp=1, recompute="full", recompute_layers=99),
     Layout(dp=2, tp=8, pp=1, recompute="full", recompute_layers=32), "recompute_layers"),
    # Megatron-LM's bound is the layers of a pipeline rank (8 of 32 at pp 4), not of a chunk
    # (4 at virtual_stages 2): 5 recomputes each chunk whole, 9 is past the bound.
    ("recomputing more layers than a pipeline stage holds, interleaved", LLAMA_8B,
     Layout(dp=1, tp=4, pp=4, virtual_stages=2, recompute="full", recompute_layers=9),
     Layout(dp=1, tp=4, pp=4, virtual_stages=2, recompute="full", recompute_layers=5),
     "recompute_layers"),
    ("ZeRO on Horovod, which reduces gradients only", RESNET_50,
     Layout(dp=16, tp=1, pp=1, zero_stage=1, framework="horovod"),
     Layout(dp=16, tp=1, pp=1, zero_stage=0, framework="horovod"), "zero_stage"),
    ("ZeRO on MXNet, whose KVStore replicates", RESNET_50,
     Layout(dp=16, tp=1, pp=1, zero_stage=3, framework="mxnet"),
     Layout(dp=16, tp=1, pp=1, zero_stage=0, framework="mxnet"), "zero_stage"),
    ("tp past the key/value heads", LLAMA_8B, Layout(dp=1, tp=16, pp=1),
     Layout(dp=2, tp=8, pp=1), "tp"),
    ("DDP sharding weights", LLAMA_8B, Layout(dp=16, tp=1, pp=1, zero_stage=3, framework="ddp"),
     Layout(dp=16, tp=1, pp=1, zero_stage=3, framework="fsdp"), "zero_stage"),
    ("Megatron-FSDP with pipeline stages", LLAMA_8B,
     Layout(dp=1, tp=2, pp=8, zero_stage=3), Layout(dp=1, tp=2, pp=8, zero_stage=1),
     "zero_stage"),
    ("Megatron's transformer code on a CNN", RESNET_50,
     Layout(dp=16, tp=1, pp=1, zero_stage=0, framework="megatron"),
     Layout(dp=16, tp=1, pp=1, zero_stage=0, framework="ddp"), "framework"),
    ("sequence parallelism without tensor parallelism", LLAMA_8B,
     Layout(dp=16, tp=1, pp=1, sequence_parallel=True), Layout(dp=16, tp=1, pp=1),
     "sequence_parallel"),
    ("tensor-parallel overlap without sequence parallelism", LLAMA_8B,
     Layout(dp=2, tp=8, pp=1, tp_comm_overlap=True),
     Layout(dp=2, tp=8, pp=1, sequence_parallel=True, tp_comm_overlap=True), "tp_comm_overlap"),
    ("tensor-parallel overlap outside Megatron-Core", LLAMA_8B,
     Layout(dp=2, tp=8, pp=1, sequence_parallel=True, tp_comm_overlap=True, zero_stage=1,
            framework="megatron-deepspeed"),
     Layout(dp=2, tp=8, pp=1, sequence_parallel=True, zero_stage=1,
            framework="megatron-deepspeed"), "tp_comm_overlap"),
    ("context parallelism on a CNN", RESNET_50,
     Layout(dp=8, tp=1, pp=1, cp=2, zero_stage=0, framework="ddp"),
     Layout(dp=16, tp=1, pp=1, zero_stage=0, framework="ddp"), "cp"),
    ("expert parallelism on a CNN", RESNET_50,
     Layout(dp=16, tp=1, pp=1, ep=2, zero_stage=0, framework="ddp"),
     Layout(dp=16, tp=1, pp=1, zero_stage=0, framework="ddp"), "ep"),
]


@pytest.mark.parametrize("model, refused, runs, field", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_a_layout_that_cannot_run_is_refused_by_both_paths_naming_its_field(
        cluster_on, constants, model, refused, runs, field):
    cluster, training = cluster_on("ib-ndr-400", 2), Training(64, 1)
    assert fields(validate_layout(cluster, model, training, refused)) == {field}
    assert not vectorised_valid(cluster, model, training, refused, constants)
    assert validate_layout(cluster, model, training, runs) == []
    assert vectorised_valid(cluster, model, training, runs, constants)


def test_plain_pipeline_stages_may_split_the_layers_unevenly(cluster_on, constants):
    """Megatron-LM runs 32 layers over 3 stages with --decoder-first/last-pipeline-num-layers;
    only the interleaved schedule needs equal chunks."""
    model = replace(LLAMA_8B, layers=31)
    cluster, training = cluster_on("ib-ndr-400", 2), Training(64, 1)
    uneven = Layout(dp=1, tp=8, pp=2)
    assert validate_layout(cluster, model, training, uneven) == []
    assert vectorised_valid(cluster, model, training, uneven, constants)
    assert "virtual_stages" in fields(validate_layout(cluster, model, training,
                                                      replace(uneven, virtual_stages=3)))


def _grid_layouts(model, gpus):
    grid = layout_grid(model, LayoutSpace())
    for i in range(len(grid["tp"])):
        row = {name: column[i] for name, column in grid.items()}
        model_parallel = row["tp"] * row["pp"] * row["cp"]
        if gpus % model_parallel == 0:
            yield Layout.from_mapping(row | {"dp": gpus // model_parallel}), int(row["micro_batch"])


@pytest.mark.parametrize("preset", ["llama-3-8b", "mixtral-8x7b", "resnet-50"])
def test_every_layout_the_search_tries_is_valid_exactly_where_an_estimate_runs_it(
        cluster_on, constants, preset):
    model = preset_model(preset)
    cluster = cluster_on("ib-ndr-400", 2)
    layouts = list(_grid_layouts(model, cluster.gpus))
    assert layouts
    for layout, micro_batch in layouts:
        training = Training(256 * micro_batch, micro_batch)
        refused = validate_layout(cluster, model, training, layout)
        assert vectorised_valid(cluster, model, training, layout, constants) == (not refused), (
            layout, refused)


def test_the_search_tries_no_layout_megatron_cannot_run(cluster_on):
    grid = layout_grid(LLAMA_8B, LayoutSpace())
    megatron = grid["framework"] == FRAMEWORKS.index("megatron")
    assert megatron.all()
    assert not np.any((grid["zero_stage"] >= 2) & (grid["pp"] > 1))
    assert not np.any(grid["tp"] == 16)  # 8 key/value heads
    assert np.any((grid["zero_stage"] == 3) & (grid["pp"] == 1))
    assert np.any((grid["zero_stage"] == 1) & (grid["pp"] > 1))


def test_interleaving_may_count_the_embedding_and_the_loss_as_layers(cluster_on, constants):
    """Llama 3.1 405B's 126 layers run over pp 8 x vp 8 with the embedding and the loss each
    counted as a layer (--account-for-embedding/loss-in-pipeline-split): 128 over 64."""
    model = replace(LLAMA_8B, layers=126)
    cluster, training = cluster_on("ib-ndr-400", 2), Training(64, 1)
    for virtual_stages, runs in ((8, True), (7, False)):
        layout = Layout(dp=1, tp=2, pp=8, virtual_stages=virtual_stages)
        assert (validate_layout(cluster, model, training, layout) == []) is runs
        assert vectorised_valid(cluster, model, training, layout, constants) is runs


def test_divides_is_fmod_on_whole_numbers_and_on_every_other_column():
    """The validity's divisibility test (sizing.workload.divides) against np.fmod: on columns
    of whole numbers (its quotient's path, up to 2**52) and on columns with fractions, zeros,
    infinities, NaN and integers past 2**53 (fmod's), integer columns with zeros included."""
    rng = np.random.default_rng(20)
    odd = np.array([0.5, 1 / 3, 0.1, 0.3, 0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324,
                    2.0 ** 53, 2.0 ** 53 + 2, -(2.0 ** 60)])
    for _ in range(50):
        parts = rng.integers(-64, 65, size=2000).astype(float)
        parts[parts == 0] = 3.0
        for whole in (rng.integers(-10 ** 6, 10 ** 6, size=2000).astype(float),
                      rng.integers(-2 ** 52, 2 ** 52, size=2000).astype(float), 64, 81.0):
            assert np.array_equal(divides(parts, whole), np.fmod(whole, parts) == 0)
        mixed = np.where(rng.integers(0, 8, size=2000) == 0, rng.choice(odd, size=2000), parts)
        ints = rng.integers(0, 9, size=2000)
        with np.errstate(divide="ignore", invalid="ignore"):  # fmod's, by 0 and of inf
            for whole in (mixed[::-1], rng.choice(odd, size=2000), 64, 0.0):
                assert np.array_equal(divides(mixed, whole), np.fmod(whole, mixed) == 0)
            assert np.array_equal(divides(ints, 64), np.fmod(64, ints) == 0)
