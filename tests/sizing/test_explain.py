"""The bottleneck in words: every term of the step's breakdown can be the one named."""
import re

import pytest

from sizing.explain import (
    before_and_after,
    bottleneck,
    duration,
    hot_spare_advice,
    no_hot_spares,
    time_saved,
)
from sizing.hardware import Cluster
from sizing.presets import preset_model
from sizing.step import BREAKDOWN_KEYS, estimate
from sizing.workload import Layout, Training

FITS = {"fits": True}
# every overhead of the step: the breakdown but the compute and the hidden (overlapped) times
OVERHEADS = [k for k in BREAKDOWN_KEYS if k != "compute_s" and not k.endswith("_hidden_s")]


def _dominated_by(key, compute_share):
    """A step of 1 s whose compute takes `compute_share` and `key` the rest."""
    r = {k: 0.0 for k in BREAKDOWN_KEYS}
    r.update(step_time_s=1.0, compute_s=compute_share, tp_cross_node=False,
             communication_share=0.0)
    r[key] = 1.0 - compute_share
    return r


@pytest.mark.parametrize("compute_share", [0.7, 0.2])
def test_every_overhead_is_named_in_its_own_words(cluster_on, compute_share):
    cluster = cluster_on("ib-ndr-400", 4)
    layout = Layout(dp=32, tp=1, pp=1)
    said = {k: bottleneck(cluster, layout, _dominated_by(k, compute_share), FITS)
            for k in OVERHEADS}
    assert len(set(said.values())) == len(OVERHEADS), said
    share = f"{100 * (1 - compute_share):.0f}%"
    assert all(share in sentence for sentence in said.values()), said


def test_the_largest_overhead_of_a_70b_fsdp_step_is_the_one_named(cluster_on, constants):
    """70B with ZeRO-3 on 64 H100 nodes over NDR: the compute stragglers outweigh the network
    jitter, and the sentence says so."""
    e = estimate(cluster_on("ib-ndr-400", 64), preset_model("llama-3-70b"), Training(1024, 2),
                 Layout(dp=512, tp=1, pp=1, zero_stage=3, recompute="full"), constants)
    b = e.breakdown
    largest = max(OVERHEADS, key=b.get)
    assert largest == "compute_straggler_s"
    assert "slowest GPU's compute" in e.bottleneck
    assert f"at {100 * b[largest] / e.step_time_s:.0f}%" in e.bottleneck


@pytest.mark.parametrize("zero_stage, dp_words, zero_words", [
    (0, "gradient all-reduce", None),
    (1, "gradient reduce-scatter", "distributed optimizer's all-gather"),
    (2, "gradient reduce-scatter", "all-gather of the updated weights after the optimizer"),
    (3, "gradient reduce-scatter", "ZeRO-3/FSDP parameter gathers")])
def test_the_data_parallel_terms_are_named_as_the_zero_stage_runs_them(
        cluster_on, zero_stage, dp_words, zero_words):
    cluster = cluster_on("ib-ndr-400", 4)
    layout = Layout(dp=32, tp=1, pp=1, zero_stage=zero_stage)
    for key, words in (("dp_exposed_s", dp_words), ("zero_exposed_s", zero_words)):
        if words is None:
            continue
        for compute_share in (0.9, 0.2):  # the compute-bound words and the sentence
            said = bottleneck(cluster, layout, _dominated_by(key, compute_share), FITS)
            assert words in said, said
            if zero_stage != 3:
                assert "ZeRO-3" not in said, said


def test_a_step_with_overheads_near_its_compute_is_not_called_compute_bound(cluster_on):
    """56% compute against 44% exposed communication: removing the communication would
    nearly double the speed, so the network, not the GPUs, limits the step."""
    r = _dominated_by("dp_exposed_s", 0.56)
    r["communication_share"] = 0.44
    said = bottleneck(cluster_on("ib-ndr-400", 4), Layout(dp=32, tp=1, pp=1, zero_stage=1), r,
                      FITS)
    assert said.startswith("Network-bound: the gradient reduce-scatter"), said
    assert "GPU math takes 56%" in said and "communication 44% in all" in said, said


