"""A sizing's result for a person: the ranked table, the network advice and the what-ifs."""

from __future__ import annotations

from decimal import Decimal

from gpu_sizing_client.models import (
    Interval,
    NetworkAdvice,
    RankedConfiguration,
    SizingResult,
    WhatIfOption,
)
from rich.markup import escape

from gpu_sizing_cli.numbers import (
    SCALING_EFFICIENCY_WORDS,
    duration,
    duration_range,
    end,
    figure,
    figure_range,
    interval,
    money,
    percent,
    scientific,
    signed_percent,
)
from gpu_sizing_cli.output import Column, stdout, table

# Below one expected interruption over the whole run, checkpoints and restarts barely move the
# time to train (the goodput column says so): the table leaves their columns out.
LONG_RUN_INTERRUPTIONS = 1.0
EXTRAPOLATED_MARK = " *"
DOMINATED_MARK = " †"
# The fabric column of a one-node row: its GPUs talk inside the server.
ONE_NODE = "— (one node)"


def throughput(c: RankedConfiguration) -> tuple[float, str]:
    return (c.tokens_per_s, "tokens/s") if c.tokens_per_s is not None else (c.samples_per_s,
                                                                             "samples/s")


def throughput_interval(c: RankedConfiguration) -> Interval | None:
    return interval(c, "tokens_per_s" if c.tokens_per_s is not None else "samples_per_s")


def throughput_text(c: RankedConfiguration) -> str:
    found = throughput_interval(c)
    shown = figure(throughput(c)[0]) if found is None else figure_range(found.p10, found.p90)
    return shown + (EXTRAPOLATED_MARK if str(c.calibration) == "extrapolated" else "")


def time_text(c: RankedConfiguration) -> str:
    found = interval(c, "time_to_train_hours")
    return (duration(c.time_to_train_hours) if found is None
            else duration_range(found.p10, found.p90))


def fabric_label(fabric_id: str, oversubscription: float) -> str:
    """The fabric's id, with its spine ratio when the search chose an oversubscribed one."""
    return fabric_id if oversubscription <= 1 else f"{fabric_id} {oversubscription:g}:1"


def fabric_text(c: RankedConfiguration) -> str:
    """The table's fabric: none at one node, whose GPUs talk inside the server (no fabric is
    used or billed, whatever fabric id the API names)."""
    if c.nodes == 1:
        return ONE_NODE
    return fabric_label(c.fabric.id, c.oversubscription)


def dominated(c: RankedConfiguration, first: RankedConfiguration) -> bool:
    """Slower and dearer than rank 1: a row the ranking lists (one per server and fabric) that
    is never the better buy. With only a duration given, slower is less throughput."""
    if c.rank == first.rank:
        return False
    slower = (c.time_to_train_hours > first.time_to_train_hours if amount_known(c)
              else throughput(c)[0] < throughput(first)[0])
    return slower and Decimal(c.price.total) > Decimal(first.price.total)


def amount_known(c: RankedConfiguration) -> bool:
    """Whether the time to train is the model's (the amount of work given), not the duration."""
    return interval(c, "time_to_train_hours") is not None


def total_range_text(c: RankedConfiguration) -> str:
    """The total's p10-p90, priced at each end of the time to train's (empty without one)."""
    found = interval(c, "total")
    if found is None:
        return ""
    # As the API rounds it, outward to four significant digits, so it holds the total; a
    # range no wider than that (a committed term's floor) is the total itself.
    low, high = figure(found.p10), figure(found.p90)
    return money(c.price.total) if low == high else f"{low}–{high}"


def ranges_total(result: SizingResult) -> bool:
    """Whether any shown total has a range wider than its point (a committed term's floor
    holds a short run's range at its price)."""
    return any((found := interval(c, "total")) is not None and found.p10 < found.p90
               for c in result.configurations)


def nodes_text(c: RankedConfiguration) -> str:
    spares = f" + {c.hot_spare_nodes} spare" if c.hot_spare_nodes else ""
    return f"{c.nodes} ({c.gpus:,} GPUs){spares}"


