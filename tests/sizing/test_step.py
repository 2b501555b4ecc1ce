from dataclasses import replace
from types import MappingProxyType

import numpy as np
import pytest

from catalog.shipped import shipped
from sizing.hardware import FABRIC_KINDS, Cluster, Server
from sizing.presets import preset_model
from sizing.step import (
    BREAKDOWN_KEYS,
    estimate,
    estimate_batch,
    layout_arrays,
    layout_rules,
    validate_layout,
)
from sizing.topology import straggler_stretch
from sizing.workload import FRAMEWORKS, Layout, Training, Transformer

A100_SXM = shipped().gpus["a100-80gb-sxm"]
H100_SXM = shipped().gpus["h100-sxm"]

# Llama 3 70B with 16 key/value heads, so that tp 16 splits them (its own 8 do not: Megatron-Core
# requires num_query_groups divisible by tp), for layouts whose tensor-parallel group spans
# two nodes.
LLAMA_70B_KV16 = replace(preset_model("llama-3-70b"), kv_heads=16)

SMALL = Transformer("small", layers=8, hidden=1024, heads=16, kv_heads=16, ffn_hidden=4096,
                    vocab=32000, seq_len=1024)


def exposed_sum(e):
    return sum(v for k, v in e.breakdown.items() if not k.endswith("hidden_s"))


def test_breakdown_adds_up_to_the_step(cluster_on, constants):
    e = estimate(cluster_on("roce-400-lossy", 4), preset_model("llama-3-70b"), Training(64, 1),
                 Layout(dp=2, tp=8, pp=2, zero_stage=1, sequence_parallel=True), constants)
    assert exposed_sum(e) == pytest.approx(e.step_time_s, rel=1e-9)
    assert 0 < e.scaling_efficiency < 1 and 0 < e.communication_share < 1
    assert e.tokens_per_s == pytest.approx(64 * 8192 / e.step_time_s)
    assert e.assumptions and all(isinstance(a, str) for a in e.assumptions)


def test_single_gpu_has_perfect_scaling(constants, fabrics):
    server = Server("one", "one", A100_SXM, 1, 1, 200, 4, True)
    e = estimate(Cluster(server, fabrics["ib-hdr-200"], 1, True), SMALL, Training(8, 8),
                 Layout(1, 1, 1), constants)
    assert e.scaling_efficiency == pytest.approx(1.0)
    assert e.communication_share == pytest.approx(0.0)


@pytest.mark.parametrize("v", [1, 2])
def test_pipeline_bubble_is_p_minus_1_over_v_m(cluster_on, constants, v):
    e = estimate(cluster_on("ib-ndr-400", 1), SMALL, Training(16, 1),
                 Layout(dp=2, tp=1, pp=4, virtual_stages=v), constants)
    m = 16 / 2
    assert e.breakdown["bubble_s"] / e.breakdown["compute_s"] == pytest.approx(3 / (v * m))


def test_zero3_moves_one_and_a_half_times_the_data_parallel_volume(cluster_on, constants):
    m = preset_model("llama-3-8b")
    cl = cluster_on("ib-ndr-400", 4)
    # One gradient bucket and no NCCL latencies, so that per-message latency does not blur the
    # volume comparison (DDP pays one latency per 25 MB bucket, FSDP one per layer).
    none = MappingProxyType({"default": 0.0})
    one_bucket = replace(constants, dp_bucket_mb=1e5, nccl_base_latency_us=none,
                         nccl_hw_latency_us=none, nccl_net_overhead_us=0.0)

    def comm(zero):
        # PyTorch DDP and FSDP reduce 16-bit gradients (Megatron would reduce FP32 ones).
        e = estimate(cl, m, Training(32, 1), Layout(dp=32, tp=1, pp=1, zero_stage=zero,
                                                    framework="fsdp"), one_bucket)
        b = e.breakdown
        return b["dp_exposed_s"] + b["dp_hidden_s"] + b["zero_exposed_s"] + b["zero_hidden_s"]

    assert comm(3) / comm(0) == pytest.approx(1.5, rel=0.03)


