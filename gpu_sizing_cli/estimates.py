"""`gpu-sizing estimate` and `collective`: one configuration, or one collective, through the model."""

from __future__ import annotations

from pathlib import Path

import click
from gpu_sizing_client.api.catalog import get_server
from gpu_sizing_client.api.estimates import create_collective_estimate, create_estimate
from gpu_sizing_client.models import (
    Collective,
    CollectiveRequest,
    CollectiveRequestAlgorithm,
    CollectiveRequestOperation,
    Estimate,
    EstimateRequest,
    TrainingPrecision,
)
from rich.markup import escape

from gpu_sizing_cli import layouts, workloads
from gpu_sizing_cli.api import Api
from gpu_sizing_cli.listing import choices
from gpu_sizing_cli.numbers import (
    FINITE,
    SCALING_EFFICIENCY_WORDS,
    ByteSize,
    duration,
    end,
    figure,
    figure_range,
    interval,
    microseconds,
    percent,
    percent_range,
    scientific,
)
from gpu_sizing_cli.output import Column, formats, stdout, table, write_csv, write_json
from gpu_sizing_cli.workloads import workload_name

CLUSTER_FLAGS = {"cluster.server": "--server", "cluster.fabric": "--fabric",
                 "cluster.nodes": "--nodes", "cluster.oversubscription": "--oversubscription"}
ESTIMATE_FLAGS = {**CLUSTER_FLAGS, "workload.preset": "--preset", "workload.seq_len": "--seq-len",
                  "workload": "--preset", "training.global_batch": "--global-batch",
                  "training.micro_batch": "--micro-batch", "training.precision": "--precision",
                  **layouts.FLAGS, "duration_days": "--duration-days"}
CALIBRATION_WORDS = {
    "calibrated": "calibrated: published measurements of this GPU and fabric exist",
    "extrapolated": "extrapolated: no published measurement of this GPU and fabric, the ranges "
                    "are wider"}


def cluster_options(command):
    for option in reversed((
        click.option("--server", required=True, help="Catalog server id, e.g. hgx-h100-8."),
        click.option("--fabric", required=True, help="Catalog fabric id, e.g. ib-ndr-400."),
        click.option("--nodes", type=int, required=True),
        click.option("--oversubscription", type=FINITE, help="Fabric tier ratio (default 1:1)."),
    )):
        command = option(command)
    return command


def cluster(server: str, fabric: str, nodes: int, oversubscription: float | None) -> dict:
    given = {"server": server, "fabric": fabric, "nodes": nodes}
    return given if oversubscription is None else {**given, "oversubscription": oversubscription}


@click.command()
@cluster_options
@workloads.workload_options
@click.option("--global-batch", type=int, required=True, help="Samples per optimizer step.")
@click.option("--precision", type=choices(TrainingPrecision))
@click.option("--duration-days", type=FINITE, help="A run of this many days: adds its goodput "
              "(interruptions, checkpoints, restarts).")
@layouts.layout_options
@formats
@click.pass_obj
def estimate(api: Api, output: str, server: str, fabric: str, nodes: int,
             oversubscription: float | None, preset: str | None, workload_file: Path | None,
             seq_len: int | None, global_batch: int, precision: str | None,
             duration_days: float | None, **fields) -> None:
    """One configuration through the model: step time, throughput, efficiency, memory, with
    the model's p10-p90 and, over --duration-days, the goodput.

    The layout flags are `size`'s: --micro-batch is the estimate's training micro-batch, and
    --dp defaults to every GPU over tp x pp x cp.
    """
    workload, flags = workloads.workload_of(preset, workload_file, seq_len, ESTIMATE_FLAGS)
    layout = layouts.take_layout(fields) or {}
    micro_batch = layout.pop("micro_batch", None)
    if "dp" not in layout:
        gpus_per_node = api.call(get_server, server_id=server).parsed.gpus_per_node
        layout["dp"] = data_parallel(nodes, gpus_per_node, layout.get("tp", 1),
                                     layout.get("pp", 1), layout.get("cp", 1))
    body = {
        "cluster": cluster(server, fabric, nodes, oversubscription),
        "workload": workload,
        "training": {"global_batch": global_batch,
                     **{k: v for k, v in (("micro_batch", micro_batch), ("precision", precision))
                        if v is not None}},
        "layout": layout,
        **({"duration_days": duration_days} if duration_days is not None else {}),
    }
    try:
        request = EstimateRequest.from_dict(body)
    except (KeyError, TypeError, ValueError) as exc:
        raise click.BadParameter(f"not a workload the API takes ({exc})",
                                 param_hint="--workload-file") from None
    response = api.call(create_estimate, flags, body=request)
    result: Estimate = response.parsed
    if output == "json":
        write_json(response.content)
    elif output == "csv":
        write_csv(ESTIMATE_COLUMNS, [result])
    else:
        show_estimate(body, result)


