from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="FabricComparison")



@_attrs_define
class FabricComparison:
    """ 
        Attributes:
            communication_share (float):
            efficiency_vs_one_node (float | None): Throughput per GPU over that of the server's fastest layout on one node
                that fits (efficiency_series.one_node_layout): one scale for every fabric and node count; null where no one-node
                layout fits in memory (efficiency_series.one_node_fits_memory false), as there is no one-node run to compare
                with. It compares layouts as well as node counts, so it exceeds 1 where more nodes let a layout shard less (less
                tensor or pipeline parallelism, less recomputation) than one node's memory forces; the notes then say so
            fabric (str):
            fabric_name (str):
            goodput (float):
            monthly (str):
            oversubscription (float): The spine's oversubscription this row was priced and estimated at (n:1)
            recommended (bool):
            scaling_efficiency (float): Share of the predicted step time spent on GPU work: the compute (activation
                recomputation included) and the optimizer step, over the step time; the rest is exposed communication, pipeline
                bubble, stragglers and the overlap slowdown. 1.0 is a step with no such overhead, not perfectly linear scaling:
                recomputed FLOPs count as work. efficiency_vs_one_node compares throughput per GPU with one node's
            throughput (float):
            throughput_unit (str):
            time_to_train_hours (float): With failures, as the ranking weighs it
            total (str): The training's price with failures, before tax
     """

    communication_share: float
    efficiency_vs_one_node: float | None
    fabric: str
    fabric_name: str
    goodput: float
    monthly: str
    oversubscription: float
    recommended: bool
    scaling_efficiency: float
    throughput: float
    throughput_unit: str
    time_to_train_hours: float
    total: str





    def to_dict(self) -> dict[str, Any]:
        communication_share = self.communication_share

        efficiency_vs_one_node: float | None
        efficiency_vs_one_node = self.efficiency_vs_one_node

        fabric = self.fabric

        fabric_name = self.fabric_name

        goodput = self.goodput

        monthly = self.monthly

        oversubscription = self.oversubscription

        recommended = self.recommended

        scaling_efficiency = self.scaling_efficiency

        throughput = self.throughput

        throughput_unit = self.throughput_unit

        time_to_train_hours = self.time_to_train_hours

        total = self.total


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "communication_share": communication_share,
            "efficiency_vs_one_node": efficiency_vs_one_node,
            "fabric": fabric,
            "fabric_name": fabric_name,
            "goodput": goodput,
            "monthly": monthly,
            "oversubscription": oversubscription,
            "recommended": recommended,
            "scaling_efficiency": scaling_efficiency,
            "throughput": throughput,
            "throughput_unit": throughput_unit,
            "time_to_train_hours": time_to_train_hours,
            "total": total,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        communication_share = d.pop("communication_share")

        def _parse_efficiency_vs_one_node(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        efficiency_vs_one_node = _parse_efficiency_vs_one_node(d.pop("efficiency_vs_one_node"))


        fabric = d.pop("fabric")

        fabric_name = d.pop("fabric_name")

        goodput = d.pop("goodput")

        monthly = d.pop("monthly")

        oversubscription = d.pop("oversubscription")

        recommended = d.pop("recommended")

        scaling_efficiency = d.pop("scaling_efficiency")

        throughput = d.pop("throughput")

        throughput_unit = d.pop("throughput_unit")

        time_to_train_hours = d.pop("time_to_train_hours")

        total = d.pop("total")

        fabric_comparison = cls(
            communication_share=communication_share,
            efficiency_vs_one_node=efficiency_vs_one_node,
            fabric=fabric,
            fabric_name=fabric_name,
            goodput=goodput,
            monthly=monthly,
            oversubscription=oversubscription,
            recommended=recommended,
            scaling_efficiency=scaling_efficiency,
            throughput=throughput,
            throughput_unit=throughput_unit,
            time_to_train_hours=time_to_train_hours,
            total=total,
        )

        return fabric_comparison