def _reduction_words(cluster, constants, **layout):
    e = estimate(cluster, preset_model("mixtral-8x7b"), Training(256, 1),
                 Layout(framework="megatron", tp=1, pp=1, ep=8, dp=64, recompute="full",
                        **layout), constants)
    return [a for a in e.assumptions if a.startswith(("ZeRO", "Distributed optimizer", "Gradient"))]


@pytest.mark.parametrize("zero_stage, said", [
    (2, ("ZeRO-2: each micro-batch's gradients are reduce-scattered in buckets of 64M "
         "parameters (Megatron-Core")),
    (3, "ZeRO-3/FSDP: the weights are all-gathered layer by layer")])
def test_zero_2_and_3_assumptions_say_reduce_scatter_not_all_reduce(cluster_on, constants,
                                                                    zero_stage, said):
    (words,) = _reduction_words(cluster_on("ib-ndr-400", 8), constants, zero_stage=zero_stage)
    assert words.startswith(said), words
    assert "all-reduce" not in words, words


def test_megatron_without_overlap_reduces_in_one_bucket_as_the_step_prices_it(cluster_on,
                                                                              constants):
    (words,) = _reduction_words(cluster_on("ib-ndr-400", 8), constants, zero_stage=1,
                                overlap_grad_reduce=False)
    assert "in one bucket (Megatron-Core without overlap_grad_reduce)" in words, words


def test_no_hot_spares_says_the_rule_and_what_the_stock_has_left():
    said = no_hot_spares(nodes=95, spares=10, usable=96, lead_time_days=30, spare_share=0.1)
    assert "uses 95 of the 96 nodes in stock or arriving within 30 days, leaving 1" in said
    assert "keeps 10% of a job's nodes as spares, rounded up and at least one" in said
    assert "so 10 spare nodes, which would need 105." in said


def test_a_time_saved_is_said_in_a_unit_and_to_figures_that_show_it():
    assert time_saved(0.5) == "30 minutes" and time_saved(1 / 60) == "1.0 minute"
    assert time_saved(5.04) == "5.0 hours" and time_saved(1.0) == "1.0 hour"
    assert time_saved(40.3) == "40 hours" and time_saved(60.0) == "2.5 days"
    assert time_saved(0.005) == "18 seconds"
    assert [duration(h) for h in (1 / 60, 1.0, 24.0, 0.001)] == [
        "1 minute", "1 hour", "24 hours", "under a minute"]


def test_two_times_to_train_are_written_to_the_decimals_that_tell_them_apart():
    assert before_and_after(7920.0, 7913.96) == ("330.0 days", "329.7 days")
    assert before_and_after(1716.5, 1716.0) == ("71.52 days", "71.50 days")
    assert before_and_after(30.0, 29.0) == ("30.0 hours", "29.0 hours")


def test_the_hot_spare_note_subtracts_the_times_before_rounding_them():
    """7913.96 h is 329.7 days (the network advice's figure), not 7914 h's 329.8; half an hour
    saved on 71 days is 30 minutes between two figures that differ."""
    def said(hours):
        return hot_spare_advice(
            taken=False, spares=1, reschedule_minutes=(30.0, 5.0), goodput=(0.99, 0.991),
            hours=hours, work_gain=None, unit="tokens", extra_monthly="1,000.00 USD",
            difference="2,000.00 USD", cheaper=False, objective="cheapest",
            objective_gain=-0.01, tolerance=0.05)
    assert "by 4.8 hours (329.9 days to 329.7 days)" in said((7918.76, 7913.96))
    assert "by 30 minutes (71.52 days to 71.50 days)" in said((1716.5, 1716.0))


def _assumed(server, fabrics, constants):
    e = estimate(Cluster(server, fabrics["ib-ndr-400"], 2, True), preset_model("llama-3-8b"),
                 Training(256, 1), Layout(framework="megatron", tp=1, pp=1, dp=16,
                                          attention_kernel="flash3"), constants)
    compute = next(a for a in e.assumptions if a.startswith("Compute"))
    collectives = next(a for a in e.assumptions if a.startswith("Collectives"))
    return compute, collectives


