"""Ranking: rule out what cannot be sold, score by the objective, pick the best per group."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

OBJECTIVES = ("fastest", "cheapest", "balanced")
# A tie-break weight: small enough never to outweigh the objective's own term.
TIE_BREAK = 1e-6


def objective_score(objective: str, time_per_unit: np.ndarray, cost_per_unit: np.ndarray) -> np.ndarray:
    """Lower is better, on a log scale, so that a tolerance is a share whatever the objective.

    time_per_unit and cost_per_unit are per unit of work (the whole training when the amount of
    work is given, one token or sample when only a duration is): fastest ranks by time,
    cheapest by cost, balanced by their product, each breaking ties on the other.
    """
    log_time, log_cost = np.log(time_per_unit), np.log(cost_per_unit)
    if objective == "fastest":
        return log_time + TIE_BREAK * log_cost
    if objective == "cheapest":
        return log_cost + TIE_BREAK * log_time
    if objective == "balanced":
        return log_time + log_cost
    raise ValueError(f"unknown objective {objective!r}")


def preference_handicap(tolerance: float, lossy_roce: np.ndarray) -> np.ndarray:
    """What the policy's fabric preference adds to a score (log scale).

    RoCEv2 without PFC/ECN ranks as if `tolerance` worse: a lossless fabric comes first while
    it is within that share of a better-scoring lossy one. Stability over a long run is not a
    handicap but a number: the score weighs time and cost including failures (sizing.goodput).
    The ranking and the network advice both use the handicapped score, so rank 1 is the
    fabric the advice recommends.
    """
    return np.log1p(tolerance) * np.asarray(lossy_roce, bool).astype(float)


def worth_adding(tolerance: float, score_without: np.ndarray, score_with: np.ndarray,
                 ok_without: np.ndarray, ok_with: np.ndarray) -> np.ndarray:
    """Where an option (hot spares) is taken: it can be sold, and it lowers the objective by
    more than `tolerance`, a share below the model's error, or the candidate cannot be sold
    without it. Scores are on objective_score's log scale."""
    better = np.asarray(score_with) < np.asarray(score_without) - np.log1p(tolerance)
    return np.asarray(ok_with, bool) & (better | ~np.asarray(ok_without, bool))


@dataclass(frozen=True)
class Eligibility:
    """Which candidates can be sold, and what ruled the others out."""

    eligible: np.ndarray
    # Candidates each rule ruled out, counting each candidate under the first rule it fails.
    excluded: Mapping[str, int]
    # The same, as masks, so advice can say why an option is missing.
    ruled_out: Mapping[str, np.ndarray]


def sellable(rules: Sequence[tuple[str, np.ndarray]]) -> Eligibility:
    """Apply (name, allowed mask) rules in order; a candidate must pass every one."""
    if not rules:
        raise ValueError("no rules")
    ok = np.ones_like(np.asarray(rules[0][1], bool))
    excluded: dict[str, int] = {}
    ruled_out: dict[str, np.ndarray] = {}
    for name, allowed in rules:
        out = ok & ~np.asarray(allowed, bool)
        ruled_out[name] = ruled_out.get(name, np.zeros_like(ok)) | out
        if out.any():
            excluded[name] = excluded.get(name, 0) + int(out.sum())
        ok = ok & ~out
    return Eligibility(ok, excluded, ruled_out)


def best_per_group(groups: np.ndarray, score: np.ndarray, eligible: np.ndarray) -> np.ndarray:
    """Index of the lowest score in each group among eligible candidates."""
    idx = np.flatnonzero(eligible)
    if idx.size == 0:
        return idx
    order = idx[np.lexsort((score[idx], groups[idx]))]
    first = np.ones(order.size, bool)
    first[1:] = groups[order][1:] != groups[order][:-1]
    return order[first]


@dataclass(frozen=True)
class Ranking:
    """The ranked list and the table it was chosen from."""

    order: tuple[int, ...]  # candidate indices, rank 1 first
    # The best eligible candidate of each (hardware, node count): ranking, advice and
    # what-ifs all read their options from this one table.
    best: Mapping[tuple[int, int], int]

    def options_at(self, nodes: int) -> dict[int, int]:
        """hardware -> best candidate at this node count."""
        return {hw: i for (hw, n), i in self.best.items() if n == nodes}

    def options_of(self, hardware: int) -> dict[int, int]:
        """node count -> best candidate of this hardware."""
        return {n: i for (hw, n), i in self.best.items() if hw == hardware}


def rank(hardware: np.ndarray, nodes: np.ndarray, score: np.ndarray, eligible: np.ndarray,
         server_of: Sequence[str], per_server: int, limit: int) -> Ranking:
    """One entry per hardware pair at its best node count and layout, best first.

    Ten distinct options are more use to a customer than one option at ten node counts, and
    at most `per_server` of one server keep the list from repeating one server on every
    fabric. Rank 1 is always the best eligible candidate.
    """
    groups = hardware.astype(np.int64) * (int(nodes.max(initial=0)) + 1) + nodes
    cells = best_per_group(groups, score, eligible)
    best = {(int(hardware[i]), int(nodes[i])): int(i) for i in cells}
    per_hardware = best_per_group(hardware, score, eligible)
    taken: dict[str, int] = {}
    order: list[int] = []
    for i in per_hardware[np.argsort(score[per_hardware], kind="stable")]:
        server = server_of[int(hardware[i])]
        if taken.get(server, 0) < per_server:
            taken[server] = taken.get(server, 0) + 1
            order.append(int(i))
            if len(order) == limit:
                break
    return Ranking(tuple(order), best)
