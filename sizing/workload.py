"""Workload value objects: the model trained, the batch, and the parallel layout."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

# Below 2**53 every whole number is a float, and a quotient of two rounds to a whole number
# only where it is one (divides).
_WHOLE_BELOW = 2.0 ** 53


def _whole(x: np.ndarray) -> bool:
    """Whether every value of x is a whole number below 2**53 in magnitude (NaN and the
    infinities are not)."""
    if not x.ndim:
        return bool(-_WHOLE_BELOW < x < _WHOLE_BELOW and x == np.floor(x))
    return (x.size > 0 and bool(-_WHOLE_BELOW < x.min() and x.max() < _WHOLE_BELOW)
            and bool((x == np.floor(x)).all()))


def divides(parts, whole) -> np.ndarray:
    """np.fmod(whole, parts) == 0 (arrays too): whether `parts` divides `whole` exactly.

    A layout's degrees and counts are whole numbers (as floats): where all of both are, below
    2**53, and no part is 0, that is whether their quotient is whole, at a third of fmod's
    cost. The quotient is exact where the parts divide; a remainder puts it at least
    1 / |parts| off every whole number, more than its rounding (at most |whole / parts| x
    2**-53) can take back. Any other column (fractions, zeros, infinities, NaN) goes through
    fmod, as do integer parts (numpy's integer fmod, whose remainder by 0 is 0)."""
    parts, whole = np.asarray(parts), np.asarray(whole)
    if parts.dtype.kind == "f":
        floats = whole.astype(float, copy=False)
        if _whole(parts) and _whole(floats) and np.count_nonzero(parts) == parts.size:
            quotient = floats / parts
            return quotient == np.floor(quotient)
    return np.fmod(whole, parts) == 0


# Training precisions the model knows; the catalog's GPUs declare peaks for bf16 and fp8,
# and fp16 (mixed precision with loss scaling, as GPUs without BF16 train: V100, P100) runs
# at the same 16-bit rate and bytes as bf16. The API offers all but fp32.
PRECISIONS = ("bf16", "fp8", "fp32", "fp16")
OFFERED_PRECISIONS = ("bf16", "fp8", "fp16")
# Activation recomputation modes; arrays of the vectorised model carry their index.
RECOMPUTE = ("none", "selective", "full")
ZERO_STAGES = (0, 1, 2, 3)
# Training frameworks with their own kernel and overlap profile (model.yaml framework_*):
# Megatron-LM / NeMo / Megatron-Bridge (Megatron-Core), Megatron-DeepSpeed (Megatron's model
# code on DeepSpeed's engine), DeepSpeed on Hugging Face Transformers, PyTorch FSDP
# (llm-foundry, torchtitan), PyTorch DDP, TensorFlow with Horovod (horovod) and MXNet with
# Horovod (mxnet: its own cuDNN convolution and batch-norm kernels, model.yaml
# framework_conv_efficiency), and megatron-deepspeed-2021: Megatron-LM's own model code on the
# ZeRO-3 engine of DeepSpeed before v0.5.5 (as Narayanan et al. 2021 ran it), whose parameter
# all-gathers synchronise the device and copy through tensor lists (sizing/step.py). Arrays
# carry the index; a profile added later goes last, so that stored codes keep their meaning.
FRAMEWORKS = ("megatron", "megatron-deepspeed", "deepspeed", "fsdp", "ddp", "horovod", "mxnet",
              "megatron-deepspeed-2021")
# Names a request may also give for Megatron-Core as NeMo's and Megatron-Bridge's performance
# scripts run it: framework megatron, with the tensor-parallel overlap (tp_comm_overlap) on
# wherever tp > 1 runs with sequence parallelism, as every H100 and B200 script of theirs
# configures Transformer Engine's userbuffers for it (NVIDIA/NeMo
# scripts/llm/performance/pretrain_*.py @2221c8a1, MegatronCommOverlapCallback's
# tp_comm_overlap_cfg; NVIDIA-NeMo/Megatron-Bridge scripts/performance/configs/llama3/
# llama3_llm_pretrain.py @0a0cb290, cfg.comm_overlap.tp_comm_overlap_cfg).
RECIPE_FRAMEWORKS = ("nemo", "megatron-bridge")
# Frameworks on DeepSpeed's engine: their ZeRO-3 is DeepSpeed's (parameters gathered tensor by
# tensor as modules run), not FSDP's (a unit, a layer, at a time); their ZeRO optimizers hold
# 16-bit gradients from stage 2 (DEEPSPEED_16BIT_GRADIENTS_FROM_STAGE); and their pipeline
# engine runs ZeRO stages 0 and 1 only (microsoft/DeepSpeed deepspeed/runtime/pipe/engine.py,
# PipelineEngine.__init__: 'assert self.zero_optimization_stage() < 2, "ZeRO-2 and ZeRO-3 are
# incompatible with pipeline parallelism"').
DEEPSPEED_FRAMEWORKS = ("megatron-deepspeed", "deepspeed", "megatron-deepspeed-2021")
# DeepSpeed's ZeRO-3 before v0.5.5 gathers each parameter after torch.cuda.synchronize() and
# through torch.distributed.all_gather's tensor-list form (DeepSpeed PR #1188, 2021-10-31,
# first in v0.5.5: 'the async version is not async at all, because each all_gather calls
# torch.cuda.synchronize()'; 'torch.distributed.all_gather will do implicit memcpy').
FRAMEWORK_SYNCHRONOUS_ZERO3 = {"megatron-deepspeed-2021"}
# Both sets by FRAMEWORKS code, for the arrays the vectorised model carries.
DEEPSPEED_CODES = np.array([f in DEEPSPEED_FRAMEWORKS for f in FRAMEWORKS])
SYNCHRONOUS_ZERO3_CODES = np.array([f in FRAMEWORK_SYNCHRONOUS_ZERO3 for f in FRAMEWORKS])
# Frameworks that run Megatron-LM's model code, which builds transformers only (GPTModel,
# BertModel, T5Model): a sample-based model such as a CNN runs on ddp, fsdp, deepspeed,
# horovod or mxnet.
FRAMEWORKS_TRANSFORMER_ONLY = ("megatron", "megatron-deepspeed", "megatron-deepspeed-2021")
TRANSFORMER_ONLY_CODES = np.array([f in FRAMEWORKS_TRANSFORMER_ONLY for f in FRAMEWORKS])
# The highest ZeRO stage a framework has: PyTorch DDP replicates the model and shards at most
# the optimizer state (torch.distributed.optim.ZeroRedundancyOptimizer, 'shards optimizer
# states across distributed data-parallel processes'); sharding gradients and parameters is
# FSDP's (ShardingStrategy.SHARD_GRAD_OP, FULL_SHARD): the fsdp framework. Horovod's
# DistributedOptimizer all-reduces the gradients into every rank's own optimizer, and MXNet's
# KVStore pushes and pulls whole gradients and weights: neither shards anything (ZeRO 0).
FRAMEWORK_MAX_ZERO_STAGE = {"ddp": 1, "horovod": 0, "mxnet": 0}
MAX_ZERO_STAGE_CODES = np.array([FRAMEWORK_MAX_ZERO_STAGE.get(f, ZERO_STAGES[-1])
                                 for f in FRAMEWORKS])
# Megatron-LM's ZeRO stages above 1 are Megatron-FSDP (--use-megatron-fsdp with
# --data-parallel-sharding-strategy optim_grads or optim_grads_params; its distributed
# optimizer is stage 1), which runs without pipeline parallelism: Megatron-FSDP v2 raises
# 'MFSDP v2 does not currently support: ... pipeline_model_parallel_size'
# (megatron/core/distributed/fsdp/mcore_fsdp_adapter.py @d98e8a64 line 629), PyTorch FSDP2
# under Megatron-LM asserts '--use-torch-fsdp2 is not supported with pipeline parallelism'
# (megatron/training/arguments.py @d98e8a64 line 1035), and v1's one hook in the schedules is
# in forward_backward_no_pipelining (pipeline_parallel/schedules.py), none of Megatron-LM's
# tests running it with pp > 1.
MEGATRON_FSDP_FROM_STAGE = 2
MEGATRON_CODE = FRAMEWORKS.index("megatron")
# Frameworks that run no fused attention kernel unless a layout says so: FlashAttention (Dao
# et al. 2022, arXiv:2205.14135) came after the 2021 runs megatron-deepspeed-2021 describes.
FRAMEWORKS_UNFUSED_ATTENTION = {"megatron-deepspeed-2021"}
# What lives in host memory instead of the GPU's (ZeRO-Offload, Megatron cpu_offloading).
OFFLOAD = ("none", "optimizer", "optimizer+activations")
# Whether a framework, as usually run, reduces gradients while the backward pass still runs:
# Megatron-Core recipes (NeMo, Megatron-Bridge) set --overlap-grad-reduce; DDP, FSDP and
# Horovod overlap by design (buckets, units, tensor fusion); DeepSpeed's pipeline engine and
# ZeRO-1/2 without overlap_comm reduce after the backward (DeepSpeed config default false).
# Megatron's model code keeps FP32 main gradients beside 16-bit parameters and reduces them in
# FP32 ("bf16 parameters, fp32 gradients: 18 [bytes]", Megatron-LM docs/user-guide/features/
# dist_optimizer.md; --accumulate-allreduce-grads-in-fp32 with bf16): 4 gradient bytes. A
# layout's grad_reduce_in_fp32 overrides it: Megatron-Core's DistributedDataParallelConfig
# field of that name makes its gradient buffer the parameters' 16-bit dtype when false
# (megatron/core/distributed/distributed_data_parallel.py @core_v0.11.0 line 123: grad_dtype
# = torch.float if self.ddp_config.grad_reduce_in_fp32 else param.dtype), as NeMo's and
# Megatron-Bridge's FP8 performance recipes set it. DeepSpeed's ZeRO-3 optimizer of 2021
# (FP16_DeepSpeedZeroOptimizer_Stage3) keeps and reduce-scatters the gradients in the 16-bit
# dtype of the parameters: partition_parameters.py @v0.3.15 _reduce_scatter_gradient reduces
# param.grad itself, and _partition_gradient copies it into a 16-bit partition (stage3.py
# @v0.3.15 takes its FP32 copy one sub-group at a time in the step).
FRAMEWORK_FP32_GRADIENTS = {"megatron": True, "megatron-deepspeed": True, "deepspeed": False,
                            "fsdp": False, "ddp": False, "horovod": False,
                            "mxnet": False, "megatron-deepspeed-2021": False}
# From ZeRO stage 2 DeepSpeed runs its ZeRO optimizers, which hold and reduce the gradients in
# the parameters' 16-bit dtype, whatever model code runs on them: its BF16 optimizer, the one
# that keeps FP32 gradients, is chosen only without ZeRO or at stage 1
# (runtime/engine.py @v0.16.4 _do_optimizer_sanity_check returns BFLOAT16 for ZeRO at
# zero_optimization_stage() == 1 only, and there only when the gradients accumulate in FP32,
# data_types.grad_accum_dtype 'fp32', as the megatron-deepspeed profile assumes: with
# DeepSpeed's default BF16 accumulation under ZeRO a stage-1 run holds 16-bit gradients too,
# and a layout states it with grad_reduce_in_fp32 false).
DEEPSPEED_16BIT_GRADIENTS_FROM_STAGE = 2
_FP32_GRADIENTS_BY_CODE = np.array([FRAMEWORK_FP32_GRADIENTS[f] for f in FRAMEWORKS])
FRAMEWORK_OVERLAPS_GRADIENTS = {"megatron": True, "megatron-deepspeed": False,
                                "deepspeed": False, "fsdp": True, "ddp": True, "horovod": True,
                                "mxnet": True, "megatron-deepspeed-2021": False}
# How a framework sizes the buckets its gradients are reduced in, each bucket one collective
# paying its own latency: "ddp", PyTorch DDP's bucket_cap_mb (model.yaml dp_bucket_mb);
# "megatron-core", Megatron-Core's DistributedDataParallel, max(40,000,000, 1,000,000 x the
# data-parallel size) parameters, 'to ensure that chunks used in NCCL ring-reduce
# implementations are large enough to remain bandwidth-bound rather than latency-bound', and
# one bucket of everything without overlap_grad_reduce
# (megatron/core/distributed/distributed_data_parallel.py @core_v0.11.0 lines 51-61);
# "deepspeed", DeepSpeed's 5e8 elements at a time (model.yaml deepspeed_reduce_bucket_params).
# Horovod's and MXNet's fusion buffers are not sourced here and keep DDP's figure.
FRAMEWORK_BUCKETS = {"megatron": "megatron-core", "megatron-deepspeed": "deepspeed",
                     "deepspeed": "deepspeed", "fsdp": "ddp", "ddp": "ddp", "horovod": "ddp",
                     "mxnet": "ddp", "megatron-deepspeed-2021": "deepspeed"}
BUCKET_RULES = ("ddp", "megatron-core", "deepspeed")
BUCKET_RULE_CODES = np.array([BUCKET_RULES.index(FRAMEWORK_BUCKETS[f]) for f in FRAMEWORKS])
# Whether the distributed optimizer (ZeRO-1) all-gathers the updated weights behind the next
# step's forward: Megatron-Core's overlap_param_gather (--overlap-param-gather, 'overlap param
# all-gather in distributed optimizer', megatron/training/arguments.py @core_v0.11.0), which
# NeMo's and Megatron-Bridge's recipes set (nemo/collections/llm/recipes/*.py
# DistributedDataParallelConfig(overlap_param_gather=True) @v2.2.0; Megatron-Bridge
# recipes/llama/llama3.py @v0.2.0 line 557). DeepSpeed's ZeRO-1 gathers after its step.
FRAMEWORK_OVERLAPS_PARAM_GATHER = {f: f == "megatron" for f in FRAMEWORK_OVERLAPS_GRADIENTS}
# Fused attention kernels (model.yaml <kernel>_attention_efficiency and _sequence_share):
# flash2 is FlashAttention-2 (Dao 2023), written for Ampere and run unchanged on later GPUs;
# flash3 is the GPU's own generation: FlashAttention-3 or cuDNN fused attention on Hopper
# (Shah et al. 2024 measure both), FlashAttention-4 / cuDNN on Blackwell. A GPU with no such
# kernel (Ampere, Ada) runs FlashAttention-2 either way. triton is the FlashAttention
# algorithm written in Triton (flash_attn/flash_attn_triton.py of Dao-AILab/flash-attention,
# copied into llm-foundry as llmfoundry/models/layers/flash_attn_triton.py: `attn_impl:
# triton`, the MPT default until llm-foundry c26309de of 2024-03-18), about FlashAttention-1's
# speed on every GPU.
ATTENTION_KERNELS = ("flash2", "flash3", "triton")
# The kernel a framework runs unless the workload says: Megatron-Core (NeMo, Megatron-Bridge)
# attends through Transformer Engine, whose default backend on Hopper and Blackwell is cuDNN
# fused attention (TE docs 'attention backends': FusedAttention preferred on sm90+);
# Hugging Face model code (DeepSpeed, FSDP in llm-foundry), torchtitan (PyTorch SDPA's flash
# backend is FlashAttention-2) and the rest call FlashAttention-2.
FRAMEWORK_ATTENTION_KERNEL = {"megatron": "flash3", "megatron-deepspeed": "flash2",
                              "deepspeed": "flash2", "fsdp": "flash2", "ddp": "flash2",
                              "horovod": "flash2", "mxnet": "flash2",
                              "megatron-deepspeed-2021": "flash2"}


def default_fp32_gradients(framework, zero_stage):
    """Whether a framework, as usually run, holds and reduces FP32 gradients at this ZeRO stage
    (a framework's name and a stage, or arrays of FRAMEWORKS codes and stages)."""
    if isinstance(framework, str):  # one layout: no arrays to build
        return FRAMEWORK_FP32_GRADIENTS[framework] and not (
            framework in DEEPSPEED_FRAMEWORKS and zero_stage >= DEEPSPEED_16BIT_GRADIENTS_FROM_STAGE)
    code = np.asarray(framework, int)
    fp32, deepspeed = _FP32_GRADIENTS_BY_CODE[code], DEEPSPEED_CODES[code]
    out = fp32 & ~(deepspeed & (np.asarray(zero_stage) >= DEEPSPEED_16BIT_GRADIENTS_FROM_STAGE))
    return bool(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class Transformer:
    """Decoder or encoder transformer; GQA through kv_heads, MoE through experts and top_k."""

    name: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn_hidden: int
    vocab: int
    seq_len: int
    experts: int = 1
    top_k: int = 1
    gated_mlp: bool = False  # SwiGLU-style MLP: three h x ffn matrices instead of two
    tied_embeddings: bool = True
    causal: bool = True  # decoder (causal mask); an encoder such as BERT attends both ways
    # Trained with dropout: its masks are saved for the backward (Korthikanti et al. 2022
    # count two sbh masks per layer and one of the unfused score matrix). Dropout 0, as Llama,
    # Llama 2, Mixtral and MPT train, saves none: PyTorch's dropout at p=0 returns its input.
    dropout: bool = True

    def tp_divides_heads(self, tp):
        """Tensor parallelism splits the query heads and the key/value heads evenly or not at
        all (arrays too): Megatron-Core requires num_query_groups divisible by the
        tensor-parallel size (transformer_config.py @core_v0.15.0 line 758, 'num_query_groups
        ... must be a multiple of tensor_model_parallel_size'). From core_v0.16.0 (PR #2565)
        it also runs a tp that is a multiple of the KV heads by replicating them on each rank;
        the model prices kv_heads / tp of the KV projections per rank, not the replicas, so
        such a layout stays refused."""
        return divides(tp, self.heads) & divides(tp, self.kv_heads)

    def stage_layers(self, pp, virtual_stages):
        """The most layers one model chunk holds (arrays too): an uneven pipeline without
        interleaving gives its first stages one more (Megatron-LM's
        --decoder-first-pipeline-num-layers and --decoder-last-pipeline-num-layers)."""
        return np.ceil(self.layers / (np.asarray(pp, float) * np.asarray(virtual_stages, float)))

    def pipeline_stage_layers(self, pp, embedding_in_split) -> tuple:
        """(the transformer layers the first and the last pipeline stage each hold, those a
        middle stage holds), arrays too; pp 1: the one stage holds them all. Without the
        embedding in the split each stage holds ceil(L / pp), the first stages the most of an
        uneven split (Megatron-LM's
        --decoder-first-pipeline-num-layers; the prequel of BLOOM: '78/12=6.5 - so the last
        stage has 1 block, while the rest have 7'); with it, L + 2 places are split and the
        embedding and the output layer take one each on the first and last stages."""
        pp = np.asarray(pp, float)
        split = np.asarray(embedding_in_split, bool) & (pp > 1)
        places = np.ceil((self.layers + np.where(split, 2.0, 0.0)) / pp)
        return np.maximum(places - np.where(split, 1.0, 0.0), 0.0), places

    def pacing_stage(self, pp, embedding_in_split) -> tuple:
        """(the transformer layers of the pipeline stage whose work paces the step, whether it
        holds the output layer), arrays too. In the steady state of 1F1B every stage waits on
        the slowest (Narayanan et al. 2021 section 2.2 assume balanced stages); the last holds
        the output layer and the loss on top of its layers, the others their layers alone.
        The stages are compared by forward FLOPs: a layer's and the output layer's (2 h v per
        token; 1.2-1.5 layers for Llama 3 and BLOOM, a third of one for GPT-3's 51k
        vocabulary). An uneven split gives the last stage what the first stages leave (the
        prequel of BLOOM: '78/12=6.5 - so the last stage has 1 block, while the rest have
        7'); pp 1: the one stage, all layers and the output layer."""
        pp = np.asarray(pp, float)
        # 1 where the embedding and the output layer take a place each (pipeline_stage_layers)
        split = (np.asarray(embedding_in_split, bool) & (pp > 1)).astype(float)
        middle = np.ceil((self.layers + 2.0 * split) / pp)
        last = np.maximum(self.layers + split - (pp - 1.0) * middle, 0.0)
        # the busiest other stage: a middle one, or the first alone (a layer fewer) at pp 2
        others = middle - split * (pp < 3)
        # the output layer in layers: its forward FLOPs over a layer's
        output = self.logits_forward_flops_per_token * self.layers / self.layer_forward_flops_per_token
        paced_by_last = last + output >= others
        return np.where(paced_by_last, last, others), paced_by_last

    def chunks_divide_layers(self, pp, virtual_stages):
        """Whether the interleaved schedule's pp x virtual_stages chunks hold the same number of
        layers (arrays too): Megatron-LM asserts 'number of layers of the model must be
        divisible pipeline model parallel size' and 'number of layers per pipeline stage must be
        divisible number of layers per virtual pipeline stage' (megatron/training/arguments.py
        @d98e8a64 lines 968-973), the layers counting the embedding and the loss as one more
        each where --account-for-embedding-in-pipeline-split and
        --account-for-loss-in-pipeline-split say so (transformer_config.py @d98e8a64 lines
        2387-2414: Llama 3.1 405B's 126 layers run as 128 over pp 8 x vp 8). Without
        interleaving an uneven split is allowed (--decoder-first/last-pipeline-num-layers)."""
        v = np.asarray(virtual_stages)
        chunks = np.asarray(pp) * v
        split = [divides(chunks, self.layers + counted) for counted in (0, 1, 2)]
        return (v == 1) | split[0] | split[1] | split[2]

    def ep_divides_experts(self, ep):
        """Expert parallelism places whole experts on each rank (arrays too)."""
        return divides(ep, self.experts)

    @property
    def kv_ratio(self) -> float:
        return self.kv_heads / self.heads

    @property
    def attention_params_per_layer(self) -> float:
        return 2 * self.hidden**2 * (1 + self.kv_ratio)

    @property
    def mlp_params_per_expert(self) -> float:
        return (3 if self.gated_mlp else 2) * self.hidden * self.ffn_hidden

    @property
    def embedding_params(self) -> float:
        return self.vocab * self.hidden * (1 if self.tied_embeddings else 2)

    @property
    def router_params_per_layer(self) -> float:
        return self.hidden * self.experts if self.experts > 1 else 0.0

    @property
    def expert_params(self) -> float:
        """Parameters that live in experts (sharded by expert parallelism); 0 for dense models."""
        return self.layers * self.experts * self.mlp_params_per_expert if self.experts > 1 else 0.0

    @property
    def fp8_linear_params(self) -> tuple[float, float]:
        """(the dense, the experts') weight parameters of the linears FP8 training runs in FP8:
        attention's and the MLPs'. The embedding, the output layer (Megatron's is not a
        Transformer Engine linear, compute.transformer_work), the router and the norms stay
        16-bit."""
        linears = self.layers * (self.attention_params_per_layer
                                 + self.experts * self.mlp_params_per_expert)
        return linears - self.expert_params, self.expert_params

    @property
    def params(self) -> float:
        per_layer = (
            self.attention_params_per_layer
            + self.experts * self.mlp_params_per_expert
            + self.router_params_per_layer
            + 2 * self.hidden
        )
        return self.layers * per_layer + self.embedding_params

    @property
    def active_params(self) -> float:
        per_layer = (
            self.attention_params_per_layer
            + min(self.top_k, self.experts) * self.mlp_params_per_expert
            + self.router_params_per_layer
            + 2 * self.hidden
        )
        return self.layers * per_layer + self.embedding_params

    @property
    def forward_flops_per_token(self) -> float:
        """Model FLOPs of one forward pass per token (Korthikanti App. A, generalised).

        Matrices: 2 FLOPs per active weight; attention scores 4*s*h per layer; logits 2*h*v.
        With h x 4h MLP and no GQA this is 24h^2 + 4sh per layer, i.e. one third of eq. 7.
        """
        k = min(self.top_k, self.experts)
        matrices = self.attention_params_per_layer + k * self.mlp_params_per_expert
        matrices += self.router_params_per_layer
        per_layer = 2 * matrices + 4 * self.seq_len * self.hidden
        return self.layers * per_layer + 2 * self.hidden * self.vocab

    @property
    def layer_forward_flops_per_token(self) -> float:
        """Forward FLOPs per token of the transformer layers alone (recomputed by full recompute)."""
        return self.forward_flops_per_token - 2 * self.hidden * self.vocab

    @property
    def attention_score_flops_per_token(self) -> float:
        """Forward FLOPs per token of the attention scores (recomputed by selective recompute)."""
        return self.layers * 4 * self.seq_len * self.hidden

    def training_flops_per_token(self) -> float:
        """Model FLOPs of forward + backward per token (backward = 2 x forward)."""
        return 3 * self.forward_flops_per_token

    def hardware_flops_per_token(self, recompute: str) -> float:
        """FLOPs actually executed, with recomputation (brief 3.3)."""
        extra = {
            "none": 0.0,
            # Korthikanti eq. 8: the attention term s/(6h) becomes s/(3h): +3x score forward.
            "selective": 3 * self.attention_score_flops_per_token,
            # One extra forward of every layer (logits not recomputed): 4/3 of 6N.
            "full": self.layer_forward_flops_per_token,
        }[recompute]
        return self.training_flops_per_token() + extra

    @property
    def linear_forward_flops_per_token(self) -> float:
        """Forward FLOPs per token of the layers' weight matrices (the GEMMs FP8 can run)."""
        return self.layer_forward_flops_per_token - self.attention_score_flops_per_token

    @property
    def logits_forward_flops_per_token(self) -> float:
        return 2.0 * self.hidden * self.vocab

    def model_flops_per_token(self, convention: str = "full") -> float:
        """Model FLOPs of forward + backward per token in a published convention.

        "full" counts the whole s x s score matrix (Korthikanti et al. 2022 eq. 7, PaLM,
        NeMo <= 25.04, torchtitan, llm-foundry); "causal" counts half of it for a causal model
        (Megatron-LM logs since 2025-03, Megatron-Bridge): 3 x 2sh per layer less.
        """
        full = self.training_flops_per_token()
        if convention == "causal" and self.causal:
            return full - 3 * self.attention_score_flops_per_token / 2
        return full


@dataclass(frozen=True)
class GenericModel:
    """A model known only by its size: flops_per_sample is the forward pass (training = 3x)."""

    name: str
    params: float
    flops_per_sample: float
    activation_bytes_per_sample: float
    # Per-layer convolution shapes (sizing.cnn.ConvNet) when the architecture is known: compute
    # then runs layer by layer and the memory-bound normalisation work is priced in bytes.
    net: Any = None

    @property
    def active_params(self) -> float:
        return self.params

    def training_flops_per_sample(self) -> float:
        return 3 * self.flops_per_sample


@dataclass(frozen=True)
class Layout:
    dp: int
    tp: int
    pp: int
    ep: int = 1
    virtual_stages: int = 1
    zero_stage: int = 0  # 0, 1, 2, 3 (FSDP full shard counts as 3)
    sequence_parallel: bool = False
    recompute: str = "selective"  # none | selective | full
    cp: int = 1  # context parallel: the sequence split over cp ranks (ring exchange of K/V)
    # Megatron's --recompute-num-layers: with full recompute, how many layers of each stage
    # recompute (the rest keep their activations); 0 means all of them.
    recompute_layers: int = 0
    # Hybrid sharding (HSDP, ZeRO++ hpZ): ZeRO-3/FSDP shards inside groups of this many
    # data-parallel ranks and replicates across groups; 0 shards over all of dp.
    shard_group: int = 0
    offload: str = "none"  # none | optimizer | optimizer+activations
    framework: str = "megatron"
    flash_attention: bool = True  # fused attention kernels (FlashAttention, cuDNN fused attn)
    attention_kernel: str | None = None  # one of ATTENTION_KERNELS; None: the framework's
    overlap_grad_reduce: bool | None = None  # None: the framework's usual setting
    # Gradients held and reduced in FP32 (Megatron-Core's grad_reduce_in_fp32) or in the 16-bit
    # dtype of the parameters; None: the framework's usual setting at its ZeRO stage
    # (default_fp32_gradients).
    grad_reduce_in_fp32: bool | None = None
    # With the distributed optimizer (zero_stage 1), the weights' all-gather runs behind the next
    # forward (Megatron-Core's overlap_param_gather); None: the framework's usual setting at
    # zero_stage 1, off at any other stage.
    overlap_param_gather: bool | None = None
    # Megatron-Core's fp8_param_gather: with FP8 training the distributed optimizer all-gathers
    # the weights in FP8, one byte each ('perform the param all-gather in fp8',
    # distributed_data_parallel_config.py @core_v0.11.0 line 47); off by default.
    fp8_param_gather: bool = False
    # Transformer Engine's userbuffers overlap of the tensor-parallel all-gathers and
    # reduce-scatters with the layer's GEMMs (Megatron-Core's --tp-comm-overlap, which needs
    # sequence parallelism; NeMo's and Megatron-Bridge's performance recipes set it for tp > 1):
    # a share of the traffic stays exposed (model.yaml tp_comm_overlap_exposed_share). Off by
    # default, as Megatron-LM runs.
    tp_comm_overlap: bool = False
    # The output layer and the loss computed together in chunks (Liger-Kernel's fused linear
    # cross entropy): no full logits tensor, neither 16-bit nor FP32.
    fused_cross_entropy: bool = False
    # The word embedding and the output layer each take one layer's place in the pipeline's
    # split, so the first and last stages hold one transformer layer fewer than the others
    # (Megatron-LM's --account-for-embedding-in-pipeline-split with
    # --account-for-loss-in-pipeline-split; Megatron-DeepSpeed's --pp-partition-method
    # 'type:transformer|embedding'); off: every stage holds the same layers and the first and
    # last hold the embedding and the output layer beside them.
    embedding_in_pipeline_split: bool = False
    # The gradients' bucket of the data-parallel reduction, in MB (1e6 bytes) of gradients, as a
    # run states it (PyTorch DDP's and Apex DistributedFusedAdam's bucket_cap_mb, in MiB:
    # 1.048576 MB each); 0: the framework's rule (FRAMEWORK_BUCKETS).
    grad_bucket_mb: float = 0.0

    @property
    def overlaps_gradients(self) -> bool:
        if self.overlap_grad_reduce is None:
            return FRAMEWORK_OVERLAPS_GRADIENTS[self.framework]
        return self.overlap_grad_reduce

    @property
    def overlaps_param_gather(self) -> bool:
        if self.overlap_param_gather is None:
            # Only the distributed optimizer (ZeRO-1) has this all-gather to overlap; stated
            # at another stage it is a contradiction (step.layout_rules), so no default states it.
            return FRAMEWORK_OVERLAPS_PARAM_GATHER[self.framework] and self.zero_stage == 1
        return self.overlap_param_gather

    @property
    def fp32_gradients(self) -> bool:
        if self.grad_reduce_in_fp32 is None:
            return default_fp32_gradients(self.framework, self.zero_stage)
        return self.grad_reduce_in_fp32

    @property
    def fused_attention_kernel(self) -> str:
        """The fused attention kernel this layout runs (when flash_attention is on)."""
        return self.attention_kernel or FRAMEWORK_ATTENTION_KERNEL[self.framework]

    @property
    def gpus(self) -> int:
        return self.dp * self.tp * self.pp * self.cp

    @classmethod
    def from_mapping(cls, degrees: Mapping[str, Any]) -> Layout:
        """The one way to build a layout from named degrees (a request, a candidate's row).

        Keys it does not know (micro_batch, say) are ignored; recompute may be a mode's name
        or its index in RECOMPUTE, as the vectorised model stores it.
        """
        values = {f.name: degrees[f.name] for f in fields(cls) if f.name in degrees}
        for name in ("dp", "tp", "pp", "ep", "virtual_stages", "zero_stage", "cp",
                     "recompute_layers", "shard_group"):
            if name in values:
                values[name] = int(values[name])
        for name in ("sequence_parallel", "flash_attention", "overlap_grad_reduce",
                     "grad_reduce_in_fp32", "overlap_param_gather", "fp8_param_gather",
                     "tp_comm_overlap", "fused_cross_entropy", "embedding_in_pipeline_split"):
            if name in values and values[name] is not None:
                values[name] = bool(values[name])
        if "grad_bucket_mb" in values:
            values["grad_bucket_mb"] = float(values["grad_bucket_mb"])
        for name, names in (("recompute", RECOMPUTE), ("offload", OFFLOAD),
                            ("framework", FRAMEWORKS), ("attention_kernel", ATTENTION_KERNELS)):
            value = values.get(name)
            if value is not None and not isinstance(value, str):
                values[name] = names[int(value)]
        return cls(**values)


@dataclass(frozen=True)
class Training:
    global_batch: int  # samples (sequences) per optimizer step
    micro_batch: int  # samples per micro-batch per data-parallel rank
    precision: str = "bf16"  # bf16 | fp8 | fp32
