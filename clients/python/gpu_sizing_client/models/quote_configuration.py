from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.server_ref import ServerRef





T = TypeVar("T", bound="QuoteConfiguration")



@_attrs_define
class QuoteConfiguration:
    """ 
        Attributes:
            fabric (ServerRef):
            gpu (str):
            gpus (int):
            hot_spare_nodes (int): Of the nodes, the hot spares kept ready beside the job's (from its sizing): billed as
                nodes, and on the fabric only when the job itself spans nodes
            nics_per_node (int):
            nodes (int):
            oversubscription (float):
            region (str):
            server (ServerRef):
     """

    fabric: ServerRef
    gpu: str
    gpus: int
    hot_spare_nodes: int
    nics_per_node: int
    nodes: int
    oversubscription: float
    region: str
    server: ServerRef





    def to_dict(self) -> dict[str, Any]:
        from ..models.server_ref import ServerRef # noqa: PLC0415
        fabric = self.fabric.to_dict()

        gpu = self.gpu

        gpus = self.gpus

        hot_spare_nodes = self.hot_spare_nodes

        nics_per_node = self.nics_per_node

        nodes = self.nodes

        oversubscription = self.oversubscription

        region = self.region

        server = self.server.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "fabric": fabric,
            "gpu": gpu,
            "gpus": gpus,
            "hot_spare_nodes": hot_spare_nodes,
            "nics_per_node": nics_per_node,
            "nodes": nodes,
            "oversubscription": oversubscription,
            "region": region,
            "server": server,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.server_ref import ServerRef # noqa: PLC0415
        d = dict(src_dict)
        fabric = ServerRef.from_dict(d.pop("fabric"))




        gpu = d.pop("gpu")

        gpus = d.pop("gpus")

        hot_spare_nodes = d.pop("hot_spare_nodes")

        nics_per_node = d.pop("nics_per_node")

        nodes = d.pop("nodes")

        oversubscription = d.pop("oversubscription")

        region = d.pop("region")

        server = ServerRef.from_dict(d.pop("server"))




        quote_configuration = cls(
            fabric=fabric,
            gpu=gpu,
            gpus=gpus,
            hot_spare_nodes=hot_spare_nodes,
            nics_per_node=nics_per_node,
            nodes=nodes,
            oversubscription=oversubscription,
            region=region,
            server=server,
        )

        return quote_configuration

