"""The accuracy report: every row, which rows set which constant, error by category, one summary line."""
from __future__ import annotations

import statistics
from dataclasses import dataclass

from bench.accuracy import MEMORY_FILE
from bench.accuracy.evaluate import Evaluation, RowResult
from bench.accuracy.intervals import coverage, print_quantiles
from bench.accuracy.memory import MemoryResult, evaluate_memory, load_memory_rows
from bench.accuracy.p5_curve import RING_LATENCY, ring_points
from bench.accuracy.reliability import evaluate_reliability
from catalog.shipped import shipped

CATEGORY_NAMES = {
    "a_nccl_busbw": "NCCL busbw",
    "b_cnn_dp_scaling": "CNN scaling",
    "c_llm_throughput": "LLM throughput/MFU",
    "e_dle_throughput": "CNN/BERT throughput",
    "f_mlperf": "MLPerf time to train",
    "g_reliability": "reliability",
}


@dataclass(frozen=True)
class Stats:
    rows: int
    median: float | None
    worst: float | None
    worst_row: int | None

    def words(self) -> str:
        if not self.rows:
            return "-"
        # One precision for both: a worst to a whole percent read below its own median (2.2%/2%).
        return f"{self.median:.1f}%/{self.worst:.1f}% (n={self.rows}, worst row {self.worst_row})"


def stats(pairs: list[tuple[int, float]]) -> Stats:
    """Median and worst |error| of (row, error %) pairs."""
    if not pairs:
        return Stats(0, None, None, None)
    worst_row, worst = max(((r, abs(e)) for r, e in pairs), key=lambda p: p[1])
    return Stats(len(pairs), statistics.median(abs(e) for _, e in pairs), worst, worst_row)


def groups(results: list[RowResult]) -> dict[str, Stats]:
    """Fitted (fit or seen), check and leave-one-source-out errors of the rows that ran."""
    ran = [r for r in results if r.skipped is None]
    return {
        "fitted": stats([(r.row, r.error_pct) for r in ran if r.split != "check"]),
        "check": stats([(r.row, r.error_pct) for r in ran if r.split == "check"]),
        "loso": stats([(r.row, r.loso_error_pct) for r in ran if r.loso is not None]),
    }


def by_category(ev: Evaluation) -> dict[str, dict[str, Stats]]:
    out = {}
    for category in CATEGORY_NAMES:
        rows = [r for r in ev.results.values() if r.category == category]
        if rows:
            out[category] = groups(rows)
    out["overall"] = groups(list(ev.results.values()))
    return out


def memory_words(memory: list[MemoryResult]) -> str:
    """The memory rows in a few words: how many runs known to run out of memory the model puts
    over capacity (and which it fits) and a sizing refuses with the policy's headroom (and
    which it offers), how many that ran it puts over capacity or inside the headroom, and its
    peak against the published ones."""
    ran = [m for m in memory if m.skipped is None]
    oom = [m for m in ran if m.out_of_memory]
    fitted = [m.row for m in oom if not m.over_capacity]
    peaks = [m for m in ran if not m.out_of_memory]
    over = [m.row for m in peaks if m.over_capacity]
    inside = [m.row for m in peaks if not m.over_capacity and not m.fits_policy]
    offered = [m.row for m in oom if m.fits_policy]
    return (f"{len(oom) - len(fitted)} of {len(oom)} known out-of-memory runs over capacity"
            + (f" (fits rows {', '.join(map(str, fitted))})" if fitted else "")
            + f", {len(oom) - len(offered)} of {len(oom)} refused with the policy's headroom"
            + (f" (offers rows {', '.join(map(str, offered))})" if offered else "")
            + f"; {len(over)} of {len(peaks)} runs with a published peak over capacity"
            + (f" (rows {', '.join(map(str, over))})" if over else "")
            + f", {len(inside)} more inside the policy's headroom"
            + (f" (rows {', '.join(map(str, inside))})" if inside else "")
            + f", peak |error| {stats([(m.row, m.error_pct) for m in peaks]).words()}")


