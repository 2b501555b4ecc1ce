from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.series_point import SeriesPoint





T = TypeVar("T", bound="FabricLine")



@_attrs_define
class FabricLine:
    """ 
        Attributes:
            fabric (str):
            fabric_name (str):
            points (list[SeriesPoint]):
     """

    fabric: str
    fabric_name: str
    points: list[SeriesPoint]





    def to_dict(self) -> dict[str, Any]:
        from ..models.series_point import SeriesPoint # noqa: PLC0415
        fabric = self.fabric

        fabric_name = self.fabric_name

        points = []
        for points_item_data in self.points:
            points_item = points_item_data.to_dict()
            points.append(points_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "fabric": fabric,
            "fabric_name": fabric_name,
            "points": points,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.series_point import SeriesPoint # noqa: PLC0415
        d = dict(src_dict)
        fabric = d.pop("fabric")

        fabric_name = d.pop("fabric_name")

        points = []
        _points = d.pop("points")
        for points_item_data in (_points):
            points_item = SeriesPoint.from_dict(points_item_data)



            points.append(points_item)


        fabric_line = cls(
            fabric=fabric,
            fabric_name=fabric_name,
            points=points,
        )

        return fabric_line

