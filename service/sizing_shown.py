"""What a sizing shows: its ranked configurations, advice and series, priced in Decimal.

Everything here reads the search's arrays and the ranking's table; every amount comes from
the pricing engine (catalog.pricing) for the billing the ranking used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

import numpy as np

from catalog import pricing
from catalog.offer import delivery
from catalog.pricing import Billing, Configuration
from catalog.snapshot import Snapshot
from service.sizing_request import SizingRequest
from service.sizing_result import (
    Breakdown,
    EfficiencySeries,
    FabricComparison,
    FabricRef,
    FabricVsMoreGpus,
    Goodput,
    HotSpares,
    Interval,
    Memory,
    NetworkAdvice,
    NetworkUpgrade,
    RankedConfiguration,
    ResultLayout,
    ServerRef,
    SizingPrice,
    SizingResult,
    StockView,
    WhatIfOption,
    WorkloadSummary,
)
from service.term_warning import term_warning
from service.total_range import total_range
from service.typed import significant
from sizing import advice, explain, goodput, intervals, ranking, series
from sizing.hardware import Cluster
from sizing.search import Candidates, HardwareTable
from sizing.step import Estimate, estimate, estimate_batch, estimate_of, step_times_by_constants
from sizing.workload import Training, Transformer


@dataclass(frozen=True)
class Search:
    """One request's search: the best candidate of each (hardware, node count) with the
    model's numbers, its price and its score (arrays indexed alike), and what was counted."""

    snap: Snapshot
    request: SizingRequest
    training: Training
    max_global_batch: float  # the largest batch a layout may round the default up to
    hardware: tuple[tuple[str, str], ...]
    clusters: tuple[Cluster, ...]
    cands: Candidates
    r: dict[str, np.ndarray]
    rate: np.ndarray  # tokens/s or samples/s
    hours: np.ndarray  # time to train with failures (or the duration given): what is billed
    cost: np.ndarray  # what the billed months or hours cost, with one-time fees
    months: np.ndarray
    on_demand_hours: np.ndarray
    monthly: np.ndarray  # the term's net rate per month
    raw_score: np.ndarray  # the objective alone
    score: np.ndarray  # with the policy's fabric preference
    failures: goodput.CandidateGoodput  # interruptions, checkpoints and restarts of every candidate
    tally: ranking.RunningBest  # candidates evaluated, eligible, ruled out by rule and cell
    excluded: dict[str, int]  # by the offer, the layouts and the rules
    ranked: ranking.Ranking
    spares: np.ndarray  # hot spare nodes the ranking took beside each candidate's nodes (or 0)
    table: HardwareTable  # `clusters`' figures as the model reads them, built once per search
    # Candidate i's Decimal price, by i: the advice, the rows, their notes and the what-ifs
    # all quote the same few candidates, and the engine's Decimal lines are most of a price.
    _prices: dict[int, pricing.Price] = field(default_factory=dict, compare=False, repr=False)
    # Candidate i without and with hot spares (spare_choice), by i: its row, its goodput in the
    # storage note and the hot-spare note read it, each choice two failure models and prices.
    _spare_choices: dict[int, SpareChoice | None] = field(default_factory=dict, compare=False,
                                                          repr=False)

    @property
    def by_work(self) -> bool:
        return self.request.work.units is not None

    def config(self, i: int, spares: int | None = None) -> Configuration:
        """What candidate i bills: its nodes and its spare nodes (or `spares` of them)."""
        server, fabric = self.hardware[int(self.cands.hardware[i])]
        cluster = self.clusters[int(self.cands.hardware[i])]
        extra = int(self.spares[i]) if spares is None else spares
        return Configuration(server, fabric, int(self.cands.nodes[i]) + extra,
                             self.request.region, cluster.server.nics_per_node,
                             cluster.fabric.oversubscription, hot_spare_nodes=extra)

    def price(self, i: int) -> pricing.Price:
        """Candidate i priced in Decimal by the engine, for the billing its ranking used."""
        i = int(i)
        held = self._prices.get(i)
        if held is None:
            billing = Billing(self.request.term, int(self.months[i]), int(self.on_demand_hours[i]))
            held = self._prices[i] = pricing.price(self.snap.prices, self.config(i),
                                                   term=self.request.term,
                                                   currency=self.request.currency,
                                                   billing=billing)
        return held


@dataclass(frozen=True)
class Nothing:
    """A search that found nothing to show, and why."""

    snap: Snapshot
    request: SizingRequest
    excluded: dict[str, int]
    why: str
    evaluated: int


def shown_result(found: Search | Nothing, today: date) -> SizingResult:
    """The typed result: ranked configurations, network advice, series and notes."""
    if isinstance(found, Nothing):
        return empty_result(found.snap, found.request, found.excluded, found.why,
                            found.evaluated, today)
    snap, request, ranked = found.snap, found.request, found.ranked
    references = one_nodes(found, {found.hardware[int(found.cands.hardware[i])][0]
                                   for i in ranked.order})
    network, recommended = network_advice(found, ranked, references)
    uncertainty = ranked_uncertainty(found)
    estimates = ranked_estimates(found)
    configurations = tuple(ranked_configuration(found, rank, i, ranked.order[0], references,
                                                recommended, today, uncertainty, estimates[i])
                           for rank, i in enumerate(ranked.order, start=1))
    plot = efficiency_series(found, ranked.order[0], references)
    return SizingResult(
        catalog_version=snap.version_id, priced_on=today.isoformat(),
        objective=request.objective, currency=request.currency, term=request.term,
        region=request.region, workload=workload_summary(request),
        candidates_evaluated=found.tally.evaluated,
        candidates_eligible=found.tally.eligible, excluded=found.excluded,
        configurations=configurations, rank_one_stable=uncertainty.rank_one_stable,
        rank_stability=uncertainty.rank_stability, network_advice=network,
        efficiency_series=plot,
        notes=tuple(notes(found) + one_node_notes(found, references, configurations, plot)),
    )