def summary_line(ev: Evaluation, memory: list[MemoryResult] | None = None) -> str:
    """One line: rows, and median/worst |error| per category and overall (check rows, then
    leave-one-source-out over all rows that ran), and the memory model on published runs."""
    results = list(ev.results.values())
    ran = [r for r in results if r.skipped is None]
    fitted = sum(1 for r in ran if r.split != "check")
    parts = [(f"SUMMARY rows {len(results)}: {len(ran)} run ({fitted} fitted, "
              f"{len(ran) - fitted} check), {len(results) - len(ran)} skipped")]
    for category, g in by_category(ev).items():
        if g["check"].rows or g["loso"].rows:
            name = CATEGORY_NAMES.get(category, category)
            parts.append(f"{name} check {g['check'].words()} LOSO {g['loso'].words()}")
    # Every training row is a run that fitted in its GPUs: the memory model must agree.
    runs = [r for r in ran if ev.specs.specs[r.row].kind != "collective"]
    over = [r.row for r in runs if any(n.startswith("model: over capacity") for n in r.notes)]
    refused = [r.row for r in runs if any(n.startswith("model: inside the policy's headroom")
                                          for n in r.notes)]
    parts.append(f"memory: {len(over)} of {len(runs)} published runs over capacity"
                 + (f" (rows {', '.join(map(str, over))})" if over else "")
                 + f", {len(refused)} more inside the policy's headroom"
                 + (f" (rows {', '.join(map(str, refused))})" if refused else "") + "; "
                 + memory_words(memory if memory is not None else evaluate_memory(ev)))
    parts.append(f"p10-p90 coverage LOSO {coverage(ev)['overall']['loso'].words()}")
    return " | ".join(parts)


def _num(x: float | None, width: int, digits: int = 1) -> str:
    return " " * (width - 1) + "-" if x is None else f"{x:>{width}.{digits}f}"


def print_report(ev: Evaluation, out=print) -> None:
    out("Published measurements run through the model (bench/accuracy/measurements.csv and "
        "holdout_measurements.csv).")
    out("set: fit = a constant was fitted on the row, seen = an estimate was chosen looking at "
        "it, check = no constant depends on it. LOSO = predicted with every constant refitted "
        "without the row's source.")
    out("")
    out(f"{'row':>4} {'set':<5} {'measured':>9} {'predicted':>9} {'error':>7} "
        f"{'LOSO':>9} {'error':>7}  run (as its source states)")
    for r in ev.results.values():
        if r.skipped:
            continue
        loso = (f"{'n/a':>9} {'':>7}" if r.loso is None
                else f"{_num(r.loso, 9)} {r.loso_error_pct:>+6.0f}%")
        spec = ev.specs.specs[r.row]
        metric = spec.metric if spec.kind != "ratio" else f"{spec.metric} of {spec.of}"
        out(f"{r.row:>4} {r.split:<5} {_num(r.measured, 9)} {_num(r.predicted, 9)} "
            f"{r.error_pct:>+6.0f}% {loso}  [{metric}] {r.what}")
        for note in r.notes:
            out(f"{'':>11}note: {note}")
        if r.loso is None and r.loso_note:
            out(f"{'':>11}LOSO n/a: {r.loso_note}")
    out("")
    out("Skipped rows and why:")
    for r in ev.results.values():
        if r.skipped:
            out(f"{r.row:>4} [{CATEGORY_NAMES.get(r.category, r.category)}] {r.skipped}")
    out("")
    out("Rows that set each constant (fitted_on in catalog/data; `--fit` refits them):")
    for group in ev.book.groups:
        out(f"  rows {', '.join(map(str, group.rows))}: "
            + ", ".join(f"{p} = {ev.world.get(p):g}" for p in group.params))
    # A figure fitted on a published curve rather than on rows of the measurement files.
    out(f"  the p5 curve's {len(ring_points())} ring points (python -m bench.accuracy.p5_curve "
        f"--fit): {RING_LATENCY} = {ev.world.get(RING_LATENCY):g}")
    for row, params in sorted(ev.book.informed.items()):
        out(f"  row {row} was looked at when choosing: {', '.join(map(str, params))}")
    for row, spec in sorted(ev.specs.specs.items()):
        if spec.seen:
            out(f"  row {row} was looked at when choosing its run: {spec.seen}")
    out("")
    out(f"{'category':<22} {'fitted rows |error| median/worst':<36} {'check rows':<36} "
        "leave-one-source-out")
    for category, g in by_category(ev).items():
        out(f"{CATEGORY_NAMES.get(category, category):<22} {g['fitted'].words():<36} "
            f"{g['check'].words():<36} {g['loso'].words()}")
    out("")
    print_reliability(ev, out)
    out("")
    memory = evaluate_memory(ev)
    print_memory(memory, out)
    out("")
    print_coverage(ev, out)
    out("")
    out(summary_line(ev, memory))


def print_reliability(ev: Evaluation, out=print) -> None:
    """The reliability rows through the goodput model (bench/accuracy/reliability.py)."""
    out("Reliability rows through the goodput model (catalog/data/reliability.yaml):")
    out(f"{'row':>4} {'set':<5} {'measured':>9} {'predicted':>9} {'error':>7}  run")
    for r in evaluate_reliability(shipped(), ev.measurements):
        out(f"{r.row:>4} {r.split:<5} {_num(r.measured, 9)} {_num(r.predicted, 9)} "
            f"{r.error_pct:>+6.0f}%  {r.what}")


