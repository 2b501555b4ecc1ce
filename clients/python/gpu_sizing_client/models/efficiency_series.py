from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.fabric_line import FabricLine
  from ..models.result_layout import ResultLayout





T = TypeVar("T", bound="EfficiencySeries")



@_attrs_define
class EfficiencySeries:
    """ 
        Attributes:
            layout_family (ResultLayout):
            layout_family_description (str):
            lines (list[FabricLine]):
            one_node_fits_memory (bool): Whether one_node_layout fits one node's memory (False: no one-node layout fits,
                one_node_throughput_per_gpu is one node's speed as if memory allowed, a run no one could make, and every
                efficiency_vs_one_node of the server is null); says nothing of layout_family, which may not fit one node
            one_node_layout (None | ResultLayout): The reference of efficiency_vs_one_node: the fastest layout per GPU on
                one node of the server (of those that fit, where one does), not necessarily layout_family
            one_node_layout_description (None | str):
            one_node_throughput_per_gpu (float | None): The scale of efficiency_vs_one_node: the throughput per GPU of
                one_node_layout
            server (str):
            server_name (str):
            throughput_unit (str):
     """

    layout_family: ResultLayout
    layout_family_description: str
    lines: list[FabricLine]
    one_node_fits_memory: bool
    one_node_layout: None | ResultLayout
    one_node_layout_description: None | str
    one_node_throughput_per_gpu: float | None
    server: str
    server_name: str
    throughput_unit: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.fabric_line import FabricLine # noqa: PLC0415
        from ..models.result_layout import ResultLayout # noqa: PLC0415
        layout_family = self.layout_family.to_dict()

        layout_family_description = self.layout_family_description

        lines = []
        for lines_item_data in self.lines:
            lines_item = lines_item_data.to_dict()
            lines.append(lines_item)



        one_node_fits_memory = self.one_node_fits_memory

        one_node_layout: dict[str, Any] | None
        if isinstance(self.one_node_layout, ResultLayout):
            one_node_layout = self.one_node_layout.to_dict()
        else:
            one_node_layout = self.one_node_layout

        one_node_layout_description: None | str
        one_node_layout_description = self.one_node_layout_description

        one_node_throughput_per_gpu: float | None
        one_node_throughput_per_gpu = self.one_node_throughput_per_gpu

        server = self.server

        server_name = self.server_name

        throughput_unit = self.throughput_unit


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "layout_family": layout_family,
            "layout_family_description": layout_family_description,
            "lines": lines,
            "one_node_fits_memory": one_node_fits_memory,
            "one_node_layout": one_node_layout,
            "one_node_layout_description": one_node_layout_description,
            "one_node_throughput_per_gpu": one_node_throughput_per_gpu,
            "server": server,
            "server_name": server_name,
            "throughput_unit": throughput_unit,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fabric_line import FabricLine # noqa: PLC0415
        from ..models.result_layout import ResultLayout # noqa: PLC0415
        d = dict(src_dict)
        layout_family = ResultLayout.from_dict(d.pop("layout_family"))




        layout_family_description = d.pop("layout_family_description")

        lines = []
        _lines = d.pop("lines")
        for lines_item_data in (_lines):
            lines_item = FabricLine.from_dict(lines_item_data)



            lines.append(lines_item)


        one_node_fits_memory = d.pop("one_node_fits_memory")

        def _parse_one_node_layout(data: object) -> None | ResultLayout:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                one_node_layout_type_0 = ResultLayout.from_dict(data)



                return one_node_layout_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ResultLayout, data)

        one_node_layout = _parse_one_node_layout(d.pop("one_node_layout"))


        def _parse_one_node_layout_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        one_node_layout_description = _parse_one_node_layout_description(d.pop("one_node_layout_description"))


        def _parse_one_node_throughput_per_gpu(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        one_node_throughput_per_gpu = _parse_one_node_throughput_per_gpu(d.pop("one_node_throughput_per_gpu"))


        server = d.pop("server")

        server_name = d.pop("server_name")

        throughput_unit = d.pop("throughput_unit")

        efficiency_series = cls(
            layout_family=layout_family,
            layout_family_description=layout_family_description,
            lines=lines,
            one_node_fits_memory=one_node_fits_memory,
            one_node_layout=one_node_layout,
            one_node_layout_description=one_node_layout_description,
            one_node_throughput_per_gpu=one_node_throughput_per_gpu,
            server=server,
            server_name=server_name,
            throughput_unit=throughput_unit,
        )

        return efficiency_series