def one_node(found: Search, server: str) -> series.OneNodeReference | None:
    return one_nodes(found, {server})[server]


def one_nodes(found: Search, servers: set[str]) -> dict[str, series.OneNodeReference | None]:
    """Each server's one-node reference, the servers in one pass of the model."""
    chosen = sorted(servers)
    clusters = [found.clusters[next(h for h, (s, _) in enumerate(found.hardware) if s == server)]
                for server in chosen]
    request = found.request
    return dict(zip(chosen, series.one_node_references(
        clusters, request.model, found.training, request.layout, request.batch_fixed,
        found.max_global_batch, found.snap.constants), strict=True))


# ------------------------------------------------------------------------------ advice

def network_advice(found: Search, ranked: ranking.Ranking,
                   references: dict) -> tuple[NetworkAdvice, str | None]:
    """The advice for rank 1's server and node count, from the ranking's own table, and the
    fabric it recommends (None when rank 1 runs on one node and uses none)."""
    snap, request, cands, r = found.snap, found.request, found.cands, found.r
    top = ranked.order[0]
    top_hw, nodes = int(cands.hardware[top]), int(cands.nodes[top])
    server = found.hardware[top_hw][0]
    same_server = {h for h, (s, _) in enumerate(found.hardware) if s == server}
    at_nodes = {h: i for h, i in ranked.options_at(nodes).items() if h in same_server}
    options = []
    totals = {i: found.price(i).total for i in at_nodes.values()}
    for h, i in at_nodes.items():
        fabric = snap.fabrics[found.hardware[h][1]]
        # An oversubscribed variant of a fabric is an option of its own: its name says which.
        ratio = found.clusters[h].fabric.oversubscription
        name = fabric.name if ratio <= 1 else f"{fabric.name} on a {ratio:g}:1 spine"
        options.append(advice.FabricOption(
            candidate=i, fabric_id=fabric.id, fabric_name=name, kind=fabric.kind,
            rdma=fabric.rdma, lossless=fabric.lossless, line_rate_gbps=fabric.line_rate_gbps,
            throughput=float(found.rate[i]),
            scaling_efficiency=float(r["scaling_efficiency"][i]),
            communication_share=float(r["communication_share"][i]),
            objective_score=float(found.raw_score[i]), score=float(found.score[i]),
            goodput=float(found.failures.goodput[i]), wall_hours=float(found.hours[i]),
            cost_text=f"{totals[i]:,} {request.currency}",
            work_done=None if found.by_work else useful_work(found, i),
            unit=throughput_unit(request).split("/")[0], currency=request.currency,
            total_cost=float(totals[i]), one_time_cost=float(found.price(i).one_time)))
    rec = advice.recommend(options, request.objective, snap.policy.preference_tolerance,
                           uses_fabric=pricing.uses_fabric(nodes))
    if rec.pick.fabric_id != found.hardware[top_hw][1]:
        raise AssertionError("the advice and the ranking disagree on rank 1's fabric")
    reference = references.get(server)
    unit = throughput_unit(request)
    comparison = tuple(FabricComparison(
        fabric=o.fabric_id, fabric_name=o.fabric_name, scaling_efficiency=o.scaling_efficiency,
        efficiency_vs_one_node=series.vs_one_node(o.throughput, int(r["gpus"][o.candidate]),
                                                  reference),
        throughput=o.throughput, throughput_unit=unit,
        communication_share=o.communication_share,
        monthly=found.price(o.candidate).monthly_net, goodput=o.goodput,
        time_to_train_hours=o.wall_hours, total=totals[o.candidate], recommended=o is rec.pick,
        oversubscription=found.clusters[
            int(cands.hardware[o.candidate])].fabric.oversubscription)
        for o in rec.options)
    ruled_out = found.tally.ruled_out_of(top_hw, int(cands.node_index[top]))
    what_if = advice.fabric_or_more_gpus(
        top, at_nodes, ranked.options_of(top_hw), nodes, max(request.node_counts), found.rate,
        found.monthly, ruled_out)
    roce = any(snap.fabrics[found.hardware[int(cands.hardware[i])][1]].kind == "roce"
               for i in ranked.order)
    return NetworkAdvice(
        server=server, server_name=snap.servers[server].name, nodes=nodes,
        recommended_fabric=rec.pick.fabric_id, recommended_fabric_name=rec.pick.fabric_name,
        fabric_class=rec.fabric_class, reason=rec.reason, comparison=comparison,
        fabric_vs_more_gpus=fabric_vs_more_gpus(found, what_if),
        roce_checklist=advice.ROCE_CHECKLIST if roce else (),
        upgrades=network_upgrades(found, rec.pick.candidate, [o.candidate for o in rec.options]),
    ), rec.pick.fabric_id if pricing.uses_fabric(nodes) else None


