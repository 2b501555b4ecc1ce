"""The flags of a fixed layout, for `size` and `estimate`: one per field of the API's FixedLayout."""

from __future__ import annotations

from collections.abc import Callable

import click
from gpu_sizing_client.models import (
    FixedLayoutAttentionKernel,
    FixedLayoutFramework,
    FixedLayoutOffload,
    FixedLayoutRecompute,
    FixedLayoutZeroStage,
)

from gpu_sizing_cli.listing import choices
from gpu_sizing_cli.numbers import FINITE


def switch(name: str, text: str) -> Callable:
    """--name/--no-name, unset unless given, so that the API's default (often the framework's
    own setting) applies."""
    flag = name.replace("_", "-")
    return click.option(f"--{flag}/--no-{flag}", name, default=None, help=text)


# Field -> its option, in the order `--help` lists them; the API checks the values (a 422 naming
# the flag) and documents each default (/docs, FixedLayout), which the help repeats.
OPTIONS: dict[str, Callable] = {
    "framework": click.option("--framework", type=choices(FixedLayoutFramework),
                              help="Training framework; nemo and megatron-bridge are megatron "
                                   "with their scripts' tensor-parallel overlap (default: "
                                   "megatron for transformers, ddp for other models)."),
    "tp": click.option("--tp", type=int, help="Tensor-parallel degree (default 1)."),
    "pp": click.option("--pp", type=int, help="Pipeline stages (default 1)."),
    "cp": click.option("--cp", type=int, help="Context-parallel degree: the sequence split "
                                                 "over this many ranks (default 1)."),
    "ep": click.option("--ep", type=int, help="Expert-parallel degree (default 1)."),
    "dp": click.option("--dp", type=int, help="Data-parallel degree (default: each "
                                                 "candidate's GPUs / (tp x pp x cp))."),
    "virtual_stages": click.option("--virtual-stages", type=int,
                                   help="Interleaved 1F1B model chunks per pipeline stage "
                                        "(default 1)."),
    "micro_batch": click.option("--micro-batch", type=int,
                                help="Samples per micro-batch on each GPU (default 1)."),
    "zero_stage": click.option("--zero-stage", "--zero", "zero_stage",
                               type=choices(FixedLayoutZeroStage),
                               help="ZeRO stage; FSDP full shard is 3, Megatron's distributed "
                                    "optimizer 1 (default: 3 for fsdp, 0 for ddp, horovod and "
                                    "mxnet, 1 otherwise); --zero is the same flag."),
    "shard_group": click.option("--shard-group", type=int,
                                help="Hybrid sharding (HSDP, ZeRO++ hpZ): shard within groups "
                                     "of this many data-parallel ranks (default 0: over all)."),
    "offload": click.option("--offload", type=choices(FixedLayoutOffload),
                            help="State kept in host memory (default none)."),
    "recompute": click.option("--recompute", type=choices(FixedLayoutRecompute),
                              help="Activation recomputation: selective re-runs attention, "
                                   "full every layer (default none)."),
    "recompute_layers": click.option("--recompute-layers", type=int,
                                     help="With --recompute full, layers per model chunk that "
                                          "recompute (default 0: all)."),
    "sequence_parallel": switch("sequence_parallel", "Megatron sequence parallelism (default: "
                                "on for megatron with tp > 1)."),
    "flash_attention": switch("flash_attention", "Fused attention kernels (default: on, except "
                              "for megatron-deepspeed-2021)."),
    "attention_kernel": click.option("--attention-kernel", type=choices(FixedLayoutAttentionKernel),
                                     help="Which fused attention kernel (default: flash3 for "
                                          "megatron, flash2 otherwise)."),
    "fused_cross_entropy": switch("fused_cross_entropy", "Output layer and loss fused in chunks "
                                  "(Liger-Kernel), no logits tensor (default: off)."),
    "embedding_in_pipeline_split": switch("embedding_in_pipeline_split", "The embedding and "
                                          "the output layer each take a layer's place in the "
                                          "pipeline split (default: off)."),
    "overlap_grad_reduce": switch("overlap_grad_reduce", "Reduce gradients during the backward "
                                  "pass (default: the framework's usual setting)."),
    "grad_reduce_in_fp32": switch("grad_reduce_in_fp32", "Gradients held and reduced in FP32 "
                                  "(default: the framework's usual setting)."),
    "overlap_param_gather": switch("overlap_param_gather", "All-gather the updated weights "
                                   "behind the next forward (default: on for megatron at "
                                   "ZeRO stage 1)."),
    "fp8_param_gather": switch("fp8_param_gather", "With FP8, all-gather the weights in FP8 "
                               "(default: off)."),
    "tp_comm_overlap": switch("tp_comm_overlap", "Transformer Engine's userbuffers overlap of "
                              "the tensor-parallel traffic with the GEMMs; needs "
                              "sequence_parallel (default: on for nemo and megatron-bridge "
                              "where tp > 1 with sequence parallelism, off otherwise)."),
    "grad_bucket_mb": click.option("--grad-bucket-mb", type=FINITE,
                                   help="MB (1e6 bytes) of gradients per bucket of the "
                                        "data-parallel reduction, as the run sets it (default 0: "
                                        "the framework's own buckets)."),
}
# A pointer into the layout ("/layout/tp") to the flag that set it, for the API's problems.
FLAGS = {f"layout.{name}": "--" + name.replace("_", "-") for name in OPTIONS}


def layout_options(command: Callable) -> Callable:
    """Every layout flag on `command`, listed in OPTIONS' order."""
    for option in reversed(OPTIONS.values()):
        command = option(command)
    return command


def take_layout(given: dict) -> dict | None:
    """The layout fields of a command's arguments, removed from them: the body's `layout`, or
    None (the search chooses) when no layout flag was given."""
    layout = {name: value for name in OPTIONS if (value := given.pop(name, None)) is not None}
    if "zero_stage" in layout:
        layout["zero_stage"] = int(layout["zero_stage"])
    return layout or None
