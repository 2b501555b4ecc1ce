"""The work of one sizing: candidates from the catalog, the model in one pass, ranked answers."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import numpy as np

from catalog.pricing import TERM_MONTHS, Configuration, PriceBook, list_totals
from catalog.snapshot import Snapshot
from service.errors import Problem, field_problem
from service.workloads import model_from
from sizing import advice
from sizing.hardware import Cluster
from sizing.search import (
    LayoutSpace,
    best_per_group,
    enumerate_candidates,
    evaluate,
    objective_score,
)
from sizing.step import estimate
from sizing.workload import Layout, Training, Transformer

Progress = Callable[[float], None]
SERIES_NODES = (1, 2, 4, 8, 16, 32, 64, 128)


def impossible(pointer: str, detail: str) -> Problem:
    return field_problem(pointer, detail, "impossible_request")


def policy(snap: Snapshot, name: str) -> float:
    return float(snap.document["policy"][name]["value"])


def eligible_pairs(snap: Snapshot, req: dict[str, Any], excluded: dict[str, int]) -> list[tuple[str, str]]:
    """(server, fabric) pairs the questionnaire and the RDMA support matrix allow."""
    gpus = req.get("gpu_models")
    include = set(req.get("fabrics_include") or snap.fabrics)
    exclude = set(req.get("fabrics_exclude") or ())
    pairs = []
    for (server_id, fabric_id), pairing in sorted(snap.pairings.items()):
        server = snap.servers[server_id]
        if gpus and server.gpu.id not in gpus:
            continue
        if req.get("gpus_per_node") and server.gpus_per_node != req["gpus_per_node"]:
            continue
        if fabric_id not in include or fabric_id in exclude:
            continue
        if (server_id, req["region"]) not in snap.prices.servers:
            excluded["not_sold_in_region"] = excluded.get("not_sold_in_region", 0) + 1
            continue
        if not pairing.supported:
            excluded["rdma_matrix"] = excluded.get("rdma_matrix", 0) + 1
            continue
        if req["rdma_required"] and not pairing.rdma:
            excluded["rdma_required"] = excluded.get("rdma_required", 0) + 1
            continue
        if req["precision"] == "fp8" and server.gpu.fp8_tflops is None:
            excluded["precision"] = excluded.get("precision", 0) + 1
            continue
        pairs.append((server_id, fabric_id))
    return pairs


def check_request(snap: Snapshot, req: dict[str, Any]) -> None:
    """Refuse up front what no configuration could satisfy, saying what to change."""
    if req["region"] not in snap.regions:
        raise impossible("/region", f"unknown region; choose one of {', '.join(snap.regions)}")
    if req["currency"] not in snap.prices.rates:
        raise impossible("/currency", f"not offered; choose one of {', '.join(sorted(snap.prices.rates))}")
    for i, gpu in enumerate(req.get("gpu_models") or ()):
        if gpu not in snap.gpus:
            raise impossible(f"/gpu_models/{i}", f"unknown GPU {gpu!r}; see GET /v1/catalog/gpus")
    for key in ("fabrics_include", "fabrics_exclude"):
        for i, fabric in enumerate(req.get(key) or ()):
            if fabric not in snap.fabrics:
                raise impossible(f"/{key}/{i}", f"unknown fabric {fabric!r}; see GET /v1/catalog/fabrics")
    if req.get("gpus_per_node") and not any(
            s.gpus_per_node == req["gpus_per_node"] for s in snap.servers.values()):
        offered = sorted({s.gpus_per_node for s in snap.servers.values()})
        raise impossible("/gpus_per_node", f"no server has that many GPUs; offered: {offered}")
    if not eligible_pairs(snap, req, {}):
        pointer = "/fabrics_include" if req.get("fabrics_include") else "/gpu_models"
        detail = "no server and fabric in the catalog satisfy these constraints together"
        if req["precision"] == "fp8":
            detail += " (fp8 needs a GPU with FP8: H100, H200, B200, L40S, RTX cards, MI300X)"
            pointer = "/precision"
        elif req["rdma_required"]:
            detail += " (rdma_required excludes plain Ethernet fabrics)"
            pointer = "/rdma_required"
        raise impossible(pointer, detail)
    model = model_from(req["workload"])
    layout = req.get("layout")
    if layout and isinstance(model, Transformer):
        if model.heads % layout["tp"]:
            raise impossible("/layout/tp", f"tp={layout['tp']} does not divide {model.heads} heads")
        if model.experts % layout["ep"]:
            raise impossible("/layout/ep", f"ep={layout['ep']} does not divide {model.experts} experts")


def default_global_batch(snap: Snapshot, model) -> int:
    if isinstance(model, Transformer):
        return max(1, round(policy(snap, "default_batch_tokens") / model.seq_len))
    return int(policy(snap, "default_generic_batch"))


def max_global_batch(snap: Snapshot, training: Training) -> float:
    """The largest batch a layout may round the default up to (a fixed batch is never changed)."""
    return training.global_batch * policy(snap, "max_batch_growth")


def layout_space(req: dict[str, Any]) -> LayoutSpace:
    fixed = req.get("layout")
    if not fixed:
        return LayoutSpace()
    layout = Layout(dp=fixed.get("dp") or 1, tp=fixed["tp"], pp=fixed["pp"], ep=fixed["ep"],
                    virtual_stages=fixed["virtual_stages"], zero_stage=fixed["zero_stage"],
                    sequence_parallel=fixed["sequence_parallel"], recompute=fixed["recompute"])
    return LayoutSpace(micro_batch=(fixed["micro_batch"],), fixed=layout if fixed.get("dp") else
                       dataclasses.replace(layout, dp=0))


@dataclasses.dataclass
class PriceTable:
    """Net monthly price, hourly price and one-time fees per (hardware, node count), in USD."""

    monthly: np.ndarray
    hourly: np.ndarray
    one_time: np.ndarray


def priced(server: str, fabric: str, nodes: int, region: str, cluster: Cluster) -> Configuration:
    """What pricing needs of a candidate: its NICs on this fabric and the tier ratio."""
    return Configuration(server, fabric, nodes, region, cluster.server.nics_per_node,
                         cluster.fabric.oversubscription)


def price_table(book: PriceBook, hardware: list[tuple[str, str]], clusters: list[Cluster],
                node_counts: list[int], region: str, term: str) -> PriceTable:
    shape = (len(hardware), len(node_counts))
    monthly, hourly, one_time = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    for i, ((server, fabric), cluster) in enumerate(zip(hardware, clusters)):
        server_price = book.servers[(server, region)]
        for j, n in enumerate(node_counts):
            recurring, fees = list_totals(book, priced(server, fabric, n, region, cluster))
            monthly[i, j] = float(recurring * (1 - book.term_discounts[term]))
            # On demand: servers at the hourly rate, the fabric pro rata of its month.
            fabric_month = recurring - server_price["monthly_usd"] * n
            hourly[i, j] = float(server_price["hourly_usd"] * n + fabric_month / book.hours_per_month)
            one_time[i, j] = float(fees)
    return PriceTable(monthly, hourly, one_time)


def training_cost(prices: PriceTable, hw: np.ndarray, node_idx: np.ndarray, hours: np.ndarray,
                  term: str, hours_per_month: int) -> tuple[np.ndarray, np.ndarray]:
    """Whole-training cost and months billed: a term is billed whole; monthly may go by the hour."""
    months = np.maximum(TERM_MONTHS[term], np.ceil(hours / hours_per_month))
    monthly = prices.monthly[hw, node_idx]
    committed = monthly * months
    if term == "monthly":
        by_hour = prices.hourly[hw, node_idx] * hours
        committed = np.minimum(committed, by_hour)
        months = np.where(by_hour < monthly * months, hours / hours_per_month, months)
    return committed + prices.one_time[hw, node_idx], months


def run(snap: Snapshot, req: dict[str, Any], progress: Progress) -> dict[str, Any]:
    """Search, filter and rank; the returned document is the sizing's result."""
    check_request(snap, req)
    model = model_from(req["workload"])
    is_tf = isinstance(model, Transformer)
    batch_fixed = "global_batch" in req
    training = Training(global_batch=req.get("global_batch") or default_global_batch(snap, model),
                        micro_batch=1, precision=req["precision"])
    excluded: dict[str, int] = {}
    hardware = eligible_pairs(snap, req, excluded)
    clusters = [snap.cluster(s, f, 1) for s, f in hardware]
    node_counts = list(range(req["nodes"]["min"], req["nodes"]["max"] + 1))
    space = layout_space(req)
    progress(0.1)

    cands = enumerate_candidates(clusters, node_counts, model, training, space, batch_fixed,
                                 max_global_batch(snap, training))
    excluded.update({f"layout_{k}": v for k, v in cands.skipped.items() if v})
    if len(cands) == 0:
        return empty_result(snap, req, excluded, "no parallel layout fits these node counts")
    r = evaluate(clusters, cands, model, training, snap.constants,
                 chunk=int(policy(snap, "max_candidates_per_pass")))
    progress(0.6)

    work_units = req.get("tokens") if is_tf else (req.get("samples") or 0) * req["epochs"]
    rate = r["tokens_per_s"] if is_tf else r["samples_per_s"]
    if work_units:
        hours = work_units / rate / 3600.0
    else:
        hours = np.full(len(cands), req["duration_days"] * 24.0)
    node_idx = cands.nodes - node_counts[0]
    book = snap.prices
    prices = price_table(book, hardware, clusters, node_counts, req["region"], req["term"])
    cost, months = training_cost(prices, cands.hardware, node_idx, hours, req["term"],
                                 book.hours_per_month)
    monthly = prices.monthly[cands.hardware, node_idx]
    fx = float(book.rates[req["currency"]] / book.rates[book.currency])

    ok = r["valid"].astype(bool)
    reasons = {
        "memory": ok & ~r["memory_fits"].astype(bool),
    }
    ok &= r["memory_fits"].astype(bool)
    stock_ok = np.ones(len(cands), bool)
    for i, (server, _) in enumerate(hardware):
        available, lead = snap.stock.get((req["region"], server), (0, 10**6))
        sel = cands.hardware == i
        stock_ok[sel] = (cands.nodes[sel] <= available) | (lead <= req["max_lead_time_days"])
    reasons["stock"] = ok & ~stock_ok
    ok &= stock_ok
    if "budget_per_month" in req:
        within = monthly * fx <= float(req["budget_per_month"])
        reasons["budget"] = ok & ~within
        ok &= within
    if "budget_total" in req:
        within = cost * fx <= float(req["budget_total"])
        reasons["budget"] = reasons.get("budget", np.zeros_like(ok)) | (ok & ~within)
        ok &= within
    if work_units and "duration_days" in req:
        within = hours <= req["duration_days"] * 24.0
        reasons["deadline"] = ok & ~within
        ok &= within
    excluded.update({k: int(v.sum()) for k, v in reasons.items() if v.sum()})
    excluded["invalid_layout"] = int((~r["valid"].astype(bool)).sum())
    progress(0.75)

    if work_units:
        score = objective_score(req["objective"], hours, cost)
    else:
        # Fixed duration: the most work for the money (or the most work, if fastest).
        per = {"fastest": -rate, "cheapest": cost / rate, "balanced": -np.log(rate) + np.log(cost)}
        score = per[req["objective"]]
    # One entry per server and fabric, at its best node count and layout: ten distinct
    # options are more use to a customer than one option at ten node counts.
    best = best_per_group(cands.hardware, score, ok)
    ranked = diverse(best[np.argsort(score[best], kind="stable")], cands.hardware, hardware,
                     int(policy(snap, "max_results_per_server")), req["max_results"])
    if ranked.size == 0:
        return empty_result(snap, req, excluded, "every candidate was ruled out", len(cands))

    configs = [configuration(snap, req, hardware, clusters, cands, r, i, hours, cost, months,
                             monthly, fx, model, training, work_units) for i in ranked]
    explain_ranks(configs, req["objective"])
    progress(0.85)
    top = configs[0]
    series = efficiency_series(snap, req, model, training, top["server"]["id"], space, batch_fixed)
    network = network_advice(snap, req, model, training, top, space, batch_fixed, fx)
    progress(0.95)
    return {
        "catalog_version": snap.version_id,
        "objective": req["objective"],
        "currency": req["currency"],
        "term": req["term"],
        "candidates_evaluated": len(cands),
        "candidates_eligible": int(ok.sum()),
        "excluded": excluded,
        "configurations": configs,
        "network_advice": network,
        "efficiency_series": series,
        "notes": notes(snap, req, training, batch_fixed, work_units),
    }


