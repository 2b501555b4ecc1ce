from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.estimate_calibration import EstimateCalibration
from typing import cast

if TYPE_CHECKING:
  from ..models.breakdown import Breakdown
  from ..models.estimate_goodput import EstimateGoodput
  from ..models.estimate_intervals import EstimateIntervals
  from ..models.memory import Memory





T = TypeVar("T", bound="Estimate")



@_attrs_define
class Estimate:
    """ 
        Attributes:
            achieved_tflops_per_gpu (float): TFLOP/s per GPU counted as Megatron-DeepSpeed and Narayanan et al. 2021 do:
                model FLOPs (full score matrix) plus recomputation
            assumptions (list[str]):
            bottleneck (str):
            breakdown (Breakdown):
            calibration (EstimateCalibration): calibrated: measured rows exist for this GPU and this fabric; extrapolated:
                not, and the intervals are widened
            catalog_version (int | None):
            communication_share (float): Share of the step spent on exposed communication
            executed_tflops_per_gpu (float): TFLOP/s per GPU the kernels execute: recomputation counted, the masked half of
                a causal model's score matrix left out where a fused attention kernel skips it, the fused backward's recompute
                of the scores counted; the GPUs' own rate, against their dense peak
            goodput (EstimateGoodput | None): null without duration_days
            gpus (int):
            inter_node_bandwidth_gbs (float): Achievable per node, one direction, GB/s (bytes)
            intervals (EstimateIntervals): p10-p90 of each headline figure from the model's error on published measurements
                by category (split-conformal, catalog/data/uncertainty.yaml), widened for an extrapolated configuration by a
                prior on the constants marked estimate; total: the price of a run of each end of time_to_train_hours's interval,
                billed by the term's rule, at the term, currency and prices of the document it is in (a quote's own, a re-priced
                quote's new ones), p10 rounded down and p90 up to 4 significant digits so that the range holds the total shown
                to the cent (a range of the model's uncertainty, not a charge)
            memory (Memory):
            mfu (float): Model FLOPs utilisation, 0-1, counting the whole s x s attention score matrix (Korthikanti et al.
                2022 eq. 7, PaLM, NeMo <= 25.04, llm-foundry, torchtitan); recomputation not counted
            mfu_causal (float): Model FLOPs utilisation counting half the score matrix of a causal model (Megatron-LM logs
                since 2025-03, Megatron-Bridge)
            model_tflops_per_gpu (float): Model TFLOP/s per GPU in the convention of mfu
            model_tflops_per_gpu_causal (float): Model TFLOP/s per GPU in the convention of mfu_causal
            nodes (int):
            samples_per_s (float):
            scaling_efficiency (float): Share of the predicted step time spent on GPU work: the compute (activation
                recomputation included) and the optimizer step, over the step time; the rest is exposed communication, pipeline
                bubble, stragglers and the overlap slowdown. 1.0 is a step with no such overhead, not perfectly linear scaling:
                recomputed FLOPs count as work. efficiency_vs_one_node compares throughput per GPU with one node's
            step_time_s (float):
            tokens_per_s (float | None):
     """

    achieved_tflops_per_gpu: float
    assumptions: list[str]
    bottleneck: str
    breakdown: Breakdown
    calibration: EstimateCalibration
    catalog_version: int | None
    communication_share: float
    executed_tflops_per_gpu: float
    goodput: EstimateGoodput | None
    gpus: int
    inter_node_bandwidth_gbs: float
    intervals: EstimateIntervals
    memory: Memory
    mfu: float
    mfu_causal: float
    model_tflops_per_gpu: float
    model_tflops_per_gpu_causal: float
    nodes: int
    samples_per_s: float
    scaling_efficiency: float
    step_time_s: float
    tokens_per_s: float | None





    def to_dict(self) -> dict[str, Any]:
        from ..models.breakdown import Breakdown # noqa: PLC0415
        from ..models.estimate_goodput import EstimateGoodput # noqa: PLC0415
        from ..models.estimate_intervals import EstimateIntervals # noqa: PLC0415
        from ..models.memory import Memory # noqa: PLC0415
        achieved_tflops_per_gpu = self.achieved_tflops_per_gpu

        assumptions = self.assumptions



        bottleneck = self.bottleneck

        breakdown = self.breakdown.to_dict()

        calibration = self.calibration.value

        catalog_version: int | None
        catalog_version = self.catalog_version

        communication_share = self.communication_share

        executed_tflops_per_gpu = self.executed_tflops_per_gpu

        goodput: dict[str, Any] | None
        if isinstance(self.goodput, EstimateGoodput):
            goodput = self.goodput.to_dict()
        else:
            goodput = self.goodput

        gpus = self.gpus

        inter_node_bandwidth_gbs = self.inter_node_bandwidth_gbs

        intervals = self.intervals.to_dict()

        memory = self.memory.to_dict()

        mfu = self.mfu

        mfu_causal = self.mfu_causal

        model_tflops_per_gpu = self.model_tflops_per_gpu

        model_tflops_per_gpu_causal = self.model_tflops_per_gpu_causal

        nodes = self.nodes

        samples_per_s = self.samples_per_s

        scaling_efficiency = self.scaling_efficiency

        step_time_s = self.step_time_s

        tokens_per_s: float | None
        tokens_per_s = self.tokens_per_s


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "achieved_tflops_per_gpu": achieved_tflops_per_gpu,
            "assumptions": assumptions,
            "bottleneck": bottleneck,
            "breakdown": breakdown,
            "calibration": calibration,
            "catalog_version": catalog_version,
            "communication_share": communication_share,
            "executed_tflops_per_gpu": executed_tflops_per_gpu,
            "goodput": goodput,
            "gpus": gpus,
            "inter_node_bandwidth_gbs": inter_node_bandwidth_gbs,
            "intervals": intervals,
            "memory": memory,
            "mfu": mfu,
            "mfu_causal": mfu_causal,
            "model_tflops_per_gpu": model_tflops_per_gpu,
            "model_tflops_per_gpu_causal": model_tflops_per_gpu_causal,
            "nodes": nodes,
            "samples_per_s": samples_per_s,
            "scaling_efficiency": scaling_efficiency,
            "step_time_s": step_time_s,
            "tokens_per_s": tokens_per_s,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.breakdown import Breakdown # noqa: PLC0415
        from ..models.estimate_goodput import EstimateGoodput # noqa: PLC0415
        from ..models.estimate_intervals import EstimateIntervals # noqa: PLC0415
        from ..models.memory import Memory # noqa: PLC0415
        d = dict(src_dict)
        achieved_tflops_per_gpu = d.pop("achieved_tflops_per_gpu")

        assumptions = cast(list[str], d.pop("assumptions"))


        bottleneck = d.pop("bottleneck")

        breakdown = Breakdown.from_dict(d.pop("breakdown"))




        calibration = EstimateCalibration(d.pop("calibration"))




        def _parse_catalog_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        catalog_version = _parse_catalog_version(d.pop("catalog_version"))


        communication_share = d.pop("communication_share")

        executed_tflops_per_gpu = d.pop("executed_tflops_per_gpu")

        def _parse_goodput(data: object) -> EstimateGoodput | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                goodput_type_0 = EstimateGoodput.from_dict(data)



                return goodput_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EstimateGoodput | None, data)

        goodput = _parse_goodput(d.pop("goodput"))


        gpus = d.pop("gpus")

        inter_node_bandwidth_gbs = d.pop("inter_node_bandwidth_gbs")

        intervals = EstimateIntervals.from_dict(d.pop("intervals"))




        memory = Memory.from_dict(d.pop("memory"))




        mfu = d.pop("mfu")

        mfu_causal = d.pop("mfu_causal")

        model_tflops_per_gpu = d.pop("model_tflops_per_gpu")

        model_tflops_per_gpu_causal = d.pop("model_tflops_per_gpu_causal")

        nodes = d.pop("nodes")

        samples_per_s = d.pop("samples_per_s")

        scaling_efficiency = d.pop("scaling_efficiency")

        step_time_s = d.pop("step_time_s")

        def _parse_tokens_per_s(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        tokens_per_s = _parse_tokens_per_s(d.pop("tokens_per_s"))


        estimate = cls(
            achieved_tflops_per_gpu=achieved_tflops_per_gpu,
            assumptions=assumptions,
            bottleneck=bottleneck,
            breakdown=breakdown,
            calibration=calibration,
            catalog_version=catalog_version,
            communication_share=communication_share,
            executed_tflops_per_gpu=executed_tflops_per_gpu,
            goodput=goodput,
            gpus=gpus,
            inter_node_bandwidth_gbs=inter_node_bandwidth_gbs,
            intervals=intervals,
            memory=memory,
            mfu=mfu,
            mfu_causal=mfu_causal,
            model_tflops_per_gpu=model_tflops_per_gpu,
            model_tflops_per_gpu_causal=model_tflops_per_gpu_causal,
            nodes=nodes,
            samples_per_s=samples_per_s,
            scaling_efficiency=scaling_efficiency,
            step_time_s=step_time_s,
            tokens_per_s=tokens_per_s,
        )

        return estimate

