"""catalog.warm compiles every kernel of the model, in the one signature every batch then uses."""
import numpy as np
import pytest

from catalog.shipped import shipped
from catalog.warm import warm
from sizing import compute_kernel, kernels, memory_kernel, nccl_kernel, step_kernel
from sizing.hardware import Cluster, Server
from sizing.presets import preset_model
from sizing.step import estimate_batch, layout_arrays
from sizing.workload import Layout, Training

KERNELS = (nccl_kernel._kernel, step_kernel._kernel, compute_kernel._kernel,
           memory_kernel._kernel, memory_kernel._activations)


@pytest.mark.skipif(not kernels.ENABLED, reason="SIZING_KERNELS=numpy: nothing to compile")
def test_warm_compiles_each_kernel_once_for_any_batch():
    assert warm() > 0
    assert all(len(k.signatures) == 1 for k in KERNELS)
    # A batch of another size, columns of other types, read-only or of one value, another model
    rng = np.random.default_rng(3)
    rows = []
    for _ in range(37):
        gpu = shipped().gpus["b200"]
        nodes = int(rng.choice([1, 4]))
        cluster = Cluster(Server("b", gpu.name, gpu, 8, 8, 400.0, 5, True),
                          shipped().fabrics["roce-400-lossless"], nodes, True)
        row = cluster.as_arrays()
        row.update(layout_arrays(Layout(dp=2 * nodes, tp=4, pp=1, ep=2, zero_stage=3),
                                 Training(256, 1)))
        rows.append(row)
    batch = {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}
    batch["tp"] = batch["tp"].astype(np.int32)
    batch["gpu_memory_gb"].setflags(write=False)  # a read-only column the kernels read as given
    batch["cp"] = np.ones(1, int)  # one value for every row
    estimate_batch(batch, preset_model("mixtral-8x7b"), Training(256, 1, "fp8"),
                   shipped().constants)
    assert all(len(k.signatures) == 1 for k in KERNELS)
