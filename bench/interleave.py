"""Two sides of a ratio measured turn about (A B A B ...), so a shared machine slows both alike."""
from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Side:
    """Repeats of one side: seconds per run (lower is better) or a rate (higher is better)."""

    values: tuple[float, ...]
    higher_is_better: bool = False

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def best(self) -> float:
        return max(self.values) if self.higher_is_better else min(self.values)


@dataclass(frozen=True)
class Pair:
    """The two sides, and the ratio of each A to the B measured right after it."""

    a: Side
    b: Side

    @property
    def ratios(self) -> tuple[float, ...]:
        return tuple(x / y for x, y in zip(self.a.values, self.b.values))

    @property
    def ratio_median(self) -> float:
        return statistics.median(self.ratios)

    @property
    def ratio_best(self) -> float:
        """The best of the per-turn ratios: the highest for rates, the lowest for times."""
        return max(self.ratios) if self.a.higher_is_better else min(self.ratios)


def interleaved(a: Callable[[], float], b: Callable[[], float], repeats: int,
                higher_is_better: bool = False) -> Pair:
    """Run a, b, a, b, ... `repeats` times each; each call returns its own figure."""
    values_a, values_b = [], []
    for _ in range(repeats):
        values_a.append(a())
        values_b.append(b())
    return Pair(Side(tuple(values_a), higher_is_better), Side(tuple(values_b), higher_is_better))


def figure(pair: Pair, unit: str, scale: float = 1.0, digits: int = 2) -> tuple[str, str]:
    """(A's median and best, B's median and best) as table cells."""
    def cell(side: Side) -> str:
        return (f"median {side.median * scale:,.{digits}f} {unit}, "
                f"best {side.best * scale:,.{digits}f}")
    return cell(pair.a), cell(pair.b)
