"""Schemas of the workload, training and layout a client describes."""

from __future__ import annotations

from typing import ClassVar

import marshmallow as ma
from marshmallow import validate as v

from service.schemas import fields as f
from service.schemas.fields import Strict
from sizing.presets import PRESETS
from sizing.workload import (
    ATTENTION_KERNELS,
    FRAMEWORKS,
    OFFERED_PRECISIONS,
    OFFLOAD,
    RECIPE_FRAMEWORKS,
    RECOMPUTE,
    ZERO_STAGES,
    Transformer,
)

__all__ = ["GenericModelSchema", "LayoutSchema", "Strict", "TrainingSchema", "TransformerSchema",
           "WorkloadSchema"]

Positive = v.Range(min=1, max=1_000_000)


class TransformerSchema(Strict):
    name = f.Text(load_default="custom transformer", max_length=100)
    layers = f.Integer(required=True, validate=v.Range(min=1, max=1000))
    hidden = f.Integer(required=True, validate=v.Range(min=64, max=131072))
    heads = f.Integer(required=True, validate=v.Range(min=1, max=1024))
    kv_heads = f.Integer(validate=v.Range(min=1, max=1024),
                                 metadata={"description": "Key/value heads (GQA); default: heads"})
    ffn_hidden = f.Integer(validate=v.Range(min=64, max=1_048_576),
                                   metadata={"description": "MLP inner size; default 4 x hidden"})
    vocab = f.Integer(required=True, validate=v.Range(min=2, max=4_000_000))
    seq_len = f.Integer(required=True, validate=v.Range(min=16, max=1_048_576))
    experts = f.Integer(load_default=1, validate=v.Range(min=1, max=1024))
    top_k = f.Integer(load_default=1, validate=v.Range(min=1, max=64))
    gated_mlp = f.Boolean(load_default=False,
                                  metadata={"description": "SwiGLU-style MLP (three matrices)"})
    tied_embeddings = f.Boolean(load_default=True,
                                metadata={"description": "Input and output embeddings shared"})
    causal = f.Boolean(load_default=True,
                       metadata={"description": "Causal (decoder) attention; false for an "
                                                "encoder such as BERT"})
    dropout = f.Boolean(load_default=True,
                        metadata={"description": "Trained with dropout (its masks are kept "
                                                 "for the backward); false for models trained "
                                                 "without, as Llama, Mixtral and MPT"})

    @ma.validates_schema
    def _consistent(self, data, **_):
        if data.get("kv_heads") and data["heads"] % data["kv_heads"]:
            raise ma.ValidationError("must divide heads", "kv_heads")
        if data["hidden"] % data["heads"]:
            raise ma.ValidationError("must be a multiple of heads", "hidden")
        if data["top_k"] > data["experts"]:
            raise ma.ValidationError("cannot exceed experts", "top_k")


class GenericModelSchema(Strict):
    name = f.Text(load_default="custom model", max_length=100)
    params = f.Number(required=True, validate=v.Range(min=1e3, max=1e14),
                             metadata={"description": "Parameters"})
    flops_per_sample = f.Number(required=True, validate=v.Range(min=1e3, max=1e20),
                                       metadata={"description": "Forward FLOPs per sample"})
    activation_bytes_per_sample = f.Number(
        load_default=0.0, validate=v.Range(min=0, max=1e12),
        metadata={"description": "Activation memory per sample in bytes"})


class WorkloadSchema(Strict):
    """Exactly one of preset, transformer or generic."""

    spec_rules: ClassVar[dict] = {**f.valid_unless(*f.exactly_one("preset", "transformer", "generic")),
                                  "dependentRequired": {"seq_len": ["preset"]}}

    preset = ma.fields.String(validate=v.OneOf(sorted(PRESETS)),
                              metadata={"description": "A model preset id (GET /v1/presets)",
                                        "example": "llama-3-70b"})
    transformer = ma.fields.Nested(TransformerSchema)
    generic = ma.fields.Nested(GenericModelSchema)
    seq_len = f.Integer(validate=v.Range(min=16, max=1_048_576),
                                metadata={"description": "Override the preset's sequence length"})

    @ma.validates_schema
    def _exactly_one(self, data, **_):
        given = [k for k in ("preset", "transformer", "generic") if k in data]
        if len(given) != 1:
            raise ma.ValidationError("give exactly one of preset, transformer or generic", "preset")
        if "seq_len" in data and "preset" not in data:
            raise ma.ValidationError("only overrides a preset's sequence length", "seq_len")
        if "seq_len" in data and not isinstance(PRESETS[data["preset"]].model, Transformer):
            raise ma.ValidationError(f"{data['preset']} is not a transformer: it has no sequence",
                                     "seq_len")


