"""Prediction intervals (p10-p90) of the model's headline numbers, calibrated on measurements.

The model's error on published measurements (bench/accuracy), as quantiles of log(measured /
predicted) by category, is split-conformal calibration: a new configuration's value falls in
[point x e^q10, point x e^q90] as often as the measured rows did. A configuration whose GPU or
fabric has no measured row is extrapolated: its interval is widened by the spread that a prior
on every constant whose source says "estimate" gives, propagated through the vectorised model.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from sizing.constants import built_once

# z of the 90th percentile of a normal: the prior's spread as a p10-p90 half-width.
Z90 = 1.2815515655446004
# Draws of the estimated constants: enough for a spread to within about a quarter of itself
# (the standard error of a standard deviation from k draws is about 1/sqrt(2k)).
PRIOR_DRAWS = 8
PRIOR_SEED = 15
# Figures that are speeds (higher is faster) and times (lower is faster); a time's interval
# is the speed's turned over. MFU is a speed (model FLOPs over the step, so its bounds are the
# step's turned over, as tokens/s's are) that cannot pass the GPUs' peak: it is held at 1.
SPEEDS = ("tokens_per_s", "samples_per_s", "mfu", "mfu_causal", "busbw_gbs", "algbw_gbs",
          "achieved_tflops_per_gpu", "model_tflops_per_gpu", "model_tflops_per_gpu_causal",
          "executed_tflops_per_gpu")
TIMES = ("step_time_s", "time_s", "time_to_train_hours")
# Scaling efficiency is compute's share of the step, not a speed: its error lives in the rest
# of the step (share_bounds).
SHARES = ("scaling_efficiency",)
AT_MOST_ONE = ("mfu", "mfu_causal")
_SCALED = frozenset(SPEEDS + TIMES)
# Which category of measurements calibrates which figure of a configuration.
THROUGHPUT = {"transformer": "c_llm_throughput", "generic": "e_dle_throughput"}
SCALING = "b_cnn_dp_scaling"
COLLECTIVE = "a_nccl_busbw"


@dataclass(frozen=True)
class Calibration:
    """Quantiles of log(measured / predicted) by category and the hardware they cover."""

    log_error_p10: Mapping[str, float]
    log_error_p90: Mapping[str, float]
    estimate_prior_log_sd: float
    measured_rows_by_gpu: Mapping[str, float]
    measured_rows_by_fabric: Mapping[str, float]

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any]) -> Calibration:
        """From the parsed uncertainty.yaml constants (name -> {value, unit, source})."""
        table = table.get("constants", table)
        values = {}
        for f in dataclasses.fields(cls):
            if f.name not in table:
                raise ValueError(f"uncertainty constant missing: {f.name}")
            value = table[f.name]["value"]
            values[f.name] = (MappingProxyType({str(k): float(v) for k, v in value.items()})
                              if isinstance(value, Mapping) else float(value))
        return cls(**values)

    def quantiles(self, category: str) -> tuple[float, float]:
        def of(table: Mapping[str, float]) -> float:
            return table.get(category, table["default"])

        return of(self.log_error_p10), of(self.log_error_p90)

    def calibrated(self, gpu_id: str, fabric_id: str) -> bool:
        """Measured rows exist for this GPU and for this fabric."""
        return (self.measured_rows_by_gpu.get(gpu_id, 0) > 0
                and self.measured_rows_by_fabric.get(fabric_id, 0) > 0)


def widened(q10: float, q90: float, prior_sd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The conformal quantiles widened by the prior's spread, each side in quadrature with
    its distance from zero (a spread of 0 leaves them as they are)."""
    extra = Z90 * np.asarray(prior_sd, float)
    below, above = max(-q10, 0.0), max(q90, 0.0)
    return (q10 - (np.hypot(below, extra) - below), q90 + (np.hypot(above, extra) - above))


def growth(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, ...]:
    """e^lo, e^hi, e^-hi and e^-lo: the factors bounds() scales a speed's or a time's point by,
    worked out once for the figures of a category (figure_intervals), not once per figure."""
    return np.exp(lo), np.exp(hi), np.exp(-hi), np.exp(-lo)


