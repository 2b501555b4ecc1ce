"""The data-parallel reduction's buckets per framework and its overlap with interleaved stages."""
import numpy as np

from sizing.hardware import Cluster
from sizing.presets import preset_model
from sizing.step import _bucket_bytes, _interleaved_windows, estimate
from sizing.workload import FRAMEWORKS, Layout, Training


def _columns(framework, dp, overlap=True):
    return {"framework": np.array([FRAMEWORKS.index(framework)]), "dp": np.array([float(dp)]),
            "overlap_grad_reduce": np.array([overlap]), "grad_bucket_mb": np.array([0.0])}


def test_megatron_core_buckets_grow_with_the_data_parallel_size(constants):
    # max(40,000,000, 1,000,000 x dp) parameters, here of 2-byte gradients.
    assert _bucket_bytes(_columns("megatron", 8), 2.0, constants)[0] == 40e6 * 2.0
    assert _bucket_bytes(_columns("megatron", 336), 2.0, constants)[0] == 336e6 * 2.0
    # without overlap_grad_reduce: one bucket of everything
    assert np.isinf(_bucket_bytes(_columns("megatron", 336, overlap=False), 2.0, constants)[0])


def test_deepspeed_and_ddp_buckets(constants):
    assert _bucket_bytes(_columns("deepspeed", 336), 2.0, constants)[0] == 5e8 * 2.0
    assert _bucket_bytes(_columns("ddp", 336), 4.0, constants)[0] == constants.dp_bucket_mb * 1e6


def test_one_virtual_stage_hides_behind_one_micro_batch():
    t, ov = np.array([0.05]), 0.8
    hide, chunk = _interleaved_windows(t, np.array([8.0]), np.array([8.0]), np.array([1.0]), ov)
    assert hide[0] == ov * t[0] and chunk[0] == ov * t[0]


def test_interleaving_hides_behind_the_backwards_still_to_run():
    # 12 chunks, 8 micro-batches of 8 stages: each of the first 11 chunks to finish has a group
    # of 8 chunk-backwards after it, the last its own.
    t, ov = np.array([0.048]), 0.8
    hide, chunk = _interleaved_windows(t, np.array([8.0]), np.array([8.0]), np.array([12.0]), ov)
    assert np.isclose(chunk[0], ov * t[0] / 12)
    assert np.isclose(hide[0], ov * t[0] / 12 * (1 + 11 * 8))


def test_a_stated_bucket_replaces_the_frameworks(constants):
    columns = _columns("megatron", 336) | {"grad_bucket_mb": np.array([104.8576])}
    assert _bucket_bytes(columns, 2.0, constants)[0] == 104.8576e6


def test_smaller_buckets_pay_more_latency_on_a_large_data_parallel_group(hgx_h100, fabrics,
                                                                        constants):
    # GPT-3 175B at DP 336 (MLPerf v3.1's layout): Apex's 100 MiB buckets are more collectives
    # than Megatron-Core's 336M parameters, each with a 335-step ring latency.
    m = preset_model("gpt-3-175b")
    cl = Cluster(hgx_h100, fabrics["ib-ndr-400"], 1344, True)

    def dp_time(**more):
        b = estimate(cl, m, Training(2688, 1, "fp8"),
                     Layout(dp=336, tp=4, pp=8, virtual_stages=12, zero_stage=1,
                            sequence_parallel=True, recompute="none", grad_reduce_in_fp32=False,
                            **more), constants).breakdown
        return b["dp_exposed_s"] + b["dp_hidden_s"]

    assert dp_time(grad_bucket_mb=104.8576) > dp_time()