def data_parallel(nodes: int, gpus_per_node: int, tp: int, pp: int, cp: int = 1) -> int:
    """dp when --dp is not given: every GPU in a data-parallel rank, so the GPUs must divide
    into tp x pp x cp (the API would otherwise refuse a dp the user never gave)."""
    gpus, model_parallel = nodes * gpus_per_node, tp * pp * cp
    if gpus % model_parallel:
        split = f" x --cp {cp}" if cp > 1 else ""
        raise click.UsageError(
            f"{gpus:,} GPUs ({nodes} nodes x {gpus_per_node}) are not divisible by --tp {tp} x "
            f"--pp {pp}{split} = {model_parallel}: change --nodes, --tp, --pp or --cp, "
            "or give --dp")
    return gpus // model_parallel


def raw_columns(names, of) -> list[Column]:
    """CSV columns of the API's values under their own names, `of` picking an object's value."""
    return [Column("", None, name, lambda r, name=name: of(r, name)) for name in names]


def interval_columns(names) -> list[Column]:
    """Each figure's p10 and p90 as <name>_p10 and <name>_p90 (empty where the API gives none)."""
    return [Column("", None, f"{name}_{which}", lambda r, name=name, which=which: end(
        interval(r, name), which)) for name in names for which in ("p10", "p90")]


def goodput_of(e: Estimate, name: str):
    return None if e.goodput is None else getattr(e.goodput, name)


ESTIMATE_COLUMNS = (
    raw_columns(("nodes", "gpus", "step_time_s", "tokens_per_s", "samples_per_s", "mfu",
                 "model_tflops_per_gpu", "achieved_tflops_per_gpu", "executed_tflops_per_gpu",
                 "scaling_efficiency", "communication_share",
                 "inter_node_bandwidth_gbs", "catalog_version"), getattr)
    + [Column("", None, "memory_total_gb", lambda e: e.memory.total_gb),
       Column("", None, "memory_fits", lambda e: e.memory.fits),
       Column("", None, "calibration", lambda e: str(e.calibration))]
    + interval_columns(("step_time_s", "tokens_per_s", "samples_per_s", "mfu",
                        "achieved_tflops_per_gpu", "scaling_efficiency"))
    + raw_columns(("goodput", "expected_interruptions", "interruptions_per_day",
                   "checkpoint_size_gb", "checkpoint_write_s", "checkpoint_interval_hours",
                   "restart_s", "useful_hours", "work_done"), goodput_of))


def with_range(text: str, found, shown=figure_range) -> str:
    """A point value and, beside it, the model's p10-p90 when the API gives one."""
    return text if found is None else f"{text} (p10–p90 {shown(found.p10, found.p90)})"


def mfu_text(e: Estimate) -> str:
    """Both published MFU conventions, each labelled: the full s x s score matrix (PaLM,
    Korthikanti 2022) and half of it for a causal model (Megatron-LM since 2025)."""
    full = with_range(percent(e.mfu), interval(e, "mfu"), percent_range)
    if e.mfu_causal == e.mfu:
        return full
    return f"{full} (full attention matrix), {percent(e.mfu_causal)} causal"


