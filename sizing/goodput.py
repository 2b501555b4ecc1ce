"""Goodput of a long run: interruptions by hardware and fabric, checkpoints, restarts, wall clock.

Vectorised over candidates (numpy arrays), so the search prices failures for every candidate
in the same pass as its step time. The constants come from catalog/data/reliability.yaml.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from sizing.hardware import FABRIC_KINDS, Cluster

SECONDS_PER_DAY = 86400.0


@dataclass(frozen=True)
class Reliability:
    """Failure rates, restart times and the storage offer; each has its source in the file."""

    gpu_interruptions_per_gpu_day: float
    node_interruptions_per_node_day: float
    link_interruptions_per_link_day: float
    fabric_stability_factor: Mapping[str, float]
    restart_reschedule_s: float
    restart_reschedule_hot_spare_s: float
    restart_warmup_s: float
    hot_spare_share: float
    storage_write_gbs_per_node: float
    storage_write_gbs_total: float

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any]) -> Reliability:
        """From the parsed reliability.yaml constants (name -> {value, unit, source})."""
        table = table.get("constants", table)
        missing = [f.name for f in fields(cls) if f.name not in table]
        if missing:
            raise ValueError(f"reliability constants missing: {', '.join(missing)}")
        values: dict[str, Any] = {}
        for f in fields(cls):
            entry = table[f.name]
            value = entry["value"] if isinstance(entry, Mapping) and "value" in entry else entry
            if isinstance(value, Mapping):
                if "default" not in value:
                    raise ValueError(f"{f.name} is keyed and needs a 'default' entry")
                value = {str(k): float(v) for k, v in value.items()}
            else:
                value = float(value)
            values[f.name] = value
        return cls(**values)

    def stability(self, fabric_kind: np.ndarray, lossless: np.ndarray) -> np.ndarray:
        """The stability factor of each candidate's fabric (kind index of FABRIC_KINDS)."""
        kind = np.asarray(fabric_kind, int)
        lossless = np.asarray(lossless, bool)
        table = self.fabric_stability_factor

        def of(name: str) -> float:
            return table.get(name, table["default"])

        roce = kind == FABRIC_KINDS.index("roce")
        return np.select(
            [kind == FABRIC_KINDS.index("infiniband"), roce & lossless, roce & ~lossless],
            [of("infiniband"), of("lossless_roce"), of("lossy_roce")], of("tcp"))


def checkpoint_bytes(params: float, constants, precision: str) -> float:
    """What a full checkpoint holds: the weights and the optimizer state of every parameter,
    with the memory model's bytes per parameter (mixed-precision Adam: 2 + 12, ZeRO paper;
    BLOOM-176B's was 2.3 TB). Gradients are not saved: they are rebuilt by the next step."""
    if precision == "fp32":
        per_param = constants.bytes_per_param_weights_fp32 + constants.bytes_per_param_optimizer_fp32
    else:
        per_param = constants.bytes_per_param_weights + constants.bytes_per_param_optimizer
    return float(params) * per_param


def storage_throughput_Bps(rel: Reliability, nodes: np.ndarray) -> np.ndarray:
    """What the storage offer gives a job of `nodes`: per node, capped by the aggregate."""
    nodes = np.asarray(nodes, float)
    return np.minimum(nodes * rel.storage_write_gbs_per_node, rel.storage_write_gbs_total) * 1e9


def hot_spares(rel: Reliability, nodes: np.ndarray) -> np.ndarray:
    """Spare nodes the hot-spare option adds: the policy's share, at least one."""
    return np.maximum(np.ceil(np.asarray(nodes, float) * rel.hot_spare_share), 1.0)


@dataclass(frozen=True)
class CandidateGoodput:
    """Per candidate: failures, the checkpoint chosen and the wall clock that follows."""

    interruptions_per_day: np.ndarray
    mtbf_s: np.ndarray
    checkpoint_bytes: np.ndarray
    checkpoint_write_s: np.ndarray
    checkpoint_interval_s: np.ndarray  # compute between two checkpoints (Young/Daly)
    restart_s: np.ndarray  # rescheduling, warm-up and reloading the checkpoint
    goodput: np.ndarray  # useful training time over wall clock
    wall_hours: np.ndarray  # time to train including checkpoints and failures
    expected_interruptions: np.ndarray


