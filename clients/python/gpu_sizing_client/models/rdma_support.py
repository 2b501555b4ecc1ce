from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.rdma_support_sources import RdmaSupportSources





T = TypeVar("T", bound="RdmaSupport")



@_attrs_define
class RdmaSupport:
    """ 
        Attributes:
            collnet (bool): NCCL CollNet: the fabric's switches reduce in the network (SHARP)
            fabric (str):
            gpudirect_rdma (bool):
            nvls (bool): NCCL's NVLS algorithm inside a node: the GPU's NVSwitch reduces (NVLink SHARP)
            nvls_across_nodes (bool): NVLS combined with CollNet across nodes
            rdma (bool):
            server (str):
            supported (bool):
            nic (None | str | Unset):
            nics_used (int | None | Unset):
            reason (None | str | Unset):
            sources (RdmaSupportSources | Unset): Field name -> where its figure came from, or 'estimate: why'
     """

    collnet: bool
    fabric: str
    gpudirect_rdma: bool
    nvls: bool
    nvls_across_nodes: bool
    rdma: bool
    server: str
    supported: bool
    nic: None | str | Unset = UNSET
    nics_used: int | None | Unset = UNSET
    reason: None | str | Unset = UNSET
    sources: RdmaSupportSources | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.rdma_support_sources import RdmaSupportSources # noqa: PLC0415
        collnet = self.collnet

        fabric = self.fabric

        gpudirect_rdma = self.gpudirect_rdma

        nvls = self.nvls

        nvls_across_nodes = self.nvls_across_nodes

        rdma = self.rdma

        server = self.server

        supported = self.supported

        nic: None | str | Unset
        if isinstance(self.nic, Unset):
            nic = UNSET
        else:
            nic = self.nic

        nics_used: int | None | Unset
        if isinstance(self.nics_used, Unset):
            nics_used = UNSET
        else:
            nics_used = self.nics_used

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        sources: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sources, Unset):
            sources = self.sources.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "collnet": collnet,
            "fabric": fabric,
            "gpudirect_rdma": gpudirect_rdma,
            "nvls": nvls,
            "nvls_across_nodes": nvls_across_nodes,
            "rdma": rdma,
            "server": server,
            "supported": supported,
        })
        if nic is not UNSET:
            field_dict["nic"] = nic
        if nics_used is not UNSET:
            field_dict["nics_used"] = nics_used
        if reason is not UNSET:
            field_dict["reason"] = reason
        if sources is not UNSET:
            field_dict["sources"] = sources

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rdma_support_sources import RdmaSupportSources # noqa: PLC0415
        d = dict(src_dict)
        collnet = d.pop("collnet")

        fabric = d.pop("fabric")

        gpudirect_rdma = d.pop("gpudirect_rdma")

        nvls = d.pop("nvls")

        nvls_across_nodes = d.pop("nvls_across_nodes")

        rdma = d.pop("rdma")

        server = d.pop("server")

        supported = d.pop("supported")

        def _parse_nic(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        nic = _parse_nic(d.pop("nic", UNSET))


        def _parse_nics_used(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        nics_used = _parse_nics_used(d.pop("nics_used", UNSET))


        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        _sources = d.pop("sources", UNSET)
        sources: RdmaSupportSources | Unset
        if isinstance(_sources,  Unset):
            sources = UNSET
        else:
            sources = RdmaSupportSources.from_dict(_sources)




        rdma_support = cls(
            collnet=collnet,
            fabric=fabric,
            gpudirect_rdma=gpudirect_rdma,
            nvls=nvls,
            nvls_across_nodes=nvls_across_nodes,
            rdma=rdma,
            server=server,
            supported=supported,
            nic=nic,
            nics_used=nics_used,
            reason=reason,
            sources=sources,
        )

        return rdma_support