def diverse(order: np.ndarray, hw_of: np.ndarray, hardware: list[tuple[str, str]],
            per_server: int, limit: int) -> np.ndarray:
    """The best-ranked candidates, at most `per_server` of one server, so the list spans
    servers rather than repeating one server on every fabric."""
    taken: dict[str, int] = {}
    out = []
    for i in order:
        server = hardware[hw_of[i]][0]
        if taken.get(server, 0) < per_server:
            taken[server] = taken.get(server, 0) + 1
            out.append(i)
            if len(out) == limit:
                break
    return np.array(out, dtype=int)


def notes(snap: Snapshot, req, training: Training, batch_fixed: bool, work_units) -> list[str]:
    out = [(f"Prices in {req['currency']} at the catalog's exchange rates of "
            f"{snap.prices.rates_date}; a month is {snap.prices.hours_per_month} hours.")]
    if not batch_fixed:
        out.append(f"Global batch about {training.global_batch} samples per step, rounded per "
                   "layout to a multiple of dp x micro-batch, at most "
                   f"{max_global_batch(snap, training):g}: layouts whose data parallelism needs "
                   "a larger batch are ruled out (excluded.layout_batch).")
    if not work_units:
        out.append(f"No amount of work given: configurations are priced for "
                   f"{req['duration_days']:g} days and ranked by work done.")
    return out