def model_and_hardware_rates(e: Estimate) -> str:
    """The rates behind the MFU (model FLOPs, in both conventions), the rate the GPUs run at
    (the FLOPs their kernels execute) and Narayanan et al. 2021's count (model FLOPs with the full score
    matrix, plus recomputation), each named by what it counts."""
    model, causal = figure(e.model_tflops_per_gpu), figure(e.model_tflops_per_gpu_causal)
    executed, counted = figure(e.executed_tflops_per_gpu), figure(e.achieved_tflops_per_gpu)
    shown = f"{model} model TFLOPS per GPU"
    if causal != model:
        shown = f"{model} (full attention matrix), {causal} causal model TFLOPS per GPU"
    if executed != model:
        shown += f"; {executed} hardware TFLOPS (executed by the kernels)"
    if counted != model:
        shown += f"; {counted} as Narayanan et al. 2021 count them (full matrix, with recomputation)"
    return shown


def show_estimate(body: dict, e: Estimate) -> None:
    c, layout = body["cluster"], body["layout"]
    degrees = ", ".join(f"{name} {value}" for name, value in layout.items())
    stdout.print(f"[bold]{escape(workload_name(body['workload']))}[/] on "
                 f"{where(c['nodes'], c['server'], c['fabric'])}: {e.gpus:,} GPUs, {degrees}")
    rate, unit = ((e.tokens_per_s, "tokens_per_s") if e.tokens_per_s is not None
                  else (e.samples_per_s, "samples_per_s"))
    throughput = with_range(f"{figure(rate)} {unit.replace('_per_', '/')}", interval(e, unit))
    memory = e.memory
    rows = [
        ("step time", with_range(f"{figure(e.step_time_s)} s", interval(e, "step_time_s"))),
        ("throughput", throughput),
        ("MFU", mfu_text(e)),
        ("TFLOPS", model_and_hardware_rates(e)),
        ("scaling efficiency", with_range(percent(e.scaling_efficiency),
                                          interval(e, "scaling_efficiency"), percent_range)
         + f" (scaling {SCALING_EFFICIENCY_WORDS})"),
        ("model", CALIBRATION_WORDS.get(str(e.calibration), str(e.calibration))),
        ("communication", f"{percent(e.communication_share)} of each step, exposed"),
        ("inter-node bandwidth", f"{figure(e.inter_node_bandwidth_gbs)} GB/s per node"),
        # The GPU's own verdict: `fits` also holds the host's memory under offload.
        ("memory per GPU", f"{figure(memory.total_gb)} GB of {figure(memory.capacity_gb)} GB: "
                           + ("fits" if memory.margin_gb >= 0 else "[red]does not fit[/]")
                           + f" (margin {figure(memory.margin_gb)} GB)"),
    ]
    if memory.host_offload_gb:
        host = memory.host_capacity_gb
        rows.append(("host memory per node", f"{figure(memory.host_offload_gb)} GB offloaded"
                     + ("" if host is None else f" of {figure(host)} GB usable: "
                        + ("fits" if memory.host_offload_gb <= host else "[red]does not fit[/]"))))
    if e.goodput is not None:
        rows += goodput_rows(body["duration_days"], e.goodput, unit.split("_")[0])
    stdout.print(table(None, [Column("", lambda r: r[0], "", None),
                              Column("", lambda r: r[1], "", None)], rows, header=False))
    # The exposed parts, compute, bubble and straggler add up to the step; hidden parts overlap
    # compute, so they are no share of it.
    parts = sorted(((name.removesuffix("_s").removesuffix("_exposed"), seconds)
                    for name, seconds in e.breakdown.to_dict().items()
                    if seconds and not name.endswith("_hidden_s")), key=lambda p: -p[1])
    stdout.print(table(f"Step time {figure(e.step_time_s)} s", [
        Column("part", lambda p: p[0].replace("_", " "), "", None),
        Column("s", lambda p: figure(p[1]), "", None, right=True),
        Column("of the step", lambda p: percent(p[1] / e.step_time_s), "", None, right=True),
    ], parts))
    hidden = [f"{name.removesuffix('_hidden_s')} {figure(seconds)} s"
              for name, seconds in e.breakdown.to_dict().items()
              if seconds and name.endswith("_hidden_s")]
    if hidden:
        stdout.print(f"Hidden under compute: {', '.join(hidden)}.")
    stdout.print(escape(e.bottleneck))
    for assumption in e.assumptions:
        stdout.print(f"[dim]- {escape(assumption)}[/]")