def test_an_amd_gpu_is_said_to_run_rccl_and_an_estimated_attention_kernel(snap, fabrics,
                                                                          constants):
    """MI300X: no Hopper kernel, no NCCL; what the model assumes for it instead, and that the
    attention's efficiency is an estimate (catalog model.yaml says so)."""
    compute, collectives = _assumed(snap.servers["oam-mi300x-8"], fabrics, constants)
    assert "Hopper" not in compute and "FlashAttention-3" not in compute, compute
    assert ("fused attention as FlashAttention-2 (the model has no later kernel for this GPU) "
            f"at {constants.flash2_attention_efficiency['mi300x']:.0%} of its 16-bit peak, an "
            "estimate (no measurement read; catalog model.yaml "
            "flash2_attention_efficiency)") in compute, compute
    assert collectives.startswith(
        "Collectives: RCCL, modelled with NCCL 2.20's algorithms and tuning tables"), collectives


def test_a_scaled_estimate_gives_its_own_reason_and_every_gpu_it_names_exists(snap, fabrics,
                                                                               constants):
    """The A100 PCIe's attention figure is the SXM part's scaled, an estimate: the words say
    so in the source's own reason; and each GPU an attention table's source calls an estimate
    is one the table or the catalog knows (a misspelt id would read as measured)."""
    compute, _ = _assumed(snap.servers["pcie-a100-80gb-8"], fabrics, constants)
    assert "an estimate (0.95 x SXM; catalog model.yaml flash2_attention_efficiency)" in compute
    known = set(snap.gpus) | {"default"}
    for table in ("flash2_attention_efficiency", "flash3_attention_efficiency",
                  "triton_attention_efficiency"):
        known |= set(getattr(constants, table))
        source = constants.sources[table]
        for ids in re.findall(r"(?:^|[.;]\s)\s*([\w./-]+(?:(?:,| and) [\w./-]+)*): estimate",
                              source):
            named = set(re.split(r",\s*|\s+and\s+", ids))
            assert named <= known, (table, named - known)


def test_an_h100_keeps_nccl_and_its_measured_hopper_kernel(snap, fabrics, constants):
    compute, collectives = _assumed(snap.servers["hgx-h100-8"], fabrics, constants)
    assert "FlashAttention-3 or cuDNN on Hopper" in compute and "estimate" not in compute
    assert collectives.startswith("Collectives: NCCL 2.20's algorithms"), collectives


def test_a_row_slower_and_dearer_than_rank_1_says_so():
    from sizing.explain import why_rank

    worse = why_rank(7, "balanced", True, 30.0, 2.0, 20.0, 1.0, 0.9)
    assert worse.startswith("Slower and dearer than rank 1: +50% time to train and +100% cost")
    faster = why_rank(2, "balanced", True, 15.0, 2.0, 20.0, 1.0, 0.9)
    assert "dearer" not in faster and faster.startswith("-25% time to train")


def test_a_pipeline_names_the_stage_that_paces_it_and_by_how_much(cluster_on, constants):
    """Llama 3 70B at PP 8: the last stage's 10 layers and output layer, (10 + o) / ((80 + o) /
    8) - 1 more forward work than the average stage, o the output layer in layers; no such words
    without a pipeline."""
    m = preset_model("llama-3-70b")
    o = m.logits_forward_flops_per_token * m.layers / m.layer_forward_flops_per_token
    e = estimate(cluster_on("ib-ndr-400", 8), m, Training(256, 1),
                 Layout(dp=2, tp=4, pp=8), constants)
    (words,) = [a for a in e.assumptions if a.startswith("Pipeline")]
    assert "; the layers split without the embedding and the loss" in words, words
    assert "the busiest of the 8 stages, the last: its 10 layers and the output layer" in words
    assert f", {100 * ((10 + o) / ((80 + o) / 8) - 1):.0f}% more forward work" in words
    flat = estimate(cluster_on("ib-ndr-400", 8), m, Training(256, 1), Layout(dp=16, tp=4, pp=1),
                    constants)
    assert not [a for a in flat.assumptions if a.startswith("Pipeline")]