def print_memory(memory: list[MemoryResult], out=print) -> None:
    """The memory rows: each run's published peak (or OOM) against the model's."""
    out("Memory rows through the memory model (memory_measurements.csv): the published peak "
        "per GPU or OOM (the run ran out of memory) against the model's peak; over capacity "
        "is the model's out of memory.")
    out(f"{'row':>4} {'set':<5} {'measured':>9} {'predicted':>9} {'error':>7} {'capacity':>8}  "
        "model, run")
    for m in memory:
        if m.skipped:
            out(f"{m.row:>4} skipped: {m.skipped}")
            continue
        measured = f"{'OOM':>9}" if m.out_of_memory else _num(m.measured_gb, 9)
        error = f"{'':>7}" if m.error_pct is None else f"{m.error_pct:>+6.0f}%"
        verdict = "over capacity" if m.over_capacity else "fits"
        if m.wrong:
            verdict += (" (WRONG: the run ran out of memory)" if m.out_of_memory
                        else " (WRONG: the run ran)")
        out(f"{m.row:>4} {m.split:<5} {measured} {_num(m.predicted_gb, 9)} {error} "
            f"{m.capacity_gb:>8.0f}  {verdict}; {m.what}")
        for note in m.notes:
            out(f"{'':>11}note: {note}")
    out(f"memory rows: {memory_words(memory)}")


def print_coverage(ev: Evaluation, out=print) -> None:
    """The calibration report: measured values inside their p10-p90, target 80%."""
    out("Prediction intervals (p10-p90, target 80%): share of measured values inside, with the "
        "quantiles of catalog/data/uncertainty.yaml's derivation (in sample) on fitted and "
        "check rows, and with quantiles derived without the row's own source (LOSO).")
    print_quantiles(ev, out)
    out(f"{'category':<22} {'fitted rows':<16} {'check rows':<16} leave-one-source-out")
    for category, c in coverage(ev).items():
        out(f"{CATEGORY_NAMES.get(category, category):<22} {c['fitted'].words():<16} "
            f"{c['check'].words():<16} {c['loso'].words()}")


def print_fits(ev: Evaluation, out=print) -> None:
    """Each fitted figure: the catalog's value next to what its fit gives on its named rows."""
    out(f"{'figure':<40} {'catalog':>10} {'fit':>10}  rows")
    for group in ev.book.groups:
        fitted = ev.fit_group(group)
        for param in group.params:
            out(f"{param!s:<40} {ev.world.get(param):>10.4g} {fitted[param]:>10.4g}  "
                f"{', '.join(map(str, group.rows))}")


def print_row(ev: Evaluation, row: int, out=print) -> None:
    """One row in full: the measurement, every value of its run with its citation, the result."""
    if row not in ev.measurements:
        print_memory_row(ev, row, out)
        return
    m, spec, r = ev.measurements[row], ev.specs.specs[row], ev.results[row]
    out(f"row {row} ({m.file}): {m.metric} = {m.raw['value']} {m.unit}")
    out(f"  source: {m.source} [{m.raw['url_or_path']}]")
    out(f"  evidence: {m.raw['evidence']}")
    if spec.skip:
        out(f"  skipped: {spec.skip}")
        return
    for group, name, value in spec.values():
        swept = f" (swept: {', '.join(map(repr, value.sweep))})" if value.sweep else ""
        out(f"  {group}.{name} = {value.value!r}: {value.citation}{swept}")
    if r.skipped:
        out(f"  skipped: {r.skipped}")
    else:
        out(f"  predicted {r.predicted:.4g} ({r.error_pct:+.1f}%), set {r.split}, largest move "
            f"of an assumed value {100 * r.spread:.1f}%")


def print_memory_row(ev: Evaluation, row: int, out=print) -> None:
    """A memory row in full, as print_row gives a measurement row."""
    memory_row = load_memory_rows()[row]
    raw = memory_row.raw
    result, = evaluate_memory(ev, {row: memory_row})
    out(f"row {row} ({MEMORY_FILE.name}): {raw['metric']} = {raw['value']} {raw['unit']}")
    out(f"  source: {raw['source']} [{raw['url_or_path']}]")
    out(f"  evidence: {raw['evidence']}")
    for group, name, value in ev.specs.specs[row].values():
        out(f"  {group}.{name} = {value.value!r}: {value.citation}")
    if result.skipped:
        out(f"  skipped: {result.skipped}")
    else:
        error = "" if result.error_pct is None else f" ({result.error_pct:+.1f}%)"
        out(f"  predicted peak {result.predicted_gb:.1f} GB{error} of {result.capacity_gb:.0f} GB: "
            + ("over capacity" if result.over_capacity else "fits")
            + (" (WRONG)" if result.wrong else ""))