def goodput_rows(days: float, g, unit: str) -> list[tuple[str, str]]:
    """A run of `days` on the configuration: what failures, checkpoints and restarts leave."""
    trained = (f"{percent(g.goodput)}: {duration(g.useful_hours)} of training, "
               f"{scientific(g.work_done)} {unit}")
    interruptions = (f"{figure(g.expected_interruptions, 2)} expected "
                     f"({figure(g.interruptions_per_day, 2)} a day)")
    checkpoints = (f"{figure(g.checkpoint_size_gb, 3)} GB every "
                   f"{duration(g.checkpoint_interval_hours)}, "
                   f"{figure(g.checkpoint_write_s, 2)} s to write")
    return [
        (f"goodput over {figure(days)} days", trained),
        ("interruptions", interruptions),
        ("checkpoints", checkpoints),
        ("restart", f"{figure(g.restart_s / 60, 2)} min each"),
    ]


# What nccl-tests prints for each operation (their *_perf binaries, default float data).
NCCL_REDUCTION = {"all_reduce": "sum", "reduce_scatter": "sum"}
FLOAT_BYTES = 4


def sizes(size: int | None, low: int | None, high: int | None, factor: int) -> list[int]:
    if size is not None:
        return [size]
    if low is None or high is None:
        raise click.UsageError("give --size, or --begin and --end (as nccl-tests' -b and -e)")
    if low > high or factor < 2:
        raise click.UsageError("--begin must not exceed --end, and --factor must be 2 or more")
    out = [low]
    while out[-1] * factor <= high:
        out.append(out[-1] * factor)
    return out