def network_upgrades(found: Search, pick: int, options: list[int]) -> tuple[NetworkUpgrade, ...]:
    """What each faster option buys over rank 1, in money: gain per 1,000 spent per month."""
    book, currency = found.snap.prices, found.request.currency
    unit = throughput_unit(found.request)

    def network(i: int) -> advice.Network:
        f = found.clusters[int(found.cands.hardware[i])].fabric
        return advice.Network(f.id, f.name, f.kind, f.lossless, f.sharp, f.oversubscription,
                              f.line_rate_gbps)

    base, current = network(pick), found.price(pick).monthly_net

    def per_money(i: int) -> float:
        extra = float(found.price(i).monthly_net - current)
        gain = float(found.rate[i] - found.rate[pick])
        return gain / extra if extra > 0 else float("inf")

    # One line per other fabric, at the spine ratio that buys the most per unit of money (its
    # other ratios are in the comparison); rank 1's own fabric at each less oversubscribed
    # spine, stated even when it buys nothing for this job.
    best: dict[str, int] = {}
    spines: list[int] = []
    for i in options:
        if i == pick:
            continue
        other = network(i)
        if other.fabric_id == base.fabric_id:
            if other.oversubscription < base.oversubscription:
                spines.append(i)
            continue
        if found.rate[i] <= found.rate[pick]:
            continue
        held = best.get(other.fabric_id)
        if held is None or per_money(i) > per_money(held):
            best[other.fabric_id] = i
    out = []
    for i in spines + list(best.values()):
        monthly = found.price(i).monthly_net
        extra = monthly - current
        gain = float(found.rate[i] / found.rate[pick] - 1)
        per_1000 = (max(float(found.rate[i] - found.rate[pick]), 0.0) / float(extra) * 1000
                    if extra > 0 else None)
        other = network(i)
        option = WhatIfOption(other.fabric_id, other.fabric_name, int(found.cands.nodes[i]),
                              monthly, extra, float(found.rate[i]), gain, per_1000,
                              other.oversubscription)
        what = advice.upgrade_label(base, other)
        out.append(NetworkUpgrade(option, what, advice.upgrade_sentence(
            what, gain, money_text(book, extra, currency), per_1000, unit, currency)))
    return tuple(sorted(out, key=lambda u: -(u.option.throughput_gain_per_1000 or float("inf"))))


def fabric_vs_more_gpus(found: Search, what_if: advice.WhatIf) -> FabricVsMoreGpus:
    """The what-if with its money re-priced in Decimal; gains per 1,000 of the currency."""
    current = found.price(what_if.current).monthly_net
    book, currency = found.snap.prices, found.request.currency

    def option(i: int | None) -> WhatIfOption | None:
        if i is None:
            return None
        monthly = found.price(i).monthly_net
        extra = monthly - current
        gain = float(found.rate[i] / found.rate[what_if.current] - 1)
        fabric = found.snap.fabrics[found.hardware[int(found.cands.hardware[i])][1]]
        per_1000 = (float(found.rate[i] - found.rate[what_if.current]) / float(extra) * 1000
                    if extra > 0 else None)
        return WhatIfOption(fabric.id, fabric.name, int(found.cands.nodes[i]), monthly, extra,
                            float(found.rate[i]), gain, per_1000)

    upgrade, more = option(what_if.upgrade), option(what_if.more_nodes)
    unit = throughput_unit(found.request)

    def words(o: WhatIfOption | None, label: str) -> advice.Option | None:
        return o and advice.Option(label, o.throughput_gain, money_text(book, o.extra_monthly,
                                                                        currency),
                                   o.throughput_gain_per_1000, unit, currency)

    sentence = advice.fabric_or_more_gpus_sentence(
        words(upgrade, f"Upgrading to {upgrade.fabric_name}" if upgrade else ""),
        words(more, f"{more.nodes} nodes" if more else ""),
        what_if.no_upgrade, what_if.no_more_nodes)
    return FabricVsMoreGpus(currency, upgrade, more, what_if.no_upgrade, what_if.no_more_nodes,
                            sentence)


def money_text(book: pricing.PriceBook, amount: Decimal, currency: str) -> str:
    """An amount as a sentence writes it: signed, thousands separated, with the currency."""
    return f"{book.round(amount, currency):+,} {currency}"


# ------------------------------------------------------------------------------ configurations

@dataclass(frozen=True)
class Uncertainty:
    """The ranked configurations' intervals (by candidate) and whether rank 1 stands."""

    intervals: dict[int, dict[str, Interval]]
    calibrated: dict[int, bool]
    rank_one_stable: bool | None
    rank_stability: str | None


