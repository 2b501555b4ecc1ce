from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.cluster import Cluster
  from ..models.layout import Layout
  from ..models.training import Training
  from ..models.workload import Workload





T = TypeVar("T", bound="EstimateRequest")



@_attrs_define
class EstimateRequest:
    """ 
        Attributes:
            cluster (Cluster):
            layout (Layout):
            training (Training):
            workload (Workload):
            catalog_version (int | Unset): Default: the current version
            duration_days (float | Unset): A run of this many days: the answer adds its goodput (interruptions, checkpoints,
                restarts)
     """

    cluster: Cluster
    layout: Layout
    training: Training
    workload: Workload
    catalog_version: int | Unset = UNSET
    duration_days: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.cluster import Cluster # noqa: PLC0415
        from ..models.layout import Layout # noqa: PLC0415
        from ..models.training import Training # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        cluster = self.cluster.to_dict()

        layout = self.layout.to_dict()

        training = self.training.to_dict()

        workload = self.workload.to_dict()

        catalog_version = self.catalog_version

        duration_days = self.duration_days


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "cluster": cluster,
            "layout": layout,
            "training": training,
            "workload": workload,
        })
        if catalog_version is not UNSET:
            field_dict["catalog_version"] = catalog_version
        if duration_days is not UNSET:
            field_dict["duration_days"] = duration_days

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cluster import Cluster # noqa: PLC0415
        from ..models.layout import Layout # noqa: PLC0415
        from ..models.training import Training # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        d = dict(src_dict)
        cluster = Cluster.from_dict(d.pop("cluster"))




        layout = Layout.from_dict(d.pop("layout"))




        training = Training.from_dict(d.pop("training"))




        workload = Workload.from_dict(d.pop("workload"))




        catalog_version = d.pop("catalog_version", UNSET)

        duration_days = d.pop("duration_days", UNSET)

        estimate_request = cls(
            cluster=cluster,
            layout=layout,
            training=training,
            workload=workload,
            catalog_version=catalog_version,
            duration_days=duration_days,
        )

        return estimate_request

