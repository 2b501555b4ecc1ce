from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="SeriesPoint")



@_attrs_define
class SeriesPoint:
    """ 
        Attributes:
            communication_share (float):
            efficiency_vs_one_node (float | None):
            nodes (int):
            scaling_efficiency (float): Share of the predicted step time spent on GPU work: the compute (activation
                recomputation included) and the optimizer step, over the step time; the rest is exposed communication, pipeline
                bubble, stragglers and the overlap slowdown. 1.0 is a step with no such overhead, not perfectly linear scaling:
                recomputed FLOPs count as work. efficiency_vs_one_node compares throughput per GPU with one node's
            throughput (float):
     """

    communication_share: float
    efficiency_vs_one_node: float | None
    nodes: int
    scaling_efficiency: float
    throughput: float





    def to_dict(self) -> dict[str, Any]:
        communication_share = self.communication_share

        efficiency_vs_one_node: float | None
        efficiency_vs_one_node = self.efficiency_vs_one_node

        nodes = self.nodes

        scaling_efficiency = self.scaling_efficiency

        throughput = self.throughput


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "communication_share": communication_share,
            "efficiency_vs_one_node": efficiency_vs_one_node,
            "nodes": nodes,
            "scaling_efficiency": scaling_efficiency,
            "throughput": throughput,
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


        nodes = d.pop("nodes")

        scaling_efficiency = d.pop("scaling_efficiency")

        throughput = d.pop("throughput")

        series_point = cls(
            communication_share=communication_share,
            efficiency_vs_one_node=efficiency_vs_one_node,
            nodes=nodes,
            scaling_efficiency=scaling_efficiency,
            throughput=throughput,
        )

        return series_point