NCCL_COLUMNS = [
    Column("size (B)", lambda r: str(int(r.size_bytes)), "size_bytes", lambda r: int(r.size_bytes),
           right=True),
    Column("count (elements)", lambda r: str(int(r.size_bytes) // FLOAT_BYTES), "count",
           lambda r: int(r.size_bytes) // FLOAT_BYTES, right=True),
    Column("type", lambda r: "float", "type", lambda r: "float", right=True),
    Column("redop", lambda r: NCCL_REDUCTION.get(r.operation, "none"), "redop",
           lambda r: NCCL_REDUCTION.get(r.operation, "none"), right=True),
    Column("root", lambda r: "-1", "root", lambda r: -1, right=True),
    Column("time (us)", lambda r: microseconds(r.time_s), "time_us", lambda r: r.time_s * 1e6,
           right=True),
    Column("algbw (GB/s)", lambda r: f"{r.algbw_gbs:.2f}", "algbw_gbs", lambda r: r.algbw_gbs,
           right=True),
    Column("busbw (GB/s)", lambda r: f"{r.busbw_gbs:.2f}", "busbw_gbs", lambda r: r.busbw_gbs,
           right=True),
    Column("", None, "ranks", lambda r: r.ranks),
    Column("", None, "operation", lambda r: r.operation),
    Column("", None, "algorithm", lambda r: getattr(r, "algorithm", None)),
    Column("", None, "algorithm_used", lambda r: getattr(r, "algorithm_used", None)),
    Column("", None, "calibration", lambda r: str(r.calibration)),
    *interval_columns(("time_s", "algbw_gbs", "busbw_gbs")),
]


def nccl_line(r: Collective) -> str:
    """A line as all_reduce_perf prints one (its out-of-place half)."""
    return (f"{int(r.size_bytes):12d}  {int(r.size_bytes) // FLOAT_BYTES:12d}  {'float':>8}  "
            f"{NCCL_REDUCTION.get(r.operation, 'none'):>6}  {-1:6d}  {microseconds(r.time_s):>7}  "
            f"{r.algbw_gbs:6.2f}  {r.busbw_gbs:6.2f}")


@click.command()
@cluster_options
@click.option("--op", "operation", type=choices(CollectiveRequestOperation), default="all_reduce",
              show_default=True)
@click.option("--algorithm", type=choices(CollectiveRequestAlgorithm))
@click.option("--size", type=ByteSize(), help="Message size S as nccl-tests counts it, e.g. 8M, 1G (1024-based).")
@click.option("-b", "--begin", type=ByteSize(), help="Smallest size of a sweep, like nccl-tests' -b.")
@click.option("-e", "--end", type=ByteSize(), help="Largest size of a sweep, like nccl-tests' -e.")
@click.option("-f", "--factor", type=int, default=2, show_default=True,
              help="Step factor of a sweep, like nccl-tests' -f.")
@formats
@click.pass_obj
def collective(api: Api, output: str, server: str, fabric: str, nodes: int,
               oversubscription: float | None, operation: str, algorithm: str | None,
               size: int | None, begin: int | None, end: int | None, factor: int) -> None:
    """One collective through the model, printed as nccl-tests prints a measurement.

    The columns are all_reduce_perf's (size, count, type, redop, root, time, algbw, busbw, with
    nccl-tests' definitions of algbw and busbw), so the model's line sits beside a measured one.
    """
    asked = sizes(size, begin, end, factor)
    flags = {**CLUSTER_FLAGS, "operation": "--op", "size_bytes": "--size",
             "algorithm": "--algorithm"}
    answers = []
    for size_bytes in asked:
        body = {"cluster": cluster(server, fabric, nodes, oversubscription),
                "operation": operation, "size_bytes": size_bytes,
                **({"algorithm": algorithm} if algorithm else {})}
        answers.append(api.call(create_collective_estimate, flags,
                                body=CollectiveRequest.from_dict(body)))
    results: list[Collective] = [a.parsed for a in answers]
    if output == "json":
        write_json(answers[0].content if size is not None else [a.content for a in answers])
        return
    if output == "csv":
        write_csv(NCCL_COLUMNS, results)
        return
    first = results[0]
    chosen = getattr(first, "algorithm", None) or algorithm or "auto"
    ran = ", ".join(dict.fromkeys(str(getattr(r, "algorithm_used", chosen)) for r in results))
    click.echo(f"# {operation} on {where(nodes, server, fabric)}: {first.ranks} ranks, "
               f"algorithm {chosen} (ran {ran}); the model's prediction, in nccl-tests' columns")
    click.echo("#" + " " * 62 + "out-of-place")
    click.echo(f"# {'size':>10}  {'count':>12}  {'type':>8}  {'redop':>6}  {'root':>6}  "
               f"{'time':>7}  {'algbw':>6}  {'busbw':>6}")
    click.echo(f"# {'(B)':>10}  {'(elements)':>12}  {'':>8}  {'':>6}  {'':>6}  "
               f"{'(us)':>7}  {'(GB/s)':>6}  {'(GB/s)':>6}")
    for r in results:
        click.echo(nccl_line(r))
    click.echo(f"# Avg bus bandwidth    : {sum(r.busbw_gbs for r in results) / len(results):g}")
    ranges(results)


def where(nodes: int, server: str, fabric: str) -> str:
    """The cluster a collective runs on: one node's GPUs talk over NVLink, not the fabric."""
    if nodes == 1:
        return f"1 node of {server} (NVLink only)"
    return f"{nodes} nodes of {server} over {fabric}"


def ranges(results: list[Collective]) -> None:
    """The model's p10-p90 of each line, as comments, so the lines above stay nccl-tests'."""
    click.echo("#")
    click.echo(f"# The model's p10-p90, {CALIBRATION_WORDS[str(results[0].calibration)]}:")
    click.echo(f"# {'size':>10}  {'time (us)':>17}  {'algbw (GB/s)':>15}  {'busbw (GB/s)':>15}")
    for r in results:
        time, algbw, busbw = (interval(r, name) for name in ("time_s", "algbw_gbs", "busbw_gbs"))
        click.echo(f"# {int(r.size_bytes):>10}  "
                   f"{span(time, microseconds):>17}  {span(algbw, '{:.2f}'.format):>15}  "
                   f"{span(busbw, '{:.2f}'.format):>15}")


def span(found, shown) -> str:
    return "-" if found is None else f"{shown(found.p10)}–{shown(found.p90)}"


COMMANDS = (estimate, collective)