def choose(take: np.ndarray, without: CandidateGoodput, with_: CandidateGoodput) -> CandidateGoodput:
    """Per candidate, `with_` where `take` holds, else `without` (e.g. with hot spares)."""
    take = np.asarray(take, bool)
    return CandidateGoodput(**{f.name: np.where(take, getattr(with_, f.name),
                                                getattr(without, f.name))
                               for f in fields(CandidateGoodput)})


def young_daly_interval_s(write_s: np.ndarray, mtbf_s: np.ndarray) -> np.ndarray:
    """Compute time between checkpoints: sqrt(2 C M) (Young 1974, 'A first order approximation
    to the optimum checkpoint interval'), which Daly 2006 ('A higher order estimate of the
    optimum checkpoint interval for restart dumps') keeps to first order while C < 2M; past
    that a checkpoint costs more than it saves and Daly takes the interval as M."""
    return np.where(write_s < 2.0 * mtbf_s, np.sqrt(2.0 * write_s * mtbf_s), mtbf_s)


def wall_clock_s(solve_s: np.ndarray, interval_s: np.ndarray, write_s: np.ndarray,
                 restart_s: np.ndarray, mtbf_s: np.ndarray) -> np.ndarray:
    """Expected wall clock of `solve_s` of useful work with exponential failures (Daly 2006,
    its model of the total wall clock time): M e^(R/M) (e^((tau + C)/M) - 1) T_s / tau.
    Every failure loses the work since the last checkpoint and pays the restart; every
    interval pays one checkpoint."""
    return _wall_factor(interval_s, write_s, restart_s, mtbf_s) * solve_s / interval_s


def _wall_factor(interval_s: np.ndarray, write_s: np.ndarray, restart_s: np.ndarray,
                 mtbf_s: np.ndarray) -> np.ndarray:
    """M e^(R/M) (e^((tau + C)/M) - 1): the part of Daly's wall clock that does not depend
    on the work, which it multiplies (before the division by tau, in wall_clock_s's order)."""
    m = mtbf_s
    return m * np.exp(restart_s / m) * np.expm1((interval_s + write_s) / m)


