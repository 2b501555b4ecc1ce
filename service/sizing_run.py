"""The work of one sizing: the offer's candidates through the core, priced, as a typed result.

body -> SizingRequest -> sellable pairs (catalog) -> candidates and model (sizing.search) ->
price tables (catalog.pricing) -> rules and rank (sizing.ranking) -> advice, series, words
(sizing.advice, sizing.series, sizing.explain) -> the shown configurations priced in Decimal by
the same engine -> SizingResult.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import numpy as np

from catalog import pricing
from catalog.offer import sellable_pairs
from catalog.pricing import Configuration
from catalog.snapshot import Snapshot
from service.sizing_request import SizingRequest
from service.sizing_result import SizingResult
from service.sizing_shown import Nothing, Search, shown_result
from sizing import goodput, ranking, series
from sizing.search import Candidates, enumerate_candidates, evaluate
from sizing.workload import Training

Progress = Callable[[float], None]


def run(snap: Snapshot, request: SizingRequest, progress: Progress, today: date) -> SizingResult:
    """Search and rank here, then what the result shows (service.sizing_shown)."""
    found = search(snap, request, progress)
    progress(0.75)
    return shown_result(found, today)


# ------------------------------------------------------------------------------ the search

def with_oversubscription(snap: Snapshot, pairs, clusters, cands: Candidates, r: dict, model,
                          training: Training):
    """The search's candidates plus each fabric's cheaper oversubscribed spines.

    For every (server, fabric, node count) beyond one leaf, the layout of highest throughput on
    the non-blocking fabric is also evaluated at each higher ratio the fabric is priced at: a
    2:1 spine costs a topology-ordered ring little and all-to-all much (sizing.collectives), and
    the ranking weighs that against the cheaper switch ports. Inside one leaf there is no spine
    to oversubscribe. The variants are appended as hardware of their own.
    """
    rate = series.rate_of(model, r)
    ok = r["valid"].astype(bool) & r["memory_fits"].astype(bool)
    extra_clusters, picks = [], []
    for h, ((server, fabric), cluster) in enumerate(zip(pairs, clusters)):
        higher = [o for o in snap.fabric_oversubscription_options[fabric]
                  if o > cluster.fabric.oversubscription]
        beyond = np.flatnonzero(ok & (cands.hardware == h)
                                & (cands.nodes > cluster.fabric.nodes_below_spine))
        if not higher or beyond.size == 0:
            continue
        best = [at[np.argmax(rate[at])] for n in np.unique(cands.nodes[beyond])
                for at in [beyond[cands.nodes[beyond] == n]]]
        for ratio in higher:
            extra_clusters.append(((server, fabric), snap.cluster(server, fabric, 1, ratio)))
            picks.extend((len(clusters) + len(extra_clusters) - 1, i) for i in best)
    if not picks:
        return pairs, clusters, cands, r
    new_hw, rows = (np.array(x) for x in zip(*picks))
    extra = Candidates(hardware=new_hw, nodes=cands.nodes[rows],
                       layout={k: v[rows] for k, v in cands.layout.items()},
                       global_batch=cands.global_batch[rows])
    all_clusters = clusters + tuple(c for _, c in extra_clusters)
    rx = evaluate(all_clusters, extra, model, training, snap.constants)
    joined = Candidates(hardware=np.concatenate([cands.hardware, extra.hardware]),
                        nodes=np.concatenate([cands.nodes, extra.nodes]),
                        layout={k: np.concatenate([v, extra.layout[k]])
                                for k, v in cands.layout.items()},
                        global_batch=np.concatenate([cands.global_batch, extra.global_batch]),
                        skipped=cands.skipped)
    return (tuple(pairs) + tuple(p for p, _ in extra_clusters), all_clusters, joined,
            {k: np.concatenate([v, rx[k]]) for k, v in r.items()})


def search(snap: Snapshot, request: SizingRequest, progress: Progress) -> Search | Nothing:
    """The offer's candidates through the model, priced, ruled on, scored and ranked."""
    policy, model = snap.policy, request.model
    training = request.training(policy)
    max_batch = request.max_global_batch(policy)
    offer = sellable_pairs(snap, request.hardware, request.region)
    pairs, excluded = offer.pairs, dict(offer.excluded)
    progress(0.1)
    clusters = tuple(snap.cluster(s, f, 1) for s, f in pairs)
    cands = enumerate_candidates(clusters, request.node_counts, model, training, request.layout,
                                 request.batch_fixed, max_batch)
    excluded.update({f"layout_{k}": v for k, v in cands.skipped.items() if v})
    if len(cands) == 0:
        return Nothing(snap, request, excluded, "no parallel layout fits these node counts", 0)
    r = evaluate(clusters, cands, model, training, snap.constants,
                 chunk=policy.max_candidates_per_pass)
    pairs, clusters, cands, r = with_oversubscription(snap, pairs, clusters, cands, r, model,
                                                      training)
    progress(0.6)
    rate = series.rate_of(model, r)
    units = request.work.units
    days = request.work.duration_days
    ideal = units / rate / 3600.0 if units else np.full(len(cands), days * 24.0)
    size_bytes = goodput.checkpoint_bytes(model.params, snap.constants, request.precision)
    counts = request.node_counts
    usable = np.array([snap.stock_of(request.region, s).usable(request.max_lead_time_days)
                       for s, _ in pairs])
    # Each candidate twice: as asked, and with hot spare nodes kept ready (restarts skip finding
    # a replacement; the spares are billed). The ranking takes the spares where they pay.
    spares_at = goodput.hot_spares(snap.reliability, np.asarray(counts)).astype(int)
    # One price per (hardware, node count billed), from the engine's Decimal lines; the counts
    # run on past the largest asked for to bill its spares.
    billed_counts = range(counts[0], counts[-1] + int(spares_at[-1]) + 1)
    configs = [Configuration(s, f, n, request.region, c.server.nics_per_node,
                             c.fabric.oversubscription)
               for (s, f), c in zip(pairs, clusters) for n in billed_counts]
    rates = pricing.rate_table(snap.prices, configs, term=request.term,
                               currency=request.currency)
    options = [priced_option(snap, request, clusters, cands, r, rate, ideal, size_bytes,
                             spares_at * with_spares, usable, rates, len(billed_counts),
                             hot_spare=with_spares)
               for with_spares in (False, True)]
    without, spared = options
    take = ranking.worth_adding(policy.preference_tolerance, without.raw, spared.raw,
                                without.eligibility.eligible, spared.eligibility.eligible)
    chosen = Option.choose(take, without, spared)
    eligibility, raw = chosen.eligibility, chosen.raw
    fabrics = [snap.fabrics[f] for _, f in pairs]
    lossy = np.array([f.kind == "roce" and not f.lossless for f in fabrics])
    score = raw + ranking.preference_handicap(policy.preference_tolerance, lossy[cands.hardware])
    excluded.update(eligibility.excluded)
    ranked = ranking.rank(cands.hardware, cands.nodes, score, eligibility.eligible,
                          [s for s, _ in pairs], policy.max_results_per_server,
                          request.max_results)
    if not ranked.order:
        return Nothing(snap, request, excluded, "every candidate was ruled out", len(cands))
    return Search(snap, request, training, max_batch, tuple(pairs), clusters, cands, r, rate,
                  chosen.hours, chosen.cost, chosen.months, chosen.on_demand, chosen.monthly,
                  raw, score, chosen.failures, eligibility, excluded, ranked, chosen.spares)


