"""The reliability rows run through the goodput model (sizing/goodput.py, reliability.yaml).

Each row's hardware is what its source states (cited beside it); rows whose figure the model
does not produce (a restart count over a lineage of unknown length, work lost in one crash,
one cause's share) are not run. The set of a row (fit, seen or check) comes from the
fitted_on and informed_by lists of catalog/data/reliability.yaml.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bench.accuracy.specs import Measurement
from catalog.shipped import Shipped
from sizing.goodput import Reliability, checkpoint_bytes, goodput
from sizing.hardware import FABRIC_KINDS


@dataclass(frozen=True)
class ReliabilityRow:
    row: int
    what: str
    predict: Callable[[Reliability, Shipped], float]


def interruptions_per_day(rel: Reliability, gpus: int, nodes: int, nics_per_node: int,
                          kind: str, lossless: bool) -> float:
    stability = rel.stability(np.array([FABRIC_KINDS.index(kind)]), np.array([lossless]))
    g = goodput(rel, gpus=np.array([gpus]), nodes=np.array([nodes]),
                links=np.array([nodes * nics_per_node]), stability=stability,
                checkpoint_bytes_=1e9, ideal_hours=np.array([1.0]))  # rates only: any size
    return float(g.interruptions_per_day[0])


ROWS = (
    # Llama 3: 16,384 H100 in 2,048 servers of 8 GPUs and 8 400G NICs, RoCE with tuned
    # congestion control (arXiv:2407.21783 section 3.3.1); 54 days.
    ReliabilityRow(226, "interruptions in 54 days, 2048 x 8 H100, 8 NICs/node, lossless RoCE",
                   lambda rel, _: 54 * interruptions_per_day(rel, 16384, 2048, 8, "roce", True)),
    # OPT-175B: 1,024 A100 80GB per the note, 8 per machine (metaseq chronicles). The cloud's
    # fabric is not stated: assumed lossless with 8 ports per node (a lossy one would triple
    # only the links' small share).
    ReliabilityRow(224, "machines down per day, 128 x 8 A100, 8 IB ports/node",
                   lambda rel, _: interruptions_per_day(rel, 1024, 128, 8, "infiniband", True)),
    # OPT-175B's checkpoint: weights and optimizer state of 175B parameters, BF16/FP16 mixed
    # precision with Adam (OPT paper, arXiv:2205.01068 section 2.2).
    ReliabilityRow(225, "checkpoint of 175B parameters, weights and Adam state",
                   lambda _, data: checkpoint_bytes(175e9, data.constants, "bf16") / 1e12),
)


@dataclass(frozen=True)
class ReliabilityResult:
    row: int
    split: str
    measured: float
    predicted: float
    what: str

    @property
    def error_pct(self) -> float:
        return 100 * (self.predicted - self.measured) / self.measured


def evaluate_reliability(data: Shipped,
                         measurements: dict[int, Measurement]) -> list[ReliabilityResult]:
    table = data.document["reliability"]
    fitted = {row for e in table.values() for row in e.get("fitted_on") or []}
    seen = {row for e in table.values() for row in e.get("informed_by") or []}
    rel = Reliability.from_mapping(table)
    out = []
    for spec in ROWS:
        split = "fit" if spec.row in fitted else "seen" if spec.row in seen else "check"
        out.append(ReliabilityResult(spec.row, split, measurements[spec.row].value,
                                     spec.predict(rel, data), spec.what))
    return out