@dataclass(frozen=True)
class RunFailures:
    """Per candidate, what its failures are whatever its time to train: interruptions, the
    checkpoint and the restart, and the factor of Daly's wall clock that does not depend on
    the work. A search's candidates of one (hardware, node count) share them, so they are
    worked out once per cell and picked per candidate (`at`), then given the work (`of_work`)."""

    interruptions_per_day: np.ndarray
    mtbf_s: np.ndarray
    checkpoint_bytes: np.ndarray
    checkpoint_write_s: np.ndarray
    checkpoint_interval_s: np.ndarray
    restart_s: np.ndarray
    wall_factor: np.ndarray

    def at(self, rows: np.ndarray) -> RunFailures:
        return RunFailures(*(getattr(self, f.name)[rows] for f in fields(RunFailures)))

    def of_work(self, ideal_hours: np.ndarray) -> CandidateGoodput:
        """The goodput of training for `ideal_hours` without failures."""
        wall_hours, goodput_, wall = self.wall_clock_of(ideal_hours)
        return CandidateGoodput(
            interruptions_per_day=self.interruptions_per_day, mtbf_s=self.mtbf_s,
            checkpoint_bytes=self.checkpoint_bytes, checkpoint_write_s=self.checkpoint_write_s,
            checkpoint_interval_s=self.checkpoint_interval_s, restart_s=self.restart_s,
            goodput=goodput_, wall_hours=wall_hours, expected_interruptions=wall / self.mtbf_s)

    def wall_clock_of(self, ideal_hours: np.ndarray, rows: np.ndarray | slice = slice(None),
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The wall clock in hours, the goodput and the wall clock in seconds of candidates
        `rows` training for `ideal_hours` without failures: of_work's, without picking the
        figures that do not depend on the work."""
        solve = np.asarray(ideal_hours, float) * 3600.0
        wall = self.wall_factor[rows] * solve / self.checkpoint_interval_s[rows]  # wall_clock_s
        return wall / 3600.0, solve / np.where(wall > 0, wall, 1.0), wall


def goodput(rel: Reliability, *, gpus: np.ndarray, nodes: np.ndarray, links: np.ndarray,
            stability: np.ndarray, checkpoint_bytes_: float | np.ndarray,
            ideal_hours: np.ndarray, hot_spare: bool = False) -> CandidateGoodput:
    """Goodput of each candidate training for `ideal_hours` without failures."""
    return run_failures(rel, gpus=gpus, nodes=nodes, links=links, stability=stability,
                        checkpoint_bytes_=checkpoint_bytes_, hot_spare=hot_spare
                        ).of_work(ideal_hours)


def run_failures(rel: Reliability, *, gpus: np.ndarray, nodes: np.ndarray, links: np.ndarray,
                 stability: np.ndarray, checkpoint_bytes_: float | np.ndarray,
                 hot_spare: bool = False) -> RunFailures:
    """The failures of each candidate, before its time to train.

    Interruptions add up by component: GPUs, nodes (host and software) and NIC links, the
    links weighted by the fabric's stability class. A synchronous job stops on any of them.
    """
    gpus, nodes = np.asarray(gpus, float), np.asarray(nodes, float)
    per_day = (gpus * rel.gpu_interruptions_per_gpu_day
               + nodes * rel.node_interruptions_per_node_day
               + np.asarray(links, float) * rel.link_interruptions_per_link_day
               * np.asarray(stability, float))
    mtbf = SECONDS_PER_DAY / per_day
    size = np.broadcast_to(np.asarray(checkpoint_bytes_, float), gpus.shape)
    write = size / storage_throughput_Bps(rel, nodes)
    interval = young_daly_interval_s(write, mtbf)
    reschedule = rel.restart_reschedule_hot_spare_s if hot_spare else rel.restart_reschedule_s
    # The checkpoint is read back at the rate it was written.
    restart = reschedule + rel.restart_warmup_s + write
    return RunFailures(per_day, mtbf, size, write, interval, restart,
                       _wall_factor(interval, write, restart, mtbf))


@dataclass(frozen=True)
class PairFailures:
    """Per hardware pair, what its failures read (fabric kind, lossless, NICs per node), as
    columns built once, so that candidates index them instead of a loop over the pairs."""

    fabric_kind: np.ndarray  # index into FABRIC_KINDS
    lossless: np.ndarray
    nics_per_node: np.ndarray

    @classmethod
    def of(cls, clusters: Sequence[Cluster]) -> PairFailures:
        return cls(np.array([FABRIC_KINDS.index(c.fabric.kind) for c in clusters]),
                   np.array([c.fabric.lossless for c in clusters]),
                   np.array([c.server.nics_per_node for c in clusters]))


def of_candidates(rel: Reliability, clusters: Sequence[Cluster] | PairFailures,
                  hardware: np.ndarray, nodes: np.ndarray, gpus: np.ndarray, size_bytes: float,
                  ideal_hours: np.ndarray, hot_spare: bool = False) -> CandidateGoodput:
    """Goodput of candidates (`hardware` indexes `clusters`) at their node counts
    (failures_of), training for `ideal_hours` without failures."""
    return failures_of(rel, clusters, hardware, nodes, gpus, size_bytes,
                       hot_spare).of_work(ideal_hours)


def failures_of(rel: Reliability, clusters: Sequence[Cluster] | PairFailures,
                hardware: np.ndarray, nodes: np.ndarray, gpus: np.ndarray, size_bytes: float,
                hot_spare: bool = False) -> RunFailures:
    """Failures of candidates (`hardware` indexes `clusters`) at their node counts: a NIC link
    per NIC of each node, the fabric's stability class; none at one node, whose job runs
    inside the server and never waits on a link of the fabric."""
    pairs = clusters if isinstance(clusters, PairFailures) else PairFailures.of(clusters)
    hw = np.asarray(hardware, int)
    nodes = np.asarray(nodes, float)
    stability = rel.stability(pairs.fabric_kind[hw], pairs.lossless[hw])
    links = np.where(nodes > 1, nodes * pairs.nics_per_node[hw], 0.0)
    return run_failures(rel, gpus=gpus, nodes=nodes, links=links, stability=stability,
                        checkpoint_bytes_=size_bytes, hot_spare=hot_spare)


def required_storage_Bps(size_bytes: np.ndarray, mtbf_s: np.ndarray, share: float) -> np.ndarray:
    """Storage throughput at which checkpoints take `share` of the wall clock at the Young
    interval: C / sqrt(2 C M) = share gives C = 2 M share^2, so size / (2 M share^2)."""
    return np.asarray(size_bytes, float) / (2.0 * np.asarray(mtbf_s, float) * share ** 2)
