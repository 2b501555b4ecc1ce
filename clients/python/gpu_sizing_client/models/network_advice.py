from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.checklist_item import ChecklistItem
  from ..models.fabric_comparison import FabricComparison
  from ..models.fabric_vs_more_gpus import FabricVsMoreGpus
  from ..models.network_upgrade import NetworkUpgrade





T = TypeVar("T", bound="NetworkAdvice")



@_attrs_define
class NetworkAdvice:
    """ 
        Attributes:
            comparison (list[FabricComparison]):
            fabric_class (str):
            fabric_vs_more_gpus (FabricVsMoreGpus):
            nodes (int):
            reason (str):
            recommended_fabric (str): Rank 1's fabric; when rank 1 runs on one node, where no fabric is used or billed, the
                fabric it is listed with (the reason then says no fabric is recommended)
            recommended_fabric_name (str):
            roce_checklist (list[ChecklistItem]): The lossless-Ethernet checklist, when a ranked configuration is on RoCEv2
            server (str):
            server_name (str):
            upgrades (list[NetworkUpgrade]): What each faster network option (lossless RoCE, SHARP, a less oversubscribed
                spine, another fabric) buys over rank 1 for this job, most throughput per money first: one line per other fabric
                at its best-value spine ratio, and rank 1's fabric at each less oversubscribed spine
     """

    comparison: list[FabricComparison]
    fabric_class: str
    fabric_vs_more_gpus: FabricVsMoreGpus
    nodes: int
    reason: str
    recommended_fabric: str
    recommended_fabric_name: str
    roce_checklist: list[ChecklistItem]
    server: str
    server_name: str
    upgrades: list[NetworkUpgrade]





    def to_dict(self) -> dict[str, Any]:
        from ..models.checklist_item import ChecklistItem # noqa: PLC0415
        from ..models.fabric_comparison import FabricComparison # noqa: PLC0415
        from ..models.fabric_vs_more_gpus import FabricVsMoreGpus # noqa: PLC0415
        from ..models.network_upgrade import NetworkUpgrade # noqa: PLC0415
        comparison = []
        for comparison_item_data in self.comparison:
            comparison_item = comparison_item_data.to_dict()
            comparison.append(comparison_item)



        fabric_class = self.fabric_class

        fabric_vs_more_gpus = self.fabric_vs_more_gpus.to_dict()

        nodes = self.nodes

        reason = self.reason

        recommended_fabric = self.recommended_fabric

        recommended_fabric_name = self.recommended_fabric_name

        roce_checklist = []
        for roce_checklist_item_data in self.roce_checklist:
            roce_checklist_item = roce_checklist_item_data.to_dict()
            roce_checklist.append(roce_checklist_item)



        server = self.server

        server_name = self.server_name

        upgrades = []
        for upgrades_item_data in self.upgrades:
            upgrades_item = upgrades_item_data.to_dict()
            upgrades.append(upgrades_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "comparison": comparison,
            "fabric_class": fabric_class,
            "fabric_vs_more_gpus": fabric_vs_more_gpus,
            "nodes": nodes,
            "reason": reason,
            "recommended_fabric": recommended_fabric,
            "recommended_fabric_name": recommended_fabric_name,
            "roce_checklist": roce_checklist,
            "server": server,
            "server_name": server_name,
            "upgrades": upgrades,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.checklist_item import ChecklistItem # noqa: PLC0415
        from ..models.fabric_comparison import FabricComparison # noqa: PLC0415
        from ..models.fabric_vs_more_gpus import FabricVsMoreGpus # noqa: PLC0415
        from ..models.network_upgrade import NetworkUpgrade # noqa: PLC0415
        d = dict(src_dict)
        comparison = []
        _comparison = d.pop("comparison")
        for comparison_item_data in (_comparison):
            comparison_item = FabricComparison.from_dict(comparison_item_data)



            comparison.append(comparison_item)


        fabric_class = d.pop("fabric_class")

        fabric_vs_more_gpus = FabricVsMoreGpus.from_dict(d.pop("fabric_vs_more_gpus"))




        nodes = d.pop("nodes")

        reason = d.pop("reason")

        recommended_fabric = d.pop("recommended_fabric")

        recommended_fabric_name = d.pop("recommended_fabric_name")

        roce_checklist = []
        _roce_checklist = d.pop("roce_checklist")
        for roce_checklist_item_data in (_roce_checklist):
            roce_checklist_item = ChecklistItem.from_dict(roce_checklist_item_data)



            roce_checklist.append(roce_checklist_item)


        server = d.pop("server")

        server_name = d.pop("server_name")

        upgrades = []
        _upgrades = d.pop("upgrades")
        for upgrades_item_data in (_upgrades):
            upgrades_item = NetworkUpgrade.from_dict(upgrades_item_data)



            upgrades.append(upgrades_item)


        network_advice = cls(
            comparison=comparison,
            fabric_class=fabric_class,
            fabric_vs_more_gpus=fabric_vs_more_gpus,
            nodes=nodes,
            reason=reason,
            recommended_fabric=recommended_fabric,
            recommended_fabric_name=recommended_fabric_name,
            roce_checklist=roce_checklist,
            server=server,
            server_name=server_name,
            upgrades=upgrades,
        )

        return network_advice