def empty_result(snap: Snapshot, req, excluded, why: str, evaluated: int = 0) -> dict[str, Any]:
    return {"catalog_version": snap.version_id, "objective": req["objective"],
            "currency": req["currency"], "term": req["term"], "candidates_evaluated": evaluated,
            "candidates_eligible": 0, "excluded": excluded, "configurations": [],
            "network_advice": None, "efficiency_series": [],
            "notes": [(f"No configuration: {why}. Widen the node range, the budget, the deadline "
                       "or the lead time, or allow more GPU models and fabrics.")]}


def money(book: PriceBook, usd: float, currency: str, fx: float) -> str:
    return str(book.round(Decimal(str(usd * fx)), currency))


def configuration(snap, req, hardware, clusters, cands, r, i, hours, cost, months, monthly, fx,
                  model, training, work_units) -> dict[str, Any]:
    server_id, fabric_id = hardware[cands.hardware[i]]
    nodes = int(cands.nodes[i])
    lay = {k: int(cands.layout[k][i]) for k in ("dp", "tp", "pp", "ep", "zero_stage",
                                                 "virtual_stages", "micro_batch")}
    lay["sequence_parallel"] = bool(cands.layout["sequence_parallel"][i])
    lay["recompute"] = ("none", "selective", "full")[int(cands.layout["recompute"][i])]
    layout = Layout(dp=lay["dp"], tp=lay["tp"], pp=lay["pp"], ep=lay["ep"],
                    virtual_stages=lay["virtual_stages"], zero_stage=lay["zero_stage"],
                    sequence_parallel=lay["sequence_parallel"], recompute=lay["recompute"])
    cluster = snap.cluster(server_id, fabric_id, nodes)
    train = Training(global_batch=int(cands.global_batch[i]), micro_batch=lay["micro_batch"],
                     precision=training.precision)
    est = estimate(cluster, model, train, layout, snap.constants)
    book = snap.prices
    cur = req["currency"]
    is_tf = isinstance(model, Transformer)
    per_million = None
    if is_tf:
        tokens_per_month = est.tokens_per_s * 3600 * book.hours_per_month
        per_million = money(book, monthly[i] / tokens_per_month * 1e6, cur, fx)
    available, lead = snap.stock.get((req["region"], server_id), (0, 0))
    stock = {"available_nodes": available, "lead_time_days": lead if nodes > available else 0,
             "warning": (f"{req['region']} has {available} nodes of {server_id} now; the rest "
                         f"arrive in about {lead} days") if nodes > available else None}
    pairing = snap.pairings[(server_id, fabric_id)]
    return {
        "rank": 0,
        "server": {"id": server_id, "name": snap.servers[server_id].name},
        "fabric": {"id": fabric_id, "name": snap.fabrics[fabric_id].name,
                   "kind": snap.fabrics[fabric_id].kind, "rdma": pairing.rdma,
                   "gpudirect_rdma": pairing.gpudirect_rdma},
        "gpu": snap.servers[server_id].gpu.id,
        "nodes": nodes,
        "gpus": cluster.gpus,
        "layout": lay,
        "global_batch": train.global_batch,
        "step_time_s": est.step_time_s,
        "breakdown": est.breakdown,
        "tokens_per_s": est.tokens_per_s if is_tf else None,
        "samples_per_s": est.samples_per_s,
        "mfu": est.mfu,
        "scaling_efficiency": est.scaling_efficiency,
        "communication_share": est.communication_share,
        "time_to_train_hours": float(hours[i]),
        "price": {
            "currency": cur, "term": req["term"],
            "monthly": money(book, monthly[i], cur, fx),
            "total": money(book, cost[i], cur, fx),
            "months_billed": round(float(months[i]), 3),
            "per_million_tokens": per_million,
        },
        "memory": est.memory,
        "bottleneck": est.bottleneck,
        "assumptions": est.assumptions,
        "stock": stock,
        "why": "",
        "_score_hours": float(hours[i]),
        "_score_cost": float(cost[i]),
    }