def ranked_uncertainty(found: Search) -> Uncertainty:
    """p10-p90 of every ranked configuration's figures in one pass per prior draw."""
    snap, request, cands, order = found.snap, found.request, found.cands, found.ranked.order
    idx = np.array(order)
    calibration = snap.calibration
    calibrated = np.array([calibration.calibrated(snap.servers[s].gpu.id, f) for s, f in
                           (found.hardware[int(h)] for h in cands.hardware[idx])])
    # Only an extrapolated configuration's interval reads the prior's spread (a calibrated
    # one's is 0), and the model is element-wise: its passes run those rows alone.
    spread = np.zeros(idx.size)
    if not calibrated.all():
        rows = idx[~calibrated]
        batch = found.table.batch(cands, rows)  # the same rows each draw
        spread[~calibrated] = intervals.step_time_spread(
            step_times_by_constants(batch, request.model, found.training,
                                    lambda drawn: found.table.links(drawn, cands, rows)),
            snap.constants, calibration)
    kind = "transformer" if isinstance(request.model, Transformer) else "generic"
    r = found.r
    figures = {name: r[name][idx] for name in ("step_time_s", "samples_per_s", "mfu",
                                               "scaling_efficiency")}
    if kind == "transformer":
        figures["tokens_per_s"] = r["tokens_per_s"][idx]
    if found.by_work:
        figures.update(time_to_train_hours=found.hours[idx])
    bubble = intervals.bubble_share({name: r[name][idx] for name in ("bubble_s", "step_time_s")})
    bounds = intervals.figure_intervals(intervals.headline(kind, figures), calibration, spread,
                                        calibrated, bubble)
    per = {int(i): {name: Interval(float(p10[k]), float(p90[k]))
                    for name, (p10, p90) in bounds.items()} for k, i in enumerate(idx)}
    if found.by_work:
        # Money is not a time: the engine bills each end of the run's interval by its rule.
        for i, figure in per.items():
            # The rates of its own price (kept for its row): one Decimal price fewer each.
            figure["total"] = total_range(snap.prices, found.config(i),
                                          figure["time_to_train_hours"], term=request.term,
                                          currency=request.currency, rates=found.price(i))
    lo, hi = intervals.log_bounds(intervals.THROUGHPUT[kind], calibration, spread, calibrated)
    best, worst = intervals.score_bounds(found.raw_score[idx], lo, hi, request.objective)
    stable, words = None, None
    if idx.size > 1:
        stable = bool(worst[0] < best[1])
        words = explain.rank_stability(stable, request.objective)
    return Uncertainty(per, {int(i): bool(c) for i, c in zip(idx, calibrated)}, stable, words)


def shown_cluster(found: Search, i: int) -> Cluster:
    """Candidate i's cluster at its node count, as its configuration is shown."""
    hw = int(found.cands.hardware[i])
    server_id, fabric_id = found.hardware[hw]
    return found.snap.cluster(server_id, fabric_id, int(found.cands.nodes[i]),
                              found.clusters[hw].fabric.oversubscription)


def ranked_estimates(found: Search) -> dict[int, Estimate]:
    """Every ranked configuration's full estimate (breakdown, memory, bottleneck, assumptions),
    by candidate, from one pass of the model over them all: it is element-wise, so each row's
    figures are those step.estimate gives it alone. A single configuration goes through
    step.estimate itself, whose cluster's links are kept from one sizing to the next (a
    pass builds its rows' links: 0.3 ms more for one row, measured on bench ONE_NODE)."""
    snap, request, cands, order = found.snap, found.request, found.cands, found.ranked.order

    def training(i: int) -> Training:
        return Training(global_batch=int(cands.global_batch[i]),
                        micro_batch=cands.micro_batch_at(i), precision=request.precision)

    if len(order) == 1:
        i = order[0]
        return {i: estimate(shown_cluster(found, i), request.model, training(i),
                            cands.layout_at(i), snap.constants)}
    rows = found.table.batch(cands, np.array(order))
    r = estimate_batch(rows, request.model, found.training, snap.constants)
    if not r["valid"].all():
        raise AssertionError("the ranking kept a configuration the model cannot run")
    return {i: estimate_of({name: column[k] for name, column in r.items() if name != "valid"},
                           shown_cluster(found, i), request.model, training(i),
                           cands.layout_at(i), snap.constants)
            for k, i in enumerate(order)}


def ranked_configuration(found: Search, rank: int, i: int, first: int, references: dict,
                         recommended: str | None, today: date, uncertainty: Uncertainty,
                         est: Estimate) -> RankedConfiguration:
    snap, request, cands = found.snap, found.request, found.cands
    hw = int(cands.hardware[i])
    server_id, fabric_id = found.hardware[hw]
    nodes = int(cands.nodes[i])
    layout, micro_batch = cands.layout_at(i), cands.micro_batch_at(i)
    cluster = shown_cluster(found, i)
    training = Training(global_batch=int(cands.global_batch[i]), micro_batch=micro_batch,
                        precision=request.precision)
    pairing = snap.pairings[(server_id, fabric_id)]
    fabric = snap.fabrics[fabric_id]
    by_work = found.by_work
    return RankedConfiguration(
        rank=rank,
        server=ServerRef(server_id, snap.servers[server_id].name),
        fabric=FabricRef(fabric_id, fabric.name, fabric.kind, pairing.rdma,
                         pairing.gpudirect_rdma),
        gpu=cluster.gpu.id, region=request.region, nodes=nodes, gpus=cluster.gpus,
        hot_spare_nodes=int(found.spares[i]),
        nics_per_node=cluster.server.nics_per_node,
        oversubscription=cluster.fabric.oversubscription,
        layout=ResultLayout.of(layout, micro_batch), global_batch=training.global_batch,
        step_time_s=est.step_time_s, breakdown=Breakdown(**est.breakdown),
        tokens_per_s=est.tokens_per_s if isinstance(request.model, Transformer) else None,
        samples_per_s=est.samples_per_s, mfu=est.mfu, mfu_causal=est.mfu_causal,
        scaling_efficiency=est.scaling_efficiency,
        efficiency_vs_one_node=series.vs_one_node(float(found.rate[i]), cluster.gpus,
                                                  references.get(server_id)),
        communication_share=est.communication_share,
        time_to_train_hours=float(found.hours[i]),
        price=sizing_price(found, i, cluster.gpus + int(found.spares[i]) * cluster.gpus_per_node,
                           uncertainty.intervals[i]),
        goodput=goodput_view(found, i), intervals=uncertainty.intervals[i],
        calibration="calibrated" if uncertainty.calibrated[i] else "extrapolated",
        memory=Memory.of(est.memory), bottleneck=est.bottleneck,
        assumptions=tuple(est.assumptions),
        stock=stock_view(found, server_id, nodes + int(found.spares[i]), today),
        network_note=network_note(fabric, recommended, nodes, snap.fabrics),
        why=explain.why_rank(rank, request.objective, by_work, *per_unit(found, i),
                             *per_unit(found, first),
                             scaling_efficiency=est.scaling_efficiency,
                             preferred=preferred_note(found, i) if rank == 1 else None),
    )


