from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.nic import Nic
  from ..models.server_sources import ServerSources





T = TypeVar("T", bound="Server")



@_attrs_define
class Server:
    """ 
        Attributes:
            gpu (str):
            gpus_per_node (int):
            id (str):  Example: hgx-h100.
            name (str):
            nic_gpu_same_switch (bool): Each NIC under its GPUs' PCIe switch (GPUDirect RDMA)
            nics (list[Nic]):
            pcie_gen (int):
            cpu (str | Unset):
            host_memory_gb (float | Unset):
            power_kw (float | Unset):
            sources (ServerSources | Unset): Field name -> where its figure came from, or 'estimate: why'
     """

    gpu: str
    gpus_per_node: int
    id: str
    name: str
    nic_gpu_same_switch: bool
    nics: list[Nic]
    pcie_gen: int
    cpu: str | Unset = UNSET
    host_memory_gb: float | Unset = UNSET
    power_kw: float | Unset = UNSET
    sources: ServerSources | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.nic import Nic # noqa: PLC0415
        from ..models.server_sources import ServerSources # noqa: PLC0415
        gpu = self.gpu

        gpus_per_node = self.gpus_per_node

        id = self.id

        name = self.name

        nic_gpu_same_switch = self.nic_gpu_same_switch

        nics = []
        for nics_item_data in self.nics:
            nics_item = nics_item_data.to_dict()
            nics.append(nics_item)



        pcie_gen = self.pcie_gen

        cpu = self.cpu

        host_memory_gb = self.host_memory_gb

        power_kw = self.power_kw

        sources: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sources, Unset):
            sources = self.sources.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "gpu": gpu,
            "gpus_per_node": gpus_per_node,
            "id": id,
            "name": name,
            "nic_gpu_same_switch": nic_gpu_same_switch,
            "nics": nics,
            "pcie_gen": pcie_gen,
        })
        if cpu is not UNSET:
            field_dict["cpu"] = cpu
        if host_memory_gb is not UNSET:
            field_dict["host_memory_gb"] = host_memory_gb
        if power_kw is not UNSET:
            field_dict["power_kw"] = power_kw
        if sources is not UNSET:
            field_dict["sources"] = sources

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.nic import Nic # noqa: PLC0415
        from ..models.server_sources import ServerSources # noqa: PLC0415
        d = dict(src_dict)
        gpu = d.pop("gpu")

        gpus_per_node = d.pop("gpus_per_node")

        id = d.pop("id")

        name = d.pop("name")

        nic_gpu_same_switch = d.pop("nic_gpu_same_switch")

        nics = []
        _nics = d.pop("nics")
        for nics_item_data in (_nics):
            nics_item = Nic.from_dict(nics_item_data)



            nics.append(nics_item)


        pcie_gen = d.pop("pcie_gen")

        cpu = d.pop("cpu", UNSET)

        host_memory_gb = d.pop("host_memory_gb", UNSET)

        power_kw = d.pop("power_kw", UNSET)

        _sources = d.pop("sources", UNSET)
        sources: ServerSources | Unset
        if isinstance(_sources,  Unset):
            sources = UNSET
        else:
            sources = ServerSources.from_dict(_sources)




        server = cls(
            gpu=gpu,
            gpus_per_node=gpus_per_node,
            id=id,
            name=name,
            nic_gpu_same_switch=nic_gpu_same_switch,
            nics=nics,
            pcie_gen=pcie_gen,
            cpu=cpu,
            host_memory_gb=host_memory_gb,
            power_kw=power_kw,
            sources=sources,
        )

        return server

