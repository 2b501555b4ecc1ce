"""Split-conformal prediction intervals from the harness's residuals, and their coverage.

`python -m bench.accuracy --intervals` prints the quantiles of log(measured / predicted) by
category and writes them to catalog/data/uncertainty.yaml (with the rows each came from, and
the GPUs and fabrics those rows measured); every report then says how many measured values
fall inside their p10-p90: on the rows, and leaving each source out of the quantiles.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.accuracy.evaluate import Evaluation, RowResult
from bench.accuracy.specs import TIME_METRICS
from catalog.shipped import DATA_DIR
from sizing.intervals import share_error

FILE = DATA_DIR / "uncertainty.yaml"
# Metrics that are compute's share of a step, in percent (sizing.intervals.SHARES).
SHARE_METRICS = ("scaling_efficiency_pct",)
# p10 and p90: an 80% interval.
LOW, HIGH = 0.1, 0.9
# A category with fewer rows than this takes the quantiles of all rows: the 10th percentile of
# fewer than 9 values is the smallest of them, not an estimate.
MIN_ROWS = 9
# How far apart a prior puts an estimated constant from its value (1 sd, log scale).
PRIOR_LOG_SD = 0.1


def residual(ev: Evaluation, r: RowResult) -> float:
    """log(measured / predicted) as a speed (a time is turned over; a share's is its overhead's,
    SHARE_METRICS): positive when the model is too slow. The leave-one-source-out prediction
    when there is one: the error on data not fitted."""
    predicted = r.loso if r.loso is not None else r.predicted
    spec = ev.specs.specs[r.row]
    if spec.metric in SHARE_METRICS:
        # A share's interval moves its overhead (sizing.intervals.share_bounds), so its error
        # is the overhead's; the scaling rows run data parallelism alone: no bubble.
        return share_error(r.measured / 100, predicted / 100)
    value = math.log(r.measured / predicted)
    return -value if {spec.metric, spec.of} & set(TIME_METRICS) else value


def conformal(values: list[float]) -> tuple[float, float]:
    """Split-conformal bounds at LOW and HIGH: the order statistics at floor(LOW (n+1)) and
    ceil(HIGH (n+1)) (Vovk et al.; Lei et al. 2018), clamped to the sample."""
    ordered = sorted(values)
    n = len(ordered)
    lo = max(math.floor(LOW * (n + 1)), 1)
    hi = min(math.ceil(HIGH * (n + 1)), n)
    return ordered[lo - 1], ordered[hi - 1]


@dataclass(frozen=True)
class Quantiles:
    by_category: dict[str, tuple[float, float]]
    rows: dict[str, tuple[int, ...]]
    pooled: tuple[float, float]
    pooled_rows: tuple[int, ...]

    def of(self, category: str) -> tuple[float, float]:
        return self.by_category.get(category, self.pooled)


def ran(ev: Evaluation, exclude_source: str | None = None) -> list[RowResult]:
    return [r for r in ev.results.values() if r.skipped is None and r.predicted
            and r.source != exclude_source]


def quantiles(ev: Evaluation, exclude_source: str | None = None) -> Quantiles:
    rows = ran(ev, exclude_source)
    by: dict[str, list[RowResult]] = {}
    for r in rows:
        by.setdefault(r.category, []).append(r)
    cats = {c: conformal([residual(ev, r) for r in rs]) for c, rs in by.items()
            if len(rs) >= MIN_ROWS}
    return Quantiles(cats, {c: tuple(sorted(r.row for r in by[c])) for c in cats},
                     conformal([residual(ev, r) for r in rows]),
                     tuple(sorted(r.row for r in rows)))


def inside(ev: Evaluation, r: RowResult, q: Quantiles) -> bool:
    lo, hi = q.of(r.category)
    return lo <= residual(ev, r) <= hi


@dataclass(frozen=True)
class Coverage:
    inside: int
    rows: int

    def words(self) -> str:
        return f"{self.inside / self.rows:.0%} (n={self.rows})" if self.rows else "-"


def coverage(ev: Evaluation) -> dict[str, dict[str, Coverage]]:
    """Share inside p10-p90 by category: fitted rows and check rows with the quantiles as
    shipped (in sample), and every row with quantiles derived without its own source."""
    q = quantiles(ev)
    by_source = {s: quantiles(ev, s) for s in {r.source for r in ran(ev)}}
    out: dict[str, dict[str, Coverage]] = {}
    for category in sorted({r.category for r in ran(ev)}) + ["overall"]:
        rows = [r for r in ran(ev) if category in ("overall", r.category)]

        def share(selected, quant) -> Coverage:
            return Coverage(sum(inside(ev, r, quant(r)) for r in selected), len(selected))

        out[category] = {
            "fitted": share([r for r in rows if r.split != "check"], lambda r: q),
            "check": share([r for r in rows if r.split == "check"], lambda r: q),
            "loso": share(rows, lambda r: by_source[r.source]),
        }
    return out


def hardware_rows(ev: Evaluation) -> tuple[Counter, Counter]:
    """Rows that ran, counted by the GPU and by the fabric they measured."""
    gpus, fabrics = Counter(), Counter()
    for r in ran(ev):
        run = ev.specs.specs[r.row].groups.get("run", {})
        values = {k: v.value for k, v in run.items()}
        system = ev.world.systems.get(values.get("system"), {})
        gpu, fabric = values.get("gpu", system.get("gpu")), values.get("fabric",
                                                                       system.get("fabric"))
        if gpu:
            gpus[str(gpu)] += 1
        if fabric:
            fabrics[str(fabric)] += 1
    return gpus, fabrics


def document(ev: Evaluation) -> str:
    """uncertainty.yaml as written by the command: every value with its source and rows."""
    q = quantiles(ev)
    gpus, fabrics = hardware_rows(ev)
    made = "derived by python -m bench.accuracy --intervals (make intervals)"

    def keyed(index: int) -> list[str]:
        lines = [f"      {c}: {q.by_category[c][index]:.4f}" for c in sorted(q.by_category)]
        return lines + [f"      default: {q.pooled[index]:.4f}"]

    def rows(c: str) -> str:
        return "[" + ", ".join(map(str, q.rows[c] if c != "default" else q.pooled_rows)) + "]"

    def fitted() -> list[str]:
        return ["    fitted_on:"] + [f"      {c}: {rows(c)}"
                                     for c in [*sorted(q.by_category), "default"]]

    def counts(counter: Counter) -> list[str]:
        return [f"      {k}: {v}" for k, v in sorted(counter.items())] + ["      default: 0"]

    out = ["# Prediction intervals of the performance model (sizing/intervals.py). Written by",
           "# python -m bench.accuracy --intervals (make intervals); regenerate it after any",
           "# change to the model or the measurements (a test fails while it is stale); never",
           "# edit it by hand.", "constants:"]
    for name, index, level in (("log_error_p10", 0, "10th"), ("log_error_p90", 1, "90th")):
        out += [f"  {name}:", "    value:", *keyed(index),
                "    unit: log(measured / predicted), speed orientation",
                "    source: >-",
                f"      split-conformal {level} percentile of the residuals of bench/accuracy",
                "      (leave-one-source-out predictions where defined) by category; a category",
                f"      with fewer than {MIN_ROWS} rows takes all rows (default); {made}",
                *fitted()]
    out += ["  estimate_prior_log_sd:", f"    value: {PRIOR_LOG_SD}", "    unit: log scale, 1 sd",
            "    source: >-",
            "      estimate: a constant whose source says estimate is taken as good to about 10%",
            "      (1 sd); it widens the intervals only of configurations whose GPU or fabric",
            "      has no measured row"]
    for name, counter, what in (("measured_rows_by_gpu", gpus, "GPU"),
                                ("measured_rows_by_fabric", fabrics, "fabric")):
        out += [f"  {name}:", "    value:", *counts(counter), "    unit: rows",
                "    source: >-",
                f"      rows of bench/accuracy that ran, by the {what} they measured; {made}"]
    return "\n".join(out) + "\n"


def write(ev: Evaluation, path: Path = FILE) -> None:
    path.write_text(document(ev))


def print_quantiles(ev: Evaluation, out=print) -> None:
    q = quantiles(ev)
    out("Prediction interval quantiles, log(measured / predicted) as a speed:")
    for c in sorted(q.by_category):
        lo, hi = q.by_category[c]
        out(f"  {c:<20} p10 {lo:+.3f} ({math.exp(lo):.2f}x)  p90 {hi:+.3f} ({math.exp(hi):.2f}x)"
            f"  n={len(q.rows[c])}")
    lo, hi = q.pooled
    out(f"  {'all rows (default)':<20} p10 {lo:+.3f} ({math.exp(lo):.2f}x)  p90 {hi:+.3f} "
        f"({math.exp(hi):.2f}x)  n={len(q.pooled_rows)}")