def per_unit(found: Search, i: int) -> tuple[float, float]:
    """(time, cost) per unit of work, as the score weighs them."""
    if found.by_work:
        return float(found.hours[i]), float(found.cost[i])
    work_per_s = float(found.rate[i] * found.failures.goodput[i])
    return 1.0 / work_per_s, float(found.cost[i]) / work_per_s


def useful_work(found: Search, i: int) -> float:
    """Tokens or samples trained in the duration given, the time lost to failures excluded."""
    return float(found.rate[i] * found.failures.goodput[i] * found.hours[i]) * 3600.0


def goodput_view(found: Search, i: int) -> Goodput:
    """Candidate i's failures, checkpoints and restarts, and the hot-spare option priced."""
    g, rel = found.failures, found.snap.reliability
    mtbf = float(g.mtbf_s[i])
    ideal = float(g.wall_hours[i] * g.goodput[i]) if found.by_work else None
    share = found.snap.policy.checkpoint_time_share
    return Goodput(
        interruptions_per_day=float(g.interruptions_per_day[i]),
        mean_time_between_interruptions_hours=mtbf / 3600.0,
        expected_interruptions=float(found.hours[i]) * 3600.0 / mtbf,
        checkpoint_size_gb=float(g.checkpoint_bytes[i]) / 1e9,
        checkpoint_write_s=float(g.checkpoint_write_s[i]),
        checkpoint_interval_hours=float(g.checkpoint_interval_s[i]) / 3600.0,
        restart_s=float(g.restart_s[i]), goodput=float(g.goodput[i]),
        time_to_train_without_failures_hours=ideal,
        work_done=float(found.request.work.units or useful_work(found, i)),
        storage_needed_gbs=float(goodput.required_storage_Bps(g.checkpoint_bytes[i], mtbf,
                                                              share)) / 1e9,
        storage_offer_gbs=float(goodput.storage_throughput_Bps(rel, found.cands.nodes[i])) / 1e9,
        hot_spares=hot_spares(found, i))


@dataclass(frozen=True)
class SpareChoice:
    """Candidate i without and with hot spare nodes, whichever the ranking took."""

    spares: int
    goodput: tuple[float, float]  # without, with
    hours: tuple[float, float]  # billed: the work with its failures, or the duration given
    work: tuple[float, float]  # tokens or samples trained in those hours
    price: tuple[pricing.Price, pricing.Price]


def spare_stock(found: Search, i: int) -> tuple[int, int]:
    """The spare nodes the policy keeps for candidate i, and the nodes its server may use (in
    stock, plus those arriving within the lead time), as the ranking's stock rule reads them."""
    spares = int(goodput.hot_spares(found.snap.reliability, found.cands.nodes[[i]])[0])
    server_id = found.hardware[int(found.cands.hardware[i])][0]
    stock = found.snap.stock_of(found.request.region, server_id)
    return spares, stock.usable(found.request.max_lead_time_days)


def spare_choice(found: Search, i: int) -> SpareChoice | None:
    """Candidate i without and with its hot spares; None when the stock has no node for them
    (the ranking could not sell them either). Once per candidate and search."""
    i = int(i)
    if i not in found._spare_choices:
        found._spare_choices[i] = _spare_choice(found, i)
    return found._spare_choices[i]