@dataclass(frozen=True)
class Option:
    """Every candidate with or without hot spares: failures, billed time, price, rules, score."""

    spares: np.ndarray  # spare nodes billed beside each candidate's nodes
    failures: goodput.CandidateGoodput
    hours: np.ndarray  # billed: the work with its failures, or the duration given
    cost: np.ndarray
    months: np.ndarray
    on_demand: np.ndarray
    monthly: np.ndarray
    eligibility: ranking.Eligibility
    raw: np.ndarray  # the objective alone

    @classmethod
    def choose(cls, take: np.ndarray, without: Option, with_: Option) -> Option:
        def pick(name: str) -> np.ndarray:
            return np.where(take, getattr(with_, name), getattr(without, name))

        rules = [(name, np.where(take, with_.eligibility.ruled_out.get(name, False),
                                 without.eligibility.ruled_out.get(name, False)))
                 for name in dict.fromkeys([*without.eligibility.ruled_out,
                                            *with_.eligibility.ruled_out])]
        return cls(spares=pick("spares"),
                   failures=goodput.choose(take, without.failures, with_.failures),
                   hours=pick("hours"), cost=pick("cost"), months=pick("months"),
                   on_demand=pick("on_demand"), monthly=pick("monthly"),
                   eligibility=ranking.sellable([(name, ~out) for name, out in rules]),
                   raw=pick("raw"))


def priced_option(snap: Snapshot, request: SizingRequest, clusters, cands, r, rate: np.ndarray,
                  ideal: np.ndarray, size_bytes: float, spares_at: np.ndarray,
                  usable: np.ndarray, rates: pricing.RateTable, billed_counts: int,
                  hot_spare: bool) -> Option:
    """The candidates with `spares_at[k]` spare nodes beside node count k: their failures,
    their price for the wall clock that follows, the rules and the objective. `rates` holds
    `billed_counts` node counts per hardware, from the smallest asked for."""
    units, counts = request.work.units, request.node_counts
    failures = goodput.of_candidates(snap.reliability, clusters, cands.hardware, cands.nodes,
                                     r["gpus"], size_bytes, ideal, hot_spare=hot_spare)
    # Billed: the work with checkpoints, interruptions and restarts, or the duration given.
    hours = failures.wall_hours if units else ideal
    spares = np.asarray(spares_at)[cands.nodes - counts[0]]
    cell = cands.hardware * billed_counts + (cands.nodes + spares - counts[0])
    cost, months, on_demand = pricing.training_cost(rates, cell, hours, request.term,
                                                    snap.prices.hours_per_month)
    monthly = rates.monthly_net[cell]

    rules = [("invalid_layout", r["valid"].astype(bool)),
             ("memory", r["memory_fits"].astype(bool)),
             ("stock", cands.nodes + spares <= usable[cands.hardware])]
    if request.budget_per_month is not None:
        rules.append(("budget", monthly <= float(request.budget_per_month)))
    if request.budget_total is not None:
        rules.append(("budget", cost <= float(request.budget_total)))
    if units and request.work.duration_days is not None:
        rules.append(("deadline", hours <= request.work.duration_days * 24.0))
    eligibility = ranking.sellable(rules)

    if units:
        time_per_unit, cost_per_unit = hours, cost
    else:
        # A fixed duration: rank by time and cost per unit of work done in it, the time lost
        # to failures excluded.
        useful_rate = rate * failures.goodput
        time_per_unit, cost_per_unit = 1.0 / useful_rate, cost / useful_rate
    raw = ranking.objective_score(request.objective, time_per_unit, cost_per_unit)
    return Option(spares, failures, hours, cost, months, on_demand, monthly, eligibility, raw)

