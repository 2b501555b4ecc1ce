"""Compiles the model's kernels (sizing.kernels) into numba's on-disk cache by one estimate on
the shipped catalog, so that no API or worker process pays the compile (about 3 s) at its
first request: `python -m catalog.warm`, run by `make install` and where the image is built.

Every kernel takes one signature whatever the candidates (sizing.kernels.column fixes each
column's type), so one transformer estimate that prices all-reduce, reduce-scatter and
all-gather compiles each of them once.
"""
from __future__ import annotations

import time

from catalog.shipped import shipped
from sizing import kernels
from sizing.hardware import Cluster, Server
from sizing.presets import preset_model
from sizing.step import estimate
from sizing.workload import Layout, Training


def warm() -> float:
    """Seconds to compile (or load from the cache) every kernel; 0 with the kernels off."""
    if not kernels.ENABLED:
        return 0.0
    catalog = shipped()
    gpu = catalog.gpus["h100-sxm"]
    server = Server("warm", gpu.name, gpu, 8, 8, 400.0, 5, True)
    cluster = Cluster(server, catalog.fabrics["ib-ndr-400"], 2, True)
    started = time.perf_counter()
    # tp 8 all-reduces; ZeRO-1 over dp 2 reduce-scatters and all-gathers
    estimate(cluster, preset_model("llama-3-8b"), Training(64, 1),
             Layout(dp=2, tp=8, pp=1, zero_stage=1), catalog.constants)
    return time.perf_counter() - started


if __name__ == "__main__":
    print(f"model kernels ready in {warm():.2f} s")