def _spare_choice(found: Search, i: int) -> SpareChoice | None:
    g, cands, request = found.failures, found.cands, found.request
    ideal = g.wall_hours[[i]] * g.goodput[[i]] if found.by_work else found.hours[[i]]
    spares, usable = spare_stock(found, i)
    if int(cands.nodes[i]) + spares > usable:
        return None

    def priced(with_spares: bool) -> tuple[float, float, float, pricing.Price]:
        option = goodput.of_candidates(found.snap.reliability, found.clusters,
                                       cands.hardware[[i]], cands.nodes[[i]],
                                       found.r["gpus"][[i]], float(g.checkpoint_bytes[i]), ideal,
                                       hot_spare=with_spares)
        hours = float(option.wall_hours[0]) if found.by_work else float(found.hours[i])
        config = found.config(i, spares if with_spares else 0)
        billing = pricing.billing_for(found.snap.prices, config, term=request.term,
                                      currency=request.currency, training_hours=hours)
        work = request.work.units or float(found.rate[i] * option.goodput[0]) * hours * 3600.0
        return (float(option.goodput[0]), hours, float(work),
                pricing.price(found.snap.prices, config, term=request.term,
                              currency=request.currency, billing=billing))

    without, with_ = priced(False), priced(True)
    return SpareChoice(spares, *(tuple(pair) for pair in zip(without, with_, strict=True)))


def no_spares_reason(found: Search, i: int) -> str:
    """Why candidate i is offered no hot spares: the stock has no node left beside it."""
    spares, usable = spare_stock(found, i)
    return explain.no_hot_spares(nodes=int(found.cands.nodes[i]), spares=spares, usable=usable,
                                 lead_time_days=found.request.max_lead_time_days,
                                 spare_share=found.snap.reliability.hot_spare_share)


def hot_spares(found: Search, i: int) -> HotSpares:
    """The same configuration with hot spare nodes: restarts skip finding a replacement. Priced
    against the configuration without them, whichever of the two the ranking took; when the
    stock has no node for them, not offered: no spare, and the configuration's own figures."""
    choice = spare_choice(found, i)
    if choice is None:
        # Only a configuration without spares can be not offered them (the ranking keeps spares
        # only within stock), so its own figures are those of found.price and found.hours.
        none = found.snap.prices.round(Decimal(0), found.request.currency)
        return HotSpares(spare_nodes=0, goodput=float(found.failures.goodput[i]),
                         time_to_train_hours=float(found.hours[i]),
                         work_done=float(found.request.work.units or useful_work(found, i)),
                         total=found.price(i).total, difference=none, extra_monthly=none,
                         offered=False, not_offered_reason=no_spares_reason(found, i))
    without, with_ = choice.price
    return HotSpares(spare_nodes=choice.spares, goodput=choice.goodput[1],
                     time_to_train_hours=choice.hours[1], work_done=choice.work[1],
                     total=with_.total, difference=with_.total - without.total,
                     extra_monthly=with_.monthly_net - without.monthly_net)


def preferred_note(found: Search, i: int) -> str | None:
    """Said of rank 1 when the fabric preference, not the objective alone, put it first."""
    if not found.tally.best_raw_score < found.raw_score[i]:
        return None
    return (f"the policy prefers its fabric within {found.snap.policy.preference_tolerance:.0%} "
            "of a better score (see the network advice)")


def sizing_price(found: Search, i: int, gpus: int,
                 ranges: dict[str, Interval] | None = None) -> SizingPrice:
    """The engine's Decimal price for the training, and what follows from it; `ranges`, the
    model's p10-p90 of its figures, let the term warning read the time to train's p90."""
    book, request = found.snap.prices, found.request
    currency = request.currency
    price = found.price(i)
    billing = price.billing
    per_gpu_hour = (price.hourly_net / gpus if billing.on_demand
                    else price.monthly_net / (gpus * book.hours_per_month))
    work = request.work.units or useful_work(found, i)
    per_million = book.round(price.total / Decimal(repr(work)) * Decimal(1_000_000), currency)
    is_tf = isinstance(request.model, Transformer)
    hours, total = ((ranges or {}).get(name) for name in ("time_to_train_hours", "total"))
    # The p90 as the result stores it (four significant digits), so that a quote made from the
    # stored result, which reads it back, words its warning the same.
    warning = term_warning(book, found.snap.policy, found.config(i), term=request.term,
                           months_billed=billing.months, training_hours=float(found.hours[i]),
                           currency=currency, p90_training_hours=hours and significant(hours.p90),
                           p90_total=total and total.p90)
    return SizingPrice(
        currency=currency, term=request.term, billed_by="hour" if billing.on_demand else "month",
        months_billed=billing.months, hours_billed=billing.hours,
        monthly=price.monthly_net, hourly=price.hourly_net, one_time=price.one_time,
        total=price.total, price_per_gpu_hour=book.round(per_gpu_hour, currency),
        cost_per_million_tokens=per_million if is_tf else None,
        cost_per_million_samples=None if is_tf else per_million,
        warning=warning, training_hours=float(found.hours[i]))


def stock_view(found: Search, server: str, nodes: int, today: date) -> StockView:
    d = delivery(found.snap.stock_of(found.request.region, server), nodes, today)
    return StockView(d.available_now, d.from_deliveries, d.lead_time_days,
                     d.delivery_date.isoformat(), d.warning)


def network_note(fabric, recommended: str | None, nodes: int, fabrics) -> str:
    """How this configuration's fabric stands against the advice (`recommended`: None when
    rank 1 uses no fabric)."""
    if not pricing.uses_fabric(nodes):
        return (f"At one node the job runs inside the server and does not use the fabric: "
                f"{fabric.name} is listed as the server's pairing, and none of its ports, "
                "switches or cables is billed.")
    if recommended is None:
        note = "Rank 1 runs on one node and uses no fabric, so the network advice ranks none."
    elif fabric.id == recommended:
        note = "The network advice recommends this fabric."
    else:
        note = (f"The network advice recommends {fabrics[recommended].name} for rank 1's server "
                "and scale.")
    if fabric.kind == "roce" and not fabric.lossless:
        note += (" Without PFC/ECN a lost packet resends the whole window (go-back-N): plan the "
                 "lossless-Ethernet checklist or a lossless fabric.")
    elif fabric.kind == "roce":
        note += " RoCEv2 is lossless only as configured: see the lossless-Ethernet checklist."
    return note


