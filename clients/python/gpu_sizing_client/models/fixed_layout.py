from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.fixed_layout_attention_kernel import FixedLayoutAttentionKernel
from ..models.fixed_layout_framework import FixedLayoutFramework
from ..models.fixed_layout_offload import FixedLayoutOffload
from ..models.fixed_layout_recompute import FixedLayoutRecompute
from ..models.fixed_layout_zero_stage import FixedLayoutZeroStage
from ..types import UNSET, Unset






T = TypeVar("T", bound="FixedLayout")



@_attrs_define
class FixedLayout:
    """ 
        Attributes:
            attention_kernel (FixedLayoutAttentionKernel | Unset): Which fused attention kernel: flash2 (FlashAttention-2),
                flash3 (the GPU's own generation: FlashAttention-3 or cuDNN on Hopper, FlashAttention-4 on Blackwell; GPUs
                without one run FlashAttention-2) or triton (FlashAttention in Triton, llm-foundry's attn_impl triton). Default:
                flash3 for megatron (Transformer Engine), flash2 otherwise
            cp (int | Unset): Context parallel (sequence split over cp ranks); dp x tp x pp x cp is the GPU count Default:
                1.
            dp (int | Unset): Data parallel; default: the GPU count over tp x pp x cp
            embedding_in_pipeline_split (bool | Unset): The word embedding and the output layer each take one layer's place
                in the pipeline split, so the first and last stages hold one transformer layer fewer (Megatron-LM's --account-
                for-embedding-in-pipeline-split and --account-for-loss-in-pipeline-split, Megatron-DeepSpeed's --pp-partition-
                method 'type:transformer|embedding'); off: every stage holds the same layers, the first and last the embedding
                and output layer beside them Default: False.
            ep (int | Unset): Expert parallel Default: 1.
            flash_attention (bool | Unset): Fused attention kernels (FlashAttention, cuDNN fused attention); default: on,
                except for megatron-deepspeed-2021 (FlashAttention came in 2022)
            fp8_param_gather (bool | Unset): With FP8 training and the distributed optimizer, all-gather the weights in FP8
                (Megatron-Core's fp8_param_gather, set by NeMo's and Megatron-Bridge's FP8 recipes) Default: False.
            framework (FixedLayoutFramework | Unset): Training framework: megatron (Megatron-LM, NeMo, Megatron-Bridge),
                nemo and megatron-bridge (megatron as their performance scripts run it: tp_comm_overlap on where tp > 1 with
                sequence_parallel; the estimate states framework megatron), megatron-deepspeed, deepspeed (Hugging Face model
                code), fsdp (PyTorch FSDP/FSDP2), ddp (PyTorch DDP), horovod (TensorFlow with Horovod), mxnet (MXNet with
                Horovod), megatron-deepspeed-2021 (Megatron-LM with DeepSpeed's ZeRO-3 before v0.5.5, whose parameter all-
                gathers synchronise the device). Convolutions run at the framework's own kernel rate. Default: megatron for
                transformers, ddp for other models (MXNet, faster on ResNet-50, was retired by Apache in 2023)
            fused_cross_entropy (bool | Unset): Output layer and loss fused in chunks (Liger-Kernel): no logits tensor in
                memory Default: False.
            grad_bucket_mb (float | Unset): MB (1e6 bytes) of gradients per bucket of the data-parallel reduction, as the
                run sets it (PyTorch DDP's or Apex DistributedFusedAdam's bucket_cap_mb, in MiB: 1.048576 MB each); 0: the
                framework's buckets (Megatron-Core's max(40M, 1M x dp) parameters, DeepSpeed's 5e8 elements, 25 MB otherwise)
                Default: 0.0.
            grad_reduce_in_fp32 (bool | Unset): Gradients held and reduced in FP32 (Megatron-Core's grad_reduce_in_fp32);
                false: in the parameters' 16-bit dtype, as NeMo's and Megatron-Bridge's FP8 performance recipes run. Default:
                the framework's usual setting (FP32 for megatron, and for megatron-deepspeed below zero_stage 2, where
                DeepSpeed's BF16 optimizer keeps them)
            micro_batch (int | Unset):  Default: 1.
            offload (FixedLayoutOffload | Unset): State kept in host memory (ZeRO-Offload, Megatron cpu_offloading) Default:
                FixedLayoutOffload.NONE.
            overlap_grad_reduce (bool | Unset): Reduce gradients during the backward pass; default: the framework's usual
                setting
            overlap_param_gather (bool | Unset): With the distributed optimizer (zero_stage 1) and overlap_grad_reduce, all-
                gather the updated weights behind the next step's forward (Megatron-Core's overlap_param_gather); default: on
                for megatron at zero_stage 1, as NeMo's and Megatron-Bridge's recipes set it (Megatron-LM's own --overlap-param-
                gather is off unless given: state false for such runs), off otherwise
            pp (int | Unset): Pipeline stages Default: 1.
            recompute (FixedLayoutRecompute | Unset): Activation recomputation; selective re-runs attention, full every
                layer Default: FixedLayoutRecompute.NONE.
            recompute_layers (int | Unset): With full recompute, layers of each model chunk that recompute (--recompute-num-
                layers); 0: all Default: 0.
            sequence_parallel (bool | Unset): Megatron sequence parallelism; default: on for megatron with tp > 1 (NeMo and
                Megatron-Bridge recipes), off otherwise
            shard_group (int | Unset): Hybrid sharding (HSDP, ZeRO++ hpZ): shard inside groups of this many data-parallel
                ranks, replicate across; 0 shards over all Default: 0.
            tp (int | Unset): Tensor parallel Default: 1.
            tp_comm_overlap (bool | Unset): Overlap the tensor-parallel all-gathers and reduce-scatters with the layer's
                GEMMs (Megatron-Core's --tp-comm-overlap, Transformer Engine's userbuffers; NeMo's and Megatron-Bridge's
                performance recipes set it for tp > 1): a sixteenth of that traffic (a twelfth with full recompute) stays
                exposed while the tensor-parallel group is inside a node. Needs sequence_parallel and framework megatron.
                Default: on for nemo and megatron-bridge where tp > 1 with sequence_parallel, off otherwise, as Megatron-LM runs
            virtual_stages (int | Unset): Interleaved 1F1B chunks per stage Default: 1.
            zero_stage (FixedLayoutZeroStage | Unset): ZeRO stage; FSDP full shard is 3, Megatron's distributed optimizer 1.
                Default: 3 for fsdp, 0 for ddp, horovod and mxnet, 1 otherwise
     """

    attention_kernel: FixedLayoutAttentionKernel | Unset = UNSET
    cp: int | Unset = 1
    dp: int | Unset = UNSET
    embedding_in_pipeline_split: bool | Unset = False
    ep: int | Unset = 1
    flash_attention: bool | Unset = UNSET
    fp8_param_gather: bool | Unset = False
    framework: FixedLayoutFramework | Unset = UNSET
    fused_cross_entropy: bool | Unset = False
    grad_bucket_mb: float | Unset = 0.0
    grad_reduce_in_fp32: bool | Unset = UNSET
    micro_batch: int | Unset = 1
    offload: FixedLayoutOffload | Unset = FixedLayoutOffload.NONE
    overlap_grad_reduce: bool | Unset = UNSET
    overlap_param_gather: bool | Unset = UNSET
    pp: int | Unset = 1
    recompute: FixedLayoutRecompute | Unset = FixedLayoutRecompute.NONE
    recompute_layers: int | Unset = 0
    sequence_parallel: bool | Unset = UNSET
    shard_group: int | Unset = 0
    tp: int | Unset = 1
    tp_comm_overlap: bool | Unset = UNSET
    virtual_stages: int | Unset = 1
    zero_stage: FixedLayoutZeroStage | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        attention_kernel: str | Unset = UNSET
        if not isinstance(self.attention_kernel, Unset):
            attention_kernel = self.attention_kernel.value


        cp = self.cp

        dp = self.dp

        embedding_in_pipeline_split = self.embedding_in_pipeline_split

        ep = self.ep

        flash_attention = self.flash_attention

        fp8_param_gather = self.fp8_param_gather

        framework: str | Unset = UNSET
        if not isinstance(self.framework, Unset):
            framework = self.framework.value


        fused_cross_entropy = self.fused_cross_entropy

        grad_bucket_mb = self.grad_bucket_mb

        grad_reduce_in_fp32 = self.grad_reduce_in_fp32

        micro_batch = self.micro_batch

        offload: str | Unset = UNSET
        if not isinstance(self.offload, Unset):
            offload = self.offload.value


        overlap_grad_reduce = self.overlap_grad_reduce

        overlap_param_gather = self.overlap_param_gather

        pp = self.pp

        recompute: str | Unset = UNSET
        if not isinstance(self.recompute, Unset):
            recompute = self.recompute.value


        recompute_layers = self.recompute_layers

        sequence_parallel = self.sequence_parallel

        shard_group = self.shard_group

        tp = self.tp

        tp_comm_overlap = self.tp_comm_overlap

        virtual_stages = self.virtual_stages

        zero_stage: int | Unset = UNSET
        if not isinstance(self.zero_stage, Unset):
            zero_stage = self.zero_stage.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if attention_kernel is not UNSET:
            field_dict["attention_kernel"] = attention_kernel
        if cp is not UNSET:
            field_dict["cp"] = cp
        if dp is not UNSET:
            field_dict["dp"] = dp
        if embedding_in_pipeline_split is not UNSET:
            field_dict["embedding_in_pipeline_split"] = embedding_in_pipeline_split
        if ep is not UNSET:
            field_dict["ep"] = ep
        if flash_attention is not UNSET:
            field_dict["flash_attention"] = flash_attention
        if fp8_param_gather is not UNSET:
            field_dict["fp8_param_gather"] = fp8_param_gather
        if framework is not UNSET:
            field_dict["framework"] = framework
        if fused_cross_entropy is not UNSET:
            field_dict["fused_cross_entropy"] = fused_cross_entropy
        if grad_bucket_mb is not UNSET:
            field_dict["grad_bucket_mb"] = grad_bucket_mb
        if grad_reduce_in_fp32 is not UNSET:
            field_dict["grad_reduce_in_fp32"] = grad_reduce_in_fp32
        if micro_batch is not UNSET:
            field_dict["micro_batch"] = micro_batch
        if offload is not UNSET:
            field_dict["offload"] = offload
        if overlap_grad_reduce is not UNSET:
            field_dict["overlap_grad_reduce"] = overlap_grad_reduce
        if overlap_param_gather is not UNSET:
            field_dict["overlap_param_gather"] = overlap_param_gather
        if pp is not UNSET:
            field_dict["pp"] = pp
        if recompute is not UNSET:
            field_dict["recompute"] = recompute
        if recompute_layers is not UNSET:
            field_dict["recompute_layers"] = recompute_layers
        if sequence_parallel is not UNSET:
            field_dict["sequence_parallel"] = sequence_parallel
        if shard_group is not UNSET:
            field_dict["shard_group"] = shard_group
        if tp is not UNSET:
            field_dict["tp"] = tp
        if tp_comm_overlap is not UNSET:
            field_dict["tp_comm_overlap"] = tp_comm_overlap
        if virtual_stages is not UNSET:
            field_dict["virtual_stages"] = virtual_stages
        if zero_stage is not UNSET:
            field_dict["zero_stage"] = zero_stage

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _attention_kernel = d.pop("attention_kernel", UNSET)
        attention_kernel: FixedLayoutAttentionKernel | Unset
        if isinstance(_attention_kernel,  Unset):
            attention_kernel = UNSET
        else:
            attention_kernel = FixedLayoutAttentionKernel(_attention_kernel)




        cp = d.pop("cp", UNSET)

        dp = d.pop("dp", UNSET)

        embedding_in_pipeline_split = d.pop("embedding_in_pipeline_split", UNSET)

        ep = d.pop("ep", UNSET)

        flash_attention = d.pop("flash_attention", UNSET)

        fp8_param_gather = d.pop("fp8_param_gather", UNSET)

        _framework = d.pop("framework", UNSET)
        framework: FixedLayoutFramework | Unset
        if isinstance(_framework,  Unset):
            framework = UNSET
        else:
            framework = FixedLayoutFramework(_framework)




        fused_cross_entropy = d.pop("fused_cross_entropy", UNSET)

        grad_bucket_mb = d.pop("grad_bucket_mb", UNSET)

        grad_reduce_in_fp32 = d.pop("grad_reduce_in_fp32", UNSET)

        micro_batch = d.pop("micro_batch", UNSET)

        _offload = d.pop("offload", UNSET)
        offload: FixedLayoutOffload | Unset
        if isinstance(_offload,  Unset):
            offload = UNSET
        else:
            offload = FixedLayoutOffload(_offload)




        overlap_grad_reduce = d.pop("overlap_grad_reduce", UNSET)

        overlap_param_gather = d.pop("overlap_param_gather", UNSET)

        pp = d.pop("pp", UNSET)

        _recompute = d.pop("recompute", UNSET)
        recompute: FixedLayoutRecompute | Unset
        if isinstance(_recompute,  Unset):
            recompute = UNSET
        else:
            recompute = FixedLayoutRecompute(_recompute)




        recompute_layers = d.pop("recompute_layers", UNSET)

        sequence_parallel = d.pop("sequence_parallel", UNSET)

        shard_group = d.pop("shard_group", UNSET)

        tp = d.pop("tp", UNSET)

        tp_comm_overlap = d.pop("tp_comm_overlap", UNSET)

        virtual_stages = d.pop("virtual_stages", UNSET)

        _zero_stage = d.pop("zero_stage", UNSET)
        zero_stage: FixedLayoutZeroStage | Unset
        if isinstance(_zero_stage,  Unset):
            zero_stage = UNSET
        else:
            zero_stage = FixedLayoutZeroStage(_zero_stage)




        fixed_layout = cls(
            attention_kernel=attention_kernel,
            cp=cp,
            dp=dp,
            embedding_in_pipeline_split=embedding_in_pipeline_split,
            ep=ep,
            flash_attention=flash_attention,
            fp8_param_gather=fp8_param_gather,
            framework=framework,
            fused_cross_entropy=fused_cross_entropy,
            grad_bucket_mb=grad_bucket_mb,
            grad_reduce_in_fp32=grad_reduce_in_fp32,
            micro_batch=micro_batch,
            offload=offload,
            overlap_grad_reduce=overlap_grad_reduce,
            overlap_param_gather=overlap_param_gather,
            pp=pp,
            recompute=recompute,
            recompute_layers=recompute_layers,
            sequence_parallel=sequence_parallel,
            shard_group=shard_group,
            tp=tp,
            tp_comm_overlap=tp_comm_overlap,
            virtual_stages=virtual_stages,
            zero_stage=zero_stage,
        )

        return fixed_layout

