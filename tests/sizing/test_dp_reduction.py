"""The data-parallel reduction's buckets per framework and its overlap with interleaved stages."""
import numpy as np

from sizing.step import _bucket_bytes, _interleaved_windows
from sizing.workload import FRAMEWORKS


def _columns(framework, dp, overlap=True):
    return {"framework": np.array([FRAMEWORKS.index(framework)]), "dp": np.array([float(dp)]),
            "overlap_grad_reduce": np.array([overlap])}


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