# ------------------------------------------------------------------------------ series and words

def throughput_unit(request: SizingRequest) -> str:
    return "tokens/s" if isinstance(request.model, Transformer) else "samples/s"


def efficiency_series(found: Search, top: int, references: dict) -> EfficiencySeries | None:
    """Rank 1's layout family on rank 1's server, on every fabric it can be sold with."""
    request, snap, cands = found.request, found.snap, found.cands
    top_hw = int(cands.hardware[top])
    server = found.hardware[top_hw][0]
    # One line per fabric, at its lowest ratio: the oversubscribed variants come after it.
    first: dict[str, Cluster] = {}
    for c, (s, f) in zip(found.clusters, found.hardware):
        if s == server:
            first.setdefault(f, c)
    clusters = list(first.values())
    layout, micro_batch = cands.layout_at(top), cands.micro_batch_at(top)
    reference = references.get(server)
    lines = series.fabric_lines(
        clusters, series.node_counts(min(request.node_counts), max(request.node_counts),
                                     int(cands.nodes[top])),
        request.model, found.training, layout, micro_batch, request.batch_fixed,
        found.max_global_batch, snap.constants, reference)
    return EfficiencySeries(
        server=server, server_name=snap.servers[server].name,
        layout_family=ResultLayout.of(layout, micro_batch),
        layout_family_description=explain.layout_family(layout, micro_batch),
        throughput_unit=throughput_unit(request),
        one_node_throughput_per_gpu=reference.throughput_per_gpu if reference else None,
        one_node_fits_memory=bool(reference and reference.fits_memory),
        one_node_layout=(ResultLayout.of(reference.layout, reference.micro_batch)
                         if reference else None),
        one_node_layout_description=(explain.one_node_layout(reference.layout,
                                                             reference.micro_batch)
                                     if reference else None),
        lines=tuple(lines))


def workload_summary(request: SizingRequest) -> WorkloadSummary:
    model, work = request.model, request.work
    return WorkloadSummary(
        name=model.name, kind="transformer" if isinstance(model, Transformer) else "generic",
        params=float(model.params), tokens=work.tokens, samples_per_epoch=work.samples_per_epoch,
        epochs=work.epochs if work.samples_per_epoch is not None else None,
        duration_days=work.duration_days, precision=request.precision)


def notes(found: Search) -> list[str]:
    request, snap = found.request, found.snap
    book = snap.prices
    out = [(f"Prices in {request.currency} at the catalog's exchange rates of {book.rates_date}; "
           f"a month is {book.hours_per_month} hours."),
           (f"Configurations use at most the nodes in stock plus those arriving within "
           f"{request.max_lead_time_days} days (max_lead_time_days)."),
           (f"Fits in memory means with {snap.constants.memory_headroom_share:.0%} of each GPU's "
           "memory kept free (catalog policy memory_headroom_share).")]
    if not request.batch_fixed:
        out.append(f"Global batch about {found.training.global_batch} samples per step, rounded "
                   "per layout to a multiple of dp x micro-batch, at most "
                   f"{found.max_global_batch:g}: layouts whose data parallelism needs "
                   "a larger batch are ruled out (excluded.layout_batch).")
    if request.work.units is None:
        out.append(f"No amount of work given: configurations are priced for "
                   f"{request.work.duration_days:g} days and ranked by work done.")
    out.append("Time to train and its price include interruptions (per GPU, node and NIC link "
               "at Llama 3's published rates, the links by the fabric's stability class), "
               "checkpoints written synchronously at the Young/Daly interval and restarts "
               "(catalog reliability.yaml), with hot spares where a configuration keeps them "
               "(hot_spare_nodes); each configuration's goodput says how much of the wall clock "
               "trains. The p10-p90 intervals are the model's error on published measurements; "
               "they leave out the spread of failure rates.")
    out.append(storage_note(found, found.ranked.order[0]))
    out.append(hot_spare_note(found, found.ranked.order[0]))
    return out