def explain_ranks(configs: list[dict[str, Any]], objective: str) -> None:
    first = configs[0]
    for rank, c in enumerate(configs, start=1):
        c["rank"] = rank
        hours, cost = c.pop("_score_hours"), c.pop("_score_cost")
        if rank == 1:
            c["why"] = {
                "fastest": f"Shortest time to train ({hours / 24:.1f} days) of all eligible configurations.",
                "cheapest": f"Lowest cost to train ({c['price']['total']} {c['price']['currency']}).",
                "balanced": "Best product of time to train and cost among eligible configurations.",
            }[objective]
            first = {"hours": hours, "cost": cost}
            continue
        dt = hours / first["hours"] - 1
        dc = cost / first["cost"] - 1
        c["why"] = (f"{dt:+.0%} time to train and {dc:+.0%} cost against rank 1"
                    f"{' (efficiency ' + format(c['scaling_efficiency'], '.0%') + ')'}.")


def best_points(snap: Snapshot, req, model, training, server_id: str, fabrics: list[str],
                node_counts: list[int], space: LayoutSpace, batch_fixed: bool):
    """For one server: the best layout of each (fabric, node count) by throughput."""
    clusters = [snap.cluster(server_id, f, 1) for f in fabrics]
    cands = enumerate_candidates(clusters, node_counts, model, training, space, batch_fixed,
                                 max_global_batch(snap, training))
    if len(cands) == 0:
        return None, None
    r = evaluate(clusters, cands, model, training, snap.constants)
    rate = r["tokens_per_s"] if isinstance(model, Transformer) else r["samples_per_s"]
    ok = r["valid"].astype(bool) & r["memory_fits"].astype(bool)
    groups = cands.hardware * 10_000 + cands.nodes
    best = best_per_group(groups, -rate, ok)
    return best, (cands, r, rate)


