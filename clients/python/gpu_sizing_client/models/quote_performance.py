from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.quote_performance_intervals import QuotePerformanceIntervals
  from ..models.result_layout import ResultLayout





T = TypeVar("T", bound="QuotePerformance")



@_attrs_define
class QuotePerformance:
    """ 
        Attributes:
            bottleneck (str):
            calibration (str): calibrated or extrapolated (see the sizing)
            communication_share (float):
            efficiency_vs_one_node (float | None): Throughput per GPU over that of the server's fastest layout on one node
                that fits (efficiency_series.one_node_layout): one scale for every fabric and node count; null where no one-node
                layout fits in memory (efficiency_series.one_node_fits_memory false), as there is no one-node run to compare
                with. It compares layouts as well as node counts, so it exceeds 1 where more nodes let a layout shard less (less
                tensor or pipeline parallelism, less recomputation) than one node's memory forces; the notes then say so
            expected_interruptions (float):
            goodput (float): Useful training time over wall clock, failures counted
            intervals (QuotePerformanceIntervals): p10-p90 of each headline figure from the model's error on published
                measurements by category (split-conformal, catalog/data/uncertainty.yaml), widened for an extrapolated
                configuration by a prior on the constants marked estimate; total: the price of a run of each end of
                time_to_train_hours's interval, billed by the term's rule, at the term, currency and prices of the document it
                is in (a quote's own, a re-priced quote's new ones), p10 rounded down and p90 up to 4 significant digits so that
                the range holds the total shown to the cent (a range of the model's uncertainty, not a charge)
            layout (ResultLayout):
            mfu (float):
            mfu_causal (float | None): The sizing's mfu_causal (half the score matrix of a causal model); null for quotes or
                sizings stored before it
            samples_per_s (float):
            scaling_efficiency (float): Share of the predicted step time spent on GPU work: the compute (activation
                recomputation included) and the optimizer step, over the step time; the rest is exposed communication, pipeline
                bubble, stragglers and the overlap slowdown. 1.0 is a step with no such overhead, not perfectly linear scaling:
                recomputed FLOPs count as work. efficiency_vs_one_node compares throughput per GPU with one node's
            sizing_catalog_version (int):
            step_time_s (float):
            time_to_train_hours (float):
            tokens_per_s (float | None):
            training_hours (float | None): The sizing's training_hours: the wall clock billed, unrounded
     """

    bottleneck: str
    calibration: str
    communication_share: float
    efficiency_vs_one_node: float | None
    expected_interruptions: float
    goodput: float
    intervals: QuotePerformanceIntervals
    layout: ResultLayout
    mfu: float
    mfu_causal: float | None
    samples_per_s: float
    scaling_efficiency: float
    sizing_catalog_version: int
    step_time_s: float
    time_to_train_hours: float
    tokens_per_s: float | None
    training_hours: float | None





    def to_dict(self) -> dict[str, Any]:
        from ..models.quote_performance_intervals import QuotePerformanceIntervals # noqa: PLC0415
        from ..models.result_layout import ResultLayout # noqa: PLC0415
        bottleneck = self.bottleneck

        calibration = self.calibration

        communication_share = self.communication_share

        efficiency_vs_one_node: float | None
        efficiency_vs_one_node = self.efficiency_vs_one_node

        expected_interruptions = self.expected_interruptions

        goodput = self.goodput

        intervals = self.intervals.to_dict()

        layout = self.layout.to_dict()

        mfu = self.mfu

        mfu_causal: float | None
        mfu_causal = self.mfu_causal

        samples_per_s = self.samples_per_s

        scaling_efficiency = self.scaling_efficiency

        sizing_catalog_version = self.sizing_catalog_version

        step_time_s = self.step_time_s

        time_to_train_hours = self.time_to_train_hours

        tokens_per_s: float | None
        tokens_per_s = self.tokens_per_s

        training_hours: float | None
        training_hours = self.training_hours


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "bottleneck": bottleneck,
            "calibration": calibration,
            "communication_share": communication_share,
            "efficiency_vs_one_node": efficiency_vs_one_node,
            "expected_interruptions": expected_interruptions,
            "goodput": goodput,
            "intervals": intervals,
            "layout": layout,
            "mfu": mfu,
            "mfu_causal": mfu_causal,
            "samples_per_s": samples_per_s,
            "scaling_efficiency": scaling_efficiency,
            "sizing_catalog_version": sizing_catalog_version,
            "step_time_s": step_time_s,
            "time_to_train_hours": time_to_train_hours,
            "tokens_per_s": tokens_per_s,
            "training_hours": training_hours,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.quote_performance_intervals import QuotePerformanceIntervals # noqa: PLC0415
        from ..models.result_layout import ResultLayout # noqa: PLC0415
        d = dict(src_dict)
        bottleneck = d.pop("bottleneck")

        calibration = d.pop("calibration")

        communication_share = d.pop("communication_share")

        def _parse_efficiency_vs_one_node(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        efficiency_vs_one_node = _parse_efficiency_vs_one_node(d.pop("efficiency_vs_one_node"))


        expected_interruptions = d.pop("expected_interruptions")

        goodput = d.pop("goodput")

        intervals = QuotePerformanceIntervals.from_dict(d.pop("intervals"))




        layout = ResultLayout.from_dict(d.pop("layout"))




        mfu = d.pop("mfu")

        def _parse_mfu_causal(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mfu_causal = _parse_mfu_causal(d.pop("mfu_causal"))


        samples_per_s = d.pop("samples_per_s")

        scaling_efficiency = d.pop("scaling_efficiency")

        sizing_catalog_version = d.pop("sizing_catalog_version")

        step_time_s = d.pop("step_time_s")

        time_to_train_hours = d.pop("time_to_train_hours")

        def _parse_tokens_per_s(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        tokens_per_s = _parse_tokens_per_s(d.pop("tokens_per_s"))


        def _parse_training_hours(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        training_hours = _parse_training_hours(d.pop("training_hours"))


        quote_performance = cls(
            bottleneck=bottleneck,
            calibration=calibration,
            communication_share=communication_share,
            efficiency_vs_one_node=efficiency_vs_one_node,
            expected_interruptions=expected_interruptions,
            goodput=goodput,
            intervals=intervals,
            layout=layout,
            mfu=mfu,
            mfu_causal=mfu_causal,
            samples_per_s=samples_per_s,
            scaling_efficiency=scaling_efficiency,
            sizing_catalog_version=sizing_catalog_version,
            step_time_s=step_time_s,
            time_to_train_hours=time_to_train_hours,
            tokens_per_s=tokens_per_s,
            training_hours=training_hours,
        )

        return quote_performance

