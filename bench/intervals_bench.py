"""What goodput and prediction intervals cost on the vectorised path, next to the model alone.

The same candidates (model_bench's) through estimate_batch; then goodput on them, the
calibrated intervals (conformal quantiles only) and the extrapolated ones (one more pass of the
model per draw of the prior on estimated constants). Ratios are against the model alone,
measured in the same run.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.model_bench import GLOBAL_BATCH, as_batch, random_candidates
from bench.search_bench import FULL_CATALOG, shipped_snapshot
from catalog.shipped import shipped
from service.schemas.sizings import SizingRequestSchema
from service.sizing_request import SizingRequest
from service.sizing_run import search
from service.sizing_shown import ranked_uncertainty
from sizing import goodput, intervals
from sizing.goodput import Reliability
from sizing.intervals import Calibration
from sizing.presets import preset_model
from sizing.step import estimate_batch
from sizing.workload import Training

N = 5_000
REPEATS = 3


def best_of(fn, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def measure(n: int = N) -> dict:
    data = shipped()
    constants = data.constants
    reliability = Reliability.from_mapping(data.document["reliability"])
    calibration = Calibration.from_mapping(data.document["uncertainty"])
    model = preset_model("llama-3-70b")
    batch = as_batch(random_candidates(n, np.random.default_rng(7), model, data.fabrics))
    training = Training(GLOBAL_BATCH, 1)
    out = estimate_batch(batch, model, training, constants)
    nodes = batch["nodes"].astype(float)
    size = goodput.checkpoint_bytes(model.params, constants, "bf16")

    def with_goodput():
        estimate_batch(batch, model, training, constants)
        goodput.goodput(reliability, gpus=out["gpus"], nodes=nodes,
                        links=nodes * batch["nics_per_node"],
                        stability=reliability.stability(batch["fabric_kind"],
                                                        batch["fabric_lossless"]),
                        checkpoint_bytes_=size, ideal_hours=np.full(n, 24.0 * 30))

    def figures(r):
        return intervals.headline("transformer", {k: r[k] for k in (
            "step_time_s", "tokens_per_s", "samples_per_s", "mfu", "scaling_efficiency")})

    def calibrated():
        r = estimate_batch(batch, model, training, constants)
        intervals.figure_intervals(figures(r), calibration, np.zeros(n), np.ones(n, bool))

    def extrapolated():
        r = estimate_batch(batch, model, training, constants)
        spread = intervals.step_time_spread(
            lambda c: estimate_batch(batch, model, training, c)["step_time_s"], constants,
            calibration)
        intervals.figure_intervals(figures(r), calibration, spread, np.zeros(n, bool))

    base = best_of(lambda: estimate_batch(batch, model, training, constants))
    return {"candidates": n, "draws": intervals.PRIOR_DRAWS, "model_s": base,
            "goodput_s": best_of(with_goodput), "calibrated_s": best_of(calibrated),
            "extrapolated_s": best_of(extrapolated), **sizing_share()}


def sizing_share() -> dict:
    """A full-catalog sizing (search_bench's) and, within it, the intervals of its ranked
    configurations: the only place a sizing pays for them."""
    snap = shipped_snapshot()
    schema = SizingRequestSchema()
    request = SizingRequest.from_document(schema.dump(schema.load(FULL_CATALOG)))
    found = search(snap, request, lambda _fraction: None)
    return {"search_s": best_of(lambda: search(snap, request, lambda _fraction: None), 1),
            "ranked_intervals_s": best_of(lambda: ranked_uncertainty(found)),
            "ranked": len(found.ranked.order)}


def main():
    m = measure()
    print(f"{m['candidates']} candidates, model alone {m['model_s'] * 1000:.1f} ms")
    for key, label in (("goodput_s", "with goodput"), ("calibrated_s", "with calibrated intervals"),
                       ("extrapolated_s", f"with extrapolated intervals ({m['draws']} draws)")):
        print(f"{label}: {m[key] * 1000:.1f} ms, {m[key] / m['model_s']:.2f}x")
    print(f"full-catalog search {m['search_s']:.2f} s; intervals of its {m['ranked']} ranked "
          f"configurations {m['ranked_intervals_s'] * 1000:.0f} ms, "
          f"{m['ranked_intervals_s'] / m['search_s']:.1%} of it")


if __name__ == "__main__":
    main()
