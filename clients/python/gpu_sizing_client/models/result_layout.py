from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ResultLayout")



@_attrs_define
class ResultLayout:
    """ 
        Attributes:
            attention_kernel (str): The fused attention kernel the estimate assumes (flash2, flash3 or triton)
            cp (int):
            dp (int):
            embedding_in_pipeline_split (bool):
            ep (int):
            flash_attention (bool):
            fp8_param_gather (bool):
            framework (str):
            fused_cross_entropy (bool):
            grad_bucket_mb (float): MB of gradients per data-parallel bucket as stated; 0: the framework's buckets
            grad_reduce_in_fp32 (bool):
            micro_batch (int):
            offload (str):
            overlap_grad_reduce (bool):
            overlap_param_gather (bool):
            pp (int):
            recompute (str):
            recompute_layers (int):
            sequence_parallel (bool):
            shard_group (int):
            tp (int):
            tp_comm_overlap (bool):
            virtual_stages (int):
            zero_stage (int):
     """

    attention_kernel: str
    cp: int
    dp: int
    embedding_in_pipeline_split: bool
    ep: int
    flash_attention: bool
    fp8_param_gather: bool
    framework: str
    fused_cross_entropy: bool
    grad_bucket_mb: float
    grad_reduce_in_fp32: bool
    micro_batch: int
    offload: str
    overlap_grad_reduce: bool
    overlap_param_gather: bool
    pp: int
    recompute: str
    recompute_layers: int
    sequence_parallel: bool
    shard_group: int
    tp: int
    tp_comm_overlap: bool
    virtual_stages: int
    zero_stage: int





    def to_dict(self) -> dict[str, Any]:
        attention_kernel = self.attention_kernel

        cp = self.cp

        dp = self.dp

        embedding_in_pipeline_split = self.embedding_in_pipeline_split

        ep = self.ep

        flash_attention = self.flash_attention

        fp8_param_gather = self.fp8_param_gather

        framework = self.framework

        fused_cross_entropy = self.fused_cross_entropy

        grad_bucket_mb = self.grad_bucket_mb

        grad_reduce_in_fp32 = self.grad_reduce_in_fp32

        micro_batch = self.micro_batch

        offload = self.offload

        overlap_grad_reduce = self.overlap_grad_reduce

        overlap_param_gather = self.overlap_param_gather

        pp = self.pp

        recompute = self.recompute

        recompute_layers = self.recompute_layers

        sequence_parallel = self.sequence_parallel

        shard_group = self.shard_group

        tp = self.tp

        tp_comm_overlap = self.tp_comm_overlap

        virtual_stages = self.virtual_stages

        zero_stage = self.zero_stage


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "attention_kernel": attention_kernel,
            "cp": cp,
            "dp": dp,
            "embedding_in_pipeline_split": embedding_in_pipeline_split,
            "ep": ep,
            "flash_attention": flash_attention,
            "fp8_param_gather": fp8_param_gather,
            "framework": framework,
            "fused_cross_entropy": fused_cross_entropy,
            "grad_bucket_mb": grad_bucket_mb,
            "grad_reduce_in_fp32": grad_reduce_in_fp32,
            "micro_batch": micro_batch,
            "offload": offload,
            "overlap_grad_reduce": overlap_grad_reduce,
            "overlap_param_gather": overlap_param_gather,
            "pp": pp,
            "recompute": recompute,
            "recompute_layers": recompute_layers,
            "sequence_parallel": sequence_parallel,
            "shard_group": shard_group,
            "tp": tp,
            "tp_comm_overlap": tp_comm_overlap,
            "virtual_stages": virtual_stages,
            "zero_stage": zero_stage,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attention_kernel = d.pop("attention_kernel")

        cp = d.pop("cp")

        dp = d.pop("dp")

        embedding_in_pipeline_split = d.pop("embedding_in_pipeline_split")

        ep = d.pop("ep")

        flash_attention = d.pop("flash_attention")

        fp8_param_gather = d.pop("fp8_param_gather")

        framework = d.pop("framework")

        fused_cross_entropy = d.pop("fused_cross_entropy")

        grad_bucket_mb = d.pop("grad_bucket_mb")

        grad_reduce_in_fp32 = d.pop("grad_reduce_in_fp32")

        micro_batch = d.pop("micro_batch")

        offload = d.pop("offload")

        overlap_grad_reduce = d.pop("overlap_grad_reduce")

        overlap_param_gather = d.pop("overlap_param_gather")

        pp = d.pop("pp")

        recompute = d.pop("recompute")

        recompute_layers = d.pop("recompute_layers")

        sequence_parallel = d.pop("sequence_parallel")

        shard_group = d.pop("shard_group")

        tp = d.pop("tp")

        tp_comm_overlap = d.pop("tp_comm_overlap")

        virtual_stages = d.pop("virtual_stages")

        zero_stage = d.pop("zero_stage")

        result_layout = cls(
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

        return result_layout