def long_run(result: SizingResult) -> bool:
    return any(c.goodput.expected_interruptions >= LONG_RUN_INTERRUPTIONS
               for c in result.configurations)


def stock_text(c: RankedConfiguration) -> str:
    if not c.stock.from_deliveries:
        return "in stock"
    return f"{c.stock.from_deliveries} by {c.stock.delivery_date.isoformat()}"


def columns(currency: str, unit: str = "throughput", long: bool = False,
            first: RankedConfiguration | None = None, total_ranges: bool = False) -> list[Column]:
    """The ranked table; CSV gets every column, a person the long-run ones for long runs, the
    total's range where it has one, and a mark on each row `first` dominates."""
    def shown_if_long(text):
        return text if long else None

    def rank_text(c):
        return f"{c.rank}{DOMINATED_MARK}" if first and dominated(c, first) else str(c.rank)

    return [
        Column("#", rank_text, "rank", lambda c: c.rank, right=True),
        Column("server", lambda c: c.server.id, "server", lambda c: c.server.id),
        Column("fabric", fabric_text, "fabric", lambda c: c.fabric.id),
        Column("nodes", nodes_text, "nodes", lambda c: c.nodes, right=True),
        Column("", None, "gpus", lambda c: c.gpus),
        Column("", None, "hot_spare_nodes", lambda c: c.hot_spare_nodes),
        Column("efficiency", lambda c: percent(c.scaling_efficiency), "scaling_efficiency",
               lambda c: c.scaling_efficiency, right=True),
        Column(unit, throughput_text, "throughput", lambda c: throughput(c)[0],
               right=True),
        Column("", None, "throughput_p10", lambda c: end(throughput_interval(c), "p10")),
        Column("", None, "throughput_p90", lambda c: end(throughput_interval(c), "p90")),
        Column("", None, "throughput_unit", lambda c: throughput(c)[1]),
        Column("", None, "calibration", lambda c: str(c.calibration)),
        Column("goodput", lambda c: percent(c.goodput.goodput), "goodput",
               lambda c: c.goodput.goodput, right=True),
        Column("interruptions", shown_if_long(lambda c: figure(c.goodput.expected_interruptions,
                                                               2)),
               "expected_interruptions", lambda c: c.goodput.expected_interruptions, right=True),
        Column("checkpoint every", shown_if_long(lambda c: duration(
            c.goodput.checkpoint_interval_hours)), "checkpoint_interval_hours",
               lambda c: c.goodput.checkpoint_interval_hours, right=True),
        Column("time to train", time_text, "time_to_train_hours",
               lambda c: c.time_to_train_hours, right=True),
        Column("", None, "time_to_train_hours_p10",
               lambda c: end(interval(c, "time_to_train_hours"), "p10")),
        Column("", None, "time_to_train_hours_p90",
               lambda c: end(interval(c, "time_to_train_hours"), "p90")),
        Column(f"total {currency}", lambda c: money(c.price.total), "price_total",
               lambda c: c.price.total, right=True),
        Column("total p10–p90", total_range_text if total_ranges else None, "price_total_p10",
               lambda c: end(interval(c, "total"), "p10"), right=True),
        Column("", None, "price_total_p90", lambda c: end(interval(c, "total"), "p90")),
        Column("per month", lambda c: money(c.price.monthly), "price_monthly",
               lambda c: c.price.monthly, right=True),
        Column("", None, "currency", lambda c: c.price.currency),
        Column("stock", stock_text, "stock_from_deliveries", lambda c: c.stock.from_deliveries),
        Column("", None, "stock_delivery_date", lambda c: c.stock.delivery_date.isoformat()),
    ]


def amount(result: SizingResult) -> str | None:
    w = result.workload
    if w.tokens:
        return f"{scientific(w.tokens)} tokens"
    if w.samples_per_epoch:
        epochs = w.epochs or 1
        return (f"{scientific(w.samples_per_epoch)} samples x {figure(epochs)} "
                f"epoch{'' if epochs == 1 else 's'}")
    return None