def one_node_notes(found: Search, references: dict, configurations: tuple,
                   plot: EfficiencySeries | None) -> list[str]:
    """What efficiency_vs_one_node is measured against, per server: a one-node layout that does
    not fit, or one slower per GPU than a configuration on more nodes (a ratio above 1). The
    ratio quoted is the highest of the configurations in the requested node range: the plot's
    step either side of it is no configuration the customer asked for."""
    servers = found.snap.servers
    lowest, highest = min(found.request.node_counts), max(found.request.node_counts)
    # Per server, the highest ratio and where it is, so that a reader finds the figure quoted.
    above: dict[str, tuple[float, str]] = {}

    def held(server: str, ratio: float | None, where: str) -> None:
        if ratio is not None and ratio > above.get(server, (0.0, ""))[0]:
            above[server] = (ratio, where)

    for c in configurations:
        held(c.server.id, c.efficiency_vs_one_node,
             f"in rank {c.rank} at {c.nodes} nodes of {c.fabric.name}")
    if plot is not None:
        for line in plot.lines:
            for point in line.points:
                if lowest <= point.nodes <= highest:
                    held(plot.server, point.efficiency_vs_one_node,
                         f"in the efficiency series at {point.nodes} nodes of {line.fabric_name}")
    out = []
    for server, reference in sorted(references.items(), key=lambda kv: kv[0]):
        if reference is None:
            continue
        name = servers[server].name
        if not reference.fits_memory:
            out.append(f"The model does not fit on one node of {name}: there is no one-node "
                       "run to compare with, so efficiency_vs_one_node is null on it "
                       "(scaling_efficiency still says how much of each step is GPU work).")
        ratio, where = above.get(server, (0.0, ""))
        if ratio > 1:
            out.append(
                f"efficiency_vs_one_node reaches {ratio:.2f} on {name}, {where}: its reference "
                "is the fastest layout on one node that fits, "
                f"{explain.one_node_layout(reference.layout, reference.micro_batch)}, "
                "and more nodes spread ZeRO's shards wider, letting a layout shard or "
                "recompute less than one node's memory forces, so it runs faster per GPU. The "
                "ratio compares layouts as well as node counts; it is no scaling efficiency "
                "above 100%.")
    return out


def storage_note(found: Search, i: int) -> str:
    """The storage sizing advice for rank 1: what checkpoints need and what the offer gives."""
    view, book, request = goodput_view(found, i), found.snap.prices, found.request
    share = found.snap.policy.checkpoint_time_share
    rel = found.snap.reliability
    monthly = book.round(book.storage_per_node_month * book.fx(request.currency), request.currency)
    # The note quotes the figures as the result rounds them, so the two never disagree.
    needed_gbs, offer_gbs = significant(view.storage_needed_gbs), significant(view.storage_offer_gbs)
    enough = ("enough" if offer_gbs >= needed_gbs else
              "short of it: checkpoints take more of the run, as the goodput counts")
    # Significant figures, not decimals: a ResNet-50's 0.41 GB checkpoint read "0 GB".
    return (f"Checkpoints of rank 1 ({explain.significant_text(view.checkpoint_size_gb)} GB every "
            f"{explain.significant_text(view.checkpoint_interval_hours, 2)} h) stay under {share:.0%} of the run with "
            f"{explain.significant_text(needed_gbs)} GB/s of storage; the storage offer gives this job "
            f"{explain.significant_text(offer_gbs)} GB/s ({rel.storage_write_gbs_per_node:g} GB/s per "
            f"node, {rel.storage_write_gbs_total:g} GB/s in all), {enough}. The goodput assumes "
            f"it; it is priced apart at {monthly:,} {request.currency} per node per month.")


def hot_spare_note(found: Search, i: int) -> str:
    """What hot spares buy rank 1, in numbers, and whether the ranking took them, by its
    objective; or that the stock cannot offer them."""
    choice, rel, request = spare_choice(found, i), found.snap.reliability, found.request
    if choice is None:
        return f"Hot spares for rank 1: {no_spares_reason(found, i)}"
    without, with_ = choice.price
    # The objective's score with and without them, per unit of work as the ranking weighs it.
    time_per_unit = np.array(choice.hours) / np.array(choice.work)
    cost_per_unit = np.array([float(p.total) for p in choice.price]) / np.array(choice.work)
    score = ranking.objective_score(request.objective, time_per_unit, cost_per_unit)
    difference = with_.total - without.total
    # Times and work unrounded: the note rounds them only to write them, so that a difference
    # is never one of rounded figures (7913.96 h rounded to 7914 read 329.8 days, not 329.7).
    hours, work = choice.hours, choice.work
    currency = request.currency
    return explain.hot_spare_advice(
        taken=bool(found.spares[i]), spares=choice.spares,
        reschedule_minutes=(rel.restart_reschedule_s / 60, rel.restart_reschedule_hot_spare_s / 60),
        goodput=tuple(significant(x) for x in choice.goodput),
        hours=hours if found.by_work else None,
        work_gain=None if found.by_work else work[1] / work[0] - 1,
        unit=throughput_unit(request).split("/")[0],
        extra_monthly=f"{with_.monthly_net - without.monthly_net:,} {currency}",
        difference=f"{abs(difference):,} {currency}", cheaper=difference < 0,
        objective=request.objective, objective_gain=float(np.expm1(score[0] - score[1])),
        tolerance=found.snap.policy.preference_tolerance)


def empty_result(snap: Snapshot, request: SizingRequest, excluded: dict[str, int], why: str,
                 evaluated: int, today: date) -> SizingResult:
    return SizingResult(
        catalog_version=snap.version_id, priced_on=today.isoformat(),
        objective=request.objective, currency=request.currency, term=request.term,
        region=request.region, workload=workload_summary(request),
        candidates_evaluated=evaluated, candidates_eligible=0, excluded=excluded,
        configurations=(), rank_one_stable=None, rank_stability=None, network_advice=None, efficiency_series=None,
        notes=((f"No configuration: {why}. Widen the node range, the budget, the deadline or the "
               "lead time, or allow more GPU models and fabrics."),))
