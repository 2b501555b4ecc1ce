"""Ranking: rule out what cannot be sold, score by the objective, pick the best per group."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
    return also(Eligibility(ok, {}, {}), rules)


def also(before: Eligibility, rules: Sequence[tuple[str, np.ndarray]]) -> Eligibility:
    """`before` with more (name, allowed mask) rules applied after its own, in order: what
    `sellable` gives for its rules followed by these."""
    ok = before.eligible
    excluded, ruled_out = dict(before.excluded), dict(before.ruled_out)
    for name, allowed in rules:
        out = ok & ~np.asarray(allowed, bool)
        ruled_out[name] = ruled_out[name] | out if name in ruled_out else out
        count = int(np.count_nonzero(out))
        if count:
            excluded[name] = excluded.get(name, 0) + count
        ok = ok & ~out
    return Eligibility(ok, excluded, ruled_out)


def best_per_group(groups: np.ndarray, score: np.ndarray, eligible: np.ndarray) -> np.ndarray:
    """Index of the lowest score in each group among eligible candidates (ties: first seen)."""
    idx = np.flatnonzero(eligible)
    if idx.size == 0:
        return idx
    runs = _runs_of_groups(groups[idx])
    if runs is not None:  # each group one run of rows: a chunk's cells, in groups' order
        return idx[_first_lowest_per_run(score[idx], runs)[np.argsort(groups[idx][runs])]]
    # The order of np.lexsort((score, groups)), with one integer sort: on the 70B full-catalog
    # search, 2.3x faster on its ranked table of 5,966 rows, 1.65x over all its 25 calls.
    order = idx[_by_group_then_score(groups[idx], score[idx])]
    first = np.ones(order.size, bool)
    first[1:] = groups[order][1:] != groups[order][:-1]
    return order[first]


def _runs_of_groups(groups: np.ndarray) -> np.ndarray | None:
    """Where each run of equal groups starts, if no group has two runs (else None)."""
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    heads = groups[starts]
    return starts if np.unique(heads).size == heads.size else None


def _first_lowest_per_run(score: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Per run of rows (`starts`), the first row of its lowest score, NaN above every number
    (as np.unique orders them): without sorting the rows."""
    low = np.fmin.reduceat(score, starts)  # NaN only where the whole run is NaN
    run_of = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, score.size]))
    hits = np.flatnonzero((score == low[run_of]) | (np.isnan(score) & np.isnan(low[run_of])))
    return hits[np.r_[True, run_of[hits][1:] != run_of[hits][:-1]]]


def lowest_per_group(groups: np.ndarray, score: np.ndarray, count: int) -> np.ndarray:
    """Indices of the `count` lowest scores in each group (ties: first seen), in index order."""
    if groups.size == 0:
        return np.zeros(0, np.intp)
    if count <= _LOWEST_BY_ROUNDS and (runs := _runs_of_groups(groups)) is not None:
        if count == 1:
            return _first_lowest_per_run(score, runs)
        return _lowest_per_run(score, runs, count)
    order = _by_group_then_score(groups, score)
    sorted_groups = groups[order]
    starts = np.flatnonzero(np.r_[True, sorted_groups[1:] != sorted_groups[:-1]])
    rank = np.arange(order.size) - np.repeat(starts, np.diff(np.r_[starts, order.size]))
    return np.sort(order[rank < count])


# Up to this many per group, groups in runs of rows are chosen from round by round (one pass
# over the rows per round) rather than sorted: a search's pool of 32,762 rows in 1,311 cells,
# 8 per cell, 1.0 ms against 3.9 (a float sort for the scores' ranks, then an integer one).
_LOWEST_BY_ROUNDS = 16
_ABOVE_EVERY_KEY = np.iinfo(np.int64).max


