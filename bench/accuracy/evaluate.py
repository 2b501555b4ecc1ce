"""Every row predicted: fitted or check, the spread of its assumed values, and leave-one-source-out."""
from __future__ import annotations

from dataclasses import dataclass, field

from bench.accuracy.fitting import Bookkeeping, bookkeeping, fit
from bench.accuracy.predict import Inexpressible, predict
from bench.accuracy.specs import Measurement, Specs, load_measurements, load_specs
from bench.accuracy.world import Param, World
from catalog.shipped import Shipped, shipped

# An assumed value (one the source does not state) may move the prediction by at most this
# share; beyond it the row is skipped, since its answer would depend on a guess.
ASSUMPTION_SPREAD_LIMIT = 0.03
# A figure a row "depends on" changes its prediction when nudged by this factor.
_NUDGE = 1.05


@dataclass
class RowResult:
    row: int
    category: str
    source: str
    unit: str
    measured: float
    predicted: float | None = None
    what: str = ""
    split: str = "check"  # "fit" (named in fitted_on), "seen" (informed_by) or "check"
    loso: float | None = None
    loso_note: str = ""  # why LOSO is not defined, or "" when it is
    spread: float = 0.0  # largest share an assumed value moves the prediction
    skipped: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def error_pct(self) -> float | None:
        if self.predicted is None:
            return None
        return 100 * (self.predicted - self.measured) / self.measured

    @property
    def loso_error_pct(self) -> float | None:
        if self.loso is None:
            return None
        return 100 * (self.loso - self.measured) / self.measured


@dataclass
class Evaluation:
    results: dict[int, RowResult]
    book: Bookkeeping
    world: World
    specs: Specs
    measurements: dict[int, Measurement]

    def predict_row(self, row: int, world: World) -> float:
        return predict(self.specs.specs[row], world, self.specs.models).value

    def run_rows(self) -> list[int]:
        return [r for r, res in self.results.items() if res.skipped is None]

    def fit_group(self, group, rows=None) -> dict[Param, float]:
        rows = tuple(r for r in (rows if rows is not None else group.rows)
                     if r in self.results and self.results[r].skipped is None)
        measured = {r: self.measurements[r].value for r in rows}
        return fit(group, rows, self.world, self.predict_row, measured)


def assumption_spread(spec, world: World, models: dict, predicted: float
                      ) -> tuple[float, str | None]:
    """The largest share by which another value of an assumed figure (its sweep) moves the
    prediction `predicted`, and why the row is skipped where that passes
    ASSUMPTION_SPREAD_LIMIT (None: it does not)."""
    moves = []
    for group, name, value in spec.values():
        for alternative in value.sweep:
            try:
                other = predict(spec, world, models, (group, name, alternative)).value
            except Inexpressible as why:
                moves.append((float("inf"), name, value, alternative, str(why)))
                continue
            moves.append((abs(other / predicted - 1), name, value, alternative, ""))
    if not moves:
        return 0.0, None
    share, name, value, alternative, why = max(moves, key=lambda m: m[0])
    if share <= ASSUMPTION_SPREAD_LIMIT:
        return share, None
    effect = why or f"moves the prediction by {100 * share:.0f}%"
    return share, (f"{name} is not stated ({value.assumed}); {value.value!r} vs "
                   f"{alternative!r} {effect}")


def _run(spec, measurement: Measurement, world: World, models: dict) -> RowResult:
    result = RowResult(measurement.row, measurement.category, spec.source, measurement.unit,
                       measurement.value, notes=[spec.note] if spec.note else [])
    if spec.skip:
        result.skipped = spec.skip
        return result
    try:
        outcome = predict(spec, world, models)
    except Inexpressible as why:
        result.skipped = f"not expressible: {why}"
        return result
    result.predicted, result.what = outcome.value, outcome.what
    result.notes += outcome.notes
    result.spread, why = assumption_spread(spec, world, models, outcome.value)
    if why:
        result.skipped, result.predicted = why, None
    return result


def _depends(ev: Evaluation, row: int, params) -> bool:
    base = ev.results[row].predicted
    for param in params:
        nudged = ev.world.with_values({param: ev.world.get(param) * _NUDGE})
        if abs(ev.predict_row(row, nudged) / base - 1) > 1e-9:
            return True
    return False


def _leave_one_source_out(ev: Evaluation) -> None:
    """Refit every group without one source's rows, then predict that source's rows."""
    by_source: dict[str, list[int]] = {}
    for row in ev.run_rows():
        by_source.setdefault(ev.results[row].source, []).append(row)
    for rows in by_source.values():
        left_out = set(rows)
        refitted: dict[Param, float] = {}
        lost: list[Param] = []
        for group in ev.book.groups:
            if not left_out & set(group.rows):
                continue
            rest = [r for r in group.rows if r not in left_out
                    and r in ev.results and ev.results[r].skipped is None]
            if rest:
                refitted.update(ev.fit_group(group, rest))
            else:
                lost.extend(group.params)
        world = ev.world.with_values(refitted)
        for row in rows:
            result = ev.results[row]
            if result.split == "seen":
                result.loso_note = "an estimate was chosen looking at this row"
                continue
            if lost and _depends(ev, row, lost):
                result.loso_note = ("every row fitting " + ", ".join(map(str, lost))
                                    + " is from this source")
                continue
            result.loso = ev.predict_row(row, world) if refitted else result.predicted


def evaluate(data: Shipped | None = None, specs: Specs | None = None,
             measurements: dict[int, Measurement] | None = None) -> Evaluation:
    data = data or shipped()
    specs = specs or load_specs()
    measurements = measurements or load_measurements()
    world = World.of(data)
    book = bookkeeping(data)
    results = {}
    for row, measurement in sorted(measurements.items()):
        spec = specs.specs.get(row)
        if spec is None:
            results[row] = RowResult(row, measurement.category, "-", measurement.unit,
                                     measurement.value, skipped="no spec for this row")
            continue
        results[row] = _run(spec, measurement, world, specs.models)
    fitted = book.fitted_rows
    for row, result in results.items():
        if row in fitted:
            result.split = "fit"
        elif row in book.informed or (row in specs.specs and specs.specs[row].seen):
            result.split = "seen"
    ev = Evaluation(results, book, world, specs, measurements)
    _leave_one_source_out(ev)  # after the split: "seen" rows have no LOSO figure
    return ev
