from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.custom_fabric import CustomFabric
  from ..models.custom_server import CustomServer





T = TypeVar("T", bound="Cluster")



@_attrs_define
class Cluster:
    """ 
        Attributes:
            nodes (int):
            custom_fabric (CustomFabric | Unset):
            custom_server (CustomServer | Unset):
            fabric (str | Unset): Catalog fabric id Example: ib-ndr-400.
            gpus_per_node (int | Unset): With a reference system: GPUs of each node the run uses (a one-GPU run on a DGX);
                default all of them
            nics_per_node (int | Unset): With a reference system: network adapters of each node the run uses (fewer when
                some are down or not visible to NCCL, as a run's log shows); default all of them
            oversubscription (float | Unset): Fabric tier ratio, default 1:1
            server (str | Unset): Catalog server id Example: hgx-h100-8.
            system (str | Unset): A reference system of published measurements (GET /v1/presets lists none; see
                catalog/data/reference_systems.yaml): DGX A100 as Selene, DGX H100, DGX B200, DGX-2, Jean Zay... Not sold: an
                estimate on it cannot be quoted. Its fabric is the default Example: dgx-a100.
     """

    nodes: int
    custom_fabric: CustomFabric | Unset = UNSET
    custom_server: CustomServer | Unset = UNSET
    fabric: str | Unset = UNSET
    gpus_per_node: int | Unset = UNSET
    nics_per_node: int | Unset = UNSET
    oversubscription: float | Unset = UNSET
    server: str | Unset = UNSET
    system: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.custom_fabric import CustomFabric # noqa: PLC0415
        from ..models.custom_server import CustomServer # noqa: PLC0415
        nodes = self.nodes

        custom_fabric: dict[str, Any] | Unset = UNSET
        if not isinstance(self.custom_fabric, Unset):
            custom_fabric = self.custom_fabric.to_dict()

        custom_server: dict[str, Any] | Unset = UNSET
        if not isinstance(self.custom_server, Unset):
            custom_server = self.custom_server.to_dict()

        fabric = self.fabric

        gpus_per_node = self.gpus_per_node

        nics_per_node = self.nics_per_node

        oversubscription = self.oversubscription

        server = self.server

        system = self.system


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "nodes": nodes,
        })
        if custom_fabric is not UNSET:
            field_dict["custom_fabric"] = custom_fabric
        if custom_server is not UNSET:
            field_dict["custom_server"] = custom_server
        if fabric is not UNSET:
            field_dict["fabric"] = fabric
        if gpus_per_node is not UNSET:
            field_dict["gpus_per_node"] = gpus_per_node
        if nics_per_node is not UNSET:
            field_dict["nics_per_node"] = nics_per_node
        if oversubscription is not UNSET:
            field_dict["oversubscription"] = oversubscription
        if server is not UNSET:
            field_dict["server"] = server
        if system is not UNSET:
            field_dict["system"] = system

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.custom_fabric import CustomFabric # noqa: PLC0415
        from ..models.custom_server import CustomServer # noqa: PLC0415
        d = dict(src_dict)
        nodes = d.pop("nodes")

        _custom_fabric = d.pop("custom_fabric", UNSET)
        custom_fabric: CustomFabric | Unset
        if isinstance(_custom_fabric,  Unset):
            custom_fabric = UNSET
        else:
            custom_fabric = CustomFabric.from_dict(_custom_fabric)




        _custom_server = d.pop("custom_server", UNSET)
        custom_server: CustomServer | Unset
        if isinstance(_custom_server,  Unset):
            custom_server = UNSET
        else:
            custom_server = CustomServer.from_dict(_custom_server)




        fabric = d.pop("fabric", UNSET)

        gpus_per_node = d.pop("gpus_per_node", UNSET)

        nics_per_node = d.pop("nics_per_node", UNSET)

        oversubscription = d.pop("oversubscription", UNSET)

        server = d.pop("server", UNSET)

        system = d.pop("system", UNSET)

        cluster = cls(
            nodes=nodes,
            custom_fabric=custom_fabric,
            custom_server=custom_server,
            fabric=fabric,
            gpus_per_node=gpus_per_node,
            nics_per_node=nics_per_node,
            oversubscription=oversubscription,
            server=server,
            system=system,
        )

        return cluster

