"""A sizing's result for a person: the ranked table, the network advice and the what-ifs."""

from __future__ import annotations

from gpu_sizing_client.models import NetworkAdvice, RankedConfiguration, SizingResult, WhatIfOption
from rich.markup import escape

from gpu_sizing_cli.numbers import duration, figure, money, percent, scientific, signed_percent
from gpu_sizing_cli.output import Column, stdout, table


def throughput(c: RankedConfiguration) -> tuple[float, str]:
    return (c.tokens_per_s, "tokens/s") if c.tokens_per_s is not None else (c.samples_per_s,
                                                                             "samples/s")


def stock_text(c: RankedConfiguration) -> str:
    if not c.stock.from_deliveries:
        return "in stock"
    return f"{c.stock.from_deliveries} by {c.stock.delivery_date.isoformat()}"


def columns(currency: str) -> list[Column]:
    return [
        Column("#", lambda c: str(c.rank), "rank", lambda c: c.rank, right=True),
        Column("server", lambda c: c.server.id, "server", lambda c: c.server.id),
        Column("fabric", lambda c: c.fabric.id, "fabric", lambda c: c.fabric.id),
        Column("nodes", lambda c: f"{c.nodes} ({c.gpus:,} GPUs)", "nodes", lambda c: c.nodes,
               right=True),
        Column("", None, "gpus", lambda c: c.gpus),
        Column("efficiency", lambda c: percent(c.scaling_efficiency), "scaling_efficiency",
               lambda c: c.scaling_efficiency, right=True),
        Column("throughput", lambda c: f"{figure(throughput(c)[0])} {throughput(c)[1]}",
               "throughput", lambda c: throughput(c)[0], right=True),
        Column("", None, "throughput_unit", lambda c: throughput(c)[1]),
        Column("time to train", lambda c: duration(c.time_to_train_hours), "time_to_train_hours",
               lambda c: c.time_to_train_hours, right=True),
        Column(f"total {currency}", lambda c: money(c.price.total), "price_total",
               lambda c: c.price.total, right=True),
        Column("per month", lambda c: money(c.price.monthly), "price_monthly",
               lambda c: c.price.monthly, right=True),
        Column("", None, "currency", lambda c: c.price.currency),
        Column("stock", stock_text, "stock_from_deliveries", lambda c: c.stock.from_deliveries),
        Column("", None, "stock_delivery_date", lambda c: c.stock.delivery_date.isoformat()),
    ]


def work(result: SizingResult) -> str:
    w = result.workload
    if w.tokens:
        amount = f"{scientific(w.tokens)} tokens"
    elif w.samples_per_epoch:
        amount = f"{scientific(w.samples_per_epoch)} samples x {figure(w.epochs or 1)} epochs"
    else:
        amount = ""
    deadline = f" within {figure(w.duration_days)} days" if w.duration_days else ""
    return f"{w.name} ({scientific(w.params)} parameters), {amount}{deadline}, {w.precision}"


def show(sizing_id: str, result: SizingResult) -> None:
    say = stdout.print
    say(f"[bold]{escape(work(result))}[/]")
    say(f"{result.term} term in {result.currency}, region {result.region}, objective "
        f"{result.objective}; {result.candidates_evaluated:,} candidates evaluated, "
        f"{result.candidates_eligible:,} eligible; catalog version {result.catalog_version}")
    if not result.configurations:
        say("[bold]No configuration fits the request.[/]")
    else:
        say(table(f"Ranked configurations (sizing {sizing_id})", columns(result.currency),
                  result.configurations))
        best = result.configurations[0]
        say(f"[bold]1.[/] {escape(best.bottleneck)}")
        say(f"   {escape(best.why)}")
        for warning in (best.price.warning, best.stock.warning):
            if warning:
                say(f"   [yellow]{escape(warning)}[/]")
    if result.network_advice:
        advice(result.network_advice)
        what_ifs(result.network_advice)
    ruled_out = ", ".join(f"{name.replace('_', ' ')} {count:,}"
                          for name, count in result.excluded.to_dict().items() if count)
    if ruled_out:
        say(f"\nRuled out: {ruled_out}.")
    for note in result.notes:
        say(f"[dim]- {escape(note)}[/]")


def advice(a: NetworkAdvice) -> None:
    say = stdout.print
    say(f"\n[bold]Network advice[/] for {a.nodes} nodes of {escape(a.server_name)}: "
        f"[bold]{escape(a.recommended_fabric_name)}[/] ({a.recommended_fabric}), "
        f"{escape(a.fabric_class)}")
    say(escape(a.reason))
    currency = a.fabric_vs_more_gpus.currency
    say(table(None, [
        Column("fabric", lambda f: f.fabric + (" (recommended)" if f.recommended else ""),
               "fabric", lambda f: f.fabric),
        Column("efficiency", lambda f: percent(f.scaling_efficiency), "", None, right=True),
        Column("throughput", lambda f: f"{figure(f.throughput)} {f.throughput_unit}", "", None,
               right=True),
        Column("communication", lambda f: percent(f.communication_share), "", None, right=True),
        Column(f"per month {currency}", lambda f: money(f.monthly), "", None, right=True),
    ], a.comparison))
    if a.roce_checklist:
        say("[bold]RoCEv2 lossless checklist[/]")
        for item in a.roce_checklist:
            say(f"- {escape(item.item)}: {escape(item.why)} [dim]({escape(item.source)})[/]")


def what_ifs(a: NetworkAdvice) -> None:
    w = a.fabric_vs_more_gpus
    options: list[tuple[str, WhatIfOption | None, str | None]] = [
        ("faster fabric", w.upgrade, w.upgrade_unavailable),
        ("more nodes", w.more_nodes, w.more_nodes_unavailable)]
    unit = a.comparison[0].throughput_unit if a.comparison else "throughput"
    stdout.print("\n[bold]What if[/], for about the same extra money per month:")
    rows = [(name, option, why) for name, option, why in options]
    stdout.print(table(None, [
        Column("option", lambda r: r[0], "", None),
        Column("fabric", lambda r: r[1].fabric if r[1] else escape(r[2] or "not possible"), "", None),
        Column("nodes", lambda r: str(r[1].nodes) if r[1] else "", "", None, right=True),
        Column("throughput", lambda r: signed_percent(r[1].throughput_gain) if r[1] else "", "",
               None, right=True),
        Column(f"extra per month {w.currency}", lambda r: money(r[1].extra_monthly) if r[1] else "",
               "", None, right=True),
        Column(f"{unit} per 1,000 {w.currency}", lambda r: (
            figure(r[1].throughput_gain_per_1000) if r[1] else ""), "", None, right=True),
    ], rows))
    stdout.print(escape(w.sentence))