def supported_fabrics(snap: Snapshot, req, server_id: str) -> list[str]:
    exclude = set(req.get("fabrics_exclude") or ())
    return [f for f in snap.fabrics if snap.pairings[(server_id, f)].supported and f not in exclude]


def efficiency_series(snap, req, model, training, server_id, space, batch_fixed) -> list[dict]:
    """Scaling efficiency against node count per fabric on the top server, ready to plot."""
    fabrics = supported_fabrics(snap, req, server_id)
    nodes = sorted(set(SERIES_NODES) | {req["nodes"]["min"], req["nodes"]["max"]})
    best, found = best_points(snap, req, model, training, server_id, fabrics, nodes, space, batch_fixed)
    if best is None:
        return []
    cands, r, rate = found
    series = []
    for h, fabric_id in enumerate(fabrics):
        pts = [{"nodes": int(cands.nodes[i]), "scaling_efficiency": float(r["scaling_efficiency"][i]),
                "throughput": float(rate[i]),
                "communication_share": float(r["communication_share"][i])}
               for i in best if cands.hardware[i] == h]
        pts.sort(key=lambda p: p["nodes"])
        series.append({"fabric": fabric_id, "fabric_name": snap.fabrics[fabric_id].name,
                       "server": server_id, "points": pts})
    return series


