"""The memory rows (memory_measurements.csv) run through the memory model (sizing/memory.py).

Each row is a published training run whose source gives its peak memory per GPU, or says it
ran out of memory (its value cell is OOM). The run is its spec in specs.yaml (kind `memory`),
stated as a performance row's run is. As predict.py treats the performance rows, a run is out
of memory in the model when its estimate exceeds the GPU's capacity; the policy's headroom is
a selling margin, so a run inside it is noted apart and still fits.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass

from bench.accuracy import MEMORY_FILE
from bench.accuracy.evaluate import Evaluation, assumption_spread
from bench.accuracy.predict import Inexpressible, predict
from bench.accuracy.specs import SpecError, measured_value

# The value cell of a run its source says ran out of memory.
OUT_OF_MEMORY = "OOM"
CATEGORY = "h_memory"


@dataclass(frozen=True)
class MemoryRow:
    row: int
    peak_gb: float | None  # None: the run ran out of memory
    raw: dict


@dataclass(frozen=True)
class MemoryResult:
    row: int
    split: str  # "fit", "seen" or "check", from the catalog's fitted_on and informed_by
    measured_gb: float | None  # None: the source says the run ran out of memory
    predicted_gb: float | None = None
    capacity_gb: float | None = None
    what: str = ""
    notes: tuple[str, ...] = ()
    skipped: str | None = None
    fits_policy: bool | None = None  # within capacity less the policy's headroom: offered

    @property
    def out_of_memory(self) -> bool:
        return self.measured_gb is None

    @property
    def over_capacity(self) -> bool:
        return self.predicted_gb is not None and self.predicted_gb > self.capacity_gb

    @property
    def error_pct(self) -> float | None:
        if self.predicted_gb is None or self.measured_gb is None:
            return None
        return 100 * (self.predicted_gb - self.measured_gb) / self.measured_gb

    @property
    def wrong(self) -> bool:
        """The model contradicts the source: fits a run that ran out of memory, or puts a run
        that ran over its GPU's capacity."""
        return self.skipped is None and self.over_capacity != self.out_of_memory


def load_memory_rows(path=MEMORY_FILE) -> dict[int, MemoryRow]:
    rows: dict[int, MemoryRow] = {}
    with open(path, newline="", encoding="utf-8") as fh:
        for raw in csv.DictReader(fh):
            row = int(raw["id"])
            if row in rows:
                raise SpecError(f"memory row {row} appears twice")
            if raw["category"] != CATEGORY or raw["unit"] != "GB":
                raise SpecError(f"memory row {row}: category {CATEGORY}, unit GB")
            oom = raw["value"].strip() == OUT_OF_MEMORY
            rows[row] = MemoryRow(row, None if oom else measured_value(raw["value"]), raw)
    return rows


def _run(ev: Evaluation, row: MemoryRow, split: str) -> MemoryResult:
    spec = ev.specs.specs.get(row.row)
    if spec is None or spec.kind != "memory":
        raise SpecError(f"memory row {row.row} needs a spec of kind memory")
    models = ev.specs.models
    try:
        out = predict(spec, ev.world, models)
    except Inexpressible as why:
        return MemoryResult(row.row, split, row.peak_gb, skipped=f"not expressible: {why}")
    # An assumed value may not decide the answer, as on the performance rows.
    _, why = assumption_spread(spec, ev.world, models, out.value)
    if why:
        return MemoryResult(row.row, split, row.peak_gb, skipped=why)
    return MemoryResult(row.row, split, row.peak_gb, float(out.value), float(out.capacity_gb),
                        out.what, tuple(spec.note and [spec.note] or []) + tuple(out.notes),
                        fits_policy=out.fits_policy)


def evaluate_memory(ev: Evaluation, rows: dict[int, MemoryRow] | None = None) -> list[MemoryResult]:
    rows = rows if rows is not None else load_memory_rows()
    clash = set(rows) & set(ev.measurements)
    if clash:
        raise SpecError(f"memory rows {sorted(clash)} share ids with the measurement files")
    fitted = ev.book.fitted_rows
    return [_run(ev, row, "fit" if r in fitted else "seen" if r in ev.book.informed else "check")
            for r, row in sorted(rows.items())]
