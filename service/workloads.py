"""Builds the model's workload objects from a client's validated request."""

from __future__ import annotations

import dataclasses
from typing import Any

from sizing.presets import PRESETS
from sizing.workload import GenericModel, Layout, Training, Transformer


def model_from(workload: dict[str, Any]) -> Transformer | GenericModel:
    if "preset" in workload:
        model = PRESETS[workload["preset"]].model
        if workload.get("seq_len") and isinstance(model, Transformer):
            model = dataclasses.replace(model, seq_len=workload["seq_len"])
        return model
    if "transformer" in workload:
        t = dict(workload["transformer"])
        t.setdefault("kv_heads", t["heads"])
        t.setdefault("ffn_hidden", 4 * t["hidden"])
        return Transformer(**t)
    return GenericModel(**workload["generic"])


def training_from(training: dict[str, Any]) -> Training:
    return Training(global_batch=training["global_batch"], micro_batch=training["micro_batch"],
                    precision=training["precision"])


def layout_from(layout: dict[str, Any]) -> Layout:
    return Layout.from_mapping(layout)