def work(result: SizingResult) -> str:
    w = result.workload
    deadline = f"within {figure(w.duration_days)} days" if w.duration_days else None
    asked = " ".join(part for part in (amount(result), deadline) if part)
    return f"{w.name} ({scientific(w.params)} parameters), {asked}, {w.precision}"


def ranges_text(result: SizingResult, unit: str) -> str:
    """What the table's ranges and its goodput mean for this kind of request."""
    if amount(result) is None:
        return (f"The {unit} column is the model's p10–p90. The time is the "
                f"{figure(result.workload.duration_days)} days given; goodput is the share of "
                "them that trains, the rest lost to interruptions, checkpoints and restarts.")
    return (f"The {unit} and time to train columns are the model's p10–p90; time to train and "
            "the price count interruptions, checkpoints and restarts (goodput).")


def show(sizing_id: str, result: SizingResult) -> None:
    say = stdout.print
    say(f"[bold]{escape(work(result))}[/]")
    say(f"{result.term} term in {result.currency}, region {result.region}, objective "
        f"{result.objective}; {result.candidates_evaluated:,} candidates evaluated, "
        f"{result.candidates_eligible:,} eligible; catalog version {result.catalog_version}")
    if not result.configurations:
        say("[bold]No configuration fits the request.[/]")
    else:
        long = long_run(result)
        unit = throughput(result.configurations[0])[1]
        best = result.configurations[0]
        say(table(f"Ranked configurations (sizing {sizing_id})",
                  columns(result.currency, unit, long, best, ranges_total(result)),
                  result.configurations))
        say(f"[dim]{escape(ranges_text(result, unit))} The {SCALING_EFFICIENCY_WORDS}.[/]")
        if any(dominated(c, best) for c in result.configurations):
            say(f"[dim]{DOMINATED_MARK.strip()} slower and dearer than rank 1.[/]")
        if any(str(c.calibration) == "extrapolated" for c in result.configurations):
            say(f"[dim]{EXTRAPOLATED_MARK.strip()} extrapolated: no published measurement of this "
                "GPU and fabric, so the range is wider.[/]")
        if result.rank_stability:
            say(escape(result.rank_stability))
        say(f"[bold]1.[/] {escape(best.bottleneck)}")
        say(f"   {escape(best.why)}")
        if best.mfu_causal is not None and best.mfu_causal != best.mfu:
            say(f"   MFU {percent(best.mfu)} (full attention matrix), {percent(best.mfu_causal)} "
                "causal.")
        if long:
            say(f"   {escape(failures_text(best))}")
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


def failures_text(c: RankedConfiguration) -> str:
    """Rank 1's run with its failures, as the goodput block counts them."""
    g = c.goodput
    return (f"Goodput {percent(g.goodput)}: {figure(g.expected_interruptions, 2)} interruptions "
            f"expected over the run ({figure(g.interruptions_per_day, 2)} a day), a "
            f"{figure(g.checkpoint_size_gb, 3)} GB checkpoint every "
            f"{duration(g.checkpoint_interval_hours)} ({figure(g.checkpoint_write_s, 2)} s to "
            f"write), {figure(g.restart_s / 60, 2)} min per restart.")


def advice(a: NetworkAdvice) -> None:
    say = stdout.print
    say(f"\n[bold]Network advice[/] for {a.nodes} nodes of {escape(a.server_name)}: "
        f"[bold]{escape(a.recommended_fabric_name)}[/] ({a.recommended_fabric}), "
        f"{escape(a.fabric_class)}")
    say(escape(a.reason))
    currency = a.fabric_vs_more_gpus.currency
    say(table(None, [
        Column("fabric", lambda f: fabric_label(f.fabric, f.oversubscription)
               + (" (recommended)" if f.recommended else ""),
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