def network_advice(snap, req, model, training, top, space, batch_fixed, fx) -> dict[str, Any]:
    """Which fabric fits this scale, fabric vs more GPUs, and the RoCEv2 checklist."""
    server_id, nodes = top["server"]["id"], top["nodes"]
    fabrics = supported_fabrics(snap, req, server_id)
    more_nodes = sorted({nodes, nodes * 2, int(nodes * 1.5), nodes + 1})
    best, found = best_points(snap, req, model, training, server_id, fabrics, more_nodes, space,
                              batch_fixed)
    book = snap.prices
    unit = "tokens/s" if isinstance(model, Transformer) else "samples/s"
    points, by_key = [], {}
    if best is not None:
        cands, r, rate = found
        for i in best:
            f = fabrics[cands.hardware[i]]
            n = int(cands.nodes[i])
            cluster = snap.cluster(server_id, f, n)
            recurring, _ = list_totals(book, priced(server_id, f, n, req["region"], cluster))
            month = float(recurring * (1 - book.term_discounts[req["term"]]))
            by_key[(f, n)] = (float(rate[i]), month, float(r["scaling_efficiency"][i]),
                              float(r["communication_share"][i]))
    for f in fabrics:
        if (f, nodes) in by_key:
            thr, month, eff, share = by_key[(f, nodes)]
            fab = snap.fabrics[f]
            points.append(advice.FabricPoint(f, fab.name, fab.kind, fab.rdma, fab.lossless, eff,
                                             thr, month, share))
    if not points:
        return {"recommended_fabric": None, "fabric_class": None, "reason": "no data",
                "comparison": [], "fabric_vs_more_gpus": None, "roce_checklist": []}
    long_large_run = (top["time_to_train_hours"] >= policy(snap, "long_run_days") * 24
                      and nodes >= policy(snap, "long_run_nodes"))
    pick, reason = advice.recommend_fabric(points, policy(snap, "fabric_efficiency_tolerance"),
                                           long_large_run)
    current = top["fabric"]["id"]
    versus = None
    fastest = max(points, key=lambda p: p.throughput)
    if fastest.fabric_id != current and (current, nodes) in by_key:
        cur_thr, cur_month, _, _ = by_key[(current, nodes)]
        up_thr, up_month = fastest.throughput, fastest.monthly_price
        # More nodes on the current fabric for about the upgrade's extra money.
        per_node = cur_month / nodes
        extra_nodes = max(1, round((up_month - cur_month) / per_node)) if per_node > 0 else 1
        candidates = [(n, v) for (f, n), v in by_key.items() if f == current and n > nodes]
        if candidates:
            n_more, (more_thr, more_month, _, _) = min(candidates,
                                                       key=lambda kv: abs(kv[0] - nodes - extra_nodes))
            versus = {
                "upgrade_to": fastest.fabric_id,
                "more_nodes": n_more,
                "sentence": advice.upgrade_vs_more_gpus(cur_thr, cur_month * fx, up_thr,
                                                        up_month * fx, more_thr, more_month * fx),
                "upgrade_throughput_gain": up_thr / cur_thr - 1,
                "more_nodes_throughput_gain": more_thr / cur_thr - 1,
                "upgrade_extra_monthly": money(book, up_month - cur_month, req["currency"], fx),
                "more_nodes_extra_monthly": money(book, more_month - cur_month, req["currency"], fx),
            }
    chose_roce = any(snap.fabrics[f].kind == "roce" for f in (current, pick.fabric_id))
    return {
        "nodes": nodes,
        "server": server_id,
        "recommended_fabric": pick.fabric_id,
        "fabric_class": advice.fabric_class(pick, snap.fabrics[pick.fabric_id].line_rate_gbps),
        "reason": reason,
        "comparison": [{"fabric": p.fabric_id, "fabric_name": p.fabric_name,
                        "scaling_efficiency": p.scaling_efficiency, "throughput": p.throughput,
                        "throughput_unit": unit, "communication_share": p.communication_share,
                        "monthly": money(book, p.monthly_price, req["currency"], fx)}
                       for p in sorted(points, key=lambda p: -p.throughput)],
        "fabric_vs_more_gpus": versus,
        "roce_checklist": list(advice.ROCE_CHECKLIST) if chose_roce else [],
    }
