"""`gpu-sizing size`, `sizing` and `sizings`: submit a questionnaire, follow it, read the result."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import click
from gpu_sizing_client.api.sizings import create_sizing, get_sizing, list_sizings
from gpu_sizing_client.models import (
    ListSizingsOrigin,
    ListSizingsStatus,
    Sizing,
    SizingRequest,
    SizingRequestObjective,
    SizingRequestPrecision,
    SizingRequestTerm,
    SizingStatus,
    WorkloadPreset,
)
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

from gpu_sizing_cli import layouts, sizing_view, workloads
from gpu_sizing_cli.api import CLIENT_SECRET, Api, ApiError, secret
from gpu_sizing_cli.listing import choices, list_command
from gpu_sizing_cli.numbers import FINITE, scientific
from gpu_sizing_cli.output import Column, formats, stderr, write_csv, write_json
from gpu_sizing_cli.problems import one_line

UNDER_WAY = (SizingStatus.QUEUED, SizingStatus.RUNNING)
POLL_S = 0.5
# Body fields set by a flag of another name; every other field `a_b` is set by `--a-b`.
FLAG_OF_FIELD = {"workload.preset": "--preset", "workload.seq_len": "--seq-len",
                 "workload": "--preset", "gpu_models": "--gpu", "fabrics_include": "--fabric",
                 "fabrics_exclude": "--exclude-fabric", "headers.Client-Secret": "--client-secret",
                 **layouts.FLAGS}


class NodeRange(click.ParamType):
    name = "N or MIN-MAX"

    def convert(self, value, param, ctx):
        if isinstance(value, dict):
            return value
        # "8" is 8-8; "8-" names no upper end, so it is refused rather than read as 8.
        ends = str(value).split("-")
        try:
            if len(ends) > 2:
                raise ValueError(value)
            return {"min": int(ends[0]), "max": int(ends[-1])}
        except ValueError:
            self.fail(f"{value!r} is not a node count or range, e.g. 8 or 8-32", param, ctx)


def body_flags(body: dict) -> dict[str, str]:
    # The layout is set by a flag per field (layouts.FLAGS); a problem with the whole of it
    # is named `layout`.
    flags = {name: "--" + name.replace("_", "-") for name in body if name != "layout"}
    return {**flags, **FLAG_OF_FIELD}


@click.command()
@workloads.workload_options
@click.option("--tokens", type=FINITE, help="Tokens to train (transformers), e.g. 2e12.")
@click.option("--samples", type=FINITE, help="Samples per epoch (sample-based models).")
@click.option("--epochs", type=FINITE, help="Passes over the samples.")
@click.option("--duration-days", type=FINITE, help="Deadline; alone, the most work in that time.")
@click.option("--nodes", type=NodeRange(), help="Node count or range, e.g. 8-32 (default 1-16).")
@click.option("--gpus-per-node", type=int)
@click.option("--gpu", "gpu_models", multiple=True, help="A GPU id to consider (repeat).")
@click.option("--fabric", "fabrics_include", multiple=True, help="Only this fabric (repeat).")
@click.option("--exclude-fabric", "fabrics_exclude", multiple=True, help="Not this fabric (repeat).")
@click.option("--precision", type=choices(SizingRequestPrecision))
@click.option("--global-batch", type=int, help="Samples per optimizer step, kept exactly.")
@click.option("--region", help="e.g. us-east, eu-central (see `gpu-sizing catalog regions`).")
@click.option("--term", type=choices(SizingRequestTerm))
@click.option("--currency", help="ISO 4217, e.g. EUR.")
@click.option("--objective", type=choices(SizingRequestObjective))
@click.option("--budget-per-month", metavar="AMOUNT", help="In the currency, e.g. 250000.00.")
@click.option("--budget-total", metavar="AMOUNT")
@click.option("--max-lead-time-days", type=int)
@click.option("--rdma-required", is_flag=True, default=None)
@click.option("--max-results", type=int)
@layouts.layout_options
@formats
@click.pass_obj
def size(api: Api, output: str, preset: str | None, workload_file: Path | None,
         seq_len: int | None, **fields) -> None:
    """Submit a sizing, follow its progress, print the ranked configurations and the advice.

    Only the flags given are sent: the API's defaults apply to the rest (see /docs). The
    layout flags (--framework to --fp8-param-gather) pin the parallel layout: given any, the
    search keeps that one layout (its other fields at their defaults, dp from each candidate's
    GPU count unless given) and chooses only the servers, fabric and nodes.
    """
    workload, flags = workloads.workload_of(preset, workload_file, seq_len, FLAG_OF_FIELD)
    layout = layouts.take_layout(fields)
    body = {"workload": workload, **{name: list(value) if isinstance(value, tuple) else value
                                    for name, value in fields.items()
                                    if value is not None and value != ()}}
    if layout:
        body["layout"] = layout
    flags = {**body_flags(body), **flags}
    try:
        request = SizingRequest.from_dict(body)
    except (KeyError, TypeError, ValueError) as exc:
        raise click.BadParameter(f"not a workload the API takes ({exc})",
                                 param_hint="--workload-file") from None
    with progress_bar() as bar:
        task = bar.add_task("submitting", total=1.0)
        try:
            # One key for every retry of this submission: a retry gets the same sizing back.
            response = api.call(create_sizing, flags, body=request,
                                idempotency_key=str(uuid.uuid4()))
        except click.ClickException:
            bar.update(task, visible=False)
            raise
        client_secret = response.parsed.client_secret or None
        response = follow(api, response, lambda s: bar.update(
            task, completed=s.progress, description=str(s.status)), client_secret)
    if api.publishable and client_secret:
        # A publishable key reads this sizing again, or quotes it, only with its secret, which
        # the API shows once, in this answer.
        sizing_id = response.parsed.id
        stderr.print(f"client secret of sizing {sizing_id}: {client_secret} (give it as "
                     f"--client-secret to `gpu-sizing sizing {sizing_id}` and `gpu-sizing "
                     f"quote {sizing_id}`)", soft_wrap=True)
    finish(response, output)


def progress_bar() -> Progress:
    return Progress(TextColumn("{task.description:>10}"), BarColumn(), TaskProgressColumn(),
                    TimeElapsedColumn(), console=stderr)


def follow(api: Api, response, update, client_secret: str | None = None):
    """Polls the sizing until it is final, reporting its progress."""
    sizing: Sizing = response.parsed
    update(sizing)
    try:
        while sizing.status in UNDER_WAY:
            time.sleep(POLL_S)
            response = api.call(get_sizing, FLAG_OF_FIELD, sizing_id=sizing.id,
                                **secret(client_secret))
            sizing = response.parsed
            update(sizing)
    except KeyboardInterrupt:
        raise click.ClickException(f"stopped waiting; the sizing goes on: gpu-sizing sizing "
                                   f"{sizing.id}") from None
    return response


def finish(response, output: str) -> None:
    sizing: Sizing = response.parsed
    if output == "json":
        write_json(response.content)
    if sizing.status in UNDER_WAY:
        stderr.print(f"sizing {sizing.id} is {sizing.status} ({sizing.progress:.0%}); "
                     f"follow it with: gpu-sizing sizing {sizing.id} --wait")
        return
    if sizing.status != SizingStatus.SUCCEEDED:
        error = sizing.error
        detail = one_line("sizing", error.code, error.detail,
                          [(e.pointer, e.detail) for e in error.errors], FLAG_OF_FIELD) \
            if error else "no reason given"
        raise ApiError(f"sizing {sizing.id} {sizing.status}: {detail}")
    if output == "csv":
        write_csv(sizing_view.columns(sizing.result.currency, long=True),
                  sizing.result.configurations)
    elif output == "table":
        sizing_view.show(sizing.id, sizing.result)


@click.command("sizing")
@click.argument("sizing_id", type=click.UUID)
@click.option("--wait", is_flag=True, help="Follow it with a progress bar until it is final.")
@CLIENT_SECRET
@formats
@click.pass_obj
def show_sizing(api: Api, output: str, sizing_id, wait: bool, client_secret: str | None) -> None:
    """Print a sizing: its status, or its ranked configurations once it succeeded."""
    response = api.call(get_sizing, FLAG_OF_FIELD, sizing_id=sizing_id, **secret(client_secret))
    if wait and response.parsed.status in UNDER_WAY:
        with progress_bar() as bar:
            task = bar.add_task("", total=1.0)
            response = follow(api, response, lambda s: bar.update(
                task, completed=s.progress, description=str(s.status)), client_secret)
    finish(response, output)


def workload_name(summary) -> str:
    w = summary.request.workload
    preset = getattr(w, "preset", None)
    return str(preset) if isinstance(preset, WorkloadPreset) else "custom"


def work_asked(summary) -> str:
    r = summary.request
    for name, unit in (("tokens", "tokens"), ("samples", "samples"), ("duration_days", "days")):
        value = getattr(r, name, None)
        if isinstance(value, float | int):
            return f"{scientific(value)} {unit}"
    return "-"


LIST_COLUMNS = [
    Column("id", lambda s: s.id, "id", lambda s: s.id),
    Column("created", lambda s: s.created_at.strftime("%Y-%m-%d %H:%M"), "created_at",
           lambda s: s.created_at.isoformat()),
    Column("status", lambda s: str(s.status), "status", lambda s: str(s.status)),
    Column("workload", workload_name, "workload", workload_name),
    Column("work", work_asked, "work", work_asked),
    Column("origin", lambda s: str(s.origin), "origin", lambda s: str(s.origin)),
]


list_all = list_command("sizings", list_sizings, ListSizingsStatus, ListSizingsOrigin,
                        LIST_COLUMNS, "The account's sizings")


COMMANDS = (size, show_sizing, list_all)
