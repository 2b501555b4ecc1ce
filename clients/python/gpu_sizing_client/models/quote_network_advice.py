from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.checklist_item import ChecklistItem





T = TypeVar("T", bound="QuoteNetworkAdvice")



@_attrs_define
class QuoteNetworkAdvice:
    """ 
        Attributes:
            fabric (str):
            fabric_class (str):
            fabric_name (str):
            note (str):
            reason (str):
            recommended (bool): The quoted fabric is the one the advice recommends
            recommended_fabric (str):
            recommended_fabric_name (str):
            roce_checklist (list[ChecklistItem]): The lossless-Ethernet checklist, when the quoted fabric is RoCEv2
     """

    fabric: str
    fabric_class: str
    fabric_name: str
    note: str
    reason: str
    recommended: bool
    recommended_fabric: str
    recommended_fabric_name: str
    roce_checklist: list[ChecklistItem]





    def to_dict(self) -> dict[str, Any]:
        from ..models.checklist_item import ChecklistItem # noqa: PLC0415
        fabric = self.fabric

        fabric_class = self.fabric_class

        fabric_name = self.fabric_name

        note = self.note

        reason = self.reason

        recommended = self.recommended

        recommended_fabric = self.recommended_fabric

        recommended_fabric_name = self.recommended_fabric_name

        roce_checklist = []
        for roce_checklist_item_data in self.roce_checklist:
            roce_checklist_item = roce_checklist_item_data.to_dict()
            roce_checklist.append(roce_checklist_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "fabric": fabric,
            "fabric_class": fabric_class,
            "fabric_name": fabric_name,
            "note": note,
            "reason": reason,
            "recommended": recommended,
            "recommended_fabric": recommended_fabric,
            "recommended_fabric_name": recommended_fabric_name,
            "roce_checklist": roce_checklist,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.checklist_item import ChecklistItem # noqa: PLC0415
        d = dict(src_dict)
        fabric = d.pop("fabric")

        fabric_class = d.pop("fabric_class")

        fabric_name = d.pop("fabric_name")

        note = d.pop("note")

        reason = d.pop("reason")

        recommended = d.pop("recommended")

        recommended_fabric = d.pop("recommended_fabric")

        recommended_fabric_name = d.pop("recommended_fabric_name")

        roce_checklist = []
        _roce_checklist = d.pop("roce_checklist")
        for roce_checklist_item_data in (_roce_checklist):
            roce_checklist_item = ChecklistItem.from_dict(roce_checklist_item_data)



            roce_checklist.append(roce_checklist_item)


        quote_network_advice = cls(
            fabric=fabric,
            fabric_class=fabric_class,
            fabric_name=fabric_name,
            note=note,
            reason=reason,
            recommended=recommended,
            recommended_fabric=recommended_fabric,
            recommended_fabric_name=recommended_fabric_name,
            roce_checklist=roce_checklist,
        )

        return quote_network_advice