class TrainingSchema(Strict):
    global_batch = f.Integer(required=True, validate=v.Range(min=1, max=10_000_000),
                                     metadata={"description": "Samples (sequences) per optimizer step"})
    micro_batch = f.Integer(load_default=1, validate=v.Range(min=1, max=4096))
    precision = ma.fields.String(
        validate=v.OneOf(OFFERED_PRECISIONS),
        metadata={"description": "Mixed precision: bf16, fp8 (linear layers in FP8, where the "
                                 "GPU has it) or fp16 (as GPUs without BF16 train, V100 and "
                                 "P100). Default: bf16, or fp16 on a GPU without BF16"})


class LayoutSchema(Strict):
    """The parallel layout as the training framework's own flags state it.

    Fields left out take the framework's usual setting (see each description).
    """

    framework = ma.fields.String(
        validate=v.OneOf(FRAMEWORKS + RECIPE_FRAMEWORKS),
        metadata={"description": "Training framework: megatron (Megatron-LM, NeMo, "
                                 "Megatron-Bridge), nemo and megatron-bridge (megatron as "
                                 "their performance scripts run it: tp_comm_overlap on where "
                                 "tp > 1 with sequence_parallel; the estimate states "
                                 "framework megatron), megatron-deepspeed, deepspeed (Hugging Face "
                                 "model code), fsdp (PyTorch FSDP/FSDP2), ddp (PyTorch DDP), "
                                 "horovod (TensorFlow with Horovod), mxnet (MXNet with "
                                 "Horovod), megatron-deepspeed-2021 (Megatron-LM with "
                                 "DeepSpeed's ZeRO-3 before v0.5.5, whose parameter "
                                 "all-gathers synchronise the device). Convolutions run at "
                                 "the framework's own kernel rate. Default: megatron for "
                                 "transformers, ddp for other "
                                 "models (MXNet, faster on ResNet-50, was retired by Apache "
                                 "in 2023)"})
    dp = f.Integer(required=True, validate=Positive, metadata={"description": "Data parallel"})
    tp = f.Integer(load_default=1, validate=Positive, metadata={"description": "Tensor parallel"})
    pp = f.Integer(load_default=1, validate=Positive, metadata={"description": "Pipeline stages"})
    cp = f.Integer(load_default=1, validate=Positive,
                   metadata={"description": "Context parallel (sequence split over cp ranks); "
                                            "dp x tp x pp x cp is the GPU count"})
    ep = f.Integer(load_default=1, validate=Positive, metadata={"description": "Expert parallel"})
    virtual_stages = f.Integer(load_default=1, validate=Positive,
                                       metadata={"description": "Interleaved 1F1B chunks per stage"})
    zero_stage = f.Integer(validate=v.OneOf(ZERO_STAGES),
                           metadata={"description": "ZeRO stage; FSDP full shard is 3, Megatron's "
                                                    "distributed optimizer 1. Default: 3 for fsdp, "
                                                    "0 for ddp, horovod and mxnet, 1 otherwise"})
    shard_group = f.Integer(load_default=0, validate=v.Range(min=0, max=1_000_000),
                            metadata={"description": "Hybrid sharding (HSDP, ZeRO++ hpZ): shard "
                                                     "inside groups of this many data-parallel "
                                                     "ranks, replicate across; 0 shards over all"})
    sequence_parallel = f.Boolean(
        metadata={"description": "Megatron sequence parallelism; default: on for megatron with "
                                 "tp > 1 (NeMo and Megatron-Bridge recipes), off otherwise"})
    recompute = ma.fields.String(load_default="none", validate=v.OneOf(RECOMPUTE),
                                 metadata={"description": "Activation recomputation; selective "
                                                          "re-runs attention, full every layer"})
    recompute_layers = f.Integer(load_default=0, validate=v.Range(min=0, max=1000),
                                 metadata={"description": "With full recompute, layers of each "
                                                          "model chunk that recompute "
                                                          "(--recompute-num-layers); 0: all"})
    offload = ma.fields.String(load_default="none", validate=v.OneOf(OFFLOAD),
                               metadata={"description": "State kept in host memory (ZeRO-Offload, "
                                                        "Megatron cpu_offloading)"})
    flash_attention = f.Boolean(
        metadata={"description": "Fused attention kernels (FlashAttention, cuDNN fused "
                                 "attention); default: on, except for megatron-deepspeed-2021 "
                                 "(FlashAttention came in 2022)"})
    attention_kernel = ma.fields.String(
        validate=v.OneOf(ATTENTION_KERNELS),
        metadata={"description": "Which fused attention kernel: flash2 (FlashAttention-2), "
                                 "flash3 (the GPU's own generation: FlashAttention-3 or cuDNN "
                                 "on Hopper, FlashAttention-4 on Blackwell; GPUs without one "
                                 "run FlashAttention-2) or triton (FlashAttention in Triton, "
                                 "llm-foundry's attn_impl triton). Default: flash3 for megatron "
                                 "(Transformer Engine), flash2 otherwise"})
    fused_cross_entropy = f.Boolean(
        load_default=False,
        metadata={"description": "Output layer and loss fused in chunks (Liger-Kernel): no "
                                 "logits tensor in memory"})
    embedding_in_pipeline_split = f.Boolean(
        load_default=False,
        metadata={"description": "The word embedding and the output layer each take one "
                                 "layer's place in the pipeline split, so the first and last "
                                 "stages hold one transformer layer fewer (Megatron-LM's "
                                 "--account-for-embedding-in-pipeline-split and "
                                 "--account-for-loss-in-pipeline-split, Megatron-DeepSpeed's "
                                 "--pp-partition-method 'type:transformer|embedding'); off: "
                                 "every stage holds the same layers, the first and last the "
                                 "embedding and output layer beside them"})
    overlap_grad_reduce = f.Boolean(
        metadata={"description": "Reduce gradients during the backward pass; default: the "
                                 "framework's usual setting"})
    grad_reduce_in_fp32 = f.Boolean(
        metadata={"description": "Gradients held and reduced in FP32 (Megatron-Core's "
                                 "grad_reduce_in_fp32); false: in the parameters' 16-bit "
                                 "dtype, as NeMo's and Megatron-Bridge's FP8 performance "
                                 "recipes run. Default: the framework's usual setting (FP32 "
                                 "for megatron, and for megatron-deepspeed below zero_stage "
                                 "2, where DeepSpeed's BF16 optimizer keeps them)"})
    overlap_param_gather = f.Boolean(
        metadata={"description": "With the distributed optimizer (zero_stage 1) and "
                                 "overlap_grad_reduce, all-gather the updated weights behind "
                                 "the next step's forward (Megatron-Core's "
                                 "overlap_param_gather); default: on for megatron at zero_stage "
                                 "1, as NeMo's and Megatron-Bridge's recipes set it (Megatron-LM's own "
                                 "--overlap-param-gather is off unless given: state false for "
                                 "such runs), off otherwise"})
    grad_bucket_mb = f.Number(
        load_default=0.0, validate=v.Range(min=0, max=1_000_000),
        metadata={"description": "MB (1e6 bytes) of gradients per bucket of the data-parallel "
                                 "reduction, as the run sets it (PyTorch DDP's or Apex "
                                 "DistributedFusedAdam's bucket_cap_mb, in MiB: 1.048576 MB "
                                 "each); 0: the framework's buckets (Megatron-Core's max(40M, "
                                 "1M x dp) parameters, DeepSpeed's 5e8 elements, 25 MB "
                                 "otherwise)"})
    tp_comm_overlap = f.Boolean(
        metadata={"description": "Overlap the tensor-parallel all-gathers and reduce-scatters "
                                 "with the layer's GEMMs (Megatron-Core's --tp-comm-overlap, "
                                 "Transformer Engine's userbuffers; NeMo's and "
                                 "Megatron-Bridge's performance recipes set it for tp > 1): "
                                 "a sixteenth of that traffic (a twelfth with full recompute) "
                                 "stays exposed while the "
                                 "tensor-parallel group is inside a node. Needs "
                                 "sequence_parallel and framework megatron. Default: on for "
                                 "nemo and megatron-bridge where tp > 1 with "
                                 "sequence_parallel, off otherwise, as Megatron-LM runs"})
    fp8_param_gather = f.Boolean(
        load_default=False,
        metadata={"description": "With FP8 training and the distributed optimizer, all-gather "
                                 "the weights in FP8 (Megatron-Core's fp8_param_gather, set by "
                                 "NeMo's and Megatron-Bridge's FP8 recipes)"})
