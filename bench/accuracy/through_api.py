"""python -m bench.accuracy.through_api: every expressible check row through the HTTP API.

An outside grader's view: each check row the API can state posted to an embedded app, the
row's metric read from the answer: training runs on a reference system with their source's
layout through POST /v1/estimates (a time to train as the row's tokens over the estimate's
tokens_per_s, plus its evaluations), NCCL busbw rows (a reference system, or stated hardware on a
catalog fabric) through POST /v1/estimates/collectives. Prints one line per row and a summary
line per kind.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bench.accuracy.api import collective_body, expressible, metric_of, request_body
from bench.accuracy.evaluate import Evaluation, evaluate
from catalog.shipped import shipped


@dataclass
class ApiRun:
    rows: list[int]
    errors: dict[int, float] = field(default_factory=dict)  # row -> predicted/measured - 1
    refused: list[int] = field(default_factory=list)  # 422 does_not_fit: over the GPU
    answers: dict[int, float] = field(default_factory=dict)

    def summary(self, rows: str = "check rows") -> str:
        errs = [abs(e) for e in self.errors.values()]
        median = 100 * statistics.median(errs) if errs else float("nan")
        worst = 100 * max(errs) if errs else float("nan")
        return (f"API {rows}: {len(self.rows)}, answered {len(errs)}, median |error| "
                f"{median:.1f}%, worst {worst:.1f}%, refused as not fitting: {self.refused}")


def check_rows(ev: Evaluation, kind: str = "training") -> list[int]:
    """Check rows (never fitted, never seen) of `kind` that ran in the harness and the API can
    state."""
    catalog = tuple(shipped().fabrics)
    return [r for r, res in sorted(ev.results.items())
            if 300 <= r <= 599 and res.skipped is None and res.split == "check"
            and ev.specs.specs[r].kind == kind and expressible(ev.specs.specs[r], catalog)]


def run_rows(client, ev: Evaluation, rows: list[int]) -> ApiRun:
    """Post each row; `client` is a Flask test client carrying a key."""
    run = ApiRun(rows)
    for row in rows:
        spec = ev.specs.specs[row]
        if spec.kind == "collective":
            response = client.post("/v1/estimates/collectives",
                                   json=collective_body(spec, ev.world.gpus))
        else:
            response = client.post("/v1/estimates", json=request_body(spec, ev.specs.models))
        if response.status_code == 422 and response.get_json()["code"] == "does_not_fit":
            run.refused.append(row)
            continue
        if response.status_code != 200:
            raise RuntimeError(f"row {row}: {response.status_code} {response.get_json()}")
        value = metric_of(spec, response.get_json())
        run.answers[row] = value
        run.errors[row] = value / ev.measurements[row].value - 1
    return run


def main(argv: list[str] | None = None) -> int:
    from tests.conftest import authorised, build_app

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", help="comma-separated rows to post instead of the check rows "
                                       "(fitted and seen ones too; the summary then is not a "
                                       "check figure)")
    args = parser.parse_args(argv)
    ev = evaluate()
    with tempfile.TemporaryDirectory() as tmp:
        app = build_app(f"sqlite:///{Path(tmp) / 'accuracy.sqlite3'}")
        client = authorised(app)
        if args.rows:
            chosen = [int(r) for r in args.rows.split(",")]
            catalog = tuple(shipped().fabrics)
            unrunnable = [r for r in chosen if r not in ev.results or ev.results[r].skipped
                          or not expressible(ev.specs.specs[r], catalog)]
            if unrunnable:
                parser.error(f"rows the harness does not run or the API cannot state: "
                             f"{unrunnable}")
            runs = {kind: run_rows(client, ev, [r for r in chosen
                                                if ev.specs.specs[r].kind == kind])
                    for kind in ("collective", "training")}
        else:
            runs = {kind: run_rows(client, ev, check_rows(ev, kind))
                    for kind in ("collective", "training")}
    for kind, run in runs.items():
        for row in run.rows:
            if row in run.refused:
                print(f"{row:>4} refused: over the GPU's memory")
            else:
                print(f"{row:>4} measured {ev.measurements[row].value:>10.4g} API "
                      f"{run.answers[row]:>10.4g} {100 * run.errors[row]:+6.1f}%  "
                      f"(harness {ev.results[row].predicted:.4g})")
        print(f"[{kind}] {run.summary('rows asked for' if args.rows else 'check rows')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