def _lowest_per_run(score: np.ndarray, starts: np.ndarray, count: int) -> np.ndarray:
    """Per run of rows (`starts`), the rows of its `count` lowest scores (ties: first seen; NaN
    above every number, as np.unique orders them), in index order: a run of at most `count`
    rows is taken whole, and the longer ones give up their first lowest row each round.

    Each score becomes an integer key in the same order: the bits of the double, the negative
    ones' flipped but for the sign, -0.0 first made 0.0 (the two compare equal) and every NaN
    one key above +inf; a row taken gets a key above every score's."""
    n = score.size
    x = np.asarray(score, np.float64) + 0.0  # -0.0 + 0.0 is 0.0
    bits = x.view(np.int64)
    key = np.where(bits < 0, bits ^ _ABOVE_EVERY_KEY, bits)
    key[np.isnan(x)] = _ABOVE_EVERY_KEY - 1
    lengths = np.diff(np.r_[starts, n])
    long_run = lengths > count
    take = ~np.repeat(long_run, lengths)  # runs short enough, whole
    rows = np.flatnonzero(~take)  # the long runs' rows, runs still in order
    if rows.size:
        key = key[rows]
        sizes = lengths[long_run]
        run_starts = np.cumsum(sizes) - sizes
        run_of = np.repeat(np.arange(sizes.size), sizes)
        for _ in range(count):  # every long run has a row left to give each round
            low = np.minimum.reduceat(key, run_starts)
            hits = np.flatnonzero(key == low[run_of])
            of = run_of[hits]
            first = hits[np.r_[True, of[1:] != of[:-1]]]
            take[rows[first]] = True
            key[first] = _ABOVE_EVERY_KEY
    return np.flatnonzero(take)


def _by_group_then_score(groups: np.ndarray, score: np.ndarray) -> np.ndarray:
    """np.lexsort((score, groups)): by group, then score, ties in index order. Scores tie
    often (the fabrics of one server share a compute bound), which leaves a stable sort of
    floats (mergesort) the only exact one; instead each score is replaced by its rank among
    the distinct scores (equal scores, NaNs among them, one rank, as the sort compares them)
    and one integer key of (group, rank, index), all distinct, is sorted: several times
    faster for a search's pool of 30,000 rows."""
    low = int(groups.min())
    distinct, rank = np.unique(score, return_inverse=True)
    span_groups, span_ranks, n = int(groups.max()) - low + 1, distinct.size, groups.size
    if span_groups * span_ranks * n >= 2 ** 62:  # no room in one int64 key
        return np.lexsort((score, groups))
    key = ((groups.astype(np.int64) - low) * span_ranks + rank) * n + np.arange(n)
    return np.argsort(key)


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
         pair_of: Sequence[tuple[str, str]], per_server: int, limit: int) -> Ranking:
    """Each server's best one-node entry and each server and fabric's best past one node,
    best first.

    `pair_of` names each hardware's (server, fabric): a fabric's oversubscribed spines are
    hardware of their own for the table, but one offer of that pair, so only the best of them
    is listed. Ten distinct options are more use to a customer than one option at ten node
    counts, and at most `per_server` of one server keep the list from repeating one server on
    every fabric. At one node the job uses no fabric (each of a server's fabrics gives the
    same run), so a server is listed at one node once, on its best-scoring fabric (ties: the
    first pair); that entry is the server's, not its fabric's, so every pair's best past one
    node competes beside it. Rank 1 is always the best eligible candidate.
    """
    groups = hardware.astype(np.int64) * (int(nodes.max(initial=0)) + 1) + nodes
    cells = best_per_group(groups, score, eligible)
    best = dict(zip(zip(hardware[cells].tolist(), nodes[cells].tolist()), cells.tolist()))
    codes = {pair: k for k, pair in enumerate(dict.fromkeys(pair_of))}
    servers = {server: k for k, server in enumerate(dict.fromkeys(s for s, _ in pair_of))}
    hw = hardware.astype(np.intp)
    pair_code = np.array([codes[pair] for pair in pair_of], np.int64)[hw]
    server_code = np.array([servers[s] for s, _ in pair_of], np.int64)[hw]
    one = nodes == 1
    # Per server, ties to the first pair: its candidates ordered by pair before the lowest
    # score of each group is taken in that order.
    by_pair = np.argsort(pair_code, kind="stable")
    one_node = by_pair[best_per_group(server_code[by_pair], score[by_pair],
                                      (eligible & one)[by_pair])]
    past_one = best_per_group(pair_code, score, eligible & ~one)
    entries = np.concatenate([one_node, past_one])
    # Ties between entries: the first pair, then its one-node entry.
    entries = entries[np.lexsort((nodes[entries], pair_code[entries]))]
    taken: dict[str, int] = {}
    order: list[int] = []
    for i in entries[np.argsort(score[entries], kind="stable")]:
        server = pair_of[int(hardware[i])][0]
        if taken.get(server, 0) < per_server:
            taken[server] = taken.get(server, 0) + 1
            order.append(int(i))
            if len(order) == limit:
                break
    return Ranking(tuple(order), best)


