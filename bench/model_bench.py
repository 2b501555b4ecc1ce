"""Throughput of the vectorised performance model against a loop of scalar estimates."""
from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.interleave import interleaved
from catalog.shipped import shipped
from sizing import kernels
from sizing.hardware import Cluster, Server
from sizing.presets import preset_model
from sizing.step import estimate, estimate_batch, layout_arrays, validate_layout
from sizing.workload import RECOMPUTE, Layout, Training

N = 20_000
LOOP_SAMPLE = 2_000
GLOBAL_BATCH = 1024


def random_candidates(n, rng, model, fabrics):
    gpus = shipped().gpus
    servers = [Server(f"s-{g.id}-{k}", g.name, g, 8, k, r, 5, True)
               for g in (gpus["a100-80gb-sxm"], gpus["h100-sxm"], gpus["b200"])
               for k, r in ((8, 400.0), (8, 200.0), (2, 100.0))]
    fabric_list = list(fabrics.values())
    out = []
    while len(out) < n:
        server = servers[rng.integers(len(servers))]
        fabric = fabric_list[rng.integers(len(fabric_list))]
        nodes = int(2 ** rng.integers(0, 8))
        gpus = nodes * 8
        tp = int(2 ** rng.integers(0, 5))
        pp = int(2 ** rng.integers(0, 4))
        if gpus % (tp * pp):
            continue
        dp = gpus // (tp * pp)
        mb = int(2 ** rng.integers(0, 3))
        layout = Layout(dp=dp, tp=tp, pp=pp, zero_stage=int(rng.integers(0, 4)),
                        virtual_stages=1 if pp == 1 else int(rng.integers(1, 3)),
                        sequence_parallel=bool(rng.integers(0, 2)),
                        recompute=RECOMPUTE[int(rng.integers(0, 3))])
        training = Training(GLOBAL_BATCH, mb)
        cluster = Cluster(server, fabric, nodes, bool(rng.integers(0, 2)))
        if validate_layout(cluster, model, training, layout):
            continue
        out.append((cluster, training, layout))
    return out


def as_batch(candidates) -> dict:
    """(cluster, training, layout) triples as the arrays estimate_batch takes."""
    rows = []
    for cluster, training, layout in candidates:
        row = cluster.as_arrays()
        row.update(layout_arrays(layout, training))
        rows.append(row)
    return {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}


def measure(n: int = N, loop_sample: int = LOOP_SAMPLE, repeats: int = 3) -> dict:
    """Configurations per second of estimate_batch and of a loop of estimate on the same
    candidates, turn about (batch, loop, batch, loop, ...)."""
    rng = np.random.default_rng(7)
    constants, fabrics = shipped().constants, shipped().fabrics
    model = preset_model("llama-3-70b")
    candidates = random_candidates(n, rng, model, fabrics)
    batch = as_batch(candidates)
    sample = candidates[:loop_sample]
    valid = []

    def vectorised() -> float:
        # The loop's garbage makes full collections due (some 85 ms each in this process):
        # they run here, off the clock, not in whichever side's allocation sets one off.
        gc.collect()
        t0 = time.perf_counter()
        out = estimate_batch(batch, model, Training(GLOBAL_BATCH, 1), constants)
        seconds = time.perf_counter() - t0
        valid.append(bool(out["valid"].all()))
        return n / seconds

    def loop() -> float:
        gc.collect()
        t0 = time.perf_counter()
        for cluster, training, layout in sample:
            estimate(cluster, model, training, layout, constants)
        return len(sample) / (time.perf_counter() - t0)

    # Each side once before either is timed: the first batch loads the compiled kernels from
    # numba's cache (a second or more), which a turn's median would otherwise carry.
    vectorised(), loop()
    valid.clear()
    pair = interleaved(vectorised, loop, repeats, higher_is_better=True)
    return {"candidates": n, "loop_sample": len(sample), "all_valid": all(valid), "pair": pair,
            "vectorised_per_s": pair.a.median, "loop_per_s": pair.b.median}


def measure_kernels(n: int = N, repeats: int = 7) -> dict:
    """Configurations per second of estimate_batch with its compiled kernels and with the
    numpy reference alone (SIZING_KERNELS=numpy), turn about, on the same candidates."""
    if not kernels.ENABLED:
        return {"pair": None}
    rng = np.random.default_rng(7)
    constants, fabrics = shipped().constants, shipped().fabrics
    model = preset_model("llama-3-70b")
    batch = as_batch(random_candidates(n, rng, model, fabrics))
    training = Training(GLOBAL_BATCH, 1)

    def rate(compiled: bool):
        def run() -> float:
            kernels.ENABLED = compiled
            try:
                t0 = time.perf_counter()
                for _ in range(5):
                    estimate_batch(batch, model, training, constants)
                return 5 * n / (time.perf_counter() - t0)
            finally:
                kernels.ENABLED = True
        return run

    rate(True)(), rate(False)()  # compiled or loaded, and warm, before either is timed
    return {"pair": interleaved(rate(True), rate(False), repeats, higher_is_better=True)}


def main():
    m = measure()
    pair = m["pair"]
    print(f"candidates: {m['candidates']} (all valid: {m['all_valid']})")
    print(f"estimate_batch: median {pair.a.median:,.0f} configurations/s (best {pair.a.best:,.0f})")
    print(f"estimate loop:  median {pair.b.median:,.0f} configurations/s (best {pair.b.best:,.0f}), "
          f"{m['loop_sample']} per repeat")
    print(f"speed-up: {pair.ratio_median:,.0f}x (best {pair.ratio_best:,.0f}x)")
    pair = measure_kernels()["pair"]
    if pair is not None:
        print(f"estimate_batch compiled: median {pair.a.median:,.0f}/s, numpy reference "
              f"{pair.b.median:,.0f}/s: {pair.ratio_median:.2f}x (best {pair.ratio_best:.2f}x)")


if __name__ == "__main__":
    main()
