"""python -m bench.accuracy [--fit | --intervals]: the accuracy report of the performance model."""
from __future__ import annotations

import argparse

from bench.accuracy.evaluate import evaluate
from bench.accuracy.intervals import FILE, print_quantiles, write
from bench.accuracy.report import print_fits, print_report, print_row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Run every published measurement through the model with its source's layout.")
    parser.add_argument("--fit", action="store_true",
                        help="refit each fitted figure on its rows and print it next to the "
                             "catalog value")
    parser.add_argument("--intervals", action="store_true",
                        help="derive the prediction intervals' quantiles from the residuals and "
                             "write catalog/data/uncertainty.yaml")
    parser.add_argument("--row", type=int, action="append", default=[],
                        help="print this row in full: every value of its run with its citation")
    args = parser.parse_args(argv)
    ev = evaluate()
    if args.row:
        for row in args.row:
            print_row(ev, row)
        return 0
    if args.intervals:
        write(ev)
        print_quantiles(ev)
        print(f"wrote {FILE}")
        return 0
    if args.fit:
        print_fits(ev)
        print()
    print_report(ev)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