class RunningBest:
    """What a search streamed chunk by chunk keeps: the best eligible candidate of each cell
    (hardware pair x node count) with its columns, and the counts the result reports.

    Only cells within their pair's stock can hold a candidate (a winner passes the stock
    rule), so only those are stored, in hardware-major order; the cells past the stock are
    counted per pair. Memory then follows the stock, not the node range asked for.

    Ties go to the candidate seen first, as `best_per_group` gives them over the whole search,
    so the kept table is the exhaustive one whatever the chunk size.
    """

    def __init__(self, hardware: int, node_counts: int, held: np.ndarray | None = None):
        """`held[h]`: how many of the node counts (ascending) pair h has in stock; the cells
        of its higher node counts can never hold a candidate (default: every cell)."""
        self.node_counts = node_counts
        self.hardware = hardware
        held = (np.full(hardware, node_counts, np.int64) if held is None
                else np.minimum(np.asarray(held, np.int64), node_counts))
        self.held = held
        self.base = np.cumsum(held) - held  # first stored cell of each pair
        stored = int(held.sum())
        # Each cell's stored index (-1: past its pair's stock) as one table, so that a chunk
        # looks its cells up with one gather: 4 bytes per cell of the range, for all pairs.
        index = np.arange(node_counts)
        self._stored_of = np.where(index < held[:, None], self.base[:, None] + index,
                                   -1).astype(np.int32).ravel()
        # And where a cell's rule counts go: its stored index, or past the stock, the stored
        # cells' count plus its pair.
        self._counted_at = np.where(self._stored_of >= 0, self._stored_of,
                                    stored + np.repeat(np.arange(hardware), node_counts)
                                    ).astype(np.int32)
        self.score = np.full(stored, np.inf)  # per stored cell
        # Columns are stored only for cells that ever held a winner (most cells of a wide
        # node range hold none: past the stock, or nothing fits), at the cell's slot.
        self.slot = np.full(stored, -1, np.int32)
        self.columns: dict[str, np.ndarray] = {}
        self._used, self._allocated = 0, 64
        self.evaluated = 0
        # Candidates ranked on the time model's figures (the others were ruled out before it,
        # or left out by their compute bound; a few bound probes run and are left out too).
        self.timed = 0
        self.eligible = 0
        self.best_raw_score = np.inf  # of every eligible candidate, not only the kept ones
        self.excluded: dict[str, int] = {}
        # Per rule: candidates ruled out by that rule first, per stored cell and, past each
        # pair's stock, per pair.
        self.ruled_out: dict[str, np.ndarray] = {}
        self.ruled_out_past_stock: dict[str, np.ndarray] = {}

    def stored(self, cell: np.ndarray) -> np.ndarray:
        """Each cell's index among the stored ones, -1 for a cell past its pair's stock."""
        return self._stored_of[cell]

    def add(self, cell: np.ndarray, score: np.ndarray, raw_score: np.ndarray,
            eligibility: Eligibility,
            columns: Mapping[str, np.ndarray] | Callable[[np.ndarray], Mapping[str, np.ndarray]],
            rows: np.ndarray) -> None:
        """One chunk: its cells, scores and eligibility per candidate, and the columns to keep
        of its winners, given for the chunk's `rows` (sorted; every eligible one among them),
        or by a function of some of those rows (their positions among them), so that only the
        winners' are picked."""
        self.evaluated += int(cell.shape[0])
        self.timed += int(rows.size)
        eligible = eligibility.eligible
        for name, count in eligibility.excluded.items():
            self.excluded[name] = self.excluded.get(name, 0) + count
        self._count_ruled_out(cell, eligibility.ruled_out)
        n_eligible = int(np.count_nonzero(eligible))
        if not n_eligible:
            return
        self.eligible += n_eligible
        self.best_raw_score = min(self.best_raw_score, float(raw_score[eligible].min()))
        # Only the given rows can win: every other eligible one scores inf here.
        winners = rows[best_per_group(cell[rows], score[rows], eligible[rows])]
        at = self.stored(cell[winners])
        if (at < 0).any():
            raise ValueError("an eligible candidate past its pair's stock")
        won = score[winners] < self.score[at]
        better, targets = winners[won], at[won]
        self.score[targets] = score[better]
        given = np.searchsorted(rows, better)  # where each winner is among the given rows
        slots = self._slots(targets)
        picked = (columns(given) if callable(columns)
                  else {key: np.asarray(column)[given] for key, column in columns.items()})
        for key, column in picked.items():
            column = np.asarray(column)
            if key not in self.columns:
                self.columns[key] = np.zeros(self._allocated, dtype=column.dtype)
            self.columns[key][slots] = column

    def count(self, cells: np.ndarray, ruled_out: Mapping[str, np.ndarray]) -> None:
        """Candidates ruled out without being built: per rule, how many of each of `cells`
        (distinct) it ruled out first. They count as evaluated, as `add`'s do."""
        stored = self.score.shape[0]
        at = self._counted_at[cells]
        for name, per_cell in ruled_out.items():
            count = int(per_cell.sum())
            self.evaluated += count
            if count:
                self.excluded[name] = self.excluded.get(name, 0) + count
            counts = np.zeros(stored + self.hardware, np.int64)
            np.add.at(counts, at, per_cell)  # the cells past a pair's stock count together
            if name in self.ruled_out:
                self.ruled_out[name] += counts[:stored].astype(np.int32)
                self.ruled_out_past_stock[name] += counts[stored:]
            else:
                self.ruled_out[name] = counts[:stored].astype(np.int32)
                self.ruled_out_past_stock[name] = counts[stored:]

    def _count_ruled_out(self, cell: np.ndarray, ruled_out: Mapping[str, np.ndarray]) -> None:
        """Per rule, the chunk's candidates it ruled out, added per stored cell and, past each
        pair's stock, per pair: one count over the chunk for all rules (a candidate is ruled
        out by one rule at most, so each candidate has one code; 0: none)."""
        names = list(ruled_out)
        code = np.zeros(cell.shape, np.intp)
        for k, name in enumerate(names, start=1):
            code[ruled_out[name]] = k
        stored = self.score.shape[0]
        width = stored + self.hardware
        counts = np.bincount(code * width + self._counted_at[cell],
                             minlength=(len(names) + 1) * width).reshape(len(names) + 1, width)
        for k, name in enumerate(names, start=1):
            per_cell, per_pair = counts[k, :stored].astype(np.int32), counts[k, stored:].copy()
            if name in self.ruled_out:
                self.ruled_out[name] += per_cell
                self.ruled_out_past_stock[name] += per_pair
            else:
                self.ruled_out[name] = per_cell
                self.ruled_out_past_stock[name] = per_pair

    def _slots(self, targets: np.ndarray) -> np.ndarray:
        new = targets[self.slot[targets] < 0]
        if new.size:
            self.slot[new] = np.arange(self._used, self._used + new.size)
            self._used += new.size
            if self._used > self._allocated:
                self._allocated = max(self._used, 2 * self._allocated)
                self.columns = {k: np.concatenate([v, np.zeros(self._allocated - v.shape[0],
                                                               v.dtype)])
                                for k, v in self.columns.items()}
        return self.slot[targets]

    def kept(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """The cells that hold a candidate, in candidate order, and their columns."""
        stored = np.flatnonzero(np.isfinite(self.score))
        hardware = np.searchsorted(self.base, stored, side="right") - 1
        cells = hardware * self.node_counts + (stored - self.base[hardware])
        return cells, {key: column[self.slot[stored]] for key, column in self.columns.items()}

    def ruled_out_of(self, hardware: int, node_index_above: int) -> dict[str, int]:
        """Candidates of one hardware pair past a node index within its stock (a node count
        a candidate was kept at), by the rule that ruled them out."""
        if node_index_above >= self.held[hardware]:
            raise ValueError("the node index is past the pair's stock")
        lo = self.base[hardware] + node_index_above + 1
        hi = self.base[hardware] + self.held[hardware]
        counts = {name: int(per_cell[lo:hi].sum()) + int(self.ruled_out_past_stock[name][hardware])
                  for name, per_cell in self.ruled_out.items()}
        return {name: n for name, n in counts.items() if n}
