"""Which rows set which constant (read from the catalog's fitted_on fields) and the fit that reproduces it."""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from bench.accuracy.world import Param, World
from catalog.shipped import Shipped

# Golden-section search in log space: the ratio of the bracket after each step.
_GOLDEN = (math.sqrt(5) - 1) / 2
_TOLERANCE = 1e-5  # relative change of a value at which a search stops


@dataclass(frozen=True)
class FitGroup:
    """Figures fitted together on the same rows (their fitted_on lists are equal)."""

    params: tuple[Param, ...]
    rows: tuple[int, ...]


@dataclass(frozen=True)
class Bookkeeping:
    groups: tuple[FitGroup, ...]
    informed: dict[int, tuple[Param, ...]]  # rows looked at when choosing an estimate

    @property
    def fitted_rows(self) -> set[int]:
        return {row for g in self.groups for row in g.rows}


def bookkeeping(shipped: Shipped) -> Bookkeeping:
    """The fitted/seen rows of every constant and fabric figure, from the catalog files alone."""
    fitted: dict[Param, tuple[int, ...]] = {}
    informed: dict[int, list[Param]] = {}

    def named(kind: str, name: str, rows, store) -> None:
        if isinstance(rows, dict):
            for key, listed in rows.items():
                store(Param(kind, name, key), listed)
        elif rows is not None:
            store(Param(kind, name, None), rows)

    def fit(param: Param, rows) -> None:
        fitted[param] = tuple(sorted(rows))

    def seen(param: Param, rows) -> None:
        for row in rows:
            informed.setdefault(row, []).append(param)

    for name, entry in shipped.document["model"].items():
        named("constant", name, entry.get("fitted_on"), fit)
        named("constant", name, entry.get("informed_by"), seen)
    for entry in [*shipped.document["fabrics"], *shipped.reference["fabrics"]]:
        for figure, rows in entry.get("fitted_on", {}).items():
            fit(Param("fabric", entry["id"], figure), rows)
    by_rows: dict[tuple[int, ...], list[Param]] = {}
    for param, rows in sorted(fitted.items()):
        by_rows.setdefault(rows, []).append(param)
    groups = tuple(FitGroup(tuple(params), rows) for rows, params in by_rows.items())
    return Bookkeeping(groups, {row: tuple(p) for row, p in informed.items()})


def _bounds(param: Param, value: float) -> tuple[float, float]:
    name = param.key if param.kind == "fabric" else param.name
    if name.endswith(("fraction", "efficiency")):
        return 0.01, 1.0
    return value / 50, value * 50


def _golden(objective: Callable[[float], float], low: float, high: float) -> float:
    a, b = math.log(low), math.log(high)
    c, d = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
    fc, fd = objective(math.exp(c)), objective(math.exp(d))
    while b - a > _TOLERANCE:
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - _GOLDEN * (b - a)
            fc = objective(math.exp(c))
        else:
            a, c, fc = c, d, fd
            d = a + _GOLDEN * (b - a)
            fd = objective(math.exp(d))
    return math.exp((a + b) / 2)


def fit(group: FitGroup, rows: tuple[int, ...], world: World,
        predict: Callable[[int, World], float], measured: dict[int, float]) -> dict[Param, float]:
    """Least squares of log(predicted / measured) over `rows`, the group's figures free and
    everything else held at the world's values. Coordinate descent for joint figures."""
    values = {p: world.get(p) for p in group.params}

    def loss(trial: dict[Param, float]) -> float:
        w = world.with_values(trial)
        return sum(math.log(predict(row, w) / measured[row]) ** 2 for row in rows)

    for _ in range(40 if len(values) > 1 else 1):
        before = dict(values)
        for param in group.params:
            low, high = _bounds(param, world.get(param))
            values[param] = _golden(lambda x, p=param: loss({**values, p: x}), low, high)
        if all(abs(values[p] / before[p] - 1) < 1e-4 for p in values):
            break
    return values