def test_fabric_quality_orders_efficiency_and_gap_widens(cluster_on, constants):
    m = preset_model("llama-3-70b")
    fabrics = ["ib-ndr-400", "roce-400-lossless", "roce-400-lossy", "eth-tcp-100"]
    eff = {}
    for nodes in (8, 32):
        layout = Layout(dp=nodes // 4, tp=8, pp=4, zero_stage=1, sequence_parallel=True)
        eff[nodes] = [estimate(cluster_on(f, nodes), m, Training(256, 1), layout,
                               constants).scaling_efficiency for f in fabrics]
    for nodes in (8, 32):
        ib, lossless, lossy, tcp = eff[nodes]
        assert ib >= lossless > lossy > tcp
    gap8 = np.array(eff[8][0]) - np.array(eff[8][1:])
    gap32 = np.array(eff[32][0]) - np.array(eff[32][1:])
    assert np.all(gap32 >= gap8) and gap32[-1] > gap8[-1] + 0.03
    assert eff[32][-1] < eff[8][-1]


def test_weak_fabric_doubling_gpus_buys_little(hgx_h100, fabrics, constants):
    # Two 100 GbE NICs per node without RDMA: the gradient all-reduce dominates. Gradients are
    # sharded too (ZeRO-2, DeepSpeed's stage: Megatron-Core has none, and each framework
    # reduces in buckets of its own size), so the layout fits with the policy's headroom to spare.
    server = replace(hgx_h100, nics_per_node=2, nic_rate_gbps=100.0, gpudirect_rdma=False)
    m = preset_model("llama-3-8b")
    runs = {n: estimate(Cluster(server, fabrics["eth-tcp-100"], n, False), m, Training(64, 1),
                        Layout(dp=8 * n, tp=1, pp=1, zero_stage=2, framework="deepspeed"),
                        constants) for n in (4, 8)}
    assert runs[8].memory["fits"]
    gain = runs[4].step_time_s / runs[8].step_time_s
    # doubling GPUs buys well under 2x (at 4 nodes ZeRO-2 reduce-scatters each of its two
    # micro-batches, so the smaller cluster moves more bytes per step than the larger one)
    assert gain < 1.6
    assert runs[8].communication_share > 0.4
    assert "Network-bound" in runs[8].bottleneck


def test_tensor_parallel_across_nodes_is_flagged_and_slow(cluster_on, constants):
    m = LLAMA_70B_KV16
    cl = cluster_on("ib-ndr-400", 4)
    inside = estimate(cl, m, Training(64, 1), Layout(dp=2, tp=8, pp=2, zero_stage=1, sequence_parallel=True),
                      constants)
    across = estimate(cl, m, Training(64, 1), Layout(dp=2, tp=16, pp=1, zero_stage=1, sequence_parallel=True),
                      constants)
    # Twice the all-reduces per GPU (80 layers instead of 40), each at most as fast as NVLink.
    assert across.breakdown["tp_exposed_s"] > 1.9 * inside.breakdown["tp_exposed_s"]
    assert across.step_time_s > 1.15 * inside.step_time_s
    assert "spans nodes" in across.bottleneck
    assert any("exceeds 8 GPUs per node" in a for a in across.assumptions)
    assert "spans nodes" not in inside.bottleneck


def test_tensor_parallel_across_a_slower_fabric_hurts_badly(cluster_on, constants):
    m = LLAMA_70B_KV16
    cl = cluster_on("roce-100-lossless", 4)
    inside = estimate(cl, m, Training(64, 1), Layout(dp=2, tp=8, pp=2, zero_stage=1, sequence_parallel=True),
                      constants)
    across = estimate(cl, m, Training(64, 1), Layout(dp=2, tp=16, pp=1, zero_stage=1, sequence_parallel=True),
                      constants)
    assert across.step_time_s > 1.5 * inside.step_time_s
    assert "spans nodes" in across.bottleneck


def test_validate_layout_reports_unphysical_input(cluster_on, constants, fabrics):
    m = preset_model("llama-3-70b")
    cl = cluster_on("ib-ndr-400", 2)
    fields = lambda probs: {f for f, _ in probs}
    assert validate_layout(cl, m, Training(16, 1), Layout(2, 8, 1)) == []
    assert "nodes" in fields(validate_layout(replace(cl, nodes=0), m, Training(16, 1),
                                             Layout(2, 8, 1)))
    assert "tp" in fields(validate_layout(cl, m, Training(16, 1), Layout(
        dp=1, tp=3, pp=1)))
    assert "dp" in fields(validate_layout(cl, m, Training(16, 1), Layout(4, 8, 1)))
    assert "global_batch" in fields(validate_layout(cl, m, Training(15, 1), Layout(2, 8, 1)))
    moe = preset_model("mixtral-8x7b")
    assert "ep" in fields(validate_layout(cl, moe, Training(16, 1), Layout(2, 8, 1, ep=3)))
    a100 = Cluster(Server("a", "a", A100_SXM, 8, 8, 200, 4, True), fabrics["ib-hdr-200"], 2, True)
    assert "precision" in fields(validate_layout(a100, m, Training(16, 1, "fp8"),
                                                 Layout(2, 8, 1)))
    with pytest.raises(ValueError):
        estimate(cl, m, Training(15, 1), Layout(2, 8, 1), constants)


def test_fp8_is_faster_than_bf16_where_supported(cluster_on, constants):
    m = preset_model("llama-3-8b")
    cl = cluster_on("ib-ndr-400", 1)
    bf16 = estimate(cl, m, Training(16, 1), Layout(8, 1, 1, zero_stage=1), constants)
    fp8 = estimate(cl, m, Training(16, 1, "fp8"), Layout(8, 1, 1, zero_stage=1), constants)
    assert fp8.step_time_s < bf16.step_time_s < 2 * fp8.step_time_s


def test_moe_expert_parallel_all_to_all_costs_time(cluster_on, constants):
    m = preset_model("mixtral-8x7b")
    e = estimate(cluster_on("roce-400-lossless", 2), m, Training(64, 1),
                 Layout(dp=8, tp=2, pp=1, ep=8, zero_stage=1, sequence_parallel=True), constants)
    assert e.breakdown["ep_exposed_s"] > 0


def test_full_recompute_reruns_the_expert_all_to_alls_as_the_tensor_all_reduces(cluster_on,
                                                                                constants):
    """Full recompute re-runs each layer's forward, its token dispatch and combine included:
    6 all-to-alls per layer instead of 4, as the tensor-parallel all-reduces."""
    m = preset_model("mixtral-8x7b")
    cl = cluster_on("roce-400-lossless", 4)

    def sent(recompute):
        e = estimate(cl, m, Training(64, 1), Layout(dp=16, tp=2, pp=1, ep=8, zero_stage=1,
                                                    sequence_parallel=True,
                                                    recompute=recompute), constants)
        b = e.breakdown
        return b["tp_exposed_s"] + b["tp_hidden_s"], b["ep_exposed_s"] + b["ep_hidden_s"]

    (tp_sel, ep_sel), (tp_full, ep_full) = sent("selective"), sent("full")
    assert ep_sel > 0 and tp_sel > 0
    assert tp_full == pytest.approx(1.5 * tp_sel, rel=1e-9)
    assert ep_full == pytest.approx(1.5 * ep_sel, rel=1e-9)


def test_vectorised_path_equals_scalar_path(hgx_h100, fabrics, constants):
    m = preset_model("llama-3-70b")
    configs = [
        ("ib-ndr-400", 8, True, Layout(8, 8, 1, zero_stage=3, sequence_parallel=True), 1),
        ("roce-400-lossy", 4, True, Layout(4, 8, 1, zero_stage=1, recompute="full"), 2),
        ("eth-tcp-100", 16, False, Layout(8, 4, 4, virtual_stages=2, recompute="none"), 1),
        ("roce-100-lossless", 2, False, Layout(1, 8, 2), 1),
        ("ib-hdr-200", 32, True, Layout(16, 8, 2, zero_stage=1, sequence_parallel=True), 2),
    ]
    scalar, rows = [], []
    for fid, nodes, gdr, layout, mb in configs:
        cl = Cluster(hgx_h100, fabrics[fid], nodes, gdr)
        tr = Training(128, mb)
        scalar.append(estimate(cl, m, tr, layout, constants))
        row = cl.as_arrays()
        row.update(layout_arrays(layout, tr))
        rows.append(row)
    batch = {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}
    out = estimate_batch(batch, m, Training(128, 1), constants)
    assert out["valid"].all()
    for i, e in enumerate(scalar):
        assert out["step_time_s"][i] == pytest.approx(e.step_time_s, rel=1e-12)
        assert out["scaling_efficiency"][i] == pytest.approx(e.scaling_efficiency, rel=1e-12)
        assert out["mfu"][i] == pytest.approx(e.mfu, rel=1e-12)
        assert out["memory_total_gb"][i] == pytest.approx(e.memory["total_gb"], rel=1e-12)
        for k in BREAKDOWN_KEYS:
            assert out[k][i] == pytest.approx(e.breakdown[k], rel=1e-12, abs=1e-15)


# --------------------------------------------------------------------------- overlap physics

def test_fsdp_forward_gathers_hide_only_behind_forward_compute(fabrics, constants):
    """All ZeRO-3 traffic would fit behind the whole step's compute, but the forward gathers do
    not fit behind forward compute alone (a quarter of it with full recomputation): the excess
    must be exposed, not hidden behind backward compute that comes later."""
    m = preset_model("llama-3-70b")
    # 6 NICs: the step's traffic (its forward gathers, a quarter of it) within 0.8 of its
    # compute, the forward gathers above 0.8 of the forward's
    srv = Server("h100-6x100", "8x H100, 6x 100GbE RoCE", H100_SXM, 8, 6, 100.0, 5, True)
    cl = Cluster(srv, fabrics["roce-100-lossless"], 4, True)
    e = estimate(cl, m, Training(32, 1), Layout(dp=32, tp=1, pp=1, zero_stage=3,
                                                recompute="full", framework="fsdp"), constants)
    b = e.breakdown
    ov = constants.overlap_efficiency
    hidden = b["zero_hidden_s"] + b["dp_hidden_s"]
    total = hidden + b["zero_exposed_s"] + b["dp_exposed_s"]
    forward = b["compute_s"] / 4
    ag_forward = (b["zero_hidden_s"] + b["zero_exposed_s"]) / 2
    assert total < ov * b["compute_s"]  # a whole-step overlap rule would hide it all
    assert ag_forward > ov * forward
    assert hidden <= ov * b["compute_s"] + 1e-9
    exposed = b["zero_exposed_s"] + b["dp_exposed_s"]
    assert exposed >= ag_forward - ov * forward - 1e-9
    assert exposed > 0.02 * e.step_time_s


def test_tensor_parallelism_across_nodes_exposes_data_parallel_traffic(cluster_on, constants):
    m = LLAMA_70B_KV16
    within = estimate(cluster_on("ib-ndr-400", 4), m, Training(64, 1),
                      Layout(dp=4, tp=8, pp=1), constants)
    across = estimate(cluster_on("ib-ndr-400", 4), m, Training(64, 1),
                      Layout(dp=2, tp=16, pp=1), constants)
    assert within.breakdown["dp_hidden_s"] > 0
    assert across.breakdown["dp_hidden_s"] == 0 and across.breakdown["dp_exposed_s"] > 0
    assert across.achieved_tflops_per_gpu < 0.85 * within.achieved_tflops_per_gpu


def test_tensor_parallelism_beyond_a_node_costs_up_to_half_the_throughput(constants, fabrics):
    """Narayanan et al. 2021 (arXiv:2104.04473): sub-optimal tensor/pipeline splits give 'up to
    2x lower throughput'; on 64 A100 the (p, t) = (8, 8) split is the best (their Figure 13)."""
    selene = Server("selene", "DGX A100", A100_SXM, 8, 8, 200.0, 4, True)
    cl = Cluster(selene, fabrics["ib-hdr-200"], 8, True)
    gpt = Transformer("GPT 175B", 96, 12288, 96, 96, 4 * 12288, 51200, 2048)
    tput = {t: estimate(cl, gpt, Training(128, 1), Layout(dp=1, tp=t, pp=64 // t,
                                                          recompute="full"),
                        constants).achieved_tflops_per_gpu for t in (8, 16, 32)}
    assert tput[8] > tput[16] > tput[32]
    assert 0.4 < tput[32] / tput[8] < 0.75


def test_each_gradient_bucket_pays_its_own_latency(hgx_h100, fabrics, constants):
    m = preset_model("llama-3-8b")
    cl = Cluster(hgx_h100, fabrics["eth-tcp-25"], 4, False)
    layout = Layout(dp=32, tp=1, pp=1, framework="ddp")  # DDP's buckets: dp_bucket_mb

    def dp_time(consts):
        b = estimate(cl, m, Training(32, 1), layout, consts).breakdown
        return b["dp_exposed_s"] + b["dp_hidden_s"]

    many = dp_time(constants)
    one = dp_time(replace(constants, dp_bucket_mb=1e5))
    buckets = m.params * constants.bytes_per_param_gradients / (constants.dp_bucket_mb * 1e6)
    # ~650 buckets of at least one 30 us TCP latency each, on top of the bandwidth time.
    assert many - one > buckets * 30e-6


# --------------------------------------------------------------------------- weak fabrics

@pytest.mark.parametrize("nics, rate, fabric", [(1, 25.0, "eth-tcp-25"), (2, 25.0, "eth-tcp-25"),
                                                (1, 100.0, "eth-tcp-100"),
                                                (2, 100.0, "eth-tcp-100")])
def test_doubling_gpus_on_tcp_buys_little(fabrics, constants, nics, rate, fabric):
    """Data parallel 8B-class job, 8-GPU servers with one or two TCP NICs: going from one to two
    servers buys at most 40% more throughput and communication takes over a third of the step."""
    m = preset_model("llama-3-8b")
    srv = Server("h100-tcp", "8x H100", H100_SXM, 8, nics, rate, 5, True)
    tput = {}
    for nodes in (1, 2):
        g = 8 * nodes
        e = estimate(Cluster(srv, fabrics[fabric], nodes, False), m, Training(4 * g, 1),
                     Layout(dp=g, tp=1, pp=1, zero_stage=1), constants)
        tput[nodes] = e.tokens_per_s
        if nodes == 2:
            assert e.communication_share >= 0.35
    assert tput[2] / tput[1] <= 1.4


@pytest.mark.parametrize("nodes", [48, 64, 128])
def test_a_faster_tcp_wire_never_loses_across_the_spine(cluster_on, constants, nodes):
    """Under the same per-host socket ceiling, the uplinks carry what the hosts offer: 100 GbE
    (16 nodes per leaf) crosses more leaves than 10 GbE (24) but its flows fill less of each
    port, so it is never slower."""
    m = preset_model("llama-3-70b")
    eff = [estimate(cluster_on(f, nodes), m, Training(16 * nodes, 2),
                    Layout(dp=8 * nodes, tp=1, pp=1, zero_stage=3, recompute="full"),
                    constants).scaling_efficiency
           for f in ("eth-tcp-10", "eth-tcp-25", "eth-tcp-100")]
    assert eff[0] <= eff[1] <= eff[2]


def test_fabric_quality_orders_fsdp_throughput_at_8_and_32_nodes(cluster_on, constants):
    m = preset_model("llama-3-70b")
    for nodes in (8, 32):
        g = 8 * nodes
        tput = [estimate(cluster_on(f, nodes), m, Training(2 * g, 1),
                         Layout(dp=g, tp=1, pp=1, zero_stage=3, recompute="full"),
                         constants).tokens_per_s
                for f in ("ib-ndr-400", "roce-400-lossless", "roce-400-lossy", "eth-tcp-100")]
        ib, lossless, lossy, tcp = tput
        assert ib >= lossless > lossy > tcp


def _attention_time(cluster, layout, constants):
    m = replace(preset_model("llama-3-8b"), seq_len=32768)
    e = estimate(cluster, m, Training(8, 1), layout, constants)
    return e.breakdown["compute_s"]


def test_the_hopper_kernel_is_faster_than_flashattention_2_on_h100_only(hgx_h100, fabrics,
                                                                       constants):
    h100 = Cluster(hgx_h100, fabrics["ib-ndr-400"], 1, True)
    a100 = Cluster(replace(hgx_h100, gpu=A100_SXM), fabrics["ib-ndr-400"], 1, True)
    lay = lambda kernel: Layout(8, 1, 1, zero_stage=3, framework="fsdp", recompute="full",
                                attention_kernel=kernel)
    assert _attention_time(h100, lay("flash3"), constants) < 0.8 * _attention_time(
        h100, lay("flash2"), constants)
    # Ampere has no FlashAttention-3: asking for it runs FlashAttention-2.
    assert _attention_time(a100, lay("flash3"), constants) == _attention_time(
        a100, lay("flash2"), constants)
    # Without a kernel named, the framework's: Megatron-Core's Transformer Engine on Hopper.
    assert Layout(8, 1, 1).fused_attention_kernel == "flash3"
    assert Layout(8, 1, 1, framework="fsdp").fused_attention_kernel == "flash2"


def test_flashattention_in_triton_is_slower_than_flashattention_2(hgx_h100, fabrics, constants):
    # llm-foundry's attn_impl triton runs at FlashAttention-1's speed, which FlashAttention-2
    # doubles (Dao 2023 Figures 4 and 7): a long-sequence step spends more in attention.
    h100 = Cluster(hgx_h100, fabrics["ib-ndr-400"], 1, True)
    a100 = Cluster(replace(hgx_h100, gpu=A100_SXM), fabrics["ib-ndr-400"], 1, True)
    lay = lambda kernel: Layout(8, 1, 1, zero_stage=3, framework="fsdp", recompute="full",
                                attention_kernel=kernel)
    for cluster in (h100, a100):
        assert _attention_time(cluster, lay("triton"), constants) > 1.3 * _attention_time(
            cluster, lay("flash2"), constants)


def test_an_unknown_attention_kernel_is_named(cluster_on, constants):
    problems = validate_layout(cluster_on("ib-ndr-400", 1), preset_model("llama-3-8b"),
                               Training(8, 1), Layout(8, 1, 1, attention_kernel="flash9"))
    assert [f for f, _ in problems] == ["attention_kernel"]


# --------------------------------------------------------------------------- network physics

FABRIC_ORDER = ("ib-ndr-400", "roce-400-lossless", "roce-400-lossy", "eth-tcp-100")


def test_8b_data_parallel_on_128_h100_exposes_communication_on_every_fabric(hgx_h100, fabrics,
                                                                           constants):
    m = preset_model("llama-3-8b")
    share = {}
    for f in ("ib-ndr-400", "roce-400-lossless", "roce-100-lossless", "roce-100-lossy",
              "eth-tcp-100"):
        e = estimate(Cluster(hgx_h100, fabrics[f], 16, True), m, Training(1024, 1),
                     Layout(dp=128, tp=1, pp=1, zero_stage=1), constants)
        share[f] = e.communication_share
        assert e.communication_share > 0.002, f
        assert e.breakdown["overlap_slowdown_s"] > 0
    assert share["ib-ndr-400"] < share["roce-100-lossless"] < share["roce-100-lossy"]
    assert share["ib-ndr-400"] < 0.5 * share["roce-100-lossless"]


def test_70b_efficiency_orders_the_fabrics_and_gaps_widen_with_nodes(hgx_h100, fabrics,
                                                                      constants):
    m = preset_model("llama-3-70b")
    eff = {}
    for nodes in (8, 32, 128):
        eff[nodes] = [estimate(Cluster(hgx_h100, fabrics[f], nodes, True), m,
                               Training(16 * nodes, 1),
                               Layout(dp=nodes * 8 // 32, tp=8, pp=4, virtual_stages=5,
                                      zero_stage=1), constants).scaling_efficiency
                      for f in FABRIC_ORDER]
        ib, lossless, lossy, tcp = eff[nodes]
        assert ib >= lossless > lossy > tcp
    for worse in (1, 2, 3):
        gaps = [eff[n][0] - eff[n][worse] for n in (8, 32, 128)]
        # Strictly: interleaving hides most of the data-parallel traffic behind the backwards
        # of the chunks still to run, so the gaps are small, but each fabric's grows.
        assert gaps[0] < gaps[1] < gaps[2], (FABRIC_ORDER[worse], gaps)


def test_zero2_reduce_scatters_every_micro_batch(cluster_on, constants):
    m = preset_model("llama-3-8b")
    cl = cluster_on("roce-100-lossless", 4)

    def dp_traffic(zero, global_batch):
        e = estimate(cl, m, Training(global_batch, 1),
                     Layout(dp=32, tp=1, pp=1, zero_stage=zero, framework="deepspeed"), constants)
        return e.breakdown["dp_exposed_s"] + e.breakdown["dp_hidden_s"]

    # ZeRO-1 all-reduces once per step whatever the accumulation; ZeRO-2 reduce-scatters its
    # sharded gradients every micro-batch: four micro-batches, four times the reduce-scatter.
    assert dp_traffic(1, 128) == pytest.approx(dp_traffic(1, 32), rel=1e-9)
    assert dp_traffic(2, 128) == pytest.approx(4 * dp_traffic(2, 32), rel=1e-9)


def test_expert_gradients_reduce_over_the_expert_data_parallel_group(cluster_on, constants):
    moe = Transformer("moe", 8, 1024, 16, 16, 4096, 32000, 2048, experts=32, top_k=2)
    cl = cluster_on("roce-100-lossless", 4)

    def dp_traffic(ep):
        e = estimate(cl, moe, Training(64, 1), Layout(dp=32, tp=1, pp=1, ep=ep), constants)
        return e.breakdown["dp_exposed_s"] + e.breakdown["dp_hidden_s"]

    # ep = dp: each expert lives on one rank, its gradients need no reduction at all; only
    # the dense weights (a few percent of this model) are all-reduced
    assert dp_traffic(32) < 0.2 * dp_traffic(1)
    assert dp_traffic(32) < dp_traffic(16) < dp_traffic(1)


def test_straggler_penalty_counts_each_collectives_own_group(cluster_on, constants):
    m = preset_model("llama-3-70b")
    cl = cluster_on("roce-400-lossless", 32)
    e = estimate(cl, m, Training(256, 1), Layout(dp=32, tp=8, pp=1, zero_stage=1,
                                                 overlap_grad_reduce=False), constants)
    # dp's traffic (ZeRO-1: the gradients' reduce-scatter and the weights' all-gather, both
    # exposed in full here) waits for the slowest of its 32 ranks, not of all 256 GPUs
    b = e.breakdown
    whole = float(straggler_stretch(cl.fabric.jitter_cv, 256)) - 1
    group = float(straggler_stretch(cl.fabric.jitter_cv, 32)) - 1
    exposed = b["dp_exposed_s"] + b["zero_exposed_s"]
    assert b["zero_exposed_s"] > 0
    assert b["straggler_s"] == pytest.approx(exposed * group, rel=0.02)
    assert b["straggler_s"] < exposed * whole


def test_compute_stragglers_grow_with_the_gpus_that_wait_for_each_other(cluster_on, constants):
    m = preset_model("llama-3-8b")
    for nodes in (1, 16):
        cl = cluster_on("ib-ndr-400", nodes)
        e = estimate(cl, m, Training(8 * nodes * 4, 1), Layout(dp=8 * nodes, tp=1, pp=1),
                     constants)
        stretch = float(straggler_stretch(constants.compute_jitter_cv, cl.gpus)) - 1
        assert e.breakdown["compute_straggler_s"] == pytest.approx(
            e.breakdown["compute_s"] * stretch, rel=1e-9)
    assert stretch > 0.03  # 128 GPUs: the slowest is ~3% behind the median


def test_16_bit_gradient_reduce_halves_megatrons_gradient_bytes(cluster_on, constants):
    m = preset_model("llama-3-8b")
    cl = cluster_on("ib-ndr-400", 4)

    def run(**kw):
        layout = Layout(dp=32, tp=1, pp=1, zero_stage=1, overlap_grad_reduce=False, **kw)
        return estimate(cl, m, Training(64, 1), layout, constants)

    usual, fp32, bf16 = run(), run(grad_reduce_in_fp32=True), run(grad_reduce_in_fp32=False)
    # unstated, Megatron keeps and reduces FP32 main gradients
    assert usual.breakdown == fp32.breakdown
    assert Layout(dp=1, tp=1, pp=1).fp32_gradients
    assert not Layout(dp=1, tp=1, pp=1, framework="fsdp").fp32_gradients
    # grad_reduce_in_fp32 false: a 16-bit buffer, half the bytes held and sent (the exposed
    # reduce is not quite half: each bucket's latency stays)
    assert bf16.memory["gradients_gb"] == pytest.approx(fp32.memory["gradients_gb"] / 2)
    assert 0.4 < bf16.breakdown["dp_exposed_s"] / fp32.breakdown["dp_exposed_s"] < 0.6


def test_distributed_optimizer_gathers_the_weights_behind_the_next_forward(cluster_on, constants):
    m = preset_model("llama-3-8b")
    cl = cluster_on("ib-ndr-400", 4)

    def parts(**kw):
        """(exposed, total) of the gradients' reduction and of the weights' all-gather."""
        b = estimate(cl, m, Training(64, 1), Layout(dp=32, tp=1, pp=1, **kw),
                     constants).breakdown
        return ((b["dp_exposed_s"], b["dp_exposed_s"] + b["dp_hidden_s"]),
                (b["zero_exposed_s"], b["zero_exposed_s"] + b["zero_hidden_s"]))

    # Megatron's usual setting: reduce-scatter of FP32 gradients, all-gather of 16-bit weights
    assert Layout(dp=1, tp=1, pp=1, zero_stage=1).overlaps_param_gather
    assert not Layout(dp=1, tp=1, pp=1, zero_stage=1, framework="deepspeed").overlaps_param_gather
    # only the distributed optimizer has the all-gather: no other stage's default states it,
    # so a layout's columns (every field stated, as a pinned search carries them) read back
    # as a layout its own rules accept
    for stage in (0, 2, 3):
        layout = Layout(dp=1, tp=1, pp=1, zero_stage=stage)
        columns = layout_arrays(layout, Training(8, 1))
        stated = Layout.from_mapping({name: column[0] for name, column in columns.items()})
        assert not layout.overlaps_param_gather and not layout_rules(stated)
    (rs_exp, rs), (ag_exp, ag) = parts(zero_stage=1)
    (rs_exp2, rs2), (ag_exp2, ag2) = parts(zero_stage=1, overlap_param_gather=False)
    # the same two collectives either way, the all-gather at 2 of the gradients' 4 bytes (each
    # bucket's latency kept)
    assert (rs, ag) == (rs2, ag2)
    assert 0.5 < ag / rs < 0.9
    # the all-gather hides behind the next forward only when overlapped; waits in full else
    assert ag_exp < ag and ag_exp2 == ag2 and rs_exp == rs_exp2
    # without the distributed optimizer: one all-reduce, nothing to gather
    _, (_, none) = parts(zero_stage=0)
    assert none == 0 and parts(zero_stage=0) == parts(zero_stage=0, overlap_param_gather=False)


def test_fp8_param_gather_sends_one_byte_per_weight(cluster_on, constants):
    m = preset_model("llama-3-8b")
    cl = cluster_on("ib-ndr-400", 4)

    def gather(precision, fp8_gather):
        b = estimate(cl, m, Training(64, 1, precision),
                     Layout(dp=32, tp=1, pp=1, zero_stage=1, grad_reduce_in_fp32=False,
                            fp8_param_gather=fp8_gather), constants).breakdown
        return b["zero_exposed_s"] + b["zero_hidden_s"]

    # weights gathered in FP8: half the bytes (each bucket's latency stays)
    assert 0.5 < gather("fp8", True) / gather("fp8", False) < 0.9
    # only FP8 training has FP8 weights to gather: elsewhere the setting is refused
    with pytest.raises(ValueError, match="fp8_param_gather"):
        gather("bf16", True)


def test_tp_comm_overlap_leaves_its_exposed_share_inside_a_node(cluster_on, constants):
    """Userbuffers' overlap keeps tp_comm_overlap_exposed_share of the tensor-parallel traffic
    on the critical path and hides the rest, which then pays the overlap slowdown; a group
    that crosses nodes keeps all of it exposed."""
    m = preset_model("gpt-3-175b")
    cl = cluster_on("ib-ndr-400", 8)

    def run(tp, overlap):
        pp = 32 // tp
        layout = Layout(dp=64 // (tp * pp), tp=tp, pp=pp, zero_stage=1, sequence_parallel=True,
                        recompute="full", tp_comm_overlap=overlap)
        return estimate(cl, m, Training(64, 1, "bf16"), layout, constants)

    plain, overlapped = run(4, False).breakdown, run(4, True)
    b = overlapped.breakdown
    total = plain["tp_exposed_s"]
    # full recompute: six all-reduces' worth a layer, four of them forward (two re-run), each
    # leaving tp_comm_overlap_exposed_share waiting
    share = constants.tp_comm_overlap_exposed_share * 4 / 6
    assert plain["tp_hidden_s"] == 0 and total > 0
    assert b["tp_exposed_s"] == pytest.approx(share * total)
    assert b["tp_hidden_s"] == pytest.approx((1 - share) * total)
    assert b["overlap_slowdown_s"] - plain["overlap_slowdown_s"] == pytest.approx(
        constants.overlap_compute_slowdown * b["tp_hidden_s"])
    assert overlapped.step_time_s < run(4, False).step_time_s
    assert any("userbuffers" in a for a in overlapped.assumptions)
    # tp 16 on 8-GPU nodes: the group crosses nodes, and nothing is hidden
    across = run(16, True).breakdown
    assert across["tp_hidden_s"] == 0 and across["tp_exposed_s"] == run(16, False).breakdown[
        "tp_exposed_s"]


@pytest.mark.parametrize("changes, field", [
    ({"sequence_parallel": False}, "tp_comm_overlap"),
    ({"framework": "fsdp", "zero_stage": 3}, "tp_comm_overlap"),
])
def test_tp_comm_overlap_needs_sequence_parallelism_in_megatron(changes, field):
    layout = Layout(**{"dp": 2, "tp": 4, "pp": 1, "sequence_parallel": True, "tp_comm_overlap": True,
                       **changes})
    assert field in [name for name, _ in layout_rules(layout)]
    assert not layout_rules(Layout(dp=2, tp=4, pp=1, sequence_parallel=True,
                                   tp_comm_overlap=True))


# --------------------------------------------------------------------------- row independence

def _mixed_batch(model, rng, n):
    """`n` candidates on every shipped fabric and several servers, every layout field drawn at
    random (valid or not): each ZeRO stage, offload, framework, hybrid sharding, context and
    expert parallelism, recompute, gradient and weight-gather settings, with collectives inside
    and across nodes and spines."""
    gpus = shipped().gpus
    servers = [Server(f"s-{g}-{k}", g, gpus[g], 8, k, r, gen, gdr)
               for g in ("a100-80gb-sxm", "h100-sxm", "b200")
               for k, r, gen, gdr in ((8, 400.0, 5, True), (2, 100.0, 4, False))]
    fabrics = list(shipped().fabrics.values())
    rows = []
    for _ in range(n):
        nodes = int(2 ** rng.integers(0, 8))
        cluster = Cluster(servers[rng.integers(len(servers))],
                          fabrics[rng.integers(len(fabrics))], nodes, bool(rng.integers(0, 2)))
        tp, pp, cp = (int(2 ** rng.integers(0, k)) for k in (5, 4, 3))
        row = cluster.as_arrays()
        row.update({
            "dp": np.array([max(cluster.gpus // (tp * pp * cp), 1)]), "tp": np.array([tp]),
            "pp": np.array([pp]), "cp": np.array([cp]),
            "ep": np.array([int(2 ** rng.integers(0, 4)) if model.experts > 1 else 1]),
            "virtual_stages": np.array([int(rng.integers(1, 3))]),
            "zero_stage": np.array([int(rng.integers(0, 4))]),
            "sequence_parallel": np.array([bool(rng.integers(0, 2))]),
            "recompute": np.array([int(rng.integers(0, 3))]),
            "recompute_layers": np.array([int(rng.integers(0, 3))]),
            "micro_batch": np.array([int(2 ** rng.integers(0, 3))]),
            "shard_group": np.array([int(rng.choice([0, 0, 2, 8]))]),
            "offload": np.array([int(rng.integers(0, 3))]),
            "framework": np.array([int(rng.integers(0, len(FRAMEWORKS)))]),
            "flash_attention": np.array([bool(rng.random() < 0.8)]),
            "fused_cross_entropy": np.array([bool(rng.integers(0, 2))]),
            "grad_reduce_in_fp32": np.array([bool(rng.integers(0, 2))]),
            "overlap_param_gather": np.array([bool(rng.integers(0, 2))]),
            "fp8_param_gather": np.array([bool(rng.integers(0, 2))]),
            "embedding_in_pipeline_split": np.array([bool(rng.integers(0, 2))]),
            "tp_comm_overlap": np.array([bool(rng.integers(0, 2))]),
        })
        rows.append(row)
    return rows


@pytest.mark.parametrize("preset, precision", [("llama-3-70b", "bf16"), ("mixtral-8x7b", "fp8")])
def test_each_candidate_gets_the_same_figures_whatever_else_is_in_its_batch(constants, preset,
                                                                            precision):
    """The batched model prices each collective only on the rows that read it and shares a
    group's span, rows and links between the collectives on it: every output of a row must be
    the one it gets alone, in any order and beside any other candidates, bit for bit, where
    ECMP hashes flows across a spine too (topology.hashed_busiest stops each row's sum on its
    own terms)."""
    model = preset_model(preset)
    training = Training(4096, 1, precision=precision)
    rows = _mixed_batch(model, np.random.default_rng(16), 64)
    batch = {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}
    with np.errstate(all="ignore"):
        together = estimate_batch(batch, model, training, constants)
        order = np.random.default_rng(3).permutation(len(rows))
        shuffled = estimate_batch({k: v[order] for k, v in batch.items()}, model, training,
                                  constants)
        alone = [estimate_batch(r, model, training, constants) for r in rows]
    hashed = ((batch["fabric_kind"] != FABRIC_KINDS.index("infiniband")) & ~batch["fabric_adaptive_routing"]
              & (batch["nodes"] > batch["fabric_nodes_per_leaf"]))
    assert together["valid"].any() and not together["valid"].all()
    assert hashed.any() and not hashed.all()
    for key, column in together.items():
        real = column.dtype.kind == "f"
        assert np.array_equal(shuffled[key], column[order], equal_nan=real), key
        each = np.concatenate([a[key] for a in alone])
        assert np.array_equal(each, column, equal_nan=real), key



def test_synchronous_zero3_rows_get_their_own_figures_beside_any_others(constants):
    """DeepSpeed's 2021 ZeRO-3 is priced tensor by tensor on its own rows (sizing/step.py
    _synchronous_zero3): half the batch on it, the rest anything, every output of a row is
    the one it gets alone, bit for bit."""
    model = preset_model("llama-3-8b")
    training = Training(4096, 1)
    rng = np.random.default_rng(7)
    rows = _mixed_batch(model, rng, 48)
    for row in rows[::2]:
        row["framework"] = np.array([FRAMEWORKS.index("megatron-deepspeed-2021")])
        row["zero_stage"] = np.array([3])
        # DeepSpeed's pipeline engine takes no ZeRO-3: these rows shard without stages.
        gpus = row["gpus_per_node"] * row["nodes"]
        row["dp"] = np.maximum(gpus // (row["tp"] * row["cp"]), 1)
        row["pp"], row["virtual_stages"] = np.array([1]), np.array([1])
    batch = {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}
    with np.errstate(all="ignore"):
        together = estimate_batch(batch, model, training, constants)
        alone = [estimate_batch(r, model, training, constants) for r in rows]
    assert together["valid"][::2].sum() >= 8 and together["zero_exposed_s"][::2].max() > 0
    for key, column in together.items():
        each = np.concatenate([a[key] for a in alone])
        assert np.array_equal(each, column, equal_nan=column.dtype.kind == "f"), key

# GPT 175B's shape (Narayanan et al. 2021 Table 2): its layers' weight matrices are larger than
# DeepSpeed's stage3_max_reuse_distance, SMALL's are not.
GPT_175B = Transformer("gpt-175b", layers=96, hidden=12288, heads=96, kv_heads=96,
                       ffn_hidden=4 * 12288, vocab=51200, seq_len=2048)


@pytest.mark.parametrize(("model", "gather_passes"), [(SMALL, 2.0), (GPT_175B, 2.75)])
def test_synchronous_zero3_pays_each_rank_of_each_tensors_collective(
        cluster_on, constants, model, gather_passes):
    """DeepSpeed's ZeRO-3 before v0.5.5 gathers and reduce-scatters tensor by tensor through
    lists of per-rank tensors: the host's time per listed tensor is paid by every collective,
    once per rank. Per micro-batch: four weight matrices per layer, gathered for the forward,
    again for the recomputed forward and for the backward, less those kept between the two
    (all of SMALL's, the last of each of GPT 175B's layers), and reduce-scattered once."""
    def step(us_per_rank):
        c = replace(constants, tensor_list_collective_us_per_rank=us_per_rank)
        return estimate(cluster_on("ib-ndr-400", 1), model, Training(16, 1),
                        Layout(dp=8, tp=1, pp=1, zero_stage=3, recompute="full",
                               framework="megatron-deepspeed-2021", flash_attention=False),
                        c).step_time_s
    tensors, micro_batches = 4 * model.layers, 16 / 8
    # In one node no collective waits for a straggler across nodes: the difference is exact.
    per_rank = (step(40.0) - step(10.0)) / 30e-6
    assert per_rank == pytest.approx(8 * tensors * (gather_passes + 1) * micro_batches)


def test_synchronous_zero3_exposes_what_a_prefetching_zero3_hides(cluster_on, constants):
    """The same layout under Megatron-DeepSpeed's current ZeRO-3 and its 2021 engine, with the
    per-rank host cost taken out: the 2021 engine's gradient reduce-scatters are exposed in full
    and only its gathers' network time hides."""
    c = replace(constants, tensor_list_collective_us_per_rank=0.0)
    layout = {"dp": 32, "tp": 1, "pp": 1, "zero_stage": 3, "recompute": "full",
              "flash_attention": False, "grad_reduce_in_fp32": False}
    e = {f: estimate(cluster_on("ib-hdr-200", 4), GPT_175B, Training(64, 2),
                     Layout(**layout, framework=f), c)
         for f in ("megatron-deepspeed", "megatron-deepspeed-2021")}
    now, then = e["megatron-deepspeed"].breakdown, e["megatron-deepspeed-2021"].breakdown
    assert any("before v0.5.5" in a for a in e["megatron-deepspeed-2021"].assumptions)
    assert not any("before v0.5.5" in a for a in e["megatron-deepspeed"].assumptions)
    assert then["dp_hidden_s"] == 0.0 and then["dp_exposed_s"] > 0
    assert now["dp_hidden_s"] > 0
    assert (then["zero_exposed_s"] + then["dp_exposed_s"]
            > now["zero_exposed_s"] + now["dp_exposed_s"])


@pytest.mark.parametrize("recompute", ["none", "selective", "full"])
def test_synchronous_zero3_hides_no_more_than_the_compute_it_runs_under(hgx_h100, fabrics,
                                                                         constants, recompute):
    """On a fabric slow enough that every prefetched gather outlasts the module it runs under,
    the hidden gather time is the overlapped share of the compute, never more: a recomputed
    forward hides its own gathers, not the backward's as well."""
    cluster = Cluster(hgx_h100, fabrics["eth-tcp-10"], 16, True)
    e = estimate(cluster, GPT_175B, Training(16 * 8 * 4, 4),
                 Layout(dp=16 * 8, tp=1, pp=1, zero_stage=3, recompute=recompute,
                        framework="megatron-deepspeed-2021", flash_attention=False), constants)
    b = e.breakdown
    assert b["zero_hidden_s"] > 0.5 * constants.overlap_efficiency * b["compute_s"]
    assert b["zero_hidden_s"] <= constants.overlap_efficiency * b["compute_s"] * (1 + 1e-9)


def test_recomputing_some_layers_re_runs_only_their_collectives(cluster_on, constants):
    """--recompute-num-layers 1 of Mixtral's 32 layers (pp 1): 4 + 2/32 all-to-alls and
    all-reduces per layer, not the 6 of recomputing them all."""
    m = preset_model("mixtral-8x7b")
    cl = cluster_on("roce-400-lossless", 4)

    def sent(recompute, layers=0):
        e = estimate(cl, m, Training(64, 1), Layout(dp=16, tp=2, pp=1, ep=8, zero_stage=1,
                                                    sequence_parallel=True, recompute=recompute,
                                                    recompute_layers=layers), constants)
        b = e.breakdown
        return b["tp_exposed_s"] + b["tp_hidden_s"], b["ep_exposed_s"] + b["ep_hidden_s"]

    (tp_sel, ep_sel), (tp_one, ep_one) = sent("selective"), sent("full", 1)
    assert tp_one == pytest.approx((4 + 2 / 32) / 4 * tp_sel, rel=1e-9)
    assert ep_one == pytest.approx((4 + 2 / 32) / 4 * ep_sel, rel=1e-9)


def test_executed_tflops_count_what_the_kernels_run_not_the_masked_half(cluster_on, constants):
    """Llama 3 at a 128k context (arXiv:2407.21783 Table 4 reports 380 TFLOPs/GPU, 38% MFU):
    the full score matrix counts twice the attention a causal fused kernel runs, so the rate
    the GPUs execute is below the full-matrix model rate, and full recomputation adds to it."""
    m = replace(preset_model("llama-3-70b"), seq_len=131072)
    cluster = cluster_on("ib-ndr-400", 32)

    def at(recompute):
        return estimate(cluster, m, Training(16, 1), Layout(dp=1, tp=8, pp=4, cp=8,
                                                             recompute=recompute), constants)

    full, none = at("full"), at("selective")
    peak = cluster.gpu.peak_tflops("bf16")
    for e in (full, none):
        assert e.model_tflops_per_gpu_causal < e.executed_tflops_per_gpu < peak
        # Narayanan et al. 2021's count takes the whole matrix with recomputation: above what runs.
        assert e.executed_tflops_per_gpu < e.achieved_tflops_per_gpu
    assert full.executed_tflops_per_gpu < full.model_tflops_per_gpu
    # Recomputation is work the GPUs execute and the model FLOPs leave out.
    assert (full.executed_tflops_per_gpu / full.model_tflops_per_gpu
            > none.executed_tflops_per_gpu / none.model_tflops_per_gpu)