def bounds(name: str, point: np.ndarray, lo: np.ndarray, hi: np.ndarray,
           bubble_share: np.ndarray | float = 0.0,
           factors: tuple[np.ndarray, ...] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """p10 and p90 of a figure from the log-error quantiles of speed (lo <= 0 <= hi mostly);
    `factors`, growth(lo, hi) if the caller has them."""
    point = np.asarray(point, float)
    if name in SHARES:
        return share_bounds(point, lo, hi, bubble_share)
    if name not in _SCALED:
        raise ValueError(f"{name!r} is neither a speed, a time nor a share of the model")
    up_lo, up_hi, down_hi, down_lo = growth(lo, hi) if factors is None else factors
    if name in TIMES:
        return point * down_hi, point * down_lo
    p10, p90 = point * up_lo, point * up_hi
    if name in AT_MOST_ONE:
        p90 = np.minimum(p90, 1.0)
        p10 = np.minimum(p10, p90)
    return p10, p90


def share_bounds(efficiency: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                 bubble_share: np.ndarray | float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """p10 and p90 of scaling efficiency (compute's share of the step) from the log error of
    the step as a speed, applied where the model puts it: in the step's overhead.

    Compute stays (efficiency is against the same GPU's compute, whose error cancels) and the
    step is e^-r as long, the difference being the overhead's. A slower step adds time to
    the overhead: efficiency x e^r, as for any speed. A faster one takes time off it, but
    only the overhead the error can move (exposed communication, stragglers, contention):
    the pipeline bubble is the schedule's share of compute ((pp - 1) / v micro-batches), and
    no overhead goes below zero. Time is taken off in proportion to what is left, so the
    movable share m falls to m x exp((e^-r - 1) / m): the same first-order change as e^r,
    and efficiency stays below compute / (compute + bubble), at most 1.
    """
    e = np.asarray(efficiency, float)
    b = np.asarray(bubble_share, float)
    movable = np.maximum(1.0 - e - b, 0.0)  # shares of the step, so the parts sum to 1

    def at(r):
        change = np.expm1(-np.asarray(r, float))  # the step's added time, a share of it
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            shrunk = movable * np.exp(change / np.where(movable > 0, movable, 1.0))
        after = np.where(change >= 0, movable + change, np.where(movable > 0, shrunk, 0.0))
        return e / (e + b + after)

    return at(lo), at(hi)


def share_error(measured: float, predicted: float, bubble_share: float = 0.0) -> float:
    """The log error r with which share_bounds turns a predicted efficiency into a measured
    one (infinite when the measured one is nearer compute / (compute + bubble) than any
    finite error takes it)."""
    movable = 1.0 - predicted - bubble_share
    after = predicted / measured - predicted - bubble_share  # the movable share measured
    if after >= movable:
        return math.log(measured / predicted)  # a slower step: the speed's error
    if after <= 0.0:
        return math.inf
    stretch = 1.0 + movable * math.log(after / movable)  # e^-r
    return -math.log(stretch) if stretch > 0.0 else math.inf


def bubble_share(r: Mapping[str, np.ndarray]) -> np.ndarray:
    """The pipeline bubble's share of the step (share_bounds) from the model's figures."""
    return np.asarray(r["bubble_s"], float) / np.asarray(r["step_time_s"], float)


def estimated_constants(constants) -> tuple[str, ...]:
    """Constants whose source says "estimate" (for keyed ones: for any of their keys)."""
    out = []
    for f in dataclasses.fields(constants):
        source = constants.sources.get(f.name, "").lower()
        if source.startswith("estimate") or (isinstance(getattr(constants, f.name), Mapping)
                                             and "estimate" in source):
            out.append(f.name)
    return tuple(out)


def _scaled(value: Any, factor: float, capped: bool) -> Any:
    def one(v: float) -> float:
        scaled = v * factor
        return min(scaled, 1.0) if capped and v <= 1.0 else scaled

    if isinstance(value, Mapping):
        return MappingProxyType({k: one(v) for k, v in value.items()})
    return one(value)


def prior_draws(constants, sd: float, draws: int = PRIOR_DRAWS,
                seed: int = PRIOR_SEED) -> list:
    """Copies of the constants with each estimated one scaled by e^N(0, sd), seeded so the
    same request always gets the same interval. Fractions and efficiencies stay at most 1."""
    names = estimated_constants(constants)
    rng = np.random.default_rng(seed)
    factors = np.exp(rng.normal(0.0, sd, size=(draws, len(names))))
    out = []
    for row in factors:
        changes = {name: _scaled(getattr(constants, name), float(x),
                                 name.endswith(("efficiency", "fraction", "share")))
                   for name, x in zip(names, row)}
        out.append(dataclasses.replace(constants, **changes))
    return out


def prior_spread(evaluate: Callable[[Any], np.ndarray], draws: Sequence) -> np.ndarray:
    """Standard deviation of log(step time) over the draws: `evaluate(constants)` gives the
    step times of the configurations, one pass of the vectorised model per draw."""
    logs = np.log(np.stack([np.asarray(evaluate(c), float) for c in draws]))
    return logs.std(axis=0, ddof=1)


def figure_intervals(figures: Mapping[str, Mapping[str, np.ndarray]], calibration: Calibration,
                     prior_sd: np.ndarray, calibrated: np.ndarray,
                     bubble: np.ndarray | float = 0.0) -> dict[str, tuple]:
    """p10 and p90 arrays of each figure, from {category: {figure name: point values}}.

    A calibrated configuration takes the category's conformal quantiles as they are; an
    extrapolated one has them widened by the prior's spread. `bubble`, the pipeline bubble's
    share of each step, bounds scaling efficiency (share_bounds).
    """
    out = {}
    for category, named in figures.items():
        lo, hi = log_bounds(category, calibration, prior_sd, calibrated)
        factors = growth(lo, hi) if _SCALED.intersection(named) else None
        for name, point in named.items():
            out[name] = bounds(name, point, lo, hi, bubble, factors)
    return out


# The draws of the constants used last: seeded, so a catalog version's constants always draw
# the same copies, and building them (a dataclasses.replace per draw) was an eighth of a
# sizing's intervals. Kept per constants object and sd (sizing.constants.built_once).
_DRAWS: dict = {}


def _kept_draws(constants, sd: float) -> tuple:
    return built_once(_DRAWS, constants, sd, lambda: tuple(prior_draws(constants, sd)))


def step_time_spread(evaluate_with: Callable[[Any], np.ndarray], constants,
                     calibration: Calibration) -> np.ndarray:
    """The prior's spread of log(step time), through `evaluate_with(constants)`: one pass of the
    vectorised model per draw of the estimated constants."""
    return prior_spread(evaluate_with, _kept_draws(constants, calibration.estimate_prior_log_sd))


def headline(kind: str, figures: Mapping[str, np.ndarray]) -> dict[str, dict[str, np.ndarray]]:
    """A configuration's figures grouped by the category of measurements that calibrates them:
    scaling efficiency by the scaling rows, everything else by the throughput rows."""
    throughput = {k: v for k, v in figures.items() if k != "scaling_efficiency"}
    out = {THROUGHPUT[kind]: throughput}
    if "scaling_efficiency" in figures:
        out[SCALING] = {"scaling_efficiency": figures["scaling_efficiency"]}
    return out


def score_bounds(raw_score: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                 objective: str) -> tuple[np.ndarray, np.ndarray]:
    """The objective score's p10-p90 (log scale, lower is better): time and cost both scale
    with 1/speed, so balanced (their product) moves twice as far."""
    weight = 2.0 if objective == "balanced" else 1.0
    return raw_score - weight * hi, raw_score - weight * lo


def log_bounds(category: str, calibration: Calibration,
               prior_sd: np.ndarray, calibrated: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The log-error bounds of a category for each configuration (widened when extrapolated)."""
    q10, q90 = calibration.quantiles(category)
    return widened(q10, q90, np.where(np.asarray(calibrated, bool), 0.0, prior_sd))
