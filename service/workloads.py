"""Builds the model's workload objects from a client's validated request."""

from __future__ import annotations

import dataclasses
from typing import Any

from sizing.hardware import GPU
from sizing.presets import PRESETS
from sizing.workload import (
    FRAMEWORKS_UNFUSED_ATTENTION,
    RECIPE_FRAMEWORKS,
    GenericModel,
    Layout,
    Training,
    Transformer,
)


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


def training_from(training: dict[str, Any], gpu: GPU) -> Training:
    """The training a request states; unstated, the precision is BF16 mixed precision, or FP16
    on a GPU without BF16 (V100, P100), as such GPUs train."""
    precision = training.get("precision") or ("bf16" if gpu.bf16 else "fp16")
    return Training(global_batch=training["global_batch"], micro_batch=training["micro_batch"],
                    precision=precision)


# ZeRO stage a framework runs unless told otherwise: FSDP shards fully, DDP and Horovod
# (TensorFlow's or MXNet's) replicate, Megatron-Core recipes use the distributed optimizer (ZeRO-1 equivalent).
FRAMEWORK_ZERO_STAGE = {"fsdp": 3, "ddp": 0, "horovod": 0, "mxnet": 0}


def layout_from(layout: dict[str, Any], model: Transformer | GenericModel | None = None,
                gpu: GPU | None = None) -> Layout:
    """The layout a request states, with the framework's defaults for what it leaves out (and
    the GPU's: no fused attention where it has no FlashAttention-class kernel)."""
    values = dict(layout)
    # Unstated: Megatron-Core for transformers, PyTorch DDP for sample-based models. MXNet's
    # ResNet-50 is faster (model.yaml framework_conv_efficiency, its fused batch norm), but
    # Apache MXNet was retired to the Apache Attic in 2023 (attic.apache.org/projects/
    # mxnet.html), so a run is planned on it only when the request names it. TensorFlow with
    # Horovod comes out ahead on HBM-bound GPUs only through its fusion estimate
    # (framework_nongemm_bytes_factor), its conv rate being fitted on a 2020 container.
    framework = values.get("framework") or (
        "ddp" if isinstance(model, GenericModel) else "megatron")
    recipe = framework in RECIPE_FRAMEWORKS
    framework = "megatron" if recipe else framework
    values["framework"] = framework
    if values.get("zero_stage") is None:
        values["zero_stage"] = FRAMEWORK_ZERO_STAGE.get(framework, 1)
    if values.get("flash_attention") is None:
        values["flash_attention"] = (framework not in FRAMEWORKS_UNFUSED_ATTENTION
                                     and (gpu is None or gpu.fused_attention))
    if values.get("sequence_parallel") is None:
        values["sequence_parallel"] = framework == "megatron" and values.get("tp", 1) > 1
    if values.get("tp_comm_overlap") is None:
        values["tp_comm_overlap"] = (recipe and bool(values["sequence_parallel"])
                                     and values.get("tp", 1) > 1)
    return Layout.from_mapping(values)
