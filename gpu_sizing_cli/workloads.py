"""The workload flags `size` and `estimate` share: a preset, or a JSON workload file, and its body."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click
from gpu_sizing_client.models import WorkloadPreset

from gpu_sizing_cli.listing import choices


def workload_options(command: Callable) -> Callable:
    """--preset, --workload-file and --seq-len on `command`."""
    for option in reversed((
        click.option("--preset", type=choices(WorkloadPreset), help="A model preset (see "
                     "`gpu-sizing catalog presets`)."),
        click.option("--workload-file", type=click.Path(exists=True, dir_okay=False,
                                                        path_type=Path),
                     help='A JSON workload instead of a preset: {"transformer": {...}} or '
                          '{"generic": {...}} (see /docs).'),
        click.option("--seq-len", type=int, help="Override the preset's sequence length."),
    )):
        command = option(command)
    return command


def workload_of(preset: str | None, workload_file: Path | None, seq_len: int | None,
                flags: dict[str, str]) -> tuple[dict, dict[str, str]]:
    """The body's `workload`, and `flags` with a problem in it named by the flag that gave it."""
    if (preset is None) == (workload_file is None):
        raise click.UsageError("give --preset or --workload-file")
    if workload_file is not None:
        try:
            workload = json.loads(workload_file.read_text())
        except (OSError, ValueError) as exc:
            raise click.BadParameter(str(exc), param_hint="--workload-file") from None
        if not isinstance(workload, dict):
            raise click.BadParameter("not a JSON object", param_hint="--workload-file")
        flags = {**flags, "workload": "--workload-file"}
    else:
        workload = {"preset": preset}
    if seq_len is not None:
        workload["seq_len"] = seq_len
    return workload, flags


def workload_name(workload: dict) -> str:
    """What a person calls the workload: its preset, or the kind of model a file states."""
    if "preset" in workload:
        return workload["preset"]
    kind = next(iter(workload), "workload")
    return f"{kind} model"
